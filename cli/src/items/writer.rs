//! Writing validated items: the one insert (`sql/import_item.sql`) and duplicate lookup
//! (`sql/find_duplicate.sql`) that `import`, `add`, the MCP `add` tool and `capture`
//! share, so that all of them redact an item, spot a duplicate, refuse a source and
//! decide what an id may name the same way, under the one `WriteOptions` of their route.
use std::ops::Deref;

use recall_core::redact::Counts;
use rusqlite::{named_params, CachedStatement, Connection, OptionalExtension};
use serde_json::{json, Map, Value};

use super::options::{Duplicates, WriteOptions};
use crate::item::{unknown_kind, Item, Marks};
use crate::library::sql_file::queries;
use crate::settings::sources_param;
use crate::vectors::embedder::to_json;
use crate::vectors::store::{self, Store, TABLE};

pub struct ItemWriter<'conn> {
    conn: &'conn Connection,
    // Cached on the connection: a capture makes a writer a file, and compiles them once.
    insert: CachedStatement<'conn>,
    find_duplicate: CachedStatement<'conn>,
    /// The library's vectors, which a ready `embedding` joins.
    vectors: Option<Store>,
    /// Whether the library records the vectors' contexts (read at the first write).
    contexts: Option<bool>,
    /// The route's redaction switch, access globs, kinds and duplicate rule.
    options: WriteOptions,
    /// The highest id used when the writer was made, so that the lines of one import
    /// may give new ids in any order.
    ids_used: i64,
    /// The secrets taken out of the items written or left out as duplicates, by kind.
    redacted: Counts,
}

/// An item as it will be stored: its secrets taken out when redaction is on, and what
/// was taken out. Only `ItemWriter::prepare` makes one, and the writer looks up and
/// writes nothing else, so that no route stores, or looks a duplicate up with, an item
/// whose secrets are still in when redaction is on.
#[derive(Debug)]
pub struct Prepared {
    item: Item,
    redacted: Counts,
}

impl Deref for Prepared {
    type Target = Item;
    fn deref(&self) -> &Item {
        &self.item
    }
}

impl Prepared {
    /// The secrets taken out of what the item was made from before it was made (capture
    /// redacts a session's records before it cuts them into items: `capture::redact`),
    /// counted with the item's own when it is written.
    pub fn made_from(mut self, redacted: &Counts) -> Prepared {
        self.redacted.merge(redacted);
        self
    }

    /// The item replaces the item `id` (None: it is a new one). Ids hold no text: the
    /// item stays as prepared.
    pub fn with_id(mut self, id: Option<i64>) -> Prepared {
        self.item.id = id;
        self
    }

    /// The secrets taken out of the item and of what it was made from, by kind.
    pub fn redacted(&self) -> &Counts {
        &self.redacted
    }
}

/// What `ItemWriter::store` did with an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stored {
    /// The item's id; for a duplicate left out, that of the stored item it duplicates.
    pub id: i64,
    /// The stored item it is identical to, if any.
    pub duplicate_of: Option<i64>,
    /// Whether it was written (false: a duplicate left out).
    pub written: bool,
}

/// Why `ItemWriter::store` stored nothing.
#[derive(Debug)]
pub enum NotStored {
    /// The item may not be stored (its embedding, kind, source or id), and the one line
    /// that says why.
    Refused(String),
    /// Looking for a duplicate failed.
    Lookup(rusqlite::Error),
    /// The write failed.
    Write(rusqlite::Error),
}

/// Counts by kind as `--json` output and the MCP answer give them: `{"github-token": 2}`,
/// `{}` for none, so that the key is always there.
pub fn counts_json(counts: &Counts) -> Value {
    Value::Object(
        counts
            .iter()
            .map(|(kind, n)| (kind.to_string(), json!(n)))
            .collect::<Map<_, _>>(),
    )
}

/// The highest item id the library has ever used (sqlite_sequence, which AUTOINCREMENT
/// keeps), 0 for none: ids at or below it are never given to a new item again.
pub fn ids_used(conn: &Connection) -> rusqlite::Result<i64> {
    conn.prepare_cached(
        "select coalesce((select seq from sqlite_sequence where name = 'items'), 0)",
    )?
    .query_row([], |r| r.get(0))
}

impl<'conn> ItemWriter<'conn> {
    /// Prepares both statements on `conn` (a connection inside the caller's transaction),
    /// for the writes of a route bound by `options`: their access globs bind every write
    /// (an item is written only to a source they allow, and an item with an id only when
    /// that id names an item of such a source), their switch every redaction.
    pub fn new(
        conn: &'conn Connection,
        options: &WriteOptions,
    ) -> rusqlite::Result<ItemWriter<'conn>> {
        Ok(ItemWriter {
            conn,
            insert: conn.prepare_cached(queries::IMPORT_ITEM.sql)?,
            find_duplicate: conn.prepare_cached(queries::FIND_DUPLICATE.sql)?,
            vectors: None,
            contexts: None,
            options: options.clone(),
            ids_used: ids_used(conn)?,
            redacted: Counts::default(),
        })
    }

    /// The item as it will be stored: its secrets replaced, when redaction is on, and
    /// what was replaced. Nothing else can be looked up or written, so that neither the
    /// duplicate lookup nor the write sees a secret.
    pub fn prepare(&self, mut item: Item) -> Prepared {
        // A blank project name is no project: filters, listings and the status's counts
        // would otherwise show a nameless project beside the items of none.
        if item.project.as_deref().is_some_and(|p| p.trim().is_empty()) {
            item.project = None;
        }
        let redacted = if self.options.redact {
            item.redact()
        } else {
            Counts::default()
        };
        Prepared { item, redacted }
    }

    /// What `redact` finds, run only when redaction is on (else the default: nothing
    /// found): a route's redaction of what it makes its items of, before they are made
    /// (capture's session records), under the same switch as the items'.
    pub fn redact_before<T: Default>(&self, redact: impl FnOnce() -> T) -> T {
        if self.options.redact {
            redact()
        } else {
            T::default()
        }
    }

    /// An item made from a prepared one (the summary a summariser writes of its text),
    /// prepared in turn: it carries the secrets taken out of both.
    pub fn remade<T>(&self, from: Prepared, make: impl FnOnce(Item) -> (Item, T)) -> (Prepared, T) {
        let (item, made) = make(from.item);
        (self.prepare(item).made_from(&from.redacted), made)
    }

    /// The secrets taken out of the items written (by `write`, `write_marked` or `store`)
    /// or left out as duplicates (by `store`: their text was read), by kind.
    pub fn redacted(&self) -> &Counts {
        &self.redacted
    }

    /// Stores the item as `add` and `import` do: prepared (`prepare`), then refused with
    /// the one line that says why (its embedding, kind, source or id), or looked up among
    /// the stored items and, when it duplicates one, left out or written again by the
    /// route's `duplicates`.
    pub fn store(&mut self, item: Item, marks: &Marks) -> Result<Stored, NotStored> {
        let item = self.prepare(item);
        if let Some(problem) = self.embedding_problem(&item) {
            return Err(NotStored::Refused(problem));
        }
        let duplicate_of = self.duplicate_of(&item).map_err(NotStored::Lookup)?;
        if let (Some(id), Duplicates::Skip) = (duplicate_of, self.options.duplicates) {
            self.redacted.merge(&item.redacted);
            return Ok(Stored {
                id,
                duplicate_of,
                written: false,
            });
        }
        let id = self
            .write_marked(&item, marks)
            .map_err(NotStored::Write)?
            .map_err(NotStored::Refused)?;
        Ok(Stored {
            id,
            duplicate_of,
            written: true,
        })
    }

    /// With the library's vector record (`store::read`), items' embeddings are stored.
    pub fn with_vectors(mut self, vectors: Option<Store>) -> Self {
        self.vectors = vectors;
        self
    }

    /// Why the item's embedding cannot be stored, if it cannot.
    pub fn embedding_problem(&self, item: &Item) -> Option<String> {
        let v = item.embedding.as_ref()?;
        match &self.vectors {
            None => Some(
                "the item has an embedding, but the library has no vectors: make their table with `recall embed --model NAME --dimensions N`, or leave the field out".to_string(),
            ),
            Some(s) if s.dimensions != v.len() => Some(format!(
                "embedding has {} numbers, but the library's vectors (model {:?}) have {}",
                v.len(),
                s.model,
                s.dimensions
            )),
            Some(_) => None,
        }
    }

    /// The id of a stored item identical to `item` (same source, project, title,
    /// summary, questions, atoms and time), if any. An item with an id replaces that
    /// item instead and has no duplicate.
    pub fn duplicate_of(&mut self, item: &Prepared) -> rusqlite::Result<Option<i64>> {
        // Nothing is looked up in a source the caller may not read: the write refuses it.
        if item.id.is_some() || self.source_refusal(item).is_some() {
            return Ok(None);
        }
        self.find_duplicate
            .query_row(
                named_params! {
                    ":source": item.source,
                    ":project": item.project,
                    ":title": item.title,
                    ":summary": item.summary,
                    ":questions": item.questions,
                    ":atoms": item.atoms,
                    ":occurred_at": item.occurred_at,
                },
                |r| r.get(0),
            )
            .optional()
    }

    /// Writes the item (an upsert when it has an id) and returns its id; with an
    /// embedding (checked by `embedding_problem`), its vector too, as of this write.
    /// An item whose id may not be written (`sql/import_item.sql` says which may) is
    /// refused, with the one line that says why, and nothing is written.
    pub fn write(&mut self, item: &Prepared) -> rusqlite::Result<Result<i64, String>> {
        self.write_with(item, None)
    }

    /// `write`, with the item's marks (its kind, whether it is global), which replace
    /// those of an item it replaces; a kind the library does not know is refused.
    pub fn write_marked(
        &mut self,
        item: &Prepared,
        marks: &Marks,
    ) -> rusqlite::Result<Result<i64, String>> {
        if let Some(unknown) = marks
            .kind
            .as_deref()
            .and_then(|k| unknown_kind("kind", k, &self.options.kinds))
        {
            return Ok(Err(unknown));
        }
        self.write_with(item, Some(marks))
    }

    /// The one write; the item's secrets count once it is written.
    fn write_with(
        &mut self,
        prepared: &Prepared,
        marks: Option<&Marks>,
    ) -> rusqlite::Result<Result<i64, String>> {
        let item = &prepared.item;
        if let Some(refusal) = self.source_refusal(item) {
            return Ok(Err(refusal));
        }
        let sources = sources_param(&self.options.allow);
        let (sources, ids_used) = (sources.as_deref(), Some(self.ids_used));
        // A route that knows nothing of marks keeps those of an item it replaces.
        let written = item.insert_as(&mut self.insert, sources, ids_used, marks)?;
        let id = match item.id {
            Some(id) if written == 0 => return Ok(Err(self.refusal(id))),
            // An upsert that updated leaves last_insert_rowid untouched: the id is the given one.
            Some(id) => id,
            None => self.conn.last_insert_rowid(),
        };
        if self.vectors.is_some() {
            // A replaced item's vector was made from its old text: it goes, and `recall
            // embed` makes the item's own (an imported_at in whole seconds may not have
            // changed). A new item's id was never used since ids were kept (migration
            // 0003), but one given earlier may still hold the vector of an item another
            // program deleted: it goes too. A vector given with the item has no record
            // of a context, so that `recall embed` replaces it only under `--all`.
            let contexts = match self.contexts {
                Some(c) => c,
                None => *self.contexts.insert(store::contexts_exist(self.conn)?),
            };
            let tables = store::Tables {
                vectors: true,
                contexts,
            };
            store::remove(self.conn, &[id], tables)?;
        }
        if let (Some(v), Some(_)) = (&item.embedding, &self.vectors) {
            self.conn
                .prepare_cached(&format!(
                    "insert into {TABLE}(rowid, embedding, item_imported_at)
                     select id, ?2, imported_at from items where id = ?1"
                ))?
                .execute((id, to_json(v)))?;
        }
        self.redacted.merge(&prepared.redacted);
        Ok(Ok(id))
    }

    /// Why an item may not be written to its source, if it may not: the access globs
    /// allow the caller other sources only.
    fn source_refusal(&self, item: &Item) -> Option<String> {
        let allow = &self.options.allow;
        let globs = allow.as_ref()?;
        (!crate::access::allowed(allow, &item.source)).then(|| {
            format!(
                "source {:?} is not one the access globs ({}) allow: write to a source they allow",
                item.source,
                globs.join(", ")
            )
        })
    }

    /// Why an item with `id` was not written. Under access globs, an item of a source
    /// they forbid and a forgotten one get the same answer, as `get` answers alike for
    /// a forbidden item and a missing one.
    fn refusal(&self, id: i64) -> String {
        match &self.options.allow {
            None => format!(
                "id {id} was used by an item since forgotten: ids are never reused; leave id out to add a new item"
            ),
            Some(globs) => format!(
                "id {id} names no item you may read, and ids are never reused: an id replaces an item of a source the access globs ({}) allow, or is a new one above every id used; leave id out to add a new item",
                globs.join(", ")
            ),
        }
    }
}
