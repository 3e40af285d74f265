//! The columns of `items`, named once for the Rust code. The SQL files spell them as
//! they need; a test checks this table against the tables the migrations create.

/// A column of `items` and what it must hold.
pub struct Column {
    pub name: &'static str,
    /// May be NULL.
    pub nullable: bool,
    /// Holds a time in the form 2025-03-04T05:06:07Z.
    pub time: bool,
    /// Its place among the columns of the FTS5 index `items_fts`, if the index holds it.
    pub indexed_as: Option<usize>,
    /// Holds 0 or 1 (a mark), not text.
    pub flag: bool,
}

/// Every column of `items` but its id, in the table's order.
#[rustfmt::skip]
pub const ITEM_COLUMNS: [Column; 12] = [
    Column { name: "source",      nullable: false, time: false, indexed_as: None, flag: false },
    Column { name: "project",     nullable: true,  time: false, indexed_as: Some(4), flag: false },
    Column { name: "title",       nullable: false, time: false, indexed_as: Some(0), flag: false },
    Column { name: "summary",     nullable: false, time: false, indexed_as: Some(1), flag: false },
    Column { name: "questions",   nullable: false, time: false, indexed_as: Some(2), flag: false },
    Column { name: "atoms",       nullable: false, time: false, indexed_as: Some(3), flag: false },
    Column { name: "occurred_at", nullable: false, time: true,  indexed_as: None, flag: false },
    Column { name: "transcript",  nullable: true,  time: false, indexed_as: None, flag: false },
    Column { name: "imported_at", nullable: false, time: true,  indexed_as: None, flag: false },
    Column { name: "kind",        nullable: true,  time: false, indexed_as: None, flag: false },
    Column { name: "global",      nullable: false, time: false, indexed_as: None, flag: true },
    Column { name: "context",     nullable: false, time: false, indexed_as: Some(5), flag: false },
];

/// The columns the index holds, in its order.
pub fn indexed() -> Vec<&'static str> {
    let mut columns: Vec<&Column> = ITEM_COLUMNS
        .iter()
        .filter(|c| c.indexed_as.is_some())
        .collect();
    columns.sort_by_key(|c| c.indexed_as);
    columns.into_iter().map(|c| c.name).collect()
}

/// Of `names`, those `table` has: a library a migration behind lacks the columns added
/// since (`context`, 0005).
pub fn present<'a>(
    conn: &rusqlite::Connection,
    table: &str,
    names: &[&'a str],
) -> rusqlite::Result<Vec<&'a str>> {
    let mut stmt = conn.prepare("select 1 from pragma_table_info(?1) where name = ?2")?;
    let mut kept = Vec::new();
    for name in names {
        if stmt.exists([table, name])? {
            kept.push(*name);
        }
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::migrations::{migration_sql, MIGRATIONS};
    use rusqlite::Connection;

    /// (name, not null) of each column of `table`, in order.
    fn columns_of(conn: &Connection, table: &str) -> Vec<(String, bool)> {
        conn.prepare(&format!(
            "select name, \"notnull\" from pragma_table_info('{table}')"
        ))
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
    }

    #[test]
    fn the_columns_are_those_the_migrations_create() {
        let conn = Connection::open_in_memory().unwrap();
        sqlite_recall_rusqlite::register(&conn).unwrap();
        for (_, _, sql) in MIGRATIONS {
            conn.execute_batch(&migration_sql(sql, crate::tokenizer::DEFAULT))
                .unwrap();
        }
        let items: Vec<(String, bool)> = ITEM_COLUMNS
            .iter()
            .map(|c| (c.name.to_string(), !c.nullable))
            .collect();
        assert_eq!(columns_of(&conn, "items")[1..], items);
        let index: Vec<String> = columns_of(&conn, "items_fts")
            .into_iter()
            .map(|c| c.0)
            .collect();
        assert_eq!(index, indexed());
        let pending: Vec<String> = columns_of(&conn, "items_fts_pending")
            .into_iter()
            .map(|c| c.0)
            .collect();
        assert_eq!(pending[1..], indexed());
    }
}
