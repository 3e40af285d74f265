//! `recall sql`: any SQL against a library, in the bundled SQLite with every `recall_*`
//! function registered, so that the queries of `sql/` run by hand where the system's
//! shell is too old for the library's tokenizer or cannot load extensions. Printed as a
//! table, as JSON (`--json`: an array of objects) or as CSV (`--csv`), like
//! `sqlite-utils query`. Read-only unless `--write`; with it, every statement runs in
//! one transaction, so a failing script changes nothing (`library::script`).
use rusqlite::types::{Value, ValueRef};
use serde_json::{Map, Value as Json};

use super::Globals;
use crate::args::SqlArgs;
use crate::error::{err, Result};
use crate::library::{self, script, Mode};
use crate::output;
use crate::text::field;

pub fn run(g: &Globals, a: &SqlArgs) -> Result<i32> {
    if a.csv && g.json {
        return Err(err!("--csv and --json: choose one output"));
    }
    let sql = match (&a.sql, &a.file) {
        (Some(sql), None) => sql.clone(),
        (None, Some(path)) => {
            let what = path.display().to_string();
            let fix = "split the script, or `recall import` the data it holds";
            let bytes =
                crate::input::read_file_limited(path, crate::input::SQL_SCRIPT, &what, fix)?;
            crate::input::text(bytes, &what)?
        }
        (Some(_), Some(_)) => return Err(err!("give the SQL or --file, not both")),
        (None, None) => {
            return Err(err!(
                "no SQL given: `recall sql \"select …\"` or `recall sql --file sql/search.sql`"
            ))
        }
    };
    let mut params = a
        .params
        .iter()
        .map(|p| parse_param(p))
        .collect::<Result<Vec<_>>>()?;
    let mode = if a.write { Mode::Write } else { Mode::Read };
    let mut lib = library::open(g.db()?, mode, g.tokenizer.as_deref())?;
    // The queries of sql/ take the library's tokenizer as :tokenizer: given unless set.
    let tokenizer = (!params.iter().any(|(n, _)| n == "tokenizer") && sql.contains(":tokenizer"))
        .then(|| ("tokenizer".to_string(), Value::Text(lib.tokenizer.clone())));
    params.extend(tokenizer);
    let (columns, rows) = script::run(&mut lib, &sql, &params, a.write)?.unwrap_or_default();
    if g.json {
        output::json(&json_rows(&columns, &rows));
    } else if a.csv {
        print_csv(&columns, &rows)?;
    } else {
        print_table(&columns, &rows);
    }
    Ok(0)
}

/// `NAME=VALUE` (the name with or without its `:`): a value that reads as a number binds
/// as one, as the shell's `.parameter set` does. `NAME:text=VALUE` binds the text as
/// written (`007`, `1e3`), `NAME:int=` and `NAME:real=` a number or an error.
fn parse_param(p: &str) -> Result<(String, Value)> {
    let (name, value) = p
        .split_once('=')
        .ok_or_else(|| err!("-p {p:?}: write NAME=VALUE, like -p query='deploy failed'"))?;
    let name = name.trim_start_matches([':', '@', '$']);
    let (name, kind) = match name.split_once(':') {
        Some((name, kind)) => (name, Some(kind)),
        None => (name, None),
    };
    if name.is_empty() {
        return Err(err!("-p {p:?}: the parameter has no name"));
    }
    let integer = value.parse::<i64>().ok().map(Value::Integer);
    let real = value
        .parse::<f64>()
        .ok()
        .filter(|r| r.is_finite())
        .map(Value::Real);
    let value = match kind {
        None => integer.or(real).unwrap_or_else(|| Value::Text(value.to_string())),
        Some("text") => Value::Text(value.to_string()),
        Some("int") => integer.ok_or_else(|| err!("-p {p:?}: {value:?} is not a whole number"))?,
        Some("real") => match (integer, real) {
            (Some(Value::Integer(i)), _) => Value::Real(i as f64),
            (_, Some(r)) => r,
            _ => return Err(err!("-p {p:?}: {value:?} is not a number")),
        },
        Some(other) => {
            return Err(err!(
                "-p {p:?}: unknown type {other:?}: write NAME:text=VALUE, NAME:int=VALUE or NAME:real=VALUE"
            ))
        }
    };
    Ok((name.to_string(), value))
}

fn json_rows(columns: &[String], rows: &[Vec<Value>]) -> Json {
    Json::Array(
        rows.iter()
            .map(|row| {
                let mut obj = Map::new();
                for (c, v) in columns.iter().zip(row) {
                    obj.insert(c.clone(), crate::library::sql_file::json(ValueRef::from(v)));
                }
                Json::Object(obj)
            })
            .collect(),
    )
}

/// A value as text: NULL is empty, as in the sqlite3 shell and CSV.
fn text_value(v: &Value) -> String {
    match ValueRef::from(v) {
        ValueRef::Null => String::new(),
        ValueRef::Integer(i) => i.to_string(),
        ValueRef::Real(r) => r.to_string(),
        ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
        ValueRef::Blob(b) => format!("<{} bytes>", b.len()),
    }
}

fn print_csv(columns: &[String], rows: &[Vec<Value>]) -> Result<()> {
    let mut out = csv::Writer::from_writer(std::io::stdout().lock());
    let write = |e: csv::Error| err!("cannot write the output: {e}");
    out.write_record(columns).map_err(write)?;
    for row in rows {
        out.write_record(row.iter().map(text_value))
            .map_err(write)?;
    }
    out.flush()
        .map_err(|e| err!("cannot write the output: {e}"))
}

/// Columns padded to their widest cell; every cell escaped for the terminal.
fn print_table(columns: &[String], rows: &[Vec<Value>]) {
    if columns.is_empty() {
        return;
    }
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|v| field(&text_value(v)).into_owned())
                .collect()
        })
        .collect();
    let header: Vec<String> = columns.iter().map(|c| field(c).into_owned()).collect();
    let widths: Vec<usize> = (0..columns.len())
        .map(|i| {
            cells
                .iter()
                .map(|r| r[i].chars().count())
                .chain([header[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| {
        cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    output::line(&line(&header));
    output::line(&line(
        &widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>(),
    ));
    for row in &cells {
        output::line(&line(row));
    }
}
