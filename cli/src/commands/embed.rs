//! `recall embed`: gives items vectors for search's vector channel (docs/vectors.md),
//! through `embed`'s run, and says what it did.
use std::time::Instant;

use serde_json::{json, Value as Json};

use super::Globals;
use crate::args::EmbedArgs;
use crate::embed::{self, Options, Progress};
use crate::error::{err, Result};
use crate::library::{self, Mode};
use crate::output;
use crate::vectors::store;

pub fn run(g: &Globals, a: &EmbedArgs) -> Result<i32> {
    let lib = library::open(g.db()?, Mode::Write, g.tokenizer.as_deref())?;
    if a.drop {
        let had = embed::drop_vectors(&lib.conn)?;
        return say(g, json!({"command": "embed", "dropped": had}), || {
            if had {
                "removed the vectors: search is literal only".to_string()
            } else {
                "the library has no vectors".to_string()
            }
        });
    }
    if let (Some(model), Some(dims)) = (&a.model, a.dimensions) {
        return make_table(g, &lib, model, dims);
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
    let options = Options {
        command,
        timeout_ms: g.config.vectors.timeout_ms,
        batch: g.config.vectors.batch,
        all: a.all,
    };
    let mut bar = None;
    let run = embed::embed(&lib.conn, &options, &mut |p| match p {
        Progress::Pending(pending) => bar = Some(output::progress("embedding", pending, g.json)),
        Progress::Embedded(done) => {
            if let Some(bar) = &bar {
                bar.set_position(done as u64);
            }
        }
        Progress::Finished => {
            if let Some(bar) = &bar {
                bar.finish_and_clear();
            }
        }
        Progress::Broken(refused) => warn_refused(refused),
    })?;
    let seconds = started.elapsed().as_secs_f64();
    let (done, removed, refused) = (run.embedded, run.removed, &run.refused);
    let (model, dimensions) = run.store.as_ref().map_or((None, None), |s| {
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
        || match &run.store {
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
        warn_refused(refused);
        return Ok(EXIT_REFUSED);
    }
    Ok(code)
}

/// The warning of a run in which the embedder refused items.
fn warn_refused(refused: &[embed::Refusal]) {
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

/// `--model NAME --dimensions N`: the table, without an embedder.
fn make_table(g: &Globals, lib: &library::Library, model: &str, dims: i64) -> Result<i32> {
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
    let made = embed::make_table(&lib.conn, model, dims)?;
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
        crate::output::say!("{}", text());
    }
    Ok(0)
}
