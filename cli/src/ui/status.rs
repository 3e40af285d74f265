//! The status panel's one source: what `recall status --json` prints. `recall status`
//! (the `status` module) is not part of this build yet: until it is, the panel says so,
//! and this is the one function to make return `status::read`'s `Status` as JSON.
use serde_json::{json, Value};

use crate::settings::Globals;

/// `recall --json status`'s object, or `{"available": false, "message"}` while this
/// build has no `recall status`.
pub fn report(g: &Globals) -> Value {
    let library = g
        .db()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    json!({
        "command": "status",
        "available": false,
        "library": library,
        "message": "recall status is not part of this build: the panel shows what it says once it is",
    })
}
