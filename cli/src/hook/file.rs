//! A file tool's event: the memory of the file the agent reads or changes, before an edit
//! (`PreToolUse` of an edit tool) or after a read or an edit (`PostToolUse`), once a
//! session for each file, whichever event comes first: one record in the session state,
//! so that a file told before its edit is not told again after it. The items that edited or named it (`sql/file_items.sql`,
//! as `recall search --file` lists them), at most `FILE_ITEMS_SHOWN`, newest first, in
//! the working folder's project; nothing when there are none. A file already shown in
//! the session costs no library read: the session state answers first. The hook never
//! blocks, denies or asks: its answer is `additionalContext` only, with no decision,
//! so the agent's own permissions decide whether the tool runs.
use serde_json::json;

use super::answer::{fields, item_line, Answer};
use super::payload::Payload;
use crate::args::{self, HookArgs};
use crate::error::Result;
use crate::library::sessions::State;
use crate::project::{file_in_checkout, project_of};
use crate::query;
use crate::query::changed::{self, Here};
use crate::settings::{self, Globals};
use crate::text::field;

pub fn answer(g: &Globals, a: &HookArgs, p: &Payload) -> Result<Answer> {
    let mut files: Vec<String> = Vec::new();
    for f in &p.files {
        for name in [
            Some(file_in_checkout(f, p.cwd.as_deref())),
            resolved(f, p.cwd.as_deref()),
        ]
        .into_iter()
        .flatten()
        {
            if !files.contains(&name) {
                files.push(name);
            }
        }
    }
    if files.is_empty() {
        return Ok(Answer::Nothing);
    }
    let db = g.db()?;
    // Recorded before the library is read: a second event for the file costs no read.
    let files = match &p.session {
        Some(session) => State::files_unseen(db, session, &files).unwrap_or(files),
        None => files,
    };
    if files.is_empty() {
        return Ok(Answer::Nothing);
    }
    let project = a.project.clone().or_else(|| {
        p.cwd
            .as_deref()
            .and_then(|cwd| project_of(cwd, &g.config.projects))
    });
    // `search --file FILE --project P` under the hook's globs, resolved as the
    // command's is.
    let asked = args::SearchArgs {
        filters: args::Filters {
            project: project.clone(),
            ..args::Filters::default()
        },
        common: args::Common {
            access: a.access.clone(),
            ..args::Common::default()
        },
        ..args::SearchArgs::default()
    };
    let lib = g.open_for_query()?;
    let mut found = Vec::new();
    for file in &files {
        let s = settings::FileItems::for_hook(g, &asked, file.clone())?;
        for row in query::file_items(&lib, &s, false)?.results {
            found.push((file.clone(), row));
        }
    }
    // Still true? Their files changed since, as seen from the working folder.
    let here = Here::at(p.cwd.as_deref(), &g.config.projects);
    let mut rows: Vec<_> = found.iter().map(|(_, row)| row.clone()).collect();
    changed::mark(&lib, here.as_ref(), &mut rows, &g.allow(&a.access.allow))?;
    for ((_, row), marked) in found.iter_mut().zip(rows) {
        *row = marked;
    }
    if g.json {
        let results: Vec<serde_json::Value> = found
            .iter()
            .map(|(file, row)| Ok(json!({ "file": file, "item": query::to_json(row)? })))
            .collect::<Result<_>>()?;
        return Ok(Answer::Json(fields(json!({
            "project": project, "files": files, "results": results,
        }))));
    }
    if found.is_empty() {
        return Ok(Answer::Nothing);
    }
    let lines: Vec<String> = found
        .iter()
        .map(|(file, row)| {
            let verb = if row.edited { "edited" } else { "names" };
            format!(
                "{} — {verb} {}",
                item_line(&row.item, project.is_none()).trim_end(),
                field(file)
            )
        })
        .collect();
    let reach = super::reach::Reach::of(g, p);
    let heading = format!(
        "Earlier sessions in the recall memory that edited or named this file, newest first ({} shows one in full):",
        reach.get()
    );
    let (text, kept) = crate::memory_block::block_within(
        &heading,
        &lines,
        crate::memory_block::MAX_CONTEXT,
        &format!(
            "`{}` lists a file's items",
            reach.command("search --file PATH")
        ),
    );
    Ok(Answer::Context {
        text,
        lines: lines[..kept].to_vec(),
    })
}

/// The file a name reaches through symbolic links, as its checkout names it, where that
/// differs from the name (a link inside the repository to a file earlier sessions
/// edited under its own name); None where the file does not exist here.
fn resolved(file: &str, cwd: Option<&str>) -> Option<String> {
    let path = std::path::Path::new(file);
    let path = match (path.is_absolute(), cwd) {
        (true, _) => path.to_path_buf(),
        (false, Some(cwd)) => std::path::Path::new(cwd).join(path),
        (false, None) => return None,
    };
    let real = std::fs::canonicalize(&path).ok()?;
    if real == path {
        return None;
    }
    Some(file_in_checkout(real.to_str()?, None))
}
