//! Runs a query file of `sql/` verbatim: binds the named parameters it uses (unset ones
//! stay NULL, as in the shell) and returns its rows as JSON objects by column name.
use rusqlite::types::{Value, ValueRef};
use rusqlite::Connection;
use serde_json::{Map, Value as Json};

use crate::err;
use crate::error::{describe_sqlite, Result};

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

/// Runs a query file. Text that is not valid UTF-8 is shown with U+FFFD in
/// place of the bad bytes, as `get` shows it: a damaged item stays readable, and
/// `recall check` names it.
pub fn run(conn: &Connection, query: Query, params: &Params) -> Result<Vec<Map<String, Json>>> {
    run_sql(conn, query, params).map_err(|e| {
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
    use rusqlite::ErrorCode::*;
    if let Some(
        DatabaseBusy | DatabaseLocked | ReadOnly | CannotOpen | PermissionDenied | DatabaseCorrupt
        | NotADatabase | OperationInterrupted | OutOfMemory | DiskFull,
    ) = e.sqlite_error_code()
    {
        return None;
    }
    crate::schema::diagnose(conn, &e.to_string())
}

fn run_sql(
    conn: &Connection,
    query: Query,
    params: &Params,
) -> rusqlite::Result<Vec<Map<String, Json>>> {
    let mut stmt = conn.prepare_cached(query.sql)?;
    for index in 1..=stmt.parameter_count() {
        let Some(param) = stmt.parameter_name(index) else {
            continue;
        };
        if let Some((_, value)) = params.iter().find(|(n, _)| *n == param) {
            stmt.raw_bind_parameter(index, value)?;
        }
    }
    let names: Vec<String> = stmt.column_names().map(|s| s.to_string()).collect();
    let mut rows = stmt.raw_query();
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        let mut obj = Map::new();
        for (i, name) in names.iter().enumerate() {
            obj.insert(name.clone(), json(row.get_ref(i)?));
        }
        out.push(obj);
    }
    Ok(out)
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
