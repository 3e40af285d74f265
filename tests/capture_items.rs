//! What `recall capture` stores: the bundled example sessions found by an error message,
//! a file name and a command they hold; secrets in every field leave no byte in the
//! library; sources and projects from the configuration; the optional summariser, and
//! each way it can fail.
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::common::cli::{Ran, TempLib};
use crate::common::root;
use crate::redaction::{contains, one_of_each_kind};

const EXAMPLES: &str = "examples/sessions";
const SHOP: &str =
    "examples/sessions/claude/projects/-home-dana-src-shop/3f2a9c1e-7b4d-4e8a-9c21-5d6e7f809a1b.jsonl";
const WEB: &str = "examples/sessions/codex/sessions/2025/11/18/rollout-2025-11-18T13-05-00-0199f3c2-5e6a-7b8c-9d0e-1f2a3b4c5d6e.jsonl";

fn lines(rel: &str) -> Vec<Value> {
    std::fs::read_to_string(root().join(rel))
        .expect("example")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

fn capture_with(lib: &TempLib, args: &[&str], env: &[(&str, &str)]) -> Ran {
    let mut cmd = lib.command();
    cmd.args(["--json", "capture"]).args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    Ran::from(cmd.output().expect("run recall"))
}

/// The titles of the first `n` results of a search.
fn titles(lib: &TempLib, query: &str, n: usize) -> Vec<String> {
    let out = lib
        .run(&["--json", "search", query, "--limit", &n.to_string()])
        .ok()
        .json();
    out["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["title"].as_str().expect("title").to_string())
        .collect()
}

#[test]
fn the_bundled_sessions_are_found_by_an_error_a_file_and_a_command() {
    let lib = TempLib::init(None);
    let out = capture_with(&lib, &[root().join(EXAMPLES).to_str().unwrap()], &[])
        .ok()
        .json();
    assert_eq!(
        (out["files"].as_u64(), out["added"].as_u64()),
        (Some(3), Some(3)),
        "{out}"
    );

    // The Claude Code session: its title is its summary record; found by the compiler's
    // error, the file the agent edited and the command it ran, each read from the file.
    let shop = lines(SHOP);
    let title = shop[0]["summary"].as_str().unwrap();
    let blocks: Vec<&Value> = shop
        .iter()
        .filter_map(|r| r["message"]["content"].as_array())
        .flatten()
        .collect();
    let error = blocks
        .iter()
        .filter_map(|b| b["content"].as_str())
        .flat_map(str::lines)
        .find(|l| l.starts_with("error["))
        .unwrap();
    let edited = blocks
        .iter()
        .find(|b| b["name"] == "Edit")
        .and_then(|b| b["input"]["file_path"].as_str())
        .unwrap();
    let command = blocks
        .iter()
        .find(|b| b["name"] == "Bash")
        .and_then(|b| b["input"]["command"].as_str())
        .unwrap();
    for query in [error, edited, command] {
        assert_eq!(titles(&lib, query, 1), vec![title.to_string()], "{query}");
    }

    // The Codex rollout: no summary record, so its title is the person's first real prompt
    // (the environment context before it is not one).
    let web = lines(WEB);
    let prompts: Vec<&str> = web
        .iter()
        .filter(|r| r["type"] == "response_item" && r["payload"]["role"] == "user")
        .filter_map(|r| r["payload"]["content"][0]["text"].as_str())
        .collect();
    assert!(prompts[0].starts_with("<environment_context>"));
    let title = prompts[1];
    let output = web
        .iter()
        .filter(|r| r["payload"]["type"] == "function_call_output")
        .filter_map(|r| r["payload"]["output"].as_str())
        .next()
        .unwrap();
    let shown: Value = serde_json::from_str(output).unwrap();
    let error = shown["output"]
        .as_str()
        .unwrap()
        .lines()
        .find(|l| l.starts_with("Module not found"))
        .unwrap();
    for query in [error, "src/app.tsx", "pnpm run build"] {
        assert_eq!(titles(&lib, query, 1), vec![title.to_string()], "{query}");
    }
    // Projects from the working folders (no git checkout here: the folder's name).
    let projects: Vec<String> = lib
        .conn()
        .prepare("select project from items order by project")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(projects, ["infra", "shop", "web"]);
}

/// A Claude Code transcript whose every field holds secrets: the first prompt's first
/// line (the title), later prompts (questions), the last answer (summary), a command and
/// an error line (atoms), and the tool's whole output (the transcript).
fn secret_session(dir: &Path, lines: &[String]) -> PathBuf {
    let record = |kind: &str, at: &str, content: Value| {
        json!({"type": kind, "sessionId": "s-secret", "cwd": "/home/dev/vault",
               "timestamp": at, "message": {"role": kind, "content": content}})
        .to_string()
    };
    // A token short enough to stay whole in the title's first line.
    let token = one_of_each_kind()
        .into_iter()
        .find(|c| c.0 == "github-token")
        .expect("a GitHub token in the corpus")
        .2;
    let mut out = vec![record(
        "user",
        "2025-05-01T10:00:00Z",
        json!(format!("Use {token} for the release\n{}", lines.join("\n"))),
    )];
    for (i, line) in lines.iter().enumerate() {
        let at = format!("2025-05-01T10:{:02}:00Z", i + 1);
        out.push(record("user", &at, json!(line)));
        out.push(record(
            "assistant",
            &at,
            json!([{"type": "tool_use", "id": format!("t{i}"), "name": "Bash",
                    "input": {"command": format!("deploy --verbose {line}")}}]),
        ));
        out.push(record(
            "user",
            &at,
            json!([{"type": "tool_result", "tool_use_id": format!("t{i}"), "is_error": true,
                    "content": format!("Error: refused {line}")}]),
        ));
    }
    out.push(record(
        "assistant",
        "2025-05-01T11:00:00Z",
        json!([{"type": "text", "text": format!("Done. Used:\n{}", lines.join("\n"))}]),
    ));
    let path = dir.join("s-secret.jsonl");
    std::fs::write(&path, out.join("\n") + "\n").unwrap();
    path
}

#[test]
fn secrets_in_every_field_leave_no_byte() {
    let all = one_of_each_kind();
    let lines: Vec<String> = all.iter().map(|c| c.1.clone()).collect();
    let secrets: Vec<String> = all.iter().map(|c| c.2.clone()).collect();
    let lib = TempLib::init(None);
    let path = secret_session(&lib.path(""), &lines);
    let out = capture_with(&lib, &[path.to_str().unwrap()], &[])
        .ok()
        .json();
    assert_eq!(out["added"], 1, "{out}");
    // Every kind found, each in the prompts, the commands, the errors and the answer.
    for (kind, ..) in &all {
        assert!(
            out["redacted"][kind].as_u64().unwrap_or(0) >= 4,
            "{kind}: {out}"
        );
    }
    let conn = lib.conn();
    let (title, questions, atoms, summary, transcript): (String, String, String, String, String) =
        conn.query_row(
            "select title, questions, atoms, summary, transcript from items",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .unwrap();
    assert!(
        title.starts_with("Use [redacted] for the release"),
        "{title}"
    );
    for field in [&questions, &atoms, &summary, &transcript] {
        assert!(field.contains("[redacted]"), "{field}");
    }
    drop(conn);
    lib.checkpoint();
    for bytes in lib.files().iter().flatten() {
        for s in &secrets {
            assert!(!contains(bytes, s.as_bytes()), "{s} is in the library file");
        }
    }
    // --no-redact stores them as given.
    let kept = TempLib::init(None);
    let path = secret_session(&kept.path(""), &lines);
    let out = capture_with(&kept, &["--no-redact", path.to_str().unwrap()], &[])
        .ok()
        .json();
    assert_eq!(out["redacted"], json!({}));
    let transcript: String = kept
        .conn()
        .query_row("select transcript from items", [], |r| r.get(0))
        .unwrap();
    assert!(secrets.iter().all(|s| transcript.contains(s.as_str())));
}

#[test]
fn sources_and_projects_come_from_the_configuration() {
    let lib = TempLib::init(None);
    let config = lib.path("recall.toml");
    std::fs::write(
        &config,
        "[capture]\nclaude_source = \"agent-claude\"\ncodex_source = \"agent-codex\"\n\
         [projects]\n\"/home/dana/src\" = \"dana\"\n\"/home/dana/src/web\" = \"storefront\"\n",
    )
    .unwrap();
    let cfg = config.to_str().unwrap();
    lib.run(&[
        "--config",
        cfg,
        "capture",
        root().join(EXAMPLES).to_str().unwrap(),
    ])
    .ok();
    let rows: Vec<(String, String)> = lib
        .conn()
        .prepare("select source, project from items order by occurred_at")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let want = [
        ("agent-claude", "dana"),
        ("agent-claude", "dana"),
        ("agent-codex", "storefront"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(s, p)| (s.to_string(), p.to_string()))
        .collect();
    assert_eq!(rows, want);
    // Access globs see them by their configured source.
    let seen = lib
        .run(&["--json", "search", "src/app.tsx", "--allow", "agent-*"])
        .ok()
        .json();
    assert_eq!(seen["results"].as_array().map(Vec::len), Some(1));
    let hidden = lib
        .run(&["--json", "search", "src/app.tsx", "--allow", "agent-claude"])
        .ok()
        .json();
    assert_eq!(hidden["results"].as_array().map(Vec::len), Some(0));
    // A source that cannot be one is refused, naming the key.
    std::fs::write(&config, "[capture]\nclaude_source = \"  \"\n").unwrap();
    lib.run(&["--config", cfg, "capture", "/nowhere"])
        .fails_with("capture.claude_source: a source must not be empty");
}

fn fake() -> String {
    format!(
        "python3 {}",
        root().join("tests/capture/fake_summarizer.py").display()
    )
}

fn requests(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_summariser_writes_the_items_from_redacted_text_once() {
    let lib = TempLib::init(None);
    let log = lib.path("requests.jsonl");
    let log_env = log.to_str().unwrap();
    let shop = root().join(SHOP);
    let path = shop.to_str().unwrap();
    let out = capture_with(
        &lib,
        &["--summarize-cmd", &fake(), path],
        &[("FAKE_SUMMARIZER_LOG", log_env)],
    )
    .ok()
    .json();
    assert_eq!(
        (out["summarized"].as_u64(), out["summarize_failed"].as_u64()),
        (Some(1), Some(0)),
        "{out}"
    );
    let sent = requests(&log);
    assert_eq!(sent.len(), 1);
    assert_eq!(
        (sent[0]["agent"].as_str(), sent[0]["segment"].as_u64()),
        (Some("claude-code"), Some(1))
    );
    assert_eq!(sent[0]["project"], "shop");
    let first_prompt = lines(SHOP)[1]["message"]["content"]
        .as_str()
        .unwrap()
        .to_string();
    let three: Vec<&str> = first_prompt.split_whitespace().take(3).collect();
    let (title, summary, questions, atoms): (String, String, String, String) = lib
        .conn()
        .query_row(
            "select title, summary, questions, atoms from items",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert_eq!(
        title,
        format!("Summary of claude-code segment 1: {}", three.join(" "))
    );
    let text = sent[0]["text"].as_str().unwrap();
    assert_eq!(summary, format!("{} lines read", text.lines().count()));
    assert_eq!(
        (questions.as_str(), atoms.as_str()),
        ("What happened in segment 1?", "fake-atom-1")
    );
    // Its kind, one the library knows, is the new item's.
    let kind: Option<String> = lib
        .conn()
        .query_row("select kind from items", [], |r| r.get(0))
        .unwrap();
    assert_eq!(kind.as_deref(), Some("bugfix"));
    // Read again: the same literal segment is not sent again.
    let again = capture_with(
        &lib,
        &["--reread", "--summarize-cmd", &fake(), path],
        &[("FAKE_SUMMARIZER_LOG", log_env)],
    )
    .ok()
    .json();
    assert_eq!(
        (again["unchanged"].as_u64(), again["summarized"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(requests(&log).len(), 1);

    // The text it receives is redacted, and so is what it answers.
    let lib = TempLib::init(None);
    let log = lib.path("requests.jsonl");
    let lines: Vec<String> = one_of_each_kind().into_iter().map(|c| c.1).collect();
    let secret = secret_session(&lib.path(""), &lines);
    let out = capture_with(
        &lib,
        &["--summarize-cmd", &fake(), secret.to_str().unwrap()],
        &[
            ("FAKE_SUMMARIZER_LOG", log.to_str().unwrap()),
            ("FAKE_SUMMARIZER_MODE", "secret"),
        ],
    )
    .ok()
    .json();
    let sent = std::fs::read(&log).unwrap();
    for (_, _, s, _) in one_of_each_kind() {
        assert!(
            !contains(&sent, s.as_bytes()),
            "the summariser was sent {s}"
        );
    }
    assert_eq!(out["summarized"], 1);
    let title: String = lib
        .conn()
        .query_row("select title from items", [], |r| r.get(0))
        .unwrap();
    assert_eq!(title, "Rotated [redacted]");
}

#[test]
fn a_failing_summariser_keeps_the_literal_items() {
    let literal = TempLib::init(None);
    let shop = root().join(SHOP);
    let path = shop.to_str().unwrap();
    capture_with(&literal, &[path], &[]).ok();
    let want: String = literal
        .conn()
        .query_row("select title from items", [], |r| r.get(0))
        .unwrap();
    // Only the hanging one waits for the timeout: a loaded machine may take a while to
    // start Python.
    for (mode, says) in [
        ("error", "the summariser failed: the model is not loaded"),
        ("garbage", "is not {\"id\", \"title\", \"summary\", …} JSON"),
        ("hang", "gave no answer within 500 ms"),
        ("crash", "the summariser ended (exit status: 3)"),
        ("wrong-id", "answers request"),
        (
            "empty",
            "gives none of title, summary, questions, atoms and kind",
        ),
        (
            "unknown-kind",
            "the summariser's kind \"musing\" is not a known kind",
        ),
    ] {
        let lib = TempLib::init(None);
        let config = lib.path("recall.toml");
        std::fs::write(
            &config,
            format!(
                "[capture]\nsummarize_command = {:?}\nsummarize_timeout_ms = {}\n",
                fake(),
                if mode == "hang" { 500 } else { 30_000 }
            ),
        )
        .unwrap();
        let mut cmd = lib.command();
        cmd.args(["--config", config.to_str().unwrap(), "capture", path]);
        match mode {
            "unknown-kind" => cmd.env("FAKE_SUMMARIZER_KIND", "musing"),
            _ => cmd.env("FAKE_SUMMARIZER_MODE", mode),
        };
        let ran = Ran::from(cmd.output().unwrap()).ok();
        assert!(
            ran.stdout
                .contains("summarised 0, kept literal after the summariser failed 1"),
            "{mode}: {}",
            ran.stdout
        );
        assert!(ran.stdout.contains(says), "{mode}: {}", ran.stdout);
        let title: String = lib
            .conn()
            .query_row("select title from items", [], |r| r.get(0))
            .unwrap();
        assert_eq!(title, want, "{mode}");
    }
}

/// Copies the bundled sessions of one agent under `to`.
fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn with_no_path_the_agents_default_places_are_read() {
    // Under a home folder: ~/.claude/projects and ~/.codex/sessions.
    let lib = TempLib::init(None);
    let home = lib.path("home");
    copy_tree(
        &root().join("examples/sessions/claude"),
        &home.join(".claude"),
    );
    copy_tree(
        &root().join("examples/sessions/codex"),
        &home.join(".codex"),
    );
    let mut cmd = lib.command();
    cmd.args(["--json", "capture"])
        .env("HOME", &home)
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME");
    let out = Ran::from(cmd.output().unwrap()).ok().json();
    assert_eq!(
        (out["files"].as_u64(), out["added"].as_u64()),
        (Some(3), Some(3)),
        "{out}"
    );

    // $CLAUDE_CONFIG_DIR and $CODEX_HOME take the place of the home folder's.
    let lib = TempLib::init(None);
    let claude = lib.path("claude-config");
    let codex = lib.path("codex-home");
    copy_tree(&root().join("examples/sessions/claude"), &claude);
    copy_tree(&root().join("examples/sessions/codex"), &codex);
    let mut cmd = lib.command();
    cmd.args(["--json", "capture"])
        .env("HOME", lib.path("empty-home"))
        .env("CLAUDE_CONFIG_DIR", &claude)
        .env("CODEX_HOME", &codex);
    let out = Ran::from(cmd.output().unwrap()).ok().json();
    assert_eq!(
        (out["files"].as_u64(), out["added"].as_u64()),
        (Some(3), Some(3)),
        "{out}"
    );
    let sources: Vec<String> = lib
        .conn()
        .prepare("select source from items order by source")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(sources, ["claude-code", "claude-code", "codex"]);

    // Neither exists: nothing to read, said plainly, nothing written.
    let lib = TempLib::init(None);
    let mut cmd = lib.command();
    cmd.args(["capture"])
        .env("HOME", lib.path("nobody"))
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME");
    let ran = Ran::from(cmd.output().unwrap()).ok();
    assert!(ran.stdout.starts_with("0 files read"), "{}", ran.stdout);
    assert!(
        ran.stderr.contains("no session folder found"),
        "{}",
        ran.stderr
    );
    assert_eq!(lib.count("select count(*) from items"), 0);
}

#[test]
fn a_progress_bar_on_a_terminal_only() {
    let files: Vec<PathBuf> = [SHOP, WEB].iter().map(|rel| root().join(rel)).collect();
    let total: u64 = files
        .iter()
        .map(|f| std::fs::metadata(f).unwrap().len())
        .sum();
    let lib = TempLib::init(None);
    let command = format!(
        "{} --db {} capture {} {}",
        crate::common::cli::recall_bin().display(),
        lib.db.display(),
        files[0].display(),
        files[1].display()
    );
    // `script` gives the command a terminal of its own.
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("script (util-linux)");
    let shown = String::from_utf8_lossy(&out.stdout);
    let size = format!(
        "{:.2} KiB/{:.2} KiB",
        total as f64 / 1024.0,
        total as f64 / 1024.0
    );
    assert!(shown.contains("capturing"), "{shown}");
    assert!(shown.contains(&size), "{size} not in {shown}");
    assert!(shown.contains("2 files read"), "{shown}");
    // Piped: the final line only.
    let lib = TempLib::init(None);
    let ran = lib
        .run(&[
            "capture",
            files[0].to_str().unwrap(),
            files[1].to_str().unwrap(),
        ])
        .ok();
    assert!(!ran.stderr.contains("capturing") && !ran.stdout.contains("capturing"));
    assert!(ran.stdout.starts_with("2 files read"), "{}", ran.stdout);
}

#[test]
fn marks_a_person_gave_a_captured_item_survive_its_capture_again() {
    let lib = TempLib::init(None);
    let dir = lib.path("sessions");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("rollout.jsonl");
    std::fs::copy(root().join(WEB), &path).unwrap();
    capture_with(&lib, &[path.to_str().unwrap()], &[]).ok();
    lib.run(&["promote", "1"]).ok();
    lib.conn()
        .execute("update items set kind = 'gotcha' where id = 1", [])
        .unwrap();
    // The session grows: its (only) segment's item is replaced.
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(
        &json!({"timestamp": "2025-11-18T13:07:00.000Z", "type": "response_item",
                "payload": {"type": "message", "role": "assistant",
                            "content": [{"type": "output_text", "text": "Also cleared the vite cache."}]}})
        .to_string(),
    );
    text.push('\n');
    std::fs::write(&path, text).unwrap();
    let out = capture_with(&lib, &[path.to_str().unwrap()], &[])
        .ok()
        .json();
    assert_eq!(out["replaced"], 1, "{out}");
    let (summary, kind, global): (String, Option<String>, i64) = lib
        .conn()
        .query_row(
            "select summary, kind, global from items where id = 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(summary, "Also cleared the vite cache.");
    assert_eq!((kind.as_deref(), global), (Some("gotcha"), 1));
}
