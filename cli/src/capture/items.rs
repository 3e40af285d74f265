//! A segment as an item, literally: the title, questions, summary, atoms and transcript
//! taken from what was said, without a model (docs/capture.md#items).
use std::collections::BTreeMap;

use serde_json::json;

use super::noise;
use super::summarize::Summary;
use super::text::cut;
use super::{Agent, Event, Record, Session};
use crate::item::{Item, MAX_INDEXED, MAX_TRANSCRIPT};
use crate::project::project_of;

/// The longest title, in characters.
pub const TITLE_CHARS: usize = 120;
/// How many of the person's prompts become questions, and how long each may be.
const QUESTIONS: usize = 5;
const QUESTION_CHARS: usize = 500;
const SUMMARY_CHARS: usize = 2000;
/// Atoms of each kind kept, and the longest atom.
const ATOMS_PER_KIND: usize = 20;
const ATOM_CHARS: usize = 300;
/// The longest tool input and tool output shown in a transcript.
const SHOWN_CHARS: usize = 2000;

/// What capture's items are made with: the settings of `[capture]` and `[projects]`.
#[derive(Debug, Clone)]
pub struct Rules {
    /// Each agent's source, in the order of `Agent::ALL`.
    pub sources: Vec<(Agent, String)>,
    pub projects: BTreeMap<String, String>,
    pub gap_seconds: f64,
}

impl Rules {
    /// The rules of a configuration: each agent's source read from its setting by the
    /// agent's part (`AgentPart::source`), so that no list of agents is written here.
    pub fn of(config: &crate::config::Config) -> Rules {
        let capture = &config.capture;
        Rules {
            sources: Agent::ALL
                .iter()
                .map(|&a| (a, (super::agent_part(a).source)(capture).to_string()))
                .collect(),
            projects: config.projects.clone(),
            gap_seconds: capture.gap_hours * 3600.0,
        }
    }

    /// The source of the agent's items: its setting, else its name (the setting's
    /// default).
    pub fn source(&self, agent: Agent) -> &str {
        self.sources
            .iter()
            .find(|(a, _)| *a == agent)
            .map_or(agent.name(), |(_, s)| s.as_str())
    }
}

/// Why a segment becomes no item, if it does not: its session is a call the agent (or a
/// plug-in) made of it (a warm-up, a compaction, a prompt suggestion, a summary), the
/// person asked nothing in it (only commands, wrappers, bare replies the agent did no
/// work on), it asked only small talk ("hi", "What model are you?"), or its request
/// failed unanswered with no tool called (an API error alone).
pub fn left_out(session: &Session, segment: &[Record]) -> Option<&'static str> {
    if session.helper.is_some() {
        return Some("helper call of the agent");
    }
    let only_sidechain = segment.iter().all(|r| r.sidechain);
    let own = |r: &&Record| !r.sidechain || only_sidechain;
    let tools = segment
        .iter()
        .any(|r| matches!(r.event, Event::ToolCall { .. } | Event::ToolResult { .. }));
    let requests: Vec<&str> = segment
        .iter()
        .filter(own)
        .filter_map(|r| match &r.event {
            Event::Prompt(t) if noise::is_request(t) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    let recap = segment.iter().any(|r| matches!(r.event, Event::Recap(_)));
    // A bare reply the agent worked on ("continue", "继续", "2"), or a prompt file run
    // without its input, like a segment that goes on from a compaction, goes on with the
    // request before it: work all the same.
    let went_on = segment
        .iter()
        .filter(own)
        .any(|r| matches!(&r.event, Event::Prompt(t) | Event::Note(t) if noise::goes_on(t)));
    if requests.is_empty() && !recap && session.task.is_none() && !(tools && went_on) {
        return Some("segment without a request");
    }
    // Only a greeting or a question to the agent about itself: whatever the agent did
    // of its own accord, the person asked for no work.
    if !requests.is_empty() && requests.iter().all(|t| noise::small_talk(t)) {
        return Some("segment without work");
    }
    if tools {
        return None;
    }
    // No tool called: unanswered (an API error, an interruption, a prompt left), or
    // answered only with what the agent is (a question about itself, in any language).
    super::titles::without_work(segment, &requests, only_sidechain)
        .then_some("segment without work")
}

/// The first line of a report that holds words, past its headings (`## Result`, a bold
/// line alone) where a line of text follows, a table's lines and markup tags alone
/// (`<thinking>`), without Markdown's list and bold marks: a title of the agent's words.
fn first_line_of_words(report: &str) -> Option<String> {
    let lines: Vec<&str> = report
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('|') && !noise::wordless(l))
        .filter(|l| l.chars().filter(|c| c.is_alphanumeric()).count() >= 3)
        .collect();
    let heading = |l: &&str| l.starts_with('#') || (l.starts_with("**") && l.ends_with("**"));
    let line = lines
        .iter()
        .find(|l| !heading(l))
        .or_else(|| lines.first())?;
    let line = line.trim_start_matches(['#', '*', '-', '>', ' ']).trim();
    Some(line.replace("**", ""))
}

/// The recap written after `segment` (where the next segment opens), if any.
fn recap_after<'a>(session: &'a Session, segment: &[Record]) -> Option<&'a str> {
    let end = super::redact::offset(&session.records, segment) + segment.len();
    session
        .records
        .get(end..)?
        .iter()
        .take_while(|r| !matches!(r.event, Event::Prompt(_) | Event::Answer(_)))
        .find_map(|r| match &r.event {
            // A recap of a few words says less than the agent's last answer.
            Event::Recap(t) if t.trim().chars().count() >= RECAP_CHARS => Some(t.as_str()),
            _ => None,
        })
}

/// The shortest recap taken as a segment's summary.
const RECAP_CHARS: usize = 40;

/// The item of one segment, checked as every written item is; None when the segment
/// has no timed record (no time to give it) or makes no item (`left_out`).
pub fn item_of(
    session: &Session,
    segment: &[Record],
    rules: &Rules,
) -> Result<Option<Item>, String> {
    let Some(at) = segment.iter().rev().find_map(|r| r.at) else {
        return Ok(None);
    };
    if left_out(session, segment).is_some() {
        return Ok(None);
    }
    let agent = session.agent.unwrap_or_default();
    let only_sidechain = segment.iter().all(|r| r.sidechain);
    let prompts: Vec<&str> = segment
        .iter()
        .filter(|r| !r.sidechain || only_sidechain)
        .filter_map(|r| match &r.event {
            Event::Prompt(t) => Some(t.trim()),
            _ => None,
        })
        .filter(|t| noise::is_request(t))
        .collect();
    let summary_record = super::titles::of_segment(session, segment);
    let recap_line = || {
        segment.iter().find_map(|r| match &r.event {
            // Its first line of content, not a heading ("1. Primary Request and Intent:",
            // "## 1. Primary Request and Intent", "**7. Pending Tasks:**").
            Event::Recap(t) => t
                .lines()
                .map(|l| l.trim().trim_start_matches(['#', '*', '-', ' ']).trim())
                .find(|l| l.chars().count() > 12 && !l.ends_with(':') && !noise::summary_heading(l))
                // Markdown's bold marks are no text of a title ("**Main Request:** …").
                .map(|l| l.replace("**", "")),
            _ => None,
        })
    };
    // The title of a segment that only goes on with an earlier request.
    let continued = |earlier: &str| {
        const MARK: &str = " (continued)";
        format!("{}{MARK}", cut(earlier, TITLE_CHARS - MARK.len()))
    };
    // The person's title, then the agent's, then a summary record, then a request.
    let title_text = session
        .task
        .clone()
        .or_else(|| {
            session
                .custom_title
                .clone()
                .filter(|t| !noise::program_text(t))
        })
        .or_else(|| session.ai_title.clone().filter(|t| !noise::program_text(t)))
        .or(summary_record)
        .or_else(|| {
            // A resumed conversation that goes on with "run it" goes on with the request
            // it was resumed from.
            let own = super::titles::request_title(segment, only_sidechain);
            match (own, &session.continues) {
                (Some(t), Some(earlier)) if noise::slight(&t) => Some(continued(earlier)),
                (own, _) => own,
            }
        })
        .or_else(recap_line)
        // A segment whose only words were bare replies ("continue", "继续", "2") goes on
        // with the request before it, in its session or in the one it was resumed from;
        // with none known, what the agent reported doing in it says what it was.
        .or_else(|| super::titles::continued_from(session, segment).map(|t| continued(&t)))
        .or_else(|| super::recap::last_report(segment).and_then(|r| first_line_of_words(&r)))
        .unwrap_or_else(|| format!("{} session {}", agent.name(), session.id));
    let first_line = noise::unframed(title_text.trim().lines().next().unwrap_or(""));
    let title = cut(&first_line, TITLE_CHARS);
    let questions: Vec<String> = prompts
        .iter()
        .take(QUESTIONS)
        .map(|p| cut(p, QUESTION_CHARS))
        .collect();
    let summary = match recap_after(session, segment) {
        Some(t) => cut(t.trim(), SUMMARY_CHARS),
        None => cut(&super::recap::recap(segment), SUMMARY_CHARS),
    };
    let mut facts = atoms(segment);
    if let Some(branch) = session.branch.as_deref() {
        if !matches!(branch, "main" | "master" | "trunk" | "develop") {
            facts.push(cut(&format!("branch: {branch}"), ATOM_CHARS));
        }
    }
    let value = json!({
        "source": rules.source(agent),
        "project": session.project_folder.as_deref().or(session.cwd.as_deref()).and_then(|c| project_of(c, &rules.projects)),
        "title": clean(&title),
        "summary": clean(&summary),
        "questions": clean(&bounded(&questions.join("\n"), MAX_INDEXED)),
        "atoms": clean(&bounded(&facts.join("\n"), MAX_INDEXED)),
        "occurred_at": recall_core::time::normalize(&at),
        "transcript": clean(&transcript(segment)),
    });
    Item::from_json(&value).map(Some)
}

/// The literal item with what a summariser gave in place of its fields, bounded and
/// checked as the literal ones are.
pub fn with_summary(literal: &Item, s: Summary) -> Result<Item, String> {
    let title = s
        .title
        .map(|t| cut(t.trim().lines().next().unwrap_or("").trim(), TITLE_CHARS))
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| literal.title.clone());
    let summary = s
        .summary
        .map(|t| cut(t.trim(), SUMMARY_CHARS))
        .unwrap_or_else(|| literal.summary.clone());
    let lines = |list: Option<Vec<String>>, per: usize, old: &str| match list {
        Some(l) => {
            let kept: Vec<String> = l
                .iter()
                .map(|q| cut(q.trim(), per))
                .filter(|q| !q.is_empty())
                .collect();
            bounded(&kept.join("\n"), MAX_INDEXED)
        }
        None => old.to_string(),
    };
    let value = json!({
        "source": literal.source,
        "project": literal.project,
        "title": clean(&title),
        "summary": clean(&summary),
        "questions": clean(&lines(s.questions, QUESTION_CHARS, &literal.questions)),
        "atoms": clean(&lines(s.atoms, ATOM_CHARS, &literal.atoms)),
        "occurred_at": literal.occurred_at,
        "transcript": literal.transcript,
    });
    Item::from_json(&value).map_err(|e| format!("the summariser's answer makes a bad item: {e}"))
}

/// The verbatim facts of a segment: error lines, commands run, files written; each kind
/// deduplicated, in order, and bounded. Error lines come only from the calls that failed
/// (`errors::error_lines`).
pub fn atoms(segment: &[Record]) -> Vec<String> {
    let errors = super::errors::error_lines(segment)
        .iter()
        .map(|l| cut(l, ATOM_CHARS))
        .collect();
    let (mut commands, mut files) = (Vec::new(), Vec::new());
    for r in segment {
        if let Event::ToolCall {
            command, files: f, ..
        } = &r.event
        {
            // One atom a line: a command of several lines (a heredoc, a commit
            // message) is joined into one.
            commands.extend(command.iter().map(|c| {
                let one: Vec<&str> = c.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
                cut(&one.join(" "), ATOM_CHARS)
            }));
            // The agent's own bookkeeping (a plan, a to-do list) is no file of the work.
            files.extend(
                f.iter()
                    .filter(|f| !crate::agents::Agent::state_file(f))
                    .map(|f| cut(f, ATOM_CHARS)),
            );
        }
    }
    let mut out = Vec::new();
    for kind in [errors, commands, files] {
        let mut kept = Vec::new();
        for a in kind {
            if !a.is_empty() && !kept.contains(&a) && kept.len() < ATOMS_PER_KIND {
                kept.push(a);
            }
        }
        out.extend(kept);
    }
    out
}

/// The segment as people read it: who said what, the tools called and their output
/// trimmed; at most the transcript limit.
pub fn transcript(segment: &[Record]) -> String {
    let mut out = String::new();
    for r in segment {
        let side = if r.sidechain { "(sub-agent) " } else { "" };
        let line = match &r.event {
            Event::Prompt(t) => format!("{side}person: {}", t.trim()),
            Event::Note(t) => format!("{side}note: {}", cut(t.trim(), SHOWN_CHARS)),
            Event::Answer(t) => format!("{side}agent: {}", t.trim()),
            Event::ToolCall { name, input, .. } => {
                format!("{side}agent ran {name}: {}", cut(input.trim(), SHOWN_CHARS))
            }
            Event::ToolResult { text, error, .. } => {
                let what = if *error { "error" } else { "output" };
                format!("{side}{what}: {}", cut(text.trim(), SHOWN_CHARS))
            }
            Event::Compaction => "(the conversation was compacted here)".to_string(),
            Event::Recap(t) => format!("recap: {}", cut(t.trim(), SHOWN_CHARS)),
            Event::Summary(t) => format!("summary: {}", t.trim()),
        };
        if out.len() + line.len() + 1 > MAX_TRANSCRIPT {
            out.push_str("(the rest is left out: the transcript limit is reached)\n");
            break;
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// At most `max` bytes, cut at a line break.
fn bounded(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let kept = &text[..end];
    kept[..kept.rfind('\n').unwrap_or(0)].to_string()
}

/// NUL characters, which no stored text may hold, as the replacement character.
fn clean(text: &str) -> String {
    text.replace('\0', "\u{fffd}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, command: Option<&str>) -> Record {
        Record::untimed(Event::ToolCall {
            name: name.into(),
            input: String::new(),
            command: command.map(str::to_string),
            files: Vec::new(),
            id: None,
        })
    }

    #[test]
    fn commands_and_files() {
        // A command of several lines is one atom.
        let heredoc = vec![call(
            "Bash",
            Some("git commit -m \"$(cat <<'EOF'\nFix it\nEOF\n)\""),
        )];
        assert_eq!(
            atoms(&heredoc),
            vec!["git commit -m \"$(cat <<'EOF' Fix it EOF )\""]
        );
    }

    #[test]
    fn the_agents_own_files_are_no_file_atoms() {
        let write = |file: &str| {
            Record::untimed(Event::ToolCall {
                name: "Write".into(),
                input: String::new(),
                command: None,
                files: vec![file.into()],
                id: None,
            })
        };
        let segment = vec![
            write("/home/ana/.claude/plans/quiet-dancing-otter.md"),
            write("/home/ana/shop/src/tax.rs"),
            write("/home/ana/.claude/todos/5f1c.json"),
            write("/home/ana/.claude/skills/tax/SKILL.md"),
        ];
        assert_eq!(
            atoms(&segment),
            vec![
                "/home/ana/shop/src/tax.rs",
                "/home/ana/.claude/skills/tax/SKILL.md"
            ]
        );
    }

    #[test]
    fn cuts_are_bounded() {
        assert_eq!(bounded("ab\ncd\nef", 7), "ab\ncd");
        assert_eq!(bounded("ab", 7), "ab");
    }
}
