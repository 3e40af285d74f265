//! Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): each line an
//! envelope `{timestamp, type, payload}`, `type` one of `session_meta`, `turn_context`,
//! `response_item` (`message`, `function_call`, `function_call_output`, `reasoning`, …),
//! `event_msg` (what the screen showed, which repeats the response items) and
//! `compacted`. Rollouts written before the envelope have the session's header as their
//! first line and the response items bare.
use serde_json::Value;

use super::claude::shown_input;
use super::lines::Lines;
use super::{person_text, time_of, Agent, Event, Record, Session};

const ITEM_TYPES: &[&str] = &[
    "message",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
    "local_shell_call",
    "reasoning",
];

pub fn read(lines: &Lines) -> Session {
    let mut s = Session {
        agent: Some(Agent::Codex),
        ..Session::default()
    };
    // Items of rollouts written before the envelope have no time of their own: the
    // header's (or the last line's) stands for them.
    let mut clock = None;
    for (n, v) in &lines.values {
        let at = time_of(v).or(clock);
        clock = at;
        let payload = v.get("payload").unwrap_or(&Value::Null);
        match v.get("type").and_then(Value::as_str) {
            Some("session_meta") => meta(&mut s, payload),
            Some("turn_context") => {
                if s.cwd.is_none() {
                    s.cwd = text(payload, "cwd");
                }
            }
            Some("response_item") => item(&mut s, at, payload),
            Some("compacted") => s.records.push(Record {
                at,
                event: Event::Compaction,
                sidechain: false,
            }),
            Some("event_msg") => {
                if payload.get("type").and_then(Value::as_str) == Some("context_compacted") {
                    s.records.push(Record {
                        at,
                        event: Event::Compaction,
                        sidechain: false,
                    });
                }
            }
            // Before the envelope: the item itself, or the header on the first line.
            Some(t) if ITEM_TYPES.contains(&t) => item(&mut s, at, v),
            Some(other) => s.skip(&format!("type:{other}")),
            None if *n == 1 || v.get("instructions").is_some() => meta(&mut s, v),
            None if v.get("record_type").is_some() => {}
            None => s.skip("record without type"),
        }
    }
    s
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

fn meta(s: &mut Session, payload: &Value) {
    if s.id.is_empty() {
        s.id = text(payload, "id").unwrap_or_default();
    }
    if s.cwd.is_none() {
        s.cwd = text(payload, "cwd");
    }
}

fn item(s: &mut Session, at: Option<chrono::DateTime<chrono::Utc>>, p: &Value) {
    let mut push = |event: Event| {
        s.records.push(Record {
            at,
            event,
            sidechain: false,
        })
    };
    match p.get("type").and_then(Value::as_str) {
        Some("message") => {
            let role = p.get("role").and_then(Value::as_str).unwrap_or("");
            let parts = match p.get("content") {
                Some(Value::Array(parts)) => parts
                    .iter()
                    .filter_map(|c| c.get("text").and_then(Value::as_str))
                    .collect::<Vec<_>>()
                    .join("\n"),
                Some(Value::String(t)) => t.clone(),
                _ => String::new(),
            };
            match role {
                "user" => push(person_text(&parts)),
                "assistant" => push(Event::Answer(parts)),
                // The developer's and the system's instructions: the agent's setup.
                _ => {}
            }
        }
        Some("function_call" | "custom_tool_call" | "local_shell_call") => {
            let name = text(p, "name").unwrap_or_else(|| "shell".to_string());
            // A function's arguments are JSON in a string; a custom tool's input is text.
            let args = match p.get("arguments") {
                Some(Value::String(a)) => {
                    serde_json::from_str(a).unwrap_or_else(|_| Value::String(a.clone()))
                }
                Some(a) => a.clone(),
                None => p
                    .get("input")
                    .or_else(|| p.get("action"))
                    .cloned()
                    .unwrap_or(Value::Null),
            };
            let command = command_of(&args);
            let files = match &args {
                Value::String(patch) => patched_files(patch),
                v => v
                    .get("input")
                    .and_then(Value::as_str)
                    .map(patched_files)
                    .unwrap_or_default(),
            };
            push(Event::ToolCall {
                name,
                input: shown_input(&args),
                command,
                files,
            });
        }
        Some("function_call_output" | "custom_tool_call_output") => {
            let (text, error) = output(p.get("output"));
            push(Event::ToolResult { text, error });
        }
        Some("reasoning") => {}
        Some(other) => s.skip(&format!("response_item:{other}")),
        None => s.skip("response_item without type"),
    }
}

/// The command line of a shell call: `command` as a list (the last word after `bash -lc`)
/// or as text, or `cmd`.
fn command_of(args: &Value) -> Option<String> {
    match args.get("command").or_else(|| args.get("cmd")) {
        Some(Value::String(c)) => Some(c.clone()),
        Some(Value::Array(words)) => {
            let words: Vec<&str> = words.iter().filter_map(Value::as_str).collect();
            match words.as_slice() {
                [shell, flag, script] if shell.ends_with("sh") && flag.starts_with('-') => {
                    Some(script.to_string())
                }
                _ => Some(words.join(" ")),
            }
        }
        _ => None,
    }
}

/// The files a patch of `apply_patch` adds or changes.
fn patched_files(patch: &str) -> Vec<String> {
    patch
        .lines()
        .filter_map(|l| {
            ["*** Add File: ", "*** Update File: ", "*** Move to: "]
                .iter()
                .find_map(|p| l.strip_prefix(p))
        })
        .map(|f| f.trim().to_string())
        .collect()
}

/// A tool's output: text, or JSON text with `output` and `metadata.exit_code`.
fn output(v: Option<&Value>) -> (String, bool) {
    let raw = match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Object(_)) => v.map(|v| v.to_string()).unwrap_or_default(),
        _ => return (String::new(), false),
    };
    if let Ok(parsed) = serde_json::from_str::<Value>(&raw) {
        if let Some(out) = parsed.get("output").and_then(Value::as_str) {
            let code = parsed
                .get("metadata")
                .and_then(|m| m.get("exit_code"))
                .and_then(Value::as_i64);
            return (out.to_string(), code.is_some_and(|c| c != 0));
        }
    }
    let error = raw
        .lines()
        .take(3)
        .any(|l| l.starts_with("Exit code: ") && l.trim() != "Exit code: 0");
    (raw, error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn commands_and_patches() {
        assert_eq!(
            command_of(&json!({"command": ["bash", "-lc", "cargo test"]})),
            Some("cargo test".into())
        );
        assert_eq!(
            command_of(&json!({"command": ["ls", "-la"]})),
            Some("ls -la".into())
        );
        assert_eq!(
            command_of(&json!({"cmd": "git status"})),
            Some("git status".into())
        );
        assert_eq!(
            patched_files(
                "*** Begin Patch\n*** Update File: src/a.rs\n@@\n*** Add File: b.md\n*** End Patch"
            ),
            vec!["src/a.rs", "b.md"]
        );
        assert_eq!(
            output(Some(&json!(
                "{\"output\":\"boom\",\"metadata\":{\"exit_code\":2}}"
            ))),
            ("boom".into(), true)
        );
        assert!(output(Some(&json!("Exit code: 1\nWall time: 0s\nOutput:\nx"))).1);
    }
}
