//! Runs a query file of `sql/` verbatim: binds the named parameters it uses (unset ones
//! stay NULL, as in the shell) and reads its rows by column name.
use rusqlite::types::{Value, ValueRef};
use rusqlite::Connection;
use serde_json::Value as Json;

use crate::error::{describe_sqlite, err, Result};

pub type Params = Vec<(&'static str, Value)>;

/// A query file of `sql/`, embedded in the binary by `build.rs` so that the SQL a DBA
/// reads is exactly the SQL the CLI runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Query {
    pub name: &'static str,
    pub sql: &'static str,
}

/// One constant per file of `sql/` (`queries::SEARCH` is `sql/search.sql`), and `ALL`.
pub mod queries {
    use super::Query;
    include!(concat!(env!("OUT_DIR"), "/queries.rs"));
}

/// Runs a query file and reads each row with `each`. Text that is not valid UTF-8 is
/// read with U+FFFD in place of the bad bytes, as `get` shows it: a damaged item stays
/// readable, and `recall check` names it.
pub fn read<T>(
    conn: &Connection,
    query: Query,
    params: &Params,
    each: impl FnMut(&Cells) -> rusqlite::Result<T>,
) -> Result<Vec<T>> {
    read_rows(conn, query, params, each).map_err(|e| {
        let doing = format!("running sql/{}.sql", query.name);
        match diagnosis(conn, &e) {
            Some(why) => err!("{doing} failed: {why}"),
            None => err!("{}", describe_sqlite(&doing, &e)),
        }
    })
}

/// Why a query failed, when the library's schema or an item is to blame. Locks,
/// permissions and a corrupt file have their own advice; the search costs a scan of
/// the library, paid only when a query has failed.
fn diagnosis(conn: &Connection, e: &rusqlite::Error) -> Option<String> {
    crate::library::unreadable::diagnose(conn, e)
}

fn read_rows<T>(
    conn: &Connection,
    query: Query,
    params: &Params,
    mut each: impl FnMut(&Cells) -> rusqlite::Result<T>,
) -> rusqlite::Result<Vec<T>> {
    let mut stmt = conn.prepare_cached(query.sql)?;
    for index in 1..=stmt.parameter_count() {
        let Some(param) = stmt.parameter_name(index) else {
            continue;
        };
        if let Some((_, value)) = params.iter().find(|(n, _)| *n == param) {
            stmt.raw_bind_parameter(index, value)?;
        }
    }
    let mut rows = stmt.raw_query();
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(each(&Cells { row })?);
    }
    Ok(out)
}

/// One row of a query file's answer, its columns read by name.
pub struct Cells<'a, 'stmt> {
    row: &'a rusqlite::Row<'stmt>,
}

impl Cells<'_, '_> {
    pub fn int(&self, column: &str) -> rusqlite::Result<Option<i64>> {
        self.row.get(column)
    }

    pub fn real(&self, column: &str) -> rusqlite::Result<Option<f64>> {
        self.row.get(column)
    }

    /// Text as `json` shows it: a BLOB as its size, invalid UTF-8 mended.
    pub fn text(&self, column: &str) -> rusqlite::Result<Option<String>> {
        Ok(match json(self.row.get_ref(column)?) {
            Json::Null => None,
            Json::String(s) => Some(s),
            other => Some(other.to_string()),
        })
    }
}

/// A column's text, whatever a program other than recall stored (a damaged item's bytes
/// are read as `get` shows them: recall's writes go on, `recall check` names the item).
pub fn lossy(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Null => None,
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(r) => Some(r.to_string()),
        ValueRef::Text(b) | ValueRef::Blob(b) => Some(String::from_utf8_lossy(b).into_owned()),
    }
}

/// A value as the queries and `get` print it.
pub fn json(v: ValueRef<'_>) -> Json {
    match v {
        ValueRef::Null => Json::Null,
        ValueRef::Integer(n) => Json::from(n),
        ValueRef::Real(r) => Json::from(r),
        ValueRef::Text(t) => Json::from(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Json::from(format!("<{} bytes>", b.len())),
    }
}

pub fn text(v: Option<&str>) -> Value {
    v.map(|s| Value::Text(s.to_string())).unwrap_or(Value::Null)
}

pub fn int(v: Option<i64>) -> Value {
    v.map(Value::Integer).unwrap_or(Value::Null)
}

pub fn real(v: Option<f64>) -> Value {
    v.map(Value::Real).unwrap_or(Value::Null)
}
