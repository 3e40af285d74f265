//! `SessionStart`: the newest items of the working folder's project, as `timeline` gives
//! them, under a heading, then one line on how to use the memory; only that line when the
//! project has no items. A folder that maps to no project gets nothing, unless `[hook]
//! start_without_project`, which shows the library's newest items. A resumed or compacted
//! session had its first prompt already (`state`). Printed in the form both agents add to
//! the context at session start: `hookSpecificOutput.additionalContext`.
use serde_json::json;

use super::payload::Payload;
use super::state::{Outcome, State};
use crate::args::HookArgs;
use crate::error::Result;
use crate::project::project_of;
use crate::query;
use crate::settings::{self, Filters, Globals};

/// The line that tells the agent how to use the memory.
pub const USAGE: &str = "How to use the recall memory: search is literal, so search for distinctive words, fragments of names and quoted error text (`recall search`); before answering with a decision, a plan, a status or a number, run `recall later ID` on the item it rests on; `recall get ID` shows an item in full.";

pub fn answer(g: &Globals, a: &HookArgs, p: &Payload) -> Result<String> {
    let db = g.db()?;
    if let (Some(session), Some("resume" | "compact")) = (&p.session, p.source.as_deref()) {
        if State::resumed(db, session) == Outcome::Locked {
            super::note(&format!(
                "the session state {} is locked by another hook; the resumed session is not recorded, so its next prompt is answered as a first one",
                super::state::path_of(db).display()
            ));
        }
    }
    let project = a.project.clone().or_else(|| {
        p.cwd
            .as_deref()
            .and_then(|cwd| project_of(cwd, &g.config.projects))
    });
    if project.is_none() && !g.config.hook.start_without_project {
        return Ok(String::new());
    }
    let limit = g.config.hook.start_items;
    let rows = if limit == 0 {
        Vec::new()
    } else {
        let s = settings::Timeline {
            filters: Filters {
                project: project.clone(),
                source: None,
                since: None,
                until: None,
                kinds: None,
                scope: None,
            },
            limit,
            default_limit: limit,
            allow: g.allow(&a.access.allow),
            around: None,
        };
        let lib = super::super::open_for_query(g)?;
        query::timeline(&lib, &s, false)?.results
    };
    if g.json {
        let doc = json!({
            "command": "hook", "event": "SessionStart", "project": project,
            "results": query::to_json(&rows)?,
        });
        return Ok(format!(
            "{}\n",
            serde_json::to_string_pretty(&doc).unwrap_or_default()
        ));
    }
    // The items are memory, handed over as data; the usage line after them is recall's.
    let mut text = String::new();
    if !rows.is_empty() {
        let heading = match &project {
            Some(name) => format!(
                "The newest items of project {} in the recall memory:",
                crate::text::field(name)
            ),
            None => "The newest items in the recall memory:".to_string(),
        };
        let lines: Vec<String> = rows
            .iter()
            .map(|item| super::item_line(item, project.is_none()))
            .collect();
        text.push_str(&crate::memory_block::block(&heading, &lines));
    }
    text.extend(super::notice::failure_notice(db).map(|line| line + "\n"));
    text.push_str(USAGE);
    let out = json!({
        "hookSpecificOutput": { "hookEventName": "SessionStart", "additionalContext": text }
    });
    Ok(format!("{out}\n"))
}
