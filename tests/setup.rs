//! `recall setup`: wiring recall into Claude Code and Codex, through the binary, in
//! fixture home folders that hold settings of their own (another tool's hooks, an MCP
//! server, a permissions block, comments in TOML). Each expectation is computed here from
//! the fixture: the files are parsed and compared as values, and as bytes where the
//! format keeps them.
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use crate::common::cli::{recall_bin, Ran, TempLib};
use crate::common::{pipe, root};

/// Claude Code's settings as Claude Code writes them (two-space JSON), with a
/// permissions block, an env block and another tool's hooks.
const CLAUDE_SETTINGS: &str = r#"{
  "permissions": {
    "allow": [
      "Bash(cargo test:*)",
      "Read(~/notes/**)"
    ],
    "deny": [
      "Read(./.env)"
    ]
  },
  "env": {
    "CARGO_TERM_COLOR": "always"
  },
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Edit|Write",
        "hooks": [
          {
            "type": "command",
            "command": "npx prettier --write \"$CLAUDE_PROJECT_DIR\"",
            "timeout": 30
          }
        ]
      }
    ],
    "Notification": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "notify-send 'Claude Code' 'needs you'"
          }
        ]
      }
    ]
  },
  "model": "opus",
  "includeCoAuthoredBy": false
}
"#;

/// Claude Code's `~/.claude.json`: its state, and a user MCP server of another tool.
const CLAUDE_STATE: &str = r#"{
  "numStartups": 41,
  "theme": "dark",
  "mcpServers": {
    "github": {
      "type": "stdio",
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-github"
      ],
      "env": {
        "GITHUB_PERSONAL_ACCESS_TOKEN": "placeholder"
      }
    }
  },
  "projects": {
    "/home/me/shop": {
      "allowedTools": [],
      "hasTrustDialogAccepted": true
    }
  }
}
"#;

/// Codex's `config.toml`, with comments, an inline table and another MCP server.
const CODEX_CONFIG: &str = r#"# Codex, by hand.
model = "gpt-5-codex"   # the default model
approval_policy = "on-request"

[features]
web_search_request = true

# Documentation lookups.
[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]
env = { DOCS_TOKEN = "placeholder" }
startup_timeout_sec = 20

[projects."/home/me/shop"]
trust_level = "trusted"
"#;

/// Codex's `hooks.json` with another tool's Stop hook, indented by four spaces.
const CODEX_HOOKS: &str = r#"{
    "hooks": {
        "Stop": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": "afplay /System/Library/Sounds/Glass.aiff",
                        "timeout": 5
                    }
                ]
            }
        ]
    }
}
"#;

const CLAUDE_EVENTS: [(&str, Option<&str>); 6] = [
    ("SessionStart", None),
    ("UserPromptSubmit", None),
    ("SessionEnd", None),
    (
        "PostToolUse",
        Some("Read|Edit|MultiEdit|Write|NotebookEdit"),
    ),
    ("PreToolUse", Some("Edit|MultiEdit|Write|NotebookEdit|Bash")),
    ("PostToolUseFailure", Some("Bash")),
];

const CODEX_EVENTS: [(&str, Option<&str>); 5] = [
    ("SessionStart", None),
    ("UserPromptSubmit", None),
    ("Stop", None),
    ("PostToolUse", Some("apply_patch|Bash")),
    ("PreToolUse", Some("apply_patch|Bash")),
];

/// A home folder, a library with the sample's items, and a repository folder.
struct Fixture {
    dir: tempfile::TempDir,
    lib: TempLib,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        std::fs::create_dir_all(dir.path().join("repo/.git")).unwrap();
        std::fs::create_dir_all(dir.path().join("repo/src")).unwrap();
        let lib = TempLib::init(None);
        let sample = root().join("examples/sample.jsonl");
        lib.run(&["import", sample.to_str().unwrap()]).ok();
        Fixture { dir, lib }
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    fn repo(&self) -> PathBuf {
        self.dir.path().join("repo")
    }

    fn put(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.home().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    /// `recall --db LIB setup ARGS…` with this HOME, from the repository's `src`.
    fn setup(&self, args: &[&str]) -> Ran {
        let mut cmd = Command::new(recall_bin());
        cmd.arg("--db")
            .arg(&self.lib.db)
            .arg("setup")
            .args(args)
            .current_dir(self.repo().join("src"))
            .env("HOME", self.home())
            // No `codex` on the PATH unless a test puts one in `bin`: setup asks it.
            .env("PATH", self.dir.path().join("bin"))
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .env_remove("RECALL_DB")
            .env_remove("RECALL_CONFIG");
        Ran::from(cmd.output().expect("run recall setup"))
    }

    /// Every file under the home and repository folders, with its bytes.
    fn snapshot(&self) -> Vec<(PathBuf, Vec<u8>)> {
        fn walk(dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
            let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
            entries.sort_by_key(|e| e.path());
            for e in entries {
                if e.path().is_dir() {
                    walk(&e.path(), out);
                } else {
                    out.push((e.path(), std::fs::read(e.path()).unwrap()));
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.home(), &mut out);
        walk(&self.repo(), &mut out);
        out
    }

    /// The hook command setup is expected to write (the paths hold no character that
    /// needs quoting).
    fn hook_command(&self) -> String {
        format!(
            "{} --db {} hook",
            recall_bin().display(),
            self.lib.db.display()
        )
    }

    fn mcp_args(&self) -> Value {
        json!(["--db", self.lib.db, "mcp"])
    }
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `settings` with recall's group appended to each event, computed from the fixture.
fn with_recall_hooks(mut settings: Value, events: &[(&str, Option<&str>)], command: &str) -> Value {
    for (event, matcher) in events {
        let mut group = json!({
            "hooks": [{"type": "command", "command": command, "timeout": 10}]
        });
        if let Some(m) = matcher {
            group["matcher"] = json!(m);
        }
        let hooks = settings["hooks"].as_object_mut().unwrap();
        let groups = hooks.entry(*event).or_insert(json!([]));
        groups.as_array_mut().unwrap().push(group);
    }
    settings
}

/// Asserts that the keys of `before`'s top-level object appear in `after`'s text in the
/// same order (serde_json here sorts keys, so the order is read from the text).
fn same_key_order(before: &str, after: &str, indent: &str) {
    let keys: Vec<String> = read_value_keys(before);
    let positions: Vec<usize> = keys
        .iter()
        .map(|k| {
            after
                .find(&format!("\n{indent}\"{k}\":"))
                .unwrap_or_else(|| panic!("{k} missing: {after}"))
        })
        .collect();
    assert!(
        positions.windows(2).all(|w| w[0] < w[1]),
        "key order changed: {keys:?}\n{after}"
    );
}

fn read_value_keys(text: &str) -> Vec<String> {
    // The top-level keys in the order of the text: lines of one indentation step.
    let indent: String = text
        .lines()
        .nth(1)
        .unwrap()
        .chars()
        .take_while(|c| *c == ' ')
        .collect();
    text.lines()
        .filter_map(|l| l.strip_prefix(&indent))
        .filter(|l| l.starts_with('"'))
        .map(|l| l[1..].split('"').next().unwrap().to_string())
        .collect()
}

/// Runs a hook command as the agents do (`sh -c`), the payload on stdin.
fn run_hook_command(command: &str, payload: &Value) -> Ran {
    let mut cmd = Command::new("sh");
    cmd.args(["-c", command])
        .env_remove("RECALL_DB")
        .env_remove("RECALL_CONFIG");
    Ran::from(pipe(&mut cmd, &payload.to_string()))
}

fn start_payload(session: &str) -> Value {
    json!({
        "session_id": session, "transcript_path": "/tmp/none.jsonl", "cwd": "/work/shop",
        "hook_event_name": "SessionStart", "source": "startup",
    })
}

fn prompt_payload(session: &str) -> Value {
    json!({
        "session_id": session, "transcript_path": "/tmp/none.jsonl", "cwd": "/work/shop",
        "hook_event_name": "UserPromptSubmit",
        // Of the working folder's project, `shop`, which has related items.
        "prompt": "the analytics script is back, remove it",
    })
}

/// The hooks setup wrote answer as `recall --db LIB hook` answers, run from the
/// settings as the agent runs them.
fn written_hooks_answer_like_recall_hook(f: &Fixture, settings: &Value, tag: &str) {
    let command = settings["hooks"]["SessionStart"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["hooks"].as_array().unwrap().iter())
        .filter_map(|h| h["command"].as_str())
        .find(|c| c.contains("recall"))
        .expect("recall's SessionStart hook")
        .to_string();
    for (payload, direct) in [
        (
            start_payload(&format!("{tag}-s1")),
            start_payload(&format!("{tag}-s2")),
        ),
        (
            prompt_payload(&format!("{tag}-p1")),
            prompt_payload(&format!("{tag}-p2")),
        ),
    ] {
        let via_settings = run_hook_command(&command, &payload);
        let expected = f.lib.run_stdin(&["hook"], &direct.to_string());
        assert_eq!(via_settings.code, 0, "{via_settings:?}");
        assert!(!expected.stdout.is_empty(), "{expected:?}");
        assert_eq!(via_settings.stdout, expected.stdout);
    }
}

#[test]
fn claude_code_setup_merges_is_idempotent_and_removes_to_the_original_bytes() {
    let f = Fixture::new();
    let settings = f.put(".claude/settings.json", CLAUDE_SETTINGS);
    let state = f.put(".claude.json", CLAUDE_STATE);

    let out = f.setup(&["claude-code"]).ok();
    assert!(
        out.stdout.contains("settings.json: hooks changed"),
        "{}",
        out.stdout
    );

    // The hooks: every hook of the file kept, recall's group after them in each event.
    let expected = with_recall_hooks(
        serde_json::from_str(CLAUDE_SETTINGS).unwrap(),
        &CLAUDE_EVENTS,
        &f.hook_command(),
    );
    assert_eq!(read_json(&settings), expected);
    let written = std::fs::read_to_string(&settings).unwrap();
    same_key_order(CLAUDE_SETTINGS, &written, "  ");
    // The user MCP server, beside the other tool's.
    let mut expected_state: Value = serde_json::from_str(CLAUDE_STATE).unwrap();
    expected_state["mcpServers"]["recall"] = json!({
        "type": "stdio", "command": recall_bin(), "args": f.mcp_args(),
    });
    assert_eq!(read_json(&state), expected_state);
    same_key_order(
        CLAUDE_STATE,
        &std::fs::read_to_string(&state).unwrap(),
        "  ",
    );
    // Backups hold what the files held.
    assert_eq!(
        std::fs::read_to_string(f.home().join(".claude/settings.json.recall-backup")).unwrap(),
        CLAUDE_SETTINGS
    );
    assert_eq!(
        std::fs::read_to_string(f.home().join(".claude.json.recall-backup")).unwrap(),
        CLAUDE_STATE
    );
    written_hooks_answer_like_recall_hook(&f, &expected, "claude");

    // A second run changes nothing, and says so.
    let before = f.snapshot();
    let again = f.setup(&["claude-code"]).ok();
    assert!(
        again.stdout.contains("nothing to change: already set up"),
        "{}",
        again.stdout
    );
    assert_eq!(f.snapshot(), before);

    // The listing names the events and the library.
    let listed = f.setup(&["--json"]).ok().json();
    let claude = &listed["agents"][0];
    assert_eq!(claude["agent"], "claude-code");
    assert_eq!(claude["installed"], true);
    let user = claude["user"].as_array().unwrap();
    let events: Vec<&str> = user[0]["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    let mut want: Vec<&str> = CLAUDE_EVENTS.iter().map(|(e, _)| *e).collect();
    let mut got = events.clone();
    want.sort();
    got.sort();
    assert_eq!(got, want);
    assert_eq!(user[0]["libraries"], json!([f.lib.db]));
    assert_eq!(user[1]["server"], true);
    assert_eq!(user[1]["libraries"], json!([f.lib.db]));

    // Remove: both files back to their bytes (they are in the form Claude Code writes).
    f.setup(&["claude-code", "--remove"]).ok();
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), CLAUDE_SETTINGS);
    assert_eq!(std::fs::read_to_string(&state).unwrap(), CLAUDE_STATE);
    let out = f.setup(&["claude-code", "--remove"]).ok();
    assert!(out.stdout.contains("nothing to remove"), "{}", out.stdout);
}

#[test]
fn codex_setup_keeps_toml_comments_byte_for_byte_and_removes_to_the_original_bytes() {
    let f = Fixture::new();
    let config = f.put(".codex/config.toml", CODEX_CONFIG);
    let hooks = f.put(".codex/hooks.json", CODEX_HOOKS);

    f.setup(&["codex"]).ok();
    let expected = with_recall_hooks(
        serde_json::from_str(CODEX_HOOKS).unwrap(),
        &CODEX_EVENTS,
        &f.hook_command(),
    );
    assert_eq!(read_json(&hooks), expected);
    // Four spaces, as the file had.
    let written = std::fs::read_to_string(&hooks).unwrap();
    assert!(
        written.contains("\n    \"hooks\": {\n        \"Stop\""),
        "{written}"
    );
    written_hooks_answer_like_recall_hook(&f, &expected, "codex");

    // config.toml: recall's table, and every line of the file still there, in order.
    let toml_text = std::fs::read_to_string(&config).unwrap();
    let parsed: toml::Table = toml_text.parse().unwrap();
    let recall = &parsed["mcp_servers"]["recall"];
    assert_eq!(
        recall["command"].as_str(),
        Some(recall_bin().to_str().unwrap())
    );
    let args: Vec<&str> = recall["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(args, ["--db", f.lib.db.to_str().unwrap(), "mcp"]);
    let original: toml::Table = CODEX_CONFIG.parse().unwrap();
    let mut without = parsed.clone();
    without["mcp_servers"]
        .as_table_mut()
        .unwrap()
        .remove("recall");
    assert_eq!(
        without, original,
        "nothing else of the configuration changed"
    );
    let mut lines = toml_text.lines();
    for line in CODEX_CONFIG.lines() {
        assert!(
            lines.any(|l| l == line),
            "{line:?} is gone or moved:\n{toml_text}"
        );
    }

    let before = f.snapshot();
    let again = f.setup(&["codex"]).ok();
    assert!(
        again.stdout.contains("nothing to change"),
        "{}",
        again.stdout
    );
    assert_eq!(f.snapshot(), before);

    f.setup(&["codex", "--remove"]).ok();
    assert_eq!(std::fs::read_to_string(&config).unwrap(), CODEX_CONFIG);
    assert_eq!(std::fs::read_to_string(&hooks).unwrap(), CODEX_HOOKS);
}

#[test]
fn files_setup_created_are_deleted_by_remove() {
    let f = Fixture::new();
    let empty = f.snapshot();
    f.setup(&["codex"]).ok();
    let hooks = read_json(&f.home().join(".codex/hooks.json"));
    assert_eq!(
        hooks,
        with_recall_hooks(json!({"hooks": {}}), &CODEX_EVENTS, &f.hook_command())
    );
    f.setup(&["codex", "--remove"]).ok();
    // No file is left but the folder (backups name what the file held before remove).
    let left: Vec<PathBuf> = f.snapshot().into_iter().map(|(p, _)| p).collect();
    let names: Vec<String> = left
        .iter()
        .filter(|p| !empty.iter().any(|(q, _)| q == *p))
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        ["config.toml.recall-backup", "hooks.json.recall-backup"]
    );
}

#[test]
fn a_hand_formatted_file_keeps_its_layout() {
    let f = Fixture::new();
    // One-line lists, as people write them: setup adds its entries and leaves the rest of
    // the layout; remove gives the bytes back.
    let hand = "{\n  \"permissions\": { \"allow\": [\"Bash(ls)\", \"Bash(pwd)\"] },\n  \"model\": \"sonnet\"\n}\n";
    let settings = f.put(".claude/settings.json", hand);
    f.setup(&["claude-code"]).ok();
    let set = std::fs::read_to_string(&settings).unwrap();
    assert!(
        set.starts_with("{\n  \"permissions\": { \"allow\": [\"Bash(ls)\", \"Bash(pwd)\"] },\n"),
        "{set}"
    );
    f.setup(&["claude-code", "--remove"]).ok();
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), hand);
}

#[test]
fn dry_run_prints_a_diff_per_file_and_writes_nothing() {
    let f = Fixture::new();
    f.put(".claude/settings.json", CLAUDE_SETTINGS);
    f.put(".codex/config.toml", CODEX_CONFIG);
    let before = f.snapshot();
    for agent in ["claude-code", "codex"] {
        let out = f.setup(&[agent, "--dry-run"]).ok();
        assert_eq!(f.snapshot(), before, "{agent}: nothing written");
        assert!(
            out.stdout.contains("dry run: nothing was written"),
            "{}",
            out.stdout
        );
        let headers: Vec<&str> = out
            .stdout
            .lines()
            .filter(|l| l.starts_with("+++ ") || l.starts_with("--- "))
            .collect();
        assert_eq!(
            headers.len(),
            4,
            "two files, two headers each: {}",
            out.stdout
        );
        assert!(
            out.stdout
                .lines()
                .any(|l| l.starts_with('+') && l.contains(&f.hook_command())),
            "{}",
            out.stdout
        );
    }
    // The diff of a file setup would create starts from /dev/null; the JSON carries it.
    let out = f.setup(&["--json", "codex", "--dry-run"]).ok().json();
    let hooks = &out["files"][0];
    assert_eq!(hooks["status"], "created");
    assert!(hooks["diff"]
        .as_str()
        .unwrap()
        .starts_with("--- /dev/null\n"));
    let config = &out["files"][1];
    assert_eq!(config["status"], "changed");
    assert!(config["diff"]
        .as_str()
        .unwrap()
        .contains("+[mcp_servers.recall]\n"));
    assert_eq!(f.snapshot(), before);
}

#[test]
fn a_file_that_cannot_be_parsed_stops_setup_and_no_file_changes() {
    let f = Fixture::new();
    // The second file of each agent is broken: the first, which parses, is not written.
    f.put(".claude/settings.json", CLAUDE_SETTINGS);
    f.put(
        ".claude.json",
        "{\n  \"numStartups\": 3,\n  \"mcpServers\": {\n}\n",
    );
    f.put(".codex/hooks.json", CODEX_HOOKS);
    f.put(
        ".codex/config.toml",
        "[mcp_servers.docs\ncommand = \"npx\"\n",
    );
    let before = f.snapshot();
    for (agent, file, what) in [
        ("claude-code", ".claude.json", "not valid JSON"),
        ("codex", "config.toml", "not valid TOML"),
    ] {
        for extra in [&[][..], &["--remove"][..]] {
            let mut args = vec![agent];
            args.extend_from_slice(extra);
            let out = f.setup(&args).fails_with(what);
            assert_eq!(out.code, 2);
            assert!(out.stderr.contains(file), "{}", out.stderr);
            assert!(out.stderr.contains("no file was changed"), "{}", out.stderr);
            assert_eq!(f.snapshot(), before, "{agent} {extra:?}");
        }
    }
    // A shape setup cannot write into, and another program's server named recall.
    f.put(".codex/config.toml", "");
    f.put(".codex/hooks.json", "{\"hooks\": {\"Stop\": \"afplay\"}}\n");
    let before = f.snapshot();
    f.setup(&["codex"])
        .fails_with("`hooks.Stop` is a string, not a list");
    assert_eq!(f.snapshot(), before);
    f.put(".codex/hooks.json", CODEX_HOOKS);
    f.put(
        ".codex/config.toml",
        "[mcp_servers.recall]\ncommand = \"node\"\nargs = [\"recall-server.js\"]\n",
    );
    let before = f.snapshot();
    f.setup(&["codex"]).fails_with("runs `node`, not recall");
    f.setup(&["codex", "--remove"]).ok();
    assert_eq!(
        f.snapshot(),
        before,
        "another program's server is not recall's"
    );
}

#[test]
fn an_earlier_recall_hook_is_replaced_so_the_hook_runs_once() {
    let f = Fixture::new();
    // The README's hand-written form, and an older binary's path.
    let hand = json!({"hooks": {
        "SessionStart": [{"hooks": [{"type": "command", "command": "recall hook", "timeout": 10}]}],
        "SessionEnd": [{"hooks": [
            {"type": "command", "command": "echo bye"},
            {"type": "command", "command": "RECALL_DB=/old/memory.db /old/bin/recall hook"}
        ]}],
    }});
    let settings = f.put(
        ".claude/settings.json",
        &serde_json::to_string_pretty(&hand).unwrap(),
    );
    f.setup(&["claude-code"]).ok();
    let got = read_json(&settings);
    let expected = with_recall_hooks(
        json!({"hooks": {
            "SessionEnd": [{"hooks": [{"type": "command", "command": "echo bye"}]}],
        }}),
        &CLAUDE_EVENTS,
        &f.hook_command(),
    );
    assert_eq!(got, expected);
}

#[test]
fn project_scope_writes_the_repositorys_own_files() {
    let f = Fixture::new();
    f.put(".claude/settings.json", CLAUDE_SETTINGS);
    let home_before: Vec<_> = f
        .snapshot()
        .into_iter()
        .filter(|(p, _)| p.starts_with(f.home()))
        .collect();
    f.setup(&["claude-code", "--project"]).ok();
    f.setup(&["codex", "--project"]).ok();
    let home_after: Vec<_> = f
        .snapshot()
        .into_iter()
        .filter(|(p, _)| p.starts_with(f.home()))
        .collect();
    assert_eq!(home_after, home_before, "the user's files are untouched");
    let repo = f.repo();
    assert_eq!(
        read_json(&repo.join(".claude/settings.json")),
        with_recall_hooks(json!({"hooks": {}}), &CLAUDE_EVENTS, &f.hook_command())
    );
    assert_eq!(
        read_json(&repo.join(".mcp.json")),
        json!({"mcpServers": {"recall": {"type": "stdio", "command": recall_bin(), "args": f.mcp_args()}}})
    );
    assert_eq!(
        read_json(&repo.join(".codex/hooks.json")),
        with_recall_hooks(json!({"hooks": {}}), &CODEX_EVENTS, &f.hook_command())
    );
    let config: toml::Table = std::fs::read_to_string(repo.join(".codex/config.toml"))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        config["mcp_servers"]["recall"]["command"].as_str(),
        Some(recall_bin().to_str().unwrap())
    );
    assert!(
        !repo.join("src/.claude").exists(),
        "the repository's root, not the working folder"
    );
    let listed = f.setup(&["--json"]).ok().json();
    assert_eq!(listed["agents"][0]["project"].as_array().unwrap().len(), 2);
    assert_eq!(listed["agents"][1]["project"].as_array().unwrap().len(), 2);
    f.setup(&["claude-code", "--project", "--remove"]).ok();
    f.setup(&["codex", "--project", "--remove"]).ok();
    for file in [
        ".claude/settings.json",
        ".mcp.json",
        ".codex/hooks.json",
        ".codex/config.toml",
    ] {
        assert!(!repo.join(file).exists(), "{file} was only recall's");
    }
}

#[test]
fn setup_needs_a_library_and_lists_without_one() {
    let f = Fixture::new();
    let mut cmd = Command::new(recall_bin());
    cmd.args(["setup", "codex"])
        .env("HOME", f.home())
        .env_remove("RECALL_DB")
        .env_remove("CODEX_HOME");
    Ran::from(cmd.output().unwrap()).fails_with("no library given");
    let mut cmd = Command::new(recall_bin());
    cmd.arg("setup")
        .current_dir(f.repo())
        .env("HOME", f.home())
        .env("PATH", "")
        .env_remove("RECALL_DB")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME");
    let out = Ran::from(cmd.output().unwrap()).ok();
    assert!(
        out.stdout.contains("claude-code: not found"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("codex: not found"), "{}", out.stdout);
}

/// The agents' own folder variables, quoting of paths the shell would split, a settings
/// file that is a symbolic link (a dotfiles repository), a private file's permissions,
/// and an earlier MCP entry of recall's updated in place.
#[test]
fn paths_links_permissions_and_an_earlier_server_entry() {
    use std::os::unix::fs::PermissionsExt;
    let f = Fixture::new();
    let claude_dir = f.dir.path().join("claude config");
    let codex_dir = f.dir.path().join("codex home");
    let dotfiles = f.dir.path().join("dotfiles");
    std::fs::create_dir_all(&claude_dir).unwrap();
    std::fs::create_dir_all(&dotfiles).unwrap();
    std::fs::write(dotfiles.join("settings.json"), CLAUDE_SETTINGS).unwrap();
    std::os::unix::fs::symlink(
        dotfiles.join("settings.json"),
        claude_dir.join("settings.json"),
    )
    .unwrap();
    let state = claude_dir.join(".claude.json");
    std::fs::write(
        &state,
        "{\n  \"mcpServers\": {\n    \"recall\": {\n      \"command\": \"recall\",\n      \"args\": [\n        \"mcp\"\n      ],\n      \"env\": {\n        \"RECALL_CONFIG\": \"/home/me/recall.toml\"\n      }\n    }\n  }\n}\n",
    )
    .unwrap();
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o600)).unwrap();
    // A library whose path the shell would split.
    let lib_dir = f.dir.path().join("my memory's folder");
    std::fs::create_dir_all(&lib_dir).unwrap();
    let db = lib_dir.join("memory.db");
    std::fs::copy(&f.lib.db, &db).unwrap();
    let run = |args: &[&str]| {
        let mut cmd = Command::new(recall_bin());
        cmd.arg("--db")
            .arg(&db)
            .arg("setup")
            .args(args)
            .current_dir(f.repo())
            .env("HOME", f.home())
            .env("CLAUDE_CONFIG_DIR", &claude_dir)
            .env("CODEX_HOME", &codex_dir)
            .env_remove("RECALL_DB");
        Ran::from(cmd.output().unwrap())
    };
    run(&["claude-code"]).ok();
    run(&["codex"]).ok();
    assert!(
        std::fs::symlink_metadata(claude_dir.join("settings.json"))
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link is still a link"
    );
    let settings = read_json(&dotfiles.join("settings.json"));
    let command = settings["hooks"]["SessionStart"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        settings,
        with_recall_hooks(
            serde_json::from_str(CLAUDE_SETTINGS).unwrap(),
            &CLAUDE_EVENTS,
            &command
        )
    );
    // The shell reads the command back into the binary, the library and `hook`.
    let words = Command::new("sh")
        .args([
            "-c",
            &format!("for w in {command}; do printf '%s\\n' \"$w\"; done"),
        ])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(words.stdout).unwrap(),
        format!("{}\n--db\n{}\nhook\n", recall_bin().display(), db.display())
    );
    let started = run_hook_command(&command, &start_payload("quoted"));
    // The same answer but for the usage line, which names each its own library.
    let before_usage = |out: &str| out.split("How to use").next().unwrap_or("").to_string();
    let direct = f
        .lib
        .run_stdin(&["hook"], &start_payload("direct").to_string())
        .stdout;
    assert_eq!(before_usage(&started.stdout), before_usage(&direct));
    assert!(
        started.stdout.contains("my memory's folder/memory.db"),
        "{}",
        started.stdout
    );
    // The earlier entry: recall's own, updated, its env kept; still private.
    assert_eq!(
        read_json(&state),
        json!({"mcpServers": {"recall": {
            "command": recall_bin(), "args": ["--db", db, "mcp"],
            "env": {"RECALL_CONFIG": "/home/me/recall.toml"}, "type": "stdio",
        }}})
    );
    assert_eq!(
        std::fs::metadata(&state).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let backup = claude_dir.join(".claude.json.recall-backup");
    assert_eq!(
        std::fs::metadata(&backup).unwrap().permissions().mode() & 0o777,
        0o600
    );
    // Codex's files in CODEX_HOME, none in ~/.codex.
    assert!(codex_dir.join("hooks.json").is_file());
    assert!(codex_dir.join("config.toml").is_file());
    assert!(!f.home().join(".codex").exists());
    assert!(!f.home().join(".claude").exists());
    // Remove: the linked file back to its bytes, through the link.
    run(&["claude-code", "--remove"]).ok();
    assert_eq!(
        std::fs::read_to_string(dotfiles.join("settings.json")).unwrap(),
        CLAUDE_SETTINGS
    );
}

/// Each event a hooks file wires, with its matcher and timeout, sorted.
fn wiring_of(settings: &Value) -> Vec<(String, Option<String>, String)> {
    let mut out = Vec::new();
    for (event, groups) in settings["hooks"].as_object().expect("hooks") {
        for g in groups.as_array().unwrap() {
            for h in g["hooks"].as_array().unwrap() {
                out.push((
                    event.clone(),
                    g["matcher"].as_str().map(str::to_string),
                    h["timeout"].to_string(),
                ));
            }
        }
    }
    out.sort();
    out
}

/// What `recall setup` writes, the README's hand-written settings and the plugin's hooks
/// wire the same events, with the same matchers and timeout.
#[test]
fn setup_the_readme_and_the_plugin_wire_the_same_events() {
    let f = Fixture::new();
    f.setup(&["claude-code"]).ok();
    // The README shows the hooks of a Codex with SessionEnd.
    crate::setup_codex::put_codex(&f.dir.path().join("bin"), "0.169.0", false);
    f.setup(&["codex"]).ok();
    let claude = wiring_of(&read_json(&f.home().join(".claude/settings.json")));
    let codex = wiring_of(&read_json(&f.home().join(".codex/hooks.json")));
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme
        .split("\n## Plug into an agent\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .unwrap();
    let blocks: Vec<Value> = section
        .split("```json\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .filter(|b| b.contains("\"hooks\""))
        .map(|b| serde_json::from_str(b).unwrap())
        .collect();
    assert_eq!(blocks.len(), 2, "Claude Code's block and Codex's");
    assert_eq!(wiring_of(&blocks[0]), claude, "README, Claude Code");
    assert_eq!(wiring_of(&blocks[1]), codex, "README, Codex");
    assert_eq!(
        wiring_of(&read_json(&root().join("plugin/hooks/hooks.json"))),
        claude,
        "the plugin"
    );
}

#[test]
fn the_listing_finds_agents_by_program_and_says_what_is_wired() {
    let f = Fixture::new();
    // Programs named claude and codex on the PATH, no folder of either agent yet.
    let bin = f.dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for program in ["claude", "codex"] {
        std::fs::write(bin.join(program), "#!/bin/sh\n").unwrap();
    }
    let list = |f: &Fixture| {
        let mut cmd = Command::new(recall_bin());
        cmd.args(["setup", "--json"])
            .current_dir(f.repo().join("src"))
            .env("HOME", f.home())
            .env("PATH", &bin)
            .env_remove("RECALL_DB")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME");
        let out = Ran::from(cmd.output().unwrap()).ok();
        let doc: Value = serde_json::from_str(&out.stdout).unwrap();
        doc["agents"].as_array().unwrap().clone()
    };
    let before = list(&f);
    assert_eq!(before.len(), 2);
    for (agent, program) in before.iter().zip(["claude", "codex"]) {
        assert_eq!(agent["installed"], json!(true), "{agent}");
        assert_eq!(agent["folder"], Value::Null, "{agent}");
        assert_eq!(agent["program"], json!(bin.join(program)), "{agent}");
        assert_eq!(agent["user"], json!([]), "{agent}");
    }

    // Claude Code wired at the user level: its events and the server, with the library.
    f.setup(&["claude-code"]).ok();
    let after = list(&f);
    let wired = after[0]["user"].as_array().unwrap();
    let events: Vec<&Value> = wired.iter().map(|w| &w["events"]).collect();
    let expected_events: Vec<&str> = CLAUDE_EVENTS.iter().map(|(e, _)| *e).collect();
    assert!(events.contains(&&json!(expected_events)), "{}", after[0]);
    assert!(
        wired.iter().any(|w| w["server"] == json!(true)),
        "{}",
        after[0]
    );
    let library = json!([f.lib.db]);
    assert!(
        wired.iter().all(|w| w["libraries"] == library),
        "{}",
        after[0]
    );
    assert_eq!(after[1]["user"], json!([]), "codex untouched: {}", after[1]);
}

#[test]
fn setup_warns_of_a_missing_library_and_of_codex_hooks_turned_off() {
    let f = Fixture::new();
    f.put(
        ".codex/config.toml",
        "# mine\n[features]\ncodex_hooks = false\n",
    );
    let missing = f.dir.path().join("later.db");
    let mut cmd = Command::new(recall_bin());
    cmd.arg("--db")
        .arg(&missing)
        .args(["setup", "codex"])
        .current_dir(f.repo())
        .env("HOME", f.home())
        .env_remove("CODEX_HOME")
        .env_remove("RECALL_DB")
        .env_remove("RECALL_CONFIG");
    let out = Ran::from(cmd.output().unwrap()).ok();
    let warnings: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("recall: warning: "))
        .collect();
    assert_eq!(warnings.len(), 2, "{}", out.stderr);
    assert!(
        warnings[0].contains(&format!(
            "the library {} does not exist yet",
            missing.display()
        )) && warnings[0].contains("init"),
        "{}",
        warnings[0]
    );
    assert!(
        warnings[1].contains("turns Codex's hooks off") && warnings[1].contains("config.toml"),
        "{}",
        warnings[1]
    );
    // Setup wrote the hooks anyway, and created no library.
    assert!(f.home().join(".codex/hooks.json").is_file());
    assert!(!missing.exists());
}
