//! `recall setup` changes only recall's bytes in the agents' JSON files: files in the
//! shapes Node writes (`JSON.stringify(v, null, 2)`, and compact), holding what a
//! re-serialisation would change (floats in their shortest form, integers past 2^53,
//! `-0`, `1.0`, `\u` escapes, CRLF, duplicate keys, empty objects, a byte order mark,
//! other tools' hooks). For each: setup changes nothing of the file but recall's entries
//! (every byte of the file is still there in order, and Python's `json`, keeping
//! duplicates and numbers as written, reads the file as before plus recall's entries
//! where setup puts them), and `--remove` gives the file back byte for byte. Then the
//! file-level cases: read-only files, links, blank files, targets that cannot be written.
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::cli::{recall_bin, Ran};

/// A case: its label, the agent set up, and its files (path under HOME, the part setup
/// writes there, the bytes before).
type Case<'a> = (&'a str, &'a str, Vec<(&'a str, &'a str, Vec<u8>)>);

/// A JSON value written as Node writes it, its numbers and strings as raw text.
#[derive(Clone)]
enum J {
    /// A number, `true`, `false`, `null` or a string, as it stands in the file.
    Raw(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

fn s(text: &str) -> J {
    J::Raw(serde_json::to_string(text).unwrap())
}

fn raw(text: &str) -> J {
    J::Raw(text.to_string())
}

fn obj(members: &[(&str, J)]) -> J {
    J::Obj(
        members
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

/// `JSON.stringify(v, null, indent)` with `newline` for its line breaks (a CRLF file is
/// one an editor on Windows saved); `indent` "" is the compact form.
fn node(v: &J, indent: &str, newline: &str) -> String {
    fn go(v: &J, indent: &str, nl: &str, depth: usize, out: &mut String) {
        let pad = |d: usize| format!("{nl}{}", indent.repeat(d));
        let (open, close, n) = match v {
            J::Raw(r) => return out.push_str(r),
            J::Arr(a) => ('[', ']', a.len()),
            J::Obj(o) => ('{', '}', o.len()),
        };
        out.push(open);
        for i in 0..n {
            if i > 0 {
                out.push(',');
            }
            if !indent.is_empty() {
                out.push_str(&pad(depth + 1));
            }
            match v {
                J::Arr(a) => go(&a[i], indent, nl, depth + 1, out),
                J::Obj(o) => {
                    out.push_str(&serde_json::to_string(&o[i].0).unwrap());
                    out.push_str(if indent.is_empty() { ":" } else { ": " });
                    go(&o[i].1, indent, nl, depth + 1, out);
                }
                J::Raw(_) => {}
            }
        }
        if n > 0 && !indent.is_empty() {
            out.push_str(&pad(depth));
        }
        out.push(close);
    }
    let mut out = String::new();
    go(v, indent, newline, 0, &mut out);
    out
}

/// Numbers as Node prints them and as people write them, each one a re-serialisation
/// changes: shortest floats, exponents, integers past 2^53 and past u64, `-0`, `1.0`.
const AWKWARD_NUMBERS: [&str; 14] = [
    "0.000001234",
    "1e21",
    "12345678901234567890",
    "123456789012345678901234567890",
    "-0",
    "1.0",
    "0.30000000000000004",
    "5e-324",
    "1.7976931348623157e+308",
    "9007199254740993",
    "1E2",
    "-1.5e-7",
    "100.50",
    "0.1",
];

/// Strings as JSON.stringify and hand editing leave them: escapes a re-serialisation
/// turns into raw characters (or the other way), and a lone surrogate.
const AWKWARD_STRINGS: [&str; 8] = [
    r#""caf\u00e9""#,
    r#""line\u2028separator""#,
    r#""\ud83d\ude00 smile""#,
    r#""a\/b""#,
    r#""nul \u0000 inside""#,
    r#""lone \ud800 surrogate""#,
    "\"raw é and 中文\"",
    r#""tab\tand \"quote\"""#,
];

/// A deterministic stream of floats in their shortest form (Rust's and JavaScript's
/// shortest round-trip digits agree away from exponents).
fn floats(n: usize, seed: u64) -> Vec<String> {
    let mut x = seed;
    (0..n)
        .map(|i| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let f = (x >> 11) as f64 / (1u64 << 53) as f64;
            match i % 4 {
                0 => format!("{f}"),
                1 => format!("{}", f * 1e-3),
                2 => format!("{}", f * 12345.678),
                _ => format!("{}", -f),
            }
        })
        .collect()
}

/// Claude Code's `~/.claude.json` in large: projects with usage figures, caches, the
/// awkward numbers and strings, and `extra` members (an `mcpServers` or duplicates).
fn claude_state(projects: usize, seed: u64, extra: Vec<(String, J)>) -> J {
    let mut fl = floats(projects * 5, seed).into_iter();
    let mut members = vec![
        ("numStartups".to_string(), raw("412")),
        ("installMethod".into(), s("native")),
        ("firstStartTime".into(), s("2026-01-04T09:12:44.120Z")),
        (
            "awkward".into(),
            J::Arr(AWKWARD_NUMBERS.iter().map(|n| raw(n)).collect()),
        ),
        (
            "escapes".into(),
            J::Arr(AWKWARD_STRINGS.iter().map(|t| raw(t)).collect()),
        ),
    ];
    let list: Vec<(String, J)> = (0..projects)
        .map(|i| {
            let mut f = || raw(&fl.next().unwrap());
            (
                format!("/home/me/work/project-{i}"),
                obj(&[
                    ("allowedTools", J::Arr(vec![])),
                    ("mcpServers", obj(&[])),
                    ("lastCost", f()),
                    ("lastAPIDuration", raw(&format!("{}", 1000 + i))),
                    (
                        "lastTotalInputTokens",
                        raw(&format!("{}", 90071992547409 * i)),
                    ),
                    (
                        "lastModelUsage",
                        obj(&[("in", f()), ("out", f()), ("cache", f())]),
                    ),
                    (
                        "lastSessionMetrics",
                        J::Arr(vec![f(), raw("-0"), raw("1.0")]),
                    ),
                    (
                        "hasTrustDialogAccepted",
                        raw(if i % 2 == 0 { "true" } else { "false" }),
                    ),
                    ("note", raw(AWKWARD_STRINGS[i % AWKWARD_STRINGS.len()])),
                ]),
            )
        })
        .collect();
    members.push(("projects".into(), J::Obj(list)));
    members.extend(extra);
    members.push(("userID".into(), s("8f3e0c")));
    J::Obj(members)
}

/// Claude Code's `settings.json` with another tool's hooks (and `extra` members).
fn claude_settings(extra: Vec<(String, J)>) -> J {
    let prettier = obj(&[
        ("matcher", s("Edit|Write")),
        (
            "hooks",
            J::Arr(vec![obj(&[
                ("type", s("command")),
                ("command", s("npx prettier --write \"$CLAUDE_PROJECT_DIR\"")),
                ("timeout", raw("30")),
            ])]),
        ),
    ]);
    let notify = obj(&[(
        "hooks",
        J::Arr(vec![obj(&[
            ("type", s("command")),
            ("command", s("notify-send 'Claude Code' 'caf\u{e9}'")),
        ])]),
    )]);
    let mut members = vec![
        (
            "permissions".to_string(),
            obj(&[("allow", J::Arr(vec![s("Bash(cargo test:*)")]))]),
        ),
        ("cleanupPeriodDays".into(), raw("30.0")),
        ("env".into(), obj(&[("RATIO", raw(r#""\u00bd""#))])),
        (
            "hooks".into(),
            obj(&[
                ("PostToolUse", J::Arr(vec![prettier])),
                ("Notification", J::Arr(vec![notify])),
            ]),
        ),
    ];
    members.extend(extra);
    J::Obj(members)
}

/// A temporary HOME and a library path (setup only names it).
struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new() -> Home {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("home/.claude")).unwrap();
        std::fs::create_dir_all(dir.path().join("home/.codex")).unwrap();
        Home { dir }
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    fn db(&self) -> PathBuf {
        self.dir.path().join("memory.db")
    }

    fn put(&self, rel: &str, bytes: &[u8]) -> PathBuf {
        let path = self.home().join(rel);
        std::fs::write(&path, bytes).unwrap();
        path
    }

    fn setup(&self, args: &[&str]) -> Ran {
        let mut cmd = Command::new(recall_bin());
        cmd.arg("--db")
            .arg(self.db())
            .arg("setup")
            .args(args)
            .current_dir(self.dir.path())
            .env("HOME", self.home())
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .env_remove("RECALL_DB")
            .env_remove("RECALL_CONFIG");
        Ran::from(cmd.output().expect("run recall setup"))
    }

    fn hook_command(&self) -> String {
        format!(
            "{} --db {} hook",
            recall_bin().display(),
            self.db().display()
        )
    }

    /// Every file under HOME (links as links), with its bytes.
    fn snapshot(&self) -> Vec<(PathBuf, Option<Vec<u8>>)> {
        fn walk(dir: &Path, out: &mut Vec<(PathBuf, Option<Vec<u8>>)>) {
            let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
            entries.sort_by_key(|e| e.path());
            for e in entries {
                let p = e.path();
                let meta = std::fs::symlink_metadata(&p).unwrap();
                if meta.is_dir() {
                    walk(&p, out);
                } else if meta.file_type().is_symlink() {
                    out.push((
                        p.clone(),
                        Some(
                            std::fs::read_link(&p)
                                .unwrap()
                                .into_os_string()
                                .into_encoded_bytes(),
                        ),
                    ));
                } else {
                    out.push((p.clone(), std::fs::read(&p).ok()));
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.home(), &mut out);
        out
    }
}

const CLAUDE_EVENTS: &str = r#"[["SessionStart", null], ["UserPromptSubmit", null], ["SessionEnd", null], ["PostToolUse", "Read|Edit|MultiEdit|Write|NotebookEdit"], ["PreToolUse", "Edit|MultiEdit|Write|NotebookEdit|Bash"], ["PostToolUseFailure", "Bash"]]"#;
const CODEX_EVENTS: &str = r#"[["SessionStart", null], ["UserPromptSubmit", null], ["Stop", null], ["PostToolUse", "apply_patch|Bash"], ["PreToolUse", "apply_patch|Bash"]]"#;

/// Python reads both files (a BOM dropped, duplicate keys kept as pairs, numbers as
/// written) and prints `same` when the file after setup is the file before with
/// recall's entries where setup puts them: one group appended to the last of each event
/// in the last `hooks`, or `recall` in the last `mcpServers`, each created at the end of
/// its object when missing.
const EXPECT: &str = r#"
import json, sys
before, after, part, spec = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
def load(path):
    text = open(path, encoding='utf-8', newline='').read()
    if text.startswith('\ufeff'):
        text = text[1:]
    if not text.strip():
        return ('obj', [])
    keep = lambda s: ('num', s)
    return json.loads(text, object_pairs_hook=lambda p: ('obj', [list(x) for x in p]),
                      parse_float=keep, parse_int=keep, parse_constant=keep)
def last(pairs, key):
    found = [i for i, (k, _) in enumerate(pairs) if k == key]
    return found[-1] if found else None
def handler(cmd):
    return ('obj', [['type', 'command'], ['command', cmd], ['timeout', ('num', '10')]])
def group(matcher, cmd):
    g = [['matcher', matcher]] if matcher is not None else []
    return ('obj', g + [['hooks', [handler(cmd)]]])
want = load(before)
root = want[1]
if part == 'hooks':
    i = last(root, 'hooks')
    if i is None:
        root.append(['hooks', ('obj', [])])
        i = len(root) - 1
    hooks = root[i][1][1]
    for name, matcher in spec['events']:
        j = last(hooks, name)
        if j is None:
            hooks.append([name, []])
            j = len(hooks) - 1
        hooks[j][1].append(group(matcher, spec['command']))
else:
    entry = ('obj', [['type', 'stdio'], ['command', spec['program']], ['args', spec['args']]])
    i = last(root, 'mcpServers')
    if i is None:
        root.append(['mcpServers', ('obj', [])])
        i = len(root) - 1
    servers = root[i][1][1]
    servers.append(['recall', entry])
got = load(after)
print('same' if got == want else 'differ:\n%r\n%r' % (got, want))
"#;

/// The file after setup is the file before plus recall's entries and nothing else: every
/// byte of before still there in order, and the values as Python reads them.
fn only_recalls_bytes_added(h: &Home, before: &[u8], after: &[u8], part: &str, label: &str) {
    let mut rest = after.iter();
    let kept = before.iter().all(|b| rest.any(|a| a == b));
    assert!(kept, "{label}: a byte of the file was changed or lost");
    let dir = tempfile::tempdir().unwrap();
    let (b, a) = (dir.path().join("before"), dir.path().join("after"));
    std::fs::write(&b, before).unwrap();
    std::fs::write(&a, after).unwrap();
    let events = if label.starts_with("codex") {
        CODEX_EVENTS
    } else {
        CLAUDE_EVENTS
    };
    let spec = serde_json::json!({
        "events": serde_json::from_str::<serde_json::Value>(events).unwrap(),
        "command": h.hook_command(),
        "program": recall_bin(),
        "args": ["--db", h.db(), "mcp"],
    });
    let out = Command::new("python3")
        .args(["-c", EXPECT])
        .arg(&b)
        .arg(&a)
        .arg(part)
        .arg(spec.to_string())
        .output()
        .expect("run python3");
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        said.trim(),
        "same",
        "{label}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs setup and remove for `agent` on the files given (relative to HOME), checking
/// each file after setup and that remove gives every file back byte for byte.
fn round_trip(label: &str, agent: &str, files: &[(&str, &str, Vec<u8>)]) {
    let h = Home::new();
    for (rel, _, bytes) in files {
        h.put(rel, bytes);
    }
    h.setup(&[agent]).ok();
    for (rel, part, bytes) in files {
        let after = std::fs::read(h.home().join(rel)).unwrap();
        assert_ne!(&after, bytes, "{label} {rel}: setup wrote its entries");
        if !bytes.contains(&b'\n') {
            assert!(
                !after.contains(&b'\n'),
                "{label} {rel}: a compact file stays on one line"
            );
        }
        only_recalls_bytes_added(&h, bytes, &after, part, &format!("{label} {rel}"));
    }
    let set = h.snapshot();
    let again = h.setup(&[agent]).ok();
    assert!(
        again.stdout.contains("nothing to change"),
        "{label}: {}",
        again.stdout
    );
    assert_eq!(h.snapshot(), set, "{label}: a second setup writes nothing");
    h.setup(&[agent, "--remove"]).ok();
    for (rel, _, bytes) in files {
        let back = std::fs::read(h.home().join(rel)).unwrap();
        assert!(
            back == *bytes,
            "{label} {rel}: remove gives the bytes back:\n{}",
            String::from_utf8_lossy(&back)
        );
    }
}

fn text(j: &J, indent: &str, newline: &str) -> Vec<u8> {
    let mut t = node(j, indent, newline);
    if !indent.is_empty() {
        t.push_str(newline);
    }
    t.into_bytes()
}

#[test]
fn numbers_and_escapes_of_a_large_state_file_stay_as_written() {
    // 20,000 floats and more across 4,000 projects (about 3 MB), in several layouts.
    let state = claude_state(4000, 7, vec![]);
    let small = claude_state(3, 11, vec![]);
    for (label, j, indent, nl) in [
        ("claude large, two spaces", &state, "  ", "\n"),
        ("claude large, compact", &state, "", "\n"),
        ("claude small, CRLF", &small, "  ", "\r\n"),
        ("claude small, tabs", &small, "\t", "\n"),
        ("claude small, four spaces CRLF", &small, "    ", "\r\n"),
    ] {
        let settings = claude_settings(vec![(
            "awkward".into(),
            raw("[1e21, -0, 1.0, \"\\u00e9\"]"),
        )]);
        round_trip(
            label,
            "claude-code",
            &[
                (".claude.json", "server", text(j, indent, nl)),
                (
                    ".claude/settings.json",
                    "hooks",
                    text(&settings, indent, nl),
                ),
            ],
        );
    }
}

#[test]
fn duplicate_keys_stay_and_the_last_one_is_edited() {
    let servers = |name: &str| {
        obj(&[(
            name,
            obj(&[("command", s("npx")), ("args", J::Arr(vec![s(name)]))]),
        )])
    };
    let stop = |cmd: &str| {
        J::Arr(vec![obj(&[(
            "hooks",
            J::Arr(vec![obj(&[("type", s("command")), ("command", s(cmd))])]),
        )])])
    };
    let cases: Vec<Case> = vec![
        (
            "claude two mcpServers",
            "claude-code",
            vec![(
                ".claude.json",
                "server",
                text(
                    &claude_state(
                        2,
                        3,
                        vec![
                            ("mcpServers".into(), servers("first")),
                            ("theme".into(), s("dark")),
                            ("mcpServers".into(), servers("second")),
                        ],
                    ),
                    "  ",
                    "\n",
                ),
            )],
        ),
        (
            "claude duplicate unrelated keys",
            "claude-code",
            vec![(
                ".claude.json",
                "server",
                text(
                    &J::Obj(vec![
                        ("theme".into(), s("dark")),
                        ("theme".into(), s("light")),
                        ("n".into(), raw("1.50")),
                        ("n".into(), raw("2")),
                    ]),
                    "  ",
                    "\n",
                ),
            )],
        ),
        (
            "claude two hooks objects",
            "claude-code",
            vec![(
                ".claude/settings.json",
                "hooks",
                text(
                    &claude_settings(vec![(
                        "hooks".into(),
                        obj(&[("Stop", stop("afplay a.aiff"))]),
                    )]),
                    "  ",
                    "\n",
                ),
            )],
        ),
        (
            "codex a duplicated event",
            "codex",
            vec![(
                ".codex/hooks.json",
                "hooks",
                text(
                    &J::Obj(vec![(
                        "hooks".into(),
                        J::Obj(vec![
                            ("Stop".into(), stop("say one")),
                            ("SessionStart".into(), J::Arr(vec![])),
                            ("Stop".into(), stop("say two")),
                        ]),
                    )]),
                    "    ",
                    "\n",
                ),
            )],
        ),
    ];
    for (label, agent, files) in cases {
        round_trip(label, agent, &files);
    }
}

#[test]
fn empty_objects_and_lists_that_were_there_stay_after_remove() {
    let cases: Vec<Case> = vec![
        (
            "claude empty mcpServers",
            "claude-code",
            vec![(
                ".claude.json",
                "server",
                text(
                    &claude_state(2, 5, vec![("mcpServers".into(), obj(&[]))]),
                    "  ",
                    "\n",
                ),
            )],
        ),
        (
            "claude empty hooks and an empty event",
            "claude-code",
            vec![
                (
                    ".claude/settings.json",
                    "hooks",
                    text(
                        &obj(&[("model", s("opus")), ("hooks", obj(&[]))]),
                        "  ",
                        "\n",
                    ),
                ),
                (
                    ".claude.json",
                    "server",
                    text(&obj(&[("mcpServers", obj(&[]))]), "  ", "\r\n"),
                ),
            ],
        ),
        (
            "claude an empty event list",
            "claude-code",
            vec![(
                ".claude/settings.json",
                "hooks",
                text(
                    &obj(&[(
                        "hooks",
                        obj(&[
                            ("SessionStart", J::Arr(vec![])),
                            ("PostToolUse", J::Arr(vec![])),
                        ]),
                    )]),
                    "  ",
                    "\n",
                ),
            )],
        ),
        (
            "claude an empty object file",
            "claude-code",
            vec![
                (".claude/settings.json", "hooks", b"{}".to_vec()),
                (".claude.json", "server", b"{}\n".to_vec()),
            ],
        ),
        (
            "codex empty hooks",
            "codex",
            vec![(
                ".codex/hooks.json",
                "hooks",
                text(&obj(&[("hooks", obj(&[]))]), "  ", "\n"),
            )],
        ),
    ];
    for (label, agent, files) in cases {
        round_trip(label, agent, &files);
    }
}

#[test]
fn a_byte_order_mark_and_other_tools_hooks_are_kept() {
    let bom = |mut t: Vec<u8>| {
        let mut out = "\u{feff}".as_bytes().to_vec();
        out.append(&mut t);
        out
    };
    let codex_hooks = obj(&[(
        "hooks",
        obj(&[
            (
                "Stop",
                J::Arr(vec![obj(&[(
                    "hooks",
                    J::Arr(vec![obj(&[
                        ("type", s("command")),
                        ("command", s("afplay Glass.aiff")),
                        ("timeout", raw("5")),
                    ])]),
                )])]),
            ),
            (
                "PostToolUse",
                J::Arr(vec![obj(&[
                    ("matcher", s("shell")),
                    (
                        "hooks",
                        J::Arr(vec![obj(&[
                            ("type", s("command")),
                            ("command", s("audit-log")),
                        ])]),
                    ),
                ])]),
            ),
        ]),
    )]);
    let cases: Vec<Case> = vec![
        (
            "claude BOM",
            "claude-code",
            vec![
                (
                    ".claude/settings.json",
                    "hooks",
                    bom(text(&claude_settings(vec![]), "  ", "\n")),
                ),
                (
                    ".claude.json",
                    "server",
                    bom(text(&claude_state(2, 9, vec![]), "  ", "\r\n")),
                ),
            ],
        ),
        (
            "codex other tools' hooks",
            "codex",
            vec![(".codex/hooks.json", "hooks", text(&codex_hooks, "  ", "\n"))],
        ),
        (
            "codex BOM compact",
            "codex",
            vec![(
                ".codex/hooks.json",
                "hooks",
                bom(text(&codex_hooks, "", "\n")),
            )],
        ),
        (
            "claude no final newline",
            "claude-code",
            vec![(
                ".claude/settings.json",
                "hooks",
                node(&claude_settings(vec![]), "  ", "\n").into_bytes(),
            )],
        ),
    ];
    for (label, agent, files) in cases {
        round_trip(label, agent, &files);
    }
}

#[test]
fn the_listing_reads_files_with_a_byte_order_mark() {
    for (indent, nl) in [("  ", "\n"), ("", "\n"), ("\t", "\r\n")] {
        let h = Home::new();
        let bom = |j: &J| {
            format!(
                "\u{feff}{}",
                String::from_utf8(text(j, indent, nl)).unwrap()
            )
        };
        h.put(
            ".claude/settings.json",
            bom(&claude_settings(vec![])).as_bytes(),
        );
        h.put(".claude.json", bom(&claude_state(2, 17, vec![])).as_bytes());
        h.setup(&["claude-code"]).ok();
        let listed = h.setup(&["--json"]).ok().json();
        let user = &listed["agents"][0]["user"];
        assert_eq!(
            user[0]["events"].as_array().map(Vec::len),
            Some(recall_cli::agents::claude::setup::EVENTS.len()),
            "{listed}"
        );
        assert_eq!(user[1]["server"], true, "{listed}");
        assert_eq!(
            user[1]["libraries"][0],
            serde_json::json!(h.db()),
            "{listed}"
        );
    }
}

#[test]
fn an_earlier_recall_entry_is_updated_in_place() {
    // recall's entry of an older binary, among numbers a re-serialisation would change:
    // only its command and args change, and the bytes before and after it stay.
    let h = Home::new();
    let entry = obj(&[
        ("type", s("stdio")),
        ("command", s("/old/bin/recall")),
        ("args", J::Arr(vec![s("mcp")])),
        (
            "env",
            obj(&[("RECALL_CONFIG", s("/home/me/r\\u00e9call.toml"))]),
        ),
    ]);
    let before = text(
        &claude_state(
            3,
            13,
            vec![
                ("mcpServers".into(), obj(&[("recall", entry)])),
                ("ratio".into(), raw("1e-7")),
            ],
        ),
        "  ",
        "\n",
    );
    let path = h.put(".claude.json", &before);
    h.setup(&["claude-code"]).ok();
    let after = std::fs::read_to_string(&path).unwrap();
    let before = String::from_utf8(before).unwrap();
    let start = before.find("\"recall\": {").unwrap();
    let end = start + before[start..].find("\n    }").unwrap();
    assert!(
        after.starts_with(&before[..start]),
        "the bytes before the entry stay"
    );
    assert!(
        after.ends_with(&before[end..]),
        "the bytes after the entry stay"
    );
    let new = format!(
        "\"recall\": {{\n      \"type\": \"stdio\",\n      \"command\": {},\n      \"args\": [\n        \"--db\",\n        {},\n        \"mcp\"\n      ],\n      \"env\": {{\n        \"RECALL_CONFIG\": \"/home/me/r\\\\u00e9call.toml\"\n      }}",
        serde_json::to_string(&recall_bin()).unwrap(),
        serde_json::to_string(&h.db()).unwrap()
    );
    assert_eq!(&after[start..after.len() - (before.len() - end)], new);
}

#[test]
fn remove_without_the_backup_takes_out_a_key_left_empty() {
    // The backup is the evidence that `mcpServers` was the file's own before setup; with
    // it gone, an `mcpServers` that held only recall's entry goes with it.
    let h = Home::new();
    let before = text(
        &obj(&[("theme", s("dark")), ("mcpServers", obj(&[]))]),
        "  ",
        "\n",
    );
    let path = h.put(".claude.json", &before);
    h.setup(&["claude-code"]).ok();
    std::fs::remove_file(h.home().join(".claude.json.recall-backup")).unwrap();
    h.setup(&["claude-code", "--remove"]).ok();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "{\n  \"theme\": \"dark\"\n}\n"
    );
}

#[test]
fn blank_files_come_back_blank_and_files_setup_made_go() {
    for blank in ["", "\n", "  \r\n", "\u{feff}"] {
        let h = Home::new();
        let settings = h.put(".claude/settings.json", blank.as_bytes());
        h.setup(&["claude-code"]).ok();
        let set = std::fs::read_to_string(&settings).unwrap();
        assert!(set.contains(&h.hook_command()), "{blank:?}: {set}");
        h.setup(&["claude-code", "--remove"]).ok();
        assert_eq!(
            std::fs::read_to_string(&settings).unwrap(),
            blank,
            "{blank:?}"
        );
        // `.claude.json` did not exist: setup made it, remove takes it away.
        assert!(!h.home().join(".claude.json").exists(), "{blank:?}");
    }
}

#[test]
fn a_file_that_cannot_be_written_stops_setup_before_any_write() {
    use std::os::unix::fs::PermissionsExt;
    let settings = text(&claude_settings(vec![]), "  ", "\n");
    // A read-only `.claude.json`: refused, and settings.json (written first) untouched,
    // on setup and on remove.
    let wired = String::from_utf8(settings.clone()).unwrap().replacen(
        "\"hooks\": {",
        "\"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"recall hook\"}]}],",
        1,
    );
    for mode in [0o444, 0o400, 0o555] {
        for remove in [false, true] {
            let h = Home::new();
            let (hooks, server) = match remove {
                false => (settings.clone(), "{\n  \"theme\": \"dark\"\n}\n"),
                true => (
                    wired.clone().into_bytes(),
                    "{\"mcpServers\": {\"recall\": {\"command\": \"recall\"}}}",
                ),
            };
            h.put(".claude/settings.json", &hooks);
            let state = h.put(".claude.json", server.as_bytes());
            std::fs::set_permissions(&state, std::fs::Permissions::from_mode(mode)).unwrap();
            let before = h.snapshot();
            let args: &[&str] = if remove {
                &["claude-code", "--remove"]
            } else {
                &["claude-code"]
            };
            let out = h.setup(args).fails_with("is read-only");
            assert!(out.stderr.contains(".claude.json"), "{}", out.stderr);
            assert!(out.stderr.contains("no file was changed"), "{}", out.stderr);
            assert_eq!(h.snapshot(), before, "{mode:o} {args:?}");
        }
    }
    // A link whose file would be made under something that is not a folder.
    let h = Home::new();
    h.put(".claude/settings.json", &settings);
    std::fs::write(h.dir.path().join("a-file"), "x").unwrap();
    std::os::unix::fs::symlink(
        h.dir.path().join("a-file/sub/.claude.json"),
        h.home().join(".claude.json"),
    )
    .unwrap();
    let before = h.snapshot();
    let out = h.setup(&["claude-code"]).fails_with("Not a directory");
    assert!(out.stderr.contains("no file was changed"), "{}", out.stderr);
    assert_eq!(h.snapshot(), before);
}

#[test]
fn a_dangling_link_is_written_where_it_points_and_stays_a_link() {
    for (target, relative) in [
        ("dotfiles/claude.json", false),
        ("dotfiles/deeper/claude.json", true),
    ] {
        let h = Home::new();
        let dotfiles = h.dir.path().join(target);
        std::fs::create_dir_all(dotfiles.parent().unwrap()).unwrap();
        let link = h.home().join(".claude.json");
        let points = match relative {
            true => PathBuf::from("..").join(target),
            false => dotfiles.clone(),
        };
        std::os::unix::fs::symlink(&points, &link).unwrap();
        h.setup(&["claude-code"]).ok();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink(),
            "{target}"
        );
        assert_eq!(std::fs::read_link(&link).unwrap(), points);
        let written = std::fs::read_to_string(&dotfiles).unwrap();
        assert!(written.contains("\"mcpServers\""), "{written}");
        // Remove: the file setup made goes, the link stays as it was.
        h.setup(&["claude-code", "--remove"]).ok();
        assert!(!dotfiles.exists(), "{target}");
        assert_eq!(std::fs::read_link(&link).unwrap(), points);
    }
}
