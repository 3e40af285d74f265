//! The Claude Code plugin (`plugin/`, listed by `.claude-plugin/marketplace.json`): its
//! files against the plugin and marketplace references, and its launcher
//! (`plugin/scripts/recall`) run as Claude Code runs it, with the environment Claude Code
//! gives a plugin's hooks and servers (`CLAUDE_PLUGIN_ROOT`, `CLAUDE_PLUGIN_DATA`,
//! `CLAUDE_PLUGIN_OPTION_LIBRARY`) and a `PATH` without recall: the plugin alone finds
//! the program and the library. Claude Code 2.1.328 itself loading it is told in
//! docs/cli.md#the-claude-code-plugin.
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use crate::common::cli::{recall_bin, Ran, TempLib};
use crate::common::{pipe, root};

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn plugin_root() -> PathBuf {
    root().join("plugin")
}

/// The events Claude Code's hooks documentation names.
const CLAUDE_CODE_HOOK_EVENTS: [&str; 10] = [
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Notification",
    "UserPromptSubmit",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "SessionStart",
    "SessionEnd",
];

/// The hook and server command: the launcher, by the plugin's folder.
const LAUNCHER: &str = "${CLAUDE_PLUGIN_ROOT}/scripts/recall";

/// Claude Code's plugin names: kebab-case, a letter first.
fn kebab_case(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.split('-').all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// The manifest, the marketplace, the hooks, the server, the skill: the fields the
/// references require, of their types; the hooks those `recall setup claude-code`
/// writes, each run by the launcher; the `userConfig` option `library`, whose keys
/// Claude Code checks strictly.
#[test]
fn the_plugin_files_follow_the_documented_schema() {
    let plugin = plugin_root();
    let manifest = read_json(&plugin.join(".claude-plugin/plugin.json"));
    let name = manifest["name"].as_str().expect("plugin.json: name");
    assert!(kebab_case(name), "{name}");
    for key in ["version", "description", "license"] {
        assert!(manifest[key].is_string(), "plugin.json: {key}");
    }
    assert!(manifest["author"]["name"].is_string());
    let cargo: toml::Table = std::fs::read_to_string(root().join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(
        cargo["workspace"]["package"]["version"].as_str(),
        manifest["version"].as_str(),
        "the plugin's version is recall's"
    );
    let options = manifest["userConfig"].as_object().expect("userConfig");
    assert_eq!(options.keys().collect::<Vec<_>>(), ["library"]);
    let library = options["library"].as_object().unwrap();
    for key in library.keys() {
        assert!(
            [
                "type",
                "title",
                "description",
                "required",
                "default",
                "sensitive"
            ]
            .contains(&key.as_str()),
            "userConfig.library.{key}: Claude Code refuses unknown keys"
        );
    }
    assert_eq!(library["type"], "string");
    assert_eq!(library["required"], false, "the data folder is its default");
    assert!(library["description"]
        .as_str()
        .unwrap()
        .contains("data folder"));

    let market = read_json(&root().join(".claude-plugin/marketplace.json"));
    assert!(kebab_case(market["name"].as_str().unwrap()));
    assert!(market["owner"]["name"].is_string());
    let entries = market["plugins"].as_array().unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["name"], json!(name));
    assert_eq!(entries[0]["source"], "./plugin");

    let hooks = read_json(&plugin.join("hooks/hooks.json"));
    let mut wired: Vec<(String, Option<String>)> = Vec::new();
    for (event, groups) in hooks["hooks"].as_object().unwrap() {
        assert!(CLAUDE_CODE_HOOK_EVENTS.contains(&event.as_str()), "{event}");
        for group in groups.as_array().unwrap() {
            for handler in group["hooks"].as_array().unwrap() {
                assert_eq!(handler["type"], "command");
                assert_eq!(handler["command"], json!(format!("\"{LAUNCHER}\" hook")));
                assert_eq!(handler["timeout"], recall_cli::setup::TIMEOUT_SECONDS);
            }
            wired.push((event.clone(), group["matcher"].as_str().map(str::to_string)));
        }
    }
    let mut expected: Vec<(String, Option<String>)> = recall_cli::agents::claude::setup::EVENTS
        .iter()
        .map(|e| (e.name.to_string(), e.matcher.map(str::to_string)))
        .collect();
    wired.sort();
    expected.sort();
    assert_eq!(wired, expected, "the events recall setup wires");

    let mcp = read_json(&plugin.join(".mcp.json"));
    assert_eq!(
        mcp,
        json!({"mcpServers": {"recall": {"command": LAUNCHER, "args": ["mcp"]}}})
    );

    let skill = std::fs::read_to_string(plugin.join("skills/recall/SKILL.md")).unwrap();
    let front = skill
        .strip_prefix("---\n")
        .and_then(|s| s.split_once("\n---\n"))
        .expect("SKILL.md opens with its front matter")
        .0;
    let field = |key: &str| {
        front
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{key}: ")))
            .unwrap_or_else(|| panic!("SKILL.md: {key}"))
    };
    assert_eq!(field("name"), "recall");
    assert!(field("description").len() <= 1024);

    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(plugin.join("scripts/recall"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o111, 0o111, "the launcher is executable");
}

/// A copy of the plugin in `dir` (a folder name with a space), with recall bundled in
/// `libexec/` as `make plugin` does, or not.
fn installed(dir: &Path, bundled: bool) -> PathBuf {
    let copy = dir.join("plugin copy");
    let status = Command::new("cp")
        .arg("-R")
        .arg(plugin_root())
        .arg(&copy)
        .status()
        .unwrap();
    assert!(status.success());
    if bundled {
        std::fs::create_dir_all(copy.join("libexec")).unwrap();
        std::os::unix::fs::symlink(recall_bin(), copy.join("libexec/recall")).unwrap();
    }
    copy
}

/// The launcher with `args`, as Claude Code runs a plugin's command: through a shell,
/// `${CLAUDE_PLUGIN_ROOT}` given, the other variables as `env` says, a `PATH` of `path`.
fn launch(plugin: &Path, args: &[&str], env: &[(&str, &Path)], path: &str, input: &str) -> Ran {
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c")
        .arg(format!(
            "\"$CLAUDE_PLUGIN_ROOT/scripts/recall\" {}",
            args.join(" ")
        ))
        .env_clear()
        .env("PATH", path)
        .env("CLAUDE_PLUGIN_ROOT", plugin);
    for (k, v) in env {
        cmd.env(k, v);
    }
    Ran::from(pipe(&mut cmd, input))
}

fn start(cwd: &Path) -> String {
    json!({"session_id": "p1", "transcript_path": "/tmp/none.jsonl", "cwd": cwd,
        "hook_event_name": "SessionStart", "source": "startup"})
    .to_string()
}

/// Class: where the plugin finds its library. Its data folder by default (made with
/// its folders on first use, and used again after), the setting `library` (a `~/` path
/// is the home's), else `RECALL_DB`; each answers the session start as `recall --db`
/// with that library does.
#[test]
fn the_plugin_finds_its_library() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = installed(dir.path(), true);
    let home = dir.path().join("home");
    let data = home.join(".claude/plugins/data/recall-inline");
    let shop = dir.path().join("shop");
    std::fs::create_dir_all(shop.join(".git")).unwrap();
    let chosen = home.join("my notes/memory.db");
    let exported = dir.path().join("exported.db");
    let tilde = PathBuf::from("~/my notes/memory.db");
    // (environment, the library it names)
    let cases: Vec<(Vec<(&str, &Path)>, PathBuf)> = vec![
        (
            vec![("HOME", &home), ("CLAUDE_PLUGIN_DATA", &data)],
            data.join("memory.db"),
        ),
        (
            vec![("HOME", &home), ("CLAUDE_PLUGIN_DATA", &data)],
            data.join("memory.db"),
        ),
        (
            vec![
                ("HOME", &home),
                ("CLAUDE_PLUGIN_DATA", &data),
                ("CLAUDE_PLUGIN_OPTION_LIBRARY", &tilde),
            ],
            chosen.clone(),
        ),
        (
            vec![
                ("HOME", &home),
                ("CLAUDE_PLUGIN_DATA", &data),
                ("RECALL_DB", &exported),
            ],
            exported.clone(),
        ),
        (
            vec![
                ("HOME", &home),
                ("CLAUDE_PLUGIN_DATA", &data),
                ("RECALL_DB", &exported),
                ("CLAUDE_PLUGIN_OPTION_LIBRARY", &chosen),
            ],
            chosen.clone(),
        ),
    ];
    for (i, (env, library)) in cases.into_iter().enumerate() {
        let out = launch(&plugin, &["hook"], &env, "/usr/bin:/bin", &start(&shop));
        assert_eq!(out.code, 0, "case {i}: {out:?}");
        assert!(out.stderr.is_empty(), "case {i}: {}", out.stderr);
        assert!(library.is_file(), "case {i}: {} made", library.display());
        let direct = TempLib {
            dir: tempfile::tempdir().unwrap(),
            db: library.clone(),
        };
        let expected = direct.run_stdin(&["hook"], &start(&shop)).ok();
        assert_eq!(out.stdout, expected.stdout, "case {i}");
        assert!(
            out.stdout
                .contains(&format!("--db {}", shlex_quote(&library))),
            "case {i}: {}",
            out.stdout
        );
    }
}

/// Single-quotes a path with a space, as the hook's command line does.
fn shlex_quote(path: &Path) -> String {
    let text = path.to_str().unwrap();
    match text.contains(' ') {
        true => format!("'{text}'"),
        false => text.to_string(),
    }
}

/// Class: where the plugin finds the recall program: bundled in `libexec/`, else on
/// the `PATH`, else cargo's in the home; none at all is one line, and the hook still
/// exits 0 while the server fails.
#[test]
fn the_plugin_finds_the_program_or_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let shop = dir.path().join("shop");
    std::fs::create_dir_all(&shop).unwrap();
    let bare = installed(dir.path(), false);
    // On the PATH.
    let bin = recall_bin().parent().unwrap().to_str().unwrap().to_string();
    let out = launch(
        &bare,
        &["hook"],
        &[("CLAUDE_PLUGIN_DATA", &data)],
        &format!("{bin}:/usr/bin:/bin"),
        &start(&shop),
    );
    assert!(out.ok().stdout.contains("How to use the recall memory"));
    // Cargo's, in the home.
    let home = dir.path().join("home");
    std::fs::create_dir_all(home.join(".cargo/bin")).unwrap();
    std::os::unix::fs::symlink(recall_bin(), home.join(".cargo/bin/recall")).unwrap();
    let out = launch(
        &bare,
        &["hook"],
        &[("CLAUDE_PLUGIN_DATA", &data), ("HOME", &home)],
        "/usr/bin:/bin",
        &start(&shop),
    );
    assert!(out.ok().stdout.contains("How to use the recall memory"));
    // None: the hook exits 0 with one line, the server 1; no library is made.
    let nowhere = dir.path().join("nowhere");
    let empty_data = dir.path().join("empty-data");
    for (args, code) in [(&["hook"][..], 0), (&["mcp"][..], 1)] {
        let out = launch(
            &bare,
            args,
            &[("CLAUDE_PLUGIN_DATA", &empty_data), ("HOME", &nowhere)],
            "/usr/bin:/bin",
            &start(&shop),
        );
        assert_eq!(out.code, code, "{args:?}: {out:?}");
        assert_eq!(out.stdout, "");
        assert_eq!(out.stderr.lines().count(), 1, "{out:?}");
        assert!(
            out.stderr
                .starts_with("recall plugin: no recall program: run `make plugin`"),
            "{out:?}"
        );
    }
    assert!(!empty_data.exists());
    // A program but no library at all (no data folder, setting or RECALL_DB).
    std::fs::create_dir_all(dir.path().join("b")).unwrap();
    let bundled = installed(&dir.path().join("b"), true);
    let out = launch(&bundled, &["hook"], &[], "/usr/bin:/bin", &start(&shop));
    assert_eq!((out.code, out.stdout.as_str()), (0, ""), "{out:?}");
    assert!(
        out.stderr.starts_with("recall plugin: no library: "),
        "{out:?}"
    );
}

/// The plugin's server, started as Claude Code starts it, lists recall's tools and
/// searches the plugin's library.
#[test]
fn the_plugin_s_server_searches_its_library() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = installed(dir.path(), true);
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let lib = TempLib {
        dir: tempfile::tempdir().unwrap(),
        db: data.join("memory.db"),
    };
    lib.run(&["init"]).ok();
    lib.run(&[
        "import",
        root().join("examples/sample.jsonl").to_str().unwrap(),
    ])
    .ok();
    let mut cmd = Command::new(plugin.join("scripts/recall"));
    cmd.arg("mcp")
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("CLAUDE_PLUGIN_ROOT", &plugin)
        .env("CLAUDE_PLUGIN_DATA", &data);
    let mut s = crate::common::mcp::Server::start_with(&mut cmd);
    s.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let tools = s.answer(&json!(1));
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["search", "later", "related", "timeline", "get"]);
    let found = s
        .tool("search", json!({"query": "database is locked"}))
        .unwrap();
    let expected = crate::common::cli::ids(&lib.json(&["search", "database is locked"]));
    assert_eq!(crate::common::cli::ids(&found), expected);
    assert!(!expected.is_empty());
}
