//! What makes `recall forget` leave no copy of a forgotten item's text in the library
//! file or its log. Deleting a row is not enough: SQLite leaves the deleted bytes in
//! free space, FTS5 keeps a deleted item's terms in its segments (behind a delete
//! marker) until they are merged, `ANALYZE` keeps sample keys (terms, project and
//! source names) in `sqlite_stat4`, earlier writes leave stale copies in freed pages
//! and free space, and the write-ahead log keeps old page images. So, in the forget's
//! transaction:
//!
//! - `PRAGMA secure_delete` overwrites what the transaction frees with zeros;
//! - after the deletes, FTS5 `optimize` merges the index into one segment, which drops
//!   the deleted items' entries and their delete markers for good (every version of an
//!   item, a replaced one included), and keeps the index format every SQLite reads; the
//!   index of the runs of the items' text (`runs`), whose runs no item holds any more
//!   went with the items, is merged the same way;
//! - the planner's statistics, if any, are gathered again;
//!
//! - a `wipe_pending` row in `recall_meta` says that the file still has to be wiped;
//!
//! then, after the commit, `VACUUM` rewrites the file from its live rows (no free
//! space, no stale page survives), a `TRUNCATE` checkpoint copies it into the file and
//! empties the log, and only then is the `wipe_pending` row removed. A process killed
//! between the commit and that point (SIGKILL, power loss) leaves the row: `check`
//! reports it, and the next command that opens the library for writing finishes the
//! wipe first (`finish_pending`), as `recall forget --finish` does.
//!
//! FTS5's own `secure-delete` option is not used: it removes only the entries of an
//! item's current version (a version replaced earlier stays in an older segment, behind
//! a delete marker), and once it has removed anything the index is in a format SQLite
//! before 3.42 (Debian 12's 3.40) refuses, until the index is rebuilt.
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use rusqlite::{Connection, OptionalExtension};

use crate::error::{Context, Result};

/// The `recall_meta` key of a wipe that a forget committed to but did not complete; its
/// value is when that forget ran.
pub const PENDING_KEY: &str = "wipe_pending";

/// The `recall_meta` key of why the last try at a pending wipe did not finish (and when):
/// what `check` tells, rather than taking every pending wipe for one cut off.
pub const UNFINISHED_KEY: &str = "wipe_unfinished";

/// What finishes a pending wipe by hand (any write finishes it too).
pub const FINISH: &str = "run `recall forget --finish`";

/// Sets the connection's `secure_delete` for as long as it lives, then puts back what
/// was there (a library caller keeps its connection).
pub struct ZeroFreed<'c> {
    conn: &'c Connection,
    before: i64,
}

impl<'c> ZeroFreed<'c> {
    pub fn on(conn: &'c Connection) -> Result<ZeroFreed<'c>> {
        let before = conn
            .query_row("pragma secure_delete", [], |r| r.get(0))
            .context("reading secure_delete")?;
        conn.query_row("pragma secure_delete = on", [], |_| Ok(()))
            .context("setting secure_delete")?;
        Ok(ZeroFreed { conn, before })
    }
}

impl Drop for ZeroFreed<'_> {
    fn drop(&mut self) {
        let _ = self.conn.query_row(
            &format!("pragma secure_delete = {}", self.before),
            [],
            |_| Ok(()),
        );
    }
}

/// After the deletes, inside the transaction: the index forgets the deleted items'
/// terms for good, and statistics gathered before are gathered again without them.
/// Also records, in the same transaction, that the file is still to be wiped: a forget
/// cut off after its commit can never pass for a complete one.
pub fn after_delete(tx: &Connection) -> Result<()> {
    tx.execute(
        "insert or replace into recall_meta(key, value)
         values (?1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
        [PENDING_KEY],
    )
    .context("recording that the file is to be wiped")?;
    tx.execute_batch("insert into items_fts(items_fts) values ('optimize')")
        .context("removing the items' terms from the index")?;
    // The runs only the forgotten items held went with them (the schema's triggers): the
    // index of the runs drops their entries the same way.
    super::runs::merge(tx).context("removing the forgotten runs from their index")?;
    let analyzed: bool = tx
        .query_row(
            "select exists (select 1 from sqlite_master where name = 'sqlite_stat1')",
            [],
            |r| r.get(0),
        )
        .context("looking for statistics")?;
    if analyzed {
        // sqlite_stat4 samples hold index keys: terms, projects, sources, times.
        tx.execute_batch("analyze")
            .context("gathering the statistics again")?;
    }
    Ok(())
}

/// What the wipe after the commit achieved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Wiped {
    /// The file was rewritten and its log emptied: no copy of a forgotten item's text
    /// is left in either.
    pub complete: bool,
    /// Why not, and what to do.
    pub warning: Option<String>,
}

/// After the commit: `VACUUM` rewrites the file from its live rows, and a `TRUNCATE`
/// checkpoint copies the result into the file and empties the log. Never an error: the
/// items are forgotten already, and a wipe that could not finish says why.
pub fn wipe(conn: &Connection, path: &Path) -> Wiped {
    let finish =
        format!("{FINISH} once that is resolved (the next write to the library also tries)");
    // Folded in first, the log starts again from its beginning for the rewrite rather
    // than holding the index twice over.
    let _ = conn.query_row("pragma wal_checkpoint(passive)", [], |_| Ok(()));
    let vacuumed = conn.execute_batch("vacuum");
    crate::fault::pause_point("wipe_vacuumed", 1);
    if let Err(e) = vacuumed {
        unfinished(
            conn,
            &format!(
                "the file could not be rewritten ({})",
                crate::error::describe_sqlite("vacuum", &e)
            ),
        );
        return Wiped {
            complete: false,
            warning: Some(format!(
                "the file could not be rewritten ({}): copies of forgotten text may remain in its free space; {finish}",
                crate::error::describe_sqlite("vacuum", &e)
            )),
        };
    }
    let checkpoint = conn.query_row("pragma wal_checkpoint(truncate)", [], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, i64>(2)?,
        ))
    });
    let wal = crate::library::sidecar(path, "-wal");
    let wal_len = std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
    match checkpoint {
        Ok((0, _, _)) if wal_len == 0 => clear_pending(conn),
        Ok(_) => {
            unfinished(
                conn,
                "another process (a reader, or Litestream, which keeps a read open) was using the log, so it could not be emptied",
            );
            Wiped {
            complete: false,
            warning: Some(format!(
                "another process is using the library, so its log could not be folded into the file and emptied: copies of forgotten text remain in {} and {} until it is; {finish}",
                path.display(),
                wal.display()
            )),
        }
        }
        Err(e) => {
            unfinished(
                conn,
                &format!(
                    "the log could not be folded into the file ({})",
                    crate::error::describe_sqlite("checkpoint", &e)
                ),
            );
            Wiped {
            complete: false,
            warning: Some(format!(
                "the log could not be folded into the file ({}): copies of forgotten text may remain in {}; {finish}",
                crate::error::describe_sqlite("checkpoint", &e),
                wal.display()
            )),
        }
        }
    }
}

/// Records why the wipe did not finish, and when (best effort: without it, `check`
/// says only that the wipe is pending).
fn unfinished(conn: &Connection, why: &str) {
    let _ = conn.execute(
        "insert or replace into recall_meta(key, value)
         values (?1, strftime('%Y-%m-%dT%H:%M:%SZ', 'now') || ' ' || ?2)",
        [UNFINISHED_KEY, why],
    );
}

/// When the last try at a pending wipe did not finish, and why.
pub fn why_unfinished(conn: &Connection) -> Option<String> {
    conn.query_row(
        "select value from recall_meta where key = ?1",
        [UNFINISHED_KEY],
        |r| r.get::<_, String>(0),
    )
    .optional()
    .ok()
    .flatten()
}

/// Once the file is rewritten and the log emptied, the record of the pending wipe goes.
/// Its removal is a write of its own, to a log now empty of any forgotten text; folding
/// it in too is a courtesy, which another process's reader may delay harmlessly.
fn clear_pending(conn: &Connection) -> Wiped {
    match conn.execute(
        "delete from recall_meta where key in (?1, ?2)",
        [PENDING_KEY, UNFINISHED_KEY],
    ) {
        Ok(_) => {
            let _ = conn.query_row("pragma wal_checkpoint(truncate)", [], |_| Ok(()));
            Wiped {
                complete: true,
                warning: None,
            }
        }
        Err(e) => Wiped {
            complete: false,
            warning: Some(format!(
                "the file was rewritten and its log emptied, but the record of the pending wipe could not be removed ({}): {FINISH}",
                crate::error::describe_sqlite("removing the record", &e)
            )),
        },
    }
}

/// When a forget recorded a wipe that did not complete (None: none did, or the library
/// has no readable `recall_meta`, which `check` reports on its own).
pub fn pending(conn: &Connection) -> Option<String> {
    conn.query_row(
        "select value from recall_meta where key = ?1",
        [PENDING_KEY],
        |r| r.get::<_, String>(0),
    )
    .optional()
    .ok()
    .flatten()
}

static DEFERRED: AtomicBool = AtomicBool::new(false);

/// For `recall forget --finish`, which wipes once itself: opening the library for it
/// must not wipe first.
pub fn defer_pending() {
    DEFERRED.store(true, Ordering::SeqCst);
}

/// Called once by every opening of a library for writing: a wipe an earlier forget left
/// pending is done before anything else is written. Not an error when it cannot finish
/// (the command goes on, and the record stays for the next write): a warning says why.
pub fn finish_pending(conn: &Connection, path: &Path) {
    if DEFERRED.load(Ordering::SeqCst) {
        return;
    }
    let Some(since) = pending(conn) else { return };
    let wiped = match ZeroFreed::on(conn) {
        Ok(_zero) => wipe(conn, path),
        Err(e) => Wiped {
            complete: false,
            warning: Some(format!("{e}: {FINISH}")),
        },
    };
    if let Some(w) = wiped.warning {
        eprintln!(
            "recall: warning: a forget of {since} did not finish wiping {}, and neither could this command: {w}",
            path.display()
        );
    }
}
