//! The hook's JSON as Claude Code and Codex send it on standard input: the common fields
//! (`hook_event_name`, `session_id`, `cwd`, `transcript_path`, `source`) and each event's
//! own, as its entry of the table (`table.rs`) says it is read (`Reads`: `prompt`; a
//! tool's `tool_name` and `tool_input`, `error`, `tool_response`). A field of the wrong
//! type counts as absent, except the prompt of a prompt event, which the hook cannot go
//! without.
use std::io::IsTerminal;

use serde_json::Value;

use crate::error::{err, Result};
use crate::input;

/// Which of the table's events (`table::EVENTS`) a payload is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    Start,
    Prompt,
    /// A tool ran; a file tool's files are `Payload::files`.
    Tool,
    /// A tool is about to run; a file tool's files are `Payload::files`, a shell tool's
    /// command `Payload::command`.
    BeforeTool,
    /// A tool failed (Claude Code), saying why in `Payload::said`.
    Failure,
    /// An event that may capture the session (`[hook] capture_on`).
    Capture,
    /// Any other event, which the hook does not answer.
    Unanswered,
}

/// What an event's payload holds besides the fields every event has (`session_id`,
/// `cwd`, `transcript_path`, `source`): how its entry of the table has it read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reads {
    /// `prompt`, which the event cannot go without.
    pub prompt: bool,
    /// The files of a file tool's `tool_input`.
    pub files: bool,
    /// The command line of a shell tool's `tool_input`.
    pub command: bool,
    /// What the tool said, and where.
    pub said: Option<ToolSaid>,
}

/// Where a tool's event says what the tool said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolSaid {
    /// `error`.
    Error,
    /// `tool_response`, where it is text (Codex's shell output).
    Response,
}

impl Reads {
    /// The common fields only.
    pub const COMMON: Reads = Reads {
        prompt: false,
        files: false,
        command: false,
        said: None,
    };
}

/// An event as the table knows it: which it is, its name (as the agent sent it, or the
/// table's for a payload without one) and how its payload is read.
pub struct Kind {
    pub event: Event,
    pub name: String,
    pub reads: Reads,
}

#[derive(Debug)]
pub struct Payload {
    pub event: Event,
    /// The event's name, as the agents send it.
    pub name: String,
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

/// Reads the hook's JSON from standard input.
pub fn read() -> Result<String> {
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
    input::text(bytes, what)
}

impl Payload {
    /// The hook's JSON, read as `kind` says the event named in its `hook_event_name`
    /// (None: none, or not text) is read.
    pub fn parse(text: &str, kind: impl FnOnce(Option<&str>) -> Kind) -> Result<Payload> {
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
        let Kind { event, name, reads } = kind(text_of(&raw.hook_event_name).as_deref());
        let prompt = match (reads.prompt, &raw.prompt) {
            (true, Some(Value::String(p))) if p.len() as u64 > input::PROMPT => {
                return Err(err!(
                    "the prompt in the hook's JSON is longer than {}: give a shorter prompt",
                    input::size(input::PROMPT)
                ))
            }
            (true, Some(Value::String(p))) => p.clone(),
            (true, Some(_)) => {
                return Err(err!("the hook's JSON has a \"prompt\" that is not text"))
            }
            (true, None) => return Err(err!("the hook's JSON has no \"prompt\" field")),
            (false, _) => String::new(),
        };
        let tool = text_of(&raw.tool_name);
        Ok(Payload {
            session: text_of(&raw.session_id).filter(|s| !s.is_empty()),
            cwd: text_of(&raw.cwd).filter(|s| !s.is_empty()),
            transcript: text_of(&raw.transcript_path).filter(|s| !s.is_empty()),
            source: text_of(&raw.source),
            prompt,
            files: match reads.files {
                true => tool_files(tool.as_deref(), raw.tool_input.as_ref()),
                false => Vec::new(),
            },
            command: match reads.command {
                true => shell_command(tool.as_deref(), raw.tool_input.as_ref()),
                false => None,
            },
            said: match reads.said {
                Some(ToolSaid::Error) => text_of(&raw.error),
                Some(ToolSaid::Response) => raw.tool_response.and_then(|t| t.0),
                None => None,
            },
            event,
            name,
        })
    }

    /// A payload of no agent, folder or session.
    pub fn bare(event: Event) -> Payload {
        Payload {
            event,
            name: String::new(),
            session: None,
            cwd: None,
            transcript: None,
            source: None,
            prompt: String::new(),
            files: Vec::new(),
            command: None,
            said: None,
        }
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
