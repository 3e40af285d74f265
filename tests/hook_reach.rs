//! What the hook tells the agent to run, run as the agent would: the usage line's command
//! line from a shell that knows neither recall's folder nor its library (Claude Code's
//! shell has no `RECALL_DB`; Codex's login shell resets the `PATH`), and the MCP tools
//! named only where the agent's settings, or the plugin the hook runs from, wire
//! recall's server. And a session end whose transcript was never written (`claude mcp
//! list` ends such a session) is nothing to capture: no failure logged, no notice.
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use crate::common::cli::{recall_bin, Ran, TempLib};
use crate::common::{pipe, root};

/// The command line the hook names for `lib`: recall by its absolute path, `--db` with
/// the library's (the test folders need no quoting).
pub fn shell_line(lib: &TempLib) -> String {
    format!("{} --db {}", recall_bin().display(), lib.db.display())
}

/// A home of the agents' own: no settings, unless a test writes some.
struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new() -> Home {
        Home {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn put(&self, file: &str, text: &str) {
        let path = self.path().join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// `recall hook` as the agent runs it from this home, `plugin` the plugin it runs from.
    fn hook(&self, lib: &TempLib, plugin: Option<&Path>, payload: &Value) -> Ran {
        let mut cmd = lib.command();
        cmd.arg("hook")
            .env("HOME", self.path())
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .env_remove("CLAUDE_PLUGIN_ROOT");
        if let Some(plugin) = plugin {
            cmd.env("CLAUDE_PLUGIN_ROOT", plugin);
        }
        let out = Ran::from(pipe(&mut cmd, &payload.to_string()));
        assert_eq!(out.code, 0, "{out:?}");
        out
    }

    /// Where each agent keeps a session's transcript under this home.
    fn claude_transcript(&self, session: &str) -> PathBuf {
        self.path()
            .join(".claude/projects/-work-shop")
            .join(format!("{session}.jsonl"))
    }

    fn codex_rollout(&self, session: &str) -> PathBuf {
        self.path().join(format!(
            ".codex/sessions/2026/12/05/rollout-2026-12-05T10-00-00-{session}.jsonl"
        ))
    }
}

fn sample() -> (TempLib, PathBuf) {
    let lib = TempLib::init(None);
    lib.run(&[
        "import",
        root().join("examples/sample.jsonl").to_str().unwrap(),
    ])
    .ok();
    let shop = lib.path("shop");
    std::fs::create_dir_all(shop.join(".git")).unwrap();
    (lib, shop)
}

fn start(transcript: &Path, cwd: &Path) -> Value {
    json!({"session_id": "s1", "transcript_path": transcript, "cwd": cwd,
        "hook_event_name": "SessionStart", "source": "startup", "model": "claude-opus-4-5"})
}

fn context(out: &Ran) -> String {
    let doc: Value = serde_json::from_str(out.stdout.trim()).expect("one JSON object");
    doc["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .expect("a context")
        .to_string()
}

fn usage(out: &Ran) -> String {
    context(out).lines().last().unwrap_or_default().to_string()
}

/// The text between the first pair of backticks after `after` in `line`.
fn quoted_after(line: &str, after: &str) -> String {
    let rest = &line[line
        .find(after)
        .unwrap_or_else(|| panic!("{after:?} in {line}"))..];
    rest.split('`').nth(1).unwrap_or_default().to_string()
}

/// Runs `command` in `sh -c` as an agent's shell would: another working folder, no
/// `RECALL_DB`, and a `PATH` without recall's folder.
fn from_the_shell(command: &str, cwd: &Path) -> Ran {
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c")
        .arg(command)
        .current_dir(cwd)
        .env("PATH", "/usr/bin:/bin")
        .env_remove("RECALL_DB")
        .env_remove("RECALL_CONFIG");
    Ran::from(cmd.output().unwrap())
}

/// The item ids of a `search` or `later` listing as printed.
fn listed_ids(text: &str) -> Vec<i64> {
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix('['))
        .filter_map(|l| l.split_once(']'))
        .filter_map(|(id, _)| id.parse().ok())
        .collect()
}

/// Class: the usage line's command, as printed, from the agent's shell. For each agent
/// (by its transcript's place) and without MCP, the line gives one command line; run
/// with `search WORDS`, `later ID` and `get ID` from a shell without recall on its PATH
/// nor `RECALL_DB`, it answers as `recall` with the library does. A library whose path
/// needs quoting is quoted.
#[test]
fn the_usage_line_s_command_runs_from_the_agent_s_shell() {
    let (lib, shop) = sample();
    let home = Home::new();
    let elsewhere = tempfile::tempdir().unwrap();
    let expected_search = crate::common::cli::ids(&lib.json(&["search", "database locked"]));
    assert!(!expected_search.is_empty());
    let first = expected_search[0].to_string();
    let expected_later = crate::common::cli::ids(&lib.json(&["later", &first]));
    let expected_title = lib.json(&["get", &first])["item"]["title"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(!expected_title.is_empty());
    for transcript in [
        home.claude_transcript("s1"),
        home.codex_rollout("s1"),
        PathBuf::from("/tmp/none.jsonl"),
    ] {
        let line = usage(&home.hook(&lib, None, &start(&transcript, &shop)));
        let command = quoted_after(&line, "from the shell with");
        assert_eq!(command, shell_line(&lib), "{line}");
        for words in [
            "`search WORDS`",
            "`later ID`",
            "`get ID`",
            "literal",
            "decision",
        ] {
            assert!(line.contains(words), "{line} lacks {words}");
        }
        assert!(!line.contains("mcp"), "no MCP wired: {line}");
        let search = from_the_shell(
            &format!("{command} search 'database locked'"),
            elsewhere.path(),
        );
        assert_eq!(
            listed_ids(&search.ok().stdout),
            expected_search,
            "{transcript:?}"
        );
        let later = from_the_shell(&format!("{command} later {first}"), elsewhere.path());
        assert_eq!(listed_ids(&later.ok().stdout), expected_later);
        let get = from_the_shell(&format!("{command} get {first}"), elsewhere.path());
        assert!(get.ok().stdout.contains(&expected_title));
    }
    // A library in a folder with a space and a quote: quoted, and it still runs.
    let odd = lib.path("it's a shop");
    std::fs::create_dir_all(&odd).unwrap();
    let db = odd.join("memory.db");
    std::fs::copy(&lib.db, &db).unwrap();
    let mut cmd = Command::new(recall_bin());
    cmd.arg("--db")
        .arg(&db)
        .arg("hook")
        .env("HOME", home.path())
        .env_remove("RECALL_DB");
    let out = Ran::from(pipe(
        &mut cmd,
        &start(&home.claude_transcript("s2"), &shop).to_string(),
    ));
    let line = usage(&out);
    let command = quoted_after(&line, "from the shell with");
    assert_ne!(
        command,
        format!("{} --db {}", recall_bin().display(), db.display())
    );
    // The shell reads three words: the program, `--db`, the library.
    let words = from_the_shell(&format!("printf '%s\\n' {command}"), elsewhere.path()).ok();
    assert_eq!(
        words.stdout.lines().collect::<Vec<_>>(),
        [recall_bin().to_str().unwrap(), "--db", db.to_str().unwrap()]
    );
    let search = from_the_shell(
        &format!("{command} search 'database locked'"),
        elsewhere.path(),
    );
    assert_eq!(listed_ids(&search.ok().stdout), expected_search);
}

/// Class: the MCP tools are named where, and only where, the server is wired: Claude
/// Code's user file and the repository's `.mcp.json` (`mcp__recall__…`), a plugin's
/// server (`mcp__plugin_recall_recall__…`), Codex's `config.toml` (the server's tools by
/// name); not a server named `recall` that runs another program, not another agent's
/// file, not a payload of no known agent. The command line is given in addition, and the
/// prompt's block names the same way to get an item.
#[test]
fn the_mcp_tools_are_named_where_the_server_is_wired() {
    let (lib, _) = sample();
    let server = json!({"mcpServers": {"recall": {"type": "stdio", "command": recall_bin(),
        "args": ["--db", lib.db, "mcp"]}}})
    .to_string();
    let toml = format!(
        "model = \"gpt-5.5\"\n\n[mcp_servers.recall]\ncommand = {:?}\nargs = [\"mcp\"]\n",
        recall_bin().display().to_string()
    );
    let plugin = root().join("plugin");
    let claude_tools = "(`mcp__recall__search`); before answering with a decision, a plan, a status or a number, call `mcp__recall__later` with the ID of the item it rests on; `mcp__recall__get` shows an item in full.";
    let plugin_tools = "(`mcp__plugin_recall_recall__search`); before answering with a decision, a plan, a status or a number, call `mcp__plugin_recall_recall__later` with the ID of the item it rests on; `mcp__plugin_recall_recall__get` shows an item in full.";
    let codex_tools = "(the recall MCP tool `search`); before answering with a decision, a plan, a status or a number, call the recall MCP tool `later` with the ID of the item it rests on; the recall MCP tool `get` shows an item in full.";
    let shell = format!(
        "The same from the shell: `{}` with `search WORDS`, `later ID` or `get ID`.",
        shell_line(&lib)
    );
    // (files of the home, files of the repository, plugin, transcript, tools named)
    type Case<'a> = (
        Vec<(&'a str, String)>,
        Vec<(&'a str, String)>,
        bool,
        bool,
        Option<&'a str>,
    );
    let cases: Vec<Case> = vec![
        (
            vec![(".claude.json", server.clone())],
            vec![],
            false,
            true,
            Some(claude_tools),
        ),
        (
            vec![],
            vec![(".mcp.json", server.clone())],
            false,
            true,
            Some(claude_tools),
        ),
        (vec![], vec![], true, true, Some(plugin_tools)),
        // The plugin's tools win over the settings' when the hook runs from the plugin.
        (
            vec![(".claude.json", server.clone())],
            vec![],
            true,
            true,
            Some(plugin_tools),
        ),
        (
            vec![(".codex/config.toml", toml.clone())],
            vec![],
            false,
            false,
            Some(codex_tools),
        ),
        (
            vec![],
            vec![(".codex/config.toml", toml.clone())],
            false,
            false,
            Some(codex_tools),
        ),
        // Not wired: nothing, a server `recall` of another program, the other agent's file.
        (vec![], vec![], false, true, None),
        (
            vec![(
                ".claude.json",
                json!({"mcpServers": {"recall": {"command": "python3", "args": ["recall.py"]}}})
                    .to_string(),
            )],
            vec![],
            false,
            true,
            None,
        ),
        (
            vec![(".codex/config.toml", toml.clone())],
            vec![],
            false,
            true,
            None,
        ),
        (
            vec![(".claude.json", server.clone())],
            vec![],
            false,
            false,
            None,
        ),
    ];
    for (i, (home_files, repo_files, from_plugin, claude, tools)) in cases.into_iter().enumerate() {
        let home = Home::new();
        for (file, text) in &home_files {
            home.put(file, text);
        }
        // A checkout of the sample's project `api`, whose items the prompt finds.
        let repo = lib.path(&format!("case{i}/api"));
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        let cwd = repo.join("src");
        std::fs::create_dir_all(&cwd).unwrap();
        for (file, text) in &repo_files {
            let path = repo.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let transcript = match claude {
            true => home.claude_transcript("s1"),
            false => home.codex_rollout("s1"),
        };
        let plugin = from_plugin.then_some(plugin.as_path());
        let line = usage(&home.hook(&lib, plugin, &start(&transcript, &cwd)));
        match tools {
            Some(tools) => {
                assert!(
                    line.starts_with("How to use the recall memory: search is literal"),
                    "case {i}: {line}"
                );
                assert!(line.contains(tools), "case {i}: {line}");
                assert!(line.ends_with(&shell), "case {i}: {line}");
            }
            None => assert!(
                line.starts_with(&format!(
                    "How to use the recall memory, from the shell with `{}`:",
                    shell_line(&lib)
                )),
                "case {i}: {line}"
            ),
        }
        // The first prompt's block names the same way to get an item.
        let prompt = json!({"session_id": format!("p{i}"), "transcript_path": transcript,
            "cwd": cwd, "hook_event_name": "UserPromptSubmit",
            "prompt": "the importer fails with database is locked again"});
        let out = home.hook(&lib, plugin, &prompt);
        let (inner, _) = crate::common::memory_block(&out.stdout);
        let get = match tools {
            Some(t) if t.contains("mcp__plugin") => "`mcp__plugin_recall_recall__get`".to_string(),
            Some(t) if t.contains("mcp__recall") => "`mcp__recall__get`".to_string(),
            Some(_) => "the recall MCP tool `get`".to_string(),
            None => format!("`{} get ID`", shell_line(&lib)),
        };
        assert!(
            inner[0].ends_with(&format!("({get} shows one in full):")),
            "case {i}: {}",
            inner[0]
        );
    }
}

/// A session end of Claude Code's shape (`reason` `other`, as `claude mcp list` sends it).
fn end(transcript: Value, cwd: &Path, event: &str) -> Value {
    json!({"session_id": "e1", "transcript_path": transcript, "cwd": cwd,
        "hook_event_name": event, "reason": "other"})
}

fn failures(lib: &TempLib) -> String {
    std::fs::read_to_string(format!("{}.failures", lib.db.display())).unwrap_or_default()
}

/// Class: a capture event with nothing to capture is no failure. A transcript never
/// written (its file, or its folder too, missing), an empty path, none at all, an empty
/// file; at `SessionEnd` and at Codex's `Stop`: one line saying there was nothing to
/// capture, nothing in the failure log, no notice at the next start, and the library as
/// it was. A transcript that appears later is captured at the session's next end.
#[test]
fn a_transcript_never_written_is_nothing_to_capture() {
    let (lib, shop) = sample();
    let home = Home::new();
    let items = lib.count("select count(*) from items");
    let plain = context(&home.hook(&lib, None, &start(&home.claude_transcript("a"), &shop)));
    let empty = lib.path("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let missing_file = home.claude_transcript("never");
    std::fs::create_dir_all(missing_file.parent().unwrap()).unwrap();
    for (event, transcript) in [
        ("SessionEnd", json!(missing_file)),
        (
            "SessionEnd",
            json!(home.path().join(".claude/projects/-no-such-folder/x.jsonl")),
        ),
        ("SessionEnd", json!("")),
        ("SessionEnd", Value::Null),
        ("SessionEnd", json!(empty)),
        ("Stop", json!(home.codex_rollout("never"))),
        ("Stop", Value::Null),
    ] {
        let out = home.hook(&lib, None, &end(transcript.clone(), &shop, event));
        assert_eq!(out.stdout, "", "{transcript}");
        assert_eq!(out.stderr.lines().count(), 1, "{out:?}");
        assert!(
            out.stderr
                .starts_with(&format!("recall: hook: {event}: nothing to capture: ")),
            "{out:?}"
        );
        assert_eq!(failures(&lib), "", "{transcript}");
        let mut json = lib.command();
        json.args(["--json", "hook"]).env("HOME", home.path());
        let doc = Ran::from(pipe(
            &mut json,
            &end(transcript.clone(), &shop, event).to_string(),
        ))
        .json();
        assert!(
            doc["capture"]
                .as_str()
                .unwrap_or_default()
                .starts_with("nothing to capture: "),
            "{doc}"
        );
        assert_eq!(doc["pid"], Value::Null);
    }
    let next = context(&home.hook(&lib, None, &start(&home.claude_transcript("b"), &shop)));
    assert_eq!(next, plain, "no notice");
    assert_eq!(lib.count("select count(*) from items"), items);
    assert!(!lib.path("library.db.failures").exists());
    // The transcript appears: the session's next end captures it.
    let later = home.claude_transcript("late");
    let record = |kind: &str, at: &str, message: Value| {
        json!({"type": kind, "sessionId": "late", "cwd": shop, "timestamp": at,
            "isSidechain": false, "uuid": format!("{kind}-{at}"), "message": message})
        .to_string()
    };
    let end_late = end(json!(later), &shop, "SessionEnd");
    home.hook(&lib, None, &end_late);
    std::fs::write(
        &later,
        [
            record("user", "2026-12-01T10:00:00.000Z", json!({"role": "user", "content": "why does the okapi cache miss?"})),
            record("assistant", "2026-12-01T10:00:20.000Z", json!({"role": "assistant", "content": [{"type": "text", "text": "The key omits the locale."}]})),
        ]
        .join("\n")
            + "\n",
    )
    .unwrap();
    let mut json_end = lib.command();
    json_end.args(["--json", "hook"]).env("HOME", home.path());
    let doc = Ran::from(pipe(&mut json_end, &end_late.to_string())).json();
    assert_eq!(doc["capture"], "started", "{doc}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while lib.count("select count(*) from items where title like '%okapi%'") == 0 {
        assert!(std::time::Instant::now() < deadline, "not captured");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(failures(&lib), "");
}

/// Class: a transcript that exists and cannot be captured is still a failure: a folder,
/// a file that is no transcript. Each is logged, and the next start says so once.
#[test]
fn a_transcript_that_exists_and_fails_is_still_a_failure() {
    let (lib, shop) = sample();
    let home = Home::new();
    let folder = lib.path("a-folder.jsonl");
    std::fs::create_dir_all(&folder).unwrap();
    let notes = lib.path("notes.jsonl");
    std::fs::write(&notes, "just some notes\n").unwrap();
    // A start first, as in a session: it keeps the session state the notice is told by.
    home.hook(&lib, None, &start(&home.claude_transcript("first"), &shop));
    for (i, (transcript, reason)) in [
        (&folder, "is not a file"),
        (&notes, "is not a session transcript"),
    ]
    .into_iter()
    .enumerate()
    {
        // Failures are told to the second: the next one in a later second.
        if i > 0 {
            std::thread::sleep(std::time::Duration::from_millis(1100));
        }
        let out = home.hook(&lib, None, &end(json!(transcript), &shop, "SessionEnd"));
        assert!(out.stderr.contains(reason), "{out:?}");
        assert!(
            out.stderr
                .trim_end()
                .ends_with("the session is not captured"),
            "{out:?}"
        );
        let log = failures(&lib);
        assert_eq!(log.lines().count(), i + 1, "{log}");
        assert!(
            log.lines().last().unwrap_or_default().contains(reason),
            "{log}"
        );
        let next = context(&home.hook(&lib, None, &start(&home.claude_transcript("n"), &shop)));
        let notice = next
            .lines()
            .find(|l| l.starts_with("recall: the session hook failed at "))
            .unwrap_or_else(|| panic!("a notice: {next}"));
        assert!(notice.contains(reason), "{notice}");
        assert!(
            notice.ends_with(&format!("; run `{} status`", shell_line(&lib))),
            "{notice}"
        );
        // Its command runs from the agent's shell and tells the failure.
        let status = quoted_after(notice, "; run");
        let out = from_the_shell(&status, lib.dir.path());
        assert_eq!(out.code, 1, "something needs attention: {out:?}");
        assert!(out.stdout.contains(reason), "{out:?}");
    }
}
