//! Turns between recall's own writers of one library. SQLite's busy handler sleeps and
//! tries again, so a writer that commits and at once begins again (a capture, file
//! after file) can keep another one out for as long as it runs. Every recall write
//! transaction is therefore taken inside a turn: two advisory locks on files beside the
//! library (`memory.db` → `memory.db.gate` and `memory.db.turn`, both empty), taken as a
//! turnstile. A writer takes the gate, then the turn, and lets go of the gate; it keeps
//! the turn until its transaction ends. A writer that waits holds the gate, so the one
//! that just let go of the turn cannot take it again before the waiter has had its
//! transaction: a writer waits for at most one transaction of each other writer ahead
//! of it. The locks are polled with short sleeps for at most the busy timeout; past it,
//! the wait fails as SQLite's would ("locked past the busy timeout"). The kernel drops
//! the locks of a process that ends however it ends.
//!
//! Writers that are not recall (the sqlite3 shell, another program) take no turn and
//! meet recall's writers through SQLite's busy timeout alone. Where the files cannot be
//! made (a folder this user cannot write), there are no turns, and SQLite's own lock
//! decides.
use std::fs::{File, OpenOptions, TryLockError};
use std::ops::Deref;
use std::path::Path;
use std::time::{Duration, Instant};

use rusqlite::{Connection, Transaction, TransactionBehavior};

use super::files::sidecar;

/// The suffixes of the two lock files.
pub const GATE: &str = ".gate";
pub const TURN: &str = ".turn";

/// A writer's turn: held until dropped. The gate's file is kept to tell whether another
/// writer waits (it holds the gate while it does).
pub struct Turn {
    _turn: File,
    gate: File,
}

impl Turn {
    /// Whether another recall writer waits for this turn: it holds the gate.
    fn waited_for(&self) -> bool {
        match self.gate.try_lock() {
            Ok(()) => {
                let _ = self.gate.unlock();
                false
            }
            Err(TryLockError::WouldBlock) => true,
            Err(TryLockError::Error(_)) => false,
        }
    }
}

fn lock_file(library: &Path, suffix: &str) -> Option<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(sidecar(library, suffix))
        .ok()
}

fn busy(what: &str) -> rusqlite::Error {
    rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_BUSY),
        Some(format!(
            "another recall writer held the library's {what} past the busy timeout"
        )),
    )
}

/// Waits for `file`'s lock until `deadline`; `Ok(false)`: locks do not work here.
fn wait_for(file: &File, deadline: Instant, what: &str) -> rusqlite::Result<bool> {
    let mut pause = Duration::from_micros(100);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(true),
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(_)) => return Ok(false),
        }
        let now = Instant::now();
        if now >= deadline {
            return Err(busy(what));
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(2));
    }
}

/// Takes the turn to write `library`, waiting at most `timeout`; None where turns cannot
/// be had (see the module comment).
pub fn take(library: &Path, timeout: Duration) -> rusqlite::Result<Option<Turn>> {
    let (Some(gate), Some(turn)) = (lock_file(library, GATE), lock_file(library, TURN)) else {
        return Ok(None);
    };
    let deadline = Instant::now() + timeout;
    if !wait_for(&gate, deadline, "gate")? {
        return Ok(None);
    }
    let got = wait_for(&turn, deadline, "turn");
    let _ = gate.unlock();
    Ok(got?.then_some(Turn { _turn: turn, gate }))
}

/// A write transaction inside its turn; it derefs to the transaction. Dropped without
/// `commit`, it rolls back, then gives the turn up.
pub struct WriteTx<'c> {
    // Declared first, dropped first: the transaction ends before the turn is given up.
    tx: Transaction<'c>,
    _turn: Option<Turn>,
}

impl<'c> Deref for WriteTx<'c> {
    type Target = Transaction<'c>;
    fn deref(&self) -> &Transaction<'c> {
        &self.tx
    }
}

impl WriteTx<'_> {
    /// Whether another recall writer waits for the turn this transaction holds (never
    /// where there are no turns).
    pub fn waited_for(&self) -> bool {
        self._turn.as_ref().is_some_and(Turn::waited_for)
    }

    /// Commits, with the keys of the atom lines and the runs of the text the transaction
    /// wrote made first (the schema's triggers list the items; `atom_keys` reads their
    /// lines by the hook's rule, `runs` splits their text).
    pub fn commit(self) -> rusqlite::Result<()> {
        let WriteTx { tx, _turn } = self;
        super::atom_keys::fill(&tx)?;
        super::runs::fill(&tx)?;
        tx.commit()
    }
}

/// `BEGIN IMMEDIATE` on `conn` in the writer's turn of the library it opened.
pub fn immediate(conn: &Connection) -> rusqlite::Result<WriteTx<'_>> {
    begin(conn, TransactionBehavior::Immediate)
}

pub fn begin(conn: &Connection, behavior: TransactionBehavior) -> rusqlite::Result<WriteTx<'_>> {
    let turn = match conn.path().filter(|p| !p.is_empty()) {
        Some(path) => take(Path::new(path), super::open::busy_timeout())?,
        None => None,
    };
    Ok(WriteTx {
        tx: Transaction::new_unchecked(conn, behavior)?,
        _turn: turn,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn library(test: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("recall-turn-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("memory.db")
    }

    #[test]
    fn a_waiting_writer_gets_the_next_turn() {
        let lib = library("a_waiting_writer_gets_the_next_turn");
        let long = Duration::from_secs(5);
        let first = take(&lib, long).unwrap().unwrap();
        // Another writer waits (it holds the gate while it does).
        let waiter = {
            let lib = lib.clone();
            std::thread::spawn(move || {
                let t = take(&lib, long).unwrap().unwrap();
                std::thread::sleep(Duration::from_millis(50));
                drop(t);
                Instant::now()
            })
        };
        std::thread::sleep(Duration::from_millis(50));
        // The holder sees the waiter.
        assert!(first.waited_for(), "a waiting writer was not seen");
        drop(first);
        // The first writer at once wants its turn again: it gets it only after the
        // waiter's transaction.
        let again = take(&lib, long).unwrap().unwrap();
        let got_again = Instant::now();
        let waiter_done = waiter.join().unwrap();
        assert!(
            waiter_done <= got_again,
            "the writer that let go took its turn again first"
        );
        assert!(
            !again.waited_for(),
            "a writer was seen waiting where none does"
        );
        drop(again);
        // Past the timeout, the wait fails as SQLite's busy timeout does.
        let held = take(&lib, long).unwrap().unwrap();
        let e = match take(&lib, Duration::from_millis(20)) {
            Err(e) => e,
            Ok(_) => panic!("a held turn was taken"),
        };
        assert_eq!(
            e.sqlite_error_code(),
            Some(rusqlite::ErrorCode::DatabaseBusy)
        );
        drop(held);
        // No folder for the files: no turns, no error.
        assert!(take(Path::new("/nonexistent-folder/memory.db"), long)
            .unwrap()
            .is_none());
    }
}
