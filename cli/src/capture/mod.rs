//! Reading coding agents' session files (Claude Code transcripts, Codex CLI rollouts)
//! into sessions, splitting them into segments and turning each segment into an item,
//! literally, without a model (docs/capture.md).
pub mod claude;
pub mod codex;
pub mod copies;
pub mod discover;
pub mod errors;
pub mod folders;
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

/// The agent whose file a session was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    Claude,
    Codex,
}

impl Agent {
    /// Its name in the library's capture records and its default source.
    pub fn name(self) -> &'static str {
        match self {
            Agent::Claude => "claude-code",
            Agent::Codex => "codex",
        }
    }
}

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
        .find_map(|(_, v)| detect(v))
        .or_else(|| {
            let name = path.file_name()?.to_string_lossy().to_string();
            name.starts_with("rollout-").then_some(Agent::Codex)
        });
    // Nothing but blank lines and a last line still being written: a file the agent
    // opened and has not written a record to yet, which holds no conversation.
    let blank = lines.values.is_empty() && lines.skipped.keys().all(|k| k == CUT_SHORT);
    let mut session = match agent {
        Some(Agent::Claude) => claude::read(&lines),
        Some(Agent::Codex) => codex::read(&lines),
        None if blank => return Ok(Session::default()),
        None => {
            return Err(format!(
            "{}: not a Claude Code or Codex session file (no line reads as one of their records)",
            path.display()
        ))
        }
    };
    for (kind, n) in &lines.skipped {
        *session.skipped.entry(kind.clone()).or_default() += n;
    }
    if session.id.is_empty() {
        session.id = stem(path);
    } else if agent == Some(Agent::Claude) && stem(path) != session.id {
        let own = stem(path);
        let named =
            |v: &serde_json::Value| v.get("sessionId").and_then(|i| i.as_str()) == Some(&own);
        if !own.starts_with("agent-") && lines.values.iter().any(|(_, v)| named(v)) {
            // A resumed session of version 1.0 opens with records copied under the
            // earlier session's id, then writes its own: the file's name.
            session.id = own;
        } else {
            // A sub-agent's transcript carries its parent's session id.
            claude::sub_agent(path, &mut session);
            session.id = format!("{}/{}", session.id, own);
        }
    }
    if session.helper.is_none() {
        let first = session.records.iter().find_map(|r| match &r.event {
            Event::Prompt(t) => Some(t.as_str()),
            _ => None,
        });
        session.helper = first.and_then(noise::helper_prompt);
    }
    // Colour and terminal codes go before anything is read of the text.
    errors::ansi_out(&mut session.records);
    private_out(&mut session);
    titles::own(&mut session);
    if session.records.is_empty() && lines.values.is_empty() && !blank {
        return Err(format!(
            "{}: not a Claude Code or Codex session file (no line reads as JSON)",
            path.display()
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

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default()
}

/// Which agent wrote a line, by the fields only its records have.
fn detect(v: &serde_json::Value) -> Option<Agent> {
    let kind = v.get("type").and_then(|t| t.as_str());
    match kind {
        Some("session_meta" | "turn_context" | "response_item" | "event_msg" | "compacted") => {
            Some(Agent::Codex)
        }
        Some("user" | "assistant" | "summary") => Some(Agent::Claude),
        // A file of the program's own records only (snapshots, settings) is still its.
        Some(t) if claude::KNOWN_OTHER.contains(&t) => Some(Agent::Claude),
        _ if v.get("sessionId").is_some() => Some(Agent::Claude),
        // The first line of a rollout before the envelope: the session's id and
        // instructions.
        None if v.get("id").is_some() && v.get("instructions").is_some() => Some(Agent::Codex),
        _ => None,
    }
}

/// A record's time, read by the library's rule; none when missing or unreadable.
pub fn time_of(v: &serde_json::Value) -> Option<DateTime<Utc>> {
    v.get("timestamp")
        .and_then(|t| t.as_str())
        .and_then(recall_core::time::parse_datetime)
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
