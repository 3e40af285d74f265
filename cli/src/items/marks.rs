//! Marking items global (visible in every project) or not: `recall promote` and `recall
//! demote` (`sql/set_global.sql`); setting their kind of memory or taking it away:
//! `recall kind` (`sql/set_kind.sql`). Each in one transaction, under the access globs.
use serde_json::{json, Value};

use crate::error::{err, Context, Result};
use crate::library::sql_file::queries;
use crate::library::Library;
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

    /// `{"command": "kind", "ids", "kind", "missing"}`.
    pub fn kind_json(&self, kind: Option<&str>) -> Value {
        json!({ "command": "kind", "ids": self.ids, "kind": kind, "missing": self.missing })
    }
}

/// Sets `global` on the items of `ids` that `allow` lets the caller read. `guard`, when
/// given, holds interruptions off the commit (the command line's; a server watches its
/// own).
pub fn set_global(
    lib: &mut Library,
    ids: &[i64],
    global: bool,
    allow: &Option<Vec<String>>,
    guard: Option<&interrupt::Guard>,
) -> Result<Marked> {
    mark(
        lib,
        ids,
        queries::SET_GLOBAL.sql,
        (":global", &global),
        allow,
        guard,
    )
}

/// Sets the kind of the items of `ids` that `allow` lets the caller read (None: no kind).
/// A kind must be one of `known` (`item::known_kinds`): anything else is refused with
/// one line, and nothing is written.
pub fn set_kind(
    lib: &mut Library,
    ids: &[i64],
    kind: Option<&str>,
    known: &[String],
    allow: &Option<Vec<String>>,
    guard: Option<&interrupt::Guard>,
) -> Result<Marked> {
    if let Some(kind) = kind {
        crate::item::kind_shape("the kind", kind).map_err(|e| err!("{e}"))?;
        if let Some(unknown) = crate::item::unknown_kind("the kind", kind, known) {
            return Err(err!("{unknown}"));
        }
    }
    mark(
        lib,
        ids,
        queries::SET_KIND.sql,
        (":kind", &kind),
        allow,
        guard,
    )
}

/// Runs one of the marking queries (`:ids`, `:sources` and one mark of its own) and
/// commits.
fn mark(
    lib: &mut Library,
    ids: &[i64],
    sql: &str,
    value: (&str, &dyn rusqlite::ToSql),
    allow: &Option<Vec<String>>,
    guard: Option<&interrupt::Guard>,
) -> Result<Marked> {
    let tx = crate::library::turn::immediate(&lib.conn).context("starting to mark the items")?;
    let marked: Vec<i64> = {
        let mut stmt = tx.prepare(sql).context("preparing to mark the items")?;
        let ids_json = json!(ids).to_string();
        let sources = sources_param(allow);
        let params: [(&str, &dyn rusqlite::ToSql); 3] =
            [(":ids", &ids_json), value, (":sources", &sources)];
        let rows = stmt
            .query_map(&params[..], |r| r.get(0))
            .context("marking the items")?;
        rows.collect::<rusqlite::Result<_>>()
            .context("marking the items")?
    };
    fault::pause_point("mark", marked.len() as i64);
    let commit = || tx.commit();
    match guard {
        Some(guard) => guard.commit(commit),
        None => commit(),
    }
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
