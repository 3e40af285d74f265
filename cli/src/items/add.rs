//! Adding one validated item in a transaction of its own: what `recall add` and the MCP
//! `add` tool share.
use recall_core::redact::Counts;
use serde_json::{json, Value};

use super::options::WriteOptions;
use super::writer::{counts_json, ItemWriter, NotStored};
use crate::error::{err, Context, Error, Result};
use crate::item::{Item, Marks};
use crate::library::Library;
use crate::{fault, interrupt};

/// What an add did: the item's id, and the stored item it duplicates, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Added {
    pub id: i64,
    pub duplicate_of: Option<i64>,
    /// Whether the item was written (false: a duplicate left out).
    pub written: bool,
    /// The secrets taken out of its text, by kind.
    pub redacted: Counts,
}

impl Added {
    /// What `recall --json add` prints: `{"command": "add", "id", "duplicate_of", "added",
    /// "redacted"}`.
    pub fn to_json(&self) -> Value {
        json!({
            "command": "add", "id": self.id, "duplicate_of": self.duplicate_of,
            "added": self.written, "redacted": counts_json(&self.redacted),
        })
    }
}

/// Writes one item (validated by `Item::from_json`, as import does) under the route's
/// `options` (`ItemWriter::store`): redacted when they say so before anything is looked
/// up or written; refused unless its source is one their globs allow and its `id`, if
/// any, names an item of such a source; a duplicate added again or left out. `marks` are
/// its kind (one of `options.kinds`) and whether it is global. `guard`, when given,
/// holds interruptions off the commit (the command line's; a library caller has none).
pub fn add(
    lib: &mut Library,
    item: Item,
    marks: &Marks,
    options: &WriteOptions,
    guard: Option<&interrupt::Guard>,
) -> Result<Added> {
    let tx = crate::library::turn::immediate(&lib.conn).context("starting to add the item")?;
    let added = {
        let mut writer = ItemWriter::new(&tx, options)
            .context("preparing to add the item")?
            .with_vectors(crate::vectors::store::read(&tx)?);
        let stored = writer.store(item, marks).map_err(|e| match e {
            NotStored::Refused(reason) => err!("{reason}; nothing was added"),
            NotStored::Lookup(e) => Error::sqlite("looking for a duplicate", &e),
            NotStored::Write(e) => Error::sqlite("writing the item; nothing was added", &e),
        })?;
        Added {
            id: stored.id,
            duplicate_of: stored.duplicate_of,
            written: stored.written,
            redacted: writer.redacted().clone(),
        }
    };
    fault::pause_point("add", 1);
    match guard {
        Some(guard) => guard.commit(|| tx.commit()),
        None => tx.commit(),
    }
    .context("committing the item")?;
    Ok(added)
}
