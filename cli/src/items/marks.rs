//! Marking items global (visible in every project) or not: `recall promote` and `recall
//! demote` (`sql/set_global.sql`), in one transaction.
use serde_json::{json, Value};

use crate::error::{Context, Result};
use crate::library::Library;
use crate::query::sql_file::queries;
use crate::settings::sources_param;
use crate::{fault, interrupt};

/// What a promote or demote did: the items marked, and the ids that name no item the
/// caller may read (missing and forbidden alike), each in the order given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marked {
    pub ids: Vec<i64>,
    pub missing: Vec<i64>,
}

impl Marked {
    /// `{"command", "ids", "global", "missing"}`.
    pub fn to_json(&self, command: &str, global: bool) -> Value {
        json!({
            "command": command, "ids": self.ids, "global": global, "missing": self.missing,
        })
    }
}

/// Sets `global` on the items of `ids` that `allow` lets the caller read. `guard` holds
/// interruptions off the commit.
pub fn set_global(
    lib: &mut Library,
    ids: &[i64],
    global: bool,
    allow: &Option<Vec<String>>,
    guard: &interrupt::Guard,
) -> Result<Marked> {
    let tx = crate::library::turn::immediate(&lib.conn).context("starting to mark the items")?;
    let marked: Vec<i64> = {
        let mut stmt = tx
            .prepare(queries::SET_GLOBAL.sql)
            .context("preparing to mark the items")?;
        let rows = stmt
            .query_map(
                rusqlite::named_params! {
                    ":ids": json!(ids).to_string(),
                    ":global": global,
                    ":sources": sources_param(allow),
                },
                |r| r.get(0),
            )
            .context("marking the items")?;
        rows.collect::<rusqlite::Result<_>>()
            .context("marking the items")?
    };
    fault::pause_point("mark", marked.len() as i64);
    guard
        .commit(|| tx.commit())
        .context("committing the marks")?;
    let mut done = Vec::new();
    let mut missing = Vec::new();
    for id in ids {
        let list = if marked.contains(id) {
            &mut done
        } else {
            &mut missing
        };
        if !list.contains(id) {
            list.push(*id);
        }
    }
    Ok(Marked { ids: done, missing })
}
