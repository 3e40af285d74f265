//! Writing validated items: the one insert (`sql/import_item.sql`) and duplicate lookup
//! (`sql/find_duplicate.sql`) that `import`, `add` and the MCP `add` tool share, so that
//! all of them store an item, spot a duplicate and decide what an id may name the same
//! way.
use recall_core::redact::Counts;
use rusqlite::{named_params, CachedStatement, Connection, OptionalExtension};
use serde_json::{json, Map, Value};

use crate::item::{known_kinds, unknown_kind, Item, Marks};
use crate::query::sql_file::queries;
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
    /// The sources the caller may read (None: every source): an id may replace only
    /// an item of one of them.
    access: Option<Vec<String>>,
    /// The highest id used when the writer was made, so that the lines of one import
    /// may give new ids in any order.
    ids_used: i64,
    /// Whether secrets are taken out of the items' text (`Item::redact`).
    redact: bool,
    /// The secrets taken out so far, by kind.
    redacted: Counts,
    /// The kinds an item may have (`item::known_kinds`).
    kinds: Vec<String>,
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
    /// Prepares both statements on `conn` (a connection inside the caller's transaction).
    pub fn new(conn: &'conn Connection) -> rusqlite::Result<ItemWriter<'conn>> {
        Ok(ItemWriter {
            conn,
            insert: conn.prepare_cached(queries::IMPORT_ITEM.sql)?,
            find_duplicate: conn.prepare_cached(queries::FIND_DUPLICATE.sql)?,
            vectors: None,
            contexts: None,
            access: None,
            ids_used: ids_used(conn)?,
            redact: true,
            redacted: Counts::default(),
            kinds: known_kinds(None),
        })
    }

    /// On by default: `--no-redact` and `[redact] enabled = false` turn it off.
    pub fn with_redaction(mut self, on: bool) -> Self {
        self.redact = on;
        self
    }

    /// The item as it will be stored: its secrets replaced, when redaction is on, and
    /// counted. Every item goes through here before the duplicate lookup and the write,
    /// so that neither sees a secret.
    pub fn prepare(&mut self, mut item: Item) -> Item {
        if self.redact {
            let found = item.redact();
            self.redacted.merge(&found);
        }
        item
    }

    /// The kinds the configuration adds to the built-in ones (`[kinds] extra`).
    pub fn with_kinds(mut self, extra: Option<&[String]>) -> Self {
        self.kinds = known_kinds(extra);
        self
    }

    /// The secrets taken out of the items prepared so far, by kind.
    pub fn redacted(&self) -> &Counts {
        &self.redacted
    }

    /// Binds the writes to the caller's access globs (`Globals::allow`): an item is
    /// written only to a source they allow, and an item with an id only when that id
    /// names an item of such a source. The rule of every route that writes through here
    /// (`add`, `import`, the MCP `add` tool).
    pub fn with_access(mut self, allow: &Option<Vec<String>>) -> Self {
        self.access = allow.clone();
        self
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
    pub fn duplicate_of(&mut self, item: &Item) -> rusqlite::Result<Option<i64>> {
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
    pub fn write(&mut self, item: &Item) -> rusqlite::Result<Result<i64, String>> {
        self.write_with(item, None)
    }

    /// `write`, with the item's marks (its kind, whether it is global), which replace
    /// those of an item it replaces; a kind the library does not know is refused.
    pub fn write_marked(
        &mut self,
        item: &Item,
        marks: &Marks,
    ) -> rusqlite::Result<Result<i64, String>> {
        if let Some(unknown) = marks
            .kind
            .as_deref()
            .and_then(|k| unknown_kind("kind", k, &self.kinds))
        {
            return Ok(Err(unknown));
        }
        self.write_with(item, Some(marks))
    }

    fn write_with(
        &mut self,
        item: &Item,
        marks: Option<&Marks>,
    ) -> rusqlite::Result<Result<i64, String>> {
        if let Some(refusal) = self.source_refusal(item) {
            return Ok(Err(refusal));
        }
        let sources = sources_param(&self.access);
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
        Ok(Ok(id))
    }

    /// Why an item may not be written to its source, if it may not: the access globs
    /// allow the caller other sources only.
    fn source_refusal(&self, item: &Item) -> Option<String> {
        let globs = self.access.as_ref()?;
        (!crate::access::allowed(&self.access, &item.source)).then(|| {
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
        match &self.access {
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
