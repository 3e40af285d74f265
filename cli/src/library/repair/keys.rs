//! The keys of the items' atom lines (migration 0008) made again when their tables'
//! pages are damaged: like the index, they are derived from the items, so the tables are
//! removed from the schema unread, created again, and every item with atoms is made
//! pending for the commit to key.
use rusqlite::Connection;

use super::index::{damaged, unlink};
use super::{definition, quoted};
use crate::error::{Context, Result};
use crate::library::atom_keys;
use crate::library::schema::Reference;

/// The keys' tables whose pages SQLite finds damaged. Read before the repair's
/// transaction, as the index's are.
pub(super) fn damaged_key_tables(conn: &Connection) -> Vec<String> {
    let present = atom_keys::tables_present(conn).unwrap_or_default();
    damaged(conn, present.into_iter().map(String::from).collect())
}

/// Creates the keys' tables again where `damaged` names one, and lists every item with
/// atoms as pending.
pub(super) fn recreate_keys(
    conn: &Connection,
    reference: &Reference,
    damaged: &[String],
    done: &mut Vec<String>,
) -> Result<()> {
    if damaged.is_empty() {
        return Ok(());
    }
    let tables: Vec<String> = atom_keys::TABLES.iter().map(|t| t.to_string()).collect();
    unlink(
        conn,
        "removing the damaged tables of the atom lines' keys",
        "type in ('table', 'index') and tbl_name = ?1",
        &tables,
    )?;
    for name in atom_keys::TABLES.iter().chain(atom_keys::INDEXES) {
        conn.execute_batch(&definition(reference, name)?.sql)
            .context(&format!("creating {}", quoted(name)))?;
    }
    atom_keys::remake_all(conn).context("listing the items whose keys are made again")?;
    done.push(format!(
        "created the atom lines' keys again (the pages of {} were damaged)",
        damaged.join(", ")
    ));
    Ok(())
}
