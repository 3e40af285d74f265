//! Filling an FTS5 index from the items, a batch at a time: `recall rebuild`'s new index
//! when the tokenizer changes, and the scratch index `check` compares with the library's.
use rusqlite::TransactionBehavior::Immediate;
use rusqlite::{Connection, Transaction};

use super::{columns, context, schema};
use crate::error::{err, Context, Result};
use crate::{fault, interrupt, tokenizer};

/// Items are indexed this many at a time.
pub const BATCH: i64 = 2_000;

/// The items with ids above `after`, up to `last`: `count` of them.
pub struct Batch {
    pub after: i64,
    pub last: i64,
    pub count: i64,
}

/// How many items there are: what a rebuild indexes.
pub fn count_items(conn: &Connection) -> Result<i64> {
    conn.query_row("select count(*) from items", [], |r| r.get(0))
        .context("counting items")
}

/// The items in id order, [`BATCH`] at a time. Each batch is read when the one before
/// is done, so that the caller may write in between.
pub fn batches(conn: &Connection) -> Batches<'_> {
    Batches {
        conn,
        after: Some(i64::MIN),
    }
}

pub struct Batches<'c> {
    conn: &'c Connection,
    /// The last id of the batch before; None once the items are read or a read failed.
    after: Option<i64>,
}

impl Iterator for Batches<'_> {
    type Item = rusqlite::Result<Batch>;

    fn next(&mut self) -> Option<Self::Item> {
        let after = self.after.take()?;
        let read = self.conn.query_row(
            "with batch as (select id from main.items where id > ?1 order by id limit ?2)
             select count(*), max(id) from batch",
            [after, BATCH],
            |r| Ok((r.get(0)?, r.get::<_, Option<i64>>(1)?)),
        );
        match read {
            Ok((count, Some(last))) => {
                self.after = Some(last);
                Some(Ok(Batch { after, last, count }))
            }
            Ok((_, None)) => None,
            Err(e) => Some(Err(e)),
        }
    }
}

/// The rebuild's transaction: every item's context recomputed from its neighbours, then
/// FTS5's `rebuild` of the declared index, or a new index
/// with the target tokenizer filled batch by batch (`progress` makes the bar that shows
/// how far it is), and the runs of the items' text made again, their index with the
/// target tokenizer. `from` is the tokenizer the library records.
pub fn rebuild(
    conn: &Connection,
    guard: &interrupt::Guard,
    declared: Option<&str>,
    target: &str,
    from: &str,
    progress: impl FnOnce() -> indicatif::ProgressBar,
) -> Result<()> {
    let tx = Transaction::new_unchecked(conn, Immediate).context("starting the rebuild")?;
    // The index is filled from the items next: their contexts first.
    context::recompute(&tx)?;
    if declared == Some(target) {
        tx.execute_batch("insert into items_fts(items_fts) values ('rebuild')")
            .context("rebuilding the index")?;
    } else {
        tokenizer::ensure_buildable(target)?;
        let old_sql = schema::index_sql(&tx)?.ok_or_else(|| {
            err!("the library has no index table items_fts: `recall check` tells more")
        })?;
        let new_sql = tokenizer::with_tokenizer(&old_sql, target)
            .ok_or_else(|| err!("cannot read the index definition: {old_sql}"))?;
        tx.execute_batch(&format!(
            "drop table items_fts; {new_sql}; delete from items_fts_pending;"
        ))
        .context("recreating the index")?;
        let bar = progress();
        let list = columns::indexed().join(", ");
        let insert = format!(
            "insert into items_fts(rowid, {list})
                 select id, {list} from items
                 where id > ?1 and id <= ?2"
        );
        let mut done = 0i64;
        for batch in batches(&tx) {
            let batch = batch.context("reading items")?;
            tx.execute(&insert, [batch.after, batch.last])
                .context("indexing items")?;
            done += batch.count;
            bar.set_position(done as u64);
            fault::pause_point("rebuild", done);
        }
        bar.finish_and_clear();
    }
    // The runs are derived from the items too, and their index has the tokenizer of the
    // items' index: both are made again.
    super::runs::recreate(&tx, target)?;
    super::runs::fill(&tx).context("splitting the items' text into runs")?;
    if target != from {
        tx.execute(
            "update recall_meta set value = ?1 where key = 'tokenizer'",
            [target],
        )
        .context("recording the tokenizer")?;
    }
    guard
        .commit(|| tx.commit())
        .context("committing the rebuild")
}
