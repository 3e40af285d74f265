//! One error type for the CLI: a single line for the user (exit code 2), and the kind a
//! caller may need to tell apart.
use std::fmt;

#[derive(Debug)]
pub struct Error {
    pub message: String,
    pub kind: Kind,
}

/// What a caller may need to tell apart, beyond the message a person reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Failed,
    /// SQLite found the database file corrupt: `check` reports it as a finding.
    Corrupt,
}

/// Exit code of a failed command.
pub const EXIT_ERROR: i32 = 2;
/// Exit code of `check` when it found problems.
pub const EXIT_PROBLEMS: i32 = 1;

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(message: impl Into<String>) -> Self {
        Error {
            message: message.into(),
            kind: Kind::Failed,
        }
    }

    /// A SQLite error while `doing` something, with advice for the codes that have one.
    pub fn sqlite(doing: &str, e: &rusqlite::Error) -> Self {
        let kind = match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseCorrupt) => Kind::Corrupt,
            _ => Kind::Failed,
        };
        Error {
            message: describe_sqlite(doing, e),
            kind,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Shorthand: `Err(err!("..."))`.
#[macro_export]
macro_rules! err {
    ($($arg:tt)*) => { $crate::error::Error::new(format!($($arg)*)) };
}

/// Adds what was being done to a database error, and turns SQLite's codes into advice.
pub trait Context<T> {
    fn context(self, doing: &str) -> Result<T>;
}

impl<T> Context<T> for rusqlite::Result<T> {
    fn context(self, doing: &str) -> Result<T> {
        self.map_err(|e| Error::sqlite(doing, &e))
    }
}

impl<T> Context<T> for std::io::Result<T> {
    fn context(self, doing: &str) -> Result<T> {
        self.map_err(|e| Error::new(format!("{doing}: {e}")))
    }
}

pub fn describe_sqlite(doing: &str, e: &rusqlite::Error) -> String {
    use rusqlite::ErrorCode::*;
    // SQLite's message without the statement: a migration's SQL is 70 lines long.
    if let rusqlite::Error::SqlInputError { msg, .. } = e {
        return format!("{doing}: {msg}");
    }
    if let rusqlite::Error::SqliteFailure(f, _) = e {
        let advice = match f.code {
            DatabaseBusy => Some(
                "the library is locked by another writer and stayed locked past the busy timeout; try again when it is done",
            ),
            // SQLITE_LOCKED: no other process; two uses of this connection collide.
            DatabaseLocked => Some(
                "the statement needs a table or the file that this connection is still using (a checkpoint, VACUUM or DROP inside a transaction, say): run it on its own",
            ),
            ReadOnly => Some("the library is read-only: this command writes, so it needs write access to the file and its directory"),
            NotADatabase => Some("the file is not a SQLite database"),
            DatabaseCorrupt => Some("the database file is corrupt: restore it from a backup (`recall check` lists the damage)"),
            DiskFull => Some("the disk is full, or the file reached a size limit (ulimit -f); the write was rolled back"),
            CannotOpen => Some("the file cannot be opened: check the path and its permissions"),
            _ => None,
        };
        if let Some(advice) = advice {
            return format!("{doing}: {advice} ({e})");
        }
    }
    format!("{doing}: {e}")
}
