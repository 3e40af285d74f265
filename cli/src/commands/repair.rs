//! `recall repair`: gives a damaged library back the schema its migrations define, then
//! rebuilds the index, all in one transaction: interrupted or failing, it leaves the
//! library exactly as it was.
//!
//! What it mends is what `schema::compare` finds (the same comparison `check` and the
//! write commands use): missing or altered tables, indexes and triggers, the FTS5 index
//! and its shadow tables (always created again, with the library's tokenizer), a
//! `user_version` lowered by hand (the migrations log tells the real one), a missing
//! tokenizer record (taken from the index), rows left in `items_fts_pending`, and items'
//! contexts out of step with their neighbours.
use std::time::Instant;

use rusqlite::{Connection, OptionalExtension};
use serde_json::json;

use super::Globals;
use crate::error::{Context, Result};
use crate::library::migrations::{self, latest_version};
use crate::library::schema::{self, Damage, Reference, Survey, TokenizerSource};
use crate::library::{self, Access};
use crate::{err, fault, interrupt, output, tokenizer};

fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

pub fn run(g: &Globals) -> Result<i32> {
    let path = g.db()?;
    let lib = library::open_unchecked(path, Access::Write)?;
    let configured = g.tokenizer.as_deref().map(tokenizer::parse).transpose()?;
    let started = Instant::now();
    let damaged = damaged_index_tables(&lib.conn);
    let guard = interrupt::guard(
        "nothing was repaired; the library is as it was".to_string(),
        None,
    )?;
    let tx = crate::library::turn::immediate(&lib.conn).context("starting the repair")?;
    // Surveyed under the write lock, so that no other writer changes what was seen.
    let survey = schema::survey(&tx, configured.as_deref())?;
    if let (Some(c), Some(r)) = (&configured, survey.valid_record()) {
        if *c != r {
            return Err(err!(
                "the configured tokenizer '{c}' differs from the library's '{r}': repair keeps the library's; configure '{r}', and switch with `recall rebuild --tokenizer '{c}'` after the repair if you want '{c}'"
            ));
        }
    }
    let latest = i64::from(latest_version());
    if let Some(a) = survey.applied.filter(|a| *a > latest) {
        return Err(err!(
            "{} records migration {a}, newer than this recall knows ({latest}): upgrade recall to repair it",
            path.display()
        ));
    }
    tokenizer::ensure_buildable(&survey.tokenizer)?;
    let mut done = Vec::new();
    restore(&tx, &survey, &damaged, &mut done)?;
    let items: i64 = tx
        .query_row("select count(*) from items", [], |r| r.get(0))
        .context("counting items")?;
    fault::pause_point("repair", 1);
    guard
        .commit(|| tx.commit())
        .context("committing the repair")?;
    fault::pause_point("repair_reclaim", 1);
    reclaim(&lib.conn, &mut done);
    let seconds = started.elapsed().as_secs_f64();
    let behind = survey.version < latest_version();
    if g.json {
        output::json(&json!({
            "command": "repair", "repaired": done, "items": items, "tokenizer": survey.tokenizer,
            "schema_version": survey.version, "seconds": seconds,
        }));
    } else {
        if done.is_empty() {
            crate::say!("{}: the schema was sound", lib.path.display());
        } else {
            crate::say!("repaired {}:", lib.path.display());
            for d in &done {
                crate::say!("  {d}");
            }
        }
        crate::say!(
            "rebuilt the index of {items} items (tokenizer '{}') in {seconds:.2} s",
            survey.tokenizer
        );
        if behind {
            crate::say!(
                "the library is at schema version {} of {}: run `recall migrate`",
                survey.version,
                latest_version()
            );
        }
    }
    Ok(0)
}

/// Every step of the repair, inside the caller's transaction; `done` says what changed.
fn restore(
    conn: &Connection,
    survey: &Survey,
    damaged: &[String],
    done: &mut Vec<String>,
) -> Result<()> {
    let reference = &survey.reference;
    if survey.user_version != i64::from(survey.version) {
        conn.execute_batch(&format!("pragma user_version = {}", survey.version))
            .context("restoring user_version")?;
        done.push(format!(
            "restored user_version {} (it was {})",
            survey.version, survey.user_version
        ));
    }
    // Altered triggers and indexes go; they are created again below with the missing ones.
    for d in &survey.damages {
        if let Damage::Altered { kind, name } = d {
            if kind == "trigger" || kind == "index" || kind == "view" {
                conn.execute_batch(&format!("drop {kind} if exists {}", quoted(name)))
                    .context(&format!("dropping the altered {kind} {name}"))?;
            }
        }
    }
    // Tables before the triggers and indexes created below, which need them.
    let outside_index = |d: &&Damage| d.kind() == "table" && !reference.is_index_part(d.name());
    for d in survey.damages.iter().filter(outside_index) {
        if let Damage::Missing { name, .. } = d {
            let sql = &definition(reference, name)?.sql;
            conn.execute_batch(sql)
                .context(&format!("creating table {name}"))?;
            done.push(format!("created the missing table {name}"));
        }
    }
    recreate_index(conn, survey, damaged, done)?;
    for d in survey.damages.iter().filter(outside_index) {
        if let Damage::Altered { name, .. } = d {
            rebuild_table(conn, reference, name)?;
            done.push(format!(
                "rebuilt table {name} as the migrations define it, keeping its rows"
            ));
        }
    }
    // Dropping or rebuilding a table took its triggers and indexes with it: whatever is
    // missing now is created, in the migrations' order.
    for d in schema::compare(conn, reference)? {
        if let Damage::Missing { kind, name } = &d {
            if kind == "trigger" || kind == "index" || kind == "view" {
                let sql = &definition(reference, name)?.sql;
                conn.execute_batch(sql)
                    .context(&format!("creating {kind} {name}"))?;
                if survey.damages.contains(&d) {
                    done.push(format!("created the missing {kind} {name}"));
                } else if survey.damages.iter().any(|x| x.name() == name) {
                    done.push(format!(
                        "created {kind} {name} again as the migrations define it"
                    ));
                }
            }
        }
    }
    record_tokenizer(conn, survey, done)?;
    log_migrations(conn, reference, done)?;
    let pending = conn
        .execute("delete from items_fts_pending", [])
        .context("clearing items_fts_pending")?;
    if pending > 0 {
        done.push(format!(
            "cleared {pending} {} left in items_fts_pending",
            if pending == 1 { "row" } else { "rows" }
        ));
    }
    let contexts = crate::library::context::recompute(conn)?;
    if contexts > 0 {
        done.push(format!(
            "recomputed the context of {contexts} {} from {} neighbours",
            if contexts == 1 { "item" } else { "items" },
            if contexts == 1 { "its" } else { "their" }
        ));
    }
    conn.execute_batch(&format!(
        "insert into {0}({0}) values ('rebuild')",
        schema::INDEX
    ))
    .context("rebuilding the index")?;
    let left = schema::compare(conn, reference)?;
    if !left.is_empty() {
        return Err(err!(
            "repair could not restore the schema ({}); nothing was changed: restore the library from a backup",
            schema::describe(&left, reference)
        ));
    }
    Ok(())
}

fn definition<'a>(reference: &'a Reference, name: &str) -> Result<&'a schema::Object> {
    reference
        .object(name)
        .ok_or_else(|| err!("the migrations define no object {name}"))
}

/// Creates the FTS5 index again with the library's tokenizer, whatever state it and its
/// shadow tables are in: the index is derived data, rebuilt from the items afterwards.
fn recreate_index(
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
fn damaged_index_tables(conn: &Connection) -> Vec<String> {
    let names: Vec<String> = conn
        .prepare(
            "select name from pragma_table_list where schema = 'main' and type = 'shadow' order by name",
        )
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .unwrap_or_default();
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
    conn.execute_batch("pragma writable_schema = on")
        .context(doing)?;
    let removed = names.iter().try_for_each(|name| {
        conn.execute(
            "delete from sqlite_master where type = 'table' and name = ?1",
            [name],
        )
        .map(|_| ())
    });
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

/// After the commit: drops the pages left unused, if any. Never an error: the library
/// is repaired already, and `check` names the pages until a repair drops them.
fn reclaim(conn: &Connection, done: &mut Vec<String>) {
    let unused = match unused_pages(conn) {
        Ok(0) => return,
        Ok(n) => n,
        Err(e) => {
            eprintln!(
                "recall: warning: cannot count the pages of the file ({e}); `recall check` tells whether any is left unused"
            );
            return;
        }
    };
    match conn.execute_batch("vacuum") {
        Ok(()) => done.push(format!(
            "rewrote the file without the {unused} {} no table used",
            if unused == 1 { "page" } else { "pages" }
        )),
        Err(e) => eprintln!(
            "recall: warning: {}: the file keeps {unused} pages no table uses, which `recall check` reports; run `recall repair` again",
            crate::error::describe_sqlite("rewriting the file", &e)
        ),
    }
}

/// Rebuilds a table whose definition differs from the migrations': a new table as they
/// define it, the rows copied by column name, the old table dropped. A column the
/// migrations do not define is dropped only when it holds nothing.
fn rebuild_table(conn: &Connection, reference: &Reference, name: &str) -> Result<()> {
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

/// Records the tokenizer when the record is missing, unknown or not in normal form.
fn record_tokenizer(conn: &Connection, survey: &Survey, done: &mut Vec<String>) -> Result<()> {
    if survey.recorded.as_deref() == Some(survey.tokenizer.as_str()) {
        return Ok(());
    }
    conn.execute(
        "insert or replace into recall_meta(key, value) values ('tokenizer', ?1)",
        [&survey.tokenizer],
    )
    .context("recording the tokenizer")?;
    let from = match survey.source {
        TokenizerSource::Recorded => "the record, in normal form",
        TokenizerSource::Configured => "as configured",
        TokenizerSource::Declared => "the one the index declared",
        TokenizerSource::Default => "the default: neither a record nor an index named one",
    };
    done.push(format!(
        "recorded tokenizer '{}' ({from})",
        survey.tokenizer
    ));
    Ok(())
}

/// The log lists every migration up to the library's version; rows lost with a dropped
/// log are written again, dated now (when they ran is not known).
fn log_migrations(conn: &Connection, reference: &Reference, done: &mut Vec<String>) -> Result<()> {
    if reference.object("recall_migrations").is_none() {
        return Ok(());
    }
    let mut added = Vec::new();
    for (version, name, _) in migrations::MIGRATIONS
        .iter()
        .filter(|m| m.0 <= reference.version)
    {
        let n = conn
            .execute(
                "insert or ignore into recall_migrations (version, name, applied_at)
                 values (?1, ?2, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                rusqlite::params![version, name],
            )
            .context("recording the migrations")?;
        if n > 0 {
            added.push(version.to_string());
        }
    }
    if !added.is_empty() {
        done.push(format!(
            "recorded migrations {} in recall_migrations (dated now: when they ran is not known)",
            added.join(", ")
        ));
    }
    Ok(())
}
