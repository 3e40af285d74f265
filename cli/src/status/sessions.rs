//! The hook's session state beside the library (`memory.db.sessions`, written by
//! `commands/hook/state.rs`), read only: the captures that failed, when one last
//! committed, and the newest failure a session start mentioned.
use std::path::Path;

use rusqlite::{Connection, OpenFlags};
use serde::Serialize;

use crate::query::sql_file::queries;

/// A session whose last detached capture failed.
#[derive(Debug, Clone, Serialize)]
pub struct FailedCapture {
    pub session: String,
    pub transcript: Option<String>,
    pub problem: String,
    /// ISO-8601 UTC.
    pub failed_at: Option<String>,
    /// Captures started for the transcript as it is; at `ATTEMPTS` none is started again
    /// until it changes.
    pub attempts: i64,
    /// Whether another capture of it was started and has not said how it ended.
    pub retrying: bool,
}

/// What the session state says; all empty when there is none.
#[derive(Debug, Clone, Default)]
pub struct Sessions {
    pub failed: Vec<FailedCapture>,
    /// When a capture the hook started last committed (ISO-8601 UTC).
    pub captured_at: Option<String>,
    /// The newest failure a session start mentioned (ISO-8601 UTC).
    pub mentioned: Option<String>,
}

pub fn iso(unix: i64) -> Option<String> {
    chrono::DateTime::from_timestamp(unix, 0).map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
}

/// Reads the session state beside `library`: Ok(default) when there is none.
pub fn read(library: &Path) -> Result<Sessions, String> {
    let path = crate::library::sidecar(library, ".sessions");
    if !path.exists() {
        return Ok(Sessions::default());
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let read = || -> rusqlite::Result<Sessions> {
        let conn = Connection::open_with_flags(&path, flags)?;
        conn.busy_timeout(std::time::Duration::from_millis(500))?;
        let version: i64 = conn.query_row("pragma user_version", [], |r| r.get(0))?;
        let mut s = Sessions::default();
        if version < 2 {
            return Ok(s);
        }
        let mut stmt = conn.prepare(queries::STATUS_SESSION_FAILURES.sql)?;
        s.failed = stmt
            .query_map([], |r| {
                let failed_at: Option<i64> = r.get("failed_at")?;
                let pid: Option<i64> = r.get("pid")?;
                Ok(FailedCapture {
                    session: r.get("session")?,
                    transcript: r.get("transcript")?,
                    problem: super::log::reason(&r.get::<_, String>("problem")?),
                    failed_at: failed_at.and_then(iso),
                    attempts: r.get("attempts")?,
                    retrying: pid.is_some(),
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        if version >= 3 {
            let (captured_at, mentioned): (Option<i64>, Option<String>) =
                conn.query_row(queries::STATUS_SESSION_SUCCESS.sql, [], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })?;
            s.captured_at = captured_at.and_then(iso);
            s.mentioned = mentioned;
        }
        Ok(s)
    };
    read().map_err(|e| {
        format!(
            "the hook's session state {} cannot be read ({e})",
            path.display()
        )
    })
}
