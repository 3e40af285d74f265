//! `recall init`: create a library.
use serde_json::json;

use super::Globals;
use crate::error::Result;
use crate::{library, output, tokenizer};

pub fn run(g: &Globals) -> Result<i32> {
    let path = g.db()?;
    let spec = g.tokenizer.as_deref().unwrap_or(tokenizer::DEFAULT);
    let lib = library::create(path, spec)?;
    if g.json {
        output::json(&json!({
            "command": "init",
            "path": lib.path,
            "schema_version": lib.schema_version,
            "tokenizer": lib.tokenizer,
        }));
    } else {
        crate::output::say!(
            "created {} (schema version {}, tokenizer '{}')",
            lib.path.display(),
            lib.schema_version,
            lib.tokenizer
        );
    }
    Ok(0)
}
