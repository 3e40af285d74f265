//! What makes `recall forget` leave no copy of a forgotten item's text in the library
//! file or its log. Deleting a row is not enough: SQLite leaves the deleted bytes in
//! free space, FTS5 keeps the deleted terms in its segments until they are merged,
//! `ANALYZE` keeps sample keys (terms, project and source names) in `sqlite_stat4`,
//! earlier writes leave stale copies in freed pages, and the write-ahead log keeps
//! old page images. So, in the forget's transaction:
//!
//! - `PRAGMA secure_delete` overwrites what is freed with zeros;
//! - the index forgets the terms for real: FTS5's `secure-delete` option where every
//!   SQLite that can read the library's tokenizer also reads the index format that
//!   option leaves (3.42+), else an FTS5 `rebuild` from the remaining items, which
//!   keeps the index readable by older SQLite (the Debian 3.40 shell);
//! - the planner's statistics, if any, are gathered again;
//!
//! then, after the commit, `VACUUM` rewrites the file from its live rows (no free
//! space, no stale page survives) and a `TRUNCATE` checkpoint copies it into the file
//! and empties the log.
use std::path::Path;

use rusqlite::{Connection, OptionalExtension};

use crate::error::{Context, Result};
use crate::tokenizer;

/// How the index forgets the deleted items' terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexRoute {
    /// FTS5's `secure-delete` option, set for the forget and restored after it.
    SecureDelete,
    /// An FTS5 `rebuild` from the remaining items.
    Rebuild,
}

impl IndexRoute {
    pub fn name(self) -> &'static str {
        match self {
            IndexRoute::SecureDelete => "secure-delete",
            IndexRoute::Rebuild => "rebuild",
        }
    }
}

/// The FTS5 format version an index has once `secure-delete` removed something.
const FORMAT_SECURE_DELETE: i64 = 5;

fn config_value(conn: &Connection, key: &str) -> Result<Option<i64>> {
    conn.query_row("select v from items_fts_config where k = ?1", [key], |r| {
        r.get(0)
    })
    .optional()
    .context("reading the index configuration")
}

/// The index's FTS5 format version (4, or 5 once `secure-delete` has removed entries).
pub fn index_format(conn: &Connection) -> Result<Option<i64>> {
    config_value(conn, "version")
}

/// `secure-delete` turns the index into format 5, which SQLite before 3.42 refuses to
/// open ("invalid fts5 file format"), and only a rebuild turns it back. It is used
/// where that costs nothing: the tokenizer already needs a newer SQLite, or the index
/// is format 5 already.
pub fn index_route(conn: &Connection, library_tokenizer: &str) -> Result<IndexRoute> {
    if tokenizer::min_sqlite_version(library_tokenizer) >= tokenizer::SECURE_DELETE_SQLITE
        || index_format(conn)? == Some(FORMAT_SECURE_DELETE)
    {
        Ok(IndexRoute::SecureDelete)
    } else {
        Ok(IndexRoute::Rebuild)
    }
}

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

/// Before the deletes, inside the transaction. Returns the `secure-delete` setting to
/// restore afterwards.
pub fn before_delete(tx: &Connection, route: IndexRoute) -> Result<Option<i64>> {
    if route != IndexRoute::SecureDelete {
        return Ok(None);
    }
    let before = config_value(tx, "secure-delete")?;
    tx.execute_batch("insert into items_fts(items_fts, rank) values ('secure-delete', 1)")
        .context("setting the index's secure-delete option")?;
    Ok(before)
}

/// After the deletes, inside the transaction: the index forgets the terms for good,
/// and statistics gathered before are gathered again without the forgotten rows.
pub fn after_delete(tx: &Connection, route: IndexRoute, before: Option<i64>) -> Result<()> {
    match route {
        IndexRoute::SecureDelete => {
            // The deletes wait in FTS5's memory until a flush; the flush must happen
            // while the option is still on.
            tx.execute_batch("insert into items_fts(items_fts) values ('flush')")
                .context("removing the terms from the index")?;
            tx.execute(
                "insert into items_fts(items_fts, rank) values ('secure-delete', ?1)",
                [before.unwrap_or(0)],
            )
            .context("restoring the index's secure-delete option")?;
        }
        IndexRoute::Rebuild => {
            tx.execute_batch("insert into items_fts(items_fts) values ('rebuild')")
                .context("rebuilding the index without the forgotten items")?;
        }
    }
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
    let finish = "run `recall forget --finish` once that is resolved";
    if let Err(e) = conn.execute_batch("vacuum") {
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
        Ok((0, _, _)) if wal_len == 0 => Wiped {
            complete: true,
            warning: None,
        },
        Ok(_) => Wiped {
            complete: false,
            warning: Some(format!(
                "another process is using the library, so its log could not be folded into the file and emptied: copies of forgotten text remain in {} and {} until it is; {finish}",
                path.display(),
                wal.display()
            )),
        },
        Err(e) => Wiped {
            complete: false,
            warning: Some(format!(
                "the log could not be folded into the file ({}): copies of forgotten text may remain in {}; {finish}",
                crate::error::describe_sqlite("checkpoint", &e),
                wal.display()
            )),
        },
    }
}
