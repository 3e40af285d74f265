//! The tools that write, `add` and `forget`, bound by the server's access globs as the
//! reads are: an item may be added only to a source the server may read, an id may
//! replace only an item the server may read, and forget treats an item of a forbidden
//! source as a missing one.
use std::collections::HashSet;

use serde_json::{json, Value as Json};

use crate::access::allowed;
use crate::commands::add::add_item;
use crate::commands::forget::{forget, ForgetReport, ForgetRequest};
use crate::err;
use crate::error::{Context, Result};
use crate::item::Item;
use crate::item_writer::ItemWriter;
use crate::library::Library;

/// What `recall --json add` prints: `{"command": "add", "id", "duplicate_of", "added"}`.
/// The item goes through the import's own checks, and their messages.
pub fn add(lib: &mut Library, item: &Json, allow: &Option<Vec<String>>) -> Result<Json> {
    let valid = Item::from_json(item).map_err(|reason| err!("{reason}; nothing was added"))?;
    if !allowed(allow, &valid.source) {
        return Err(err!(
            "source {:?} is not one this server may use (its access globs: {}); nothing was added",
            valid.source,
            allow.as_deref().unwrap_or_default().join(", ")
        ));
    }
    // Looked up before the write, as the command does inside it: an identical item is
    // added again, and named.
    let duplicate_of = ItemWriter::new(&lib.conn)
        .and_then(|mut w| w.duplicate_of(&valid))
        .context("looking for a duplicate")?;
    // A long-running server's own write, not only its start, finishes a wipe left pending.
    crate::wipe::finish_pending(&lib.conn, &lib.path);
    // An id is the writer's to judge against the same globs: it must name an item they
    // let the server read, or none ever used.
    let id = add_item(lib, item, allow)?;
    Ok(json!({ "command": "add", "id": id, "duplicate_of": duplicate_of, "added": true }))
}

/// What `recall --json forget` prints for the request. Under access globs, what the
/// request selects is listed first (a dry run), and only the allowed items among it are
/// forgotten, by id and under the same filters, so that an item added meanwhile is never
/// taken; the ids of forbidden items are reported as unmatched, as missing ones are.
pub fn forget_items(
    lib: &mut Library,
    req: &ForgetRequest,
    allow: &Option<Vec<String>>,
) -> Result<Json> {
    if !req.dry_run {
        crate::wipe::finish_pending(&lib.conn, &lib.path);
    }
    let report = if allow.is_none() {
        forget(lib, req)?
    } else {
        let listed = forget(
            lib,
            &ForgetRequest {
                dry_run: true,
                ..req.clone()
            },
        )?;
        let ids: Vec<i64> = listed
            .items
            .iter()
            .filter(|item| allowed(allow, &item.source))
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
            forget(lib, &ForgetRequest { ids, ..req.clone() })?
        };
        report.unmatched = unmatched(&req.ids, &report.ids);
        report
    };
    let mut doc = json!({ "command": "forget" });
    if let (Some(doc), Ok(Json::Object(fields))) =
        (doc.as_object_mut(), serde_json::to_value(&report))
    {
        doc.extend(fields);
    }
    Ok(doc)
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
