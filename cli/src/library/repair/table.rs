//! A table whose definition differs from the migrations' rebuilt as they define it,
//! keeping its rows and the ids it has given.
use rusqlite::{Connection, OptionalExtension};

use super::{definition, quoted};
use crate::error::{err, Context, Result};
use crate::library::schema::Reference;

/// Rebuilds a table whose definition differs from the migrations': a new table as they
/// define it, the rows copied by column name, the old table dropped. A column the
/// migrations do not define is dropped only when it holds nothing.
pub(super) fn rebuild_table(conn: &Connection, reference: &Reference, name: &str) -> Result<()> {
    let want = definition(reference, name)?;
    let temp = format!("recall_repair_{name}");
    let lower = want.sql.to_ascii_lowercase();
    let create = lower
        .find("table")
        .map(|t| t + "table".len())
        .and_then(|start| {
            lower[start..]
                .find(&name.to_ascii_lowercase())
                .map(|i| start + i)
        })
        .map(|at| format!("{}{temp}{}", &want.sql[..at], &want.sql[at + name.len()..]))
        .ok_or_else(|| err!("cannot read the definition of table {name}"))?;
    let doing = format!("rebuilding table {name}");
    conn.execute_batch(&format!("drop table if exists {temp}; {create}"))
        .context(&doing)?;
    let columns = |table: &str| -> rusqlite::Result<Vec<String>> {
        conn.prepare(&format!(
            "select name from pragma_table_info({})",
            sql_text(table)
        ))?
        .query_map([], |r| r.get(0))?
        .collect()
    };
    let have = columns(name).context(&doing)?;
    let want_columns = columns(&temp).context(&doing)?;
    for extra in have.iter().filter(|c| !want_columns.contains(c)) {
        let used: Option<i64> = conn
            .query_row(
                &format!(
                    "select 1 from {} where {} is not null limit 1",
                    quoted(name),
                    quoted(extra)
                ),
                [],
                |r| r.get(0),
            )
            .optional()
            .context(&doing)?;
        if used.is_some() {
            return Err(err!(
                "table {name} has a column {extra} that the migrations do not define, and it holds data: keep that data elsewhere and drop the column (alter table {name} drop column {extra}), then run `recall repair` again; nothing was changed"
            ));
        }
    }
    let common: Vec<String> = want_columns
        .iter()
        .filter(|c| have.contains(c))
        .map(|c| quoted(c))
        .collect();
    let list = common.join(", ");
    // Dropping an AUTOINCREMENT table drops its sequence, which the copy would start again
    // from the highest id left: ids given to forgotten items above it would come back.
    let sequence = used_sequence(conn, name).context(&doing)?;
    // OR REPLACE gives a NULL in a NOT NULL column its default, where it has one.
    let copied = conn.execute_batch(&format!(
        "insert or replace into {temp} ({list}) select {list} from {0}; drop table {0};",
        quoted(name)
    ));
    if let Err(e) = copied {
        let why = null_without_default(conn, name, &temp)
            .unwrap_or_else(|| crate::error::describe_sqlite("copying its rows", &e));
        return Err(err!(
            "cannot rebuild table {name} as the migrations define it: {why}, then run `recall repair` again; nothing was changed"
        ));
    }
    // The legacy rename touches only this table: other objects may still be damaged.
    conn.execute_batch(&format!(
        "pragma legacy_alter_table = on; alter table {temp} rename to {}; pragma legacy_alter_table = off;",
        quoted(name)
    ))
    .context(&doing)?;
    if let Some(seq) = sequence {
        conn.execute(
            "update sqlite_sequence set seq = max(seq, ?2) where name = ?1",
            rusqlite::params![name, seq],
        )
        .context(&doing)?;
        conn.execute(
            "insert into sqlite_sequence (name, seq) select ?1, ?2
             where not exists (select 1 from sqlite_sequence where name = ?1)",
            rusqlite::params![name, seq],
        )
        .context(&doing)?;
    }
    Ok(())
}

/// The highest id an AUTOINCREMENT table has ever given, if it records one.
fn used_sequence(conn: &Connection, table: &str) -> rusqlite::Result<Option<i64>> {
    let has_sequences: bool = conn.query_row(
        "select exists (select 1 from sqlite_master where name = 'sqlite_sequence')",
        [],
        |r| r.get(0),
    )?;
    if !has_sequences {
        return Ok(None);
    }
    conn.query_row(
        "select seq from sqlite_sequence where name = ?1",
        [table],
        |r| r.get(0),
    )
    .optional()
}

/// The first row whose NULL the rebuilt table refuses (a NOT NULL column without a
/// default, so OR REPLACE has nothing to put there), and what to do about it.
fn null_without_default(conn: &Connection, old: &str, new: &str) -> Option<String> {
    let strict: Vec<String> = conn
        .prepare(&format!(
            "select name from pragma_table_info({}) where \"notnull\" and dflt_value is null and not pk",
            sql_text(new)
        ))
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .ok()?;
    strict.iter().find_map(|column| {
        let rowid: i64 = conn
            .query_row(
                &format!(
                    "select rowid from {} where {} is null limit 1",
                    quoted(old),
                    quoted(column)
                ),
                [],
                |r| r.get(0),
            )
            .ok()?;
        Some(if old == "items" {
            format!("item {rowid} has no {column} (NULL): give it one, or delete the item (delete from items where id = {rowid})")
        } else {
            format!("row {rowid} of {old} has no {column} (NULL): give it one, or delete the row")
        })
    })
}

fn sql_text(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}
