//! `recall capture [PATH…]`: agents' session files become items, one per segment, each
//! file in its own transaction (docs/capture.md).
use serde_json::json;

use super::Globals;
use crate::agents::Agent;
use crate::args::CaptureArgs;
use crate::capture::discover;
use crate::capture::items::Rules;
use crate::capture::run::{capture, Counts, Options};
use crate::config::table::SUMMARIZE_COMMAND;
use crate::error::Result;
use crate::items::options::WriteOptions;
use crate::library::sessions::{State, HOOK_SESSION};
use crate::library::{self, Mode};
use crate::output;

pub fn run(g: &Globals, a: &CaptureArgs) -> Result<i32> {
    let result = capture_all(g, a);
    // Started by the hook: how it ended goes into the session state, where the hook's
    // next event finds a failure and starts the capture again (`recall hook`), and a
    // failure into the failure log too.
    if let (Ok(session), Ok(db)) = (std::env::var(HOOK_SESSION), g.db()) {
        let problem = match &result {
            Err(e) => Some(e.message.clone()),
            // The hook hands over one file: a problem is that it is no session.
            Ok(0) => None,
            Ok(_) => Some("the transcript is not a session file that capture reads".to_string()),
        };
        State::capture_ended(db, &session, problem.as_deref(), Some(std::process::id()));
        if let Some(problem) = &problem {
            crate::status::log::append(db, crate::status::log::CAPTURE, Some(&session), problem);
        }
    }
    result
}

fn capture_all(g: &Globals, a: &CaptureArgs) -> Result<i32> {
    let config = &g.config.capture;
    let summarizer = match &a.summarize_cmd {
        Some(c) => Some(SUMMARIZE_COMMAND.flag_text(c)?),
        None => config.summarize_command.clone(),
    };
    let options = Options {
        rules: Rules::of(&g.config),
        dry_run: a.dry_run,
        reread: a.reread,
        summarizer: summarizer.map(|c| (c, config.summarize_timeout_ms)),
        // No access globs: capture writes its own sources (`WriteOptions::capture`).
        write: WriteOptions::capture(
            a.redact.on(g.config.redact.enabled),
            crate::item::known_kinds(g.config.kinds.extra.as_deref()),
        ),
    };
    let roots = if a.paths.is_empty() {
        let found = discover::default_roots();
        if found.is_empty() {
            let shown: Vec<&str> = Agent::ALL.iter().map(|a| a.sessions_shown()).collect();
            eprintln!(
                "recall: capture: no session folder found: neither {} exists; give the path of the session files",
                shown.join(" nor ")
            );
        }
        found
    } else {
        a.paths.clone()
    };
    let (files, problems) = discover::files(&roots);
    for p in &problems {
        eprintln!("recall: capture: {}", crate::text::field(p));
    }
    let mut lib = library::open(g.db()?, Mode::Write, g.tokenizer.as_deref())?;
    let total: u64 = files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    let bar = output::progress_bytes("capturing", total, g.json);
    let c = capture(
        &mut lib.conn,
        &files,
        &options,
        &mut |p| bar.suspend(|| eprintln!("recall: capture: {}; skipped", crate::text::field(p))),
        &mut |bytes| bar.inc(bytes),
    )?;
    bar.finish_and_clear();
    let problems = problems.len() as u64 + c.files_not_sessions;
    if g.json {
        let mut doc = serde_json::to_value(&c).unwrap_or_default();
        doc["command"] = json!("capture");
        doc["dry_run"] = json!(a.dry_run);
        doc["problems"] = json!(problems);
        output::json(&doc);
    } else {
        crate::output::say!("{}", report(&c, a.dry_run));
    }
    // As ripgrep does with what it cannot read: everything else is done, and the exit
    // code says that something was reported and skipped (docs/capture.md#bad-input).
    Ok(if problems == 0 { 0 } else { 1 })
}

/// The final line: what was read, what was written, what was left out.
fn report(c: &Counts, dry_run: bool) -> String {
    let list = |pairs: Vec<(String, u64)>| {
        if pairs.is_empty() {
            "none".to_string()
        } else {
            pairs
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    let skipped = list(c.skipped.iter().map(|(k, n)| (k.clone(), *n)).collect());
    let redacted = list(
        c.redacted
            .iter()
            .map(|(k, n)| (k.to_string(), n as u64))
            .collect(),
    );
    let mut line = format!(
        "{}{} files read ({} unchanged since the last capture, {} not sessions, {} without conversation), {} sessions, {} segments: {} items added, {} replaced, {} unchanged, {} forgotten and left out; records skipped: {skipped}; secrets redacted: {redacted}",
        if dry_run { "dry run, nothing written: " } else { "" },
        c.files,
        c.files_unchanged,
        c.files_not_sessions,
        c.files_without_conversation,
        c.sessions,
        c.segments,
        c.added,
        c.replaced,
        c.unchanged,
        c.forgotten,
    );
    if c.summarized + c.summarize_failed > 0 {
        line.push_str(&format!(
            "; summarised {}, kept literal after the summariser failed {}",
            c.summarized, c.summarize_failed
        ));
        if let Some(p) = &c.summarize_problem {
            line.push_str(&format!(" (first: {})", crate::text::field(p)));
        }
    }
    line
}

#[cfg(test)]
mod tests {
    #[test]
    fn agents_have_their_default_sources() {
        // Each agent's source setting defaults to the agent's name.
        let rules = crate::capture::items::Rules::of(&crate::config::Config::default());
        for &agent in crate::agents::Agent::ALL {
            assert_eq!(rules.source(agent), agent.name());
        }
    }
}
