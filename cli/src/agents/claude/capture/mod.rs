//! Claude Code transcripts (`~/.claude/projects/<folder>/<session id>.jsonl`): one JSON
//! record a line, `type` one of `user`, `assistant`, `summary`, `system` and records
//! of the program's own (progress, snapshots); a message's `content` is text or a list
//! of blocks (`text`, `tool_use`, `tool_result`, `thinking`, `image`). Version 2.1 adds
//! `custom-title` (the person's `/rename`), `ai-title` (the program's title of the
//! session), `agent-name`, `last-prompt`, `permission-mode`, `attachment`, `pr-link`.
pub mod folders;

use std::path::Path;

use serde_json::Value;

use crate::capture::lines::Lines;
use crate::capture::{
    content_text, noise, person_text, shown_input, time_of, Agent, Event, Record, Session,
};

pub use crate::agents::claude::KNOWN_OTHER;

/// Claude Code's part of capture.
pub static PART: crate::capture::AgentPart = crate::capture::AgentPart {
    read: read_file,
    project_folder: folders::project_folder,
    source: |setting| &setting.claude_source,
};
/// The model name Claude Code gives the turns it writes itself (API errors, time-outs).
const SYNTHETIC: &str = "<synthetic>";
/// The first words of the prompt with which a compacted conversation goes on.
const CONTINUED: &str = "This session is being continued from a previous conversation";

pub fn read(lines: &Lines) -> Session {
    let mut s = Session {
        agent: Some(Agent::Claude),
        ..Session::default()
    };
    // One API message is written as several records sharing `message.id`, some
    // repeating a block an earlier one had: each block is read once.
    let mut message: (&str, Vec<&Value>) = ("", Vec::new());
    for (_, v) in &lines.values {
        if let Some(branch) = v.get("gitBranch").and_then(Value::as_str) {
            if !branch.is_empty() && branch != "HEAD" && s.branch.as_deref() != Some(branch) {
                s.branch = Some(branch.to_string());
            }
        }
        if s.id.is_empty() {
            if let Some(id) = v.get("sessionId").and_then(Value::as_str) {
                s.id = id.to_string();
            }
        }
        if s.cwd.is_none() {
            s.cwd = v.get("cwd").and_then(Value::as_str).map(str::to_string);
        }
        let at = time_of(v);
        let sidechain = v.get("isSidechain").and_then(Value::as_bool) == Some(true);
        if let Some(uuid) = v.get("uuid").and_then(Value::as_str) {
            s.uuids.entry(uuid.to_string()).or_insert(s.records.len());
        }
        let mut push = |event: Event| {
            s.records.push(Record {
                at,
                event,
                sidechain,
            })
        };
        match v.get("type").and_then(Value::as_str) {
            // A summary titles the session holding its `leafUuid`, often another file's
            // (`titles`): kept apart from this file's records.
            Some("summary") => match v.get("summary").and_then(Value::as_str) {
                Some(text) => {
                    let leaf = v
                        .get("leafUuid")
                        .and_then(Value::as_str)
                        .map(str::to_string);
                    s.summaries.push((leaf, text.to_string()))
                }
                None => s.skip("summary without text"),
            },
            Some("system") => {
                if v.get("subtype").and_then(Value::as_str) == Some("compact_boundary") {
                    push(Event::Compaction);
                }
            }
            Some("custom-title") => {
                s.custom_title = title_field(v, "customTitle").or(s.custom_title.take())
            }
            Some("ai-title") => s.ai_title = title_field(v, "aiTitle").or(s.ai_title.take()),
            Some(role @ ("user" | "assistant")) => {
                let meta = v.get("isMeta").and_then(Value::as_bool) == Some(true);
                let compact = v.get("isCompactSummary").and_then(Value::as_bool) == Some(true);
                let msg = v.get("message");
                let content = msg.and_then(|m| m.get("content"));
                let synthetic =
                    msg.and_then(|m| m.get("model")).and_then(Value::as_str) == Some(SYNTHETIC);
                let id = msg.and_then(|m| m.get("id")).and_then(Value::as_str);
                match id {
                    Some(id) if id == message.0 => {}
                    Some(id) => message = (id, Vec::new()),
                    None => message = ("", Vec::new()),
                }
                let mut events = Vec::new();
                let mut unknown = Vec::new();
                match content {
                    Some(Value::String(text)) => events.push(text_event(role, text)),
                    Some(Value::Array(blocks)) => {
                        for b in blocks {
                            if id.is_some() {
                                if message.1.contains(&b) {
                                    continue;
                                }
                                message.1.push(b);
                            }
                            match block(role, b) {
                                Ok(Some(e)) => events.push(e),
                                Ok(None) => {}
                                Err(kind) => unknown.push(kind),
                            }
                        }
                    }
                    _ => unknown.push("message without content".to_string()),
                }
                for kind in unknown {
                    s.skip(&kind);
                }
                let starts_continued = matches!(events.first(),
                    Some(Event::Prompt(t) | Event::Note(t)) if t.trim_start().starts_with(CONTINUED));
                let mut push = |event: Event| {
                    s.records.push(Record {
                        at,
                        event,
                        sidechain,
                    })
                };
                if compact || starts_continued {
                    // The recap that opens a compacted conversation: a boundary, not a
                    // prompt, and the summary of the segment it recaps.
                    push(Event::Compaction);
                    let text = events.into_iter().find_map(|e| match e {
                        Event::Prompt(t) | Event::Note(t) => Some(t),
                        _ => None,
                    });
                    push(Event::Recap(recap_text(&text.unwrap_or_default())));
                    continue;
                }
                for e in events {
                    push(match e {
                        Event::Prompt(t) if meta => Event::Note(t),
                        // An API error or a time-out the program wrote as the agent's turn.
                        Event::Answer(t) if synthetic => Event::Note(t),
                        e => e,
                    });
                }
            }
            Some(other) if KNOWN_OTHER.contains(&other) => {}
            Some(other) if v.get("message").is_none() => {
                *s.program_records.entry(other.to_string()).or_default() += 1
            }
            Some(other) => s.skip(&format!("type:{other}")),
            None => s.skip("record without type"),
        }
    }
    s
}

fn title_field(v: &Value, key: &str) -> Option<String> {
    v.get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
}

/// The recap without the program's framing around it: from its summary on.
fn recap_text(text: &str) -> String {
    let t = text.trim();
    let body = t
        .find("Summary:")
        .map(|i| &t[i + "Summary:".len()..])
        .unwrap_or(t);
    // The closing instruction to go on is the program's, not the recap's.
    let body = body
        .find("Please continue the conversation from where we left")
        .map(|i| &body[..i])
        .unwrap_or(body);
    body.trim().to_string()
}

/// A transcript file's session (`agents::claude`'s reader): its records, under the id
/// the file is named by where its records carry another.
pub fn read_file(path: &Path, lines: &Lines) -> Session {
    let mut session = read(lines);
    let own = crate::capture::stem(path);
    if session.id.is_empty() || own == session.id {
        return session;
    }
    let named = |v: &Value| v.get("sessionId").and_then(|i| i.as_str()) == Some(&own);
    if !own.starts_with("agent-") && lines.values.iter().any(|(_, v)| named(v)) {
        // A resumed session of version 1.0 opens with records copied under the earlier
        // session's id, then writes its own: the file's name.
        session.id = own;
    } else {
        // A sub-agent's transcript carries its parent's session id.
        sub_agent(path, &mut session);
        session.id = format!("{}/{}", session.id, own);
    }
    session
}

/// What a sub-agent's own file says of it: the compaction helper
/// (`agent-acompact-*`) is a helper call; its task is the `description` of its
/// `.meta.json` (2.1), else of the parent's Task call whose prompt it was given (2.0,
/// `agent-<id>.jsonl` beside the parent's transcript).
pub fn sub_agent(path: &Path, s: &mut Session) {
    let name = path
        .file_stem()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    if name.starts_with("agent-acompact") {
        s.helper = Some("compaction call");
        return;
    }
    // A side question (`/btw`, 2.1) replays the parent's conversation to answer one
    // aside without tools: a copy of the session, not work of its own.
    if name.starts_with("agent-aside_question") {
        s.helper = Some("side question");
        return;
    }
    let meta = path.with_extension("meta.json");
    let described = std::fs::read(&meta)
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
        .and_then(|v| title_field(&v, "description"));
    if described.is_some() {
        s.task = described;
        return;
    }
    let Some(first) = s.records.iter().find_map(|r| match &r.event {
        Event::Prompt(t) => Some(t.trim().to_string()),
        _ => None,
    }) else {
        return;
    };
    if noise::helper_prompt(&first).is_some() {
        return;
    }
    let dir = path.parent();
    let parents = [
        dir.map(|d| d.join(format!("{}.jsonl", s.id))),
        dir.and_then(Path::parent)
            .and_then(Path::parent)
            .map(|d| d.join(format!("{}.jsonl", s.id))),
    ];
    for parent in parents.into_iter().flatten() {
        if let Some(d) = task_description(&parent, &first) {
            s.task = Some(d);
            return;
        }
    }
}

/// The `description` of the Task (or Agent) call in `parent` whose prompt is `prompt`.
fn task_description(parent: &Path, prompt: &str) -> Option<String> {
    let text = std::fs::read_to_string(parent).ok()?;
    text.lines()
        // Only the lines that can hold such a call are parsed.
        .filter(|l| {
            l.contains("\"description\"") && l.contains("\"prompt\"") && l.contains("tool_use")
        })
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find_map(|v| {
            let blocks = v.get("message")?.get("content")?.as_array()?.clone();
            blocks.into_iter().find_map(|b| {
                let input = b.get("input")?;
                let given = input.get("prompt")?.as_str()?;
                (given.trim() == prompt)
                    .then(|| title_field(input, "description"))
                    .flatten()
            })
        })
}

fn text_event(role: &str, text: &str) -> Event {
    if role == "user" {
        person_text(text)
    } else {
        Event::Answer(text.to_string())
    }
}

/// One block of a message: an event, nothing (thinking, images), or the kind of an
/// unknown block.
fn block(role: &str, b: &Value) -> Result<Option<Event>, String> {
    let text = |k: &str| b.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    match b.get("type").and_then(Value::as_str) {
        Some("text") => Ok(Some(text_event(role, &text("text")))),
        Some("tool_use" | "server_tool_use") => {
            let input = b.get("input").cloned().unwrap_or(Value::Null);
            let field = |k: &str| input.get(k).and_then(Value::as_str).map(str::to_string);
            let name = text("name");
            let command = match name.as_str() {
                "Bash" | "PowerShell" => field("command"),
                _ => None,
            };
            let files = match name.as_str() {
                "Write" | "Edit" | "MultiEdit" => field("file_path").into_iter().collect(),
                "NotebookEdit" => field("notebook_path").into_iter().collect(),
                _ => Vec::new(),
            };
            Ok(Some(Event::ToolCall {
                name,
                input: shown_input(&input),
                command,
                files,
                id: b.get("id").and_then(Value::as_str).map(str::to_string),
            }))
        }
        Some("tool_result") => {
            let text = content_text(b.get("content"));
            Ok(Some(Event::ToolResult {
                exit: crate::capture::errors::claude_exit(&text),
                text,
                error: b.get("is_error").and_then(Value::as_bool) == Some(true),
                id: b
                    .get("tool_use_id")
                    .and_then(Value::as_str)
                    .map(str::to_string),
            }))
        }
        Some("thinking" | "redacted_thinking" | "image" | "document") => Ok(None),
        Some(other) => Err(format!("block:{other}")),
        None => Err("block without type".to_string()),
    }
}
