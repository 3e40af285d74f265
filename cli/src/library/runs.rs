//! The runs of the items' own text (migration 0009): by them the first prompt lists the
//! items holding a word from an index of the runs alone, not from the positions of its
//! trigrams in the whole index (docs/queries.md#related). The schema's triggers keep the
//! tables from saying anything untrue (a write to an item's own text removes its runs and
//! makes it pending; a run no item holds goes); this module makes the runs of the pending
//! items, which needs `recall_core::runs`, in Rust.
use std::collections::BTreeSet;

use rusqlite::types::ValueRef;
use rusqlite::{named_params, Connection, OptionalExtension};

use super::migrations;
use super::sql_file::{self, queries};
use crate::error::{Context, Result};

/// The tables of the runs, derived from the items as the full-text index is: `check`
/// counts damage to their pages as `recall repair`'s to mend, and repair makes them again.
/// The runs' index and its shadow tables are in `FTS`.
pub const TABLES: &[&str] = &["items_runs", "items_run_items", "items_runs_pending"];
/// The index of the runs alone.
pub const FTS: &str = super::schema::RUNS_INDEX;
/// The runs' own index (the tables' keys aside).
pub const INDEXES: &[&str] = &["items_run_items_by_item"];

/// The pending items read at a time.
const BATCH: i64 = 500;

/// The own columns of an item, as `runs_pending.sql` reads them after its id: those the
/// first prompt looks for a word in (title, summary, questions, atoms, project; not the
/// neighbours' titles).
const OWN: usize = 5;

/// Whether `name` is one of the runs' tables, their index, or the runs' FTS5 index or one
/// of its shadow tables.
pub fn is_part(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    TABLES.contains(&name.as_str())
        || INDEXES.contains(&name.as_str())
        || name == FTS
        || name
            .strip_prefix(FTS)
            .is_some_and(|rest| rest.starts_with('_'))
}

/// The distinct runs of an item's own columns.
pub fn runs_of<'t>(columns: impl IntoIterator<Item = &'t str>) -> BTreeSet<&'t str> {
    columns
        .into_iter()
        .flat_map(recall_core::runs::runs)
        .collect()
}

/// Makes the runs of every pending item, in the caller's transaction (every write of
/// recall's commits through it: `turn::WriteTx::commit`); the number of items done. A
/// library from before migration 0009 has nothing to do.
pub fn fill(conn: &Connection) -> rusqlite::Result<usize> {
    if !has_runs(conn)? {
        return Ok(0);
    }
    let mut done = 0;
    loop {
        type Pending = (i64, Option<[Option<String>; OWN]>);
        let pending: Vec<Pending> = conn
            .prepare_cached(queries::RUNS_PENDING.sql)?
            .query_map(named_params! {":batch": BATCH}, |r| {
                let id = r.get(0)?;
                // A deleted item (no row) has no runs to make.
                if matches!(r.get_ref(1)?, ValueRef::Null) {
                    return Ok((id, None));
                }
                let mut own: [Option<String>; OWN] = Default::default();
                for (i, column) in own.iter_mut().enumerate() {
                    *column = sql_file::lossy(r.get_ref(i + 1)?);
                }
                Ok((id, Some(own)))
            })?
            .collect::<rusqlite::Result<_>>()?;
        if pending.is_empty() {
            return Ok(done);
        }
        let mut find = conn.prepare_cached(queries::RUN_ID.sql)?;
        let mut insert = conn.prepare_cached(queries::RUN_INSERT.sql)?;
        let mut hold = conn.prepare_cached(queries::RUN_ITEM_INSERT.sql)?;
        let mut finish = conn.prepare_cached(queries::RUNS_DONE.sql)?;
        for (id, own) in &pending {
            if let Some(own) = own {
                for run in runs_of(own.iter().flatten().map(String::as_str)) {
                    let at = named_params! {":run": run};
                    let run_id = match find.query_row(at, |r| r.get::<_, i64>(0)).optional()? {
                        Some(run_id) => run_id,
                        None => {
                            insert.execute(at)?;
                            conn.last_insert_rowid()
                        }
                    };
                    hold.execute(named_params! {":run": run_id, ":item_id": id})?;
                }
            }
            finish.execute(named_params! {":item_id": id})?;
        }
        done += pending.len();
    }
}

/// Merges the runs' index into one segment, which drops the entries of runs deleted
/// since for good (`forget`, `optimize`); nothing on a library before migration 0009.
pub fn merge(conn: &Connection) -> rusqlite::Result<()> {
    if !has_runs(conn)? {
        return Ok(());
    }
    conn.execute_batch(&format!("insert into {FTS}({FTS}) values ('optimize')"))
}

/// Whether the library has the runs' tables (a library before migration 0009 has not).
fn has_runs(conn: &Connection) -> rusqlite::Result<bool> {
    // Compiled once a connection: every commit of recall's writes asks.
    conn.prepare_cached(
        "select 1 from sqlite_master where type = 'table' and name = 'items_runs_pending'",
    )?
    .exists([])
}

/// The items whose stored runs are not those of their own text (a write that ran without
/// the triggers, runs removed by hand), and the ids of items no longer there that still
/// hold runs; the pending items aside, whose runs are not made yet. Empty on a library
/// from before migration 0009.
pub fn stale(conn: &Connection) -> rusqlite::Result<Vec<i64>> {
    if !has_runs(conn)? {
        return Ok(Vec::new());
    }
    let mut stored = conn.prepare(
        "select r.run from items_run_items as x join items_runs as r on r.id = x.run
         where x.item_id = ?1",
    )?;
    let mut items = conn.prepare(
        "select id, title, summary, questions, atoms, project from items
         where id not in (select item_id from items_runs_pending) order by id",
    )?;
    let mut rows = items.query([])?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        let id: i64 = row.get(0)?;
        let mut own = Vec::with_capacity(OWN);
        for i in 1..=OWN {
            own.push(sql_file::lossy(row.get_ref(i)?).unwrap_or_default());
        }
        let want = runs_of(own.iter().map(String::as_str));
        let have: BTreeSet<String> = stored
            .query_map([id], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        if !want.iter().copied().eq(have.iter().map(String::as_str)) {
            out.push(id);
        }
    }
    let mut gone = conn.prepare(
        "select distinct item_id from items_run_items
         where item_id not in (select id from items) order by item_id",
    )?;
    let gone: Vec<i64> = gone
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    out.extend(gone);
    Ok(out)
}

/// The runs no item holds (left by a write that ran without the triggers): their text
/// stays in the library until `recall repair` removes them.
pub fn loose(conn: &Connection) -> rusqlite::Result<i64> {
    if !has_runs(conn)? {
        return Ok(0);
    }
    conn.query_row(
        "select count(*) from items_runs where id not in (select run from items_run_items)",
        [],
        |r| r.get(0),
    )
}

/// The tokenizer the runs' index is built with (None: no index).
pub fn declared(conn: &Connection) -> Result<Option<String>> {
    let sql = super::schema::table_sql(conn, FTS, "reading the runs' index")?;
    Ok(sql.as_deref().and_then(crate::tokenizer::declared))
}

/// Whether the index of the runs holds one row for each run (a write to `items_runs`
/// without its triggers leaves it out of step; `recall repair` makes it again).
pub fn indexed_as_stored(conn: &Connection) -> rusqlite::Result<bool> {
    if !has_runs(conn)? {
        return Ok(true);
    }
    conn.query_row(
        &format!("select (select count(*) from items_runs) = (select count(*) from {FTS}_docsize)"),
        [],
        |r| r.get(0),
    )
}

/// Makes the runs of `ids` again: their runs go and they are pending, for the commit's
/// `fill` (`recall repair`); runs of no item go too.
pub fn remake(conn: &Connection, ids: &[i64]) -> rusqlite::Result<()> {
    let mut forget = conn.prepare("delete from items_run_items where item_id = ?1")?;
    let mut wait = conn.prepare(
        "insert or ignore into items_runs_pending (item_id) select id from items where id = ?1",
    )?;
    for id in ids {
        forget.execute([id])?;
        wait.execute([id])?;
    }
    conn.execute_batch("delete from items_runs where id not in (select run from items_run_items);")
}

/// The runs' tables and their index created again, empty, with `tokenizer` (the
/// library's, or the one a rebuild switches to), every item pending for the commit's
/// `fill`: as migration 0009 creates them. What is there is dropped first (a repair
/// removes tables whose pages are damaged from the schema before).
pub fn recreate(conn: &Connection, tokenizer: &str) -> Result<()> {
    let doing = "creating the runs of the items' text again";
    let sql = migrations::sql_of(migrations::RUNS)
        .ok_or_else(|| crate::error::err!("{doing}: the migrations hold no 0009"))?;
    let mut tables = tables_present(conn).context(doing)?;
    // The index first: FTS5 drops its own shadow tables.
    tables.sort_by_key(|t| !t.eq_ignore_ascii_case(FTS));
    for t in &tables {
        conn.execute_batch(&format!("drop table if exists \"{t}\""))
            .context(doing)?;
    }
    // The triggers on the items (those on the runs' tables went with them).
    for t in ITEM_TRIGGERS {
        conn.execute_batch(&format!("drop trigger if exists {t}"))
            .context(doing)?;
    }
    conn.execute_batch(&migrations::migration_sql(sql, tokenizer))
        .context(doing)
}

/// The runs' tables the library has, their index and its shadow tables among them.
pub fn tables_present(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut tables: Vec<String> = conn
        .prepare("select name from sqlite_master where type = 'table'")?
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<_>>()?;
    tables.retain(|t| is_part(t));
    Ok(tables)
}

/// The triggers migration 0009 puts on `items`.
const ITEM_TRIGGERS: &[&str] = &[
    "items_runs_after_insert_item",
    "items_runs_after_update_item",
    "items_runs_after_delete_item",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_items_runs_are_its_columns_runs_once_each() {
        let runs = runs_of(["Deploy failed", "deploy again", "user_id=42", "", "Deploy"]);
        let runs: Vec<&str> = runs.into_iter().collect();
        assert_eq!(
            runs,
            ["42", "Deploy", "again", "deploy", "failed", "id", "user"]
        );
    }

    #[test]
    fn the_parts_are_the_runs_tables_and_the_index_of_them() {
        for name in [
            "items_runs",
            "ITEMS_RUN_ITEMS",
            "items_runs_fts",
            "items_runs_fts_data",
        ] {
            assert!(is_part(name), "{name}");
        }
        for name in ["items", "items_fts", "items_fts_data", "items_runs_ftsx"] {
            assert!(!is_part(name), "{name}");
        }
    }
}
