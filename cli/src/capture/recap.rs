//! The recap of a segment without a compaction summary (docs/capture.md#recaps): the
//! agent's last answer that reports a result, never a sentence announcing its next step
//! or a question to the person; marked unfinished where the segment ended mid-task.
use super::{noise, Event, Record};

/// How the recap of a segment that ended mid-task begins.
pub const UNFINISHED: &str = "(unfinished)";
/// What follows it when no answer of the segment reported a result.
const NOTHING_REPORTED: &str = "The session ended before the agent reported a result.";

/// The longest answer that may be a mere announcement ("I'll build you …"): a longer one
/// holds more than that.
const ANNOUNCEMENT_CHARS: usize = 400;
const ANNOUNCEMENT_LINES: usize = 4;

/// The recap: the last answer that reports a result, without the offers and questions
/// that close it; `(unfinished)` before it (or before `NOTHING_REPORTED`) where the
/// agent was still at work when the segment ended; empty when the agent finished without
/// reporting anything.
pub fn recap(segment: &[Record]) -> String {
    let only_sidechain = segment.iter().all(|r| r.sidechain);
    let own: Vec<&Record> = segment
        .iter()
        .filter(|r| !r.sidechain || only_sidechain)
        .collect();
    let answers = || {
        own.iter().enumerate().filter_map(|(i, r)| match &r.event {
            Event::Answer(t) if !t.trim().is_empty() => Some((i, t.trim())),
            _ => None,
        })
    };
    let last = answers().next_back();
    let after = &own[last.map_or(0, |(i, _)| i + 1)..];
    let mid_task = after.iter().any(|r| match &r.event {
        // Tools still running, a request not answered, an interruption.
        Event::ToolCall { .. } | Event::ToolResult { .. } => true,
        Event::Prompt(t) => noise::is_request(t) && !noise::small_talk(t),
        Event::Note(t) => t.trim_start().starts_with("[Request interrupted by user"),
        _ => false,
    }) || last.is_some_and(|(_, t)| announces(t));
    let report = last_report(segment);
    match (mid_task, report) {
        (false, report) => report.unwrap_or_default(),
        (true, Some(report)) => format!("{UNFINISHED} {report}"),
        (true, None) => format!("{UNFINISHED} {NOTHING_REPORTED}"),
    }
}

/// The last result the agent reported in a segment (its own answers, not a sub-agent's,
/// unless the segment is a sub-agent's): the answer without the offers and questions
/// that close it.
pub fn last_report(segment: &[Record]) -> Option<String> {
    let only_sidechain = segment.iter().all(|r| r.sidechain);
    segment
        .iter()
        .rev()
        .filter(|r| !r.sidechain || only_sidechain)
        .find_map(|r| match &r.event {
            Event::Answer(t) if !t.trim().is_empty() => reported(t.trim()),
            _ => None,
        })
}

/// The result an answer reports: the answer without the offers and questions that close
/// it; none when it only announces, asks or acknowledges.
fn reported(answer: &str) -> Option<String> {
    if announces(answer) || only_asks(answer) || acknowledges(answer) {
        return None;
    }
    let mut paragraphs: Vec<&str> = answer
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    while paragraphs.len() > 1 && paragraphs.last().is_some_and(|p| only_asks(p)) {
        paragraphs.pop();
    }
    Some(paragraphs.join("\n\n"))
}

/// Words with which an answer only opens ("Perfect!", "Now,"), before what it says.
const OPENERS: &[&str] = &[
    "perfect",
    "great",
    "excellent",
    "good",
    "nice",
    "awesome",
    "ok",
    "okay",
    "alright",
    "all right",
    "sure",
    "got it",
    "understood",
    "right",
    "now",
    "so",
    "then",
    "yes",
    "absolutely",
    "certainly",
    "of course",
];

/// How an answer that announces the agent's next step begins.
const INTENTS: &[&str] = &[
    "i'll ",
    "i will ",
    "i'm going to ",
    "i am going to ",
    "let me ",
    "let's ",
    "lets ",
    "next, ",
    "next i",
    "first, ",
    "first i",
    "i need to ",
    "i should ",
    "we need to ",
    "i'm now going",
    "time to ",
    "now i'll ",
    "now let me ",
    "step ",
];

/// An answer that only announces what the agent does next: a heading alone ("**Step 2:
/// Update `pvc.go`**"), a short answer opening with "I'll …" / "Let me …", or one that
/// ends with a colon before the call it introduces.
pub fn announces(answer: &str) -> bool {
    let t = answer.trim();
    let lines: Vec<&str> = t.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    if lines.is_empty() {
        return false;
    }
    let short = t.chars().count() <= ANNOUNCEMENT_CHARS && lines.len() <= ANNOUNCEMENT_LINES;
    if lines.len() == 1 && (heading(lines[0]) || lines[0].trim_end_matches('*').ends_with(':')) {
        return true;
    }
    if !short {
        return false;
    }
    let last = lines[lines.len() - 1].trim_end_matches(['*', ' ']);
    if last.ends_with(':') && lines.len() <= 2 {
        return true;
    }
    let opening = lowered(without_openers(t));
    let opening = opening.trim_start_matches(['*', '#', ' ']);
    INTENTS.iter().any(|i| opening.starts_with(i))
}

/// The text in lower case, with the typographic apostrophe some agents write (`I’ll`)
/// as the plain one.
fn lowered(text: &str) -> String {
    text.to_lowercase().replace('\u{2019}', "'")
}

/// A line that is only a heading: `## …` or `**…**`.
fn heading(line: &str) -> bool {
    line.starts_with('#') || (line.starts_with("**") && line.ends_with("**") && line.len() > 4)
}

/// The text past the interjections it opens with ("Perfect! Now I'll …" → "I'll …").
fn without_openers(text: &str) -> &str {
    let mut t = text.trim_start();
    loop {
        let lower = t.to_lowercase();
        let Some(o) = OPENERS.iter().find(|o| {
            lower.starts_with(*o)
                && lower[o.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| matches!(c, '!' | '.' | ',' | ' ' | '—' | '-' | ':'))
        }) else {
            return t;
        };
        // The opener's length is the same in the lowered text: openers are ASCII.
        t = t[o.len()..].trim_start_matches(['!', '.', ',', ' ', '—', '-', ':']);
    }
}

/// How the sentences that offer more or ask the person begin.
const OFFERS: &[&str] = &[
    "would you like",
    "do you want",
    "shall i",
    "should i",
    "want me to",
    "let me know",
    "what else",
    "anything else",
    "is there anything",
    "feel free",
    "if you'd like",
    "if you want",
    "happy to",
    "what would you like",
    "how would you like",
    "ready when",
];

/// An answer (or a paragraph) that only asks the person or offers more.
fn only_asks(text: &str) -> bool {
    let sentences: Vec<&str> = text
        .split_inclusive(['.', '?', '!', '\n'])
        .map(str::trim)
        .filter(|s| s.chars().any(char::is_alphanumeric))
        .collect();
    !sentences.is_empty()
        && sentences.iter().all(|s| {
            let rest = without_openers(s);
            let lower = lowered(rest);
            // "Sure!" before the question says nothing of its own.
            !rest.chars().any(char::is_alphanumeric)
                || s.ends_with('?')
                || OFFERS.iter().any(|o| lower.starts_with(o))
        })
}

/// An answer that only acknowledges ("Got it.", "Understood!").
fn acknowledges(text: &str) -> bool {
    let t = text.trim().trim_end_matches(['.', '!', ' ']);
    t.chars().count() <= 20 && without_openers(t).trim().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(t: &str) -> Record {
        Record::untimed(Event::Answer(t.into()))
    }
    fn prompt(t: &str) -> Record {
        Record::untimed(Event::Prompt(t.into()))
    }
    fn tool() -> Record {
        Record::untimed(Event::ToolCall {
            name: "Bash".into(),
            input: String::new(),
            command: Some("cargo test".into()),
            files: Vec::new(),
            id: None,
        })
    }

    #[test]
    fn announcements() {
        for yes in [
            "Perfect! I'll build you a dashboard with charts and filters.",
            "**Step 2: Update `pvc.go`**",
            "## Next: the migration",
            "Now let me check the tests:",
            "Great, now I'll run the whole suite to be sure.",
            "Let me look at how the config is loaded.",
            "I\u{2019}ll remove the unsafe calls and adjust the CLI next.",
            "I found the handler. Let me read it:",
        ] {
            assert!(announces(yes), "{yes}");
        }
        for no in [
            "Fixed: the rounding now happens per line. All 42 tests pass.",
            "The bug was in `tax.rs`: the rate was applied twice.",
            "Done.",
            "OK",
            &format!(
                "Let me summarise what changed:\n\n{}",
                "- a change\n".repeat(6)
            ),
        ] {
            assert!(!announces(no), "{no}");
        }
    }

    #[test]
    fn the_last_report_not_the_last_words() {
        let report = "Committed `a1b2c3`: the cache is now cleared on logout; tests pass.";
        // A report, then a question: the report, without the closing offer.
        let s = vec![
            prompt("fix the logout cache"),
            tool(),
            answer(&format!("{report}\n\nWould you like me to open a PR?")),
            answer("What else do you want to work on?"),
        ];
        assert_eq!(recap(&s), report);
        // Work that went on after the report, and ended mid-way.
        let s = vec![
            prompt("fix the logout cache"),
            answer(report),
            prompt("now also the login page"),
            answer("**Step 2: Update `login.ts`**"),
            tool(),
        ];
        assert_eq!(recap(&s), format!("{UNFINISHED} {report}"));
        // Nothing reported, the agent still at work.
        let s = vec![
            prompt("build me a dashboard"),
            answer("Perfect! I'll build you a dashboard."),
            tool(),
        ];
        assert_eq!(recap(&s), format!("{UNFINISHED} {NOTHING_REPORTED}"));
        // Ended on an announcement with no tool after it.
        let s = vec![
            prompt("migrate it"),
            answer("Let me start with the schema."),
        ];
        assert_eq!(recap(&s), format!("{UNFINISHED} {NOTHING_REPORTED}"));
        // An acknowledgement reports nothing.
        let s = vec![prompt("use tabs from now on"), answer("OK")];
        assert_eq!(recap(&s), "");
        // Finished with only a question: nothing reported, nothing unfinished.
        let s = vec![
            prompt("hi, can you help?"),
            answer("Sure! What do you want to work on?"),
        ];
        assert_eq!(recap(&s), "");
        // A request left unanswered after a report.
        let s = vec![
            prompt("a"),
            answer(report),
            prompt("and deploy it to staging"),
        ];
        assert_eq!(recap(&s), format!("{UNFINISHED} {report}"));
        // Interrupted by the person.
        let s = vec![
            prompt("a"),
            answer(report),
            Record::untimed(Event::Note("[Request interrupted by user]".into())),
        ];
        assert_eq!(recap(&s), format!("{UNFINISHED} {report}"));
    }
}
