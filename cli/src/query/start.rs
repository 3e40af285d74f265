//! What the session start asks of the items it may list (`sql/start_items.sql`).
use rusqlite::types::Value;

use crate::error::Result;
use crate::library::sql_file::{self, queries};
use crate::library::Library;

/// Of `ids`, those captured from a sub-agent's transcript, which stand for no session of
/// the person's.
pub fn sub_agent_items(lib: &Library, ids: &[i64]) -> Result<Vec<i64>> {
    let json = serde_json::to_string(ids).unwrap_or_else(|_| "[]".to_string());
    let params = vec![(":ids", Value::Text(json))];
    let rows = sql_file::read(&lib.conn, queries::START_ITEMS, &params, |c| c.int("id"))?;
    Ok(rows.into_iter().flatten().collect())
}
