//! Claude Code transcripts (`~/.claude/projects/<folder>/<session id>.jsonl`): one JSON
//! record a line, `type` one of `user`, `assistant`, `summary`, `system` and records
//! of the program's own (progress, snapshots); a message's `content` is text or a list
//! of blocks (`text`, `tool_use`, `tool_result`, `thinking`, `image`).
use serde_json::Value;

use super::lines::Lines;
use super::{person_text, time_of, Agent, Event, Record, Session};

/// Records of the program's own, read and left out without being counted as unknown.
const KNOWN_OTHER: &[&str] = &["progress", "file-history-snapshot", "queue-operation"];
/// The first words of the prompt with which a compacted conversation goes on.
const CONTINUED: &str = "This session is being continued from a previous conversation";

pub fn read(lines: &Lines) -> Session {
    let mut s = Session {
        agent: Some(Agent::Claude),
        ..Session::default()
    };
    for (_, v) in &lines.values {
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
        let mut push = |event: Event| {
            s.records.push(Record {
                at,
                event,
                sidechain,
            })
        };
        match v.get("type").and_then(Value::as_str) {
            Some("summary") => match v.get("summary").and_then(Value::as_str) {
                Some(text) => push(Event::Summary(text.to_string())),
                None => s.skip("summary without text"),
            },
            Some("system") => {
                if v.get("subtype").and_then(Value::as_str) == Some("compact_boundary") {
                    push(Event::Compaction);
                }
            }
            Some(role @ ("user" | "assistant")) => {
                let meta = v.get("isMeta").and_then(Value::as_bool) == Some(true);
                let compact = v.get("isCompactSummary").and_then(Value::as_bool) == Some(true);
                let content = v.get("message").and_then(|m| m.get("content"));
                let mut events = Vec::new();
                let mut unknown = Vec::new();
                match content {
                    Some(Value::String(text)) => events.push(text_event(role, text)),
                    Some(Value::Array(blocks)) => {
                        for b in blocks {
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
                    // The recap that opens a compacted conversation: a boundary, not a prompt.
                    push(Event::Compaction);
                    continue;
                }
                for e in events {
                    push(match e {
                        Event::Prompt(t) if meta => Event::Note(t),
                        e => e,
                    });
                }
            }
            Some(other) if KNOWN_OTHER.contains(&other) => {}
            Some(other) => s.skip(&format!("type:{other}")),
            None => s.skip("record without type"),
        }
    }
    s
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
                "Bash" => field("command"),
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
            }))
        }
        Some("tool_result") => Ok(Some(Event::ToolResult {
            text: result_text(b.get("content")),
            error: b.get("is_error").and_then(Value::as_bool) == Some(true),
        })),
        Some("thinking" | "redacted_thinking" | "image" | "document") => Ok(None),
        Some(other) => Err(format!("block:{other}")),
        None => Err("block without type".to_string()),
    }
}

/// A tool's input as the transcript shows it: its text when it is one string field,
/// else its JSON.
pub fn shown_input(input: &Value) -> String {
    match input {
        Value::Object(map) if map.len() == 1 => match map.values().next() {
            Some(Value::String(s)) => s.clone(),
            _ => input.to_string(),
        },
        Value::String(s) => s.clone(),
        _ => input.to_string(),
    }
}

/// A tool result's content: text, or the text blocks of a list.
fn result_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}
