//! The one table of the hook's events, as `serve/table.rs` is of the MCP tools and
//! `config/table.rs` of the settings: each event's name, spelled here only (Claude Code
//! and Codex spell them alike), how its payload is read, the handler that answers it, how
//! its answer reaches the agent, and what the agent goes on without when it fails. The
//! hook (`mod.rs`) picks an event's entry by its `hook_event_name` and dispatches by it.
use super::answer::{Answer, Shown};
use super::payload::{Event, Kind, Payload, Reads, ToolSaid};
use super::{command, end, file, prompt, start};
use crate::args::{Cli, HookArgs};
use crate::config::hook_events::CAPTURING;
use crate::error::Result;
use crate::settings::Globals;
use crate::text::field;

/// What a handler is given.
pub struct Call<'a> {
    /// The command line the hook runs under; None when only looking at what it would
    /// print (`hook::context`, which records nothing and starts no capture).
    pub cli: Option<&'a Cli>,
    pub g: &'a Globals,
    pub a: &'a HookArgs,
    pub p: &'a Payload,
}

/// An event.
pub struct Entry {
    pub event: Event,
    /// Its names in `hook_event_name`.
    pub names: &'static [&'static str],
    /// What its payload holds besides the common fields.
    pub reads: Reads,
    pub answer: fn(&Call<'_>) -> Result<Answer>,
    /// How its context reaches the agent.
    pub shown: Shown,
    /// What the agent goes on without when the hook fails at it.
    pub without: &'static str,
    /// Whether it also starts again the captures of other sessions that failed
    /// (`end::retry`; a capture event does so itself).
    pub retries: bool,
}

/// What the agent goes on without when the hook fails before it knows the event.
pub const WITHOUT: &str = "the agent goes on without recall";

/// Every event, in the order the hook's note on an event it does not answer names them.
pub static EVENTS: [&Entry; 7] = [
    &START,
    &PROMPT,
    &BEFORE_TOOL,
    &TOOL,
    &FAILURE,
    &CAPTURE,
    &UNANSWERED,
];

/// A tool's files, its command line and what it said where it is text.
const TOOL_READS: Reads = Reads {
    prompt: false,
    files: true,
    command: true,
    said: Some(ToolSaid::Response),
};

pub static START: Entry = Entry {
    event: Event::Start,
    names: &["SessionStart"],
    reads: Reads::COMMON,
    answer: |c| start::answer(c.g, c.a, c.p),
    shown: Shown::Additional,
    without: "the session starts without the recall timeline",
    retries: true,
};

/// A payload without an event's name is this one's, as the hook began.
pub static PROMPT: Entry = Entry {
    event: Event::Prompt,
    names: &["UserPromptSubmit"],
    reads: Reads {
        prompt: true,
        ..Reads::COMMON
    },
    answer: |c| prompt::answer(c.g, c.a, c.p),
    shown: Shown::Plain,
    without: "the prompt goes on without earlier items",
    retries: true,
};

pub static BEFORE_TOOL: Entry = Entry {
    event: Event::BeforeTool,
    names: &["PreToolUse"],
    reads: Reads {
        said: None,
        ..TOOL_READS
    },
    answer: tool,
    shown: Shown::Additional,
    without: "the tool runs without the memory of what it acts on",
    retries: false,
};

pub static TOOL: Entry = Entry {
    event: Event::Tool,
    names: &["PostToolUse"],
    reads: TOOL_READS,
    answer: tool,
    shown: Shown::Additional,
    without: "the tool's result goes on without the file's memory",
    retries: false,
};

/// Claude Code's; Codex tells a failure by a `PostToolUse` whose output reads as one.
pub static FAILURE: Entry = Entry {
    event: Event::Failure,
    names: &["PostToolUseFailure"],
    reads: Reads {
        files: false,
        said: Some(ToolSaid::Error),
        ..TOOL_READS
    },
    answer: tool,
    shown: Shown::Additional,
    without: "the failure goes on without earlier sessions that met it",
    retries: false,
};

/// The events `[hook] capture_on` may name; one it does not name is not answered.
pub static CAPTURE: Entry = Entry {
    event: Event::Capture,
    names: &CAPTURING,
    reads: Reads::COMMON,
    answer: |c| match c.cli {
        Some(cli) if c.g.config.hook.capture_on.contains(&c.p.name) => end::capture(cli, c.g, c.p),
        _ => unanswered(c),
    },
    shown: Shown::Never,
    without: "the session is not captured",
    retries: false,
};

/// Any other event.
pub static UNANSWERED: Entry = Entry {
    event: Event::Unanswered,
    names: &[],
    reads: Reads::COMMON,
    answer: unanswered,
    shown: Shown::Never,
    without: "the session is not captured",
    retries: false,
};

/// The entry of the event of this name (None: a payload without one).
pub fn entry(name: Option<&str>) -> &'static Entry {
    match name {
        None => &PROMPT,
        Some(name) => EVENTS
            .iter()
            .copied()
            .find(|e| e.names.contains(&name))
            .unwrap_or(&UNANSWERED),
    }
}

/// The hook's JSON, read as its event's entry says, and that entry.
pub fn parse(text: &str) -> Result<(&'static Entry, Payload)> {
    let mut found = &UNANSWERED;
    let p = Payload::parse(text, |name| {
        found = entry(name);
        Kind {
            event: found.event,
            name: name
                .or(found.names.first().copied())
                .unwrap_or_default()
                .to_string(),
            reads: found.reads,
        }
    })?;
    Ok((found, p))
}

/// A tool's event: a file tool's files, else a shell tool's command.
fn tool(c: &Call<'_>) -> Result<Answer> {
    match c.p.files.is_empty() && c.p.command.is_some() {
        true => command::answer(c.g, c.a, c.p),
        false => file::answer(c.g, c.a, c.p),
    }
}

/// An event the agent's settings send and this configuration does not answer: a choice,
/// not a failure, so one line and not logged; nothing said when only looking.
fn unanswered(c: &Call<'_>) -> Result<Answer> {
    if c.cli.is_some() {
        let answered: Vec<&str> = EVENTS
            .iter()
            .filter(|e| e.event != Event::Capture)
            .flat_map(|e| e.names.iter().copied())
            .collect();
        eprintln!(
            "recall: hook: {}",
            field(&format!(
                "the event {} is not one recall hook answers here ({}, and [hook] capture_on: {}); nothing done",
                c.p.name,
                answered.join(", "),
                c.g.config.hook.capture_on.join(", ")
            ))
        );
    }
    Ok(Answer::Nothing)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload(json: &str) -> Result<Payload> {
        parse(json).map(|(_, p)| p)
    }

    #[test]
    fn each_agent_s_payload_reads() {
        // Claude Code's SessionStart, Codex's Stop (with its turn id and a null transcript).
        let p = payload(
            r#"{"session_id": "abc", "transcript_path": "/t.jsonl", "cwd": "/w/shop",
                "hook_event_name": "SessionStart", "source": "resume"}"#,
        )
        .unwrap();
        assert_eq!(p.event, Event::Start);
        assert_eq!(p.source.as_deref(), Some("resume"));
        assert_eq!(p.cwd.as_deref(), Some("/w/shop"));
        let p = payload(
            r#"{"session_id": "019d", "turn_id": "t1", "transcript_path": null, "cwd": "/w",
                "hook_event_name": "Stop", "model": "gpt-5", "permission_mode": "default",
                "stop_hook_active": false, "last_assistant_message": "done"}"#,
        )
        .unwrap();
        assert_eq!((p.event, p.name.as_str()), (Event::Capture, "Stop"));
        assert_eq!(p.transcript, None);
        assert_eq!(p.session.as_deref(), Some("019d"));
    }

    #[test]
    fn a_file_tool_names_its_files() {
        let files = |json: &str| payload(json).unwrap().files;
        assert_eq!(
            files(
                r#"{"session_id": "s", "cwd": "/w/shop", "hook_event_name": "PostToolUse",
                    "tool_name": "Edit", "tool_input": {"file_path": "/w/shop/src/tax.rs",
                    "old_string": "a", "new_string": "b"}, "tool_response": {"filePath": "/w/shop/src/tax.rs"},
                    "tool_use_id": "toolu_01"}"#
            ),
            vec!["/w/shop/src/tax.rs"]
        );
        assert_eq!(
            files(
                r#"{"hook_event_name": "PostToolUse", "tool_name": "NotebookEdit",
                    "tool_input": {"notebook_path": "/w/a.ipynb", "new_source": "x"}}"#
            ),
            vec!["/w/a.ipynb"]
        );
        let patch = "*** Begin Patch\\n*** Update File: src/tax.rs\\n@@\\n-a\\n+b\\n*** Add File: src/new.rs\\n+x\\n*** Update File: src/tax.rs\\n*** Delete File: old.rs\\n*** End Patch";
        assert_eq!(
            files(&format!(
                r#"{{"hook_event_name": "PostToolUse", "tool_name": "apply_patch", "turn_id": "t",
                    "tool_input": {{"command": "{patch}"}}}}"#
            )),
            vec!["src/tax.rs", "src/new.rs"]
        );
        // Another tool, a file tool without its path, a path of the wrong type: none.
        for json in [
            r#"{"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "cat a.rs"}}"#,
            r#"{"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_input": {}}"#,
            r#"{"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_input": {"file_path": 7}}"#,
            r#"{"hook_event_name": "PostToolUse"}"#,
        ] {
            assert!(files(json).is_empty(), "{json}");
        }
    }

    #[test]
    fn a_prompt_event_needs_its_prompt() {
        let e = payload(r#"{"hook_event_name": "UserPromptSubmit"}"#).unwrap_err();
        assert!(e.message.contains("no \"prompt\" field"), "{}", e.message);
        let e = payload(r#"{"prompt": ["x"]}"#).unwrap_err();
        assert!(e.message.contains("not text"), "{}", e.message);
        let p = payload(r#"{"prompt": "hello", "session_id": 7}"#).unwrap();
        assert_eq!(
            (p.event, p.name.as_str()),
            (Event::Prompt, "UserPromptSubmit")
        );
        assert_eq!(p.session, None);
        assert!(payload("[1]").is_err());
    }

    #[test]
    fn each_name_is_one_entry_s_and_any_other_is_unanswered() {
        let mut seen = std::collections::HashSet::new();
        for e in EVENTS {
            for name in e.names {
                assert!(seen.insert(*name), "{name} in two entries");
                let (found, p) = parse(&format!(
                    r#"{{"hook_event_name": "{name}", "prompt": "p", "session_id": "s"}}"#
                ))
                .unwrap();
                assert!(std::ptr::eq(found, e), "{name}");
                assert_eq!((p.event, p.name.as_str()), (e.event, *name));
            }
        }
        // The capturing events are `[hook] capture_on`'s whole list.
        assert_eq!(CAPTURE.names, CAPTURING);
        for other in ["Notification", "SubagentStop", "sessionstart", "", " Stop"] {
            let (found, p) =
                parse(&serde_json::json!({ "hook_event_name": other }).to_string()).unwrap();
            assert!(std::ptr::eq(found, &UNANSWERED), "{other:?}");
            assert_eq!(p.name, other);
        }
        // A name that is not text is no name: the prompt hook's, as without one.
        let (found, p) = parse(r#"{"hook_event_name": 3, "prompt": "p"}"#).unwrap();
        assert!(std::ptr::eq(found, &PROMPT));
        assert_eq!(p.name, "UserPromptSubmit");
    }

    #[test]
    fn each_event_reads_only_its_own_fields() {
        let tool = serde_json::json!({
            "tool_name": "Bash", "tool_input": {"command": "cargo test"},
            "tool_response": "error: could not compile `shop`", "error": "Exit code 101",
            "prompt": "fix the tests", "cwd": "/w/shop",
        });
        let read = |name: &str| {
            let mut json = tool.clone();
            json["hook_event_name"] = name.into();
            payload(&json.to_string()).unwrap()
        };
        let post = read("PostToolUse");
        assert_eq!(post.command.as_deref(), Some("cargo test"));
        assert_eq!(
            post.said.as_deref(),
            Some("error: could not compile `shop`")
        );
        let before = read("PreToolUse");
        assert_eq!(before.command.as_deref(), Some("cargo test"));
        assert_eq!(before.said, None);
        let failed = read("PostToolUseFailure");
        assert_eq!(failed.command.as_deref(), Some("cargo test"));
        assert_eq!(failed.said.as_deref(), Some("Exit code 101"));
        for name in ["SessionStart", "Stop", "Notification"] {
            let p = read(name);
            assert_eq!((p.command, p.said, p.prompt), (None, None, String::new()));
            assert_eq!(p.cwd.as_deref(), Some("/w/shop"), "{name}");
        }
        assert_eq!(read("UserPromptSubmit").prompt, "fix the tests");
        // A file tool's files after it and before it; not at its failure.
        let edit = serde_json::json!({
            "tool_name": "Write", "tool_input": {"file_path": "/w/shop/a.rs", "content": "x"},
        });
        for (name, files) in [
            ("PostToolUse", vec!["/w/shop/a.rs"]),
            ("PreToolUse", vec!["/w/shop/a.rs"]),
            ("PostToolUseFailure", vec![]),
            ("SessionEnd", vec![]),
        ] {
            let mut json = edit.clone();
            json["hook_event_name"] = name.into();
            assert_eq!(payload(&json.to_string()).unwrap().files, files, "{name}");
        }
    }
}
