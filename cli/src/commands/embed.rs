//! `recall embed`: gives items vectors for search's vector channel (docs/vectors.md).
//! Batch by batch, each stored in a transaction of its own: interrupted or killed, the
//! library keeps the batches done and is consistent, and the next run goes on from there
//! (an item with a vector as new as its text and its neighbours' titles is not embedded
//! again).
use std::collections::HashMap;
use std::time::Instant;

use serde_json::{json, Value as Json};

use super::Globals;
use crate::args::EmbedArgs;
use crate::error::{Context, Error, Result};
use crate::library::{self, Access};
use crate::query::sql_file::{self, int, queries};
use crate::vectors::embedder::{self, Embedder, Failure};
use crate::vectors::store::{self, TABLE};
use crate::{err, fault, interrupt, output};

pub fn run(g: &Globals, a: &EmbedArgs) -> Result<i32> {
    let mut lib = library::open(g.db()?, Access::Write, g.tokenizer.as_deref())?;
    if a.drop {
        let tx = crate::library::turn::immediate(&lib.conn).context("removing the vectors")?;
        // The record is not read: a damaged one is what --drop is for.
        let had = store::exists(&tx)?;
        store::drop(&tx)?;
        tx.commit().context("removing the vectors")?;
        return say(g, json!({"command": "embed", "dropped": had}), || {
            if had {
                "removed the vectors: search is literal only".to_string()
            } else {
                "the library has no vectors".to_string()
            }
        });
    }
    if let (Some(model), Some(dims)) = (&a.model, a.dimensions) {
        return make_table(g, &mut lib, model, dims);
    }
    let command = a
        .embed
        .embed_cmd
        .clone()
        .or_else(|| g.config.vectors.command.clone())
        .ok_or_else(|| err!("{}", crate::vectors::NO_EMBEDDER))?;
    crate::line_process::check_command(&command, "the embedder")
        .map_err(|e| err!("--embed-cmd: {e}"))?;
    let started = Instant::now();
    let mut known = store::read(&lib.conn)?;
    let (removed, current) = match &known {
        Some(_) => (
            remove_orphans(&lib.conn)?,
            if a.all {
                HashMap::new()
            } else {
                vectors_made(&lib.conn)?
            },
        ),
        None => (0, HashMap::new()),
    };
    let pending = pending(&lib.conn, &current)?;
    let mut embedder =
        Embedder::start(&command, g.config.vectors.timeout_ms).map_err(Error::new)?;
    let bar = output::progress("embedding", pending, g.json);
    // One watch over the whole run: each batch committed stays, a signal ends the next.
    let guard = interrupt::guard(
        "the batch in progress was not stored; the batches before it keep their vectors: run `recall embed` again to go on".to_string(),
        None,
    )?;
    let mut after = i64::MIN;
    let mut done = 0i64;
    // Items the embedder would not embed, and why.
    let mut refused: Vec<(i64, String)> = Vec::new();
    loop {
        let rows = sql_file::read(
            &lib.conn,
            queries::ITEM_TEXTS,
            &vec![
                (":after", int(Some(after))),
                (":batch", int(Some(g.config.vectors.batch))),
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
                warn_refused(&refused);
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
        let tx = crate::library::turn::immediate(&lib.conn).context("storing vectors")?;
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
        bar.set_position(done as u64);
        fault::pause_point("embed", done);
    }
    bar.finish_and_clear();
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
    let seconds = started.elapsed().as_secs_f64();
    let (model, dimensions) = known.as_ref().map_or((None, None), |s| {
        (Some(s.model.clone()), Some(s.dimensions))
    });
    let refused_json: Vec<Json> = refused
        .iter()
        .map(|(id, why)| json!({"id": id, "reason": why}))
        .collect();
    let code = say(
        g,
        json!({"command": "embed", "embedded": done, "removed": removed, "model": model,
               "dimensions": dimensions, "seconds": seconds, "refused": refused_json}),
        || match &known {
            Some(s) => format!(
                "embedded {done} items with model {:?} ({} dimensions) in {seconds:.2} s{}",
                s.model,
                s.dimensions,
                if removed > 0 {
                    format!("; removed {removed} vectors of deleted items")
                } else {
                    String::new()
                }
            ),
            None if refused.is_empty() => "the library has no items to embed".to_string(),
            None => format!(
                "no vectors made: the embedder refused all {} items",
                refused.len()
            ),
        },
    )?;
    if !refused.is_empty() {
        warn_refused(&refused);
        return Ok(EXIT_REFUSED);
    }
    Ok(code)
}

/// An item to embed, as it was read: its text is its own and its neighbours' titles
/// (`sql/item_texts.sql`).
struct Pending<'a> {
    id: i64,
    imported: &'a str,
    context: &'a str,
    text: String,
}

/// What a vector was made from: the item's imported_at then, and its context (None for
/// a vector without that record, which is not compared).
struct Made {
    imported: String,
    context: Option<String>,
}

/// Whether an item needs a vector: it has none, or one older than its text, or one made
/// before its neighbours changed.
fn stale(made: Option<&Made>, imported: &str, context: &str) -> bool {
    made.is_none_or(|m| {
        m.imported != imported || m.context.as_deref().is_some_and(|c| c != context)
    })
}

/// Stores a batch's vectors, each for its item as it was read: an item deleted, replaced
/// or given other neighbours meanwhile (by a `forget` or an `import` running beside this
/// command) gets none, and is embedded by the next run if it is still there. Returns how
/// many.
fn store_batch(tx: &rusqlite::Transaction, stored: &[(&Pending, Vec<f32>)]) -> Result<i64> {
    let doing = "storing vectors";
    let mut insert = tx
        .prepare_cached(&format!(
            "insert into {TABLE}(rowid, embedding, item_imported_at)
             select id, ?2, imported_at from items
             where id = ?1 and imported_at = ?3 and context = ?4"
        ))
        .context(doing)?;
    let mut record = tx
        .prepare_cached(&format!(
            "insert into {}(id, context) values (?1, ?2)",
            store::CONTEXTS
        ))
        .context(doing)?;
    // The caller made both tables in this transaction.
    let tables = store::Tables {
        vectors: true,
        contexts: true,
    };
    let mut written = 0;
    for (item, vector) in stored {
        store::remove(tx, &[item.id], tables).context(doing)?;
        let made = insert
            .execute((
                item.id,
                embedder::to_json(vector),
                item.imported,
                item.context,
            ))
            .context(doing)?;
        if made == 1 {
            record.execute((item.id, item.context)).context(doing)?;
        }
        written += made as i64;
    }
    Ok(written)
}

/// The warning of a run in which the embedder refused items.
fn warn_refused(refused: &[(i64, String)]) {
    let Some((id, why)) = refused.first() else {
        return;
    };
    let ids: Vec<String> = refused
        .iter()
        .take(10)
        .map(|(i, _)| i.to_string())
        .collect();
    let more = if refused.len() > 10 { ", …" } else { "" };
    eprintln!(
        "recall: warning: the embedder refused {} items (ids {}{more}), which have no vectors and are found by their words only; item {id}: {why}",
        refused.len(),
        ids.join(", ")
    );
}

/// Exit code of an embed that gave every item a vector but those the embedder refused.
pub const EXIT_REFUSED: i32 = 1;

/// The vectors of a batch's texts, with the model that made them (None when it made
/// none). Texts the embedder refuses together are tried one by one, so that an item it
/// cannot embed (too long for its model, no words) costs only that item. An embedder
/// that breaks fails the batch.
type BatchVectors = (Option<String>, Vec<std::result::Result<Vec<f32>, String>>);

fn embed_batch(e: &mut Embedder, texts: &[String]) -> std::result::Result<BatchVectors, String> {
    match e.embed(texts) {
        Ok(got) => Ok((Some(got.model), got.vectors.into_iter().map(Ok).collect())),
        Err(Failure::Broken(why)) => Err(why),
        Err(Failure::Refused(why)) if texts.len() == 1 => Ok((None, vec![Err(why)])),
        Err(Failure::Refused(_)) => {
            let mut model = None;
            let mut out = Vec::with_capacity(texts.len());
            for text in texts {
                match e.embed(std::slice::from_ref(text)) {
                    Ok(mut got) => {
                        model = Some(got.model);
                        out.push(
                            got.vectors
                                .pop()
                                .ok_or_else(|| "the embedder gave no vector".to_string()),
                        );
                    }
                    Err(Failure::Refused(why)) => out.push(Err(why)),
                    Err(Failure::Broken(why)) => return Err(why),
                }
            }
            Ok((model, out))
        }
    }
}

/// Vectors of items deleted outside recall (a host without sqlite-vec cannot reach the
/// table): removed, so that none takes a place among the nearest.
fn remove_orphans(conn: &rusqlite::Connection) -> Result<usize> {
    let doing = "removing the vectors of deleted items";
    if store::contexts_exist(conn).context(doing)? {
        conn.execute(
            &format!(
                "delete from {} where id not in (select id from items)",
                store::CONTEXTS
            ),
            [],
        )
        .context(doing)?;
    }
    conn.execute(
        &format!("delete from {TABLE} where rowid not in (select id from items)"),
        [],
    )
    .context(doing)
}

/// How many items have no vector as new as their text and context (the progress bar's
/// total).
fn pending(conn: &rusqlite::Connection, current: &HashMap<i64, Made>) -> Result<i64> {
    let doing = "counting the items to embed";
    let mut stmt = conn
        .prepare("select id, imported_at, context from items")
        .context(doing)?;
    let mut rows = stmt.query([]).context(doing)?;
    let mut pending = 0;
    while let Some(row) = rows.next().context(doing)? {
        let id: i64 = row.get(0).context(doing)?;
        let imported: Option<String> = row.get(1).context(doing)?;
        let context: Option<String> = row.get(2).context(doing)?;
        if stale(
            current.get(&id),
            imported.as_deref().unwrap_or_default(),
            context.as_deref().unwrap_or_default(),
        ) {
            pending += 1;
        }
    }
    Ok(pending)
}

/// Each item with a vector: the item's imported_at when the vector was made, and the
/// context it was made with when that is recorded.
fn vectors_made(conn: &rusqlite::Connection) -> Result<HashMap<i64, Made>> {
    let doing = "reading which items have vectors";
    let contexts = if store::contexts_exist(conn).context(doing)? {
        format!(
            "(select c.context from {} as c where c.id = v.rowid)",
            store::CONTEXTS
        )
    } else {
        "null".to_string()
    };
    let mut stmt = conn
        .prepare(&format!(
            "select v.rowid, v.item_imported_at, {contexts} from {TABLE} as v"
        ))
        .context(doing)?;
    let made = stmt
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                Made {
                    imported: r.get::<_, Option<String>>(1)?.unwrap_or_default(),
                    context: r.get(2)?,
                },
            ))
        })
        .and_then(|rows| rows.collect::<rusqlite::Result<HashMap<i64, Made>>>())
        .context(doing)?;
    Ok(made)
}

/// `--model NAME --dimensions N`: the table, without an embedder.
fn make_table(g: &Globals, lib: &mut library::Library, model: &str, dims: i64) -> Result<i32> {
    if model.trim().is_empty() {
        return Err(err!("--model: give the model's name"));
    }
    if !(1..=store::MAX_DIMENSIONS as i64).contains(&dims) {
        return Err(err!(
            "--dimensions must be a whole number from 1 to {}, got {dims}",
            store::MAX_DIMENSIONS
        ));
    }
    let dims = dims as usize;
    let tx = crate::library::turn::immediate(&lib.conn).context("making the vector table")?;
    let made = match store::read(&tx)? {
        Some(s) => {
            s.check(model, dims, "--model and --dimensions")?;
            false
        }
        None => {
            store::create(&tx, model, dims)?;
            true
        }
    };
    tx.commit().context("making the vector table")?;
    say(
        g,
        json!({"command": "embed", "model": model, "dimensions": dims, "created": made}),
        || {
            if made {
                format!("made the vector table for model {model:?} ({dims} dimensions)")
            } else {
                format!("the library already has vectors of model {model:?} ({dims} dimensions)")
            }
        },
    )
}

fn say(g: &Globals, answer: serde_json::Value, text: impl FnOnce() -> String) -> Result<i32> {
    if g.json {
        output::json(&answer);
    } else {
        crate::say!("{}", text());
    }
    Ok(0)
}
