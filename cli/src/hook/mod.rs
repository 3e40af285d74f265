//! `recall hook`: one hook command for a coding agent's whole session (Claude Code, Codex
//! CLI), driven by the event name of the hook's JSON (`hook_event_name`):
//!
//! - `SessionStart`: the newest items of the working folder's project and one line on how
//!   to use the memory (`start`);
//! - `UserPromptSubmit`: the items `related` finds for the session's first prompt, nothing
//!   for later ones (`prompt`, with the session state of `library::sessions`);
//! - `PostToolUse` of a file tool (Claude Code's `Read`, `Edit`, `MultiEdit`, `Write`,
//!   `NotebookEdit`; Codex's `apply_patch`), and `PreToolUse` of one that edits: the
//!   earlier items that edited or named the file, once a session for each file, whichever
//!   event comes first (`file`);
//! - `PreToolUse` of a shell tool (Claude Code's `Bash`, Codex's shell): the earlier
//!   sessions that ran the same command and how it went; `PostToolUseFailure` of one
//!   (Codex: a `PostToolUse` whose output reads as a failure): the earlier sessions that
//!   met the same error line, and the one that got the command working (`command`);
//! - the events of `[hook] capture_on` (`SessionEnd`, `Stop`, `PreCompact`): `recall
//!   capture` of the session's transcript, detached, so that the hook returns at once
//!   (`end`); every event also starts again the captures that failed (`end::retry`).
//!
//! The hook waits for a lock (of the library, of the session state) at most `WAIT`,
//! whatever `busy_timeout_ms` says, so that it answers well within the agents' hook
//! timeouts (Claude Code's is 60 s by default).
//!
//! It never fails the agent: any problem (malformed JSON, no library, a bad
//! configuration) is one line on stderr and exit 0. Claude Code and Codex block a prompt
//! on exit 2, the code of every other recall error. The agents hide that line, so each
//! problem is also appended to the failure log beside the library (`status::log`), which
//! `recall status` and the next session start (`notice`) read.
mod command;
mod cost;
pub(crate) mod end;
mod file;
mod masked;
mod notice;
mod payload;
mod prompt;
mod reach;
mod recap;
mod start;

pub use cost::run as start_cost;

use std::io::Write;

use crate::args::{Cli, HookArgs};
use crate::error::Result;
use crate::settings::Globals;
use crate::text::field;
use payload::{Event, Payload};

pub use crate::library::sessions::WAIT;

/// What the failure log needs to know of this hook: the library, the event, the session.
static SEEN: std::sync::Mutex<(Option<std::path::PathBuf>, Option<String>, Option<String>)> =
    std::sync::Mutex::new((None, None, None));

/// Appends a problem to the failure log beside the library the hook was given (`--db`,
/// else `RECALL_DB`); without a library, nothing is logged.
fn log(message: &str) {
    let (library, event, session) = SEEN.lock().map(|s| s.clone()).unwrap_or_default();
    let library = library.or_else(|| {
        std::env::var_os("RECALL_DB")
            .filter(|v| !v.is_empty())
            .map(Into::into)
    });
    if let Some(library) = library {
        let event = event.unwrap_or_else(|| crate::status::log::HOOK.to_string());
        crate::status::log::append(&library, &event, session.as_deref(), message);
    }
}

/// What an event gives: what is printed, the characters of the context the agent is
/// given in it (0: none, as for `--json`, which is for scripts), and the items that
/// context lists.
pub(crate) struct Said {
    out: String,
    context: usize,
    items: Vec<i64>,
}

impl Said {
    fn nothing() -> Said {
        Said::printed(String::new())
    }

    /// Printed for a script or the agent's log, not given as context.
    fn printed(out: String) -> Said {
        Said {
            out,
            context: 0,
            items: Vec::new(),
        }
    }

    fn json(doc: &serde_json::Value) -> Said {
        Said::printed(format!(
            "{}\n",
            serde_json::to_string_pretty(doc).unwrap_or_default()
        ))
    }

    /// `out`, which gives the agent `context`, whose block holds `lines`.
    fn context(out: String, context: &str, lines: &[String]) -> Said {
        Said {
            out,
            context: crate::memory_block::chars(context),
            items: ids_of(lines),
        }
    }
}

/// The ids of the items among a block's lines: each item's line starts `- [ID]`
/// (`item_line`); the lines telling one are indented.
fn ids_of(lines: &[String]) -> Vec<i64> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("- [")?.split_once(']')?.0.parse().ok())
        .collect()
}

/// Runs the hook; always exit code 0.
pub fn run(cli: &Cli, a: &HookArgs) -> i32 {
    let began = std::time::Instant::now();
    crate::library::cap_busy_timeout(WAIT);
    if let Ok(mut seen) = SEEN.lock() {
        seen.0 = cli.db.clone();
    }
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        say(None, &format!("internal error: {message}"));
    }));
    match std::panic::catch_unwind(|| answer(cli, a)) {
        Ok(Ok(said)) => {
            if !said.out.is_empty() {
                let mut out = std::io::stdout().lock();
                if let Err(e) = out
                    .write_all(said.out.as_bytes())
                    .and_then(|()| out.flush())
                {
                    say(None, &format!("cannot write the context: {e}"));
                } else if said.context > 0 {
                    injected(&said, began.elapsed());
                }
            }
        }
        Ok(Err((event, e))) => say(event.as_ref(), &e.message),
        // The panic hook has said it.
        Err(_) => {}
    }
    0
}

/// What `recall hook` prints for `payload` (the hook's JSON) at `SessionStart`, a
/// `UserPromptSubmit` answered as the session's first prompt, or a `PostToolUse` of a
/// file tool, from the same code; other events print nothing here. Nothing is recorded:
/// the payload's session is set aside, so no session state is read or written, a failure
/// notice is shown as the next start shows it and left for it, and no capture is
/// started. `recall ui` shows the agent's view with it.
pub fn context(g: &Globals, a: &HookArgs, payload: &str) -> Result<String> {
    let mut p = Payload::parse(payload)?;
    p.session = None;
    notice::looking(|| match &p.event {
        Event::Start => start::answer(g, a, &p),
        Event::Prompt => prompt::answer(g, a, &p),
        Event::Tool | Event::BeforeTool | Event::Failure => tool(g, a, &p),
        Event::Other(_) => Ok(Said::nothing()),
    })
    .map(|said| said.out)
}

/// Records a context given to the agent in the injection log beside the library (the
/// one the hook opened; none, nothing is logged).
fn injected(said: &Said, took: std::time::Duration) {
    let (library, event, session) = SEEN.lock().map(|s| s.clone()).unwrap_or_default();
    if let (Some(library), Some(event)) = (library, event) {
        crate::status::injections::append(
            &library,
            &event,
            session.as_deref(),
            said.context,
            &said.items,
            u64::try_from(took.as_millis()).unwrap_or(u64::MAX),
        );
    }
}

/// A usage error of `recall hook` (a mistake in the agent's settings) is one line and
/// exit 0, like every other problem of the hook.
pub fn usage_error(message: &str) -> i32 {
    say(None, message);
    0
}

/// A problem, as one line that says what the agent goes on without.
fn say(event: Option<&Event>, message: &str) {
    let without = match event {
        Some(Event::Start) => "the session starts without the recall timeline",
        Some(Event::Prompt) => "the prompt goes on without earlier items",
        Some(Event::Tool) => "the tool's result goes on without the file's memory",
        Some(Event::BeforeTool) => "the tool runs without the memory of what it acts on",
        Some(Event::Failure) => "the failure goes on without earlier sessions that met it",
        Some(Event::Other(_)) => "the session is not captured",
        None => "the agent goes on without recall",
    };
    eprintln!("recall: hook: {}; {without}", field(message));
    log(message);
}

/// A note of something skipped (a locked state, a capture given up), as one line, and
/// logged.
fn note(message: &str) {
    eprintln!("recall: hook: {}", field(message));
    log(message);
}

/// What to print for the event (empty: nothing), or the problem and its event.
fn answer(
    cli: &Cli,
    a: &HookArgs,
) -> std::result::Result<Said, (Option<Event>, crate::error::Error)> {
    let p = Payload::read().map_err(|e| (None, e))?;
    let event = p.event.clone();
    if let Ok(mut seen) = SEEN.lock() {
        seen.1 = Some(event_name(&event));
        seen.2 = p.session.clone();
    }
    respond(cli, a, &p).map_err(|e| (Some(event), e))
}

fn respond(cli: &Cli, a: &HookArgs, p: &Payload) -> Result<Said> {
    let g = Globals::resolve(cli)?;
    if let Ok(mut seen) = SEEN.lock() {
        // The library the hook opened, for the injection log.
        seen.0 = g.db.clone().or(seen.0.take());
    }
    match &p.event {
        Event::Start | Event::Prompt => {
            let answer = match &p.event {
                Event::Start => start::answer(&g, a, p),
                _ => prompt::answer(&g, a, p),
            };
            end::retry(cli, &g, None);
            answer
        }
        Event::Tool | Event::BeforeTool | Event::Failure => tool(&g, a, p),
        Event::Other(name) if g.config.hook.capture_on.contains(name) => {
            end::capture(cli, &g, p).map(Said::printed)
        }
        Event::Other(name) => {
            // The agent's settings send an event this configuration does not capture on:
            // a choice, not a failure, so not logged.
            eprintln!("recall: hook: {}", field(&format!(
                "the event {name} is not one recall hook answers here (SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure, and [hook] capture_on: {}); nothing done",
                g.config.hook.capture_on.join(", ")
            )));
            Ok(Said::nothing())
        }
    }
}

/// A tool's event: a file tool's files, else a shell tool's command.
fn tool(g: &Globals, a: &HookArgs, p: &Payload) -> Result<Said> {
    match p.files.is_empty() && p.command.is_some() {
        true => command::answer(g, a, p),
        false => file::answer(g, a, p),
    }
}

/// The event's name as the agents send it.
fn event_name(event: &Event) -> String {
    match event {
        Event::Start => "SessionStart".to_string(),
        Event::Prompt => "UserPromptSubmit".to_string(),
        Event::Tool => "PostToolUse".to_string(),
        Event::BeforeTool => "PreToolUse".to_string(),
        Event::Failure => "PostToolUseFailure".to_string(),
        Event::Other(name) => name.clone(),
    }
}

/// One item as a line of a block: id, date, title, then its project where asked, its
/// kind and whether it holds in every project; stored text escaped as in every listing
/// (`output::RowText`), so that a title cannot add lines.
fn item_line(item: &crate::query::rows::Listed, with_project: bool) -> String {
    let t = crate::output::RowText::of(item);
    let about: Vec<String> = t
        .project
        .filter(|p| with_project && !p.is_empty())
        .map(|p| format!("project {p}"))
        .into_iter()
        .chain(t.marks)
        .collect();
    let about = match about.is_empty() {
        true => String::new(),
        false => format!(" ({})", about.join(", ")),
    };
    format!("- [{}] {} {}{about}{}\n", t.id, t.date, t.title, t.changed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::rows::Listed;

    #[test]
    fn an_item_line_names_id_date_title_and_project() {
        let item = |id, date: &str, title: &str, project: Option<&str>| Listed {
            id,
            date: date.into(),
            title: title.into(),
            project: project.map(str::to_string),
            source: "agent".into(),
            kind: None,
            global: false,
            changed_since: Vec::new(),
        };
        let shop = item(14, "2024-06-02T10:00:00Z", "Remove analytics", Some("shop"));
        assert_eq!(
            item_line(&shop, true),
            "- [14] 2024-06-02 Remove analytics (project shop)\n"
        );
        assert_eq!(
            item_line(&shop, false),
            "- [14] 2024-06-02 Remove analytics\n"
        );
        let raw = item(3, "2023-01-05T00:00:00Z", "a\nb\u{1b}[31m", None);
        assert_eq!(item_line(&raw, true), "- [3] 2023-01-05 a\\nb\\u{1b}[31m\n");
    }
}
