//! What the hook remembers of sessions, in a small SQLite file beside the library
//! (`memory.db` → `memory.db.sessions`): which sessions had their first prompt answered,
//! and, for each session, the capture the hook last started: the transcript at its size
//! and modification time, the detached process's id, the attempts at that size and time,
//! the problem of the last one that failed (`problem`, `failed_at`) and when one last
//! committed (`captured_at`); the files whose memory each session was shown
//! (`files_shown`), so that a file's is shown once a session; and, in `notices`, the
//! newest failure a session start has mentioned (`notice`). `recall status` reads
//! `sessions` and `notices`. Beside the library, not in it: the hook's writes never wait for a
//! writer of the library (an import, a capture), a library needs no migration for them,
//! and the file holds no item text, so `forget` has nothing to wipe there.
//!
//! A capture started is a claim only while its process runs: one that committed cleared
//! its process id without a problem (the hook answers "captured already"), one that failed
//! recorded its problem here (`capture_ended`), one killed without a word is a process
//! gone; either of the last two is started again by the next hook event, up to
//! `ATTEMPTS` times for one size and time of the transcript.
//!
//! The file is in WAL mode, never synced; a damaged one is started afresh (`classify`).
//! Each write is one `BEGIN IMMEDIATE` transaction that waits for the file at most
//! `WAIT`, polled every millisecond; one that cannot be made by then is skipped
//! (`Outcome::Locked`). A folder the hook cannot write (a read-only library's) keeps no
//! state (`Outcome::NoState`), and says nothing. Entries not touched for `KEEP_DAYS` are
//! pruned.
//!
//! Its SQL is in `sql/sessions/`, embedded as the library's is (`sql`): `schema.sql`
//! makes a new file at the latest version, `migrations/` bring one of an earlier version
//! to it, and each statement the hook runs is a file of its own, as are the two
//! `recall status` reads (`status::sessions`).
use std::path::{Path, PathBuf};

use rusqlite::{named_params, Connection, ErrorCode, OpenFlags, OptionalExtension};
use rusqlite::{Transaction, TransactionBehavior};

use crate::library::sidecar;
use crate::library::sql_file::Query;

/// The longest the hook waits for a lock of the library or of this session state, whatever
/// `busy_timeout_ms` says, so that it answers well within the agents' hook timeouts.
pub const WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// The variable that tells a capture the hook started it, and for which session: the
/// capture records how it ended here (`State::capture_ended`).
pub const HOOK_SESSION: &str = "RECALL_HOOK_SESSION";

/// How long a session's entry is kept after its last use.
pub const KEEP_DAYS: i64 = 30;

/// The files of `sql/sessions/`: `MIGRATIONS` (`(version, name, sql)`, from version 2)
/// and one `Query` per file (`sql::SCHEMA` is `sql/sessions/schema.sql`).
pub mod sql {
    use crate::library::sql_file::Query;
    include!(concat!(env!("OUT_DIR"), "/sessions.rs"));

    /// The version `schema.sql` makes and the last migration brings a file to.
    pub const LATEST: i64 = MIGRATIONS[MIGRATIONS.len() - 1].0 as i64;
}

/// How many captures are started for one size and time of a transcript.
pub const ATTEMPTS: i64 = 3;

/// At most this many failed captures of other sessions are started again by one event.
pub const RETRIES_AN_EVENT: usize = 2;

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
    path: PathBuf,
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
        let path = path_of(library);
        let classify = |e| classify(&path, e);
        let mut conn = Connection::open_with_flags(&path, flags).map_err(classify)?;
        // Hooks of sessions that start together write at once: each waits its turn,
        // polled every millisecond (SQLite's own handler sleeps up to 100 ms a time).
        conn.busy_handler(Some(wait_briefly)).map_err(classify)?;
        let version: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(classify)?;
        if version < sql::LATEST {
            // A write-ahead log: a write is an append, and readers never wait.
            let _ = conn.pragma_update_and_check(None, "journal_mode", "wal", |_| Ok(()));
        }
        // Never synced (a sync is most of a hook's time): a power cut may take back the
        // last writes, or damage the file, which `classify` then removes. Either only
        // makes a prompt answered as a first one again, a file's memory shown again or a
        // capture started again.
        conn.pragma_update(None, "synchronous", "off")
            .map_err(classify)?;
        if version < sql::LATEST {
            let state = State { conn, path };
            state.transaction(|conn| {
                // Read again under the lock: another hook may have made it meanwhile.
                let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
                match version {
                    0 => conn.execute_batch(sql::SCHEMA.sql),
                    // Each migration sets the version it brings the file to.
                    v if (1..sql::LATEST).contains(&v) => {
                        for (_, _, migration) in
                            sql::MIGRATIONS.iter().filter(|m| i64::from(m.0) > version)
                        {
                            conn.execute_batch(migration)?;
                        }
                        Ok(())
                    }
                    _ => Ok(()),
                }
            })?;
            return Ok(state);
        }
        Ok(State { conn, path })
    }

    /// Runs `f` in one `BEGIN IMMEDIATE` transaction (no lock upgrade, so that the busy
    /// timeout always applies), committed when it succeeds.
    fn transaction<T>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T>,
    ) -> std::result::Result<T, Outcome> {
        let tx = Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate)
            .map_err(|e| classify(&self.path, e))?;
        // A failed `f` or commit drops `tx`, which rolls it back.
        f(&tx)
            .and_then(|t| tx.commit().map(|()| t))
            .map_err(|e| classify(&self.path, e))
    }

    /// Runs one write on the state, then prunes old entries.
    fn write(library: &Path, query: Query, args: impl rusqlite::Params) -> Outcome {
        let state = match State::open(library) {
            Ok(s) => s,
            Err(outcome) => return outcome,
        };
        match state.transaction(|conn| {
            let n = conn.execute(query.sql, args)?;
            prune(conn)?;
            Ok(n)
        }) {
            Ok(0) => Outcome::Unchanged,
            Ok(_) => Outcome::Changed,
            Err(outcome) => outcome,
        }
    }

    /// Records the session's first prompt: `Changed` when this is it.
    pub fn first_prompt(library: &Path, session: &str) -> Outcome {
        State::write(
            library,
            sql::FIRST_PROMPT,
            named_params! {":session": session, ":now": now()},
        )
    }

    /// Records that `session` was shown the memory of `files`: the ones it had not been
    /// shown before, in their order. Without a state (none here, or locked: `Err`) every
    /// file counts as new and nothing is recorded.
    pub fn files_unseen(
        library: &Path,
        session: &str,
        files: &[String],
    ) -> std::result::Result<Vec<String>, Outcome> {
        let state = State::open(library)?;
        state.transaction(|conn| {
            let mut new = Vec::new();
            let mut insert = conn.prepare(sql::FILE_SHOWN.sql)?;
            for file in files {
                let shown = named_params! {":session": session, ":file": file, ":now": now()};
                if insert.execute(shown)? == 1 {
                    new.push(file.clone());
                }
            }
            drop(insert);
            prune(conn)?;
            Ok(new)
        })
    }

    /// A session resumed (or compacted) had its first prompt already.
    pub fn resumed(library: &Path, session: &str) -> Outcome {
        State::write(
            library,
            sql::RESUMED,
            named_params! {":session": session, ":now": now()},
        )
    }

    /// Starts the capture of `transcript` as it is now (`start` gives the process's id),
    /// unless a capture of it at this size and time runs, or failed `ATTEMPTS` times. The
    /// claim and the start are one transaction: two ends at once start one capture.
    pub fn claim_capture(
        library: &Path,
        session: &str,
        transcript: &str,
        (size, mtime_ns): (i64, i64),
        start: impl FnOnce() -> crate::error::Result<u32>,
    ) -> crate::error::Result<Claim> {
        let state = match State::open(library) {
            Ok(s) => s,
            Err(Outcome::Locked) => return Ok(Claim::Locked),
            // No state: nothing to claim with; the capture is started.
            Err(_) => return start().map(Claim::Started),
        };
        let mut started = Ok(None);
        let mut start = Some(start);
        let claim = state.transaction(|conn| {
            let row: Option<Claimed> = conn
                .query_row(
                    sql::LAST_CAPTURE.sql,
                    named_params! {":session": session},
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)),
                )
                .optional()?;
            let same = row.as_ref().is_some_and(|(t, s, m, ..)| {
                t.as_deref() == Some(transcript) && *s == Some(size) && *m == Some(mtime_ns)
            });
            let (pid, attempts, problem) = match row {
                Some((_, _, _, pid, attempts, problem)) if same => (pid, attempts, problem),
                _ => (None, 0, None),
            };
            if same && pid.is_none() && problem.is_none() {
                // Its process cleared it without a problem: it committed.
                return Ok(Claim::Captured);
            }
            if let Some(pid) = pid {
                if running(pid) {
                    return Ok(Claim::Running);
                }
                if problem.is_none() {
                    // Ended without committing and without a word (killed): said here.
                    let problem = format!(
                        "the capture (process {pid}) ended before it committed, without an error (killed?)"
                    );
                    conn.execute(
                        sql::CAPTURE_KILLED.sql,
                        named_params! {":session": session, ":problem": problem, ":now": now()},
                    )?;
                }
            }
            if attempts >= ATTEMPTS {
                let problem: Option<String> = conn.query_row(
                    sql::CAPTURE_PROBLEM.sql,
                    named_params! {":session": session},
                    |r| r.get(0),
                )?;
                return Ok(Claim::GaveUp(problem.unwrap_or_default()));
            }
            prune(conn)?;
            let Some(start) = start.take() else {
                return Err(rusqlite::Error::ExecuteReturnedResults);
            };
            let pid = match start() {
                Ok(pid) => pid,
                Err(e) => {
                    started = Err(e);
                    return Err(rusqlite::Error::ExecuteReturnedResults);
                }
            };
            started = Ok(Some(pid));
            conn.execute(
                sql::CAPTURE_STARTED.sql,
                named_params! {
                    ":session": session, ":transcript": transcript, ":size": size,
                    ":mtime_ns": mtime_ns, ":now": now(), ":pid": pid,
                    ":attempts": attempts + 1, ":same": same,
                },
            )?;
            Ok(Claim::Started(pid))
        });
        match (claim, started) {
            (_, Err(e)) => Err(e),
            (Ok(claim), _) => Ok(claim),
            // Started, but the claim could not be recorded: the capture runs all the same.
            (Err(_), Ok(Some(pid))) => Ok(Claim::Started(pid)),
            (Err(Outcome::Locked), Ok(None)) => Ok(Claim::Locked),
            (Err(_), Ok(None)) => match start.take() {
                Some(start) => start().map(Claim::Started),
                None => Ok(Claim::Locked),
            },
        }
    }

    /// What the detached capture of `session` came to: its problem, or None once it
    /// committed (which clears an earlier one). `pid`: the capture's own process id, so
    /// that a capture started after it is not taken for ended; None: whichever.
    pub fn capture_ended(
        library: &Path,
        session: &str,
        problem: Option<&str>,
        pid: Option<u32>,
    ) -> Outcome {
        State::write(
            library,
            sql::CAPTURE_ENDED,
            named_params! {":session": session, ":problem": problem, ":now": now(), ":pid": pid},
        )
    }

    /// Records that a session start mentioned the failures up to `at` (ISO-8601 UTC),
    /// unless a later one was mentioned already: `Changed` when this start is the one.
    pub fn mentioned(library: &Path, at: &str) -> Outcome {
        State::write(library, sql::MENTIONED, named_params! {":at": at})
    }

    /// The sessions whose last capture failed or was killed (no process runs it), that
    /// may be tried again: at most `RETRIES_AN_EVENT`, the oldest failures first.
    pub fn due(library: &Path, except: Option<&str>) -> Vec<(String, String)> {
        let Ok(state) = State::open(library) else {
            return Vec::new();
        };
        let rows: rusqlite::Result<Vec<(String, String, Option<i64>)>> =
            state.conn.prepare(sql::DUE.sql).and_then(|mut stmt| {
                let due = named_params! {":attempts": ATTEMPTS, ":except": except};
                stmt.query_map(due, |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                    .collect()
            });
        rows.unwrap_or_default()
            .into_iter()
            .filter(|(_, _, pid)| pid.is_none_or(|p| !running(p)))
            .map(|(s, t, _)| (s, t))
            .take(RETRIES_AN_EVENT)
            .collect()
    }
}

/// Drops the entries not used for `KEEP_DAYS`.
fn prune(conn: &Connection) -> rusqlite::Result<()> {
    let before = now() - KEEP_DAYS * 86_400;
    for query in [sql::PRUNE_SESSIONS, sql::PRUNE_FILES_SHOWN] {
        conn.execute(query.sql, named_params! {":before": before})?;
    }
    Ok(())
}

/// A session's last capture: transcript, size, time, process, attempts, problem.
type Claimed = (
    Option<String>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    i64,
    Option<String>,
);

/// What `claim_capture` did.
#[derive(Debug, PartialEq, Eq)]
pub enum Claim {
    /// The capture was started: its process id.
    Started(u32),
    /// A capture of the transcript as it is committed.
    Captured,
    /// A capture of the transcript as it is runs already.
    Running,
    /// The captures of the transcript as it is failed `ATTEMPTS` times: the last problem.
    GaveUp(String),
    /// The state was locked past `WAIT`: nothing started.
    Locked,
}

/// Whether process `pid` runs (a zombie, ended but not yet reaped, does not).
fn running(pid: i64) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    if pid <= 0 {
        return false;
    }
    #[cfg(target_os = "linux")]
    {
        // /proc/PID/stat: "PID (COMM) STATE …"; the command name may hold anything.
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Ok(stat) => stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().next())
                .is_some_and(|state| state != "Z" && state != "X"),
            Err(_) => false,
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        // SAFETY: signal 0 only asks whether the process exists.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
}

thread_local! {
    static WAITING_SINCE: std::cell::Cell<Option<std::time::Instant>> =
        const { std::cell::Cell::new(None) };
}

/// The state's busy handler: sleeps a millisecond and tries again, for at most
/// `WAIT` from the first try of this wait.
fn wait_briefly(count: i32) -> bool {
    let now = std::time::Instant::now();
    let since = WAITING_SINCE.with(|w| {
        if count == 0 {
            w.set(Some(now));
        }
        w.get().unwrap_or(now)
    });
    if now.duration_since(since) >= WAIT {
        return false;
    }
    std::thread::sleep(std::time::Duration::from_millis(1));
    true
}

/// A failed open or write of the state at `path`: locked, or no state to be had here. A
/// damaged file is removed, with its log, so that the next event starts it afresh.
fn classify(path: &Path, e: rusqlite::Error) -> Outcome {
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => Outcome::Locked,
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => {
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(sidecar(path, suffix));
            }
            Outcome::NoState
        }
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
        // A capture runs (this process stands for it): the same transcript as it is is
        // claimed; a new size and time is captured again.
        let me = std::process::id();
        let claim =
            |stamp, pid: u32| State::claim_capture(&lib, "a", "/t", stamp, || Ok(pid)).unwrap();
        assert_eq!(claim((10, 5), me), Claim::Started(me));
        assert_eq!(claim((10, 5), me), Claim::Running);
        assert_eq!(claim((11, 6), me), Claim::Started(me));
        // A capture that failed is started again, up to ATTEMPTS times in all.
        for _ in 1..ATTEMPTS {
            State::capture_ended(&lib, "a", Some("locked past the busy timeout"), Some(me));
            assert_eq!(claim((11, 6), me), Claim::Started(me));
        }
        State::capture_ended(&lib, "a", Some("locked past the busy timeout"), Some(me));
        assert_eq!(
            claim((11, 6), me),
            Claim::GaveUp("locked past the busy timeout".into())
        );
        // A capture killed without a word (its process gone): started again, and said.
        let mut gone = std::process::Command::new("true").spawn().unwrap();
        gone.wait().unwrap();
        assert_eq!(claim((12, 7), gone.id()), Claim::Started(gone.id()));
        assert_eq!(
            State::due(&lib, None),
            [("a".to_string(), "/t".to_string())]
        );
        assert_eq!(State::due(&lib, Some("a")), []);
        assert_eq!(claim((12, 7), me), Claim::Started(me));
        let problem: String = Connection::open(path_of(&lib))
            .unwrap()
            .query_row(
                "select problem from sessions where session = 'a'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert!(problem.contains("ended before it committed"), "{problem}");
        // Committed: the problem goes, nothing is due, and the transcript as it is is
        // not captured again.
        State::capture_ended(&lib, "a", None, Some(me));
        assert_eq!(State::due(&lib, None), []);
        assert_eq!(claim((12, 7), me), Claim::Captured);
        assert_eq!(claim((13, 8), me), Claim::Started(me));
        // A capture claim keeps the session's first prompt.
        assert_eq!(State::first_prompt(&lib, "a"), Outcome::Unchanged);
        assert!(path_of(&lib).exists());
    }

    /// Never synced, the file may be damaged by a power cut: the event that finds it so
    /// goes on without it and removes it, and the next one starts it afresh.
    #[test]
    fn a_damaged_state_is_started_afresh() {
        let lib = library("a_damaged_state_is_started_afresh");
        let version = |lib: &Path| -> i64 {
            Connection::open(path_of(lib))
                .unwrap()
                .query_row("pragma user_version", [], |r| r.get(0))
                .unwrap()
        };
        // Not a database at all.
        std::fs::write(path_of(&lib), vec![b'x'; 8192]).unwrap();
        assert_eq!(State::first_prompt(&lib, "a"), Outcome::NoState);
        assert!(!path_of(&lib).exists());
        assert_eq!(State::first_prompt(&lib, "a"), Outcome::Changed);
        assert_eq!(version(&lib), 4);
        // A database whose tables' pages are garbage.
        for i in 0..50 {
            assert_eq!(
                State::first_prompt(&lib, &format!("s{i}")),
                Outcome::Changed
            );
        }
        Connection::open(path_of(&lib))
            .unwrap()
            .execute_batch("pragma wal_checkpoint(truncate)")
            .unwrap();
        let mut bytes = std::fs::read(path_of(&lib)).unwrap();
        let page = 4096;
        assert!(bytes.len() > 2 * page);
        for b in &mut bytes[page..] {
            *b = 0xa5;
        }
        std::fs::write(path_of(&lib), bytes).unwrap();
        assert_eq!(State::first_prompt(&lib, "b"), Outcome::NoState);
        assert!(!path_of(&lib).exists());
        assert_eq!(State::first_prompt(&lib, "b"), Outcome::Changed);
        assert_eq!(State::first_prompt(&lib, "b"), Outcome::Unchanged);
        assert_eq!(version(&lib), 4);
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

    /// A state file of each earlier version, with an entry, as those versions made it.
    fn state_of_version(lib: &Path, version: i64) {
        let conn = Connection::open(path_of(lib)).unwrap();
        conn.execute_batch(
            "create table sessions (session text primary key, prompted integer not null default 0,
               transcript text, size integer, mtime_ns integer, used_at integer not null) without rowid;
             create index sessions_used_at on sessions(used_at);
             pragma user_version = 1;",
        )
        .unwrap();
        if version >= 2 {
            conn.execute_batch(sql::MIGRATIONS[0].2).unwrap();
        }
        if version >= 3 {
            conn.execute_batch(sql::MIGRATIONS[1].2).unwrap();
            conn.execute(
                "insert into files_shown values ('old', 'src/a.rs', ?1)",
                [now()],
            )
            .unwrap();
        }
        conn.execute(
            "insert into sessions (session, prompted, used_at) values ('old', 1, ?1)",
            [now()],
        )
        .unwrap();
    }

    /// The tables, columns and indexes of a state file, as SQLite describes them.
    fn shape(conn: &Connection) -> Vec<String> {
        let rows = |sql: &str| -> Vec<String> {
            let mut stmt = conn.prepare(sql).unwrap();
            let n = stmt.column_count();
            stmt.query_map([], |r| {
                (0..n)
                    .map(|i| Ok(crate::library::sql_file::json(r.get_ref(i)?).to_string()))
                    .collect::<rusqlite::Result<Vec<_>>>()
            })
            .unwrap()
            .map(|row| row.unwrap().join("|"))
            .collect()
        };
        let tables: Vec<String> = conn
            .prepare("select name from sqlite_master where type = 'table' order by name")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        let mut shape = rows("pragma user_version");
        for table in tables {
            shape.push(format!("table {table}"));
            shape.extend(rows(&format!(
                "select name, type, \"notnull\", dflt_value, pk from pragma_table_info('{table}')"
            )));
            shape.extend(rows(&format!(
                "select name, \"unique\", origin from pragma_index_list('{table}') order by name"
            )));
        }
        shape
    }

    /// `schema.sql` makes what a file of version 1 becomes through every migration: a
    /// migration added without the schema's change, or the other way round, shows here.
    #[test]
    fn the_schema_is_the_migrations_made_at_once() {
        let made = Connection::open_in_memory().unwrap();
        made.execute_batch(sql::SCHEMA.sql).unwrap();
        let lib = library("the_schema_is_the_migrations_made_at_once");
        state_of_version(&lib, 1);
        let migrated = Connection::open(path_of(&lib)).unwrap();
        migrated.execute("delete from sessions", []).unwrap();
        for (version, name, migration) in sql::MIGRATIONS {
            migrated.execute_batch(migration).unwrap();
            let now: i64 = migrated
                .pragma_query_value(None, "user_version", |r| r.get(0))
                .unwrap();
            assert_eq!(now, i64::from(*version), "{name} sets its version");
        }
        assert_eq!(shape(&migrated), shape(&made));
        assert_eq!(sql::LATEST, 4);
        assert!(shape(&made).contains(&"table notices".to_string()));
    }

    #[test]
    fn every_earlier_version_is_migrated_keeping_its_entries() {
        for version in 1..=3 {
            let lib = library(&format!("migrated_from_{version}"));
            state_of_version(&lib, version);
            // The entry it held stands: a prompt of that session is not its first.
            assert_eq!(
                State::first_prompt(&lib, "old"),
                Outcome::Unchanged,
                "v{version}"
            );
            let conn = Connection::open(path_of(&lib)).unwrap();
            let now_version: i64 = conn
                .query_row("pragma user_version", [], |r| r.get(0))
                .unwrap();
            assert_eq!(now_version, 4, "from v{version}");
            let captured: Option<i64> = conn
                .query_row(
                    "select captured_at from sessions where session = 'old'",
                    [],
                    |r| r.get(0),
                )
                .unwrap();
            assert_eq!(captured, None, "v{version}");
            // Each table of the latest version works: files shown, then a notice.
            let files = ["src/a.rs".to_string(), "src/b.rs".to_string()];
            let unseen = State::files_unseen(&lib, "old", &files).unwrap();
            let expected: &[&str] = if version >= 3 {
                &["src/b.rs"]
            } else {
                &["src/a.rs", "src/b.rs"]
            };
            assert_eq!(unseen, expected, "v{version}");
            assert_eq!(
                State::mentioned(&lib, "2026-01-01T00:00:00Z"),
                Outcome::Changed,
                "v{version}"
            );
            assert_eq!(
                State::mentioned(&lib, "2026-01-01T00:00:00Z"),
                Outcome::Unchanged,
                "v{version}"
            );
        }
    }
}
