//! What the vectors a library holds were made from, and so which items need one.
use std::collections::HashMap;

use crate::error::{Context, Result};
use crate::vectors::store::{self, TABLE};

/// What a vector was made from: the item's imported_at then, and its context (None for
/// a vector without that record, which is not compared).
pub(super) struct Made {
    imported: String,
    context: Option<String>,
}

/// Whether an item needs a vector: it has none, or one older than its text, or one made
/// before its neighbours changed.
pub(super) fn stale(made: Option<&Made>, imported: &str, context: &str) -> bool {
    made.is_none_or(|m| {
        m.imported != imported || m.context.as_deref().is_some_and(|c| c != context)
    })
}

/// Vectors of items deleted outside recall (a host without sqlite-vec cannot reach the
/// table): removed, so that none takes a place among the nearest.
pub(super) fn remove_orphans(conn: &rusqlite::Connection) -> Result<usize> {
    let doing = "removing the vectors of deleted items";
    if store::contexts_exist(conn).context(doing)? {
        conn.execute(
            &format!(
                "delete from {} where id not in (select id from items)",
                store::CONTEXTS
            ),
            [],
        )
        .context(doing)?;
    }
    conn.execute(
        &format!("delete from {TABLE} where rowid not in (select id from items)"),
        [],
    )
    .context(doing)
}

/// How many items have no vector as new as their text and context (the progress bar's
/// total).
pub(super) fn pending(conn: &rusqlite::Connection, current: &HashMap<i64, Made>) -> Result<i64> {
    let doing = "counting the items to embed";
    let mut stmt = conn
        .prepare("select id, imported_at, context from items")
        .context(doing)?;
    let mut rows = stmt.query([]).context(doing)?;
    let mut pending = 0;
    while let Some(row) = rows.next().context(doing)? {
        let id: i64 = row.get(0).context(doing)?;
        let imported: Option<String> = row.get(1).context(doing)?;
        let context: Option<String> = row.get(2).context(doing)?;
        if stale(
            current.get(&id),
            imported.as_deref().unwrap_or_default(),
            context.as_deref().unwrap_or_default(),
        ) {
            pending += 1;
        }
    }
    Ok(pending)
}

/// Each item with a vector: the item's imported_at when the vector was made, and the
/// context it was made with when that is recorded.
pub(super) fn vectors_made(conn: &rusqlite::Connection) -> Result<HashMap<i64, Made>> {
    let doing = "reading which items have vectors";
    let contexts = if store::contexts_exist(conn).context(doing)? {
        format!(
            "(select c.context from {} as c where c.id = v.rowid)",
            store::CONTEXTS
        )
    } else {
        "null".to_string()
    };
    let mut stmt = conn
        .prepare(&format!(
            "select v.rowid, v.item_imported_at, {contexts} from {TABLE} as v"
        ))
        .context(doing)?;
    let made = stmt
        .query_map([], |r| {
            Ok((
                r.get(0)?,
                Made {
                    imported: r.get::<_, Option<String>>(1)?.unwrap_or_default(),
                    context: r.get(2)?,
                },
            ))
        })
        .and_then(|rows| rows.collect::<rusqlite::Result<HashMap<i64, Made>>>())
        .context(doing)?;
    Ok(made)
}
