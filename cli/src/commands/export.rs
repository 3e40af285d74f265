//! `recall export FILE|-`: the library's items as JSON Lines (`items::export`). A file is
//! written beside its place and linked there whole at the end, never over an existing
//! file: an export that fails leaves nothing behind.
use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde_json::json;

use super::Globals;
use crate::args::{ExportArgs, ScopeArgs};
use crate::error::{err, Result};
use crate::items::export::{export, ExportRequest, Exported};
use crate::items::writer::counts_json;
use crate::output;
use crate::settings::Filters;

pub fn run(g: &Globals, a: &ExportArgs) -> Result<i32> {
    let filters = Filters::resolve(g, &a.filters, &a.kinds, &ScopeArgs::default())?;
    let allow = g.allow(&a.access.allow);
    let req = ExportRequest {
        filters: &filters,
        allow: &allow,
        transcripts: a.transcripts,
        redact: a.redact.on(g.config.redact.enabled),
    };
    let target = (a.file != "-").then(|| PathBuf::from(&a.file));
    if let Some(path) = &target {
        if path.exists() {
            return Err(err!(
                "{} exists already: name a new file (export never writes over one)",
                path.display()
            ));
        }
    }
    let lib = g.open_for_query()?;
    let done = match &target {
        None => export(&lib.conn, &req, &mut std::io::stdout().lock())?,
        Some(path) => to_file(path, |out| export(&lib.conn, &req, out))?,
    };
    // The items go to standard output with `-`: the report goes to standard error then.
    let report = json!({
        "command": "export", "exported": done.count, "file": a.file,
        "redacted": counts_json(&done.redacted),
    });
    match (g.json, target.is_some()) {
        (true, true) => output::json(&report),
        (true, false) => eprintln!("{report}"),
        (false, _) => {
            let line = format!("exported {} items to {}", done.count, a.file);
            match target {
                Some(_) => crate::output::say!("{line}"),
                None => eprintln!("recall: {line}"),
            }
            if !done.redacted.is_empty() {
                eprintln!("recall: redacted {}", done.redacted.summary());
            }
        }
    }
    Ok(0)
}

/// Writes through `write` into a new file beside `path`, synced, then links it at `path`
/// (which fails if a file appeared there meanwhile); the partial file is removed on any
/// failure.
fn to_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<Exported>,
) -> Result<Exported> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let partial = dir.join(format!(".{name}.partial-{}", std::process::id()));
    let file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&partial)
        .map_err(|e| err!("cannot write {}: {e}", partial.display()))?;
    let result = (|| {
        let mut out = BufWriter::new(file);
        let done = write(&mut out)?;
        let file: File = out
            .into_inner()
            .map_err(|e| err!("cannot write {}: {}", path.display(), e.error()))?;
        file.sync_all()
            .map_err(|e| err!("cannot write {}: {e}", path.display()))?;
        fs::hard_link(&partial, path).map_err(|e| {
            err!(
                "cannot write {}: {e} (export never writes over a file)",
                path.display()
            )
        })?;
        Ok(done)
    })();
    let _ = fs::remove_file(&partial);
    result
}
