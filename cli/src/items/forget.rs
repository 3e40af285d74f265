//! Forgetting: removes items by id and/or filter so that no copy of their text is left
//! in the library file or its log (how: `crate::library::wipe`). Every condition given must
//! hold: ids and filters AND together, so adding a condition never forgets more. The
//! deletes are one transaction: interrupted or killed, the library is as before or as
//! after.
use std::collections::HashSet;

use rusqlite::types::ValueRef;
use rusqlite::Connection;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::error::{err, Context, Result};
use crate::library::wipe::{self, Wiped, ZeroFreed};
use crate::library::Library;
use crate::settings::time_flag;
use crate::{fault, interrupt};

/// What a forget selects: `recall forget`'s options, and the arguments of the MCP tool
/// `forget` (whose input schema is derived from this).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForgetRequest {
    /// The items to forget, by id.
    #[serde(default)]
    pub ids: Vec<i64>,
    /// Only items of this source.
    pub source: Option<String>,
    /// Only items of this project.
    pub project: Option<String>,
    /// Only items that happened before this time (ISO-8601, like 2025-03-04).
    pub before: Option<String>,
    /// List what would be forgotten, and change nothing.
    #[serde(default)]
    pub dry_run: bool,
}

impl ForgetRequest {
    fn is_empty(&self) -> bool {
        self.ids.is_empty()
            && self.source.is_none()
            && self.project.is_none()
            && self.before.is_none()
    }
}

/// One item a forget removed (or would remove), as listings show it.
#[derive(Debug, Clone, Serialize)]
pub struct ForgottenItem {
    pub id: i64,
    pub date: String,
    pub title: String,
    pub project: Option<String>,
    pub source: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ForgetReport {
    /// The items forgotten (with `dry_run`, the ones that would be).
    pub ids: Vec<i64>,
    pub dry_run: bool,
    pub items: Vec<ForgottenItem>,
    /// Ids asked for that name no item the filters match.
    pub unmatched: Vec<i64>,
    /// Whether the file was rewritten and its log emptied, so that no copy of the
    /// forgotten text is left (false when nothing was removed: nothing needed it).
    pub wiped: bool,
    /// Why the wipe could not finish, and what to do.
    pub warning: Option<String>,
}

/// Forgets what the request selects, under access globs (`Globals::allow`: None is every
/// source). Refuses an empty request (no id and no filter) with a one-line error.
///
/// Under globs, what the request selects is listed first (a dry run), and only the
/// allowed items among it are forgotten, by id and under the same filters, so that an
/// item added meanwhile is never taken; the ids of forbidden items are reported as
/// unmatched, as missing ones are, so that a caller learns nothing of an item it may not
/// read. `guarded`: the command line's interruption guards hold signals off the commit
/// and say what a signal during the wipe left.
pub fn forget_allowed(
    lib: &mut Library,
    req: &ForgetRequest,
    allow: &Option<Vec<String>>,
    guarded: bool,
) -> Result<ForgetReport> {
    if allow.is_none() {
        return run_request(lib, req, guarded);
    }
    let listed = run_request(
        lib,
        &ForgetRequest {
            dry_run: true,
            ..req.clone()
        },
        false,
    )?;
    let ids: Vec<i64> = listed
        .items
        .iter()
        .filter(|item| crate::access::allowed(allow, &item.source))
        .map(|item| item.id)
        .collect();
    let mut report = if ids.is_empty() {
        // No ids would mean "every item the filters match".
        ForgetReport {
            items: Vec::new(),
            ids: Vec::new(),
            dry_run: req.dry_run,
            ..listed
        }
    } else if req.dry_run {
        let kept: HashSet<i64> = ids.iter().copied().collect();
        ForgetReport {
            items: listed
                .items
                .into_iter()
                .filter(|item| kept.contains(&item.id))
                .collect(),
            ids,
            ..listed
        }
    } else {
        run_request(lib, &ForgetRequest { ids, ..req.clone() }, guarded)?
    };
    report.unmatched = unmatched(&req.ids, &report.ids);
    Ok(report)
}

/// The ids asked for that were not forgotten, sorted, each once.
fn unmatched(asked: &[i64], forgotten: &[i64]) -> Vec<i64> {
    let forgotten: HashSet<i64> = forgotten.iter().copied().collect();
    let mut ids: Vec<i64> = asked
        .iter()
        .copied()
        .filter(|id| !forgotten.contains(id))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// What `recall --json forget` prints: `{"command": "forget", …the report}`.
pub fn report_json(report: &ForgetReport) -> serde_json::Value {
    let mut doc = json!({ "command": "forget" });
    if let (Some(doc), Ok(serde_json::Value::Object(fields))) =
        (doc.as_object_mut(), serde_json::to_value(report))
    {
        doc.extend(fields);
    }
    doc
}

/// Finishes an earlier forget whose wipe could not complete: rewrites the file and
/// empties its log, forgetting nothing new, and clears the record of the pending wipe.
pub fn finish(lib: &mut Library) -> Result<Wiped> {
    let _zero = ZeroFreed::on(&lib.conn)?;
    Ok(wipe::wipe(&lib.conn, &lib.path))
}

/// The items the request selects, by id.
fn select(
    conn: &Connection,
    req: &ForgetRequest,
    before: Option<&str>,
) -> Result<Vec<ForgottenItem>> {
    let ids = (!req.ids.is_empty()).then(|| json!(req.ids).to_string());
    let mut stmt = conn
        .prepare(
            "select id, occurred_at, title, project, source from items
             where (?1 is null or id in (select value from json_each(?1)))
               and (?2 is null or source = ?2)
               and (?3 is null or project = ?3)
               and (?4 is null or occurred_at < ?4)
             order by id",
        )
        .context("finding the items to forget")?;
    // Text a damaged row holds as invalid UTF-8 must not stop its removal.
    let text = |v: ValueRef<'_>| match v {
        ValueRef::Null => None,
        ValueRef::Text(t) | ValueRef::Blob(t) => Some(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Integer(i) => Some(i.to_string()),
        ValueRef::Real(r) => Some(r.to_string()),
    };
    let rows = stmt
        .query_map(
            rusqlite::params![ids, req.source, req.project, before],
            |r| {
                Ok(ForgottenItem {
                    id: r.get(0)?,
                    date: text(r.get_ref(1)?).unwrap_or_default(),
                    title: text(r.get_ref(2)?).unwrap_or_default(),
                    project: text(r.get_ref(3)?),
                    source: text(r.get_ref(4)?).unwrap_or_default(),
                })
            },
        )
        .context("finding the items to forget")?;
    rows.collect::<rusqlite::Result<Vec<_>>>()
        .context("finding the items to forget")
}

/// `forget`, with the command line's interruption guards when `guarded`.
fn run_request(lib: &mut Library, req: &ForgetRequest, guarded: bool) -> Result<ForgetReport> {
    if req.is_empty() {
        return Err(err!(
            "nothing to forget: give item ids and/or --source, --project or --before (every one given must match); --dry-run lists what would go"
        ));
    }
    let before = time_flag("--before", req.before.as_deref())?;
    let mut report = ForgetReport {
        ids: Vec::new(),
        dry_run: req.dry_run,
        items: Vec::new(),
        unmatched: Vec::new(),
        wiped: false,
        warning: None,
    };
    let settle = |report: &mut ForgetReport, items: Vec<ForgottenItem>| {
        report.ids = items.iter().map(|i| i.id).collect();
        let mut unmatched: Vec<i64> = req
            .ids
            .iter()
            .copied()
            .filter(|id| !report.ids.contains(id))
            .collect();
        unmatched.sort_unstable();
        unmatched.dedup();
        report.unmatched = unmatched;
        report.items = items;
    };
    if req.dry_run {
        let items = select(&lib.conn, req, before.as_deref())?;
        settle(&mut report, items);
        return Ok(report);
    }
    let _zero = ZeroFreed::on(&lib.conn)?;
    let guard = guarded
        .then(|| {
            interrupt::guard(
                "nothing was forgotten; the library is as it was".to_string(),
                None,
            )
        })
        .transpose()?;
    let tx = crate::library::turn::immediate(&lib.conn).context("starting to forget")?;
    let items = select(&tx, req, before.as_deref())?;
    settle(&mut report, items);
    if report.ids.is_empty() {
        return Ok(report);
    }
    {
        let mut delete = tx
            .prepare("delete from items where id = ?1")
            .context("forgetting the items")?;
        for id in &report.ids {
            delete.execute([id]).context("forgetting the items")?;
        }
    }
    // sqlite-vec zeroes a deleted vector in place; the wipe below clears the rest.
    crate::vectors::store::forget(&tx, &report.ids)?;
    crate::library::capture_records::forgotten(&tx, &report.ids).context("forgetting the items")?;
    wipe::after_delete(&tx)?;
    fault::pause_point("forget", report.ids.len() as i64);
    match &guard {
        Some(g) => g.commit(|| tx.commit()),
        None => tx.commit(),
    }
    .context("committing the forget")?;
    drop(guard);
    // The items are gone now: a watcher that cannot start must not turn that into an
    // error saying otherwise.
    let _wiping = guarded
        .then(|| {
            interrupt::guard(
                format!("the items were forgotten, but the file was not wiped: copies of their text may remain in it; {} (the next write to the library also does it, and `recall check` reports it until then)", wipe::FINISH),
                None,
            )
            .ok()
        })
        .flatten();
    fault::pause_point("forget_wipe", 1);
    let wiped = wipe::wipe(&lib.conn, &lib.path);
    report.wiped = wiped.complete;
    report.warning = wiped.warning;
    Ok(report)
}
