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
//!   (`end`); the session start, the prompt and each capture also start again the
//!   captures that failed (`end::retry`).
//!
//! Each event is one entry of `table`: its name, how its payload is read (`payload`), its
//! handler, and how its answer (`answer::Answer`) is printed, once for every event. This
//! file only picks the entry and dispatches; what the hook tells of itself (problems,
//! notes, the injection log) is `log`.
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
mod answer;
mod command;
mod cost;
pub(crate) mod end;
mod file;
mod log;
mod notice;
mod payload;
mod prompt;
mod reach;
mod recap;
mod start;
pub mod table;

pub use cost::run as start_cost;

use std::io::Write;

use crate::args::{Cli, HookArgs};
use crate::error::{Error, Result};
use crate::settings::Globals;
use answer::Printed;
use table::{Call, Entry};

pub use crate::library::sessions::WAIT;

/// Runs the hook; always exit code 0.
pub fn run(cli: &Cli, a: &HookArgs) -> i32 {
    let began = std::time::Instant::now();
    crate::library::cap_busy_timeout(WAIT);
    log::library(cli.db.clone());
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        log::say(table::WITHOUT, &format!("internal error: {message}"));
    }));
    match std::panic::catch_unwind(|| answer(cli, a)) {
        Ok(Ok(printed)) => {
            if !printed.out.is_empty() {
                let mut out = std::io::stdout().lock();
                if let Err(e) = out
                    .write_all(printed.out.as_bytes())
                    .and_then(|()| out.flush())
                {
                    log::say(table::WITHOUT, &format!("cannot write the context: {e}"));
                } else if printed.context > 0 {
                    log::injected(printed.context, &printed.items, began.elapsed());
                }
            }
        }
        Ok(Err((without, e))) => log::say(without, &e.message),
        // The panic hook has said it.
        Err(_) => {}
    }
    0
}

/// What `recall hook` prints for `payload` (the hook's JSON) at `SessionStart`, a
/// `UserPromptSubmit` answered as the session's first prompt, or a tool's event, from the
/// same code; other events print nothing here. Nothing is recorded: the payload's session
/// is set aside, so no session state is read or written, a failure notice is shown as the
/// next start shows it and left for it, and no capture is started. `recall ui` shows the
/// agent's view with it.
pub fn context(g: &Globals, a: &HookArgs, payload: &str) -> Result<String> {
    let (entry, mut p) = table::parse(payload)?;
    p.session = None;
    let call = Call {
        cli: None,
        g,
        a,
        p: &p,
    };
    notice::looking(|| (entry.answer)(&call)).map(|answer| answer.printed(&p.name, entry.shown).out)
}

/// A usage error of `recall hook` (a mistake in the agent's settings) is one line and
/// exit 0, like every other problem of the hook.
pub fn usage_error(message: &str) -> i32 {
    log::say(table::WITHOUT, message);
    0
}

/// What to print for the event, or the problem and what the agent goes on without.
fn answer(cli: &Cli, a: &HookArgs) -> std::result::Result<Printed, (&'static str, Error)> {
    let (entry, p) = payload::read()
        .and_then(|text| table::parse(&text))
        .map_err(|e| (table::WITHOUT, e))?;
    log::event(&p.name, p.session.clone());
    respond(cli, a, entry, &p).map_err(|e| (entry.without, e))
}

fn respond(cli: &Cli, a: &HookArgs, entry: &Entry, p: &payload::Payload) -> Result<Printed> {
    let g = Globals::resolve(cli)?;
    // The library the hook opened, for the injection log.
    log::library(g.db.clone());
    let answer = (entry.answer)(&Call {
        cli: Some(cli),
        g: &g,
        a,
        p,
    });
    if entry.retries {
        end::retry(cli, &g, None);
    }
    Ok(answer?.printed(&p.name, entry.shown))
}
