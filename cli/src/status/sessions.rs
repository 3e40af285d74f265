//! The hook's session state beside the library (`memory.db.sessions`, written by
//! `library/sessions.rs`), read only: the captures that failed, when one last
//! committed, and the newest failure a session start mentioned.
use std::path::Path;

use rusqlite::{Connection, OpenFlags};
use serde::Serialize;

use crate::library::sessions::sql;

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
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        let mut s = Sessions::default();
        if version < 2 {
            return Ok(s);
        }
        let mut stmt = conn.prepare(sql::STATUS_FAILURES.sql)?;
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
        // The last capture committed and the notices came with version 4.
        if version >= 4 {
            let (captured_at, mentioned): (Option<i64>, Option<String>) =
                conn.query_row(sql::STATUS_SUCCESS.sql, [], |r| Ok((r.get(0)?, r.get(1)?)))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A state file as versions 2 and 3 of the hook left it, with one failed capture.
    fn state_of_version(library: &Path, version: i64) {
        let conn = Connection::open(crate::library::sidecar(library, ".sessions")).unwrap();
        conn.execute_batch(&format!(
            "create table sessions (session text primary key, prompted integer not null default 0,
               transcript text, size integer, mtime_ns integer, used_at integer not null,
               pid integer, attempts integer not null default 0, problem text, failed_at integer)
               without rowid;
             insert into sessions (session, transcript, used_at, attempts, problem, failed_at)
               values ('s1', '/t/s1.jsonl', 1, 3, 'the transcript cannot be read', 1700000000);
             pragma user_version = {version};"
        ))
        .unwrap();
        if version >= 3 {
            conn.execute_batch(
                "create table files_shown (session text not null, file text not null,
                   used_at integer not null, primary key (session, file)) without rowid;",
            )
            .unwrap();
        }
    }

    #[test]
    fn the_failures_of_every_earlier_state_are_read() {
        for version in [2, 3] {
            let dir = std::env::temp_dir().join(format!(
                "recall-status-sessions-{}-{version}",
                std::process::id()
            ));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            let library = dir.join("memory.db");
            state_of_version(&library, version);
            let s = read(&library).unwrap_or_else(|e| panic!("version {version}: {e}"));
            assert_eq!(s.failed.len(), 1, "version {version}");
            assert_eq!(s.failed[0].session, "s1");
            assert_eq!(s.captured_at, None);
            assert_eq!(s.mentioned, None);
        }
    }
}
