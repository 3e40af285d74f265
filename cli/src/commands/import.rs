//! `recall import FILE|-`: JSON Lines in one transaction (`items::import`).
use std::io::Read;
use std::time::Instant;

use serde_json::json;

use super::Globals;
use crate::error::{err, Result};
use crate::item::known_kinds;
use crate::items::import::{import, Imported};
use crate::items::options::{Duplicates, WriteOptions};
use crate::items::writer::counts_json;
use crate::library::{self, Mode};
use crate::{interrupt, output};

/// `allow` is the `--allow` flags (else the configuration's `[access] allow`); `redact`
/// whether secrets are taken out (`--no-redact`, `[redact] enabled`).
pub fn run(
    g: &Globals,
    file: &str,
    skip_duplicates: bool,
    redact: bool,
    allow: &[String],
) -> Result<i32> {
    let path = g.db()?;
    let input: Box<dyn Read> = if file == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(file).map_err(|e| err!("cannot read {file}: {e}"))?)
    };
    let mut lib = library::open(path, Mode::Write, g.tokenizer.as_deref())?;
    let guard = interrupt::guard(
        "nothing was imported; the library is as it was".to_string(),
        None,
    )?;
    let started = Instant::now();
    let name = if file == "-" { "stdin" } else { file };
    let options = WriteOptions {
        redact,
        allow: g.allow(allow),
        kinds: known_kinds(g.config.kinds.extra.as_deref()),
        duplicates: Duplicates::skipped(skip_duplicates),
    };
    let Imported {
        count,
        duplicates,
        redacted,
    } = import(&mut lib, input, name, &options, &guard)?;
    let seconds = started.elapsed().as_secs_f64();
    if g.json {
        output::json(&json!({
            "command": "import", "imported": count, "duplicates": duplicates,
            "skipped_duplicates": skip_duplicates, "seconds": seconds,
            "redacted": counts_json(&redacted),
        }));
    } else {
        crate::output::say!("imported {count} items in {seconds:.2} s");
        if !redacted.is_empty() {
            eprintln!("recall: redacted {}", redacted.summary());
        }
    }
    if duplicates > 0 {
        let done = if skip_duplicates {
            "left out"
        } else {
            "imported again (`--skip-duplicates` leaves them out)"
        };
        eprintln!(
            "recall: warning: {duplicates} items were already in the library (same source, project, title, text and time): {done}"
        );
    }
    Ok(0)
}
