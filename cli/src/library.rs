//! Opening, creating and migrating a library, and reading its record (schema version in
//! `PRAGMA user_version`, tokenizer in `recall_meta`).
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension};

use crate::err;
use crate::error::{Context, Error, Result};
use crate::tokenizer;

include!(concat!(env!("OUT_DIR"), "/migrations.rs"));

/// `PRAGMA application_id` of every library: "RCLL".
pub const APPLICATION_ID: i64 = 0x5243_4c4c;
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
    sqlite_recall_rusqlite::register(conn).context("registering the recall_* functions")?;
    crate::vectors::store::register(conn)
}

/// A migration's SQL with the library's tokenizer in its tokenize clause: as written,
/// a migration builds the default one (a test checks the clause is there to replace).
pub fn migration_sql(sql: &str, tokenizer: &str) -> String {
    sql.replace(
        &format!("tokenize = {}", tokenizer::sql_literal(tokenizer::DEFAULT)),
        &format!("tokenize = {}", tokenizer::sql_literal(tokenizer)),
    )
}

/// Opens an existing library, checks it is one, and that its schema and tokenizer are
/// the ones this command expects. `configured` is the tokenizer of a flag or config.
pub fn open(path: &Path, access: Access, configured: Option<&str>) -> Result<Library> {
    let lib = open_unchecked(path, access)?;
    ensure_recorded(&lib)?;
    if let Some(why) = crate::schema::version_mismatch(&lib.conn) {
        return Err(err!("{}: {why}", path.display()));
    }
    if lib.schema_version < latest_version() {
        return Err(err!(
            "{} is at schema version {}, this recall needs {}: run `recall migrate` first",
            path.display(),
            lib.schema_version,
            latest_version()
        ));
    }
    check_configured(&lib, configured)?;
    if access == Access::Write {
        crate::schema::ensure_sound(&lib.conn, &lib.tokenizer)?;
    }
    Ok(lib)
}

/// Refuses a library whose tokenizer record is gone (`check` and `repair` open it
/// anyway, through `open_unchecked`).
pub fn ensure_recorded(lib: &Library) -> Result<()> {
    if crate::schema::recorded_tokenizer(&lib.conn).is_some() {
        return Ok(());
    }
    Err(err!(
        "{} records no tokenizer (its recall_meta is damaged): run `recall repair`, which records the one its index declares",
        lib.path.display()
    ))
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

/// What a path holds, followed through links: only a regular file can be a library.
fn kind_of(path: &Path) -> Result<Option<std::fs::Metadata>> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(err!(
            "{} is a directory: give the path of a library file",
            path.display()
        )),
        Ok(m) if !m.is_file() => Err(err!(
            "{} is not a regular file (a device, pipe or socket): give the path of a library file",
            path.display()
        )),
        Ok(m) => Ok(Some(m)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(err!("cannot read {}: {e}", path.display())),
    }
}

/// `path` with a suffix appended: the `-wal`, `-shm` and `-journal` files beside a library.
pub fn sidecar(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    PathBuf::from(p)
}

const SIDECARS: [&str; 3] = ["-wal", "-shm", "-journal"];

/// Whether this process may write `path` (as the kernel decides: owner, mode, mount).
fn writable(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `c` is a valid NUL-terminated path for the duration of the call.
    unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
}

fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A writing command needs the file, its `-wal` and `-shm` (where they exist) and the
/// directory (where they do not) to be writable: name the one that is not.
fn ensure_writable(path: &Path) -> Result<()> {
    // A file without any write bit is write-protected on purpose, even for root.
    let protected = std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly());
    if protected || !writable(path) {
        return Err(err!(
            "{} is read-only for you and this command writes to it: make it writable (chmod u+w), run as its owner, or use a read command",
            path.display()
        ));
    }
    let unwritable: Vec<String> = ["-wal", "-shm"]
        .iter()
        .map(|s| sidecar(path, s))
        .filter(|side| side.exists() && !writable(side))
        .map(|side| side.display().to_string())
        .collect();
    if !unwritable.is_empty() {
        return Err(err!(
            "{} not writable for you, and writes to the library go through {}: make {} writable, or run as the user who owns {}",
            match unwritable.len() {
                1 => format!("{} is", unwritable[0]),
                _ => format!("{} are", unwritable.join(" and ")),
            },
            if unwritable.len() == 1 { "it" } else { "them" },
            if unwritable.len() == 1 { "it" } else { "them" },
            if unwritable.len() == 1 { "it" } else { "them" },
        ));
    }
    let dir = directory_of(path);
    let missing = ["-wal", "-shm"].iter().any(|s| !sidecar(path, s).exists());
    if missing && !writable(&dir) {
        return Err(err!(
            "the directory {} is read-only for you, and a write must create the library's -wal and -shm files there: make it writable, or use a read command",
            dir.display()
        ));
    }
    Ok(())
}

/// Opens for reading. A library in a directory this process cannot write (a read-only
/// mount, another user's folder) cannot get the `-shm` file WAL readers need; when no
/// `-wal` holds pending changes, the file alone is the whole library and is opened
/// `immutable`, which needs neither.
fn open_for_reading(path: &Path, doing: &str) -> Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let first = match Connection::open_with_flags(path, flags) {
        // Opening is lazy: the first read is what needs the -shm.
        Ok(conn) => match conn.query_row("select count(*) from sqlite_master", [], |_| Ok(())) {
            Ok(()) => return Ok(conn),
            Err(e) => e,
        },
        Err(e) => e,
    };
    let cannot_share = matches!(
        first.sqlite_error_code(),
        Some(rusqlite::ErrorCode::ReadOnly | rusqlite::ErrorCode::CannotOpen)
    );
    let wal = sidecar(path, "-wal");
    let wal_empty = std::fs::metadata(&wal)
        .map(|m| m.len() == 0)
        .unwrap_or(true);
    if !cannot_share {
        return Err(Error::sqlite(doing, &first));
    }
    if !wal_empty {
        return Err(err!(
            "{doing}: cannot read the library's write-ahead log ({} and its -shm) as this user: run as a user who can write the directory, or have its owner run `recall optimize` so that the log is folded into the file",
            wal.display()
        ));
    }
    let uri = format!("file:{}?immutable=1", uri_path(path));
    Connection::open_with_flags(uri, flags | OpenFlags::SQLITE_OPEN_URI).context(doing)
}

/// A path as a `file:` URI path: `%`, `?` and `#` are escaped, so that any file name works.
fn uri_path(path: &Path) -> String {
    let mut out = String::new();
    for b in path.as_os_str().as_encoded_bytes() {
        match b {
            b'%' | b'?' | b'#' => out.push_str(&format!("%{b:02X}")),
            _ if b.is_ascii() => out.push(char::from(*b)),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Opens a library without the schema-version and tokenizer checks (for `migrate` and
/// `check`, which report on those themselves).
pub fn open_unchecked(path: &Path, access: Access) -> Result<Library> {
    if kind_of(path)?.is_none() {
        return Err(err!(
            "no library at {}: create one with `recall init --db {}`",
            path.display(),
            path.display()
        ));
    }
    let doing = format!("opening {}", path.display());
    let conn = match access {
        Access::Read => open_for_reading(path, &doing)?,
        Access::Write => {
            ensure_writable(path)?;
            let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
            Connection::open_with_flags(path, flags).context(&doing)?
        }
    };
    configure(&conn)?;
    let app_id: i64 = conn
        .query_row("pragma application_id", [], |r| r.get(0))
        .map_err(|e| match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::NotADatabase) => err!(
                "{} is not a SQLite database: give the path of a library, or create one with `recall init`",
                path.display()
            ),
            _ => Error::sqlite(&doing, &e),
        })?;
    // The application id makes a library: one whose recall_meta was dropped is a damaged
    // library, which `check` and `repair` must open.
    if app_id != APPLICATION_ID {
        if app_id == 0 && is_empty_database(&conn)? {
            return Err(err!(
                "{} is an empty database, not yet a library (an interrupted `recall init`?): run `recall init --db {}`",
                path.display(),
                path.display()
            ));
        }
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
    // A missing record is `check`'s to report and `repair`'s to restore; other commands
    // refuse it (`ensure_recorded`). Meanwhile the index's tokenizer stands in.
    let tokenizer = match crate::schema::recorded_tokenizer(&conn) {
        Some(t) => t,
        None => index_sql(&conn)?
            .as_deref()
            .and_then(tokenizer::declared)
            .unwrap_or_else(|| tokenizer::DEFAULT.to_string()),
    };
    if access == Access::Write {
        // A library whose init was killed after its commit is complete but still in
        // rollback-journal mode: give it the WAL mode every library has.
        let mode: String = conn
            .query_row("pragma journal_mode", [], |r| r.get(0))
            .context(&doing)?;
        if !mode.eq_ignore_ascii_case("wal") {
            conn.query_row("pragma journal_mode = wal", [], |_| Ok(()))
                .context(&doing)?;
        }
        crate::wipe::finish_pending(&conn, path);
    }
    Ok(Library {
        conn,
        path: path.to_path_buf(),
        tokenizer,
        schema_version,
    })
}

/// A database with no schema at all and no recall header: what `init` leaves when it
/// is killed before its commit. `init` may build on it.
fn is_empty_database(conn: &Connection) -> Result<bool> {
    let (objects, version, app_id): (i64, i64, i64) = conn
        .query_row(
            "select (select count(*) from sqlite_master), (select user_version from pragma_user_version), (select application_id from pragma_application_id)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .context("reading the database header")?;
    Ok(objects == 0 && version == 0 && app_id == 0)
}

/// Creates a library: every migration and the tokenizer record in one transaction. The
/// path must be new, an empty file, or an empty database (an interrupted `init`). On
/// failure, only the files this command created are removed.
pub fn create(path: &Path, tokenizer_spec: &str) -> Result<Library> {
    let spec = tokenizer::parse(tokenizer_spec)?;
    tokenizer::ensure_buildable(&spec)?;
    let existing = kind_of(path)?;
    if let Some(meta) = &existing {
        if meta.len() > 0 {
            refuse_non_empty(path)?;
        }
    }
    let sidecars_before: Vec<bool> = SIDECARS.iter().map(|s| sidecar(path, s).exists()).collect();
    let created = if existing.is_none() {
        // create_new: this command owns the file only if it made it.
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| err!("cannot create {}: {e}", path.display()))?;
        true
    } else {
        false
    };
    // What this command made, and only that, goes when it fails or is interrupted.
    let mut made = Vec::new();
    if created {
        made.push(path.to_path_buf());
        for (suffix, existed) in SIDECARS.iter().zip(sidecars_before) {
            if !existed {
                made.push(sidecar(path, suffix));
            }
        }
    }
    let remove = move || {
        for file in &made {
            let _ = std::fs::remove_file(file);
        }
    };
    let guard = crate::interrupt::guard(
        format!("no library was created at {}", path.display()),
        Some(Box::new(remove.clone())),
    )?;
    let result = create_inner(path, &spec, &guard);
    if result.is_err() {
        remove();
    }
    result
}

/// A non-empty file is refused, unless it is an empty database an interrupted `init`
/// left behind.
fn refuse_non_empty(path: &Path) -> Result<()> {
    if open_unchecked(path, Access::Read).is_ok() {
        return Err(err!(
            "{} is already a recall library: use it as it is, or `recall migrate` it",
            path.display()
        ));
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let empty = Connection::open_with_flags(path, flags)
        .ok()
        .and_then(|conn| {
            conn.busy_timeout(busy_timeout()).ok()?;
            is_empty_database(&conn).ok()
        })
        .unwrap_or(false);
    if empty {
        return Ok(());
    }
    Err(err!(
        "{} already exists and is not empty: choose another path",
        path.display()
    ))
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

fn create_inner(path: &Path, spec: &str, guard: &crate::interrupt::Guard) -> Result<Library> {
    let doing = format!("creating {}", path.display());
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut conn = Connection::open_with_flags(path, flags).context(&doing)?;
    configure(&conn)?;
    // The schema is written in rollback-journal mode, so that a killed init leaves an
    // empty file (rolled back from its journal), never a half-made library.
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Exclusive)
        .context(&doing)?;
    if !is_empty_database(&tx)? {
        return Err(err!(
            "{} was written by another process meanwhile: choose another path",
            path.display()
        ));
    }
    tx.execute_batch(&format!("pragma application_id = {APPLICATION_ID}"))
        .context(&doing)?;
    let target = crate::fault::init_version(latest_version());
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
    crate::fault::pause_point("init", 1);
    guard.commit(|| tx.commit()).context(&doing)?;
    // WAL: any number of readers while one writer imports. Set outside a transaction.
    conn.query_row("pragma journal_mode = wal", [], |_| Ok(()))
        .context(&doing)?;
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
        let guard = crate::interrupt::guard(
            format!(
                "migration {version:04}_{name} was not applied; the library is at schema version {}",
                lib.schema_version
            ),
            None,
        )?;
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
        guard.commit(|| tx.commit()).context(&doing)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_migrations_build_the_default_tokenizer_or_the_one_given() {
        let (_, _, first) = MIGRATIONS[0];
        let words = migration_sql(first, "unicode61 remove_diacritics 2");
        assert_ne!(
            words, first,
            "the default tokenize clause is there to replace"
        );
        assert!(words.contains("tokenize = 'unicode61 remove_diacritics 2'"));
        assert!(!words.contains(tokenizer::DEFAULT));
        assert_eq!(migration_sql(first, tokenizer::DEFAULT), first);
    }
}
