//! `UserPromptSubmit`: the items `related` finds for the session's first prompt (the
//! settings and `sql/related.sql` of `recall related`), nothing for its later prompts,
//! which cost no search. `--every-prompt` (`[hook] every_prompt`) answers every prompt.
use serde_json::json;

use super::answer::{fields, item_line, Answer};
use super::payload::Payload;
use crate::args::{Common, HookArgs, Recency, RelatedArgs, RelatedFlags};
use crate::error::Result;
use crate::library::sessions::{Outcome, State};
use crate::query;
use crate::query::changed::{self, Here};
use crate::query::rows::RelatedRow;
use crate::settings::{self, Globals};

pub fn answer(g: &Globals, a: &HookArgs, p: &Payload) -> Result<Answer> {
    let related_args = RelatedArgs {
        prompt: String::new(),
        // The working folder's project (and the global items), as the start shows it:
        // another project's sessions are no memory of this work.
        project: a.project.clone().or_else(|| {
            p.cwd
                .as_deref()
                .and_then(|cwd| crate::project::project_of(cwd, &g.config.projects))
        }),
        recency: Recency::default(),
        settings: RelatedFlags {
            given: a.settings.given.clone(),
        },
        kinds: Default::default(),
        scope: Default::default(),
        common: Common {
            access: a.access.clone(),
            ..Common::default()
        },
    };
    // Its terms stand for the prompt: the same answer, read in one pass however long
    // the pasted text.
    let prompt = recall_core::prompt::prompt_of_terms(&p.prompt);
    let s = settings::Related::with_prompt(g, &related_args, prompt)?;
    let lib = g.open_for_query()?;
    // Recorded once the settings and the library are known good, so that a prompt that
    // fails on them is not taken for the session's first.
    let every = a.every_prompt || g.config.hook.every_prompt;
    if !(every || first_prompt(&lib.path, p)) {
        return Ok(Answer::Nothing);
    }
    let mut rows = query::related(&lib, &s, false)?.results;
    // Still true? Their files changed since, as seen from the working folder.
    let here = Here::at(p.cwd.as_deref(), &g.config.projects);
    changed::mark(&lib, here.as_ref(), &mut rows, &s.allow)?;
    if g.json {
        // `related`'s results.
        return Ok(Answer::Json(fields(
            json!({ "results": query::to_json(&rows)? }),
        )));
    }
    if rows.is_empty() {
        return Ok(Answer::Nothing);
    }
    let (text, lines) = block(&rows, &super::reach::Reach::of(g, p));
    Ok(Answer::Context { text, lines })
}

/// Whether this is the session's first prompt. A prompt whose first-ness cannot be known
/// (no session id, no state beside the library, the state locked) is answered as a first.
fn first_prompt(db: &std::path::Path, p: &Payload) -> bool {
    let Some(session) = &p.session else {
        return true;
    };
    match State::first_prompt(db, session) {
        Outcome::Changed | Outcome::NoState => true,
        Outcome::Unchanged => false,
        Outcome::Locked => {
            super::log::note(&format!(
                "the session state {} is locked by another hook; this prompt is answered as a first one and not recorded",
                crate::library::sessions::path_of(db).display()
            ));
            true
        }
    }
}

/// The context block: a heading saying what these are and how to see one, then one line
/// per item, as one block of memory handed over as data (`memory_block`), within
/// `MAX_CONTEXT`; and the lines it holds. `rows` is not empty.
fn block(rows: &[RelatedRow], reach: &super::reach::Reach) -> (String, Vec<String>) {
    let lines: Vec<String> = rows.iter().map(|row| item_line(&row.item, true)).collect();
    let heading = format!(
        "Earlier items from the recall memory that share words with this prompt ({} shows one in full):",
        reach.get()
    );
    let (text, kept) = crate::memory_block::block_within(
        &heading,
        &lines,
        crate::memory_block::MAX_CONTEXT,
        &format!("`{}` finds more", reach.command("search WORDS")),
    );
    (text, lines[..kept].to_vec())
}
