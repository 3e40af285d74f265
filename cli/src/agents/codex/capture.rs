//! Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): each line an
//! envelope `{timestamp, type, payload}`, `type` one of `session_meta`, `turn_context`,
//! `response_item` (`message`, `function_call`, `function_call_output`, `reasoning`, …),
//! `event_msg` (what the screen showed, which repeats the response items) and
//! `compacted`. Rollouts written before the envelope have the session's header as their
//! first line and the response items bare.
//!
//! A sub-agent's rollout opens with its own `session_meta` and, when it was given its
//! parent's conversation, the parent's `session_meta` and the parent's records copied
//! after it: the copy is left out (the parent's own rollout holds it), and the
//! sub-agent's own records are marked as a sub-agent's, opened by a note naming its
//! parent session, so that its work reads as the parent's. Its session keeps its own id,
//! under which capture made its items before it knew sub-agents, so that capturing
//! again replaces them. The agent's own helpers (memory consolidation, compaction, the
//! guardian's reviews) make no records at all.
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

use serde_json::Value;

use crate::capture::lines::Lines;
use crate::capture::noise;
use crate::capture::{
    content_text, person_text, shown_input, time_of, Agent, Event, Record, Session,
};

/// Codex's part of capture: its rollouts are kept by date, not by working folder, and
/// tell no project folder but their own.
pub static PART: crate::capture::AgentPart = crate::capture::AgentPart {
    read: |_, lines| read(lines),
    project_folder: |_, _| None,
    source: |setting| &setting.codex_source,
};

const ITEM_TYPES: &[&str] = &[
    "message",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
    "local_shell_call",
    "reasoning",
];

/// Response items of the program's own, read and left out without being counted:
/// snapshots of the work tree for undo, compaction's encrypted state, and the web
/// searches the model ran (its query only; the results are not in the file).
const KNOWN_OTHER: &[&str] = &[
    "ghost_snapshot",
    "compaction",
    "compaction_summary",
    "web_search_call",
];

/// Envelope types of the program's own bookkeeping (0.169: each response's token usage,
/// the state of its environments), read and left out without being counted.
const PROGRAM_RECORDS: &[&str] = &["token_usage_record", "world_state"];

/// Whether a payload holds something said: a message, text or a tool's input or output.
fn holds_talk(payload: &Value) -> bool {
    ["content", "message", "text", "output", "arguments", "input"]
        .iter()
        .any(|k| payload.get(k).is_some())
}

/// How the text Codex itself puts in the person's turn begins: the project's and the
/// person's instructions (AGENTS.md), the environment, the plug-ins it offers (0.142
/// on), the sandbox's permissions, the skills, an interruption, a shell command the
/// person ran with `!`.
const INJECTED: &[&str] = &[
    "# AGENTS.md instructions",
    "<user_instructions>",
    "<INSTRUCTIONS>",
    "<environment_context>",
    "<recommended_plugins>",
    "<permissions instructions>",
    "<skills_instructions>",
    "<turn_aborted>",
    "<user_shell_command>",
];

/// The sub-agents of Codex's own housekeeping, which hold no work of the person's.
const HELPERS: &[&str] = &[
    "compact",
    "memory_consolidation",
    "guardian",
    "guardian_review",
];

#[derive(Default)]
struct Reader {
    session: Session,
    /// The rollout's own id, and whether it is a sub-agent's.
    own_id: Option<String>,
    subagent: bool,
    helper: bool,
    /// Inside the parent's records copied into a sub-agent's rollout, and whether a
    /// record of the conversation itself (not its opening context) was met in them.
    inherited: bool,
    inherited_talk: bool,
    /// The last record of the copy was the parent's call that spawns a sub-agent.
    spawn_call: bool,
    /// The instructions the session was given (`instructions` of its header or
    /// `session_meta`, `base_instructions`): a person's turn that repeats them is not a
    /// prompt.
    instructions: Vec<String>,
    /// Each message's text met so far (hashed), and those that a compaction's
    /// `replacement_history` repeats: written again after it, they are left out once.
    said: HashSet<u64>,
    replayed: Vec<u64>,
    branch: Option<String>,
    /// How many records there were after the last compaction was read.
    compacted_at: Option<usize>,
}

pub fn read(lines: &Lines) -> Session {
    let mut r = Reader::default();
    r.session.agent = Some(Agent::Codex);
    // Items of rollouts written before the envelope have no time of their own: the
    // header's (or the last line's) stands for them.
    let mut clock = None;
    for (n, v) in &lines.values {
        let at = time_of(v).or(clock);
        clock = at;
        let payload = v.get("payload").unwrap_or(&Value::Null);
        match v.get("type").and_then(Value::as_str) {
            Some("session_meta") => r.meta(at, payload),
            Some("turn_context") => {
                if r.session.cwd.is_none() && !r.inherited {
                    r.session.cwd = text(payload, "cwd");
                }
            }
            Some("response_item") => r.item(at, payload),
            Some("compacted") => {
                r.replay(payload.get("replacement_history"));
                r.compaction(at);
            }
            Some("event_msg") => {
                if payload.get("type").and_then(Value::as_str) == Some("context_compacted") {
                    r.compaction(at);
                }
            }
            // Before the envelope: the item itself, or the header on the first line.
            Some(t) if ITEM_TYPES.contains(&t) => r.item(at, v),
            Some(t) if PROGRAM_RECORDS.contains(&t) => {}
            // A type no reader knows whose payload holds no message: the program's own.
            Some(other) if !holds_talk(payload) => {
                *r.session
                    .program_records
                    .entry(other.to_string())
                    .or_default() += 1
            }
            Some(other) => r.session.skip(&format!("type:{other}")),
            None if *n == 1 || v.get("instructions").is_some() => r.meta(at, v),
            None if v.get("record_type").is_some() => {}
            None => r.session.skip("record without type"),
        }
    }
    if r.helper {
        // Its segments become no item, and a re-capture removes those an earlier one
        // made (`items::left_out`).
        r.session.helper = Some("codex housekeeping sub-agent");
    }
    r.session
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

fn hash(text: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.trim().hash(&mut h);
    h.finish()
}

/// The text parts of a message item, or its text.
fn message_parts(p: &Value) -> Vec<String> {
    match p.get("content") {
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|c| c.get("text").and_then(Value::as_str))
            .map(str::to_string)
            .collect(),
        Some(Value::String(t)) => vec![t.clone()],
        _ => Vec::new(),
    }
}

/// The text of a message item: its text parts joined.
fn message_text(p: &Value) -> String {
    message_parts(p).join("\n")
}

/// The text between `open` and `close` in `text`, trimmed.
fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let end = text[start..].find(close).map_or(text.len(), |e| start + e);
    Some(text[start..end].trim())
}

/// The parent a sub-agent's `session_meta` names, and whether it is one of Codex's own
/// helpers; (None, false) for a session of the person's.
fn parentage(p: &Value) -> (Option<String>, bool, bool) {
    let source = p.get("source").and_then(|s| s.get("subagent"));
    let kind = match source {
        Some(Value::String(k)) => Some(k.as_str()),
        Some(Value::Object(m)) => m
            .get("other")
            .and_then(Value::as_str)
            .or_else(|| m.keys().next().map(String::as_str)),
        _ => None,
    };
    let thread = text(p, "thread_source");
    let helper = kind.is_some_and(|k| HELPERS.contains(&k))
        || thread.as_deref().is_some_and(|t| HELPERS.contains(&t));
    let parent = source
        .and_then(|s| s.pointer("/thread_spawn/parent_thread_id"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| text(p, "parent_thread_id"));
    let subagent = source.is_some() || thread.as_deref() == Some("subagent");
    (parent, subagent, helper)
}

impl Reader {
    fn push(&mut self, at: Option<chrono::DateTime<chrono::Utc>>, event: Event) {
        self.session.records.push(Record {
            at,
            event,
            sidechain: self.subagent,
        });
    }

    fn meta(&mut self, at: Option<chrono::DateTime<chrono::Utc>>, p: &Value) {
        let id = text(p, "id").unwrap_or_default();
        let Some(own) = self.own_id.clone() else {
            let (parent, subagent, helper) = parentage(p);
            self.subagent = subagent;
            self.helper = helper;
            self.session.id = id.clone();
            self.own_id = Some(id);
            if subagent {
                let who = [text(p, "agent_nickname"), text(p, "agent_role")]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join(", ");
                let of = parent
                    .map(|p| format!(" of session {p}"))
                    .unwrap_or_default();
                let who = if who.is_empty() {
                    String::new()
                } else {
                    format!(" ({who})")
                };
                self.push(at, Event::Note(format!("sub-agent{who}{of}")));
            }
            self.session.cwd = text(p, "cwd");
            for instructions in [
                p.get("instructions"),
                p.get("base_instructions")
                    .and_then(|b| b.get("text").or(Some(b))),
            ]
            .into_iter()
            .flatten()
            {
                if let Some(t) = instructions.as_str().map(str::trim) {
                    if t.chars().count() >= 20 {
                        self.instructions.push(t.to_string());
                    }
                }
            }
            self.branch = p
                .pointer("/git/branch")
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|b| !b.is_empty() && *b != "HEAD")
                .map(str::to_string);
            self.session.branch = self.branch.clone();
            self.branch_note(at);
            return;
        };
        // Another session's header: the parent's records, copied, follow it.
        if id != own {
            self.inherited = true;
            self.inherited_talk = false;
        }
    }

    /// The branch the session worked on, shown where each part of it begins.
    fn branch_note(&mut self, at: Option<chrono::DateTime<chrono::Utc>>) {
        if let Some(b) = self.branch.clone() {
            self.push(at, Event::Note(format!("git branch: {b}")));
        }
    }

    fn compaction(&mut self, at: Option<chrono::DateTime<chrono::Utc>>) {
        if self.inherited {
            return;
        }
        // `compacted` and the `context_compacted` shown after it are one compaction.
        if self.compacted_at != Some(self.session.records.len()) {
            self.push(at, Event::Compaction);
            self.branch_note(at);
            self.compacted_at = Some(self.session.records.len());
        }
    }

    /// The messages a compaction's new history repeats from before it.
    fn replay(&mut self, history: Option<&Value>) {
        let Some(Value::Array(items)) = history else {
            return;
        };
        self.replayed = items
            .iter()
            .filter(|i| i.get("type").and_then(Value::as_str) == Some("message"))
            .map(|i| hash(&message_text(i)))
            .filter(|h| self.said.contains(h))
            .collect();
    }

    /// Whether the text is what Codex put in the person's turn: its instructions, the
    /// environment, or a repeat of the instructions the session was given.
    fn injected(&self, text: &str) -> bool {
        let t = text.trim_start();
        INJECTED.iter().any(|p| t.starts_with(p))
            || self.instructions.iter().any(|i| {
                let head: String = i.chars().take(200).collect();
                t.starts_with(head.as_str())
            })
    }

    /// What injected text tells of the session: the instructions it holds (a later
    /// turn that repeats them is not a prompt), the working folder of the environment
    /// (rollouts before the envelope name it only there).
    fn learn(&mut self, text: &str) {
        let body = between(text, "<INSTRUCTIONS>", "</INSTRUCTIONS>")
            .or_else(|| between(text, "<user_instructions>", "</user_instructions>"));
        if let Some(body) = body.filter(|b| b.chars().count() >= 20) {
            if !self.instructions.iter().any(|i| i == body) {
                self.instructions.push(body.to_string());
            }
        }
        if self.session.cwd.is_none() && text.trim_start().starts_with("<environment_context>") {
            self.session.cwd = between(text, "<cwd>", "</cwd>")
                .filter(|c| !c.is_empty())
                .map(str::to_string);
        }
    }

    /// The events of the person's turn: the request a wrapper holds as a prompt, and
    /// the wrapper shown as a note.
    fn person(&self, text: &str) -> Vec<Event> {
        if self.injected(text) {
            return vec![Event::Note(text.to_string())];
        }
        if let Some(request) = wrapped_request(text) {
            let mut events = Vec::new();
            if !request.is_empty() {
                events.push(person_or_go_on(&request));
            }
            events.push(Event::Note(text.to_string()));
            return events;
        }
        vec![person_or_go_on(text)]
    }
    fn item(&mut self, at: Option<chrono::DateTime<chrono::Utc>>, p: &Value) {
        let kind = p.get("type").and_then(Value::as_str);
        let role = p.get("role").and_then(Value::as_str).unwrap_or("");
        if self.inherited {
            // The sub-agent's own records begin where its own opening context does (the
            // instructions it was given after the parent's conversation), or, when it
            // was given none, after the parent's call that spawned it, which has no
            // output in the copy.
            let opening = kind == Some("message")
                && (role == "developer" || (role == "user" && self.injected(&message_text(p))));
            let output = kind.is_some_and(|k| k.ends_with("_output"));
            let after_spawn = self.spawn_call && !output && kind != Some("reasoning");
            let begins = after_spawn || (opening && self.inherited_talk);
            if !begins {
                self.inherited_talk |= !opening && kind != Some("reasoning");
                if kind.is_some_and(|k| k.ends_with("call")) {
                    self.spawn_call = text(p, "name").is_some_and(|n| n.contains("spawn_agent"));
                } else if output {
                    self.spawn_call = false;
                }
                return;
            }
            self.inherited = false;
            self.spawn_call = false;
        }
        if kind == Some("reasoning") || kind.is_some_and(|k| KNOWN_OTHER.contains(&k)) {
            return;
        }
        let parts = message_text(p);
        let h = hash(&parts);
        if kind == Some("message") {
            if let Some(i) = self.replayed.iter().position(|r| *r == h) {
                // Written again right after the compaction whose history repeats it.
                self.replayed.swap_remove(i);
                return;
            }
        }
        // Only the messages right after a compaction can be its repeats.
        self.replayed.clear();
        match kind {
            Some("message") => {
                match role {
                    "user" => {
                        self.said.insert(h);
                        // Codex may put its instructions in a part of the person's own
                        // message: each part is read for what it is.
                        let mut request = Vec::new();
                        for part in message_parts(p) {
                            if self.injected(&part) {
                                self.learn(&part);
                                self.push(at, Event::Note(part));
                            } else if !part.trim().is_empty() && noise::not_written(&part) {
                                // Program text in a part of its own (`<skill>`,
                                // `<user_action>`): a note beside the request.
                                self.push(at, Event::Note(part));
                            } else {
                                request.push(part);
                            }
                        }
                        if !request.is_empty() {
                            for e in self.person(&request.join("\n")) {
                                self.push(at, e);
                            }
                        }
                    }
                    "assistant" => {
                        self.said.insert(h);
                        self.push(at, Event::Answer(parts));
                    }
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
                self.push(
                    at,
                    Event::ToolCall {
                        name,
                        input: shown_input(&args),
                        command,
                        files,
                        id: text(p, "call_id"),
                    },
                );
            }
            Some("function_call_output" | "custom_tool_call_output") => {
                let (out, exit) = output(p.get("output"));
                let event = Event::ToolResult {
                    text: out,
                    error: exit.is_some_and(|c| c != 0),
                    exit,
                    id: text(p, "call_id"),
                };
                self.push(at, event);
            }
            Some(other) => self.session.skip(&format!("response_item:{other}")),
            None => self.session.skip("response_item without type"),
        }
    }
}

/// The request an editor's wrapper or a prompt template holds: the text after the IDE
/// extension's `## My request for Codex:`, or a prompt file's input
/// (`noise::prompt_file_input`). Some("") when the wrapper holds none; None when the
/// text is no such wrapper. What the extension wraps is read by the same rules: a
/// prompt file inserted in the editor is one.
fn wrapped_request(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    if let Some(i) = lines
        .iter()
        .position(|l| l.trim() == "## My request for Codex:")
    {
        let request = lines[i + 1..].join("\n").trim().to_string();
        return Some(wrapped_request(&request).unwrap_or(request));
    }
    noise::prompt_file_input(text)
}

/// A prompt, or a note when it is a bare reply ("continue", "yes", ".", "2"): shown,
/// never a title or a question (`noise::bare_reply`, the rule of both agents).
fn person_or_go_on(text: &str) -> Event {
    if !text.trim().is_empty() && noise::bare_reply(text) {
        Event::Note(text.to_string())
    } else {
        person_text(text)
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

/// A tool's output and the exit code it names: text (whose first lines may say how the
/// command ended, `errors::codex_exit`), JSON text with `output` and
/// `metadata.exit_code` (before 0.40), or a list of content items (later versions).
fn output(v: Option<&Value>) -> (String, Option<i64>) {
    let raw = match v {
        Some(Value::String(_) | Value::Array(_)) => content_text(v),
        Some(Value::Object(_)) => v.map(|v| v.to_string()).unwrap_or_default(),
        _ => return (String::new(), None),
    };
    if let Ok(parsed) = serde_json::from_str::<Value>(&raw) {
        if let Some(out) = parsed.get("output").and_then(Value::as_str) {
            let code = parsed
                .get("metadata")
                .and_then(|m| m.get("exit_code"))
                .and_then(Value::as_i64);
            return (
                out.to_string(),
                code.or_else(|| crate::capture::errors::codex_exit(out)),
            );
        }
    }
    let code = crate::capture::errors::codex_exit(&raw);
    (raw, code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_ide_wrapper_s_request_is_read_by_the_same_rules() {
        let ide = |request: &str| {
            format!("# Context from my IDE setup:\n\n## Active file: src/cart.ts\n\n## Open tabs:\n- cart.ts: src/cart.ts\n\n## My request for Codex:\n{request}\n")
        };
        let template = |input: &str| {
            format!("## User Input\n\n```text\n{input}\n```\n\nYou **MUST** consider the user input.\n\n## Outline\n\n1. Run the checks.")
        };
        // A prompt file inserted in the editor gives its input, or none when unfilled.
        assert_eq!(
            wrapped_request(&ide(&template("Add a wishlist page"))).as_deref(),
            Some("Add a wishlist page")
        );
        assert_eq!(
            wrapped_request(&ide(&template("$ARGUMENTS"))).as_deref(),
            Some("")
        );
        // Written with Windows line ends, the same.
        let crlf = ide(&template("$ARGUMENTS")).replace('\n', "\r\n");
        assert_eq!(wrapped_request(&crlf).as_deref(), Some(""));
        // A request of the person's own words stays as written.
        assert_eq!(
            wrapped_request(&ide("Why is the total off by a cent?")).as_deref(),
            Some("Why is the total off by a cent?")
        );
        assert_eq!(
            wrapped_request(&template("Add a wishlist page")).as_deref(),
            Some("Add a wishlist page")
        );
        assert_eq!(wrapped_request("Why is the total off by a cent?"), None);
        // What the wrapper holds is a prompt, a note when a bare reply.
        let r = Reader::default();
        assert_eq!(
            r.person(&ide(&template("Add a wishlist page")))[0],
            Event::Prompt("Add a wishlist page".into())
        );
        assert!(matches!(&r.person(&ide("继续"))[0], Event::Note(t) if t == "继续"));
        let unfilled = r.person(&ide(&template("$ARGUMENTS")));
        assert_eq!(unfilled.len(), 1);
        assert!(matches!(&unfilled[0], Event::Note(t) if t.contains("$ARGUMENTS")));
    }

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
            ("boom".into(), Some(2))
        );
        assert_eq!(
            output(Some(&json!("Exit code: 1\nWall time: 0s\nOutput:\nx"))).1,
            Some(1)
        );
        let unified = "Chunk ID: 4f2a\nWall time: 0.2 seconds\nProcess exited with code 101\nOriginal token count: 9\nOutput:\nerror: x";
        assert_eq!(output(Some(&json!(unified))).1, Some(101));
        assert_eq!(
            output(Some(
                &json!([{"type": "input_text", "text": "Exit code: 0\nOutput:\nok"}])
            )),
            ("Exit code: 0\nOutput:\nok".into(), Some(0))
        );
        assert_eq!(output(Some(&json!("plain text"))).1, None);
    }
}
