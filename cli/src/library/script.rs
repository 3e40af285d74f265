//! A script of the user's own SQL (`recall sql`) run against an open library: every
//! statement in turn, with its named parameters, under the guard of what `recall sql`
//! refuses (`sql_guard`); with `write`, in one transaction, so that a failing script
//! changes nothing. The rows of its last statement that returned rows are the answer.
use fallible_iterator::FallibleIterator;
use rusqlite::types::Value;
use rusqlite::{Batch, Connection};

use super::Library;
use crate::error::{err, Error, Result};
use crate::sql_guard::{Guard, WRITE_ADVICE};

/// The columns and rows of the last statement that returned rows.
pub type Table = (Vec<String>, Vec<Vec<Value>>);

/// Runs `sql` with `params` (each bound where a statement names it; every one must be
/// named by some statement); None when no statement returned rows.
pub fn run(
    lib: &mut Library,
    sql: &str,
    params: &[(String, Value)],
    write: bool,
) -> Result<Option<Table>> {
    let guard = Guard::install(&mut lib.conn, write)?;
    if write {
        let tx = super::turn::immediate(&lib.conn)
            .map_err(|e| Error::sqlite("starting the transaction", &e))?;
        let table = guard.script(|| execute(&tx, sql, params, &guard))?;
        tx.commit().map_err(|e| Error::sqlite("committing", &e))?;
        Ok(table)
    } else {
        guard.script(|| execute(&lib.conn, sql, params, &guard))
    }
}

fn execute(
    conn: &Connection,
    sql: &str,
    params: &[(String, Value)],
    guard: &Guard,
) -> Result<Option<Table>> {
    let fail = |e: &rusqlite::Error| {
        if let Some(reason) = guard.take_refusal() {
            err!("sql: {reason}")
        } else if e.sqlite_error_code() == Some(rusqlite::ErrorCode::ReadOnly) {
            err!("sql: the statement writes to the library: {WRITE_ADVICE}")
        } else {
            Error::sqlite("sql", e)
        }
    };
    let mut used = vec![false; params.len()];
    let mut last = None;
    let mut batch = Batch::new(conn, sql);
    loop {
        guard.running(false);
        let Some(mut stmt) = batch.next().map_err(|e| fail(&e))? else {
            break;
        };
        guard.running(true);
        for index in 1..=stmt.parameter_count() {
            let Some(name) = stmt.parameter_name(index) else {
                return Err(err!(
                    "sql: parameter {index} has no name: write :name and pass -p name=VALUE"
                ));
            };
            let bare = name.trim_start_matches([':', '@', '$']);
            // Unset parameters stay NULL, as in the shell: the query files read NULL as
            // their default.
            if let Some(i) = params.iter().position(|(n, _)| n == bare) {
                stmt.raw_bind_parameter(index, &params[i].1)
                    .map_err(|e| fail(&e))?;
                used[i] = true;
            }
        }
        let columns: Vec<String> = stmt.column_names().map(str::to_string).collect();
        let mut rows = Vec::new();
        let mut cursor = stmt.raw_query();
        while let Some(row) = cursor.next().map_err(|e| fail(&e))? {
            let mut values = Vec::with_capacity(columns.len());
            for i in 0..columns.len() {
                values.push(row.get::<_, Value>(i).map_err(|e| fail(&e))?);
            }
            rows.push(values);
        }
        if !columns.is_empty() {
            last = Some((columns, rows));
        }
    }
    if let Some(i) = used.iter().position(|u| !u) {
        return Err(err!(
            "-p {}: no statement has the parameter :{}",
            params[i].0,
            params[i].0
        ));
    }
    Ok(last)
}
