//! The error atoms of a segment (docs/capture.md#error-atoms): lines of the calls that
//! failed, never of what a command printed from a file, a search or the history; no
//! text the agent's program wrote itself (a refusal, an interruption, a tool used
//! wrongly), no bare exit code, no terminal codes; lines alike but for their numbers
//! are one atom.
use std::borrow::Cow;
use std::collections::{HashMap, HashSet, VecDeque};

use super::shell::shape;
use super::{Event, Record};

/// The error lines kept of one result: a failed test run prints many alike.
const LINES_PER_RESULT: usize = 5;
/// The longest command shown in "`COMMAND` exited N".
const COMMAND_CHARS: usize = 100;

/// Each text of the records without its terminal codes (colours, cursor moves, titles,
/// links), which some commands print even into a pipe.
pub fn ansi_out(records: &mut [Record]) {
    super::rewrite_texts(records, without_ansi);
}

/// The text without ECMA-48 escape sequences: CSI (`ESC [ … final`, or the one-byte
/// CSI), OSC and the other string sequences (up to BEL or `ESC \`), and two- and
/// three-character escapes.
pub fn without_ansi(text: &str) -> Cow<'_, str> {
    if !text.contains(['\u{1b}', '\u{9b}']) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let csi = |chars: &mut std::iter::Peekable<std::str::Chars>| {
        // Parameters and intermediates, then one final byte.
        while chars
            .next_if(|c| ('\u{20}'..='\u{3f}').contains(c))
            .is_some()
        {}
        chars.next_if(|c| ('\u{40}'..='\u{7e}').contains(c));
    };
    while let Some(c) = chars.next() {
        match c {
            '\u{9b}' => csi(&mut chars),
            '\u{1b}' => match chars.peek().copied() {
                Some('[') => {
                    chars.next();
                    csi(&mut chars);
                }
                Some(']' | 'P' | '_' | '^' | 'X') => {
                    chars.next();
                    while let Some(c) = chars.next() {
                        if c == '\u{7}' {
                            break;
                        }
                        if c == '\u{1b}' {
                            chars.next_if_eq(&'\\');
                            break;
                        }
                    }
                }
                Some(' '..='/') => {
                    while chars.next_if(|c| (' '..='/').contains(c)).is_some() {}
                    chars.next();
                }
                Some(_) => {
                    chars.next();
                }
                None => {}
            },
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// The exit code a Claude Code result names: `Exit code N` opening a failed Bash
/// result, `<exit_code>N</exit_code>` in a background shell's output.
pub fn claude_exit(text: &str) -> Option<i64> {
    let first = text.trim_start().lines().next().unwrap_or("").trim();
    if let Some(n) = first.strip_prefix("Exit code ") {
        return n.trim().parse().ok();
    }
    let start = text.find("<exit_code>")? + "<exit_code>".len();
    let end = text[start..].find("</exit_code>")? + start;
    text[start..end].trim().parse().ok()
}

/// The exit code the header of a Codex shell output names: `Exit code: N` (0.40 on),
/// `Process exited with code N` (the unified exec), the same inside the output of a
/// script of the code mode (`Script failed` … `Script error:` … `Exit code: 1`); none
/// while the process runs on.
pub fn codex_exit(text: &str) -> Option<i64> {
    split(text).0.into_iter().find_map(|l| {
        l.strip_prefix("Exit code:")
            .or_else(|| l.strip_prefix("Process exited with code"))
            .and_then(|n| n.trim().parse().ok())
    })
}

/// How the lines that Codex or Claude Code write above a shell command's output begin:
/// the command, how it ended, how long it took, the chunk's size; and those of the code
/// mode's scripts, which hold a command's output with its own header.
const HEADER: &[&str] = &[
    "Exit code",
    "Wall time",
    "Chunk ID:",
    "Command:",
    "Process exited with code",
    "Process running with session ID",
    "Original token count:",
    "Total output lines:",
    "Warning: truncated output",
    "Script completed",
    "Script failed",
    "Script running with cell ID",
    "Script error:",
];

/// A result's header lines, and the text after them (after the `Output:` line that
/// closes each header).
fn split(text: &str) -> (Vec<&str>, &str) {
    let mut header = Vec::new();
    let mut rest = text;
    loop {
        let t = rest.trim_start();
        let Some(line) = t.lines().next() else {
            return (header, t);
        };
        let l = line.trim();
        if HEADER.iter().any(|h| l.starts_with(h)) {
            header.push(l);
        } else if !header.is_empty() && l == "Output:" {
            // The output may open with a header of its own (a script's command).
        } else {
            let body = if header.is_empty() { text } else { t };
            return (header, body);
        }
        rest = &t[line.len()..];
    }
}

/// A result's text after its header.
pub fn body(text: &str) -> &str {
    split(text).1
}

/// How a result that the agent's program wrote in place of the tool's own output
/// begins: the person refused or interrupted the call, a permission or the sandbox held
/// it back, or the agent used the tool wrongly (`<tool_use_error>`, a file not read
/// first, a string not found, a bad argument). None is an error of the project.
const HARNESS: &[&str] = &[
    // Claude Code.
    "<tool_use_error>",
    "The user doesn't want to proceed with this tool use",
    "The user doesn't want to take this action right now",
    "The user has chosen to",
    "[Request interrupted by user",
    "Request interrupted by user",
    "Interrupted by user",
    "Claude requested permissions to",
    "Permission to use ",
    "Permission denied by user",
    "This command requires approval",
    "File has not been read yet",
    "File has been modified since read",
    "File does not exist.",
    "String to replace not found in file",
    "No changes to make:",
    "Found 2 matches of the string to replace",
    "InputValidationError:",
    "Error: No such tool available",
    "No such tool available",
    "Sibling tool call errored",
    "Cancelled: parallel tool call",
    "Hook PreToolUse",
    "PreToolUse:",
    "PostToolUse:",
    "Blocked by hook",
    // The program stopped a command at its time limit: most often a server that runs on.
    "Command timed out after",
    "Permission for this tool use was denied",
    "Tool permission request failed",
    "User chose to stay in plan mode",
    "User rejected",
    // Codex: refusals, interruptions, the sandbox, commands it could not start.
    "exec command rejected by user",
    "patch rejected by user",
    "aborted by user",
    "rejected by user",
    "failed in sandbox",
    "sandbox denied",
    "execution error:",
    "exec_command failed",
    "write_stdin failed",
    "unsupported call:",
    "failed to parse function arguments",
    "unsupported custom tool call:",
];

/// Lines the agent's program adds to a command's output: not the command's.
const HARNESS_LINES: &[&str] = &["Shell cwd was reset to", "<system-reminder>"];

/// What Claude Code writes when it refuses a command of its own accord.
const HARNESS_WORDS: &[&str] = &["For security, Claude Code may only"];

/// Whether a result is text the agent's program wrote in place of the tool's output
/// (under the header Codex writes, for a command it stopped).
fn harness(text: &str) -> bool {
    HARNESS_WORDS.iter().any(|w| text.contains(w))
        || [text, body(text)].iter().any(|t| {
            let t = t.trim_start();
            // Codex's answer for a call the person interrupted is the bare word.
            t.trim_end() == "aborted" || HARNESS.iter().any(|h| t.starts_with(h))
        })
}

/// The text as one line shows it: what a carriage return wrote last, without other
/// control characters (a terminal's backspaces, `^D`).
fn shown(line: &str) -> Cow<'_, str> {
    let last = line
        .trim_end_matches('\r')
        .rsplit('\r')
        .next()
        .unwrap_or(line);
    if last.chars().any(|c| c.is_control() && c != '\t') {
        Cow::Owned(
            last.chars()
                .filter(|c| !c.is_control() || *c == '\t')
                .collect(),
        )
    } else {
        Cow::Borrowed(last)
    }
}

/// The text without `<system-reminder>` blocks, which Claude Code appends to results.
fn without_reminders(text: &str) -> Cow<'_, str> {
    const OPEN: &str = "<system-reminder>";
    const CLOSE: &str = "</system-reminder>";
    if !text.contains(OPEN) {
        return Cow::Borrowed(text);
    }
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(OPEN) {
        out.push_str(&rest[..i]);
        rest = match rest[i..].find(CLOSE) {
            Some(j) => &rest[i + j + CLOSE.len()..],
            None => "",
        };
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// What a call is, for its result: a command run in a shell, one of the agent's own
/// tools on files, plans and questions (whose failures are the agent's use of the tool),
/// or another tool (an MCP server's, a web fetch).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Tool<'a> {
    Command(Option<&'a str>),
    Own,
    Other,
}

/// Tools that run shell commands without naming one in their call.
const COMMAND_TOOLS: &[&str] = &[
    "Bash",
    "BashOutput",
    "KillShell",
    "TaskOutput",
    "PowerShell",
    "exec",
    "shell",
    "shell_command",
    "exec_command",
    "write_stdin",
    "local_shell",
    "container.exec",
];

/// The agents' own tools: reading, writing and searching files, plans, questions.
const OWN_TOOLS: &[&str] = &[
    "Read",
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "NotebookRead",
    "Glob",
    "Grep",
    "LS",
    "TodoWrite",
    "TodoRead",
    "Task",
    "Agent",
    "ExitPlanMode",
    "EnterPlanMode",
    "AskUserQuestion",
    "Skill",
    "SlashCommand",
    "ToolSearch",
    "apply_patch",
    "view_image",
    "update_plan",
    "read_file",
    "list_dir",
    "grep_files",
    "tool_search",
    "request_user_input",
    "WebFetch",
    "WebSearch",
    "web_search",
    "TaskCreate",
    "TaskUpdate",
    "TaskList",
    "TaskGet",
    "wait",
    "wait_agent",
    "spawn_agent",
    "close_agent",
    "send_input",
    "list_mcp_resources",
    "list_mcp_resource_templates",
    "read_mcp_resource",
    "request_permissions",
];

fn tool<'a>(name: &str, command: Option<&'a str>) -> Tool<'a> {
    // The editor Zed offers Claude Code's own tools as its MCP server's.
    let name = name.strip_prefix("mcp__acp__").unwrap_or(name);
    if let Some(c) = command {
        return if shape(c).edits {
            Tool::Own
        } else {
            Tool::Command(Some(c))
        };
    }
    if COMMAND_TOOLS.contains(&name) {
        Tool::Command(None)
    } else if OWN_TOOLS.contains(&name) {
        Tool::Own
    } else {
        Tool::Other
    }
}

/// The error lines of a segment: of each result of a call that failed, the lines that
/// say why; alike but for their numbers, one line; in order.
pub fn error_lines(segment: &[Record]) -> Vec<String> {
    // Results name their call by id; those of calls without one follow in call order.
    let mut by_id: HashMap<&str, (&str, Option<Cow<str>>)> = HashMap::new();
    let mut in_order: VecDeque<(&str, Option<Cow<str>>)> = VecDeque::new();
    let mut found = Vec::new();
    for r in segment {
        match &r.event {
            Event::ToolCall {
                name,
                command,
                id,
                input,
                ..
            } => {
                let command = match command {
                    Some(c) => Some(Cow::Borrowed(c.as_str())),
                    None => script_command(input).map(Cow::Owned),
                };
                let call = (name.as_str(), command);
                match id {
                    Some(id) => {
                        by_id.insert(id.as_str(), call);
                    }
                    None => in_order.push_back(call),
                }
            }
            Event::ToolResult {
                text,
                error,
                exit,
                id,
            } => {
                let call = match id {
                    Some(id) => by_id.remove(id.as_str()),
                    None => in_order.pop_front(),
                };
                let kind = match &call {
                    Some((name, command)) => tool(name, command.as_deref()),
                    // A result whose call is in an earlier segment.
                    None if exit.is_some() => Tool::Command(None),
                    None => Tool::Other,
                };
                let failed = exit.map_or(*error, |c| c != 0);
                found.extend(result_errors(kind, text, failed, *exit));
            }
            _ => {}
        }
    }
    let mut seen = HashSet::new();
    found
        .into_iter()
        .filter(|l| seen.insert(numberless(l)))
        .collect()
}

/// The error lines capture keeps of one shell command's result, as its error atoms hold
/// them: `exit` the code the result names. Where it names none (Codex's shell output to
/// its hooks), only lines that read as errors: never the `COMMAND` failed of a failure
/// that says nothing, which the output may not be.
pub fn command_error_lines(command: &str, text: &str, exit: Option<i64>) -> Vec<String> {
    let kind = tool("Bash", Some(command));
    match exit {
        Some(0) => Vec::new(),
        Some(_) => result_errors(kind, text, true, exit),
        None => {
            let lines = result_errors(kind, text, true, None);
            let bare = format!("`{}` failed", one_line(command));
            match lines.len() == 1 && lines[0] == bare {
                true => Vec::new(),
                false => lines,
            }
        }
    }
}

/// The command a script of Codex's code mode runs: the `command` (or `cmd`) of its first
/// `tools.shell_command({…})` or `tools.exec_command({…})`.
fn script_command(input: &str) -> Option<String> {
    let at = ["tools.shell_command(", "tools.exec_command("]
        .iter()
        .filter_map(|f| input.find(f).map(|i| i + f.len()))
        .min()?;
    let object = input[at..].trim_start();
    let value = serde_json::Deserializer::from_str(object)
        .into_iter::<serde_json::Value>()
        .next()?
        .ok()?;
    value
        .get("command")
        .or_else(|| value.get("cmd"))?
        .as_str()
        .map(str::to_string)
}

/// The error lines of one result.
fn result_errors(kind: Tool, text: &str, failed: bool, exit: Option<i64>) -> Vec<String> {
    let text = without_reminders(text);
    if harness(&text) || kind == Tool::Own {
        return Vec::new();
    }
    let lines: Vec<String> = body(&text)
        .lines()
        .map(|l| shown(l).trim().to_string())
        .filter(|l| !l.is_empty() && !HARNESS_LINES.iter().any(|h| l.starts_with(h)))
        .collect();
    let take = |pick: &dyn Fn(&str) -> bool| -> Vec<String> {
        lines
            .iter()
            .filter(|l| pick(l))
            .take(LINES_PER_RESULT)
            .cloned()
            .collect()
    };
    let Tool::Command(command) = kind else {
        // Another tool (an MCP server's): what it said of its failure, past a heading.
        return if failed {
            take(&|l| !bare_exit(l) && !verdict_only(l) && !l.starts_with('#'))
                .into_iter()
                .take(1)
                .collect()
        } else {
            Vec::new()
        };
    };
    let shape = command.map(shape).unwrap_or_default();
    if !failed {
        // A pipe or a list may hide how its first command ended (`cargo build | tail`):
        // only what reads as an error report there.
        return if shape.masked {
            take(&|l| !content_line(l) && !verdict_only(l) && headline(l))
        } else {
            Vec::new()
        };
    }
    if shape.view {
        // A command that shows files, searches or the history: neither the lines it
        // showed nor its complaint of a path or a pattern the agent got wrong
        // (`sed: x: No such file or directory`, `grep: Unmatched (`), as the agent's
        // own file tools' failures are not.
        return Vec::new();
    }
    let mut found: Vec<String> = Vec::new();
    for l in &lines {
        let error = !content_line(l)
            && !passing(l)
            && !logged_below_error(l)
            && !bare_exit(l)
            && !verdict_only(l)
            && !heading(l)
            && !wrapper_tag(l)
            && !npm_follow_up(l, &found)
            && is_error_line(l);
        if error && found.len() < LINES_PER_RESULT {
            found.push(l.clone());
        }
    }
    if !found.is_empty() {
        return found;
    }
    let Some(command) = command else {
        return Vec::new();
    };
    let command = one_line(command);
    match exit {
        // `grep` finding nothing, `test` saying no, `diff` finding differences.
        Some(1) if shape.probe => Vec::new(),
        Some(code) => vec![format!("`{command}` exited {code}")],
        // Failed without a code (Claude Code before 2.0).
        None => vec![format!("`{command}` failed")],
    }
}

/// A log line of a level below error (`INFO`, `DEBUG`, klog's `I1205 …`), whatever
/// words it holds.
fn logged_below_error(line: &str) -> bool {
    let words: Vec<&str> = line
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
        .take(4)
        .collect();
    let level = |w: &&str| {
        matches!(
            *w,
            "INFO" | "DEBUG" | "TRACE" | "WARN" | "WARNING" | "NOTICE" | "info" | "debug" | "trace"
        )
    };
    // (Bytes: the line may hold any character from the second on.)
    let klog = line.len() > 5
        && line.starts_with(['I', 'W', 'D'])
        && line.as_bytes()[1..5].iter().all(u8::is_ascii_digit);
    (klog || words.iter().any(level))
        && !words
            .iter()
            .any(|w| matches!(*w, "ERROR" | "FATAL" | "CRITICAL" | "error" | "fatal"))
}

/// A command on one line, cut to a length a title could hold.
fn one_line(command: &str) -> String {
    let joined: Vec<&str> = command
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    super::text::cut(&joined.join(" "), COMMAND_CHARS)
}

/// The line with its numbers (counts, pids, times, addresses, hex ids) as one mark: lines
/// alike but for them are one atom.
fn numberless(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for word in line.split_inclusive(|c: char| !c.is_ascii_alphanumeric()) {
        let (core, tail) = match word.char_indices().last() {
            Some((i, c)) if !c.is_ascii_alphanumeric() => (&word[..i], &word[i..]),
            _ => (word, ""),
        };
        let hexish = core.len() >= 6
            && core.chars().all(|c| c.is_ascii_hexdigit())
            && core.chars().any(|c| c.is_ascii_digit());
        let hex = core.len() > 2 && (core.starts_with("0x") || core.starts_with("0X"));
        if hexish || hex || core.chars().all(|c| c.is_ascii_digit()) && !core.is_empty() {
            out.push('#');
        } else {
            // Digits inside a word (`E1205`, `v2`): marked too.
            let mut last_digit = false;
            for c in core.chars() {
                if c.is_ascii_digit() {
                    if !last_digit {
                        out.push('#');
                    }
                    last_digit = true;
                } else {
                    out.push(c);
                    last_digit = false;
                }
            }
        }
        out.push_str(tail);
    }
    out
}

/// A line that names only an exit: `Exit code 1`, `exit status 2`, `Process exited with
/// code 1`, `Command failed with exit code 1`.
fn bare_exit(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    if !lower.contains("exit") {
        return false;
    }
    lower
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .all(|w| {
            w.chars().all(|c| c.is_ascii_digit() || c == '-')
                || matches!(
                    w,
                    "exit"
                        | "exited"
                        | "code"
                        | "status"
                        | "with"
                        | "process"
                        | "command"
                        | "returned"
                        | "non-zero"
                        | "nonzero"
                        | "error"
                        | "failed"
                        | "the"
                        | "a"
                        | "an"
                        | "elifecycle"
                )
        })
}

/// A line of a file or a diff that a command printed (`git diff`, `cat -n`, a task
/// list, a compiler's excerpt of the source), not a message of the command's own.
pub fn content_line(line: &str) -> bool {
    let t = line.trim_start();
    // Not a diff's: a path in a compiler's report, a test runner's verdict.
    let report = ["-->", "--- FAIL", "--- PASS"]
        .iter()
        .any(|r| line.starts_with(r));
    if line.starts_with(['+', '-', '@', '>']) && !report {
        return true;
    }
    if t.starts_with("diff --git") || t.starts_with("index ") || t.starts_with("- [") {
        return true;
    }
    // The bars of a compiler's or a test runner's excerpt of the source.
    const BARS: [char; 3] = ['|', '▕', '│'];
    if t.starts_with(BARS) {
        return true;
    }
    // `cat -n` and the agent's file reader: a line number, then a tab or an arrow; an
    // excerpt: a line number, then a bar.
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    digits > 0
        && match t[digits..].chars().next() {
            Some('\t' | '→') => true,
            Some(' ' | '▕' | '│' | '|') => t[digits..].trim_start().starts_with(BARS),
            _ => false,
        }
}

/// A line that heads what follows rather than saying what failed: a rule around a title
/// (`⎯⎯⎯ Failed Tests 3 ⎯⎯⎯`), a few words before a colon (`View error context:`).
fn heading(line: &str) -> bool {
    let first = line.chars().next();
    let ruled = first.is_some_and(|c| !c.is_alphanumeric() && line.starts_with([c, c]))
        && line.ends_with(|c| Some(c) == first)
        && line.chars().filter(|c| Some(*c) == first).count() >= 4;
    ruled || (line.ends_with(':') && line.split_whitespace().count() <= 3)
}

/// A line of the wrapper Claude Code puts around a background command's output
/// (`<status>failed</status>`, `<exit_code>1</exit_code>`).
fn wrapper_tag(line: &str) -> bool {
    let Some(name) = line
        .strip_prefix('<')
        .and_then(|rest| rest.split_once('>'))
        .map(|(name, _)| name.trim_start_matches('/'))
    else {
        return false;
    };
    !name.is_empty()
        && name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        && line.ends_with('>')
}

/// npm's lines after its first: the same error told again, where its log is, how to list
/// the scripts.
fn npm_follow_up(line: &str, earlier: &[String]) -> bool {
    const NPM: [&str; 2] = ["npm ERR!", "npm error"];
    NPM.iter().any(|p| line.starts_with(p))
        && earlier.iter().any(|e| NPM.iter().any(|p| e.starts_with(p)))
}

/// A line a test runner prints for a test that passed.
fn passing(line: &str) -> bool {
    ["✓", "✔", "√", "PASS", "ok ", "--- PASS", "[PASS]", "[ OK ]"]
        .iter()
        .any(|p| line.starts_with(p))
        || line.ends_with(" ... ok")
        || line.ends_with(" ok")
}

/// A line that reads as a tool's report of an error wherever it stands: a compiler's,
/// a runtime's or a test runner's.
fn headline(line: &str) -> bool {
    const STARTS: &[&str] = &[
        "error:",
        "error[",
        "error TS",
        "Error:",
        "ERROR:",
        "fatal:",
        "FATAL",
        "FAIL ",
        "FAIL:",
        "FAILED",
        "--- FAIL",
        "Traceback (most recent call last)",
        "panic:",
        "npm ERR!",
        "make: ***",
        "Exception in thread",
    ];
    if STARTS.iter().any(|s| line.starts_with(s)) {
        return true;
    }
    if [
        ": error:",
        ": error TS",
        "error[E",
        " panicked at ",
        "test result: FAILED",
    ]
    .iter()
    .any(|s| line.contains(s))
    {
        return true;
    }
    // `TypeError: …`, `ModuleNotFoundError: …`, `java.io.IOException: …`.
    let first = line.split(' ').next().unwrap_or("");
    (first.ends_with("Error:") || first.ends_with("Exception:"))
        && first
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
}

/// A verdict alone (`FAIL`), which says no more than the exit.
fn verdict_only(line: &str) -> bool {
    let word = line.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    matches!(
        word,
        "FAIL" | "FAILED" | "ERROR" | "Error" | "error" | "failed"
    )
}

/// A line that reports an error, in the output of a command that failed.
pub fn is_error_line(line: &str) -> bool {
    const MARKS: &[&str] = &[
        "Error:",
        "error:",
        "error[",
        "Traceback",
        "panicked",
        "FAILED",
        "ERR!",
        "Exception:",
        "Connection refused",
        "command not found",
        "No such file or directory",
        "Permission denied",
        "is not recognized as",
    ];
    if MARKS.iter().any(|m| line.contains(m)) {
        return true;
    }
    let words: Vec<&str> = line
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
        .collect();
    words.iter().enumerate().any(|(i, &w)| {
        // "0 failed", "0 errors": a count of none, as test summaries write it.
        let none = i > 0 && words[i - 1] == "0";
        (matches!(w, "error" | "Error" | "ERROR" | "errors" | "failed" | "Failed" | "FAIL") && !none)
            // errno-style codes: ENOENT, ECONNREFUSED, EACCES.
            || (w.len() >= 5
                && w.starts_with('E')
                && w.chars().all(|c| c.is_ascii_uppercase())
                && w != "ERROR")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, command: Option<&str>, id: &str) -> Record {
        Record::untimed(Event::ToolCall {
            name: name.into(),
            input: String::new(),
            command: command.map(str::to_string),
            files: Vec::new(),
            id: Some(id.into()),
        })
    }

    fn result(id: &str, text: &str, error: bool, exit: Option<i64>) -> Record {
        Record::untimed(Event::ToolResult {
            text: text.into(),
            error,
            exit,
            id: Some(id.into()),
        })
    }

    #[test]
    fn terminal_codes_go() {
        for (with, without) in [
            ("\u{1b}[31merror\u{1b}[0m: x", "error: x"),
            ("\u{1b}[1;38;5;196mE\u{1b}[m", "E"),
            ("\u{1b}]8;;https://x\u{7}link\u{1b}]8;;\u{7}", "link"),
            ("\u{1b}]0;title\u{1b}\\text", "text"),
            ("a\u{1b}(Bb\u{1b}=c", "abc"),
            ("\u{9b}2Kline", "line"),
            ("cut \u{1b}[", "cut "),
        ] {
            assert_eq!(without_ansi(with), without, "{with:?}");
        }
        assert!(matches!(without_ansi("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn exit_codes_as_the_agents_write_them() {
        assert_eq!(claude_exit("Exit code 101\nerror: x"), Some(101));
        assert_eq!(
            claude_exit("<status>completed</status>\n<exit_code>2</exit_code>"),
            Some(2)
        );
        assert_eq!(claude_exit("all good"), None);
        assert_eq!(
            codex_exit("Exit code: 1\nWall time: 0.2 seconds\nOutput:\nx"),
            Some(1)
        );
        assert_eq!(
            codex_exit("Chunk ID: a1\nWall time: 1 seconds\nProcess exited with code 2\nOutput:\n"),
            Some(2)
        );
        assert_eq!(
            codex_exit(
                "Chunk ID: a1\nWall time: 10 seconds\nProcess running with session ID 7\nOutput:\n"
            ),
            None
        );
        // A header is only at the top.
        assert_eq!(codex_exit("output\nExit code: 3"), None);
        assert_eq!(
            body("Exit code: 1\nWall time: 0 seconds\nOutput:\nfirst\nsecond"),
            "first\nsecond"
        );
        assert_eq!(body("Exit code 2\nerror: x"), "error: x");
        assert_eq!(body("plain"), "plain");
    }

    #[test]
    fn only_failed_calls_give_error_lines() {
        let go_source = "12\tklog.Errorf(\"Failed to sync %s\", key)\n13\treturn err";
        let segment = vec![
            // A file shown by a command, with "error" in it, even when the call failed and
            // the command complains of a path it was given.
            call("Bash", Some("sed -n '1,40p' pkg/sync.go"), "a"),
            result("a", "\tklog.Errorf(\"Failed to sync: %v\", err)\n\t{:error, reason} ->", false, None),
            call("Bash", Some("cat pkg/sync.go pkg/gone.go"), "b"),
            result("b", &format!("Exit code 1\n{go_source}\ncat: pkg/gone.go: No such file or directory"), true, Some(1)),
            // A search that found nothing.
            call("Bash", Some("rg -n 'ErrClosed' src"), "c"),
            result("c", "Exit code 1", true, Some(1)),
            // Passing tests whose log holds error words.
            call("Bash", Some("go test ./pkg/..."), "d"),
            result("d", "E1205 10:00:01 Failed to connect\nok  \tpkg\t0.2s", false, Some(0)),
            // A failed build: its error lines, not the bare exit nor the source excerpt.
            call("shell", Some("cargo build"), "e"),
            result("e", "Exit code: 101\nWall time: 3 seconds\nOutput:\nerror[E0425]: cannot find value `x`\n  --> src/a.rs:3:5\n3 |     x.error()\n  |     ^ not found\nerror: could not compile `a`", true, Some(101)),
            // A failed command with nothing to say but its exit.
            call("Bash", Some("npm run lint"), "f"),
            result("f", "Exit code 1", true, Some(1)),
            // Harness text, in place of a result.
            call("Bash", Some("rm -rf build"), "g"),
            result("g", "The user doesn't want to proceed with this tool use. The tool use was rejected.", true, None),
            call("Edit", None, "h"),
            result("h", "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>", true, None),
            call("shell", Some("make deploy"), "i"),
            result("i", "exec command rejected by user", true, None),
            // A build whose exit a pipe hides.
            call("Bash", Some("cargo test 2>&1 | tail -5"), "j"),
            result("j", "test a ... ok\ntest result: FAILED. 1 passed; 1 failed\nerror: test failed, to rerun pass `--lib`", false, None),
            // Another tool's failure.
            call("mcp__db__query", None, "k"),
            result("k", "Error: connect ECONNREFUSED 127.0.0.1:5432", true, None),
            // The same error but for its pid, twice.
            call("Bash", Some("./run.sh"), "l"),
            result("l", "Exit code 1\n      2 [main] bash 1234 fork: child -1 - CreateProcess failed, errno 5\n      3 [main] bash 5678 fork: child -1 - CreateProcess failed, errno 5", true, Some(1)),
        ];
        assert_eq!(
            error_lines(&segment),
            vec![
                "error[E0425]: cannot find value `x`",
                "error: could not compile `a`",
                "`npm run lint` exited 1",
                "test result: FAILED. 1 passed; 1 failed",
                "error: test failed, to rerun pass `--lib`",
                "Error: connect ECONNREFUSED 127.0.0.1:5432",
                "2 [main] bash 1234 fork: child -1 - CreateProcess failed, errno 5",
            ]
        );
    }

    #[test]
    fn results_follow_their_calls_without_ids() {
        let plain = |name: &str, command: Option<&str>| {
            Record::untimed(Event::ToolCall {
                name: name.into(),
                input: String::new(),
                command: command.map(str::to_string),
                files: Vec::new(),
                id: None,
            })
        };
        let out = |text: &str, exit: Option<i64>| {
            Record::untimed(Event::ToolResult {
                text: text.into(),
                error: exit.is_some_and(|c| c != 0),
                exit,
                id: None,
            })
        };
        let segment = vec![
            plain("shell", Some("git show HEAD")),
            plain("shell", Some("pytest")),
            out(
                "fatal: bad revision 'HEAD'\n+ error: in the diff",
                Some(128),
            ),
            out(
                "FAILED tests/test_a.py::test_x - AssertionError: boom\n1 failed, 3 passed",
                Some(1),
            ),
        ];
        assert_eq!(
            error_lines(&segment),
            vec![
                "FAILED tests/test_a.py::test_x - AssertionError: boom",
                "1 failed, 3 passed",
            ]
        );
    }

    #[test]
    fn later_shapes_of_both_agents() {
        let segment = vec![
            // Codex 0.11x: the command above the unified exec's header; a run that goes on.
            call("exec_command", Some("npm run build"), "a"),
            result("a", "Command: /bin/zsh -lc 'npm run build'\nChunk ID: d2e4\nWall time: 1.0 seconds\nProcess running with session ID 3281\nOriginal token count: 9\nOutput:\n> build\nerror TS2304: Cannot find name 'x'.", false, None),
            // Stopped by the person, under the header.
            call("shell_command", Some("cargo test"), "b"),
            result("b", "Wall time: 406.9 seconds\naborted by user", false, None),
            // The sandbox, a command Codex could not start.
            call("shell", Some("npm run build"), "c"),
            result("c", "failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, exit code: 2", false, None),
            call("shell", Some("rgx foo"), "d"),
            result("d", "execution error: Io(Os { code: 2, kind: NotFound, message: \"No such file or directory\" })", false, None),
            // A script of the code mode running a command that failed.
            Record::untimed(Event::ToolCall {
                name: "exec".into(),
                input: "const r = await tools.shell_command({\"command\":\"pytest -q\"});\ntext(r)".into(),
                command: None,
                files: Vec::new(),
                id: Some("e".into()),
            }),
            result("e", "Script failed\nWall time 0.2 seconds\nOutput:\n\nScript error:\nExit code: 1\nWall time: 0.2 seconds\nOutput:\nE   assert 1 == 2\nFAILED test_a.py::test_b", true, Some(1)),
            // Claude Code before 2.0: a failed command without its exit code.
            call("Bash", Some("yarn build"), "f"),
            result("f", "warning package.json: No license field\n$ webpack", true, None),
            call("Bash", Some("npm test"), "g"),
            result("g", "Command timed out after 2m 0.0s", true, None),
            // A log of levels below error, and a terminal's control characters.
            call("PowerShell", Some("docker exec web odoo -u all"), "h"),
            result("h", "Exit code 255\n2026-05-06 03:57:24,089 42 INFO ? odoo: failed to load a module\n^D\u{8}\u{8}\r  FAIL  BasicSetupTest", true, Some(255)),
            // An MCP server's failure under its heading.
            call("mcp__playwright__browser_click", None, "i"),
            result("i", "### Result\nError: Ref e65 not found in the current page snapshot.", true, None),
            // The agent's own tools, behind an editor's MCP server.
            call("mcp__acp__Read", None, "j"),
            result("j", "Reading file failed: {\"code\":-32002,\"message\":\"Resource not found\"}", true, None),
            call("WebFetch", None, "k"),
            result("k", "Request failed with status code 404", true, None),
            call("Bash", Some("gemini \"market size\""), "l"),
            result("l", "Exit code 127\n(eval):1: command not found: gemini", true, Some(127)),
        ];
        assert_eq!(
            error_lines(&segment),
            vec![
                "FAILED test_a.py::test_b",
                "`yarn build` failed",
                "FAIL  BasicSetupTest",
                "Error: Ref e65 not found in the current page snapshot.",
                "(eval):1: command not found: gemini",
            ]
        );
        assert_eq!(
            codex_exit("Script failed\nWall time 0.2 seconds\nOutput:\n\nScript error:\nExit code: 1\nOutput:\nx"),
            Some(1)
        );
    }

    #[test]
    fn the_furniture_of_reports_is_no_error() {
        let segment = vec![
            call("Bash", Some("npx vitest run"), "a"),
            result("a", "Exit code 1\n⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯\n FAIL  tests/auth.test.ts > refreshes\nAssertionError: expected false to be true", true, Some(1)),
            call("Bash", Some("php artisan test"), "b"),
            result("b", "Exit code 2\n  View error context:\n  145▕     throw new RuntimeException('unknown error');\n  ➜ 146▕ }\n  PDOException: SQLSTATE[HY000] [2002] Connection refused", true, Some(2)),
            call("Bash", Some("npm run e2e"), "c"),
            result("c", "Exit code 1\nnpm error Missing script: \"e2e\"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run\nnpm error A complete log of this run can be found in: /home/dev/.npm/_logs/debug-0.log", true, Some(1)),
            call("TaskOutput", None, "d"),
            result("d", "<retrieval_status>success</retrieval_status>\n<status>failed</status>\n<exit_code>1</exit_code>\n<output>\nError: Cannot find module '@rollup/rollup-linux-x64-gnu'\n</output>", true, Some(1)),
        ];
        assert_eq!(
            error_lines(&segment),
            vec![
                "FAIL  tests/auth.test.ts > refreshes",
                "AssertionError: expected false to be true",
                "PDOException: SQLSTATE[HY000] [2002] Connection refused",
                "npm error Missing script: \"e2e\"",
                "Error: Cannot find module '@rollup/rollup-linux-x64-gnu'",
            ]
        );
    }

    #[test]
    fn any_character_anywhere_in_a_failed_result() {
        // A result's lines are read by their first bytes (log levels, klog's `W1205`, line
        // numbers, bars): a character of several bytes at any place of such a line, and
        // the line's verdict where it is known.
        let lines = [
            "WARN 19 deprecated subdependencies found: @babel/plugin",
            "W1205 12:00:00.123 reconnect failed",
            "I0101 00:00:00 started",
            "D2 x",
            "error: build failed",
            "12\tlet x = 1;",
            "  145▕ throw new Error()",
            "FAILED tests/a.py::test_b",
        ];
        let mut checked = 0;
        for line in lines {
            for wide in ['\u{2009}', 'é', '日', '🙂'] {
                for (at, _) in line.char_indices().chain([(line.len(), ' ')]) {
                    let text = format!("Exit code 1\n{}{wide}{}", &line[..at], &line[at..]);
                    let segment = vec![
                        call("Bash", Some("npm install"), "a"),
                        result("a", &text, true, Some(1)),
                    ];
                    let _ = error_lines(&segment);
                    checked += 1;
                }
            }
        }
        assert!(checked > 400, "{checked}");
        assert!(logged_below_error(
            "WARN\u{2009}19 deprecated subdependencies found"
        ));
        assert!(logged_below_error("W1205\u{2009}12:00:00 reconnect failed"));
        assert!(!logged_below_error("W12é5 reconnect failed"));
        assert!(!logged_below_error("D日本語 fatal"));
    }

    #[test]
    fn bare_exits_and_numbers() {
        for bare in [
            "Exit code 1",
            "exit status 2",
            "Process exited with code 1",
            "Command failed with exit code 127",
        ] {
            assert!(bare_exit(bare), "{bare}");
        }
        for not in [
            "make: *** [test] Error 2",
            "exit: unknown flag --x",
            "error: could not compile",
        ] {
            assert!(!bare_exit(not), "{not}");
        }
        assert_eq!(
            numberless("pid 1234 at 0x7ffe12 in 12.5s"),
            numberless("pid 99 at 0x1 in 3.25s")
        );
        assert_eq!(
            numberless("E1205 10:00:01.123 x"),
            numberless("E1206 11:02:03.9 x")
        );
        assert_ne!(numberless("error: a"), numberless("error: b"));
    }
}
