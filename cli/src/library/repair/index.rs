//! The FTS5 index created again, whatever state it and its shadow tables are in, and
//! the pages a damaged index leaves in the file reclaimed after the commit.
use rusqlite::Connection;

use super::{definition, quoted};
use crate::error::{err, Context, Result};
use crate::library::schema::{self, Damage, Survey};

/// Creates the FTS5 index again with the library's tokenizer, whatever state it and its
/// shadow tables are in: the index is derived data, rebuilt from the items afterwards.
pub(super) fn recreate_index(
    conn: &Connection,
    survey: &Survey,
    damaged: &[String],
    done: &mut Vec<String>,
) -> Result<()> {
    let reference = &survey.reference;
    let index = definition(reference, schema::INDEX)?;
    let exists = schema::index_sql(conn)?.is_some();
    // Opening an index whose tables are damaged would leave the transaction unusable.
    let cannot_open = if exists && damaged.is_empty() {
        conn.prepare(&format!("select rowid from {} limit 0", schema::INDEX))
            .err()
    } else {
        None
    };
    let shadows: Vec<&schema::Object> = reference
        .objects
        .iter()
        .filter(|o| o.name != schema::INDEX && reference.is_index_part(&o.name))
        .collect();
    if !damaged.is_empty() {
        unlink_index(conn, &shadows, damaged)?;
    }
    let exists = exists && damaged.is_empty();
    for s in &shadows {
        conn.execute_batch(&format!("drop table if exists {}", quoted(&s.name)))
            .context(&format!("dropping {}", s.name))?;
    }
    if exists {
        // FTS5 opens an index before dropping it: it must find valid, empty shadow tables.
        for s in &shadows {
            conn.execute_batch(&s.sql)
                .context(&format!("creating {}", s.name))?;
        }
        for (k, v) in &reference.index_config {
            conn.execute(
                &format!("insert into {}_config(k, v) values (?1, ?2)", schema::INDEX),
                rusqlite::params![k, v],
            )
            .context("preparing the index to be dropped")?;
        }
        if let Err(e) = conn.execute_batch(&format!("drop table {}", schema::INDEX)) {
            // An index FTS5 cannot open at all (a tokenizer this SQLite lacks): its
            // schema row is removed directly. A virtual table owns no pages, so nothing
            // is left behind but the shadow tables, dropped next.
            let removed = conn.execute_batch(&format!(
                "pragma writable_schema = on;
                 delete from sqlite_master where type = 'table' and name = '{}';
                 pragma writable_schema = reset;",
                schema::INDEX
            ));
            removed.map_err(|_| {
                err!(
                    "{}",
                    crate::error::describe_sqlite("dropping the damaged index", &e)
                )
            })?;
            for s in &shadows {
                conn.execute_batch(&format!("drop table if exists {}", quoted(&s.name)))
                    .context(&format!("dropping {}", s.name))?;
            }
        }
    }
    conn.execute_batch(&index.sql)
        .context("creating the index")?;
    let damages: Vec<Damage> = survey
        .damages
        .iter()
        .filter(|d| reference.is_index_part(d.name()))
        .cloned()
        .collect();
    let why = match (damages.is_empty(), cannot_open) {
        (false, _) => Some(schema::describe(&damages, reference)),
        (true, Some(e)) => Some(format!("it could not be opened: {e}")),
        (true, None) if !damaged.is_empty() => {
            Some(format!("the pages of {} were damaged", damaged.join(", ")))
        }
        (true, None) => None,
    };
    if let Some(why) = why {
        done.push(format!(
            "created the index {} again with tokenizer '{}' ({why})",
            schema::INDEX,
            survey.tokenizer
        ));
    }
    Ok(())
}

/// The tables of the index whose pages SQLite finds damaged. Read before the repair's
/// transaction: a damaged page met while writing leaves the transaction unable to go on.
pub(super) fn damaged_index_tables(conn: &Connection) -> Vec<String> {
    let names: Vec<String> = conn
        .prepare(
            "select name from pragma_table_list where schema = 'main' and type = 'shadow'
               and name like ?1 || '\\_%' escape '\\' order by name",
        )
        .and_then(|mut s| s.query_map([schema::INDEX], |r| r.get(0))?.collect())
        .unwrap_or_default();
    damaged(conn, names)
}

/// Of the tables `names`, those whose pages (or their indexes') SQLite finds damaged.
pub(super) fn damaged(conn: &Connection, names: Vec<String>) -> Vec<String> {
    names
        .into_iter()
        .filter(|name| {
            let rows: rusqlite::Result<Vec<String>> = conn
                .prepare(&format!("pragma quick_check({})", quoted(name)))
                .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect());
            !matches!(rows.as_deref(), Ok([ok]) if ok == "ok")
        })
        .collect()
}

/// Removes the index and its tables from the schema without dropping them: SQLite
/// cannot free the pages of a damaged table, nor FTS5 drop an index whose tables it
/// cannot read. The index is derived from the items, so nothing is lost; the pages left
/// unused go with the `VACUUM` after the commit (`reclaim`).
fn unlink_index(conn: &Connection, shadows: &[&schema::Object], damaged: &[String]) -> Result<()> {
    let doing = "removing the damaged index";
    let mut names: Vec<String> = shadows.iter().map(|s| s.name.clone()).collect();
    names.extend(damaged.iter().cloned());
    names.push(schema::INDEX.to_string());
    unlink(conn, doing, "type = 'table' and name = ?1", &names)
}

/// Removes the rows of `sqlite_master` that `condition` (on `?1`, each of `names`)
/// selects, without dropping what they define: SQLite cannot free the pages of a
/// damaged table. `reclaim` drops the pages left unused after the commit.
pub(super) fn unlink(
    conn: &Connection,
    doing: &str,
    condition: &str,
    names: &[String],
) -> Result<()> {
    conn.execute_batch("pragma writable_schema = on")
        .context(doing)?;
    let delete = format!("delete from sqlite_master where {condition}");
    let removed = names
        .iter()
        .try_for_each(|name| conn.execute(&delete, [name]).map(|_| ()));
    let reset = conn.execute_batch("pragma writable_schema = reset");
    removed.context(doing)?;
    reset.context(doing)
}

/// Pages that no table, index or free list holds: what unlinking a damaged table of
/// the index leaves, until a `VACUUM` writes the file again without them. A repair
/// cut off before that `VACUUM` leaves them too, so they are counted, not remembered.
fn unused_pages(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row(
        "select (select page_count from pragma_page_count)
              - (select freelist_count from pragma_freelist_count)
              - (select count(*) from dbstat)",
        [],
        |r| r.get(0),
    )
}

/// After the commit: drops the pages left unused, if any. Never an error, only a
/// warning: the library is repaired already, and `check` names the pages until a repair
/// drops them.
pub(super) fn reclaim(conn: &Connection, done: &mut Vec<String>, warnings: &mut Vec<String>) {
    let unused = match unused_pages(conn) {
        Ok(0) => return,
        Ok(n) => n,
        Err(e) => {
            warnings.push(format!(
                "cannot count the pages of the file ({e}); `recall check` tells whether any is left unused"
            ));
            return;
        }
    };
    match conn.execute_batch("vacuum") {
        Ok(()) => done.push(format!(
            "rewrote the file without the {unused} {} no table used",
            if unused == 1 { "page" } else { "pages" }
        )),
        Err(e) => warnings.push(format!(
            "{}: the file keeps {unused} pages no table uses, which `recall check` reports; run `recall repair` again",
            crate::error::describe_sqlite("rewriting the file", &e)
        )),
    }
}
