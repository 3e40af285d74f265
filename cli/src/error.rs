//! One error type for the CLI: a single line for the user (exit code 2), and the kind a
//! caller may need to tell apart.
use std::fmt;

use rusqlite::ErrorCode;

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
    /// The library stayed locked past the busy timeout.
    Busy,
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
        let kind = if is_corrupt(e) {
            Kind::Corrupt
        } else if matches!(
            e.sqlite_error_code(),
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
        ) {
            Kind::Busy
        } else {
            Kind::Failed
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

/// Shorthand: `Err(err!("..."))`, imported as `crate::error::err`.
macro_rules! err {
    ($($arg:tt)*) => { $crate::error::Error::new(format!($($arg)*)) };
}
pub(crate) use err;

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

/// What a SQLite result code means to recall, for each of its uses: the advice of the
/// message that reports it, whether a query that failed with it is looked into for the
/// damaged schema or row that explains it, and what it means to `check`.
struct Meaning {
    code: ErrorCode,
    advice: Option<&'static str>,
    /// Whether a query that failed with it is looked into for a damaged schema or row:
    /// not when the file, a lock, a permission or the process explain the failure (the
    /// search costs a scan of the library, paid only when a query has failed).
    diagnose: bool,
    check: ForCheck,
}

/// What an error means to `check`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ForCheck {
    /// A lock held by another process, or a file this user may not read: the check could
    /// not run, which is no finding about the library (the command fails).
    Blocked,
    /// SQLite found the database file corrupt: a finding (`Kind::Corrupt`).
    Corrupt,
    /// A finding like any other failed read.
    Finding,
}

/// The codes recall treats apart; any other has no advice, is diagnosed, and is a
/// finding of `check`.
#[rustfmt::skip]
const MEANINGS: [Meaning; 10] = [
    Meaning { code: ErrorCode::DatabaseBusy, diagnose: false, check: ForCheck::Blocked, advice: Some(
        "the library is locked by another writer and stayed locked past the busy timeout; try again when it is done") },
    // SQLITE_LOCKED: no other process; two uses of this connection collide.
    Meaning { code: ErrorCode::DatabaseLocked, diagnose: false, check: ForCheck::Blocked, advice: Some(
        "the statement needs a table or the file that this connection is still using (a checkpoint, VACUUM or DROP inside a transaction, say): run it on its own") },
    Meaning { code: ErrorCode::ReadOnly, diagnose: false, check: ForCheck::Blocked, advice: Some(
        "the library is read-only: this command writes, so it needs write access to the file and its directory") },
    Meaning { code: ErrorCode::CannotOpen, diagnose: false, check: ForCheck::Blocked, advice: Some(
        "the file cannot be opened: check the path and its permissions") },
    Meaning { code: ErrorCode::PermissionDenied, diagnose: false, check: ForCheck::Blocked, advice: None },
    Meaning { code: ErrorCode::DatabaseCorrupt, diagnose: false, check: ForCheck::Corrupt, advice: Some(
        "the database file is corrupt: restore it from a backup (`recall check` lists the damage)") },
    Meaning { code: ErrorCode::NotADatabase, diagnose: false, check: ForCheck::Finding, advice: Some(
        "the file is not a SQLite database") },
    Meaning { code: ErrorCode::DiskFull, diagnose: false, check: ForCheck::Finding, advice: Some(
        "the disk is full, or the file reached a size limit (ulimit -f); the write was rolled back") },
    Meaning { code: ErrorCode::OperationInterrupted, diagnose: false, check: ForCheck::Finding, advice: None },
    Meaning { code: ErrorCode::OutOfMemory, diagnose: false, check: ForCheck::Finding, advice: None },
];

fn meaning(e: &rusqlite::Error) -> Option<&'static Meaning> {
    let code = e.sqlite_error_code()?;
    MEANINGS.iter().find(|m| m.code == code)
}

/// Whether SQLite found the database file corrupt.
pub fn is_corrupt(e: &rusqlite::Error) -> bool {
    meaning(e).is_some_and(|m| m.check == ForCheck::Corrupt)
}

/// Whether the error stopped `check` from reading (a lock, a permission): the check
/// fails rather than report it as a finding.
pub fn blocks_check(e: &rusqlite::Error) -> bool {
    meaning(e).is_some_and(|m| m.check == ForCheck::Blocked)
}

/// Whether a query that failed with this error may be explained by a damaged schema or
/// row of the library, and is worth looking into.
pub fn worth_diagnosing(e: &rusqlite::Error) -> bool {
    meaning(e).is_none_or(|m| m.diagnose)
}

pub fn describe_sqlite(doing: &str, e: &rusqlite::Error) -> String {
    // SQLite's message without the statement: a migration's SQL is 70 lines long.
    if let rusqlite::Error::SqlInputError { msg, .. } = e {
        return format!("{doing}: {msg}");
    }
    if let Some(advice) = meaning(e).and_then(|m| m.advice) {
        return format!("{doing}: {advice} ({e})");
    }
    format!("{doing}: {e}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(code: i32) -> rusqlite::Error {
        rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), None)
    }

    #[test]
    fn each_code_has_one_meaning() {
        for (i, m) in MEANINGS.iter().enumerate() {
            assert!(
                MEANINGS[..i].iter().all(|other| other.code != m.code),
                "{:?} twice",
                m.code
            );
        }
    }

    #[test]
    fn the_uses_follow_the_table() {
        let busy = failure(rusqlite::ffi::SQLITE_BUSY);
        assert!(blocks_check(&busy) && !worth_diagnosing(&busy) && !is_corrupt(&busy));
        assert!(describe_sqlite("reading", &busy).starts_with("reading: the library is locked"));
        let corrupt = failure(rusqlite::ffi::SQLITE_CORRUPT);
        assert!(is_corrupt(&corrupt) && !blocks_check(&corrupt) && !worth_diagnosing(&corrupt));
        assert_eq!(Error::sqlite("reading", &corrupt).kind, Kind::Corrupt);
        let other = failure(rusqlite::ffi::SQLITE_ERROR);
        assert!(worth_diagnosing(&other) && !blocks_check(&other) && !is_corrupt(&other));
        assert_eq!(
            describe_sqlite("reading", &other),
            format!("reading: {other}")
        );
    }
}
