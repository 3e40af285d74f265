//! Still true? An item whose files changed after it names them wherever it is shown, as
//! seen from the working folder: in a git repository the tests make (commits with set
//! dates, uncommitted edits with set modification times, a deletion), in a folder
//! without git (modification times), and from a folder outside the checkout (nothing can
//! be checked: nothing is marked). Each surface: `search` (text and JSON), `search
//! --file`, `search --fresh`, `get` of one and of several ids, the MCP tools, the
//! session hook's start, first prompt and file events. git is run twice per command,
//! whatever the number of items and files.
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use crate::common::cli::{Ran, TempLib};
use crate::common::mcp::Server;
use crate::common::pipe;

/// The items' date.
const ITEM_DATE: &str = "2026-02-01T00:00:00Z";

fn git(top: &Path, at: &str, args: &[&str]) {
    let out = Command::new("git")
        .arg("-C")
        .arg(top)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .env("GIT_AUTHOR_DATE", at)
        .env("GIT_COMMITTER_DATE", at)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Sets a file's modification time (`touch -d`).
fn touch(path: &Path, at: &str) {
    let ok = Command::new("touch")
        .arg("-d")
        .arg(at)
        .arg(path)
        .status()
        .unwrap()
        .success();
    assert!(ok);
}

/// An item of `project` at `date` whose atoms are `atoms`, titled `zqstale NAME`, its
/// summary two words of its own.
fn item(name: &str, project: &str, date: &str, atoms: &str) -> String {
    json!({"source": "agent-claude", "project": project,
        "title": format!("zqstale {name}"), "summary": format!("{0}alpha {0}beta", word(name)),
        "atoms": atoms, "occurred_at": date})
    .to_string()
}

/// A word of an item's own, from its name: `zq` and its letters.
fn word(name: &str) -> String {
    let letters: String = name.chars().filter(char::is_ascii_alphabetic).collect();
    format!("zq{letters}")
}

/// A repository `shop` whose history and working tree make each item's expectation, and
/// the library of those items; the expectation of each, by title: its files changed
/// since, in the order of its atoms.
pub fn repository() -> (TempLib, PathBuf, Vec<(&'static str, Vec<&'static str>)>) {
    let lib = TempLib::init(None);
    let top = lib.path("shop");
    std::fs::create_dir_all(&top).unwrap();
    git(&top, "2026-01-01T00:00:00Z", &["init", "-q"]);
    for f in ["a", "b", "c", "d", "e", "gone", "ünï"] {
        write(&top.join(format!("src/{f}.rs")), f);
    }
    git(&top, "2026-01-01T00:00:00Z", &["add", "-A"]);
    git(&top, "2026-01-01T00:00:00Z", &["commit", "-qm", "one"]);
    // Before the items: a commit touching c.rs.
    write(&top.join("src/c.rs"), "c2");
    git(&top, "2026-01-15T00:00:00Z", &["commit", "-qam", "before"]);
    // After them: a commit touching a.rs, e.rs and the file with a non-ASCII name.
    write(&top.join("src/a.rs"), "a2");
    write(&top.join("src/e.rs"), "e2");
    write(&top.join("src/ünï.rs"), "u2");
    git(&top, "2026-03-01T00:00:00Z", &["commit", "-qam", "after"]);
    // Uncommitted: b.rs edited now; d.rs edited, its time set before the items; gone.rs
    // deleted; new.rs never committed, written now.
    write(&top.join("src/b.rs"), "b2");
    write(&top.join("src/d.rs"), "d2");
    touch(&top.join("src/d.rs"), "2026-01-20T00:00:00Z");
    std::fs::remove_file(top.join("src/gone.rs")).unwrap();
    write(&top.join("src/new.rs"), "n");
    let abs_e = top.join("src/e.rs").display().to_string();
    let cases: Vec<(&str, &str, &str, String, Vec<&str>)> = vec![
        (
            "committed",
            "shop",
            ITEM_DATE,
            "src/a.rs".into(),
            vec!["src/a.rs"],
        ),
        (
            "uncommitted",
            "shop",
            ITEM_DATE,
            "src/b.rs".into(),
            vec!["src/b.rs"],
        ),
        (
            "earlier commit",
            "shop",
            ITEM_DATE,
            "src/c.rs".into(),
            vec![],
        ),
        ("earlier edit", "shop", ITEM_DATE, "src/d.rs".into(), vec![]),
        ("absolute", "other", ITEM_DATE, abs_e, vec!["src/e.rs"]),
        (
            "another project",
            "other",
            ITEM_DATE,
            "src/a.rs".into(),
            vec![],
        ),
        (
            "deleted",
            "shop",
            ITEM_DATE,
            "src/gone.rs".into(),
            vec!["src/gone.rs"],
        ),
        (
            "untracked",
            "shop",
            ITEM_DATE,
            "src/new.rs".into(),
            vec!["src/new.rs"],
        ),
        (
            "later item",
            "shop",
            "2026-04-01T00:00:00Z",
            "src/a.rs".into(),
            vec![],
        ),
        (
            "several",
            "shop",
            ITEM_DATE,
            "cargo test\nsrc/c.rs\nsrc/b.rs\nsrc/a.rs\nerror: x".into(),
            vec!["src/b.rs", "src/a.rs"],
        ),
        (
            "named",
            "shop",
            ITEM_DATE,
            "src/ünï.rs".into(),
            vec!["src/ünï.rs"],
        ),
        ("no files", "shop", ITEM_DATE, "cargo build".into(), vec![]),
    ];
    let lines: Vec<String> = cases
        .iter()
        .map(|(name, project, date, atoms, _)| item(name, project, date, atoms))
        .collect();
    lib.import(&lines.join("\n")).ok();
    let expected = cases
        .into_iter()
        .map(|(name, .., changed)| (name, changed))
        .collect();
    (lib, top, expected)
}

/// `recall ARGS` run in `dir`.
fn run_in(lib: &TempLib, dir: &Path, args: &[&str]) -> Ran {
    Ran::from(lib.command().current_dir(dir).args(args).output().unwrap())
}

/// Each result's title (without the common word) and its `changed_since`.
pub fn marks(results: &Value) -> Vec<(String, Vec<String>)> {
    results
        .as_array()
        .unwrap_or_else(|| panic!("not a list: {results}"))
        .iter()
        .map(|r| {
            let title = r["title"].as_str().unwrap().trim_start_matches("zqstale ");
            let changed = match r.get("changed_since") {
                None => Vec::new(),
                Some(list) => {
                    let list = list.as_array().expect("an array");
                    assert!(!list.is_empty(), "an empty changed_since is left out: {r}");
                    list.iter()
                        .map(|f| f.as_str().unwrap().to_string())
                        .collect()
                }
            };
            (title.to_string(), changed)
        })
        .collect()
}

pub fn expected_of(
    expected: &[(&str, Vec<&str>)],
    titles: &[(String, Vec<String>)],
) -> Vec<(String, Vec<String>)> {
    titles
        .iter()
        .map(|(t, _)| {
            let (_, changed) = expected
                .iter()
                .find(|(name, _)| name == t)
                .unwrap_or_else(|| panic!("unknown {t}"));
            (t.clone(), changed.iter().map(|s| s.to_string()).collect())
        })
        .collect()
}

/// The text mark of a list of files.
fn mark_text(files: &[String]) -> String {
    match files.len() {
        0 => String::new(),
        _ => format!(" (changed since: {})", files.join(", ")),
    }
}

/// Class: search, as text and JSON, from the checkout's top and from a folder inside
/// it; from a folder outside it, nothing is marked.
#[test]
fn search_names_the_files_changed_since_each_item() {
    let (lib, top, expected) = repository();
    for dir in [top.clone(), top.join("src")] {
        let doc = run_in(
            &lib,
            &dir,
            &["--json", "search", "zqstale", "--limit", "50"],
        )
        .ok()
        .json();
        let got = marks(&doc["results"]);
        assert_eq!(got.len(), expected.len(), "{doc}");
        assert_eq!(got, expected_of(&expected, &got), "from {}", dir.display());
        let text = run_in(&lib, &dir, &["search", "zqstale", "--limit", "50"])
            .ok()
            .stdout;
        for (title, changed) in &got {
            let line = text
                .lines()
                .find(|l| l.contains(&format!("zqstale {title} (")))
                .unwrap_or_else(|| panic!("{title}: {text}"));
            assert!(
                line.ends_with(&format!("){}", mark_text(changed))),
                "{line}"
            );
        }
    }
    let outside = lib.path("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    let doc = run_in(
        &lib,
        &outside,
        &["--json", "search", "zqstale", "--limit", "50"],
    )
    .ok()
    .json();
    assert!(
        marks(&doc["results"]).iter().all(|(_, c)| c.is_empty()),
        "{doc}"
    );
}

/// Class: `--fresh` leaves the changed items out, still filling the limit where fresh
/// ones exist; with `--file`, the same.
#[test]
fn fresh_leaves_out_the_items_whose_files_changed() {
    let (lib, top, expected) = repository();
    let fresh: Vec<String> = expected
        .iter()
        .filter(|(_, c)| c.is_empty())
        .map(|(n, _)| n.to_string())
        .collect();
    let doc = run_in(
        &lib,
        &top,
        &["--json", "search", "zqstale", "--fresh", "--limit", "50"],
    )
    .ok()
    .json();
    let mut got: Vec<String> = marks(&doc["results"]).into_iter().map(|(t, _)| t).collect();
    got.sort();
    let mut want = fresh.clone();
    want.sort();
    assert_eq!(got, want);
    assert_eq!(doc["settings"]["fresh"], true);
    // A limit below the results: filled with fresh items, the changed ones skipped.
    let doc = run_in(
        &lib,
        &top,
        &["--json", "search", "zqstale", "--fresh", "--limit", "3"],
    )
    .ok()
    .json();
    let got = marks(&doc["results"]);
    assert_eq!(got.len(), 3, "{doc}");
    assert!(got.iter().all(|(_, c)| c.is_empty()), "{doc}");
    assert_eq!(doc["settings"]["limit"], 3);
    // `--file`: the items that edited src/a.rs, those still true.
    let doc = run_in(&lib, &top, &["--json", "search", "--file", "src/a.rs"])
        .ok()
        .json();
    let all = marks(&doc["results"]);
    assert_eq!(all, expected_of(&expected, &all));
    assert!(all.iter().any(|(_, c)| !c.is_empty()), "{all:?}");
    let doc = run_in(
        &lib,
        &top,
        &["--json", "search", "--file", "src/a.rs", "--fresh"],
    )
    .ok()
    .json();
    let kept = marks(&doc["results"]);
    let want: Vec<(String, Vec<String>)> = all.into_iter().filter(|(_, c)| c.is_empty()).collect();
    assert_eq!(kept, want);
    // Outside the checkout nothing is known to have changed: nothing is left out.
    let outside = lib.path("elsewhere");
    std::fs::create_dir_all(&outside).unwrap();
    let doc = run_in(
        &lib,
        &outside,
        &["--json", "search", "zqstale", "--fresh", "--limit", "50"],
    )
    .ok()
    .json();
    assert_eq!(doc["results"].as_array().unwrap().len(), expected.len());
}

/// Class: get, of one id (text and JSON) and of several.
#[test]
fn get_names_the_files_changed_since() {
    let (lib, top, expected) = repository();
    let ids: Vec<String> = (1..=expected.len()).map(|i| i.to_string()).collect();
    for (i, (name, changed)) in expected.iter().enumerate() {
        let id = (i + 1).to_string();
        let doc = run_in(&lib, &top, &["--json", "get", &id]).ok().json();
        assert_eq!(marks(&json!([doc["item"]]))[0].0, *name);
        let want: Vec<String> = changed.iter().map(|s| s.to_string()).collect();
        assert_eq!(marks(&json!([doc["item"]]))[0].1, want, "{name}");
        let text = run_in(&lib, &top, &["get", &id]).ok().stdout;
        let first = text.lines().next().unwrap();
        assert!(
            first.ends_with(&format!("){}", mark_text(&want))),
            "{first}"
        );
    }
    let mut args = vec!["--json", "get"];
    args.extend(ids.iter().map(String::as_str));
    let doc = run_in(&lib, &top, &args).ok().json();
    let got = marks(&doc["items"]);
    assert_eq!(got, expected_of(&expected, &got));
}

/// Class: the MCP tools, the server started in the checkout: search (and its `fresh`),
/// get, timeline, search by file.
#[test]
fn the_mcp_tools_name_the_files_changed_since() {
    let (lib, top, expected) = repository();
    let mut server = Server::start_with(lib.command().current_dir(&top).arg("mcp"));
    let search = server
        .tool("search", json!({"query": "zqstale", "limit": 50}))
        .unwrap();
    let got = marks(&search["results"]);
    assert_eq!(got.len(), expected.len());
    assert_eq!(got, expected_of(&expected, &got));
    let timeline = server
        .tool("timeline", json!({"project": "shop", "limit": 50}))
        .unwrap();
    let got = marks(&timeline["results"]);
    assert_eq!(got, expected_of(&expected, &got));
    let fresh = server
        .tool(
            "search",
            json!({"query": "zqstale", "limit": 4, "fresh": true}),
        )
        .unwrap();
    let got = marks(&fresh["results"]);
    assert_eq!(got.len(), 4, "{fresh}");
    assert!(got.iter().all(|(_, c)| c.is_empty()), "{fresh}");
    let get = server.tool("get", json!({"id": 1})).unwrap();
    assert_eq!(get["item"]["changed_since"], json!(["src/a.rs"]));
    let file = server.tool("search", json!({"file": "src/b.rs"})).unwrap();
    let got = marks(&file["results"]);
    assert!(!got.is_empty());
    assert_eq!(got, expected_of(&expected, &got));
    server.finish();
}

/// `recall hook` with the payload.
fn hook(lib: &TempLib, path: Option<&str>, payload: &Value) -> String {
    let mut cmd = lib.command();
    if let Some(path) = path {
        cmd.env("PATH", path);
    }
    let out = Ran::from(pipe(cmd.arg("hook"), &payload.to_string()));
    assert_eq!(out.code, 0, "{out:?}");
    out.stdout
}

fn context(stdout: &str) -> String {
    let doc: Value = serde_json::from_str(stdout.trim()).expect("JSON");
    doc["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The line of item `title` in a block, and the mark it must end its item part with.
fn line_of<'a>(text: &'a str, title: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with("- [") && l.contains(&format!("zqstale {title}")))
        .unwrap_or_else(|| panic!("no line of {title}: {text}"))
}

/// Class: the session hook, from the payload's `cwd`: the start's lines, the first
/// prompt's, and a file's memory, each item's line with its mark.
#[test]
fn the_hook_marks_each_item_line() {
    let (lib, top, expected) = repository();
    let config = lib.path("config.toml");
    std::fs::write(&config, "[hook]\nstart_items = 20\nstart_budget = 6000\n").unwrap();
    let start = json!({"session_id": "s1", "transcript_path": "/tmp/none.jsonl", "cwd": top,
        "hook_event_name": "SessionStart", "source": "startup"});
    let out = Ran::from(pipe(
        lib.command().env("RECALL_CONFIG", &config).arg("hook"),
        &start.to_string(),
    ));
    let said = context(&out.stdout);
    let shop: Vec<&(&str, Vec<&str>)> = expected
        .iter()
        .filter(|(n, _)| !matches!(*n, "absolute" | "another project"))
        .collect();
    for (name, changed) in &shop {
        let changed: Vec<String> = changed.iter().map(|s| s.to_string()).collect();
        let line = line_of(&said, name);
        assert!(
            line.ends_with(&format!("zqstale {name}{}", mark_text(&changed))),
            "{line}"
        );
    }
    let prompt = json!({"session_id": "s2", "transcript_path": "/tmp/none.jsonl", "cwd": top,
        "hook_event_name": "UserPromptSubmit", "prompt": "zqcommittedalpha zqcommittedbeta and zquncommittedalpha zquncommittedbeta"});
    let said = hook(&lib, None, &prompt);
    assert!(said.contains("<recall-memory"), "{said}");
    for (name, changed) in [("committed", "src/a.rs"), ("uncommitted", "src/b.rs")] {
        let line = line_of(&said, name);
        assert!(
            line.ends_with(&format!("(changed since: {changed})")),
            "{line}"
        );
    }
    let read = json!({"session_id": "s3", "transcript_path": "/tmp/none.jsonl", "cwd": top,
        "hook_event_name": "PostToolUse", "tool_name": "Read",
        "tool_input": {"file_path": top.join("src/a.rs")}, "tool_response": {}});
    let said = context(&hook(&lib, None, &read));
    for (name, mark) in [
        ("committed", " (changed since: src/a.rs)"),
        ("several", " (changed since: src/b.rs, src/a.rs)"),
        ("later item", ""),
    ] {
        let line = line_of(&said, name);
        assert!(
            line.contains(&format!("zqstale {name}{mark} — edited src/a.rs")),
            "{line}"
        );
    }
}

/// A `git` of the test's own in folder `name`, a shell script made by `body` from the
/// real git's path; the PATH with it first.
fn fake_git(lib: &TempLib, name: &str, body: impl Fn(&str) -> String) -> String {
    let real = String::from_utf8(
        Command::new("sh")
            .args(["-c", "command -v git"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap()
    .trim()
    .to_string();
    let bin = lib.path(name);
    std::fs::create_dir_all(&bin).unwrap();
    let script = bin.join("git");
    std::fs::write(&script, format!("#!/bin/sh\n{}", body(&real))).unwrap();
    let _ = Command::new("chmod").arg("+x").arg(&script).status();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// A fake `git` first on the PATH that logs each run, then runs the real one; and a PATH
/// without git at all.
fn paths(lib: &TempLib) -> (String, PathBuf, String) {
    let log = lib.path("git.log");
    let with_fake = fake_git(lib, "fakebin", |real| {
        format!("echo \"$*\" >> '{}'\nexec '{real}' \"$@\"\n", log.display())
    });
    // No git: only the folders without one.
    let empty = lib.path("nogit");
    std::fs::create_dir_all(&empty).unwrap();
    (with_fake, log, empty.display().to_string())
}

/// Class: git is asked once per event for all the paths: one `git status` and one `git
/// log` for a search of twelve items and a start of ten, whatever their files; none for
/// a search whose items have no file here. Without git on the PATH, the check falls back
/// to modification times.
#[test]
fn git_runs_twice_per_event_and_its_absence_falls_back_to_times() {
    let (lib, top, _) = repository();
    let (with_fake, log, no_git) = paths(&lib);
    let runs = |args: &[&str]| {
        let _ = std::fs::remove_file(&log);
        let out = Ran::from(
            lib.command()
                .current_dir(&top)
                .env("PATH", &with_fake)
                .args(args)
                .output()
                .unwrap(),
        );
        assert_eq!(out.code, 0, "{out:?}");
        let lines = std::fs::read_to_string(&log).unwrap_or_default();
        let mut verbs: Vec<String> = lines
            .lines()
            .map(|l| {
                l.split_whitespace()
                    .find(|w| matches!(*w, "status" | "log"))
                    .unwrap_or(l)
                    .to_string()
            })
            .collect();
        verbs.sort();
        verbs
    };
    assert_eq!(
        runs(&["search", "zqstale", "--limit", "50"]),
        ["log", "status"]
    );
    assert_eq!(runs(&["get", "1", "2", "3", "4", "5"]), ["log", "status"]);
    // Items with no file that can be checked here: no git at all.
    assert_eq!(runs(&["get", "6", "12"]), Vec::<String>::new());
    let start = json!({"session_id": "s1", "transcript_path": "/tmp/none.jsonl", "cwd": top,
        "hook_event_name": "SessionStart", "source": "startup"});
    let _ = std::fs::remove_file(&log);
    hook(&lib, Some(&with_fake), &start);
    let lines = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(lines.lines().count(), 2, "{lines}");

    // Without git, in the same checkout: modification times. a.rs, b.rs and e.rs set
    // after the items, c.rs before; d.rs's before; gone.rs missing (unknown).
    for (f, at) in [
        ("a", "2026-03-01T00:00:00Z"),
        ("b", "2026-03-01T00:00:00Z"),
        ("c", "2026-01-10T00:00:00Z"),
        ("e", "2026-01-10T00:00:00Z"),
        ("new", "2026-01-10T00:00:00Z"),
        ("ünï", "2026-01-10T00:00:00Z"),
    ] {
        touch(&top.join(format!("src/{f}.rs")), at);
    }
    let out = Ran::from(
        lib.command()
            .current_dir(&top)
            .env("PATH", &no_git)
            .args(["--json", "search", "zqstale", "--limit", "50"])
            .output()
            .unwrap(),
    );
    let got = marks(&out.json()["results"]);
    let want: Vec<(&str, Vec<&str>)> = vec![
        ("committed", vec!["src/a.rs"]),
        ("uncommitted", vec!["src/b.rs"]),
        ("several", vec!["src/b.rs", "src/a.rs"]),
    ];
    for (title, changed) in &got {
        let expect: Vec<String> = want
            .iter()
            .find(|(n, _)| n == title)
            .map(|(_, c)| c.iter().map(|s| s.to_string()).collect())
            .unwrap_or_default();
        assert_eq!(*changed, expect, "{title}");
    }
}

/// Class: a folder without git: an item's files are read against the folder (relative
/// ones for its own project, absolute ones inside it), by their modification times.
#[test]
fn without_git_the_modification_time_decides() {
    let lib = TempLib::init(None);
    let notes = lib.path("work/notes");
    for f in ["later.md", "earlier.md", "abs.md"] {
        write(&notes.join("docs").join(f), f);
    }
    touch(&notes.join("docs/later.md"), "2026-03-01T00:00:00Z");
    touch(&notes.join("docs/earlier.md"), "2026-01-01T00:00:00Z");
    touch(&notes.join("docs/abs.md"), "2026-03-01T00:00:00Z");
    let abs = notes.join("docs/abs.md").display().to_string();
    let lines = [
        item("later", "notes", ITEM_DATE, "docs/later.md"),
        item("earlier", "notes", ITEM_DATE, "docs/earlier.md"),
        item("absolute", "elsewhere", ITEM_DATE, &abs),
        item("missing", "notes", ITEM_DATE, "docs/missing.md"),
    ];
    lib.import(&lines.join("\n")).ok();
    let doc = run_in(&lib, &notes, &["--json", "search", "zqstale"])
        .ok()
        .json();
    let mut got = marks(&doc["results"]);
    got.sort();
    let want = vec![
        ("absolute".to_string(), vec!["docs/abs.md".to_string()]),
        ("earlier".to_string(), vec![]),
        ("later".to_string(), vec!["docs/later.md".to_string()]),
        ("missing".to_string(), vec![]),
    ];
    assert_eq!(got, want);
    let doc = run_in(&lib, &notes, &["--json", "search", "zqstale", "--fresh"])
        .ok()
        .json();
    let mut kept: Vec<String> = marks(&doc["results"]).into_iter().map(|(t, _)| t).collect();
    kept.sort();
    assert_eq!(kept, ["earlier", "missing"]);
}

/// Class: a history too long to read at once. A `git` whose log writes one commit at
/// once and another after 30 s: the first counts, the second is never waited for (the
/// log is read for 200 ms, then killed), and the status still counts.
#[test]
fn a_slow_history_is_cut_at_its_deadline() {
    let (lib, top, _) = repository();
    let path = fake_git(&lib, "slowbin", |real| {
        format!(
            "case \" $* \" in\n*' log '*) echo '@1798761600'; echo 'src/c.rs'; sleep 30; echo '@1798761600'; echo 'src/d.rs';;\n*) exec '{real}' \"$@\";;\nesac\n"
        )
    });
    let out = Ran::from(
        lib.command()
            .current_dir(&top)
            .env("PATH", &path)
            .args(["--json", "get", "1", "2", "3", "4"])
            .output()
            .unwrap(),
    );
    let got = marks(&out.json()["items"]);
    let want: Vec<(String, Vec<String>)> = [
        ("committed", vec![]),
        ("uncommitted", vec!["src/b.rs"]),
        ("earlier commit", vec!["src/c.rs"]),
        ("earlier edit", vec![]),
    ]
    .into_iter()
    .map(|(t, c)| (t.to_string(), c.into_iter().map(str::to_string).collect()))
    .collect();
    assert_eq!(got, want);
}

/// Class: the other listings of the command line, from the checkout: timeline (and
/// `--around`), later, related.
#[test]
fn every_listing_command_names_the_files_changed_since() {
    let (lib, top, expected) = repository();
    for args in [
        vec!["--json", "timeline", "--project", "shop", "--limit", "50"],
        vec![
            "--json", "timeline", "--around", "2", "--before", "5", "--after", "5",
        ],
        vec!["--json", "later", "3", "--query", "zqstale"],
        vec![
            "--json",
            "related",
            "zqcommittedalpha zqcommittedbeta and zquncommittedalpha zquncommittedbeta",
        ],
    ] {
        let doc = run_in(&lib, &top, &args).ok().json();
        let got = marks(&doc["results"]);
        assert!(
            got.iter().any(|(_, c)| !c.is_empty()),
            "{args:?}: something changed among {got:?}"
        );
        assert_eq!(got, expected_of(&expected, &got), "{args:?}");
    }
}
