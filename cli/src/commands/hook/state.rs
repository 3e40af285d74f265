//! What the hook remembers of sessions, in a small SQLite file beside the library
//! (`memory.db` → `memory.db.sessions`): which sessions had their first prompt answered,
//! and which transcript, at which size and modification time, each last handed to
//! `recall capture`. Beside the library, not in it: the hook's writes never wait for a
//! writer of the library (an import, a capture), a library needs no migration for them,
//! and the file holds no item text, so `forget` has nothing to wipe there.
//!
//! Nothing here ever waits: the file is opened with no busy timeout, and a write it
//! cannot make at once is skipped (`Outcome::Locked`). A folder the hook cannot write (a
//! read-only library's) keeps no state (`Outcome::NoState`), and says nothing. Entries
//! not touched for `KEEP_DAYS` are pruned.
use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, ErrorCode, OpenFlags};

use crate::library::sidecar;

/// How long a session's entry is kept after its last use.
pub const KEEP_DAYS: i64 = 30;

const SCHEMA: &str = "
create table if not exists sessions (
  session text primary key,
  -- 1 once the session's first prompt was answered (or a resumed start said it had been)
  prompted integer not null default 0,
  -- the transcript as last handed to capture
  transcript text,
  size integer,
  mtime_ns integer,
  -- Unix seconds of the entry's last use, for pruning
  used_at integer not null
) without rowid;
create index if not exists sessions_used_at on sessions(used_at);
pragma user_version = 1;
";

/// What a state write came to.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The write changed the entry: a first prompt, a new transcript to capture.
    Changed,
    /// The entry already said so: a later prompt, a transcript already handed over.
    Unchanged,
    /// Another hook held the file: nothing written.
    Locked,
    /// No state can be kept beside this library (a folder or file this user cannot write).
    NoState,
}

pub fn path_of(library: &Path) -> PathBuf {
    sidecar(library, ".sessions")
}

pub struct State {
    conn: Connection,
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

impl State {
    /// Opens (creating) the state beside the library; `Err` is the outcome without it.
    fn open(library: &Path) -> std::result::Result<State, Outcome> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path_of(library), flags).map_err(classify)?;
        conn.busy_timeout(std::time::Duration::ZERO)
            .map_err(classify)?;
        let version: i64 = conn
            .query_row("pragma user_version", [], |r| r.get(0))
            .map_err(classify)?;
        if version == 0 {
            conn.execute_batch(&format!("begin immediate; {SCHEMA} commit;"))
                .map_err(classify)?;
        }
        Ok(State { conn })
    }

    /// Runs one write on the state, then prunes old entries.
    fn write(library: &Path, sql: &str, args: impl rusqlite::Params) -> Outcome {
        let state = match State::open(library) {
            Ok(s) => s,
            Err(outcome) => return outcome,
        };
        let outcome = match state.conn.execute(sql, args) {
            Ok(0) => Outcome::Unchanged,
            Ok(_) => Outcome::Changed,
            Err(e) => classify(e),
        };
        if outcome != Outcome::Locked {
            // Best effort: a locked file is pruned by a later hook.
            let _ = state.conn.execute(
                "delete from sessions where used_at < ?1",
                [now() - KEEP_DAYS * 86_400],
            );
        }
        outcome
    }

    /// Records the session's first prompt: `Changed` when this is it.
    pub fn first_prompt(library: &Path, session: &str) -> Outcome {
        State::write(
            library,
            "insert into sessions (session, prompted, used_at) values (?1, 1, ?2)
             on conflict (session) do update set prompted = 1, used_at = excluded.used_at
             where prompted = 0",
            params![session, now()],
        )
    }

    /// A session resumed (or compacted) had its first prompt already.
    pub fn resumed(library: &Path, session: &str) -> Outcome {
        State::write(
            library,
            "insert into sessions (session, prompted, used_at) values (?1, 1, ?2)
             on conflict (session) do update set prompted = 1, used_at = excluded.used_at",
            params![session, now()],
        )
    }

    /// Claims the capture of `transcript` as it is now: `Changed` when no end of the
    /// session handed this same file at this size and time to capture before.
    pub fn claim_capture(
        library: &Path,
        session: &str,
        transcript: &str,
        (size, mtime_ns): (i64, i64),
    ) -> Outcome {
        State::write(
            library,
            "insert into sessions (session, transcript, size, mtime_ns, used_at)
             values (?1, ?2, ?3, ?4, ?5)
             on conflict (session) do update set transcript = excluded.transcript,
               size = excluded.size, mtime_ns = excluded.mtime_ns, used_at = excluded.used_at
             where transcript is not excluded.transcript or size is not excluded.size
               or mtime_ns is not excluded.mtime_ns",
            params![session, transcript, size, mtime_ns, now()],
        )
    }
}

/// A failed open or write: locked, or no state to be had here.
fn classify(e: rusqlite::Error) -> Outcome {
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => Outcome::Locked,
        _ => Outcome::NoState,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder for one test's library path.
    fn library(test: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("recall-state-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("memory.db")
    }

    #[test]
    fn first_prompt_resume_and_capture_claims() {
        let lib = library("first_prompt_resume_and_capture_claims");
        assert_eq!(State::first_prompt(&lib, "a"), Outcome::Changed);
        assert_eq!(State::first_prompt(&lib, "a"), Outcome::Unchanged);
        assert_eq!(State::first_prompt(&lib, "b"), Outcome::Changed);
        assert_eq!(State::resumed(&lib, "c"), Outcome::Changed);
        assert_eq!(State::first_prompt(&lib, "c"), Outcome::Unchanged);
        assert_eq!(
            State::claim_capture(&lib, "a", "/t", (10, 5)),
            Outcome::Changed
        );
        assert_eq!(
            State::claim_capture(&lib, "a", "/t", (10, 5)),
            Outcome::Unchanged
        );
        assert_eq!(
            State::claim_capture(&lib, "a", "/t", (11, 6)),
            Outcome::Changed
        );
        // A capture claim keeps the session's first prompt.
        assert_eq!(State::first_prompt(&lib, "a"), Outcome::Unchanged);
        assert!(path_of(&lib).exists());
    }

    #[test]
    fn locked_and_unwritable_states_are_skipped() {
        let lib = library("locked_and_unwritable_states_are_skipped");
        assert_eq!(State::first_prompt(&lib, "a"), Outcome::Changed);
        let holder = Connection::open(path_of(&lib)).unwrap();
        holder.execute_batch("begin exclusive").unwrap();
        assert_eq!(State::first_prompt(&lib, "b"), Outcome::Locked);
        holder.execute_batch("rollback").unwrap();
        assert_eq!(State::first_prompt(&lib, "b"), Outcome::Changed);
        let nowhere = Path::new("/nonexistent-folder/memory.db");
        assert_eq!(State::first_prompt(nowhere, "a"), Outcome::NoState);
    }

    #[test]
    fn old_entries_are_pruned() {
        let lib = library("old_entries_are_pruned");
        assert_eq!(State::first_prompt(&lib, "old"), Outcome::Changed);
        let conn = Connection::open(path_of(&lib)).unwrap();
        conn.execute(
            "update sessions set used_at = ?1",
            [now() - KEEP_DAYS * 86_400 - 1],
        )
        .unwrap();
        assert_eq!(State::resumed(&lib, "new"), Outcome::Changed);
        let left: Vec<String> = conn
            .prepare("select session from sessions")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(left, ["new"]);
    }
}
