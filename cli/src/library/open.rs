//! Opening a library, and the checks of its record (schema version in `PRAGMA
//! user_version`, tokenizer in `recall_meta`) that commands rely on.
use std::ffi::c_int;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags};

use super::files::{ensure_writable, kind_of, sidecar, uri_path};
use super::migrations::latest_version;
use super::schema;
use crate::error::{err, Context, Error, Result};
use crate::tokenizer;

/// `PRAGMA application_id` of every library: "RCLL".
pub const APPLICATION_ID: i64 = 0x5243_4c4c;
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

static BUSY: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();
static CAP: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();

/// Sets the busy timeout of every connection this process opens (from the config).
pub fn set_busy_timeout(timeout: Duration) {
    let _ = BUSY.set(timeout);
}

/// Bounds the busy timeout of this process, whatever the config says (`recall hook`,
/// which must answer within the agent's hook timeout).
pub fn cap_busy_timeout(max: Duration) {
    let _ = CAP.set(max);
}

/// Process-wide SQLite settings, made before the process opens its first connection.
/// - SQLite's count of the memory it holds (`SQLITE_CONFIG_MEMSTATUS`), which nothing
///   here reads, is turned off: it takes a global mutex at each allocation, a tenth of
///   the time of preparing `sql/related.sql` before each first prompt.
/// - No page cache starts with a block of 20 pages (`SQLITE_CONFIG_PAGECACHE` of no
///   buffer and no lines): each materialized subquery of `sql/related.sql` is a table of
///   its own, with a cache of its own, and most hold a page or two: the 44 blocks of a
///   slow first prompt were 3.6 of its 12.8 MB of heap, each page a page fault of a
///   process that lives for one query. A page is allocated when it is first needed.
///
/// (docs/performance.md#the-session-hook)
pub fn configure_sqlite() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: plain options (an integer; a null pointer and two integers, which
        // SQLite reads as `void*, int, int`). Called before SQLite is initialized, they
        // take effect; after (a connection already open), SQLite refuses them with
        // SQLITE_MISUSE and changes nothing, which is as well.
        unsafe {
            let _ =
                rusqlite::ffi::sqlite3_config(rusqlite::ffi::SQLITE_CONFIG_MEMSTATUS, 0 as c_int);
            let _ = rusqlite::ffi::sqlite3_config(
                rusqlite::ffi::SQLITE_CONFIG_PAGECACHE,
                std::ptr::null_mut::<std::ffi::c_void>(),
                0 as c_int,
                0 as c_int,
            );
        }
    });
}

pub(super) fn busy_timeout() -> Duration {
    let set = BUSY.get().copied().unwrap_or(BUSY_TIMEOUT);
    CAP.get().map_or(set, |cap| set.min(*cap))
}

/// How a command opens the library: to read it (read-only), or to write it. What a
/// caller may read of it is `crate::access`'s.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    Read,
    Write,
}

pub struct Library {
    pub conn: Connection,
    pub path: PathBuf,
    pub tokenizer: String,
    pub schema_version: u32,
}

pub(super) fn configure(conn: &Connection) -> Result<()> {
    conn.busy_timeout(busy_timeout())
        .context("setting the busy timeout")?;
    // Plans made once, whatever is bound (SQLite's query planner stability guarantee).
    // Without it, once `analyze` has sampled the full-text index's own tables (`recall
    // optimize` runs it), FTS5 prepares its term lookup again for every term in every
    // segment of the index, as each new term bound may choose another plan: a sixth of
    // the time of a failure's memory (docs/performance.md#the-session-hook).
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)
        .context("keeping query plans stable")?;
    sqlite_recall_rusqlite::register(conn).context("registering the recall_* functions")?;
    crate::vectors::store::register(conn)
}

/// Opens an existing library, checks it is one, and that its schema and tokenizer are
/// the ones this command expects. `configured` is the tokenizer of a flag or config.
pub fn open(path: &Path, mode: Mode, configured: Option<&str>) -> Result<Library> {
    let lib = open_unchecked(path, mode)?;
    ensure_recorded(&lib)?;
    if let Some(why) = schema::version_mismatch(&lib.conn) {
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
    if mode == Mode::Write {
        schema::ensure_sound(&lib.conn, &lib.tokenizer)?;
    }
    Ok(lib)
}

/// Refuses a library whose tokenizer record is gone (`check` and `repair` open it
/// anyway, through `open_unchecked`).
pub fn ensure_recorded(lib: &Library) -> Result<()> {
    if schema::recorded_tokenizer(&lib.conn).is_some() {
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

/// Opens a library without the schema-version and tokenizer checks (for `migrate` and
/// `check`, which report on those themselves).
pub fn open_unchecked(path: &Path, mode: Mode) -> Result<Library> {
    ensure_present(path)?;
    let doing = format!("opening {}", path.display());
    let conn = match mode {
        Mode::Read => open_for_reading(path, &doing)?,
        Mode::Write => {
            if super::replica::of(path).is_some() {
                return Err(err!(
                    "{} is a replica that Litestream keeps current (it wrote {}): write to \
                     its primary, which Litestream copies here; a write here would be lost",
                    path.display(),
                    super::files::sidecar(path, super::replica::TXID_SUFFIX).display()
                ));
            }
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
    let tokenizer = match schema::recorded_tokenizer(&conn) {
        Some(t) => t,
        None => schema::index_sql(&conn)?
            .as_deref()
            .and_then(tokenizer::declared)
            .unwrap_or_else(|| tokenizer::DEFAULT.to_string()),
    };
    if mode == Mode::Write {
        // A library whose init was killed after its commit is complete but still in
        // rollback-journal mode: give it the WAL mode every library has.
        let mode: String = conn
            .query_row("pragma journal_mode", [], |r| r.get(0))
            .context(&doing)?;
        if !mode.eq_ignore_ascii_case("wal") {
            conn.query_row("pragma journal_mode = wal", [], |_| Ok(()))
                .context(&doing)?;
        }
        crate::library::wipe::finish_pending(&conn, path);
    }
    Ok(Library {
        conn,
        path: path.to_path_buf(),
        tokenizer,
        schema_version,
    })
}

/// Refuses a path where no file is (nor a regular one), without opening it: for a
/// caller that leaves the opening to another process (the hook's detached capture).
pub fn ensure_present(path: &Path) -> Result<()> {
    match kind_of(path)? {
        Some(_) => Ok(()),
        None => Err(err!(
            "no library at {}: create one with `recall init --db {}`",
            path.display(),
            path.display()
        )),
    }
}

/// A database with no schema at all and no recall header: what `init` leaves when it
/// is killed before its commit. `init` may build on it.
pub(super) fn is_empty_database(conn: &Connection) -> Result<bool> {
    let (objects, version, app_id): (i64, i64, i64) = conn
        .query_row(
            "select (select count(*) from sqlite_master), (select user_version from pragma_user_version), (select application_id from pragma_application_id)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .context("reading the database header")?;
    Ok(objects == 0 && version == 0 && app_id == 0)
}
