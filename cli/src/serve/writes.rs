//! The tools that write, `add` and `forget`, bound by the server's access globs as the
//! reads are: an item may be added only to a source the server may read, an id may
//! replace only an item the server may read, and forget treats an item of a forbidden
//! source as a missing one.
use serde_json::Value as Json;

use crate::error::{err, Result};
use crate::item::{known_kinds, Item, Marks};
use crate::items::add::add as add_item;
use crate::items::forget::{forget_allowed, report_json, ForgetRequest};
use crate::items::options::{Duplicates, WriteOptions};
use crate::library::Library;

/// What `recall --json add` prints: `{"command": "add", "id", "duplicate_of", "added",
/// "redacted"}`. The item goes through the import's own checks, and their messages; an
/// identical item is added again, and named. The route's options are the server's:
/// `redact` (the configuration's `[redact] enabled`: its secrets are replaced before it
/// is stored, and counted in the answer's `redacted`), its access globs `allow` and the
/// configuration's `kinds`.
pub fn add(
    lib: &mut Library,
    item: &Json,
    kinds: Option<&[String]>,
    allow: &Option<Vec<String>>,
    redact: bool,
) -> Result<Json> {
    let valid = Item::from_json(item).map_err(|reason| err!("{reason}; nothing was added"))?;
    // A long-running server's own write, not only its start, finishes a wipe left pending.
    crate::library::wipe::finish_pending(&lib.conn, &lib.path);
    let options = WriteOptions {
        redact,
        allow: allow.clone(),
        kinds: known_kinds(kinds),
        duplicates: Duplicates::AddAgain,
    };
    // The source and an id are the writer's to judge against the server's globs, as for
    // every route: the source must be one they allow, an id must name an item they let
    // the server read, or none ever used.
    let marks = Marks::from_json(item);
    Ok(add_item(lib, valid, &marks, &options, None)?.to_json())
}

/// What `recall --json forget` prints for the request, under the server's access globs
/// as the command is under its own (`items::forget::forget_allowed`).
pub fn forget_items(
    lib: &mut Library,
    req: &ForgetRequest,
    allow: &Option<Vec<String>>,
) -> Result<Json> {
    if !req.dry_run {
        crate::library::wipe::finish_pending(&lib.conn, &lib.path);
    }
    let report = forget_allowed(lib, req, allow, false)?;
    Ok(report_json(&report))
}
