//! Writing validated items: the one insert (`sql/import_item.sql`) and duplicate lookup
//! (`sql/find_duplicate.sql`) that `import` and `add` share, so that both store an item
//! and spot a duplicate the same way.
use rusqlite::{named_params, Connection, OptionalExtension, Statement};

use crate::item::Item;
use crate::sql_file::queries;

pub struct ItemWriter<'conn> {
    conn: &'conn Connection,
    insert: Statement<'conn>,
    find_duplicate: Statement<'conn>,
}

impl<'conn> ItemWriter<'conn> {
    /// Prepares both statements on `conn` (a connection inside the caller's transaction).
    pub fn new(conn: &'conn Connection) -> rusqlite::Result<ItemWriter<'conn>> {
        Ok(ItemWriter {
            conn,
            insert: conn.prepare(queries::IMPORT_ITEM.sql)?,
            find_duplicate: conn.prepare(queries::FIND_DUPLICATE.sql)?,
        })
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

    /// Writes the item (an upsert when it has an id) and returns its id.
    pub fn write(&mut self, item: &Item) -> rusqlite::Result<i64> {
        item.insert(&mut self.insert)?;
        // An upsert that updated leaves last_insert_rowid untouched: the id is the given one.
        Ok(item.id.unwrap_or_else(|| self.conn.last_insert_rowid()))
    }
}
