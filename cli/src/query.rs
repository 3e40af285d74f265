//! Runs a query file of `sql/` verbatim: binds the named parameters it uses (unset ones
//! stay NULL, as in the shell) and returns its rows as JSON objects by column name.
use rusqlite::types::{Value, ValueRef};
use rusqlite::Connection;
use serde_json::{Map, Value as Json};

use crate::error::{Context, Result};
use crate::library;

pub type Params = Vec<(&'static str, Value)>;

pub fn run(conn: &Connection, name: &str, params: &Params) -> Result<Vec<Map<String, Json>>> {
    let doing = format!("running sql/{name}.sql");
    let mut stmt = conn
        .prepare_cached(library::query_sql(name))
        .context(&doing)?;
    for index in 1..=stmt.parameter_count() {
        let Some(param) = stmt.parameter_name(index) else {
            continue;
        };
        if let Some((_, value)) = params.iter().find(|(n, _)| *n == param) {
            stmt.raw_bind_parameter(index, value).context(&doing)?;
        }
    }
    let names: Vec<String> = stmt.column_names().map(|s| s.to_string()).collect();
    let mut rows = stmt.raw_query();
    let mut out = Vec::new();
    while let Some(row) = rows.next().context(&doing)? {
        let mut obj = Map::new();
        for (i, name) in names.iter().enumerate() {
            let value = match row.get_ref(i).context(&doing)? {
                ValueRef::Null => Json::Null,
                ValueRef::Integer(n) => Json::from(n),
                ValueRef::Real(r) => Json::from(r),
                ValueRef::Text(t) => Json::from(String::from_utf8_lossy(t).into_owned()),
                ValueRef::Blob(b) => Json::from(format!("<{} bytes>", b.len())),
            };
            obj.insert(name.clone(), value);
        }
        out.push(obj);
    }
    Ok(out)
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
