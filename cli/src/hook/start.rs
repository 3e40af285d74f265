//! `SessionStart`: what an agent needs to carry on in the working folder's project. The
//! project's most recent session told in a few lines (its request, its recap, the files
//! it changed, what it left to do where the recap says), then the next newest items one
//! line each, as `timeline` lists them; trivial items (a greeting, a slash command, a
//! bare error) never; the whole within `[hook] start_budget` characters. Then one line on
//! how to use the memory; only that line when the project has no items. A folder that
//! maps to no project gets nothing, unless `[hook] start_without_project`, which shows
//! the library's newest items. A resumed or compacted session had its first prompt
//! already (`state`). Printed in the form both agents add to the context at session
//! start: `hookSpecificOutput.additionalContext`.
use serde_json::json;

use super::answer::{fields, item_line, Answer};
use super::payload::{Event, Payload};
use super::recap;
use crate::args::{self, HookArgs};
use crate::capture::errors::is_error_line;
use crate::capture::noise;
use crate::error::Result;
use crate::library::sessions::{Outcome, State};
use crate::memory_block::{chars, MAX_CONTEXT};
use crate::project::project_of;
use crate::query;
use crate::query::changed::{self, Here};
use crate::query::rows::{ItemRow, Listed};
use crate::settings::{self, Globals};
use crate::text::field;
use recall_core::defaults::LIST_MAX_LIMIT;

pub fn answer(g: &Globals, a: &HookArgs, p: &Payload) -> Result<Answer> {
    let db = g.db()?;
    if let (Some(session), Some("resume" | "compact")) = (&p.session, p.source.as_deref()) {
        if State::resumed(db, session) == Outcome::Locked {
            super::log::note(&format!(
                "the session state {} is locked by another hook; the resumed session is not recorded, so its next prompt is answered as a first one",
                crate::library::sessions::path_of(db).display()
            ));
        }
    }
    let project = a.project.clone().or_else(|| {
        p.cwd
            .as_deref()
            .and_then(|cwd| project_of(cwd, &g.config.projects))
    });
    if project.is_none() && !g.config.hook.start_without_project {
        return Ok(Answer::Nothing);
    }
    // Still true? The items' files changed since, as seen from the working folder.
    let here = Here::at(p.cwd.as_deref(), &g.config.projects);
    let (rows, newest) = newest_items(g, project.as_deref(), None, &a.access, here.as_ref())?;
    if g.json {
        return Ok(Answer::Json(fields(json!({
            "project": project, "results": query::to_json(&rows)?,
        }))));
    }
    // The notice and the usage line after the block are recall's; the whole stays within
    // `MAX_CONTEXT`.
    let reach = super::reach::Reach::of(g, p);
    let mut after: String = super::notice::failure_notice(db, &reach.command("status"))
        .map(|line| line + "\n")
        .unwrap_or_default();
    after.push_str(&reach.usage());
    let (mut text, shown) = block(
        g,
        project.as_deref(),
        p.cwd.as_deref(),
        &rows,
        newest.as_ref(),
        MAX_CONTEXT.saturating_sub(chars(&after)),
        &reach,
    );
    text.push_str(&after);
    Ok(Answer::Context { text, lines: shown })
}

/// What a session started in `project` just after `until` is given, as an agent wired
/// without the MCP tools reads it: the block and the usage line (the failure notice,
/// about capture, aside). What `recall eval --start-cost` measures.
pub fn context_at(g: &Globals, project: &str, until: &str) -> Result<String> {
    let (rows, newest) = newest_items(
        g,
        Some(project),
        Some(until),
        &args::AccessArgs::default(),
        None,
    )?;
    let usage = usage_line(g);
    let reach = super::reach::Reach::of(g, &Payload::bare(Event::Start));
    let (mut text, _) = block(
        g,
        Some(project),
        None,
        &rows,
        newest.as_ref(),
        MAX_CONTEXT.saturating_sub(chars(&usage)),
        &reach,
    );
    text.push_str(&usage);
    Ok(text)
}

/// The usage line the start ends with, for an agent wired without the MCP tools.
pub fn usage_line(g: &Globals) -> String {
    super::reach::Reach::of(g, &Payload::bare(Event::Start)).usage()
}

/// The project's newest items (up to `until`, when given) the start lists, and the
/// newest of them in full; each marked with its files changed since, as seen from
/// `here`.
fn newest_items(
    g: &Globals,
    project: Option<&str>,
    until: Option<&str>,
    access: &args::AccessArgs,
    here: Option<&Here>,
) -> Result<(Vec<Listed>, Option<ItemRow>)> {
    let limit = g.config.hook.start_items;
    if limit == 0 {
        return Ok((Vec::new(), None));
    }
    // `timeline --project P --limit N` under the hook's globs, resolved and checked as
    // the command's are; room for the trivial items left out.
    let asked = args::TimelineArgs {
        filters: args::Filters {
            project: project.map(str::to_string),
            until: until.map(str::to_string),
            ..args::Filters::default()
        },
        around: args::AroundArgs::default(),
        kinds: args::KindArgs::default(),
        scope: args::ScopeArgs::default(),
        common: args::Common {
            limit: Some((limit * 3).min(LIST_MAX_LIMIT)),
            access: access.clone(),
            ..args::Common::default()
        },
    };
    let s = settings::Timeline::resolve(g, &asked)?;
    let lib = g.open_for_query()?;
    let listed = query::timeline(&lib, &s, false)?.results;
    let ids: Vec<i64> = listed.iter().map(|r| r.id).collect();
    let full = query::get_many(&lib, &ids, false, &s.allow)?.items;
    // The person's sessions, each once: no sub-agent's item, no title twice.
    let sub_agents = query::sub_agent_items(&lib, &ids)?;
    let mut titles = std::collections::HashSet::new();
    let kept: Vec<(Listed, ItemRow)> = listed
        .into_iter()
        .zip(full)
        .filter(|(_, item)| !trivial(item) && !sub_agents.contains(&item.id))
        .filter(|(_, item)| titles.insert(item.title.trim().to_lowercase()))
        .take(usize::try_from(limit).unwrap_or(0))
        .collect();
    let mut items: Vec<ItemRow> = kept.iter().map(|(_, item)| item.clone()).collect();
    changed::mark_items(here, &mut items);
    let newest = items.first().cloned();
    let rows = kept
        .into_iter()
        .zip(items)
        .map(|((mut l, _), item)| {
            l.changed_since = item.changed_since;
            l
        })
        .collect();
    Ok((rows, newest))
}

/// The memory block: the heading, the newest item told, the older ones a line each,
/// within `[hook] start_budget`, and within `max` characters whatever the budget
/// (`memory_block::block_within`: whole lines, then one naming the timeline that lists
/// the rest); empty when there are no items. Also the lines it holds. The items are
/// memory, handed over as data; the usage line after them is recall's.
fn block(
    g: &Globals,
    project: Option<&str>,
    cwd: Option<&str>,
    rows: &[Listed],
    newest: Option<&ItemRow>,
    max: usize,
    reach: &super::reach::Reach,
) -> (String, Vec<String>) {
    if rows.is_empty() {
        return (String::new(), Vec::new());
    }
    let heading = match project {
        Some(name) => format!(
            "The newest items of project {} in the recall memory, the last one told:",
            crate::text::field(name)
        ),
        None => "The newest items in the recall memory, the last one told:".to_string(),
    };
    let budget = usize::try_from(g.config.hook.start_budget).unwrap_or(0);
    // The working folder's checkout, where a file named without a folder is looked for.
    let top = cwd.and_then(|cwd| {
        crate::project::checkout_of(std::path::Path::new(cwd)).map(std::path::Path::to_path_buf)
    });
    let told = newest
        .map(|item| told(item, project, top.as_deref()))
        .unwrap_or_default();
    let lines = within_budget(&heading, rows, project.is_none(), told, budget);
    let limit = g.config.hook.start_items;
    let timeline = match project {
        Some(name) => format!(
            "timeline --project {} --limit {limit}",
            super::reach::quoted(name)
        ),
        None => format!("timeline --limit {limit}"),
    };
    let (block, kept) = crate::memory_block::block_within(
        &heading,
        &lines,
        max,
        &format!("`{}` lists them", reach.command(&timeline)),
    );
    (block, lines[..kept].to_vec())
}

/// The lines of the block: the newest item's line and the lines telling it, then one line
/// for each older item, while the heading and they fit in `budget` characters. The newest
/// item's own line is always there; a line telling it that does not fit is left out.
fn within_budget(
    heading: &str,
    rows: &[Listed],
    with_project: bool,
    told: Vec<String>,
    budget: usize,
) -> Vec<String> {
    // As the block shows it: a longer line is cut there.
    let size = |line: &str| {
        let shown = crate::memory_block::MAX_LINE + " [cut]".len();
        line.trim_end().chars().count().min(shown) + 1
    };
    let mut used = size(heading);
    let mut lines = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let line = item_line(row, with_project);
        if i > 0 && used + size(&line) > budget {
            break;
        }
        used += size(&line);
        lines.push(line);
        if i == 0 {
            for detail in &told {
                if used + size(detail) <= budget {
                    used += size(detail);
                    lines.push(detail.clone());
                }
            }
        }
    }
    lines
}

/// An item that tells nothing to carry on from: a greeting or a question to the agent
/// about itself, a slash command (`/usage`), a bare error with nothing else said.
fn trivial(item: &ItemRow) -> bool {
    let title = item.title.trim();
    let said_more = |text: &str| {
        let t = text.trim();
        !t.is_empty() && t != title
    };
    noise::small_talk(title)
        || (title.starts_with('/')
            && !title.contains(char::is_whitespace)
            && !said_more(&item.summary))
        || (is_error_line(title) && !said_more(&item.summary) && !said_more(&item.questions))
}

/// The lines that tell the newest item: what was asked (when the title does not say it
/// already), its recap, the files it changed, what it left to do; each cut to one short
/// line, indented under the item's line.
fn told(item: &ItemRow, project: Option<&str>, top: Option<&std::path::Path>) -> Vec<String> {
    let mut lines = Vec::new();
    let mut push = |label: &str, text: &str, max: usize| {
        let one: Vec<&str> = text.split_whitespace().collect();
        let one = one.join(" ");
        if !one.is_empty() {
            lines.push(format!("  {label}: {}\n", field(&cut(&one, max))));
        }
    };
    // A request pasted from a terminal brings the input box's frame along: read as its
    // title is (capture::noise::unframed).
    // The first request that names work of its own ("run it" says nothing here), as the
    // title's is chosen (capture::noise::slight).
    let requests: Vec<String> = item
        .questions
        .lines()
        .map(crate::capture::noise::unframed)
        .filter(|q| !q.is_empty())
        .collect();
    let asked = requests
        .iter()
        .find(|q| !crate::capture::noise::slight(q))
        .or(requests.first())
        .cloned();
    let title = item.title.trim().to_lowercase();
    if let Some(asked) = asked.filter(|q| !title.starts_with(&q.to_lowercase())) {
        push("Asked", &asked, ASKED_CHARS);
    }
    let recap = recap::Recap::of(&item.summary);
    push("Recap", &recap.told, RECAP_CHARS);
    let files = crate::project::item_files(&item.atoms, project, top);
    if !files.is_empty() {
        let shown: Vec<&str> = files.iter().take(FILES_SHOWN).map(String::as_str).collect();
        let more = match files.len().saturating_sub(FILES_SHOWN) {
            0 => String::new(),
            n => format!(" (and {n} more)"),
        };
        push(
            "Files changed",
            &format!("{}{more}", shown.join(", ")),
            RECAP_CHARS,
        );
    }
    if let Some(pending) = &recap.pending {
        push("Left to do", pending, PENDING_CHARS);
    }
    lines
}

/// How much of each part of the newest item is told, in characters.
const ASKED_CHARS: usize = 200;
const RECAP_CHARS: usize = 360;
const PENDING_CHARS: usize = 240;
/// How many of the files it changed are named.
const FILES_SHOWN: usize = 6;

/// `text` cut to `max` characters, with `…` where it was cut.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", text[..at].trim_end()),
        None => text.to_string(),
    }
}
