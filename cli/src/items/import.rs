//! Importing JSON Lines in one transaction. The first bad line stops the import with its
//! number and the reason, and nothing is written.
use std::io::{BufReader, Read};

use recall_core::redact::Counts;

use super::options::WriteOptions;
use super::writer::{ItemWriter, NotStored};
use crate::error::{err, Context, Error, Result};
use crate::item::{Item, Marks};
use crate::library::Library;
use crate::{fault, input, interrupt};

/// What an import wrote: how many items, and how many of them (or of those left out)
/// were already in the library.
pub struct Imported {
    pub count: i64,
    pub duplicates: i64,
    /// The secrets taken out of the items' text, by kind (those left out as duplicates
    /// included: their text was read).
    pub redacted: Counts,
}

/// Imports the lines of `input` (`name` in messages) under the route's `options`
/// (`ItemWriter::store`): each item redacted when they say so before it is looked up or
/// written, refused unless its source is one their globs allow and its id, if any,
/// names an item of such a source; a duplicate imported again or left out. A line's
/// `kind` must be one of `options.kinds`. `guard` holds interruptions off the commit.
pub fn import(
    lib: &mut Library,
    input: impl Read,
    name: &str,
    options: &WriteOptions,
    guard: &interrupt::Guard,
) -> Result<Imported> {
    let tx = crate::library::turn::immediate(&lib.conn).context("starting the import")?;
    let mut count = 0i64;
    let mut duplicates = 0i64;
    let redacted;
    {
        let mut writer = ItemWriter::new(&tx, options)
            .context("preparing the import")?
            .with_vectors(crate::vectors::store::read(&tx)?);
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
            let stored = writer.store(item, &marks).map_err(|e| match e {
                NotStored::Refused(reason) => {
                    err!("{name}: line {n}: {reason}; nothing was imported")
                }
                NotStored::Lookup(e) => {
                    Error::sqlite(&format!("{name}: line {n}: looking for a duplicate"), &e)
                }
                NotStored::Write(e) => Error::sqlite(
                    &format!("{name}: line {n}: writing the item; nothing was imported"),
                    &e,
                ),
            })?;
            if stored.duplicate_of.is_some() {
                duplicates += 1;
            }
            if !stored.written {
                continue;
            }
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
