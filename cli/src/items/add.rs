//! Adding one validated item in a transaction of its own: what `recall add` and the MCP
//! `add` tool share.
use recall_core::redact::Counts;
use serde_json::{json, Value};

use super::writer::{counts_json, ItemWriter};
use crate::error::{Context, Result};
use crate::item::{Item, Marks};
use crate::library::Library;
use crate::{err, fault, interrupt};

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

/// Writes one item (validated by `Item::from_json`, as import does). An item with an
/// `id` replaces that item, if it is one `allow` lets the caller read (see
/// `ItemWriter::write`). A duplicate of a stored item is added again, as `import` does,
/// unless `skip_duplicates`. With `redact`, its secrets are replaced before anything
/// is looked up or written (`ItemWriter::prepare`). `marks` are its kind (one of the
/// built-in kinds or the configuration's `kinds`) and whether it is global. `guard`, when given, holds interruptions off the commit (the
/// command line's; a library caller has none).
#[allow(clippy::too_many_arguments)]
pub fn add(
    lib: &mut Library,
    item: Item,
    marks: &Marks,
    kinds: Option<&[String]>,
    allow: &Option<Vec<String>>,
    skip_duplicates: bool,
    redact: bool,
    guard: Option<&interrupt::Guard>,
) -> Result<Added> {
    let tx = crate::library::turn::immediate(&lib.conn).context("starting to add the item")?;
    let added = {
        let mut writer = ItemWriter::new(&tx)
            .context("preparing to add the item")?
            .with_vectors(crate::vectors::store::read(&tx)?)
            .with_access(allow)
            .with_kinds(kinds)
            .with_redaction(redact);
        let item = &writer.prepare(item);
        if let Some(problem) = writer.embedding_problem(item) {
            return Err(err!("{problem}; nothing was added"));
        }
        let duplicate_of = writer
            .duplicate_of(item)
            .context("looking for a duplicate")?;
        match duplicate_of {
            Some(id) if skip_duplicates => Added {
                id,
                duplicate_of,
                written: false,
                redacted: writer.redacted().clone(),
            },
            _ => Added {
                id: writer
                    .write_marked(item, marks)
                    .context("writing the item; nothing was added")?
                    .map_err(|refusal| err!("{refusal}; nothing was added"))?,
                duplicate_of,
                written: true,
                redacted: writer.redacted().clone(),
            },
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
