//! The status panel's one source: what `recall status --json` prints, from the same
//! code (`status::read` and the command's JSON document).
use serde_json::Value;

use crate::commands::status::json;
use crate::error::Result;
use crate::settings::Globals;
use crate::status;

/// `recall --json status`'s object.
pub fn report(g: &Globals) -> Result<Value> {
    Ok(json(&status::read(g.db()?, g.tokenizer.as_deref())))
}
