//! What in a session is not a person's request, for both agents (docs/capture.md#items):
//! text the agent or its program put in the person's turn, helper calls the agent made of
//! itself, bare go-ons, and the `<private>` spans a person keeps out of memory.

/// First words of text in the person's turn that the person did not write: command
/// wrappers and their output, reminders, hooks, IDE context, notifications, interrupted
/// requests, injected instructions. Shown in the transcript, never a question or a title.
pub const NOT_WRITTEN: &[&str] = &[
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<command-contents>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "<system-reminder>",
    "<user-prompt-submit-hook>",
    "<user-memory-input>",
    "<ide_opened_file>",
    "<ide_selection>",
    "<ide_diagnostics>",
    "<task-notification>",
    "<teammate-message",
    "<environment_context>",
    "<user_instructions>",
    "<turn_aborted>",
    "Caveat: The messages below were generated",
    "[Request interrupted by user",
    "[SYSTEM NOTIFICATION",
    "Unknown skill:",
    "# AGENTS.md instructions",
];

/// The first prompts of the agent's calls of itself, which are no work a person did:
/// Claude Code's warm-up sub-agents, its compaction helper, its prompt suggestions.
const HELPER_PROMPTS: &[(&str, &str)] = &[
    ("Warmup", "warm-up call"),
    ("[SUGGESTION MODE:", "prompt suggestion call"),
    (
        "Your task is to create a detailed summary of the conversation so far",
        "compaction call",
    ),
];

/// Replies that only ask the agent to go on: no request of their own.
const GO_ONS: &[&str] = &[
    "continue",
    "go on",
    "go ahead",
    "proceed",
    "keep going",
    "yes",
    "y",
    "yep",
    "yeah",
    "ok",
    "okay",
    "k",
    "sure",
    "next",
    "do it",
    "go",
    "please continue",
    "continue please",
    "yes please",
    "thanks",
    "thank you",
    "done",
    "retry",
    "try again",
    "carry on",
    "resume",
];

/// Greetings and questions to the agent about itself: no work of their own.
const SMALL_TALK: &[&str] = &[
    "hi",
    "hello",
    "hey",
    "hi there",
    "hello there",
    "good morning",
    "test",
    "testing",
    "ping",
    "what model are you",
    "which model are you",
    "what model is this",
    "who are you",
    "what are you",
    "what can you do",
];

/// A greeting or a question to the agent about itself ("hi", "What model are you?"),
/// or a few lines of them ("hello" then "test").
pub fn small_talk(text: &str) -> bool {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .peekable();
    lines.peek().is_some()
        && text.chars().count() <= 80
        && lines.all(|l| {
            let t = l.trim_end_matches(['.', '!', '?', ' ']);
            SMALL_TALK.iter().any(|g| t.eq_ignore_ascii_case(g))
        })
}

/// Whether text in the person's turn was put there by the agent's program.
pub fn not_written(text: &str) -> bool {
    let t = text.trim_start();
    t.is_empty() || NOT_WRITTEN.iter().any(|p| t.starts_with(p))
}

/// Why a session's first prompt makes it a helper call of the agent, if it does.
pub fn helper_prompt(text: &str) -> Option<&'static str> {
    let t = text.trim_start();
    HELPER_PROMPTS
        .iter()
        .find(|(p, _)| {
            // "Warmup" is the whole prompt; the others open a longer one.
            if *p == "Warmup" {
                t.trim_end() == *p
            } else {
                t.starts_with(p)
            }
        })
        .map(|(_, why)| *why)
}

/// A bare go-on ("continue", "yes", "."): a prompt with no request of its own.
pub fn go_on(text: &str) -> bool {
    let t = text
        .trim()
        .trim_end_matches(['.', '!', '?', ' '])
        .trim_start_matches(['.', ' ']);
    if t.is_empty() {
        return true;
    }
    t.chars().count() <= 20 && GO_ONS.iter().any(|g| t.eq_ignore_ascii_case(g))
}

/// Whether a prompt is a request: written by the person, and more than a go-on.
pub fn is_request(text: &str) -> bool {
    !not_written(text) && !go_on(text) && helper_prompt(text).is_none()
}

/// The title a prompt gives: its first line, or, when that line only announces what
/// follows ("Fix these tests:"), that line and the next, joined.
pub fn title_line(text: &str) -> String {
    // A line the person continued with a backslash ends at its text.
    let mut lines = text
        .trim()
        .lines()
        .map(|l| l.trim().trim_end_matches('\\').trim_end())
        .filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("").to_string();
    if first.ends_with(':') {
        if let Some(next) = lines.next() {
            return format!("{first} {next}");
        }
    }
    first
}

/// The text with each `<private>…</private>` span taken out (an unclosed one runs to
/// the end): what a person marks so is never stored.
pub fn without_private(text: &str) -> std::borrow::Cow<'_, str> {
    const OPEN: &str = "<private>";
    const CLOSE: &str = "</private>";
    if !text.contains(OPEN) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        out.push_str(&rest[..start]);
        let after = &rest[start + OPEN.len()..];
        match after.find(CLOSE) {
            Some(end) => rest = &after[end + CLOSE.len()..],
            None => {
                rest = "";
                break;
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_what_is_not() {
        for not in [
            "<ide_opened_file>The user opened the file /x/a.rs in the IDE.</ide_opened_file>",
            "<task-notification><task-id>b1</task-id></task-notification>",
            "<command-name>/usage</command-name>",
            "Unknown skill: usage",
            "continue",
            "Yes.",
            ".",
            "ok!",
            "Warmup",
            "[SUGGESTION MODE: Suggest what the user might naturally type next into Claude Code.]",
        ] {
            assert!(!is_request(not), "{not}");
        }
        for yes in [
            "continue the migration of the orders table",
            "yes, but keep the old column",
            "Warmup the cache before the benchmark",
        ] {
            assert!(is_request(yes), "{yes}");
        }
        assert!(small_talk("What model are you?") && small_talk("hi"));
        assert!(!small_talk("hi, the login page 500s since the deploy"));
        assert!(small_talk("hello\ntest") && small_talk("Hi!\n\nWhat model are you?"));
        assert!(!small_talk("hello\nthe login page 500s since the deploy") && !small_talk("\n"));
    }

    #[test]
    fn titles_and_private_spans() {
        assert_eq!(
            title_line("Fetch these files from GitHub:\n\n- a.rs\n- b.rs"),
            "Fetch these files from GitHub: - a.rs"
        );
        assert_eq!(title_line("Fix the build\nmore"), "Fix the build");
        assert_eq!(title_line("Note:"), "Note:");
        assert_eq!(
            title_line("close, but I get this:\\\nTypeError: x is undefined"),
            "close, but I get this: TypeError: x is undefined"
        );
        assert_eq!(
            without_private("key <private>hunter2</private> and <private>rest"),
            "key  and "
        );
        assert_eq!(without_private("plain"), "plain");
    }
}
