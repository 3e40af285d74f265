//! `recall status` end to end, and the failure log the hook writes beside the library:
//! the counts of a healthy library as SQL gives them, a capture the hook started that
//! failed, a library that moved away from the hook's path, a pending wipe, vectors out
//! of date, a read-only library and a replica read without a write, the log's rotation
//! bound, and the session start's one mention of a failure.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::cli::{recall_bin, Ran, TempLib};
use crate::common::damage::{protect, run_as, stranger, unprotect};
use crate::common::{pipe, root};

/// `recall --json status`: its exit code and document.
fn status(lib: &TempLib, args: &[&str]) -> (i32, Value) {
    let mut full = args.to_vec();
    full.extend(["--json", "status"]);
    let out = lib.run(&full);
    assert!(out.stderr.is_empty(), "{out:?}");
    assert_eq!(out.json()["command"], "status");
    (out.code, out.json())
}

/// Sends one event's JSON to `recall hook`.
fn hook(lib: &TempLib, args: &[&str], payload: &str) -> Ran {
    let mut full = args.to_vec();
    full.push("hook");
    let out = lib.run_stdin(&full, payload);
    assert_eq!(out.code, 0, "the hook never fails its agent: {out:?}");
    out
}

/// Claude Code's `SessionStart` and `SessionEnd` payloads, from its hook input.
fn start(session: &str, cwd: &Path) -> String {
    json!({"session_id": session, "transcript_path": "/tmp/none.jsonl", "cwd": cwd,
        "hook_event_name": "SessionStart", "source": "startup"})
    .to_string()
}

fn end(session: &str, cwd: &Path, transcript: &Path) -> String {
    json!({"session_id": session, "transcript_path": transcript, "cwd": cwd,
        "hook_event_name": "SessionEnd", "reason": "prompt_input_exit"})
    .to_string()
}

/// A Claude Code transcript of one session in `cwd`, in its record shapes.
fn claude_transcript(path: &Path, session: &str, cwd: &Path, prompt: &str, answer: &str) {
    let record = |kind: &str, at: &str, message: Value| {
        json!({"type": kind, "sessionId": session, "cwd": cwd, "timestamp": at,
            "isSidechain": false, "uuid": format!("{kind}-{at}"), "message": message})
        .to_string()
    };
    let lines = [
        record(
            "user",
            "2025-07-01T10:00:00.000Z",
            json!({"role": "user", "content": prompt}),
        ),
        record(
            "assistant",
            "2025-07-01T10:00:30.000Z",
            json!({"role": "assistant", "content": [{"type": "text", "text": answer}]}),
        ),
    ];
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// A Codex rollout of one session in `cwd`: `session_meta`, then a turn of messages.
fn codex_rollout(path: &Path, session: &str, cwd: &Path, prompt: &str, answer: &str) {
    let lines = [
        json!({"timestamp": "2025-08-01T09:00:00.000Z", "type": "session_meta",
            "payload": {"id": session, "timestamp": "2025-08-01T09:00:00.000Z", "cwd": cwd,
                "originator": "codex_cli_rs", "cli_version": "0.50.0"}}),
        json!({"timestamp": "2025-08-01T09:00:01.000Z", "type": "response_item",
            "payload": {"type": "message", "role": "user",
                "content": [{"type": "input_text", "text": prompt}]}}),
        json!({"timestamp": "2025-08-01T09:00:20.000Z", "type": "response_item",
            "payload": {"type": "message", "role": "assistant",
                "content": [{"type": "output_text", "text": answer}]}}),
    ];
    let text: Vec<String> = lines.iter().map(Value::to_string).collect();
    std::fs::write(path, text.join("\n") + "\n").unwrap();
}

/// The sample library, and a working folder named after its project `shop`.
fn sample() -> (TempLib, PathBuf) {
    let lib = TempLib::init(None);
    let sample = root().join("examples/sample.jsonl");
    lib.run(&["import", sample.to_str().unwrap()]).ok();
    let shop = lib.path("shop");
    std::fs::create_dir_all(&shop).unwrap();
    (lib, shop)
}

fn pairs(lib: &TempLib, sql: &str) -> BTreeMap<String, i64> {
    crate::common::cli::pairs(lib, sql)
}

/// `[{"name", "items"}]` as a map (None named "(none)").
fn counted(list: &Value) -> BTreeMap<String, i64> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap_or("(none)").to_string(),
                c["items"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn failures_log(lib: &TempLib) -> PathBuf {
    PathBuf::from(format!("{}.failures", lib.db.display()))
}

/// The log's lines, as JSON.
fn logged(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Waits for a process that is not this one's child to end (or to be a zombie).
fn wait_gone(pid: u64) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        if stat.rsplit_once(") ").map(|(_, rest)| &rest[..1]) == Some("Z") {
            return;
        }
        assert!(Instant::now() < deadline, "process {pid} still runs");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn attention(doc: &Value) -> Vec<(String, String)> {
    doc["attention"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["what"].as_str().unwrap().to_string(),
                a["todo"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Class: the facts of a healthy library. Every count is what SQL on the file says:
/// items, by source, the top projects, the files capture read, each agent's sessions,
/// items and last session; the schema version and the tokenizer as the file records
/// them; exit 0 and "nothing needs attention".
#[test]
fn a_healthy_library_s_counts_are_what_sql_says() {
    let (lib, shop) = sample();
    let claude = lib.path("claude.jsonl");
    claude_transcript(
        &claude,
        "c-1",
        &shop,
        "Why does the wombat export stall?",
        "It waits on a lock.",
    );
    let codex = lib.path("rollout-2025-08-01T09-00-00-x.jsonl");
    codex_rollout(
        &codex,
        "x-1",
        &shop,
        "Rename the tapir job",
        "Renamed it to tapir-nightly.",
    );
    lib.run(&["capture", claude.to_str().unwrap(), codex.to_str().unwrap()])
        .ok();
    let (code, doc) = status(&lib, &[]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(doc["healthy"], true);
    assert_eq!(doc["opened"], "yes");
    let facts = &doc["facts"];
    assert_eq!(facts["items"], lib.count("select count(*) from items"));
    assert_eq!(
        counted(&facts["sources"]),
        pairs(&lib, "select source, count(*) from items group by source")
    );
    let projects = pairs(
        &lib,
        "select coalesce(project, '(none)'), count(*) from items group by project order by count(*) desc, project limit 5",
    );
    assert_eq!(counted(&facts["projects"]), projects);
    assert_eq!(
        facts["projects_total"],
        // The items of no project are one group of the list, and counted as one.
        lib.count("select count(distinct project) + max(project is null) from items")
    );
    assert_eq!(
        facts["capture_files"],
        lib.count("select count(*) from capture_files")
    );
    assert_eq!(facts["capture_files"], 2);
    assert_eq!(facts["schema_version"], lib.count("pragma user_version"));
    let tokenizer: String = lib
        .conn()
        .query_row(
            "select value from recall_meta where key = 'tokenizer'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(facts["tokenizer"], tokenizer.as_str());
    let on_disk = std::fs::metadata(&lib.db).unwrap().len()
        + std::fs::metadata(format!("{}-wal", lib.db.display()))
            .map(|m| m.len())
            .unwrap_or(0);
    assert_eq!(facts["size_bytes"], on_disk);
    let agents: Vec<&str> = doc["captures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["agent"].as_str().unwrap())
        .collect();
    assert_eq!(agents, ["claude-code", "codex"]);
    for c in doc["captures"].as_array().unwrap() {
        let agent = c["agent"].as_str().unwrap();
        let of = |sql: &str| lib.count(&sql.replace("AGENT", agent));
        assert_eq!(
            c["sessions"],
            of("select count(distinct session) from capture_segments where agent = 'AGENT'")
        );
        assert_eq!(
            c["items"],
            of("select count(*) from capture_segments s join items i on i.id = s.item_id where s.agent = 'AGENT'")
        );
        assert!(c["items"].as_i64().unwrap() >= 1, "{c}");
        let expected = if agent == "claude-code" { "c-1" } else { "x-1" };
        let session: String = lib
            .conn()
            .query_row(
                "select distinct session from capture_segments where agent = ?1",
                [agent],
                |r| r.get(0),
            )
            .unwrap();
        assert!(session.starts_with(expected), "{session}");
        assert_eq!(c["last_session"], session.as_str());
        assert_eq!(c["last_session_items"], c["items"]);
        let newest: String = lib
            .conn()
            .query_row(
                "select max(i.imported_at) from capture_segments s join items i on i.id = s.item_id where s.agent = ?1",
                [agent],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(c["last_at"], newest.as_str());
    }
    assert_eq!(doc["hook_failures"], json!([]));
    assert_eq!(doc["wipe_pending"], Value::Null);
    assert_eq!(doc["vectors"], Value::Null);
    let text = lib.run(&["status"]).ok();
    assert!(
        text.stdout.contains(&format!(
            "library {}: {} items",
            lib.db.display(),
            facts["items"]
        )),
        "{}",
        text.stdout
    );
    assert!(text.stdout.trim_end().ends_with("nothing needs attention"));
}

/// Class: a capture the hook started that fails (the library locked past its busy
/// timeout). Its problem is in the failure log and in the session state, `status` lists
/// both and exits 1 with what to do; once the hook's next end captures the session,
/// `status` is healthy again and keeps the failure as history.
#[test]
fn a_failed_capture_is_logged_and_needs_attention_until_one_commits() {
    let (lib, shop) = sample();
    let config = lib.path("recall.toml");
    std::fs::write(&config, "[storage]\nbusy_timeout_ms = 200\n").unwrap();
    let config = config.to_str().unwrap().to_string();
    let args = ["--config", config.as_str(), "--json"];
    let transcript = lib.path("failed.jsonl");
    claude_transcript(
        &transcript,
        "F",
        &shop,
        "Why is the quokka feed late?",
        "Its cron runs in UTC.",
    );
    let writer = lib.conn();
    writer
        .execute_batch(
            "begin immediate; insert into recall_meta (key, value) values ('held', 'x');",
        )
        .unwrap();
    let out = hook(&lib, &args, &end("F", &shop, &transcript));
    assert_eq!(out.json()["capture"], "started", "{out:?}");
    wait_gone(out.json()["pid"].as_u64().unwrap());
    let lines = logged(&failures_log(&lib));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["event"], "capture");
    assert_eq!(lines[0]["session"], "F");
    assert_eq!(lines[0]["library"], lib.db.display().to_string());
    assert!(lines[0]["reason"].as_str().unwrap().contains("locked"));
    let (code, doc) = status(&lib, &["--config", config.as_str()]);
    assert_eq!(code, 1, "{doc:#}");
    assert_eq!(doc["healthy"], false);
    let failed = &doc["failed_captures"][0];
    assert_eq!(failed["session"], "F");
    assert_eq!(failed["transcript"], transcript.to_str().unwrap());
    assert_eq!(failed["attempts"], 1);
    assert!(failed["problem"].as_str().unwrap().contains("locked"));
    assert_eq!(doc["hook_failures"][0]["event"], "capture");
    assert_eq!(doc["hook_failures_since_success"], 1);
    let todo = attention(&doc);
    assert!(
        todo.iter().any(
            |(what, todo)| what.contains("the capture of session F failed")
                && todo.contains(&format!("capture {}", transcript.display()))
        ),
        "{todo:?}"
    );
    writer.execute_batch("rollback").unwrap();
    // The next end captures it: healthy, the failure kept in the log's history.
    let again = hook(&lib, &args, &end("F", &shop, &transcript));
    assert_eq!(again.json()["capture"], "started", "{again:?}");
    wait_gone(again.json()["pid"].as_u64().unwrap());
    let (code, doc) = status(&lib, &["--config", config.as_str()]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(doc["failed_captures"], json!([]));
    assert_eq!(doc["hook_failures_total"], 1);
    assert_eq!(doc["hook_failures_since_success"], 0);
    assert!(doc["last_success"].as_str().unwrap() >= lines[0]["at"].as_str().unwrap());
}

/// A `recall` command with `RECALL_DB` set and no `--db`, as an agent's settings run it.
fn with_recall_db(db: &Path) -> Command {
    let mut cmd = Command::new(recall_bin());
    cmd.env("RECALL_DB", db)
        .env_remove("RECALL_CONFIG")
        .env_remove("RECALL_TOKENIZER");
    cmd
}

/// Class: failures of the hook before any capture: a library moved away from the path
/// the hook is given (`RECALL_DB`), a payload that is no JSON. Each is one line in the
/// log beside that path (event, session when known, reason); `status` on the path says
/// there is no library, lists them and exits 1. A failure with no library named at all
/// is logged nowhere.
#[test]
fn a_moved_library_s_hook_failures_are_logged_and_status_says_so() {
    let lib = TempLib::new();
    let moved = lib.path("moved.db");
    let shop = lib.path("shop");
    std::fs::create_dir_all(&shop).unwrap();
    let transcript = lib.path("t.jsonl");
    claude_transcript(&transcript, "M", &shop, "Why?", "Because.");
    let out = Ran::from(pipe(
        with_recall_db(&moved).arg("hook"),
        &end("M", &shop, &transcript),
    ));
    assert_eq!(out.code, 0);
    assert!(out.stderr.contains("no library at"), "{out:?}");
    let out = Ran::from(pipe(with_recall_db(&moved).arg("hook"), "{not json"));
    assert_eq!(out.code, 0);
    let lines = logged(&PathBuf::from(format!("{}.failures", moved.display())));
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["event"], "SessionEnd");
    assert_eq!(lines[0]["session"], "M");
    assert!(lines[0]["reason"]
        .as_str()
        .unwrap()
        .contains("no library at"));
    assert_eq!(lines[0]["library"], moved.display().to_string());
    assert_eq!(lines[1]["event"], "hook");
    assert_eq!(lines[1]["session"], Value::Null);
    assert!(lines[1]["reason"]
        .as_str()
        .unwrap()
        .contains("not the hook's JSON"));
    let out = Ran::from(
        with_recall_db(&moved)
            .args(["--json", "status"])
            .output()
            .unwrap(),
    );
    assert_eq!(out.code, 1, "{out:?}");
    let doc = out.json();
    assert_eq!(doc["opened"], "missing");
    assert_eq!(doc["facts"], Value::Null);
    assert_eq!(doc["hook_failures_since_success"], 2);
    assert_eq!(doc["hook_failures"][0]["event"], "hook", "newest first");
    assert_eq!(doc["hook_failures"][1]["event"], "SessionEnd");
    let todo = attention(&doc);
    assert!(todo[0].0.contains("there is no library at"), "{todo:?}");
    assert!(todo[0].1.contains("init"), "{todo:?}");
    assert!(todo[1].0.contains("failed 2 times"), "{todo:?}");
    let text = Ran::from(with_recall_db(&moved).arg("status").output().unwrap());
    assert_eq!(text.code, 1);
    assert!(text.stdout.contains("no library at"), "{}", text.stdout);
    assert!(
        text.stdout.contains("SessionEnd session M: "),
        "{}",
        text.stdout
    );
    // No library named: nothing anywhere (the working folder stays as it was).
    let cwd = lib.path("elsewhere");
    std::fs::create_dir_all(&cwd).unwrap();
    let mut bare = Command::new(recall_bin());
    bare.env_remove("RECALL_DB").current_dir(&cwd).arg("hook");
    let out = Ran::from(pipe(&mut bare, "{not json"));
    assert_eq!(out.code, 0);
    assert_eq!(std::fs::read_dir(&cwd).unwrap().count(), 0);
}

/// Class: a forget's wipe left pending needs attention, with the command that finishes
/// it; once finished, none.
#[test]
fn a_pending_wipe_needs_attention_until_finished() {
    let (lib, _) = sample();
    lib.conn()
        .execute(
            "insert into recall_meta (key, value) values ('wipe_pending', '2026-01-02T03:04:05Z')",
            [],
        )
        .unwrap();
    let (code, doc) = status(&lib, &[]);
    assert_eq!(code, 1);
    assert_eq!(doc["wipe_pending"], "2026-01-02T03:04:05Z");
    let todo = attention(&doc);
    assert_eq!(todo.len(), 1, "{todo:?}");
    assert!(todo[0].0.contains("pending since 2026-01-02T03:04:05Z"));
    assert_eq!(todo[0].1, "run `recall forget --finish`");
    lib.run(&["forget", "--finish"]).ok();
    let (code, doc) = status(&lib, &[]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(doc["wipe_pending"], Value::Null);
}

/// Class: vectors not up to date. A vector table without vectors: every item missing;
/// embedded: none; an item replaced since: one outdated, as `recall embed` would see.
#[test]
fn vectors_out_of_date_need_attention() {
    let lib = TempLib::init(None);
    let items = [
        r#"{"id": 1, "source": "s", "title": "the okapi plan", "occurred_at": "2025-01-01T00:00:00Z"}"#,
        r#"{"id": 2, "source": "s", "title": "the quagga plan", "occurred_at": "2025-02-01T00:00:00Z"}"#,
    ];
    lib.import(&items.join("\n")).ok();
    lib.run(&["embed", "--model", "fake-bow", "--dimensions", "64"])
        .ok();
    let (code, doc) = status(&lib, &[]);
    assert_eq!(code, 1);
    assert_eq!(doc["vectors"]["missing"], 2);
    assert_eq!(doc["vectors"]["vectors"], 0);
    assert!(attention(&doc)
        .iter()
        .any(|(_, todo)| todo == "run `recall embed`"));
    let cmd = crate::common::vectors::fake("");
    lib.run(&["embed", "--embed-cmd", &cmd]).ok();
    let (code, doc) = status(&lib, &[]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(doc["vectors"]["vectors"], 2);
    assert_eq!(doc["vectors"]["missing"], 0);
    assert_eq!(doc["vectors"]["stale"], 0);
    std::thread::sleep(Duration::from_millis(1100));
    lib.import(r#"{"id": 1, "source": "s", "title": "the okapi plan, revised", "occurred_at": "2025-01-01T00:00:00Z"}"#)
        .ok();
    let (code, doc) = status(&lib, &[]);
    assert_eq!(code, 1, "{doc:#}");
    // The replaced item is the one the next `recall embed` embeds: its vector is gone
    // (missing) or older than its text (stale), and only it.
    let (missing, stale) = (
        doc["vectors"]["missing"].as_i64().unwrap(),
        doc["vectors"]["stale"].as_i64().unwrap(),
    );
    assert_eq!(missing + stale, 1, "{doc:#}");
    assert!(attention(&doc)
        .iter()
        .any(|(_, todo)| todo == "run `recall embed`"));
}

/// Class: `status` only reads. On a library this user cannot write, and on a Litestream
/// replica, it answers, and no file changes or appears beside the library.
#[test]
fn status_reads_a_read_only_library_and_a_replica_without_a_write() {
    let (lib, _) = sample();
    lib.checkpoint();
    let listing = |lib: &TempLib| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(lib.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let before = (lib.snapshot(), listing(&lib));
    let who = stranger();
    protect(&lib, who);
    let out = run_as(&lib, who, &["--json", "status"]);
    unprotect(&lib);
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        out.json()["facts"]["items"],
        lib.count("select count(*) from items")
    );
    assert_eq!((lib.snapshot(), listing(&lib)), before);
    std::fs::write(format!("{}-txid", lib.db.display()), "00000000000000a3\n").unwrap();
    let before = (lib.snapshot(), listing(&lib));
    let (code, doc) = status(&lib, &[]);
    assert_eq!(code, 0, "{doc:#}");
    assert!(doc["facts"]["replica"]
        .as_str()
        .unwrap()
        .contains("Litestream replica"));
    assert_eq!((lib.snapshot(), listing(&lib)), before);
}

/// Class: the log's bound. A log at its size limit is renamed `.1` (replacing the one
/// before) when the next failure comes, so that the two never hold much more than twice
/// the limit; `status` reads both.
#[test]
fn the_failure_log_is_rotated_at_its_bound() {
    let (lib, _) = sample();
    let log = failures_log(&lib);
    let rotated = PathBuf::from(format!("{}.1", log.display()));
    let line = |i: usize| {
        json!({"at": "2026-01-01T00:00:00Z", "event": "SessionEnd", "session": format!("s{i}"),
            "reason": "the transcript cannot be read", "library": lib.db.display().to_string()})
        .to_string()
            + "\n"
    };
    let limit = recall_cli::status::log::MAX_BYTES as usize;
    let mut full = String::new();
    let mut n = 0;
    while full.len() < limit {
        full.push_str(&line(n));
        n += 1;
    }
    std::fs::write(&log, &full).unwrap();
    std::fs::write(&rotated, "an old line\n").unwrap();
    hook(&lib, &[], "{not json");
    assert_eq!(std::fs::read_to_string(&rotated).unwrap(), full);
    let now = logged(&log);
    assert_eq!(now.len(), 1);
    assert_eq!(now[0]["event"], "hook");
    // `status` reads the last MAX_BYTES of each file: a log longer than that loses its
    // first line, torn at the cut.
    let whole = if full.len() > limit { n - 1 } else { n };
    let (_, doc) = status(&lib, &[]);
    assert_eq!(doc["hook_failures_total"], whole + 1);
    assert_eq!(doc["hook_failures"][0]["event"], "hook");
    assert_eq!(doc["hook_failures"][1]["session"], format!("s{}", n - 1));
    // Below the bound, lines are appended.
    hook(&lib, &[], "{not json");
    assert_eq!(logged(&log).len(), 2);
    assert!(std::fs::metadata(&log).unwrap().len() < limit as u64);
}

/// The context a `SessionStart` output adds.
fn context(out: &Ran) -> String {
    let doc: Value = serde_json::from_str(out.stdout.trim()).expect("one JSON object");
    doc["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .expect("a context")
        .to_string()
}

/// Class: the session start's mention of a failure. After a failure of the hook, the
/// next start's context has one line naming it, after the memory block and before the
/// usage line; the start after that has none; a later failure is mentioned again, once.
#[test]
fn a_session_start_mentions_a_failure_once() {
    let (lib, shop) = sample();
    let plain = context(&hook(&lib, &[], &start("A", &shop)));
    hook(&lib, &[], "{not json");
    let first = context(&hook(&lib, &[], &start("B", &shop)));
    let lines: Vec<&str> = first.lines().collect();
    let usage = lines.len() - 1;
    let notice = lines[usage - 1];
    assert!(
        notice.starts_with("recall: the session hook failed at ")
            && notice.contains("(hook: standard input is not the hook's JSON")
            && notice.ends_with(&format!(
                "; run `{} status`",
                crate::hook_reach::shell_line(&lib)
            )),
        "{first}"
    );
    assert!(lines[usage].starts_with("How to use the recall memory"));
    assert!(
        lines[usage - 2].contains("recall-memory") || lines[usage - 2].starts_with('<'),
        "after the block: {first}"
    );
    assert_eq!(first.replace(&format!("{notice}\n"), ""), plain);
    let second = context(&hook(&lib, &[], &start("C", &shop)));
    assert_eq!(second, plain, "mentioned once");
    // Failures are told to the second: a new one in a later second is mentioned again.
    std::thread::sleep(Duration::from_millis(1100));
    hook(&lib, &[], r#"{"hook_event_name": "UserPromptSubmit"}"#);
    let third = context(&hook(&lib, &[], &start("D", &shop)));
    assert!(
        third.contains("no \\\"prompt\\\" field") || third.contains("no \"prompt\" field"),
        "{third}"
    );
    assert_eq!(context(&hook(&lib, &[], &start("E", &shop))), plain);
}

/// Class: no library at the path. `status` says so and how to make one, exits 1, and
/// creates nothing; a mistyped flag is a usage error, exit 2.
#[test]
fn a_missing_library_is_named_with_how_to_make_one() {
    let lib = TempLib::new();
    let (code, doc) = status(&lib, &[]);
    assert_eq!(code, 1, "{doc:#}");
    assert_eq!(doc["healthy"], false);
    assert!(attention(&doc)
        .iter()
        .any(|(what, todo)| what.contains("no library") && todo.contains("init")));
    assert!(!lib.db.exists());
    let text = lib.run(&["status"]);
    assert_eq!(text.code, 1);
    assert!(text.stdout.contains("init"), "{text:?}");
    assert!(!lib.db.exists());
    assert_eq!(lib.run(&["status", "--no-such-flag"]).code, 2);
}

/// A blank project name (empty, or spaces only) is no project, by every route that writes
/// an item; a library written before that rule, which holds blank names, is counted the
/// same way: one group of no project, and "N of M" counting what the list counts.
#[test]
fn blank_projects_are_no_project_and_counted_as_listed() {
    let lib = TempLib::init(None);
    let names = [
        Some(""),
        Some("   "),
        None,
        Some("api"),
        Some("api"),
        Some("web"),
    ];
    let lines: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut v = json!({"source": "notes", "title": format!("note {i}"),
                "summary": "x", "occurred_at": "2025-01-01"});
            if let Some(p) = p {
                v["project"] = json!(p);
            }
            v.to_string()
        })
        .collect();
    lib.import(&(lines.join("\n") + "\n")).ok();
    lib.run(&[
        "add",
        "--source",
        "s",
        "--title",
        "added",
        "--project",
        "\t",
    ])
    .ok();
    assert_eq!(
        lib.count("select count(*) from items where project is null"),
        4,
        "blank names are stored as none, by import and by add"
    );
    // A library written before the rule: blank names stored as they were given.
    lib.conn()
        .execute_batch(
            "insert into items (source, project, title, summary, questions, atoms, occurred_at)
             values ('old', '', 'old blank', '', '', '', '2024-01-01'),
                    ('old', ' ', 'old spaces', '', '', '', '2024-01-01')",
        )
        .expect("insert old rows");
    let (_, doc) = status(&lib, &[]);
    let facts = &doc["facts"];
    let listed: Vec<(Value, i64)> = facts["projects"]
        .as_array()
        .expect("projects")
        .iter()
        .map(|c| (c["name"].clone(), c["items"].as_i64().unwrap_or(-1)))
        .collect();
    assert_eq!(
        listed,
        vec![(Value::Null, 6), (json!("api"), 2), (json!("web"), 1)]
    );
    assert_eq!(facts["projects_total"], 3);
    let text = lib.run(&["status"]).stdout;
    assert!(
        text.contains("  by project (3 of 3): (none) 6, api 2, web 1\n"),
        "{text}"
    );
}

/// Under access globs (`--allow`, or the configuration's `[access] allow`) status counts
/// only the items of the sources they allow: the total, the sources, the projects, and
/// each agent's captures; no other source or project is named.
#[test]
fn status_under_access_globs_names_only_allowed_items() {
    let (lib, _) = sample();
    let sessions = root().join("examples/sessions");
    lib.run(&["capture", sessions.to_str().unwrap()]).ok();
    let allowed = |source: &str| source.starts_with("agent-") || source == "codex";
    let all: Vec<(String, Option<String>)> = {
        let conn = lib.conn();
        let mut stmt = conn.prepare("select source, project from items").unwrap();
        let rows = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<Vec<_>, _>>()
            .unwrap();
        rows
    };
    let mine: Vec<&(String, Option<String>)> = all.iter().filter(|(s, _)| allowed(s)).collect();
    assert!(mine.len() < all.len() && !mine.is_empty());
    let mut sources = BTreeMap::new();
    let mut projects = BTreeMap::new();
    for (s, p) in &mine {
        *sources.entry(s.clone()).or_insert(0) += 1;
        *projects
            .entry(p.clone().unwrap_or("(none)".into()))
            .or_insert(0) += 1;
    }
    let config = lib.path("access.toml");
    std::fs::write(&config, "[access]\nallow = [\"agent-*\", \"codex\"]\n").unwrap();
    let config = config.to_str().unwrap();
    for (before, after) in [
        (vec![], vec!["--allow", "agent-*", "--allow", "codex"]),
        (vec!["--config", config], vec![]),
    ] {
        let json = [&before[..], &["--json", "status"], &after[..]].concat();
        let ran = lib.run(&json);
        let (code, doc) = (ran.code, ran.json());
        assert_eq!(code, 0, "{doc:#}");
        let facts = &doc["facts"];
        assert_eq!(facts["items"], mine.len(), "{json:?}");
        assert_eq!(counted(&facts["sources"]), sources);
        let top: BTreeMap<String, i64> = counted(&facts["projects"]);
        assert!(
            top.iter().all(|(p, n)| projects.get(p) == Some(n)),
            "{top:?}"
        );
        assert_eq!(facts["projects_total"], projects.len());
        let agents: Vec<&str> = doc["captures"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["agent"].as_str())
            .collect();
        // The Claude Code sessions' items are of source claude-code: not allowed.
        assert_eq!(agents, ["codex"], "{json:?}");
        let text = lib
            .run(&[&before[..], &["status"], &after[..]].concat())
            .stdout;
        for forbidden in all.iter().filter(|(s, _)| !allowed(s)) {
            assert!(!text.contains(&forbidden.0), "{} in {text}", forbidden.0);
        }
    }
    // Without globs, every source.
    let (_, doc) = status(&lib, &[]);
    assert_eq!(doc["facts"]["items"], all.len());
}
