//! `recall capture` end to end: the fixtures captured into a library, again (nothing
//! changes), grown (the last segment replaced, new ones added), after `forget` (not
//! back), as a dry run, and with paths that are not sessions.
use std::path::{Path, PathBuf};

use crate::capture_read::{fixture, CLAUDE, CODEX};
use crate::common::cli::TempLib;

fn capture(lib: &TempLib, paths: &[&Path]) -> serde_json::Value {
    let mut args = vec!["--json", "capture"];
    let texts: Vec<String> = paths
        .iter()
        .map(|p| p.to_string_lossy().to_string())
        .collect();
    args.extend(texts.iter().map(String::as_str));
    lib.run(&args).ok().json()
}

fn items(lib: &TempLib) -> Vec<(i64, String, String, String)> {
    let conn = lib.conn();
    let mut stmt = conn
        .prepare("select id, title, occurred_at, coalesce(transcript, '') from items order by id")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// Every column of every item, and of the capture records, as text: for "nothing
/// changed" comparisons, byte for byte.
fn everything(lib: &TempLib) -> Vec<String> {
    let conn = lib.conn();
    ["items", "capture_segments"]
        .iter()
        .flat_map(|table| {
            crate::common::rows_as_text(&conn, &format!("select * from {table} order by 1, 2, 3"))
        })
        .collect()
}

/// A copy of the fixtures in a folder of the test's own.
fn copy_of(lib: &TempLib, rels: &[&str]) -> PathBuf {
    let dir = lib.path("sessions");
    for rel in rels {
        let to = dir.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(fixture(rel), &to).unwrap();
    }
    dir
}

#[test]
fn capture_twice_changes_nothing() {
    let lib = TempLib::init(None);
    let dir = copy_of(&lib, &[CLAUDE, CODEX]);
    let first = capture(&lib, &[&dir]);
    assert_eq!(first["files"], 2);
    assert_eq!(first["sessions"], 2);
    // Three segments of the Claude transcript, two of the rollout.
    assert_eq!(first["added"], 5);
    // A record type no reader knows that holds no message is the program's own: counted
    // apart, not listed as skipped.
    assert_eq!(first["program_records"]["mystery-record"], 1, "{first}");
    assert!(
        first["skipped"].get("type:mystery-record").is_none(),
        "{first}"
    );
    let before = everything(&lib);
    assert_eq!(items(&lib).len(), 5);
    let again = capture(&lib, &[&dir]);
    assert_eq!(again["files_unchanged"], 2, "{again}");
    assert_eq!(again["files"], 0);
    assert_eq!(everything(&lib), before);
    // Read again (a new modification time), nothing differs either.
    for rel in [CLAUDE, CODEX] {
        let text = std::fs::read(dir.join(rel)).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(dir.join(rel), text).unwrap();
    }
    let reread = capture(&lib, &[&dir]);
    assert_eq!(
        (reread["files"].as_u64(), reread["unchanged"].as_u64()),
        (Some(2), Some(5))
    );
    assert_eq!(reread["added"], 0);
    assert_eq!(everything(&lib), before, "byte for byte");
}

#[test]
fn a_grown_session_replaces_its_last_segment_and_adds_new_ones() {
    let lib = TempLib::init(None);
    let dir = copy_of(&lib, &[CODEX]);
    capture(&lib, &[&dir]);
    let before = items(&lib);
    assert_eq!(before.len(), 2);
    let more = [
        r#"{"timestamp":"2025-09-14T08:40:00Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Also linked it from the index."}]}}"#,
        r#"{"timestamp":"2025-09-15T09:00:00Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Next day: add metrics"}]}}"#,
        r#"{"timestamp":"2025-09-15T09:02:00Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Metrics are exported at /metrics now."}]}}"#,
    ];
    let path = dir.join(CODEX);
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(&(more.join("\n") + "\n"));
    std::fs::write(&path, text).unwrap();
    let grown = capture(&lib, &[&dir]);
    assert_eq!(
        (
            grown["added"].as_u64(),
            grown["replaced"].as_u64(),
            grown["unchanged"].as_u64()
        ),
        (Some(1), Some(1), Some(1))
    );
    let after = items(&lib);
    assert_eq!(after.len(), 3);
    assert_eq!(after[0], before[0], "the first segment is untouched");
    assert_eq!(
        after[1].0, before[1].0,
        "the last segment keeps its item's id"
    );
    assert_eq!(after[1].2, "2025-09-14T08:40:00Z");
    assert_eq!(after[2].1, "Next day: add metrics");
}

#[test]
fn a_forgotten_item_is_not_brought_back() {
    let lib = TempLib::init(None);
    let dir = copy_of(&lib, &[CODEX]);
    capture(&lib, &[&dir]);
    let first = items(&lib)[0].0.to_string();
    lib.run(&["forget", &first]).ok();
    // Touched: the file is read again.
    let path = dir.join(CODEX);
    let text = std::fs::read(&path).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&path, text).unwrap();
    let again = capture(&lib, &[&dir]);
    assert_eq!(
        (again["forgotten"].as_u64(), again["added"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(items(&lib).len(), 1);
}

#[test]
fn a_dry_run_writes_nothing() {
    let lib = TempLib::init(None);
    let dir = copy_of(&lib, &[CLAUDE]);
    let before = lib.snapshot();
    let out = lib
        .run(&["--json", "capture", "--dry-run", dir.to_str().unwrap()])
        .ok()
        .json();
    assert_eq!(out["added"], 3);
    assert_eq!(lib.snapshot(), before);
    assert_eq!(
        capture(&lib, &[&dir])["added"],
        3,
        "the dry run recorded nothing"
    );
}

#[test]
fn what_is_not_a_session_is_reported_and_the_rest_captured() {
    let lib = TempLib::init(None);
    let dir = copy_of(&lib, &[CODEX]);
    std::fs::write(dir.join("notes.jsonl"), "{\"name\":\"milk\"}\n").unwrap();
    std::os::unix::fs::symlink(&dir, dir.join("loop")).unwrap();
    let fifo = dir.join("pipe.jsonl");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let ran = lib.run(&["capture", dir.to_str().unwrap()]);
    assert_eq!(ran.code, 1, "what was skipped sets the exit code: {ran:?}");
    let lines: Vec<&str> = ran.stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{}", ran.stderr);
    assert!(
        ran.stderr
            .contains("notes.jsonl: not a Claude Code or Codex session file"),
        "{}",
        ran.stderr
    );
    assert!(
        ran.stderr.contains("loop: a symbolic link back"),
        "{}",
        ran.stderr
    );
    assert!(
        ran.stderr.contains("pipe.jsonl: not a regular file"),
        "{}",
        ran.stderr
    );
    assert!(ran.stdout.contains("2 items added"), "{}", ran.stdout);
    assert_eq!(items(&lib).len(), 2);
}

/// Capture writes its own sources only, and the access globs, which bound what a reader
/// sees, do not bind it: under `[access] allow = ["agent-*"]` it writes exactly what it
/// writes without, to `claude-code` and `codex`, which that reader then does not see.
#[test]
fn the_access_globs_bind_readers_not_capture() {
    let plain = TempLib::init(None);
    let plain_dir = copy_of(&plain, &[CLAUDE, CODEX]);
    let counted = capture(&plain, &[&plain_dir]);
    let bound = TempLib::init(None);
    let dir = copy_of(&bound, &[CLAUDE, CODEX]);
    let config = bound.path("recall.toml");
    std::fs::write(&config, "[access]\nallow = [\"agent-*\"]\n").unwrap();
    let config = config.to_string_lossy().to_string();
    let dir = dir.to_string_lossy().to_string();
    let under_globs = bound
        .run(&["--config", &config, "--json", "capture", &dir])
        .ok()
        .json();
    assert_eq!(under_globs["added"], 5, "{under_globs}");
    assert_eq!(under_globs["added"], counted["added"]);
    let sources = |lib: &TempLib| -> Vec<(String, String)> {
        let conn = lib.conn();
        let mut stmt = conn
            .prepare("select source, title from items order by id")
            .unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    let written = sources(&bound);
    assert_eq!(written, sources(&plain));
    let mut names: Vec<&str> = written.iter().map(|(s, _)| s.as_str()).collect();
    names.dedup();
    assert_eq!(names, ["claude-code", "codex"]);
    // The reader the globs bind sees none of them; a reader without sees them all.
    let seen = |args: &[&str]| {
        bound.run(args).ok().json()["results"]
            .as_array()
            .map(Vec::len)
    };
    let timeline = ["--json", "timeline", "--scope", "all"];
    let mut bound_args = vec!["--config", config.as_str()];
    bound_args.extend(timeline);
    assert_eq!(seen(&bound_args), Some(0));
    assert_eq!(seen(&timeline), Some(5));
}
