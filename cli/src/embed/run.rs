//! The run: the items read in batches, those without a current vector embedded, each
//! batch stored in its own transaction.
use std::collections::HashMap;

use rusqlite::Connection;

use super::batch::{embed_batch, store_batch, Pending};
use super::made::{pending, remove_orphans, stale, vectors_made};
use crate::error::{err, Context, Error, Result};
use crate::library::sql_file::{self, int, queries};
use crate::library::turn;
use crate::vectors::embedder::Embedder;
use crate::vectors::store::{self, Store};
use crate::{fault, interrupt};

/// How a run embeds.
pub struct Options {
    /// The embedder's command line.
    pub command: String,
    pub timeout_ms: i64,
    /// Items read, and texts sent to the embedder, at a time.
    pub batch: i64,
    /// Embed every item again, even one whose vector is current.
    pub all: bool,
}

/// An item the embedder would not embed, and why.
pub type Refusal = (i64, String);

/// What a run tells as it goes.
pub enum Progress<'a> {
    /// Before the first batch: how many items have no current vector.
    Pending(i64),
    /// After each batch stored: how many items have been embedded so far.
    Embedded(i64),
    /// The last batch is stored.
    Finished,
    /// The embedder broke, and the run ends with an error; the items it refused before.
    Broken(&'a [Refusal]),
}

/// What a run did.
pub struct Embedded {
    /// Items given a vector.
    pub embedded: i64,
    /// Vectors of items deleted outside recall, removed.
    pub removed: usize,
    /// The library's vector record after the run; none when no vector was ever made.
    pub store: Option<Store>,
    pub refused: Vec<Refusal>,
}

/// Embeds the items of the library opened for writing on `conn`.
pub fn embed(
    conn: &Connection,
    options: &Options,
    progress: &mut dyn FnMut(Progress),
) -> Result<Embedded> {
    let mut known = store::read(conn)?;
    let (removed, current) = match &known {
        Some(_) => (
            remove_orphans(conn)?,
            if options.all {
                HashMap::new()
            } else {
                vectors_made(conn)?
            },
        ),
        None => (0, HashMap::new()),
    };
    let pending = pending(conn, &current)?;
    let mut embedder = Embedder::start(&options.command, options.timeout_ms).map_err(Error::new)?;
    progress(Progress::Pending(pending));
    // One watch over the whole run: each batch committed stays, a signal ends the next.
    let guard = interrupt::guard(
        "the batch in progress was not stored; the batches before it keep their vectors: run `recall embed` again to go on".to_string(),
        None,
    )?;
    let mut after = i64::MIN;
    let mut done = 0i64;
    let mut refused: Vec<Refusal> = Vec::new();
    loop {
        let rows = sql_file::read(
            conn,
            queries::ITEM_TEXTS,
            &vec![
                (":after", int(Some(after))),
                (":batch", int(Some(options.batch))),
            ],
            |c| {
                Ok((
                    c.int("id")?,
                    c.text("imported_at")?,
                    c.text("context")?,
                    c.text("text")?,
                ))
            },
        )?;
        let Some(last) = rows.last().and_then(|r| r.0) else {
            break;
        };
        after = last;
        // An item whose vector is as new as its text and its context is not embedded again.
        let batch: Vec<Pending> = rows
            .iter()
            .filter_map(|(id, imported, context, text)| {
                let (id, imported) = ((*id)?, imported.as_deref()?);
                let context = context.as_deref().unwrap_or_default();
                stale(current.get(&id), imported, context).then(|| Pending {
                    id,
                    imported,
                    context,
                    text: text.clone().unwrap_or_default(),
                })
            })
            .collect();
        if batch.is_empty() {
            continue;
        }
        let texts: Vec<String> = batch.iter().map(|b| b.text.clone()).collect();
        let (model, vectors) = match embed_batch(&mut embedder, &texts) {
            Ok(got) => got,
            Err(why) => {
                progress(Progress::Broken(&refused));
                return Err(err!(
                    "{why}: fix the embedder, then run `recall embed` again; the {done} items embedded before keep their vectors"
                ));
            }
        };
        let mut stored = Vec::new();
        for (item, vector) in batch.iter().zip(vectors) {
            match vector {
                Ok(v) => stored.push((item, v)),
                Err(why) => refused.push((item.id, why)),
            }
        }
        // Every text of the batch refused: nothing to store, nor a model to check.
        let Some(model) = model.filter(|_| !stored.is_empty()) else {
            continue;
        };
        let dims = stored.first().map_or(0, |s| s.1.len());
        let tx = turn::immediate(conn).context("storing vectors")?;
        let store = match &known {
            Some(s) => {
                s.check(&model, dims, "the embedder")?;
                store::ensure_contexts(&tx)?;
                s.clone()
            }
            None => store::create(&tx, &model, dims)?,
        };
        let written = store_batch(&tx, &stored)?;
        guard.commit(|| tx.commit()).context("storing vectors")?;
        guard.rearm();
        known = Some(store);
        done += written;
        progress(Progress::Embedded(done));
        fault::pause_point("embed", done);
    }
    progress(Progress::Finished);
    // Nothing to embed told nothing of the embedder: one text tells its model, which
    // must be the library's all the same (the next search would refuse it).
    if let (Some(s), 0) = (&known, done) {
        let probe = embedder
            .embed(&["recall".to_string()])
            .map_err(|why| err!("{}", why.message()))?;
        let dims = probe.vectors.first().map_or(0, Vec::len);
        s.check(&probe.model, dims, "the embedder")?;
    }
    drop(guard);
    embedder.done();
    Ok(Embedded {
        embedded: done,
        removed,
        store: known,
        refused,
    })
}
