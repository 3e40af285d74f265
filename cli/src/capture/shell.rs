//! What a shell command line is made of, as far as its output goes: whether it only
//! shows files, searches them or shows the history, whether a pipe or a list may hide
//! how its first command ended (docs/capture.md#error-atoms).

/// What a command line is made of, as far as its output goes.
#[derive(Debug, Default, PartialEq)]
pub struct Shape {
    /// Every command in it shows files, searches or the history (or sets the shell up).
    pub view: bool,
    /// One of its commands answers a question by its exit (`grep`, `test`, `diff`).
    pub probe: bool,
    /// A command that is no view is followed by a pipe or a list (`|`, `;`, `||`): the
    /// line's exit may not be its.
    pub masked: bool,
    /// It is the agent's patch tool run as a command (Codex's `apply_patch`).
    pub edits: bool,
}

/// Programs that set the shell up or print what they are given: neither a view nor a
/// command whose output could hold an error.
const NEUTRAL: &[&str] = &[
    "cd", "pushd", "popd", "export", "set", "unset", "source", ".", "true", "echo", "printf",
    "sleep", ":", "wait", "clear", "alias", "shopt", "trap", "local", "read", "exit",
];

/// Programs that show files, search them, or tell about the system.
const VIEWS: &[&str] = &[
    "cat",
    "head",
    "tail",
    "less",
    "more",
    "nl",
    "bat",
    "batcat",
    "rg",
    "grep",
    "egrep",
    "fgrep",
    "zgrep",
    "ag",
    "ack",
    "find",
    "fd",
    "fdfind",
    "ls",
    "ll",
    "tree",
    "exa",
    "eza",
    "wc",
    "sort",
    "uniq",
    "cut",
    "tr",
    "column",
    "jq",
    "yq",
    "xxd",
    "od",
    "hexdump",
    "strings",
    "file",
    "stat",
    "diff",
    "cmp",
    "comm",
    "du",
    "df",
    "pwd",
    "which",
    "whereis",
    "type",
    "readlink",
    "realpath",
    "basename",
    "dirname",
    "printenv",
    "date",
    "uname",
    "whoami",
    "hostname",
    "id",
    "ps",
    "history",
    "man",
    "awk",
    "gawk",
    "tac",
    "rev",
    "fold",
    "zcat",
    "journalctl",
    "view",
    "glow",
    "md5sum",
    "sha256sum",
    "shasum",
    "test",
    "[",
    "[[",
    "Get-Content",
    "gc",
    "Select-String",
    "dir",
    "Get-ChildItem",
];

/// Programs whose exit 1 answers no (nothing found, false, different).
const PROBES: &[&str] = &[
    "grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "diff", "cmp", "test", "[", "[[",
    "which", "command", "type", "pgrep",
];

/// git's subcommands that show the history or the work tree.
const GIT_VIEWS: &[&str] = &[
    "show",
    "log",
    "diff",
    "blame",
    "grep",
    "status",
    "ls-files",
    "ls-tree",
    "branch",
    "rev-parse",
    "reflog",
    "shortlog",
    "cat-file",
    "describe",
    "remote",
    "whatchanged",
    "range-diff",
    "name-rev",
    "for-each-ref",
    "rev-list",
    "config",
];

/// Programs that run the next word as the command.
const WRAPPERS: &[&str] = &[
    "sudo", "env", "time", "nice", "nohup", "exec", "builtin", "xargs",
];

pub fn shape(command: &str) -> Shape {
    let parts = simple_commands(command);
    let mut s = Shape {
        view: true,
        ..Shape::default()
    };
    let mut other = false;
    for (i, (words, sep)) in parts.iter().enumerate() {
        let Some((program, args)) = program_of(words) else {
            continue;
        };
        s.edits |= matches!(program.as_str(), "apply_patch" | "applypatch");
        if !NEUTRAL.contains(&program.as_str()) {
            let view = match program.as_str() {
                "sed" => !args
                    .iter()
                    .any(|a| a.starts_with("-i") || a.starts_with("--in-place")),
                "git" => git_subcommand(args).is_some_and(|c| GIT_VIEWS.contains(&c)),
                "gh" => args
                    .get(1)
                    .is_some_and(|a| matches!(a.as_str(), "view" | "list" | "diff" | "status")),
                "systemctl" => args.iter().any(|a| {
                    matches!(
                        a.as_str(),
                        "status" | "show" | "cat" | "list-units" | "list-timers" | "is-active"
                    )
                }),
                "docker" | "kubectl" | "podman" => args.first().is_some_and(|a| a == "logs"),
                p => VIEWS.contains(&p),
            };
            s.probe |= PROBES.contains(&program.as_str())
                || (program == "git" && args.iter().any(|a| a == "--quiet" || a == "--exit-code"));
            s.view &= view;
            other |= !view;
        }
        // After a command that is no view, a pipe or a list separator (not `&&`) with
        // more after it: the line ends with another command's exit.
        if other && i + 1 < parts.len() && sep.as_deref() != Some("&&") {
            s.masked = true;
        }
    }
    s
}

/// The subcommand of a git command line, past git's own options (`-C DIR`, `-c K=V`,
/// `--no-pager`).
fn git_subcommand(args: &[String]) -> Option<&str> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        match a.as_str() {
            "-C" | "-c" | "--git-dir" | "--work-tree" => i += 2,
            a if a.starts_with('-') => i += 1,
            a => return Some(a),
        }
    }
    None
}

/// The program a simple command runs and its arguments: past assignments (`A=b`),
/// wrappers (`sudo`, `timeout 60`) and `bash -c '…'`'s own line (its first program).
fn program_of(words: &[String]) -> Option<(String, &[String])> {
    let mut i = 0;
    while let Some(w) = words.get(i) {
        let w = w.trim_start_matches(['(', '{']);
        if w.is_empty() || (w.contains('=') && !w.starts_with('-') && !w.starts_with('=')) {
            i += 1;
            continue;
        }
        let name = w.rsplit('/').next().unwrap_or(w);
        if WRAPPERS.contains(&name) {
            i += 1;
            while words.get(i).is_some_and(|a| a.starts_with('-')) {
                i += 1;
            }
            continue;
        }
        if name == "timeout" {
            i += 1;
            while words.get(i).is_some_and(|a| a.starts_with('-')) {
                i += 1;
            }
            i += 1;
            continue;
        }
        return Some((name.to_string(), &words[i + 1..]));
    }
    None
}

/// The simple commands of a command line, each with the operator after it (`|`, `||`,
/// `&&`, `;`, `&`, a line break); quotes keep their text whole, a here-document's body
/// is skipped.
fn simple_commands(command: &str) -> Vec<(Vec<String>, Option<String>)> {
    let mut parts = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut heredocs: Vec<String> = Vec::new();
    let mut chars = command.chars().peekable();
    let end_word = |word: &mut String, in_word: &mut bool, words: &mut Vec<String>| {
        if *in_word {
            words.push(std::mem::take(word));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    word.push(q);
                }
            }
            '"' => {
                in_word = true;
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => {
                            if let Some(n) = chars.next() {
                                word.push(n);
                            }
                        }
                        q => word.push(q),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(n) => {
                    in_word = true;
                    word.push(n);
                }
            },
            '<' if chars.peek() == Some(&'<') => {
                chars.next();
                if chars.peek() == Some(&'<') {
                    // A here-string: its word follows.
                    chars.next();
                    continue;
                }
                end_word(&mut word, &mut in_word, &mut words);
                chars.next_if_eq(&'-');
                while chars.next_if(|c| *c == ' ').is_some() {}
                let mut delimiter = String::new();
                while let Some(d) = chars.next_if(|c| !c.is_whitespace() && !";|&".contains(*c)) {
                    if !matches!(d, '\'' | '"') {
                        delimiter.push(d);
                    }
                }
                if !delimiter.is_empty() {
                    heredocs.push(delimiter);
                }
            }
            '\n' | ';' | '|' | '&' => {
                end_word(&mut word, &mut in_word, &mut words);
                let sep = match c {
                    '|' if chars.next_if_eq(&'|').is_some() => "||",
                    '&' if chars.next_if_eq(&'&').is_some() => "&&",
                    '&' if chars.peek() == Some(&'>') => {
                        // `&>file`: a redirection, not a separator.
                        continue;
                    }
                    '|' => "|",
                    '&' => "&",
                    ';' => ";",
                    _ => "\n",
                };
                if !words.is_empty() {
                    parts.push((std::mem::take(&mut words), Some(sep.to_string())));
                }
                if c == '\n' {
                    // The bodies of the here-documents opened on the line just ended.
                    for delimiter in std::mem::take(&mut heredocs) {
                        let mut line = String::new();
                        loop {
                            match chars.next() {
                                Some('\n') | None => {
                                    if line.trim() == delimiter || chars.peek().is_none() {
                                        break;
                                    }
                                    line.clear();
                                }
                                Some(ch) => line.push(ch),
                            }
                        }
                    }
                }
            }
            c if c.is_whitespace() => end_word(&mut word, &mut in_word, &mut words),
            '>' | '<' => {
                // A redirection ends the word before it; its target is a word.
                end_word(&mut word, &mut in_word, &mut words);
                chars.next_if_eq(&'>');
                chars.next_if_eq(&'&');
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    end_word(&mut word, &mut in_word, &mut words);
    if !words.is_empty() {
        parts.push((words, None));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_shapes() {
        for view in [
            "sed -n '1,80p' src/main.rs",
            "cat a.go | head -50",
            "cd /repo && git log --oneline -20",
            "git -C sub --no-pager show HEAD~1",
            "rg -n 'klog.Errorf' pkg/ | head",
            "nl -ba lib/a.ex | sed -n 10,40p",
            "ls -la; pwd",
            "grep -rn \"error\" src/ || true",
            "gh pr view 12",
        ] {
            let s = shape(view);
            assert!(s.view && !s.masked, "{view}: {s:?}");
        }
        for (other, masked) in [
            ("cargo test", false),
            ("cd x && cargo build 2>&1 | tail -20", true),
            ("npm test; echo done", true),
            ("sed -i 's/a/b/' f.rs", false),
            ("RUST_LOG=debug timeout 60 cargo run -- --x", false),
            ("cargo build && ls target", false),
            (
                "cat > notes.md <<'EOF'\nerror: not a command\nEOF\ncargo fmt",
                false,
            ),
            ("git commit -m \"fix: error | pipe\"", false),
            ("pytest -q || true", true),
        ] {
            let s = shape(other);
            assert!(!s.view, "{other}: {s:?}");
            assert_eq!(s.masked, masked, "{other}: {s:?}");
        }
        assert!(shape("grep -q x f").probe && shape("test -f a").probe);
        assert!(!shape("cargo test").probe);
        assert!(shape("apply_patch <<'EOF'\n*** Begin Patch\nEOF").edits);
    }
}
