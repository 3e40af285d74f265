//! The status panel's one source: what `recall status` prints and what `recall status
//! --json` prints, from the status's own code (`status::read`, its text and its JSON
//! document).
use serde_json::{json, Value};

use crate::error::Result;
use crate::settings::Globals;
use crate::status;

/// `{"text": recall status's lines, "status": recall --json status's object}`, under the
/// page's access globs as `recall status --allow` is.
pub fn report(g: &Globals, allow: Option<&Vec<String>>) -> Result<Value> {
    let s = status::read(g.db()?, g.tokenizer.as_deref(), allow);
    Ok(json!({ "command": "status", "text": s.text(), "status": s.to_json() }))
}
