//! Items that belong to their session, in the shapes the agents really write: the
//! record types of Claude Code 2.1 and Codex 0.169 known; files holding no conversation
//! skipped and counted, never problems; a `summary` titling only the session holding
//! its `leafUuid` (in whichever file, in this capture or a later one); segments with no
//! work (typed commands, program text, questions to the agent about itself in several
//! languages, prompts never answered) no item; a resumed copy and a side question not
//! items again; home and system folders no project, subfolders their repository's; and
//! the session start telling the newest session of real work, once, without sub-agents.
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::common::cli::{two_columns, TempLib};

/// A Claude Code transcript writer: records of one session, each with a uuid chained
/// to the one before, as versions 1.0 to 2.1 write them.
struct Claude {
    session: String,
    cwd: String,
    lines: Vec<Value>,
    last: Option<String>,
}

impl Claude {
    fn new(session: &str, cwd: &str) -> Claude {
        Claude {
            session: session.into(),
            cwd: cwd.into(),
            lines: Vec::new(),
            last: None,
        }
    }

    fn record(&mut self, kind: &str, uuid: &str, at: &str, message: Value) -> &mut Claude {
        self.lines.push(json!({
            "parentUuid": self.last, "isSidechain": false, "userType": "external",
            "cwd": self.cwd, "sessionId": self.session, "version": "2.1.328",
            "gitBranch": "main", "type": kind, "message": message, "uuid": uuid,
            "timestamp": at,
        }));
        self.last = Some(uuid.into());
        self
    }

    fn ask(&mut self, uuid: &str, at: &str, text: &str) -> &mut Claude {
        self.record(
            kind_user(),
            uuid,
            at,
            json!({"role": "user", "content": text}),
        )
    }

    fn answer(&mut self, uuid: &str, at: &str, text: &str) -> &mut Claude {
        self.record(
            "assistant",
            uuid,
            at,
            json!({"id": format!("msg_{uuid}"), "type": "message", "role": "assistant",
                   "model": "claude-sonnet-4-5",
                   "content": [{"type": "text", "text": text}]}),
        )
    }

    /// A Bash call and its output: work.
    fn run(&mut self, uuid: &str, at: &str, command: &str, output: &str) -> &mut Claude {
        let id = format!("toolu_{uuid}");
        self.record(
            "assistant",
            &format!("{uuid}-call"),
            at,
            json!({"id": format!("msg_{uuid}"), "type": "message", "role": "assistant",
                   "model": "claude-sonnet-4-5",
                   "content": [{"type": "tool_use", "id": id, "name": "Bash",
                                "input": {"command": command, "description": "Run it"}}]}),
        );
        self.record(
            kind_user(),
            &format!("{uuid}-out"),
            at,
            json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id,
                    "content": output, "is_error": false}]}),
        )
    }

    fn raw(&mut self, v: Value) -> &mut Claude {
        self.lines.push(v);
        self
    }

    fn write(&self, path: &Path) -> PathBuf {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let text: Vec<String> = self.lines.iter().map(Value::to_string).collect();
        std::fs::write(path, text.join("\n") + "\n").unwrap();
        path.to_path_buf()
    }
}

fn kind_user() -> &'static str {
    "user"
}

/// A Codex rollout of version 0.169 (the envelope), one request answered.
fn codex(dir: &Path, id: &str, cwd: &str, prompt: &str, answer: &str, work: bool) -> PathBuf {
    let at = "2026-11-02T09:00:00.000Z";
    let mut lines = vec![
        json!({"timestamp": at, "type": "session_meta", "payload": {"id": id, "timestamp": at,
            "cwd": cwd, "originator": "codex_cli_rs", "cli_version": "0.169.0",
            "source": "cli", "model_provider": "openai"}}),
        json!({"timestamp": at, "type": "turn_context", "payload": {"cwd": cwd,
            "approval_policy": "on-request", "model": "gpt-5.5"}}),
        json!({"timestamp": at, "type": "response_item", "payload": {"type": "message",
            "role": "user", "content": [{"type": "input_text", "text": prompt}]}}),
    ];
    if work {
        lines.push(
            json!({"timestamp": at, "type": "response_item", "payload": {
            "type": "function_call", "name": "exec_command", "call_id": "call_1",
            "arguments": "{\"cmd\":\"cargo test\"}"}}),
        );
        lines.push(
            json!({"timestamp": at, "type": "response_item", "payload": {
            "type": "function_call_output", "call_id": "call_1",
            "output": "test result: ok. 3 passed"}}),
        );
    }
    lines.push(
        json!({"timestamp": "2026-11-02T09:01:00.000Z", "type": "response_item",
        "payload": {"type": "message", "role": "assistant",
                    "content": [{"type": "output_text", "text": answer}]}}),
    );
    lines.push(
        json!({"timestamp": "2026-11-02T09:01:00.000Z", "type": "token_usage_record",
        "payload": {"response_id": "resp_1", "usage": {"input_tokens": 10, "output_tokens": 3}}}),
    );
    lines.push(
        json!({"timestamp": "2026-11-02T09:01:00.000Z", "type": "world_state",
        "payload": {"full": true, "state": {"environments": {}}}}),
    );
    let path = dir.join(format!("rollout-2026-11-02T09-00-00-{id}.jsonl"));
    let text: Vec<String> = lines.iter().map(Value::to_string).collect();
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(&path, text.join("\n") + "\n").unwrap();
    path
}

fn capture(lib: &TempLib, paths: &[&Path]) -> (i32, Value) {
    let mut args = vec!["--json".to_string(), "capture".to_string()];
    args.extend(paths.iter().map(|p| p.to_str().unwrap().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = lib.run(&args);
    let doc = serde_json::from_str(out.stdout.trim()).unwrap_or(Value::Null);
    (out.code, doc)
}

/// Each item's title and project, by title.
fn items(lib: &TempLib) -> Vec<(String, Option<String>)> {
    let conn = lib.conn();
    let mut stmt = conn
        .prepare("select title, project from items order by title")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn titles(lib: &TempLib) -> Vec<String> {
    items(lib).into_iter().map(|(t, _)| t).collect()
}

#[test]
fn the_agents_bookkeeping_records_are_known() {
    let lib = TempLib::init(None);
    let dir = lib.path("sessions");
    let mut c = Claude::new("0a000000-0000-4000-8000-000000000001", "/nowhere/books");
    c.ask(
        "u1",
        "2026-11-02T10:00:00.000Z",
        "Why is the ledger total off by one?",
    );
    let s = "0a000000-0000-4000-8000-000000000001";
    for kind in [
        "api-request",
        "api-request-shape",
        "atis-latch",
        "cost-state",
        "tools-used",
    ] {
        c.raw(json!({"type": kind, "sessionId": s, "timestamp": "2026-11-02T10:00:01.000Z"}));
    }
    // The request's parameters: it carries a message, but no turn of the conversation.
    c.raw(
        json!({"type": "api-request-blob", "sessionId": s, "hash": "h1",
        "message": {"role": "user", "content": "Why is the ledger total off by one?"}}),
    );
    c.run(
        "u2",
        "2026-11-02T10:00:05.000Z",
        "cargo test ledger",
        "test result: ok",
    );
    c.answer(
        "u3",
        "2026-11-02T10:00:09.000Z",
        "The loop skipped the last row; fixed.",
    );
    // A type no version wrote yet: without a message it is the program's bookkeeping,
    // with one it may hold what was said, and is listed.
    c.raw(json!({"type": "orbit-latch", "sessionId": s, "latched": true}));
    c.raw(
        json!({"type": "side-turn", "sessionId": s, "message": {"role": "user", "content": "x"}}),
    );
    let claude = c.write(&dir.join("-nowhere-books").join(format!("{s}.jsonl")));
    let rollout = codex(
        &dir.join("2026/11/02"),
        "019e2000-0000-7000-8000-000000000001",
        "/nowhere/books",
        "Make the ledger export CSV",
        "Export writes CSV now; tests pass.",
        true,
    );
    let (code, doc) = capture(&lib, &[&claude, &rollout]);
    assert_eq!(code, 0, "{doc}");
    let skipped = doc["skipped"].as_object().unwrap();
    let listed: Vec<&String> = skipped.keys().filter(|k| k.starts_with("type:")).collect();
    assert_eq!(listed, vec!["type:side-turn"], "{doc}");
    assert_eq!(doc["program_records"], json!({"orbit-latch": 1}), "{doc}");
    assert_eq!(titles(&lib).len(), 2);
}

#[test]
fn files_without_conversation_are_skipped_and_counted() {
    let lib = TempLib::init(None);
    let dir = lib.path("projects/-nowhere-quiet");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("0b000000-0000-4000-8000-000000000001.jsonl"), "").unwrap();
    std::fs::write(
        dir.join("0b000000-0000-4000-8000-000000000002.jsonl"),
        "\n\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("0b000000-0000-4000-8000-000000000003.jsonl"),
        "{\"type\":\"file-history-snapshot\",\"messageId\":\"m1\",\"snapshot\":{\"messageId\":\"m1\",\"trackedFileBackups\":{},\"timestamp\":\"2026-11-02T10:00:00.000Z\"},\"isSnapshotUpdate\":false}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("0b000000-0000-4000-8000-000000000004.jsonl"),
        "{\"type\":\"summary\",\"summary\":\"Ledger fix\",\"leafUuid\":\"gone-1\"}\n{\"type\":\"summary\",\"summary\":\"CSV export\",\"leafUuid\":\"gone-2\"}\n",
    )
    .unwrap();
    // A record still being written, cut short.
    std::fs::write(
        dir.join("0b000000-0000-4000-8000-000000000005.jsonl"),
        "{\"type\":\"user\",\"message\":{\"role\":\"us",
    )
    .unwrap();
    let meta = json!({"timestamp": "2026-11-02T09:00:00.000Z", "type": "session_meta",
        "payload": {"id": "019e2000-0000-7000-8000-0000000000aa", "cwd": "/nowhere/quiet",
                    "cli_version": "0.169.0"}});
    let codex_dir = lib.path("sessions/2026/11/02");
    std::fs::create_dir_all(&codex_dir).unwrap();
    std::fs::write(
        codex_dir.join("rollout-2026-11-02T09-00-00-019e2000-0000-7000-8000-0000000000aa.jsonl"),
        format!("{meta}\n"),
    )
    .unwrap();
    let root = lib.path("");
    let (code, doc) = capture(&lib, &[&root.join("projects"), &root.join("sessions")]);
    assert_eq!(code, 0, "no problem: {doc}");
    assert_eq!(doc["files_without_conversation"], 6, "{doc}");
    assert_eq!(doc["problems"], 0, "{doc}");
    assert_eq!(doc["files_not_sessions"], 0, "{doc}");
    // A file that is no agent's is still told.
    std::fs::write(dir.join("notes.jsonl"), "{\"hello\":1}\n").unwrap();
    let (code, doc) = capture(&lib, &[&root.join("projects")]);
    assert_eq!(
        (code, doc["files_not_sessions"].as_u64()),
        (1, Some(1)),
        "{doc}"
    );
}

/// Two sessions of one project folder: `old` worked on the ledger; `new`, started
/// later, opens with Claude Code's summary of `old` (its leafUuid is `old`'s last
/// record) and a summary naming a record of no file.
fn summarised(dir: &Path) -> (PathBuf, PathBuf) {
    let old_id = "0c000000-0000-4000-8000-000000000001";
    let new_id = "0c000000-0000-4000-8000-000000000002";
    let mut old = Claude::new(old_id, "/nowhere/ledger");
    old.ask("o1", "2026-11-01T10:00:00.000Z", "the totals are wrong");
    old.run(
        "o2",
        "2026-11-01T10:01:00.000Z",
        "cargo test totals",
        "1 failed",
    );
    old.answer(
        "o3",
        "2026-11-01T10:02:00.000Z",
        "Fixed the rounding of the totals.",
    );
    let mut new = Claude::new(new_id, "/nowhere/ledger");
    new.raw(json!({"type": "summary", "summary": "Ledger totals rounding fix", "leafUuid": "o3"}));
    new.raw(json!({"type": "summary", "summary": "A session long gone", "leafUuid": "zz9"}));
    new.ask(
        "n1",
        "2026-11-03T09:00:00.000Z",
        "Add a CSV export of the ledger",
    );
    new.run(
        "n2",
        "2026-11-03T09:01:00.000Z",
        "cargo test export",
        "test result: ok",
    );
    new.answer("n3", "2026-11-03T09:02:00.000Z", "The export writes CSV.");
    (
        old.write(&dir.join(format!("{old_id}.jsonl"))),
        new.write(&dir.join(format!("{new_id}.jsonl"))),
    )
}

#[test]
fn a_summary_titles_the_session_holding_its_leaf() {
    let want = vec![
        "Add a CSV export of the ledger".to_string(),
        "Ledger totals rounding fix".to_string(),
    ];
    // Both files in one capture, whichever is read first.
    let lib = TempLib::init(None);
    let dir = lib.path("projects/-nowhere-ledger");
    let (old, new) = summarised(&dir);
    capture(&lib, &[&lib.path("projects")]);
    assert_eq!(titles(&lib), want);
    // The summarising file read alone first, then its owner.
    let lib = TempLib::init(None);
    let dir = lib.path("projects/-nowhere-ledger");
    let (o, n) = summarised(&dir);
    capture(&lib, &[&n]);
    assert_eq!(titles(&lib), vec!["Add a CSV export of the ledger"]);
    capture(&lib, &[&o]);
    assert_eq!(titles(&lib), want);
    // The owner captured before the summary existed: the new file's capture (as the
    // session hook runs it, on that file alone) gives the owner its title, in place.
    let lib = TempLib::init(None);
    let dir = lib.path("projects/-nowhere-ledger");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(&old, dir.join(old.file_name().unwrap())).unwrap();
    capture(&lib, &[&dir]);
    assert_eq!(titles(&lib), vec!["the totals are wrong"]);
    let id: i64 = lib
        .conn()
        .query_row("select id from items", [], |r| r.get(0))
        .unwrap();
    let copied = dir.join(new.file_name().unwrap());
    std::fs::copy(&new, &copied).unwrap();
    let (_, doc) = capture(&lib, &[&copied]);
    assert_eq!(doc["replaced"], 1, "{doc}");
    assert_eq!(titles(&lib), want);
    let kept: i64 = lib
        .conn()
        .query_row(
            "select id from items where title = 'Ledger totals rounding fix'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(kept, id, "replaced in place");
    // A summary of its own file names the segment it ends: that one only.
    let lib = TempLib::init(None);
    let mut one = Claude::new("0c000000-0000-4000-8000-000000000003", "/nowhere/ledger");
    one.raw(json!({"type": "summary", "summary": "Parser rewrite", "leafUuid": "p3"}));
    one.ask("p1", "2026-11-01T08:00:00.000Z", "rewrite the parser");
    one.run("p2", "2026-11-01T08:01:00.000Z", "cargo test parse", "ok");
    one.answer("p3", "2026-11-01T08:02:00.000Z", "Rewritten.");
    one.ask("p4", "2026-11-01T15:00:00.000Z", "now the lexer");
    one.run("p5", "2026-11-01T15:01:00.000Z", "cargo test lex", "ok");
    one.answer("p6", "2026-11-01T15:02:00.000Z", "Done.");
    let path = one.write(&lib.path("projects/-nowhere-ledger/one.jsonl"));
    capture(&lib, &[&path]);
    assert_eq!(titles(&lib), vec!["Parser rewrite", "now the lexer"]);
}

#[test]
fn segments_without_work_make_no_item() {
    let lib = TempLib::init(None);
    let dir = lib.path("projects/-nowhere-noise");
    let none: &[(&str, Option<&str>)] = &[
        ("claude -r", None),
        ("claude --resume 0d3f9a2b", Some("No conversation found.")),
        ("--history", None),
        ("usage", Some("Did you mean /usage?")),
        ("whoami", Some("You are talking to Claude Code.")),
        (
            "<command-name>/model</command-name>\n<command-message>model</command-message>",
            None,
        ),
        (
            "Update available! Run: brew upgrade claude-code",
            Some("Noted."),
        ),
        ("Unknown slash command: theme", Some("Try /config.")),
        (
            "What model rae you?",
            Some("I'm Claude, a model made by Anthropic."),
        ),
        (
            "你是啥模型？",
            Some("我是 Claude，由 Anthropic 开发的模型。"),
        ),
        (
            "¿Qué modelo eres?",
            Some("Soy Claude, un modelo de Anthropic."),
        ),
        ("wer bist du", Some("Ich bin Claude von Anthropic.")),
        ("こんにちわ", Some("こんにちは！何をお手伝いしましょうか？")),
        ("はろー", Some("はい、ご用件をどうぞ。")),
        ("こんにちはー", Some("こんにちは。")),
        ("接続試験です。短くOKだけ返答してください。", Some("OK")),
        ("connection check, reply with ok only", Some("ok")),
        ("ping the agent, answer pong", Some("pong")),
        ("Refactor the parser into modules", None),
    ];
    for (i, (prompt, answer)) in none.iter().enumerate() {
        let mut c = Claude::new(
            &format!("0d000000-0000-4000-8000-0000000000{i:02}"),
            "/nowhere/noise",
        );
        c.ask(&format!("a{i}"), "2026-11-02T10:00:00.000Z", prompt);
        if let Some(a) = answer {
            c.answer(&format!("b{i}"), "2026-11-02T10:00:05.000Z", a);
        }
        c.write(&dir.join(format!("s{i:02}.jsonl")));
    }
    // Work, with noise around it: the title is the request the agent took up, framed
    // text without its frame.
    let mut w = Claude::new("0d000000-0000-4000-8000-000000000099", "/nowhere/noise");
    w.ask(
        "w1",
        "2026-11-02T11:00:00.000Z",
        "Refactor the parser into modules",
    );
    w.raw(json!({"type": "user", "sessionId": "0d000000-0000-4000-8000-000000000099",
        "cwd": "/nowhere/noise", "uuid": "w2", "timestamp": "2026-11-02T11:00:02.000Z",
        "message": {"role": "user", "content": [{"type": "text", "text": "[Request interrupted by user]"}]}}));
    w.ask(
        "w3",
        "2026-11-02T11:00:10.000Z",
        "│ > fix the flaky login test                │",
    );
    w.run(
        "w4",
        "2026-11-02T11:01:00.000Z",
        "npm test login",
        "1 passing",
    );
    w.answer(
        "w5",
        "2026-11-02T11:02:00.000Z",
        "The login test waits for the form now.",
    );
    w.write(&dir.join("work.jsonl"));
    // Codex: the `/review` preset, a question about itself, and work.
    let sessions = lib.path("sessions/2026/11/02");
    codex(
        &sessions,
        "019e2000-0000-7000-8000-000000000011",
        "/nowhere/noise",
        "Review the current code changes (staged, unstaged, and untracked files) and provide prioritized findings.",
        "No issues found.",
        false,
    );
    codex(
        &sessions,
        "019e2000-0000-7000-8000-000000000012",
        "/nowhere/noise",
        "what modle are you",
        "I am Codex, based on GPT-5.5 by OpenAI.",
        false,
    );
    codex(
        &sessions,
        "019e2000-0000-7000-8000-000000000013",
        "/nowhere/noise",
        "Make the CSV export stream rows",
        "It streams rows now; tests pass.",
        true,
    );
    let (code, doc) = capture(&lib, &[&lib.path("projects"), &lib.path("sessions")]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(
        titles(&lib),
        vec![
            "Make the CSV export stream rows",
            "fix the flaky login test"
        ],
        "{doc}"
    );
}

#[test]
fn copies_of_a_conversation_are_one_item() {
    let lib = TempLib::init(None);
    let dir = lib.path("projects/-nowhere-copies");
    let first = "0e000000-0000-4000-8000-000000000001";
    let resumed = "0e000000-0000-4000-8000-000000000002";
    let old_shape = "0e000000-0000-4000-8000-000000000003";
    let mut a = Claude::new(first, "/nowhere/copies");
    a.ask(
        "c1",
        "2026-11-01T10:00:00.000Z",
        "Speed up the import of orders",
    );
    a.run(
        "c2",
        "2026-11-01T10:01:00.000Z",
        "cargo bench import",
        "import: 2.1 s",
    );
    a.answer(
        "c3",
        "2026-11-01T10:02:00.000Z",
        "Batched the inserts: 0.4 s now.",
    );
    a.write(&dir.join(format!("{first}.jsonl")));
    // `claude -r` (2.1): the new file opens with copies of the records, same uuids and
    // times, under its own session id; then the new work.
    let mut b = Claude::new(resumed, "/nowhere/copies");
    b.ask(
        "c1",
        "2026-11-01T10:00:00.000Z",
        "Speed up the import of orders",
    );
    b.run(
        "c2",
        "2026-11-01T10:01:00.000Z",
        "cargo bench import",
        "import: 2.1 s",
    );
    b.answer(
        "c3",
        "2026-11-01T10:02:00.000Z",
        "Batched the inserts: 0.4 s now.",
    );
    b.ask(
        "d1",
        "2026-11-01T10:30:00.000Z",
        "Now the import of invoices",
    );
    b.run(
        "d2",
        "2026-11-01T10:31:00.000Z",
        "cargo bench invoices",
        "invoices: 0.3 s",
    );
    b.answer(
        "d3",
        "2026-11-01T10:32:00.000Z",
        "Invoices batched as well.",
    );
    b.write(&dir.join(format!("{resumed}.jsonl")));
    // Version 1.0: the copies keep the earlier session's id.
    let mut c = Claude::new(first, "/nowhere/copies");
    c.ask(
        "c1",
        "2026-11-01T10:00:00.000Z",
        "Speed up the import of orders",
    );
    c.run(
        "c2",
        "2026-11-01T10:01:00.000Z",
        "cargo bench import",
        "import: 2.1 s",
    );
    c.answer(
        "c3",
        "2026-11-01T10:02:00.000Z",
        "Batched the inserts: 0.4 s now.",
    );
    c.session = old_shape.into();
    c.ask(
        "e1",
        "2026-11-01T16:00:00.000Z",
        "Add a progress bar to the import",
    );
    c.run(
        "e2",
        "2026-11-01T16:01:00.000Z",
        "cargo run -- import",
        "100%",
    );
    c.answer(
        "e3",
        "2026-11-01T16:02:00.000Z",
        "The import shows its progress.",
    );
    c.write(&dir.join(format!("{old_shape}.jsonl")));
    // A side question (2.1): the conversation replayed, one aside answered.
    let mut aside = Claude::new(first, "/nowhere/copies");
    aside.ask(
        "c1",
        "2026-11-01T10:00:00.000Z",
        "Speed up the import of orders",
    );
    aside.ask(
        "f1",
        "2026-11-01T10:05:00.000Z",
        "btw what does batching change here?",
    );
    aside.answer("f2", "2026-11-01T10:05:05.000Z", "Fewer round trips.");
    aside.write(
        &dir.join(first)
            .join("subagents")
            .join("agent-aside_question-5ce17f65.jsonl"),
    );
    let (code, doc) = capture(&lib, &[&lib.path("projects")]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(
        titles(&lib),
        vec![
            "Add a progress bar to the import",
            "Now the import of invoices",
            "Speed up the import of orders",
        ],
        "{doc}"
    );
    let orders: i64 =
        lib.count("select count(*) from items where transcript like '%Speed up the import%'");
    assert_eq!(orders, 1, "the copied request is in one item only");
}

#[test]
fn home_and_system_folders_are_no_project_and_subfolders_their_repository() {
    let lib = TempLib::init(None);
    let projects = lib.path("projects");
    let homes = [
        ("/home/alice", "Tidy the shell aliases"),
        ("/Users/bob", "Upgrade the brew packages"),
        (r"C:\Users\carol", "Clean the desktop shortcuts"),
        (
            r"C:\Windows\System32",
            "Which PowerShell version is installed?",
        ),
        ("/root", "Rotate the server logs"),
        ("/tmp", "Unpack the release archive"),
    ];
    let folder_name = |cwd: &str| -> String {
        cwd.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect()
    };
    let mut n = 0;
    let mut session = |cwd: &str, prompt: &str| {
        n += 1;
        let id = format!("0f000000-0000-4000-8000-0000000000{n:02}");
        let mut c = Claude::new(&id, cwd);
        c.ask(&format!("{n}a"), "2026-11-02T10:00:00.000Z", prompt);
        c.run(&format!("{n}b"), "2026-11-02T10:01:00.000Z", "ls", "a b");
        c.answer(&format!("{n}c"), "2026-11-02T10:02:00.000Z", "Done.");
        c.write(&projects.join(folder_name(cwd)).join(format!("{id}.jsonl")));
    };
    for (cwd, prompt) in homes {
        session(cwd, prompt);
    }
    // A repository and its subfolders, on no disk here: the other sessions' folders say
    // which is the repository.
    session("/nowhere-r/shopfront", "Set up the shopfront build");
    session("/nowhere-r/shopfront/backend", "Add the orders endpoint");
    session("/nowhere-r/shopfront/backend/db", "Index the orders table");
    session("/nowhere-r/tools/cli", "Add a --quiet flag");
    capture(&lib, &[&projects]);
    let got = items(&lib);
    for (_, prompt) in homes {
        assert!(
            got.contains(&(prompt.to_string(), None)),
            "{prompt}: {got:?}"
        );
    }
    for (title, project) in [
        ("Set up the shopfront build", "shopfront"),
        ("Add the orders endpoint", "shopfront"),
        ("Index the orders table", "shopfront"),
        ("Add a --quiet flag", "cli"),
    ] {
        assert!(
            got.contains(&(title.to_string(), Some(project.to_string()))),
            "{title}: {got:?}"
        );
    }
    // A repository on disk: a subfolder is the repository, from git.
    let repo = lib.path("work/inventory");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(repo.join("api/src")).unwrap();
    let cwd = repo.join("api/src").to_string_lossy().to_string();
    session(&cwd, "Validate the stock counts");
    capture(&lib, &[&projects]);
    assert!(items(&lib).contains(&(
        "Validate the stock counts".to_string(),
        Some("inventory".to_string())
    )));
}

#[test]
fn the_start_tells_the_newest_session_of_real_work_once() {
    let lib = TempLib::init(None);
    let dir = lib.path("projects/-nowhere-atlas2");
    let cwd = "/nowhere/atlas2";
    let real = "1a000000-0000-4000-8000-000000000001";
    let mut a = Claude::new(real, cwd);
    a.ask(
        "r1",
        "2026-11-01T10:00:00.000Z",
        "Move the tile cache to disk",
    );
    a.run(
        "r2",
        "2026-11-01T10:01:00.000Z",
        "cargo test cache",
        "test result: ok",
    );
    a.answer(
        "r3",
        "2026-11-01T10:02:00.000Z",
        "The tile cache lives on disk now.",
    );
    a.write(&dir.join(format!("{real}.jsonl")));
    // Its sub-agent, later than it: its own item, never standing for the session.
    let sub = dir.join(real).join("subagents");
    let mut s = Claude::new(real, cwd);
    s.lines.clear();
    s.raw(
        json!({"parentUuid": null, "isSidechain": true, "agentId": "a1b2c3d4",
        "cwd": cwd, "sessionId": real, "type": "user", "uuid": "s1",
        "timestamp": "2026-11-01T12:00:00.000Z",
        "message": {"role": "user", "content": "Find every caller of tile_cache::get"}}),
    );
    s.raw(
        json!({"parentUuid": "s1", "isSidechain": true, "agentId": "a1b2c3d4",
        "cwd": cwd, "sessionId": real, "type": "assistant", "uuid": "s2",
        "timestamp": "2026-11-01T12:00:05.000Z",
        "message": {"id": "msg_s2", "role": "assistant", "model": "claude-haiku-4-5",
            "content": [{"type": "tool_use", "id": "toolu_s", "name": "Grep",
                         "input": {"pattern": "tile_cache::get"}}]}}),
    );
    s.raw(
        json!({"parentUuid": "s2", "isSidechain": true, "agentId": "a1b2c3d4",
        "cwd": cwd, "sessionId": real, "type": "user", "uuid": "s3",
        "timestamp": "2026-11-01T12:00:06.000Z",
        "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_s",
            "content": "src/map.rs:12"}]}}),
    );
    s.raw(
        json!({"parentUuid": "s3", "isSidechain": true, "agentId": "a1b2c3d4",
        "cwd": cwd, "sessionId": real, "type": "assistant", "uuid": "s4",
        "timestamp": "2026-11-01T12:00:09.000Z",
        "message": {"id": "msg_s4", "role": "assistant", "model": "claude-haiku-4-5",
            "content": [{"type": "text", "text": "One caller: src/map.rs:12."}]}}),
    );
    s.write(&sub.join("agent-a1b2c3d4.jsonl"));
    std::fs::write(
        sub.join("agent-a1b2c3d4.meta.json"),
        json!({"agentType": "Explore", "description": "Find tile cache callers"}).to_string(),
    )
    .unwrap();
    // Resumed later: copies of the work, then nothing new but small talk.
    let resumed = "1a000000-0000-4000-8000-000000000002";
    let mut b = Claude::new(resumed, cwd);
    b.ask(
        "r1",
        "2026-11-01T10:00:00.000Z",
        "Move the tile cache to disk",
    );
    b.run(
        "r2",
        "2026-11-01T10:01:00.000Z",
        "cargo test cache",
        "test result: ok",
    );
    b.answer(
        "r3",
        "2026-11-01T10:02:00.000Z",
        "The tile cache lives on disk now.",
    );
    b.ask("t1", "2026-11-01T18:00:00.000Z", "What model are you?");
    b.answer(
        "t2",
        "2026-11-01T18:00:05.000Z",
        "I'm Claude Opus, by Anthropic.",
    );
    b.write(&dir.join(format!("{resumed}.jsonl")));
    // An older session of real work.
    let older = "1a000000-0000-4000-8000-000000000003";
    let mut o = Claude::new(older, cwd);
    o.ask("q1", "2026-10-20T10:00:00.000Z", "Draw the map legend");
    o.run("q2", "2026-10-20T10:01:00.000Z", "npm run build", "built");
    o.answer("q3", "2026-10-20T10:02:00.000Z", "The legend is drawn.");
    o.write(&dir.join(format!("{older}.jsonl")));
    capture(&lib, &[&lib.path("projects")]);
    let input = json!({"session_id": "s-next", "transcript_path": "/tmp/none.jsonl",
        "cwd": cwd, "hook_event_name": "SessionStart", "source": "startup"})
    .to_string();
    let out = lib.run_stdin(&["hook"], &input).ok();
    let doc: Value = serde_json::from_str(out.stdout.trim()).expect("hook JSON");
    let context = doc["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    let lines: Vec<&str> = context.lines().filter(|l| l.starts_with("- [")).collect();
    assert_eq!(lines.len(), 2, "{context}");
    assert!(
        lines[0].ends_with("Move the tile cache to disk"),
        "{context}"
    );
    assert!(lines[1].ends_with("Draw the map legend"), "{context}");
    assert!(!context.contains("tile cache callers"), "{context}");
    assert!(!context.contains("What model"), "{context}");
}

/// A request that names no work of its own — a stray word, a setting or a brace pasted
/// above the request, a markup tag, a short reply going on from the agent's last words —
/// gives way to the segment's request that does; alone, it stays the title. A summary
/// that is the program's own text (a usage limit) titles nothing.
#[test]
fn a_request_that_names_no_work_gives_the_title_to_one_that_does() {
    let lib = TempLib::init(None);
    let dir = lib.path("projects/-nowhere-slight");
    // (the person's prompts in order, the title wanted)
    let cases: &[(&[&str], &str)] = &[
        (
            &["aaa", "what does this service do for its customers?"],
            "what does this service do for its customers?",
        ),
        (
            &[
                "run it",
                "add the next browser test, keep the first one as it is",
            ],
            "add the next browser test, keep the first one as it is",
        ),
        (
            &[
                "Let me see the test",
                "why did the content test open no browser?",
            ],
            "why did the content test open no browser?",
        ),
        (
            &["yes go ahead", "then move the fixtures into tests/data"],
            "then move the fixtures into tests/data",
        ),
        (
            &["model_reasoning_effort=high\nwhere do I put rules shared by every project?"],
            "where do I put rules shared by every project?",
        ),
        (
            &["<meta>\nInitialize a new specification from the project description"],
            "Initialize a new specification from the project description",
        ),
        (
            &["# ~/.zshrc\nmake the alias c start codex with the fast model"],
            "make the alias c start codex with the fast model",
        ),
        // Alone, a slight request is still the session's title.
        (&["run it"], "run it"),
        // A request of its own is not passed over for a later one.
        (
            &["Now backfill the old rows", "and the new ones too"],
            "Now backfill the old rows",
        ),
    ];
    for (i, (prompts, _)) in cases.iter().enumerate() {
        let mut c = Claude::new(
            &format!("0e000000-0000-4000-8000-0000000000{i:02}"),
            "/nowhere/slight",
        );
        for (j, p) in prompts.iter().enumerate() {
            let at = |s: usize| format!("2026-11-0{}T10:{j:02}:{s:02}.000Z", 1 + i % 9);
            c.ask(&format!("a{i}-{j}"), &at(0), p);
            c.run(&format!("r{i}-{j}"), &at(10), "make test", "ok");
            c.answer(&format!("b{i}-{j}"), &at(20), "Done: the tests pass.");
        }
        c.write(&dir.join(format!("s{i:02}.jsonl")));
    }
    // A /fork's title made of the program's wrapper text titles nothing.
    let mut forked = Claude::new("0e000000-0000-4000-8000-000000000098", "/nowhere/slight");
    forked.raw(json!({"type": "custom-title", "customTitle":
        "<local-command-caveat>Caveat: The messages below were generated by the user while running local comm (Fork)",
        "sessionId": "0e000000-0000-4000-8000-000000000098"}));
    forked.ask(
        "f1",
        "2026-11-09T11:00:00.000Z",
        "what does the fork command do to this conversation?",
    );
    forked.run(
        "f2",
        "2026-11-09T11:01:00.000Z",
        "claude --help",
        "Usage: claude",
    );
    forked.answer(
        "f3",
        "2026-11-09T11:02:00.000Z",
        "It copies the conversation into a new session.",
    );
    forked.write(&dir.join("forked.jsonl"));
    // A usage-limit summary of the file's own conversation titles nothing.
    let mut limited = Claude::new("0e000000-0000-4000-8000-000000000099", "/nowhere/slight");
    limited.raw(
        json!({"type": "summary", "summary": "Claude AI usage limit reached|1750284000",
        "leafUuid": "l3"}),
    );
    limited.ask(
        "l1",
        "2026-11-09T10:00:00.000Z",
        "set up a framework that keeps our progress between sessions",
    );
    limited.run("l2", "2026-11-09T10:01:00.000Z", "ls", "README.md");
    limited.answer(
        "l3",
        "2026-11-09T10:02:00.000Z",
        "Claude AI usage limit reached|1750284000",
    );
    limited.write(&dir.join("limited.jsonl"));
    let (code, doc) = capture(&lib, &[&lib.path("projects")]);
    assert_eq!(code, 0, "{doc}");
    let mut want: Vec<String> = cases.iter().map(|(_, t)| t.to_string()).collect();
    want.push("set up a framework that keeps our progress between sessions".into());
    want.push("what does the fork command do to this conversation?".into());
    want.sort();
    assert_eq!(titles(&lib), want, "{doc}");
}

/// A resumed conversation whose new part asks only "yes go ahead" (or another request
/// naming no work of its own) is titled by the request it goes on from, marked
/// "(continued)"; one with a request of its own keeps it.
#[test]
fn a_resumed_conversation_going_on_with_a_reply_is_titled_by_what_it_continues() {
    let lib = TempLib::init(None);
    let dir = lib.path("projects/-nowhere-resumed");
    let cases = [
        ("yes go ahead", "Move the dotfiles to GNU stow (continued)"),
        ("run it", "Move the dotfiles to GNU stow (continued)"),
        (
            "now link the hypr config as well",
            "now link the hypr config as well",
        ),
    ];
    for (i, (reply, _)) in cases.iter().enumerate() {
        let first = format!("0f000000-0000-4000-8000-0000000000{i}1");
        let resumed = format!("0f000000-0000-4000-8000-0000000000{i}2");
        let earlier = |c: &mut Claude| {
            c.ask(
                &format!("e{i}1"),
                "2026-11-05T10:00:00.000Z",
                "Move the dotfiles to GNU stow",
            );
            c.run(
                &format!("e{i}2"),
                "2026-11-05T10:01:00.000Z",
                "stow -n zsh",
                "",
            );
            c.answer(
                &format!("e{i}3"),
                "2026-11-05T10:02:00.000Z",
                "Planned: zsh and hypr as stow packages. Shall I go ahead?",
            );
        };
        let mut a = Claude::new(&first, "/nowhere/resumed");
        earlier(&mut a);
        a.write(&dir.join(format!("{first}.jsonl")));
        let mut b = Claude::new(&resumed, "/nowhere/resumed");
        earlier(&mut b);
        b.ask(&format!("r{i}1"), "2026-11-05T12:00:00.000Z", reply);
        b.run(
            &format!("r{i}2"),
            "2026-11-05T12:01:00.000Z",
            "stow zsh hypr",
            "",
        );
        b.answer(
            &format!("r{i}3"),
            "2026-11-05T12:02:00.000Z",
            "Linked zsh and hypr with stow.",
        );
        b.write(&dir.join(format!("{resumed}.jsonl")));
    }
    let (code, doc) = capture(&lib, &[&lib.path("projects")]);
    assert_eq!(code, 0, "{doc}");
    let mut want: Vec<String> = cases.iter().map(|(_, t)| t.to_string()).collect();
    want.extend(std::iter::repeat_n(
        "Move the dotfiles to GNU stow".to_string(),
        3,
    ));
    want.sort();
    assert_eq!(titles(&lib), want, "{doc}");
}

/// Class: a segment the agent worked in after compacting the conversation, with no new
/// request, is titled by its summary (the agent's recap of the earlier work); the
/// summary's template headings ("1. Primary Request and Intent", as Claude Code 2.0 to
/// 2.1 write it, plain or as a Markdown heading) name no work, the text under the first
/// one does.
#[test]
fn a_compacted_conversation_is_titled_by_its_summary_not_its_headings() {
    let lib = TempLib::init(None);
    let dir = lib.path("projects/-work-cache");
    // (the summary after "Summary:", the title wanted)
    let cases: &[(&str, &str)] = &[
        (
            "1. Primary Request and Intent:\n   The user asked to move the session cache to Redis and keep the old keys readable.\n\n2. Key Technical Concepts:\n   - Redis\n",
            "The user asked to move the session cache to Redis and keep the old keys readable.",
        ),
        (
            "## 1. Primary Request and Intent\n\nThe user wants to:\n- Build a scraper for the cricket score pages\n- Keep it under a minute a run\n\n## 2. Key Technical Concepts\n- Selenium\n",
            "Build a scraper for the cricket score pages",
        ),
        (
            "**1. Primary Request and Intent:**\nRename the billing module to invoicing across the workspace.\n\n**7. Pending Tasks:**\n- none\n",
            "Rename the billing module to invoicing across the workspace.",
        ),
        (
            "## 1. Primary Request and Intent\n\n**Main Request:** Fix the **holographic** header on desktop\n",
            "Main Request: Fix the holographic header on desktop",
        ),
    ];
    let mut paths = Vec::new();
    for (i, (summary, _)) in cases.iter().enumerate() {
        let session = format!("c0c0a000-0000-4000-8000-00000000000{i}");
        let mut c = Claude::new(&session, "/work/cache");
        c.ask(
            &format!("a{i}"),
            "2026-03-01T09:00:00Z",
            "look at the session cache",
        )
        .run(
            &format!("b{i}"),
            "2026-03-01T09:01:00Z",
            "redis-cli ping",
            "PONG",
        )
        .answer(
            &format!("c{i}"),
            "2026-03-01T09:02:00Z",
            "The cache is in memory today.",
        );
        // Hours later, the conversation goes on from its summary, with no new request.
        c.raw(json!({
            "parentUuid": null, "isSidechain": false, "userType": "external",
            "cwd": "/work/cache", "sessionId": session, "version": "2.1.328",
            "gitBranch": "main", "type": "user", "isCompactSummary": true,
            "isVisibleInTranscriptOnly": true, "uuid": format!("s{i}"),
            "timestamp": "2026-03-01T14:00:00Z",
            "message": {"role": "user", "content": format!(
                "This session is being continued from a previous conversation that ran out \
                 of context. The conversation is summarized below:\nAnalysis:\nThe earlier \
                 turns looked at the cache.\n\nSummary:\n{summary}")},
        }));
        c.last = Some(format!("s{i}"));
        c.run(
            &format!("d{i}"),
            "2026-03-01T14:01:00Z",
            "cargo test -p cache",
            "ok",
        )
        .answer(
            &format!("e{i}"),
            "2026-03-01T14:02:00Z",
            "Done: the tests pass.",
        );
        paths.push(c.write(&dir.join(format!("{session}.jsonl"))));
    }
    let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let (code, out) = capture(&lib, &refs);
    assert_eq!(code, 0, "{out}");
    let got = titles(&lib);
    for (_, want) in cases {
        assert!(
            got.iter().any(|t| t == want),
            "no item titled {want:?}: {got:?}"
        );
    }
    for heading in [
        "Primary Request and Intent",
        "Key Technical Concepts",
        "Pending Tasks",
    ] {
        assert!(
            got.iter().all(|t| !t.contains(heading)),
            "a title holds the summary's heading {heading:?}: {got:?}"
        );
    }
}

/// Questions and titles of every item, by title.
pub(crate) fn titles_and_questions(lib: &TempLib) -> Vec<(String, String)> {
    two_columns(lib, "select title, questions from items order by title")
}

/// Class: a bare reply — a go-on or an agreement in any language, alone or several
/// together, a choice among the agent's offers, a key or two — is no request: never a
/// question, a title only through the request it goes on from. A segment whose person
/// only replied is kept when the agent worked in it, titled by the request it goes on
/// from, marked "(continued)", else by the agent's report; without work it is no item.
#[test]
fn a_bare_reply_in_any_language_is_no_request() {
    let lib = TempLib::init(None);
    let dir = lib.path("projects/-nowhere-replies");
    let id = |i: usize| format!("0a100000-0000-4000-8000-0000000000{i:02}");
    // A reply above a request in the same segment: the request titles it.
    for (i, reply) in ["继续", "1", "はい、お願いします。", "oui continue", "dd"]
        .iter()
        .enumerate()
    {
        let mut c = Claude::new(&id(i), "/nowhere/replies");
        c.ask(&format!("q1-{i}"), "2026-11-03T10:00:00.000Z", reply);
        c.answer(
            &format!("q2-{i}"),
            "2026-11-03T10:00:05.000Z",
            "What should I work on?",
        );
        c.ask(
            &format!("q3-{i}"),
            "2026-11-03T10:01:00.000Z",
            &format!("Stream the CSV export of ledger {i} row by row"),
        );
        c.run(
            &format!("q4-{i}"),
            "2026-11-03T10:02:00.000Z",
            "cargo test export",
            "ok",
        );
        c.answer(
            &format!("q5-{i}"),
            "2026-11-03T10:03:00.000Z",
            "The export streams rows now.",
        );
        c.write(&dir.join(format!("{}.jsonl", id(i))));
    }
    // A reply after a gap that split the session, the agent working on it: the request
    // before the gap, continued.
    for (i, reply) in ["继续执行", "2", "continue", "好的，开始", "Option B please"]
        .iter()
        .enumerate()
    {
        let i = 10 + i;
        let mut c = Claude::new(&id(i), "/nowhere/replies");
        c.ask(
            &format!("g1-{i}"),
            "2026-11-04T09:00:00.000Z",
            &format!("Move the session cache of shard {i} to Redis"),
        );
        c.run(
            &format!("g2-{i}"),
            "2026-11-04T09:01:00.000Z",
            "redis-cli ping",
            "PONG",
        );
        c.answer(
            &format!("g3-{i}"),
            "2026-11-04T09:02:00.000Z",
            "Option A: a hash per user. Option B: one key per session. Which one?",
        );
        c.ask(&format!("g4-{i}"), "2026-11-04T13:00:00.000Z", reply);
        c.run(
            &format!("g5-{i}"),
            "2026-11-04T13:01:00.000Z",
            "cargo test cache",
            "ok",
        );
        c.answer(
            &format!("g6-{i}"),
            "2026-11-04T13:02:00.000Z",
            "Sessions are one key each now.",
        );
        c.write(&dir.join(format!("{}.jsonl", id(i))));
    }
    // Only a reply, and work, with no request before it: what the agent reported.
    let mut only = Claude::new(&id(20), "/nowhere/replies");
    only.ask("o1", "2026-11-05T09:00:00.000Z", "继续");
    only.run("o2", "2026-11-05T09:01:00.000Z", "git status", "clean");
    only.answer(
        "o3",
        "2026-11-05T09:02:00.000Z",
        "**Moved the rate limiter into middleware/limit.rs** and the tests pass.\n\nAnything else?",
    );
    only.write(&dir.join(format!("{}.jsonl", id(20))));
    // Only replies, and no work: no item.
    for (i, reply) in ["1", "dd", "好的"].iter().enumerate() {
        let i = 30 + i;
        let mut c = Claude::new(&id(i), "/nowhere/replies");
        c.ask(&format!("n1-{i}"), "2026-11-06T09:00:00.000Z", reply);
        c.answer(
            &format!("n2-{i}"),
            "2026-11-06T09:00:05.000Z",
            "You sent only that: what would you like me to do?",
        );
        c.write(&dir.join(format!("{}.jsonl", id(i))));
    }
    let (code, doc) = capture(&lib, &[&lib.path("projects")]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["skipped"]["segment without a request"], 3, "{doc}");
    let mut want: Vec<(String, String)> = Vec::new();
    for i in 0..5 {
        let t = format!("Stream the CSV export of ledger {i} row by row");
        want.push((t.clone(), t));
    }
    for i in 10..15 {
        let t = format!("Move the session cache of shard {i} to Redis");
        want.push((t.clone(), t.clone()));
        // The continued segment asks nothing of its own.
        want.push((format!("{t} (continued)"), String::new()));
    }
    want.push((
        "Moved the rate limiter into middleware/limit.rs and the tests pass.".into(),
        String::new(),
    ));
    want.sort();
    assert_eq!(titles_and_questions(&lib), want, "{doc}");
}

/// Class: a plug-in's helper conversation, written by the agent as a session of its own
/// — a memory plug-in's summary of an earlier conversation (its prompt the only mark),
/// its observer (told by the folder it works in, whatever it asks) — makes no item;
/// the person's sessions beside it do.
#[test]
fn a_plug_ins_helper_conversations_make_no_items() {
    let lib = TempLib::init(None);
    let dir = lib.path("projects/-home-ana-shop");
    let summarise = "Context: This summary will be shown in a list to help users and Claude choose which conversations are relevant.\n\nPlease write a concise, factual summary of this conversation. Output ONLY the summary.\n\nUser: the refund button does nothing\nAgent: The handler was not bound; bound it in refund.ts.";
    // As a plug-in's SDK writes it: the prompt handed in, one answer.
    let mut helper = Claude::new("0a200000-0000-4000-8000-000000000001", "/home/ana/shop");
    helper.raw(json!({"type": "queue-operation", "operation": "dequeue",
        "timestamp": "2026-11-07T10:00:00.000Z",
        "sessionId": "0a200000-0000-4000-8000-000000000001"}));
    helper.ask("h1", "2026-11-07T10:00:01.000Z", summarise);
    helper.answer(
        "h2",
        "2026-11-07T10:00:03.000Z",
        "<summary>Bound the refund button's handler in refund.ts.</summary>",
    );
    helper.write(&dir.join("0a200000-0000-4000-8000-000000000001.jsonl"));
    // One that went looking in the project before it summarised.
    let mut busy = Claude::new("0a200000-0000-4000-8000-000000000002", "/home/ana/shop");
    busy.ask(
        "b1",
        "2026-11-07T11:00:01.000Z",
        &summarise.replace("and Claude choose", "and Codex choose"),
    );
    busy.run("b2", "2026-11-07T11:00:02.000Z", "ls src", "refund.ts");
    busy.answer(
        "b3",
        "2026-11-07T11:00:05.000Z",
        "<summary>Bound the refund handler.</summary>",
    );
    busy.write(&dir.join("0a200000-0000-4000-8000-000000000002.jsonl"));
    // An observer, in the plug-in's own folder, whatever its prompt.
    let mut observer = Claude::new(
        "0a200000-0000-4000-8000-000000000003",
        "/home/ana/.claude-mem/observer-sessions",
    );
    observer.ask(
        "v1",
        "2026-11-07T12:00:00.000Z",
        "<observed_from_primary_session>\n  <user_request>fix the refund button</user_request>\n</observed_from_primary_session>\nRecord what was learned.",
    );
    observer.run("v2", "2026-11-07T12:00:01.000Z", "cat notes.md", "");
    observer.answer(
        "v3",
        "2026-11-07T12:00:02.000Z",
        "Recorded one observation.",
    );
    observer.write(&lib.path(
        "projects/-home-ana--claude-mem-observer-sessions/0a200000-0000-4000-8000-000000000003.jsonl",
    ));
    // The person's own session, which speaks of a summary shown in a list.
    let mut own = Claude::new("0a200000-0000-4000-8000-000000000004", "/home/ana/shop");
    own.ask(
        "p1",
        "2026-11-07T09:00:00.000Z",
        "This summary will be shown in a list: make its rows one line each",
    );
    own.run("p2", "2026-11-07T09:01:00.000Z", "npm test list", "ok");
    own.answer(
        "p3",
        "2026-11-07T09:02:00.000Z",
        "Rows are one line each now.",
    );
    own.write(&dir.join("0a200000-0000-4000-8000-000000000004.jsonl"));
    let (code, doc) = capture(&lib, &[&lib.path("projects")]);
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["skipped"]["helper call of the agent"], 3, "{doc}");
    assert_eq!(
        titles(&lib),
        vec!["This summary will be shown in a list: make its rows one line each"],
        "{doc}"
    );
}
