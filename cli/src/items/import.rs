//! Importing JSON Lines in one transaction. The first bad line stops the import with its
//! number and the reason, and nothing is written.
use std::io::{BufReader, Read};

use recall_core::redact::Counts;

use super::writer::ItemWriter;
use crate::error::{Context, Result};
use crate::item::{Item, Marks};
use crate::library::Library;
use crate::{err, fault, input, interrupt};

/// What an import wrote: how many items, and how many of them (or of those left out)
/// were already in the library.
pub struct Imported {
    pub count: i64,
    pub duplicates: i64,
    /// The secrets taken out of the items' text, by kind (those left out as duplicates
    /// included: their text was read).
    pub redacted: Counts,
}

/// Imports the lines of `input` (`name` in messages). `allow` is the `--allow` flags
/// (else the configuration's `[access] allow`): a line with an id may replace only an
/// item of a source they let the caller read. With `redact`, each item's secrets are
/// replaced before it is looked up or written. A line's `kind` must be one of the
/// built-in kinds or `kinds` (the configuration's). `guard` holds interruptions off the
/// commit.
#[allow(clippy::too_many_arguments)]
pub fn import(
    lib: &mut Library,
    input: impl Read,
    name: &str,
    skip_duplicates: bool,
    allow: &Option<Vec<String>>,
    kinds: Option<&[String]>,
    redact: bool,
    guard: &interrupt::Guard,
) -> Result<Imported> {
    let tx = crate::library::turn::immediate(&lib.conn).context("starting the import")?;
    let mut count = 0i64;
    let mut duplicates = 0i64;
    let redacted;
    {
        let mut writer = ItemWriter::new(&tx)
            .context("preparing the import")?
            .with_vectors(crate::vectors::store::read(&tx)?)
            .with_access(allow)
            .with_kinds(kinds)
            .with_redaction(redact);
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
            // A line says all of an item: without kind or global, it has neither, also
            // when it replaces an item that had them.
            let marks = Marks::from_json(&value);
            let item = writer.prepare(item);
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
                .write_marked(&item, &marks)
                .context(&format!(
                    "{name}: line {n}: writing the item; nothing was imported"
                ))?
                .map_err(|refusal| err!("{name}: line {n}: {refusal}; nothing was imported"))?;
            count += 1;
            fault::pause_point("import", count);
        }
        redacted = writer.redacted().clone();
    }
    guard
        .commit(|| tx.commit())
        .context("committing the import")?;
    Ok(Imported {
        count,
        duplicates,
        redacted,
    })
}
