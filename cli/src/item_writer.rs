//! Writing validated items: the one insert (`sql/import_item.sql`) and duplicate lookup
//! (`sql/find_duplicate.sql`) that `import` and `add` share, so that both store an item
//! and spot a duplicate the same way.
use rusqlite::{named_params, Connection, OptionalExtension, Statement};

use crate::item::Item;
use crate::sql_file::queries;
use crate::vectors::embedder::to_json;
use crate::vectors::store::{Store, TABLE};

pub struct ItemWriter<'conn> {
    conn: &'conn Connection,
    insert: Statement<'conn>,
    find_duplicate: Statement<'conn>,
    /// The library's vectors, which a ready `embedding` joins.
    vectors: Option<Store>,
}

impl<'conn> ItemWriter<'conn> {
    /// Prepares both statements on `conn` (a connection inside the caller's transaction).
    pub fn new(conn: &'conn Connection) -> rusqlite::Result<ItemWriter<'conn>> {
        Ok(ItemWriter {
            conn,
            insert: conn.prepare(queries::IMPORT_ITEM.sql)?,
            find_duplicate: conn.prepare(queries::FIND_DUPLICATE.sql)?,
            vectors: None,
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
    pub fn duplicate_of(&mut self, item: &Item) -> rusqlite::Result<Option<i64>> {
        if item.id.is_some() {
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
    pub fn write(&mut self, item: &Item) -> rusqlite::Result<i64> {
        item.insert(&mut self.insert)?;
        // An upsert that updated leaves last_insert_rowid untouched: the id is the given one.
        let id = item.id.unwrap_or_else(|| self.conn.last_insert_rowid());
        if self.vectors.is_some() {
            // A replaced item's vector was made from its old text, and a new item may
            // take the id of one deleted by another program, whose vector is still
            // there: either way it goes, and `recall embed` makes the item's own (an
            // imported_at in whole seconds may not have changed).
            self.conn
                .prepare_cached(&format!("delete from {TABLE} where rowid = ?1"))?
                .execute([id])?;
        }
        if let (Some(v), Some(_)) = (&item.embedding, &self.vectors) {
            self.conn
                .prepare_cached(&format!(
                    "insert into {TABLE}(rowid, embedding, item_imported_at)
                     select id, ?2, imported_at from items where id = ?1"
                ))?
                .execute((id, to_json(v)))?;
        }
        Ok(id)
    }
}
