//! The runs of the items' text (migration 0009) made again where they are damaged or out
//! of step with the items: like the index, they are derived from the items, so the whole
//! family is created again, empty, and every item made pending for the commit to split.
use rusqlite::Connection;

use super::index::{damaged, unlink};
use crate::error::{Context, Result};
use crate::library::migrations::RUNS;
use crate::library::runs;
use crate::library::schema::{Damage, Survey};

/// The runs' tables whose pages SQLite finds damaged. Read before the repair's
/// transaction, as the index's are.
pub(super) fn damaged_run_tables(conn: &Connection) -> Vec<String> {
    damaged(conn, runs::tables_present(conn).unwrap_or_default())
}

/// Whether the schema damage is the runs' tables' (theirs to mend here, not the generic
/// steps').
pub(super) fn is_runs_table(d: &Damage) -> bool {
    d.kind() == "table" && runs::is_part(d.name())
}

/// Creates the runs again where their tables are missing, altered or damaged, or their
/// index does not hold every run; else makes again the runs of the items whose runs are
/// stale, and drops the runs no item holds.
pub(super) fn mend_runs(
    conn: &Connection,
    survey: &Survey,
    damaged: &[String],
    done: &mut Vec<String>,
) -> Result<()> {
    if survey.version < RUNS {
        return Ok(());
    }
    let broken: Vec<&str> = survey
        .damages
        .iter()
        .filter(|d| is_runs_table(d))
        .map(Damage::name)
        .collect();
    if !damaged.is_empty() || !broken.is_empty() {
        if !damaged.is_empty() {
            // SQLite cannot drop a table whose pages are damaged, nor FTS5 an index it
            // cannot read: they are removed from the schema unread, the pages left go
            // with the `VACUUM` after the commit.
            let tables = runs::tables_present(conn).context("listing the runs' tables")?;
            unlink(
                conn,
                "removing the damaged tables of the runs",
                "tbl_name = ?1",
                &tables,
            )?;
        }
        runs::recreate(conn, &survey.tokenizer)?;
        let why = if damaged.is_empty() {
            broken.join(", ")
        } else {
            format!("the pages of {} were damaged", damaged.join(", "))
        };
        done.push(format!("created the runs of the items' text again ({why})"));
        return Ok(());
    }
    // The items' index made again with the library's tokenizer: the runs' too.
    if runs::declared(conn)?.is_some_and(|t| t != survey.tokenizer) {
        runs::recreate(conn, &survey.tokenizer)?;
        done.push(format!(
            "created the runs of the items' text again with tokenizer '{}'",
            survey.tokenizer
        ));
        return Ok(());
    }
    if !runs::indexed_as_stored(conn).context("counting the runs")? {
        runs::recreate(conn, &survey.tokenizer)?;
        done.push(
            "created the runs of the items' text again (their index did not hold every run)"
                .to_string(),
        );
        return Ok(());
    }
    let stale = runs::stale(conn).context("reading the runs of the items' text")?;
    let loose = runs::loose(conn).context("counting the runs of no item")?;
    if !stale.is_empty() || loose > 0 {
        runs::remake(conn, &stale).context("making the runs of the items' text again")?;
        let plural = crate::library::index_check::plural;
        let mut did = Vec::new();
        if !stale.is_empty() {
            did.push(format!(
                "made the runs of the text of {} again",
                plural(stale.len(), "item", "items")
            ));
        }
        if loose > 0 {
            let loose = usize::try_from(loose).unwrap_or(usize::MAX);
            did.push(format!(
                "removed {}",
                plural(loose, "run of no item", "runs of no item")
            ));
        }
        done.push(did.join(" and "));
    }
    Ok(())
}
