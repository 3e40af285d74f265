//! The neighbours' titles each item is indexed with (`items.context`, the index's
//! `context` column). The library's triggers keep them in step on every write
//! (the migration `neighbour_context` of `sql/migrations/`); what they should hold is the view
//! `items_context_wanted`, read here by `rebuild`, `repair` and `check`.
use rusqlite::Connection;

use crate::error::{Context, Result};

/// The items whose context is not what their neighbours make it.
const STALE: &str = "from items as i join items_context_wanted as w on w.id = i.id
                     where i.context is not w.context";

/// How many items hold another context than their neighbours make.
pub fn stale(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row(&format!("select count(*) {STALE}"), [], |r| r.get(0))
}

/// Sets every item's context to what its neighbours make, without touching the index:
/// for a caller that rebuilds the index next. Returns how many changed.
pub fn recompute(conn: &Connection) -> Result<usize> {
    conn.execute(
        &format!(
            "update items set context = (select w.context from items_context_wanted as w
                                         where w.id = items.id)
             where id in (select i.id {STALE})"
        ),
        [],
    )
    .context("recomputing the items' contexts")
}
