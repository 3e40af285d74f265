//! Reading coding agents' session files (Claude Code transcripts, Codex CLI rollouts)
//! into sessions, splitting them into segments and turning each segment into an item,
//! literally, without a model (docs/capture.md).
pub mod copies;
pub mod discover;
pub mod errors;
pub mod items;
pub mod lines;
pub mod noise;
pub mod recap;
pub mod redact;
pub mod run;
pub mod segment;
pub mod shell;
pub mod summarize;
pub mod text;
pub mod titles;

use std::collections::BTreeMap;
use std::path::Path;

use chrono::{DateTime, Utc};

/// The agent whose file a session was read from (its name is the one in the library's
/// capture records, and its items' default source).
pub use crate::agents::Agent;

/// An agent's part of capture, held by its file here (`claude`, `codex`).
pub struct AgentPart {
    /// Its transcript reader: the session of a file read as lines.
    pub read: fn(&Path, &lines::Lines) -> Session,
    /// The folder a session's project is read from when the session's `cwd` is not on
    /// this machine, where the agent's files tell one (`folders`).
    pub project_folder: fn(&Path, &str) -> Option<String>,
    /// Its setting of the source of the items made of its sessions (`[capture]`).
    pub source: fn(&crate::config::table::Capture) -> &str,
}

/// Each agent's part of capture, from the one table of them (`agents::capture`).
pub use crate::agents::capture::part as agent_part;

/// What one record of a session says.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A real prompt of the person.
    Prompt(String),
    /// Text in the person's turn that the person did not write: a command wrapper, a
    /// reminder, an interrupted request, injected context. Shown, never a question.
    Note(String),
    /// The agent's text answer.
    Answer(String),
    /// A tool the agent called: its name, its input as shown, the command it ran and the
    /// files it wrote, when it did; `id` the agent's id of the call, which its result
    /// names.
    ToolCall {
        name: String,
        input: String,
        command: Option<String>,
        files: Vec<String>,
        id: Option<String>,
    },
    /// A tool's output; `error` when the tool or the command said it failed, `exit` the
    /// command's exit code when the agent wrote one, `id` the id of the call it answers.
    ToolResult {
        text: String,
        error: bool,
        exit: Option<i64>,
        id: Option<String>,
    },
    /// The conversation was compacted here: a new segment begins.
    Compaction,
    /// The agent's recap of the segment before a compaction, written where the next one
    /// opens: that earlier segment's summary.
    Recap(String),
    /// The agent's own summary of the session.
    Summary(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub at: Option<DateTime<Utc>>,
    pub event: Event,
    /// Part of a sub-agent's conversation inside the main transcript.
    pub sidechain: bool,
}

/// A session file as read.
#[derive(Debug, Clone, Default)]
pub struct Session {
    pub agent: Option<Agent>,
    pub id: String,
    pub cwd: Option<String>,
    pub records: Vec<Record>,
    /// Lines left out, by kind (an unknown record type is `type:NAME`).
    pub skipped: BTreeMap<String, u64>,
    /// Records of a type no reader knows that hold no conversation (no message): the
    /// program's own bookkeeping, counted quietly by type.
    pub program_records: BTreeMap<String, u64>,
    /// The index in `records` where each record with a `uuid` (Claude Code) begins.
    pub uuids: std::collections::HashMap<String, usize>,
    /// The `summary` records the file holds, each with the `leafUuid` it names: the
    /// last message of the session it summarises, which may be in another file.
    pub summaries: Vec<(Option<String>, String)>,
    /// The summaries that title this session, at the index of the record they name:
    /// its own file's, and those other files hold of it (`titles`).
    pub titled: Vec<(usize, String)>,
    /// The session's title as the person named it (Claude Code's `/rename`).
    pub custom_title: Option<String>,
    /// The folder the session's project is read from when it is not `cwd`: an outer
    /// folder another session ran in (`folders`).
    pub project_folder: Option<String>,
    /// The title the agent generated for the session.
    pub ai_title: Option<String>,
    /// The git branch the session worked on, when the transcript names one.
    pub branch: Option<String>,
    /// A sub-agent's task, as its parent's call described it: its title.
    pub task: Option<String>,
    /// Why the session is a call the agent made of itself (a warm-up, a compaction, a
    /// prompt suggestion), which becomes no item.
    pub helper: Option<&'static str>,
    /// The request of the conversation a resumed file goes on from (in the records left
    /// out as copies): the title of a continuation whose own requests name no work.
    pub continues: Option<String>,
}

impl Session {
    pub fn skip(&mut self, kind: &str) {
        *self.skipped.entry(kind.to_string()).or_default() += 1;
    }

    /// Whether anything was said in the file: a file the agent wrote with no
    /// conversation (empty, or only snapshots and summaries) is no session.
    pub fn has_conversation(&self) -> bool {
        !self.records.is_empty()
    }
}

/// Reads a session file of either agent; an error names the file and what it is not.
pub fn read_session(path: &Path) -> Result<Session, String> {
    let lines = lines::read(path)?;
    let agent = lines
        .values
        .iter()
        .find_map(|(_, v)| Agent::of_record(v))
        .or_else(|| Agent::of_file_name(&path.file_name()?.to_string_lossy()));
    // Nothing but blank lines and a last line still being written: a file the agent
    // opened and has not written a record to yet, which holds no conversation.
    let blank = lines.values.is_empty() && lines.skipped.keys().all(|k| k == CUT_SHORT);
    let mut session = match agent {
        Some(agent) => (agent_part(agent).read)(path, &lines),
        None if blank => return Ok(Session::default()),
        None => {
            return Err(format!(
                "{}: not a {} session file (no line reads as one of their records)",
                path.display(),
                Agent::titles("or")
            ))
        }
    };
    for (kind, n) in &lines.skipped {
        *session.skipped.entry(kind.clone()).or_default() += n;
    }
    if session.id.is_empty() {
        session.id = stem(path);
    }
    if session.helper.is_none() {
        let first = session.records.iter().find_map(|r| match &r.event {
            Event::Prompt(t) => Some(t.as_str()),
            _ => None,
        });
        session.helper = first.and_then(noise::helper_prompt).or_else(|| {
            // A plug-in's helper is told by the folder it works in, whatever it asks.
            session.cwd.as_deref().and_then(noise::helper_folder)
        });
    }
    // Colour and terminal codes go before anything is read of the text.
    errors::ansi_out(&mut session.records);
    private_out(&mut session);
    titles::own(&mut session);
    if session.records.is_empty() && lines.values.is_empty() && !blank {
        return Err(format!(
            "{}: not a {} session file (no line reads as JSON)",
            path.display(),
            Agent::titles("or")
        ));
    }
    Ok(session)
}

/// How `lines` counts a last line cut short (a record still being written).
const CUT_SHORT: &str = "last line cut short";

/// `<private>` spans taken out of every text read, before anything is made of it.
fn private_out(session: &mut Session) {
    rewrite_texts(&mut session.records, noise::without_private);
    let titles = [
        &mut session.custom_title,
        &mut session.ai_title,
        &mut session.task,
    ];
    let summaries = session.summaries.iter_mut().map(|(_, t)| t);
    for t in titles.into_iter().flatten().chain(summaries) {
        if let std::borrow::Cow::Owned(kept) = noise::without_private(t) {
            *t = kept;
        }
    }
}

/// Every text of the records (prompts, answers, notes, recaps, summaries, tool inputs,
/// commands and results) through `rewrite`, replaced where it gives a new one.
pub fn rewrite_texts(records: &mut [Record], rewrite: impl Fn(&str) -> std::borrow::Cow<'_, str>) {
    let apply = |t: &mut String| {
        if let std::borrow::Cow::Owned(kept) = rewrite(t) {
            *t = kept;
        }
    };
    for r in records {
        match &mut r.event {
            Event::Prompt(t)
            | Event::Note(t)
            | Event::Answer(t)
            | Event::Recap(t)
            | Event::Summary(t) => apply(t),
            Event::ToolCall { input, command, .. } => {
                apply(input);
                if let Some(c) = command {
                    apply(c);
                }
            }
            Event::ToolResult { text, .. } => apply(text),
            Event::Compaction => {}
        }
    }
}

/// A file's name without its extension: the id of the session it holds, where the
/// agent names it so.
pub fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default()
}

/// A record's time, read by the library's rule; none when missing or unreadable.
pub fn time_of(v: &serde_json::Value) -> Option<DateTime<Utc>> {
    v.get("timestamp")
        .and_then(|t| t.as_str())
        .and_then(recall_core::time::parse_datetime)
}

/// A tool result's content: text, or the text blocks of a list (both agents write
/// both).
pub fn content_text(content: Option<&serde_json::Value>) -> String {
    match content {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(serde_json::Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(serde_json::Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// A tool's input as the transcript shows it: its text when it is one string field,
/// else its JSON.
pub fn shown_input(input: &serde_json::Value) -> String {
    match input {
        serde_json::Value::Object(map) if map.len() == 1 => match map.values().next() {
            Some(serde_json::Value::String(s)) => s.clone(),
            _ => input.to_string(),
        },
        serde_json::Value::String(s) => s.clone(),
        _ => input.to_string(),
    }
}

/// The text of the person's turn, as a prompt or as a note when the agent put it there.
pub fn person_text(text: &str) -> Event {
    if noise::not_written(text) {
        Event::Note(text.to_string())
    } else {
        Event::Prompt(text.to_string())
    }
}

/// A record with no time and not of a sub-agent: the unit tests' building block.
#[cfg(test)]
impl Record {
    pub fn untimed(event: Event) -> Record {
        Record {
            at: None,
            event,
            sidechain: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_spans_leave_every_text_of_either_agent() {
        let secret = "<private>s3cr3t</private>";
        let mut s = Session {
            agent: Some(Agent::Codex),
            ai_title: Some(format!("title {secret}")),
            ..Session::default()
        };
        for event in [
            Event::Prompt(format!("deploy {secret} now")),
            Event::Answer(format!("done {secret}")),
            Event::ToolCall {
                name: "shell".into(),
                input: format!("{{\"cmd\":\"echo {secret}\"}}"),
                command: Some(format!("echo {secret}")),
                files: Vec::new(),
                id: None,
            },
            Event::ToolResult {
                text: format!("{secret} and <private>unclosed"),
                error: false,
                exit: None,
                id: None,
            },
        ] {
            s.records.push(Record {
                at: None,
                event,
                sidechain: false,
            });
        }
        private_out(&mut s);
        let shown = format!("{:?} {:?}", s.records, s.ai_title);
        assert!(
            !shown.contains("s3cr3t") && !shown.contains("unclosed"),
            "{shown}"
        );
        assert!(shown.contains("deploy  now"), "{shown}");
    }

    #[test]
    fn each_agent_s_reader_reads_its_own_transcript() {
        for &agent in Agent::ALL {
            let line = crate::agents::tests::first_line(agent);
            let text = format!("{line}\n");
            let lines = lines::read_from(text.as_bytes(), 1 << 20).unwrap();
            assert_eq!(
                lines.values.iter().find_map(|(_, v)| Agent::of_record(v)),
                Some(agent)
            );
            let s = (agent_part(agent).read)(Path::new("/t/s.jsonl"), &lines);
            assert_eq!(s.agent, Some(agent), "{}", agent.name());
            assert_eq!(s.cwd.as_deref(), Some("/w/shop"), "{}", agent.name());
        }
        // Each agent's items have its own source setting.
        let mut config = crate::config::Config::default();
        config.capture.claude_source = "c".into();
        config.capture.codex_source = "x".into();
        let rules = items::Rules::of(&config);
        let sources: Vec<&str> = Agent::ALL.iter().map(|a| rules.source(*a)).collect();
        assert_eq!(sources, ["c", "x"]);
    }

    #[test]
    fn wrappers_and_interruptions_are_not_prompts() {
        for note in [
            "<command-name>/clear</command-name>",
            "[Request interrupted by user for tool use]",
            "  <system-reminder>x</system-reminder>",
            "<environment_context><cwd>/x</cwd></environment_context>",
            "",
        ] {
            assert!(matches!(person_text(note), Event::Note(_)), "{note}");
        }
        assert!(matches!(
            person_text("<ide_opened_file>The user opened a.rs</ide_opened_file>"),
            Event::Note(_)
        ));
        assert_eq!(
            person_text("fix the <b> tag"),
            Event::Prompt("fix the <b> tag".into())
        );
    }
}
