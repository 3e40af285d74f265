//! Opening, creating and migrating a library, and reading its record (schema version in
//! `PRAGMA user_version`, tokenizer in `recall_meta`).
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension};

use crate::err;
use crate::error::{Context, Result};
use crate::tokenizer;

include!(concat!(env!("OUT_DIR"), "/embedded_sql.rs"));

/// `PRAGMA application_id` of every library: "RCLL".
pub const APPLICATION_ID: i64 = 0x5243_4c4c;
/// The tokenize clause of the migrations, replaced by the library's tokenizer.
pub const DEFAULT_TOKENIZE_CLAUSE: &str = "tokenize = 'trigram remove_diacritics 1'";
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

static BUSY: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();

/// Sets the busy timeout of every connection this process opens (from the config).
pub fn set_busy_timeout(timeout: Duration) {
    let _ = BUSY.set(timeout);
}

fn busy_timeout() -> Duration {
    BUSY.get().copied().unwrap_or(BUSY_TIMEOUT)
}
pub const TRIGGERS: &[&str] = &[
    "items_fts_before_insert",
    "items_fts_after_insert",
    "items_fts_after_delete",
    "items_fts_after_update",
];

pub fn latest_version() -> u32 {
    MIGRATIONS.last().map(|m| m.0).unwrap_or(0)
}

/// The SQL of a query file of `sql/`, by name.
pub fn query_sql(name: &str) -> &'static str {
    QUERIES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, sql)| *sql)
        .unwrap_or_else(|| panic!("sql/{name}.sql is embedded by build.rs"))
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Access {
    Read,
    Write,
}

pub struct Library {
    pub conn: Connection,
    pub path: PathBuf,
    pub tokenizer: String,
    pub schema_version: u32,
}

fn configure(conn: &Connection) -> Result<()> {
    conn.busy_timeout(busy_timeout())
        .context("setting the busy timeout")?;
    crate::functions::register(conn).context("registering the recall_* functions")
}

fn migration_sql(sql: &str, tokenizer: &str) -> String {
    sql.replace(
        DEFAULT_TOKENIZE_CLAUSE,
        &format!("tokenize = {}", tokenizer::sql_literal(tokenizer)),
    )
}

/// Opens an existing library, checks it is one, and that its schema and tokenizer are
/// the ones this command expects. `configured` is the tokenizer of a flag or config.
pub fn open(path: &Path, access: Access, configured: Option<&str>) -> Result<Library> {
    let lib = open_unchecked(path, access)?;
    if lib.schema_version < latest_version() {
        return Err(err!(
            "{} is at schema version {}, this recall needs {}: run `recall migrate` first",
            path.display(),
            lib.schema_version,
            latest_version()
        ));
    }
    check_configured(&lib, configured)?;
    Ok(lib)
}

/// Refuses to run when the configured tokenizer differs from the recorded one.
pub fn check_configured(lib: &Library, configured: Option<&str>) -> Result<()> {
    let Some(configured) = configured else {
        return Ok(());
    };
    let configured = tokenizer::parse(configured)?;
    if configured != lib.tokenizer {
        return Err(err!(
            "the configured tokenizer '{configured}' differs from the library's '{}': run `recall rebuild --tokenizer '{configured}'` to switch the library, or configure '{}'",
            lib.tokenizer,
            lib.tokenizer
        ));
    }
    Ok(())
}

/// Opens a library without the schema-version and tokenizer checks (for `migrate` and
/// `check`, which report on those themselves).
pub fn open_unchecked(path: &Path, access: Access) -> Result<Library> {
    if !path.exists() {
        return Err(err!(
            "no library at {}: create one with `recall init --db {}`",
            path.display(),
            path.display()
        ));
    }
    if path.is_dir() {
        return Err(err!(
            "{} is a directory, not a library file",
            path.display()
        ));
    }
    let read_only = std::fs::metadata(path)
        .map(|m| m.permissions().readonly())
        .unwrap_or(false);
    if access == Access::Write && read_only {
        return Err(err!(
            "{} is read-only and this command writes to it: make it writable (chmod u+w {}) or use a read command",
            path.display(),
            path.display()
        ));
    }
    let flags = match access {
        Access::Read => OpenFlags::SQLITE_OPEN_READ_ONLY,
        Access::Write => OpenFlags::SQLITE_OPEN_READ_WRITE,
    } | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let doing = format!("opening {}", path.display());
    let conn = Connection::open_with_flags(path, flags).context(&doing)?;
    configure(&conn)?;
    let app_id: i64 = conn
        .query_row("pragma application_id", [], |r| r.get(0))
        .map_err(|e| match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::NotADatabase) => err!(
                "{} is not a SQLite database: give the path of a library, or create one with `recall init`",
                path.display()
            ),
            _ => err!("{}", crate::error::describe_sqlite(&doing, &e)),
        })?;
    let has_meta: bool = conn
        .query_row(
            "select count(*) from sqlite_master where type = 'table' and name = 'recall_meta'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .context(&doing)?
        > 0;
    if app_id != APPLICATION_ID || !has_meta {
        return Err(err!(
            "{} is a SQLite database but not a recall library: create a library with `recall init --db NEW_PATH`",
            path.display()
        ));
    }
    let schema_version: u32 = conn
        .query_row("pragma user_version", [], |r| r.get(0))
        .context(&doing)?;
    if schema_version > latest_version() {
        return Err(err!(
            "{} has schema version {schema_version}, newer than this recall knows ({}): upgrade recall",
            path.display(),
            latest_version()
        ));
    }
    let tokenizer: String = conn
        .query_row(
            "select value from recall_meta where key = 'tokenizer'",
            [],
            |r| r.get(0),
        )
        .optional()
        .context(&doing)?
        .ok_or_else(|| {
            err!(
                "{} has no recorded tokenizer: it is damaged; `recall check` tells more",
                path.display()
            )
        })?;
    Ok(Library {
        conn,
        path: path.to_path_buf(),
        tokenizer,
        schema_version,
    })
}

/// Creates a library: every migration and the tokenizer record in one transaction. On
/// failure the new file is removed, so no half-made library is left behind.
pub fn create(path: &Path, tokenizer_spec: &str) -> Result<Library> {
    let spec = tokenizer::parse(tokenizer_spec)?;
    tokenizer::ensure_buildable(&spec)?;
    if path.exists() {
        let len = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        if len > 0 {
            if open_unchecked(path, Access::Read).is_ok() {
                return Err(err!(
                    "{} is already a recall library: use it as it is, or `recall migrate` it",
                    path.display()
                ));
            }
            return Err(err!(
                "{} already exists and is not an empty file: choose another path",
                path.display()
            ));
        }
    }
    let result = create_inner(path, &spec);
    if result.is_err() {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let mut p = path.as_os_str().to_owned();
            p.push(suffix);
            let _ = std::fs::remove_file(PathBuf::from(p));
        }
    }
    result
}

/// Records an applied migration in `recall_migrations`, which exists from version 2.
fn log_migration(tx: &rusqlite::Transaction, version: u32, name: &str) -> Result<()> {
    if version >= 2 {
        tx.execute(
            "insert into recall_migrations (version, name, applied_at)
             values (?1, ?2, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
            rusqlite::params![version, name],
        )
        .context("recording the migration")?;
    }
    Ok(())
}

/// The schema version `init` builds: the latest, unless a test asks for an older one
/// (`RECALL_TEST_INIT_VERSION`) to exercise `migrate`.
fn init_version() -> u32 {
    std::env::var("RECALL_TEST_INIT_VERSION")
        .ok()
        .and_then(|v| v.parse().ok())
        .map(|v: u32| v.min(latest_version()))
        .unwrap_or_else(latest_version)
}

fn create_inner(path: &Path, spec: &str) -> Result<Library> {
    let doing = format!("creating {}", path.display());
    let conn = Connection::open(path).context(&doing)?;
    configure(&conn)?;
    // WAL: any number of readers while one writer imports. Set outside a transaction.
    conn.query_row("pragma journal_mode = wal", [], |_| Ok(()))
        .context(&doing)?;
    let mut conn = conn;
    let tx = conn.transaction().context(&doing)?;
    tx.execute_batch(&format!("pragma application_id = {APPLICATION_ID}"))
        .context(&doing)?;
    let target = init_version();
    for (version, name, sql) in MIGRATIONS.iter().filter(|m| m.0 <= target) {
        let doing = format!("applying migration {version:04}_{name}");
        tx.execute_batch(&migration_sql(sql, spec))
            .context(&doing)?;
        if *version == 1 {
            // Migration 0002 reads the creation time to date migration 1.
            tx.execute(
                "insert into recall_meta(key, value) values ('created_at', strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                [],
            )
            .context(&doing)?;
        }
        log_migration(&tx, *version, name)?;
    }
    tx.execute_batch(&format!("pragma user_version = {target}"))
        .context(&doing)?;
    tx.execute(
        "insert into recall_meta(key, value) values ('tokenizer', ?1), ('created_by', ?2)",
        rusqlite::params![
            spec,
            format!("recall {}", recall_core::functions::version())
        ],
    )
    .context(&doing)?;
    tx.commit().context(&doing)?;
    Ok(Library {
        conn,
        path: path.to_path_buf(),
        tokenizer: spec.to_string(),
        schema_version: target,
    })
}

/// Applies pending migrations, each in its own transaction. Returns (from, to).
pub fn migrate(lib: &mut Library) -> Result<(u32, u32)> {
    let from = lib.schema_version;
    for (version, name, sql) in MIGRATIONS.iter().filter(|m| m.0 > from) {
        let doing = format!("applying migration {version:04}_{name}");
        let tx = lib
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .context(&doing)?;
        tx.execute_batch(&migration_sql(sql, &lib.tokenizer))
            .context(&doing)?;
        log_migration(&tx, *version, name)?;
        tx.execute_batch(&format!("pragma user_version = {version}"))
            .context(&doing)?;
        crate::fault::pause_point("migrate", i64::from(*version));
        tx.commit().context(&doing)?;
        lib.schema_version = *version;
    }
    Ok((from, lib.schema_version))
}

/// The `CREATE VIRTUAL TABLE` statement of the index, as stored.
pub fn index_sql(conn: &Connection) -> Result<Option<String>> {
    conn.query_row(
        "select sql from sqlite_master where type = 'table' and name = 'items_fts'",
        [],
        |r| r.get(0),
    )
    .optional()
    .context("reading the index definition")
}
