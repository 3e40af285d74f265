//! `recall repair`: gives a damaged library back the schema its migrations define and
//! rebuilds the index (`library::repair`), then says what it did.
use std::time::Instant;

use serde_json::json;

use super::Globals;
use crate::error::Result;
use crate::library::migrations::latest_version;
use crate::library::{self, repair, Mode};
use crate::{output, tokenizer};

pub fn run(g: &Globals) -> Result<i32> {
    let path = g.db()?;
    let lib = library::open_unchecked(path, Mode::Write)?;
    let configured = g.tokenizer.as_deref().map(tokenizer::parse).transpose()?;
    let started = Instant::now();
    let r = repair::repair(&lib, configured.as_deref())?;
    for w in &r.warnings {
        eprintln!("recall: warning: {w}");
    }
    let seconds = started.elapsed().as_secs_f64();
    if g.json {
        output::json(&json!({
            "command": "repair", "repaired": r.done, "items": r.items, "tokenizer": r.tokenizer,
            "schema_version": r.schema_version, "seconds": seconds,
        }));
    } else {
        if r.done.is_empty() {
            crate::output::say!("{}: the schema was sound", lib.path.display());
        } else {
            crate::output::say!("repaired {}:", lib.path.display());
            for d in &r.done {
                crate::output::say!("  {d}");
            }
        }
        crate::output::say!(
            "rebuilt the index of {} items (tokenizer '{}') in {seconds:.2} s",
            r.items,
            r.tokenizer
        );
        if r.behind() {
            crate::output::say!(
                "the library is at schema version {} of {}: run `recall migrate`",
                r.schema_version,
                latest_version()
            );
        }
    }
    Ok(0)
}
