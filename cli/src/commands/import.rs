//! `recall import FILE|-`: JSON Lines in one transaction. The first bad line stops the
//! import with its number and the reason, and nothing is written.
use std::io::{BufReader, Read};
use std::time::Instant;

use rusqlite::TransactionBehavior::Immediate;
use serde_json::json;

use super::Globals;
use crate::error::{Context, Result};
use crate::item::Item;
use crate::item_writer::ItemWriter;
use crate::library::{self, Access};
use crate::{err, fault, input, interrupt, output};

/// `allow` is the `--allow` flags (else the configuration's `[access] allow`): a line
/// with an id may replace only an item of a source they let the caller read.
pub fn run(g: &Globals, file: &str, skip_duplicates: bool, allow: &[String]) -> Result<i32> {
    let path = g.db()?;
    let input: Box<dyn Read> = if file == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(file).map_err(|e| err!("cannot read {file}: {e}"))?)
    };
    let mut lib = library::open(path, Access::Write, g.tokenizer.as_deref())?;
    let guard = interrupt::guard(
        "nothing was imported; the library is as it was".to_string(),
        None,
    )?;
    let started = Instant::now();
    let tx = lib
        .conn
        .transaction_with_behavior(Immediate)
        .context("starting the import")?;
    let mut count = 0i64;
    let mut duplicates = 0i64;
    {
        let mut writer = ItemWriter::new(&tx)
            .context("preparing the import")?
            .with_vectors(crate::vectors::store::read(&tx)?)
            .with_access(&g.allow(allow));
        let name = if file == "-" { "stdin" } else { file };
        let mut lines = input::Lines::new(BufReader::new(input), input::ITEM_JSON);
        let fix = "no valid item is that long (one item per line); nothing was imported";
        while let Some((n, bytes)) = lines.next_line(name, fix)? {
            let text = std::str::from_utf8(&bytes).map_err(|e| {
                err!(
                    "{name}: line {n}: invalid UTF-8 at byte {}; nothing was imported",
                    e.valid_up_to()
                )
            })?;
            let text = if n == 1 {
                crate::text::without_bom(text)
            } else {
                text
            };
            let text = text.trim();
            if text.is_empty() {
                continue;
            }
            let value: serde_json::Value = serde_json::from_str(text)
                .map_err(|e| err!("{name}: line {n}: invalid JSON: {e}; nothing was imported"))?;
            let item = Item::from_json(&value)
                .map_err(|reason| err!("{name}: line {n}: {reason}; nothing was imported"))?;
            if let Some(problem) = writer.embedding_problem(&item) {
                return Err(err!("{name}: line {n}: {problem}; nothing was imported"));
            }
            if writer
                .duplicate_of(&item)
                .context(&format!("{name}: line {n}: looking for a duplicate"))?
                .is_some()
            {
                duplicates += 1;
                if skip_duplicates {
                    continue;
                }
            }
            writer
                .write(&item)
                .context(&format!(
                    "{name}: line {n}: writing the item; nothing was imported"
                ))?
                .map_err(|refusal| err!("{name}: line {n}: {refusal}; nothing was imported"))?;
            count += 1;
            fault::pause_point("import", count);
        }
    }
    guard
        .commit(|| tx.commit())
        .context("committing the import")?;
    let seconds = started.elapsed().as_secs_f64();
    if g.json {
        output::json(&json!({
            "command": "import", "imported": count, "duplicates": duplicates,
            "skipped_duplicates": skip_duplicates, "seconds": seconds,
        }));
    } else {
        crate::say!("imported {count} items in {seconds:.2} s");
    }
    if duplicates > 0 {
        let done = if skip_duplicates {
            "left out"
        } else {
            "imported again (`--skip-duplicates` leaves them out)"
        };
        eprintln!(
            "recall: warning: {duplicates} items were already in the library (same source, project, title, text and time): {done}"
        );
    }
    Ok(0)
}
