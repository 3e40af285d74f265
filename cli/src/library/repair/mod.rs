//! The repair of a damaged library: the schema its migrations define given back, then
//! the index rebuilt, all in one transaction: interrupted or failing, it leaves the
//! library exactly as it was.
//!
//! What it mends is what `schema::compare` finds (the same comparison `check` and the
//! write commands use): missing or altered tables, indexes and triggers, the FTS5 index
//! and its shadow tables (always created again, with the library's tokenizer), a
//! `user_version` lowered by hand (the migrations log tells the real one), a missing
//! tokenizer record (taken from the index), rows left in `items_fts_pending`, and items'
//! contexts out of step with their neighbours.
mod index;
mod keys;
mod records;
mod runs;
mod table;

use rusqlite::Connection;

use super::migrations::latest_version;
use super::schema::{self, Damage, Reference, Survey};
use super::Library;
use crate::error::{err, Context, Result};
use crate::{fault, interrupt, tokenizer};

/// What a repair did.
pub struct Repaired {
    /// Each change, in the order it was made; none when the schema was sound.
    pub done: Vec<String>,
    /// The items the index was rebuilt from.
    pub items: i64,
    pub tokenizer: String,
    pub schema_version: u32,
    /// Problems after the commit, which leave the library repaired: each a warning.
    pub warnings: Vec<String>,
}

impl Repaired {
    /// Whether the library is at a schema version older than this recall's.
    pub fn behind(&self) -> bool {
        self.schema_version < latest_version()
    }
}

/// Repairs the library opened for writing; `configured` is the tokenizer the
/// configuration names, normalised, which must be the library's.
pub fn repair(lib: &Library, configured: Option<&str>) -> Result<Repaired> {
    let damaged = index::damaged_index_tables(&lib.conn);
    let damaged_keys = keys::damaged_key_tables(&lib.conn);
    let damaged_runs = runs::damaged_run_tables(&lib.conn);
    let guard = interrupt::guard(
        "nothing was repaired; the library is as it was".to_string(),
        None,
    )?;
    let tx = super::turn::immediate(&lib.conn).context("starting the repair")?;
    // Surveyed under the write lock, so that no other writer changes what was seen.
    let survey = schema::survey(&tx, configured)?;
    if let (Some(c), Some(r)) = (configured, survey.valid_record()) {
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
            lib.path.display()
        ));
    }
    tokenizer::ensure_buildable(&survey.tokenizer)?;
    let mut done = Vec::new();
    restore(&tx, &survey, &damaged, &damaged_runs, &mut done)?;
    keys::recreate_keys(&tx, &survey.reference, &damaged_keys, &mut done)?;
    // Keys unlike their items' atom lines are made again, with the commit.
    let stale = super::atom_keys::stale(&tx).context("reading the atom lines' keys")?;
    if !stale.is_empty() {
        super::atom_keys::remake(&tx, &stale).context("making the atom lines' keys again")?;
        done.push(format!(
            "made the atom lines' keys of {} again",
            super::index_check::plural(stale.len(), "item", "items")
        ));
    }
    let items = crate::library::reindex::count_items(&tx)?;
    fault::pause_point("repair", 1);
    guard
        .commit(|| tx.commit())
        .context("committing the repair")?;
    fault::pause_point("repair_reclaim", 1);
    let mut warnings = Vec::new();
    index::reclaim(&lib.conn, &mut done, &mut warnings);
    Ok(Repaired {
        done,
        items,
        tokenizer: survey.tokenizer,
        schema_version: survey.version,
        warnings,
    })
}

/// Every step of the repair, inside the caller's transaction; `done` says what changed.
fn restore(
    conn: &Connection,
    survey: &Survey,
    damaged: &[String],
    damaged_runs: &[String],
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
    // (The runs' tables are created again together, below.)
    let outside_index = |d: &&Damage| {
        d.kind() == "table" && !reference.is_index_part(d.name()) && !runs::is_runs_table(d)
    };
    for d in survey.damages.iter().filter(outside_index) {
        if let Damage::Missing { name, .. } = d {
            let sql = &definition(reference, name)?.sql;
            conn.execute_batch(sql)
                .context(&format!("creating table {name}"))?;
            done.push(format!("created the missing table {name}"));
        }
    }
    index::recreate_index(conn, survey, damaged, done)?;
    for d in survey.damages.iter().filter(outside_index) {
        if let Damage::Altered { name, .. } = d {
            table::rebuild_table(conn, reference, name)?;
            done.push(format!(
                "rebuilt table {name} as the migrations define it, keeping its rows"
            ));
        }
    }
    runs::mend_runs(conn, survey, damaged_runs, done)?;
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
    records::record_tokenizer(conn, survey, done)?;
    records::log_migrations(conn, reference, done)?;
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

pub(super) fn definition<'a>(reference: &'a Reference, name: &str) -> Result<&'a schema::Object> {
    reference
        .object(name)
        .ok_or_else(|| err!("the migrations define no object {name}"))
}

pub(super) fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}
