//! SQLite's own check of the file, table by table, to tell damage that `repair` mends
//! (the index, derived from the items) from damage it cannot (the items themselves).
use rusqlite::Connection;

use super::{read, Report};
use crate::error::Result;

/// What mends the index, whatever its damage, while the items are sound.
pub(super) const MEND: &str = "run `recall repair`";
/// What is left when the items themselves are damaged.
pub(super) const RESTORE: &str = "the items themselves are damaged: restore the library from a backup (without one, `sqlite3 LIBRARY .recover | sqlite3 NEW.db` salvages the rows SQLite can still read)";

/// `quick_check`, which since SQLite 3.44 also runs FTS5's own check of the index's
/// structure (not of its agreement with the items: `index integrity` does that).
fn quick_check(conn: &Connection, table: Option<&str>) -> rusqlite::Result<Vec<String>> {
    let sql = match table {
        Some(t) => format!("pragma quick_check(\"{}\")", t.replace('"', "\"\"")),
        None => "pragma quick_check(5)".to_string(),
    };
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    rows.map(|r| r.map(|s| s.replace('\n', " "))).collect()
}

/// `quick_check`, and when it finds anything, the same table by table, to tell damage
/// to the index (which `repair` builds again from the items) from damage to anything
/// else. Pages no table uses are the index's too: what `repair` leaves when cut off
/// between unlinking a damaged index and rewriting the file. Returns whether anything
/// outside the index is damaged.
pub(super) fn database(
    r: &mut Report,
    path: &std::path::Path,
    conn: &Connection,
    is_index: &dyn Fn(&str) -> bool,
) -> Result<bool> {
    let whole = match read(path, quick_check(conn, None))? {
        Ok(rows) if rows.len() == 1 && rows[0] == "ok" => {
            r.add("database", true, "quick_check ok");
            return Ok(false);
        }
        Ok(rows) => rows,
        Err(e) => vec![e.to_string()],
    };
    let tables: Vec<String> = read(
        path,
        conn.prepare(
            "select name from sqlite_master where type = 'table' and sql not like 'create virtual%'",
        )
        .and_then(|mut s| s.query_map([], |row| row.get(0))?.collect()),
    )?
    .unwrap_or_default();
    let mut damaged = Vec::new();
    for t in &tables {
        let found = match read(path, quick_check(conn, Some(t)))? {
            Ok(rows) => rows.into_iter().filter(|x| x != "ok").collect(),
            Err(e) => vec![e.to_string()],
        };
        if !found.is_empty() {
            damaged.push((t.clone(), found));
        }
    }
    let outside: Vec<&(String, Vec<String>)> =
        damaged.iter().filter(|(t, _)| !is_index(t)).collect();
    let detail = if damaged.is_empty() {
        whole.join("; ")
    } else {
        damaged
            .iter()
            .map(|(t, found)| format!("{t}: {}", found.join("; ")))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let fix = if outside.is_empty() { MEND } else { RESTORE };
    r.add("database", false, format!("quick_check: {detail}: {fix}"));
    Ok(!outside.is_empty())
}
