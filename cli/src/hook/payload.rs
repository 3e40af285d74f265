//! The hook's JSON as Claude Code and Codex send it on standard input: the common fields
//! (`hook_event_name`, `session_id`, `cwd`, `transcript_path`) and each event's own
//! (`prompt`, `source`; `PreToolUse`'s and `PostToolUse`'s `tool_name` and `tool_input`). A field of the wrong type counts as absent, except the prompt of
//! a prompt event, which the hook cannot go without.
use std::io::IsTerminal;

use serde_json::Value;

use crate::error::Result;
use crate::{err, input};

/// The event, by its name in `hook_event_name`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Start,
    Prompt,
    /// `PostToolUse`: a tool ran; a file tool's files are `Payload::files`.
    Tool,
    /// `PreToolUse`: a tool is about to run; a file tool's files are `Payload::files`, a
    /// shell tool's command `Payload::command`.
    BeforeTool,
    /// `PostToolUseFailure` (Claude Code): a tool failed, saying why in `Payload::error`.
    Failure,
    /// Any other event: one of `[hook] capture_on`, or one the hook does not answer.
    Other(String),
}

#[derive(Debug)]
pub struct Payload {
    pub event: Event,
    pub session: Option<String>,
    pub cwd: Option<String>,
    pub transcript: Option<String>,
    /// `SessionStart`'s `source`: `startup`, `resume`, `clear` or `compact`.
    pub source: Option<String>,
    /// `UserPromptSubmit`'s `prompt`.
    pub prompt: String,
    /// `PreToolUse`, `PostToolUse`: the files the tool reads or writes, as its input names
    /// them.
    pub files: Vec<String>,
    /// A shell tool's command line (Claude Code's `Bash`; Codex names its shell tools
    /// `Bash` in hooks), at `PreToolUse`, `PostToolUse` and `PostToolUseFailure`.
    pub command: Option<String>,
    /// What the tool said: `PostToolUseFailure`'s `error`; `PostToolUse`'s
    /// `tool_response` where it is text (Codex's shell output).
    pub said: Option<String>,
}

impl Payload {
    /// Reads the hook's JSON from standard input.
    pub fn read() -> Result<Payload> {
        let stdin = std::io::stdin().lock();
        if stdin.is_terminal() {
            return Err(err!(
                "`recall hook` reads the hook's JSON (with a \"hook_event_name\") on standard input; it runs as an agent's hook (docs/cli.md#the-session-hook)"
            ));
        }
        let what = "standard input (the hook's JSON)";
        let bytes = input::read_limited(
            stdin,
            input::HOOK_PAYLOAD,
            what,
            "the agent sent more than any hook event holds",
        )?;
        Payload::parse(&input::text(bytes, what)?)
    }

    pub fn parse(text: &str) -> Result<Payload> {
        // Only the fields the hook reads are parsed; the rest (a tool's response above
        // all, however large or deeply nested) is skipped unread.
        let not_json = |e: serde_json::Error| err!("standard input is not the hook's JSON ({e})");
        // An object is read for its fields; any other JSON holds none of them (a struct
        // would also take a list, field by field).
        let raw: Raw = match text.trim_start().starts_with('{') {
            true => serde_json::from_str(text).map_err(not_json)?,
            false => {
                serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(not_json)?;
                Raw::default()
            }
        };
        let text_of = |v: &Option<Value>| v.as_ref().and_then(Value::as_str).map(str::to_string);
        // A payload without an event name is the prompt hook's, as this hook began.
        let event = match text_of(&raw.hook_event_name).as_deref() {
            Some("SessionStart") => Event::Start,
            Some("UserPromptSubmit") | None => Event::Prompt,
            Some("PostToolUse") => Event::Tool,
            Some("PreToolUse") => Event::BeforeTool,
            Some("PostToolUseFailure") => Event::Failure,
            Some(other) => Event::Other(other.to_string()),
        };
        let prompt = match (&event, &raw.prompt) {
            (Event::Prompt, Some(Value::String(p))) if p.len() as u64 > input::PROMPT => {
                return Err(err!(
                    "the prompt in the hook's JSON is longer than {}: give a shorter prompt",
                    input::size(input::PROMPT)
                ))
            }
            (Event::Prompt, Some(Value::String(p))) => p.clone(),
            (Event::Prompt, Some(_)) => {
                return Err(err!("the hook's JSON has a \"prompt\" that is not text"))
            }
            (Event::Prompt, None) => return Err(err!("the hook's JSON has no \"prompt\" field")),
            _ => String::new(),
        };
        Ok(Payload {
            session: text_of(&raw.session_id).filter(|s| !s.is_empty()),
            cwd: text_of(&raw.cwd).filter(|s| !s.is_empty()),
            transcript: text_of(&raw.transcript_path).filter(|s| !s.is_empty()),
            source: text_of(&raw.source),
            prompt,
            files: match event {
                Event::Tool | Event::BeforeTool => {
                    tool_files(text_of(&raw.tool_name).as_deref(), raw.tool_input.as_ref())
                }
                _ => Vec::new(),
            },
            command: match event {
                Event::Tool | Event::BeforeTool | Event::Failure => {
                    shell_command(text_of(&raw.tool_name).as_deref(), raw.tool_input.as_ref())
                }
                _ => None,
            },
            said: match event {
                Event::Failure => text_of(&raw.error),
                Event::Tool => raw.tool_response.and_then(|t| t.0),
                _ => None,
            },
            event,
        })
    }
}

/// The shell tools, by the names the agents give them in hooks (Codex reports its
/// `exec_command` and `shell` as `Bash`).
const SHELL_TOOLS: &[&str] = &["Bash", "exec_command", "shell", "shell_command"];

/// The command line of a shell tool's input: `command` (text, or words to join), or
/// `cmd`.
fn shell_command(tool: Option<&str>, input: Option<&Value>) -> Option<String> {
    if !SHELL_TOOLS.contains(&tool?) {
        return None;
    }
    let input = input?;
    let command = match input.get("command").or_else(|| input.get("cmd"))? {
        Value::String(s) => s.clone(),
        Value::Array(words) => words
            .iter()
            .map(|w| w.as_str())
            .collect::<Option<Vec<_>>>()?
            .join(" "),
        _ => return None,
    };
    (!command.trim().is_empty() && !command.contains('\0')).then_some(command)
}

/// A value kept where it is text; any other JSON skipped unread (a tool's response may
/// nest past any parser's depth).
#[derive(Default)]
struct TextOnly(Option<String>);

impl<'de> serde::Deserialize<'de> for TextOnly {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = TextOnly;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any JSON")
            }
            fn visit_str<E>(self, v: &str) -> std::result::Result<TextOnly, E> {
                Ok(TextOnly(Some(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> std::result::Result<TextOnly, E> {
                Ok(TextOnly(Some(v)))
            }
            fn visit_bool<E>(self, _: bool) -> std::result::Result<TextOnly, E> {
                Ok(TextOnly(None))
            }
            fn visit_i64<E>(self, _: i64) -> std::result::Result<TextOnly, E> {
                Ok(TextOnly(None))
            }
            fn visit_u64<E>(self, _: u64) -> std::result::Result<TextOnly, E> {
                Ok(TextOnly(None))
            }
            fn visit_f64<E>(self, _: f64) -> std::result::Result<TextOnly, E> {
                Ok(TextOnly(None))
            }
            fn visit_unit<E>(self) -> std::result::Result<TextOnly, E> {
                Ok(TextOnly(None))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> std::result::Result<TextOnly, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(TextOnly(None))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<TextOnly, A::Error> {
                while map
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(TextOnly(None))
            }
        }
        d.deserialize_any(Visit)
    }
}

/// The fields of a hook event the hook reads. Each is any JSON (a field of the wrong type
/// counts as absent); every other field is skipped without being read into memory.
#[derive(serde::Deserialize, Default)]
struct Raw {
    hook_event_name: Option<Value>,
    session_id: Option<Value>,
    cwd: Option<Value>,
    transcript_path: Option<Value>,
    source: Option<Value>,
    prompt: Option<Value>,
    tool_name: Option<Value>,
    tool_input: Option<Value>,
    tool_response: Option<TextOnly>,
    error: Option<Value>,
}

/// The files of a file tool's input, as the agent whose tool it is names them
/// (`agents`: each agent's `file_tool`). Any other tool names none.
fn tool_files(tool: Option<&str>, input: Option<&Value>) -> Vec<String> {
    let mut files = match tool {
        Some(tool) => crate::agents::Agent::tool_files(tool, input),
        None => Vec::new(),
    };
    let mut seen = std::collections::HashSet::new();
    // No file's path holds a NUL: a name with one names none.
    files.retain(|f| !f.contains('\0') && seen.insert(f.clone()));
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_agent_s_payload_reads() {
        // Claude Code's SessionStart, Codex's Stop (with its turn id and a null transcript).
        let p = Payload::parse(
            r#"{"session_id": "abc", "transcript_path": "/t.jsonl", "cwd": "/w/shop",
                "hook_event_name": "SessionStart", "source": "resume"}"#,
        )
        .unwrap();
        assert_eq!(p.event, Event::Start);
        assert_eq!(p.source.as_deref(), Some("resume"));
        assert_eq!(p.cwd.as_deref(), Some("/w/shop"));
        let p = Payload::parse(
            r#"{"session_id": "019d", "turn_id": "t1", "transcript_path": null, "cwd": "/w",
                "hook_event_name": "Stop", "model": "gpt-5", "permission_mode": "default",
                "stop_hook_active": false, "last_assistant_message": "done"}"#,
        )
        .unwrap();
        assert_eq!(p.event, Event::Other("Stop".into()));
        assert_eq!(p.transcript, None);
        assert_eq!(p.session.as_deref(), Some("019d"));
    }

    #[test]
    fn a_file_tool_names_its_files() {
        let files = |json: &str| Payload::parse(json).unwrap().files;
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
        let e = Payload::parse(r#"{"hook_event_name": "UserPromptSubmit"}"#).unwrap_err();
        assert!(e.message.contains("no \"prompt\" field"), "{}", e.message);
        let e = Payload::parse(r#"{"prompt": ["x"]}"#).unwrap_err();
        assert!(e.message.contains("not text"), "{}", e.message);
        let p = Payload::parse(r#"{"prompt": "hello", "session_id": 7}"#).unwrap();
        assert_eq!((p.event, p.session), (Event::Prompt, None));
        assert!(Payload::parse("[1]").is_err());
    }
}
