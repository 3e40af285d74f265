//! The session hook at the point of action, on a library made by `recall capture` of
//! Claude Code sessions written for the tests in its record shapes, each event sent in the
//! shape the agents send it (Claude Code 2.1's and Codex 0.169's, as their hooks give
//! them): before an edit, the file's memory once a session, shared with the event after a
//! read or an edit; before a shell command, the earlier runs of the same command (values
//! aside) and how they went; after a command failed, the earlier sessions that met the
//! same error line and the one that got the command working. None decides on the tool.
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::common::cli::{Ran, TempLib};

/// One shell call of a session: its command, what it printed, whether it failed.
pub(crate) struct Call<'a> {
    pub command: &'a str,
    pub output: &'a str,
    pub failed: bool,
}

/// A Claude Code session in `cwd` on day `day`, in its transcript's record shapes: the
/// request, an `Edit` of each of `edited` (its tool result in the next user record), the
/// shell calls (a failed one's result as Claude Code writes it, `is_error` and `Exit code
/// N` first), the final answer. The transcripts of the session hook's tests.
#[allow(clippy::too_many_arguments)]
pub(crate) fn session(
    path: &Path,
    id: &str,
    cwd: &Path,
    request: &str,
    edited: &[PathBuf],
    calls: &[Call],
    answer: &str,
    day: u32,
) {
    let at = |minute: usize| format!("2026-11-{day:02}T10:{minute:02}:00.000Z");
    let record = |kind: &str, minute: usize, message: Value| {
        json!({"type": kind, "sessionId": id, "cwd": cwd, "timestamp": at(minute),
            "isSidechain": false, "userType": "external", "version": "2.1.3",
            "gitBranch": "main", "uuid": format!("{id}-{kind}-{minute}"),
            "message": message})
        .to_string()
    };
    let mut lines = vec![record(
        "user",
        0,
        json!({"role": "user", "content": request}),
    )];
    let mut minute = 1;
    let mut step = |lines: &mut Vec<String>, tool: Value, result: Value| {
        lines.push(record(
            "assistant",
            minute,
            json!({"role": "assistant", "model": "claude-sonnet-4-5", "content": [tool]}),
        ));
        lines.push(record(
            "user",
            minute + 1,
            json!({"role": "user", "content": [result]}),
        ));
        minute += 2;
    };
    for (i, file) in edited.iter().enumerate() {
        let tool_id = format!("toolu_{id}e{i}");
        step(
            &mut lines,
            json!({"type": "tool_use", "id": tool_id, "name": "Edit",
                "input": {"file_path": file, "old_string": "a", "new_string": "b"}}),
            json!({"type": "tool_result", "tool_use_id": tool_id,
                "content": format!("The file {} has been updated.", file.display())}),
        );
    }
    for (i, call) in calls.iter().enumerate() {
        let tool_id = format!("toolu_{id}b{i}");
        let result = match call.failed {
            true => json!({"type": "tool_result", "tool_use_id": tool_id, "is_error": true,
                "content": format!("Exit code 101\n{}", call.output)}),
            false => json!({"type": "tool_result", "tool_use_id": tool_id,
                "content": call.output}),
        };
        step(
            &mut lines,
            json!({"type": "tool_use", "id": tool_id, "name": "Bash",
                "input": {"command": call.command, "description": "run it"}}),
            result,
        );
    }
    lines.push(record(
        "assistant",
        58,
        json!({"role": "assistant", "model": "claude-sonnet-4-5",
            "content": [{"type": "text", "text": answer}]}),
    ));
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// A HOME whose Claude Code has recall's MCP server wired in its user file, as `recall
/// setup claude-code` leaves it: the docs' blocks name the server's tools.
pub(crate) fn home_with_server(lib: &TempLib) -> PathBuf {
    let home = lib.path("home");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        home.join(".claude.json"),
        json!({"mcpServers": {"recall": {"type": "stdio", "command": crate::common::cli::recall_bin(),
            "args": ["--db", lib.db, "mcp"]}}})
        .to_string(),
    )
    .unwrap();
    home
}

/// A session of the library: its id, request, files edited, shell calls and day.
type Day<'a> = (&'a str, &'a str, Vec<PathBuf>, Vec<Call<'a>>, u32);

/// The stored error line of the failing test run, and the line of a later run alike but
/// for its number.
const ERROR: &str = "error: could not compile `shop` (lib test) due to 2 previous errors";
const ERROR_AGAIN: &str = "error: could not compile `shop` (lib test) due to 7 previous errors";

/// Project `shop` checked out at `a/shop`, and four sessions: one that edited
/// `src/tax.rs` and ran the tests, which failed (day 2); one that ran them with other
/// values and they passed (day 5); one that built a release (day 7); one whose migration
/// failed with an error of a path (day 9).
fn captured() -> (TempLib, PathBuf) {
    let lib = TempLib::init(None);
    let top = lib.path("a").join("shop");
    std::fs::create_dir_all(top.join(".git")).unwrap();
    std::fs::create_dir_all(top.join("src")).unwrap();
    let compile = format!(
        "   Compiling shop v0.1.0\nerror[E0425]: cannot find value `rate` in this scope\n{ERROR}"
    );
    let days: [Day; 4] = [
        (
            "s-fail",
            "make the VAT rounding per line",
            vec![top.join("src/tax.rs")],
            vec![Call {
                command: "cargo test --manifest-path crates/shop/Cargo.toml -j 4 -- 'vat rounding'",
                output: &compile,
                failed: true,
            }],
            2,
        ),
        (
            "s-pass",
            "finish the rounding fix",
            vec![],
            vec![Call {
                command: "cargo test --manifest-path crates/shop/Cargo.toml -j 8 -- \"rounding\"",
                output: "running 4 tests\ntest result: ok. 4 passed; 0 failed",
                failed: false,
            }],
            5,
        ),
        (
            "s-build",
            "build the release",
            vec![],
            vec![Call {
                command: "cargo build --release",
                output: "    Finished `release` profile [optimized] target(s) in 41.2s",
                failed: false,
            }],
            7,
        ),
        (
            "s-migrate",
            "run the migrations",
            vec![],
            vec![Call {
                command: "python3 manage.py migrate --database=replica",
                output: "Traceback (most recent call last):\n  File \"/srv/shop/manage.py\", line 22, in <module>\n    main()\ndjango.db.utils.OperationalError: unable to open database file /srv/shop/data/replica-3.db",
                failed: true,
            }],
            9,
        ),
    ];
    for (id, request, edited, calls, day) in &days {
        let path = lib.path(&format!("{id}.jsonl"));
        session(&path, id, &top, request, edited, calls, "Done.", *day);
        lib.run(&["capture", path.to_str().unwrap()]).ok();
    }
    (lib, top)
}

/// The item captured from the session whose request holds `words`.
fn item_of(lib: &TempLib, words: &str) -> i64 {
    let found = lib.count(&format!(
        "select id from items where questions like '%{words}%' order by id limit 1"
    ));
    assert!(found > 0, "no item asked {words:?}");
    found
}

fn send(lib: &TempLib, payload: &Value) -> Ran {
    let out = lib.run_stdin(&["hook"], &payload.to_string());
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    out
}

/// The additional context of the hook's output for `event`, None when it printed
/// nothing; the output never holds a decision on the tool.
fn context(out: &Ran, event: &str) -> Option<String> {
    if out.stdout.trim().is_empty() {
        return None;
    }
    let doc: Value = serde_json::from_str(out.stdout.trim()).expect("one JSON object");
    assert_eq!(
        doc.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["hookSpecificOutput"],
        "{doc}"
    );
    let specific = doc["hookSpecificOutput"].as_object().unwrap();
    let mut keys: Vec<&String> = specific.keys().collect();
    keys.sort();
    assert_eq!(keys, ["additionalContext", "hookEventName"], "{doc}");
    assert_eq!(specific["hookEventName"], event, "{doc}");
    Some(specific["additionalContext"].as_str().unwrap().to_string())
}

/// The ids and lines of a block's item lines.
fn item_lines(block: &str) -> Vec<(i64, String)> {
    let (inner, _) = crate::common::memory_block(block);
    inner
        .iter()
        .filter_map(|l| {
            let id = l.strip_prefix("- [")?.split(']').next()?.parse().ok()?;
            Some((id, l.clone()))
        })
        .collect()
}

/// Claude Code 2.1's `PreToolUse` and `PostToolUseFailure` of `Bash` (tests/atom_keys.rs
/// sends them too).
pub(crate) fn claude_bash(
    event: &str,
    session: &str,
    cwd: &Path,
    command: &str,
    error: &str,
) -> Value {
    let mut p = json!({"session_id": session, "transcript_path": "/tmp/none.jsonl",
        "cwd": cwd, "prompt_id": "p1", "permission_mode": "default",
        "effort": {"level": "medium"}, "hook_event_name": event, "tool_name": "Bash",
        "tool_input": {"command": command, "description": "run it"},
        "tool_use_id": "toolu_000002"});
    if event == "PostToolUseFailure" {
        p["error"] = json!(error);
        p["is_interrupt"] = json!(false);
        p["duration_ms"] = json!(38);
    }
    p
}

/// Codex 0.169's `PreToolUse` and `PostToolUse` of its shell: named `Bash`, the command
/// in `tool_input.command`, the output (no exit code) as `tool_response`.
fn codex_bash(event: &str, session: &str, cwd: &Path, command: &str, output: &str) -> Value {
    let mut p = json!({"session_id": session, "turn_id": "t1",
        "transcript_path": null, "cwd": cwd, "hook_event_name": event,
        "model": "gpt-5.5", "permission_mode": "bypassPermissions", "tool_name": "Bash",
        "tool_input": {"command": command}, "tool_use_id": "call_000002"});
    if event == "PostToolUse" {
        p["tool_response"] = json!(output);
    }
    p
}

#[test]
fn before_an_edit_the_file_s_memory_once_with_the_event_after_it() {
    let (lib, top) = captured();
    let editor = item_of(&lib, "VAT rounding per line");
    let tax = top.join("src/tax.rs");
    let claude = |event: &str, session: &str, tool: &str, file: &Path| {
        let key = if tool == "NotebookEdit" {
            "notebook_path"
        } else {
            "file_path"
        };
        let mut p = json!({"session_id": session, "transcript_path": "/tmp/none.jsonl",
            "cwd": top, "permission_mode": "default", "hook_event_name": event,
            "tool_name": tool, "tool_input": {key: file, "old_string": "a", "new_string": "b"},
            "tool_use_id": "toolu_01"});
        if event == "PostToolUse" {
            p["tool_response"] = json!({"filePath": file});
        }
        p
    };
    // Each edit tool, before it runs: the file's memory, in PreToolUse's answer; after
    // the edit, nothing more.
    for (i, tool) in ["Edit", "MultiEdit", "Write"].iter().enumerate() {
        let s = format!("pre{i}");
        let text = context(
            &send(&lib, &claude("PreToolUse", &s, tool, &tax)),
            "PreToolUse",
        )
        .unwrap_or_else(|| panic!("{tool}: the file's memory before the edit"));
        let items = item_lines(&text);
        assert_eq!(items.len(), 1, "{text}");
        assert_eq!(items[0].0, editor);
        assert!(items[0].1.ends_with(" — edited src/tax.rs"), "{text}");
        assert_eq!(
            send(&lib, &claude("PostToolUse", &s, tool, &tax)).stdout,
            "",
            "{tool}"
        );
        assert_eq!(send(&lib, &claude("PreToolUse", &s, tool, &tax)).stdout, "");
    }
    // The other way round: told after a read, not again before the edit.
    assert!(context(
        &send(&lib, &claude("PostToolUse", "read-first", "Read", &tax)),
        "PostToolUse"
    )
    .is_some());
    assert_eq!(
        send(&lib, &claude("PreToolUse", "read-first", "Edit", &tax)).stdout,
        ""
    );
    // A file nobody touched, a notebook nobody touched: nothing.
    for (tool, file) in [
        ("Edit", top.join("src/untouched.rs")),
        ("NotebookEdit", top.join("a.ipynb")),
    ] {
        assert_eq!(
            send(&lib, &claude("PreToolUse", "other", tool, &file)).stdout,
            "",
            "{tool}"
        );
    }
    // Codex's apply_patch before it runs: the patch's files, relative to the folder.
    let patch = "*** Begin Patch\n*** Update File: src/tax.rs\n@@\n-a\n+b\n*** End Patch\n";
    let codex = json!({"session_id": "x1", "turn_id": "t1", "transcript_path": null,
        "cwd": top, "hook_event_name": "PreToolUse", "model": "gpt-5.5",
        "permission_mode": "bypassPermissions", "tool_name": "apply_patch",
        "tool_input": {"command": patch}, "tool_use_id": "call_000006"});
    let text = context(&send(&lib, &codex), "PreToolUse").expect("the patched file's memory");
    assert_eq!(
        item_lines(&text).iter().map(|l| l.0).collect::<Vec<_>>(),
        vec![editor]
    );
    let mut after = codex.clone();
    after["hook_event_name"] = json!("PostToolUse");
    after["tool_response"] = json!("Exit code: 0\nWall time: 0.1 seconds\nOutput:\nSuccess.");
    assert_eq!(send(&lib, &after).stdout, "");
}

#[test]
fn before_a_command_the_earlier_runs_of_it_and_how_they_went() {
    let (lib, top) = captured();
    let failed = item_of(&lib, "VAT rounding per line");
    let passed = item_of(&lib, "finish the rounding fix");
    // The same program, subcommand and options; other paths, numbers, quoted values.
    let variants = [
        "cargo test --manifest-path crates/shop/Cargo.toml -j 4 -- 'vat rounding'",
        "cargo test --manifest-path /home/me/shop/Cargo.toml -j 16 -- 'totals'",
        "cargo test --manifest-path ./Cargo.toml -j 2 -- \"a b c\"",
    ];
    for (i, command) in variants.iter().enumerate() {
        for payload in [
            claude_bash("PreToolUse", &format!("c{i}"), &top, command, ""),
            codex_bash("PreToolUse", &format!("x{i}"), &top, command, ""),
        ] {
            let text = context(&send(&lib, &payload), "PreToolUse")
                .unwrap_or_else(|| panic!("{command}: the earlier runs"));
            let (inner, _) = crate::common::memory_block(&text);
            assert!(
                inner[0].starts_with(
                    "Earlier sessions in the recall memory that ran this command (cargo test --manifest-path PATH -j N -- '…'), newest first"
                ),
                "{text}"
            );
            let items = item_lines(&text);
            assert_eq!(
                items.iter().map(|l| l.0).collect::<Vec<_>>(),
                vec![passed, failed],
                "{text}"
            );
            assert!(items[0].1.ends_with(" — ran without an error"), "{text}");
            assert!(
                items[1].1.ends_with(&format!(
                    " — failed: error[E0425]: cannot find value `rate` in this scope; it worked in [{passed}]"
                )),
                "{text}"
            );
        }
    }
    // Another subcommand, other options, an unknown command, a command of words shorter
    // than the index finds: nothing.
    for command in [
        "cargo build --manifest-path crates/shop/Cargo.toml -j 4 -- 'vat rounding'",
        "cargo test --manifest-path crates/shop/Cargo.toml -- 'vat rounding'",
        "cargo test",
        "terraform plan -out plan.bin",
        "ls -la",
    ] {
        assert_eq!(
            send(&lib, &claude_bash("PreToolUse", "c9", &top, command, "")).stdout,
            "",
            "{command}"
        );
    }
    // For scripts: the masked command and each item with how it went.
    let out = lib.run_stdin(
        &["--json", "hook"],
        &claude_bash("PreToolUse", "j1", &top, variants[1], "").to_string(),
    );
    let doc: Value = serde_json::from_str(out.stdout.trim()).expect("one JSON object");
    assert_eq!(doc["event"], "PreToolUse", "{doc}");
    assert_eq!(
        doc["shell"], "cargo test --manifest-path PATH -j N -- '…'",
        "{doc}"
    );
    let results = doc["results"].as_array().unwrap();
    assert_eq!(
        results
            .iter()
            .map(|r| r["item"]["id"].clone())
            .collect::<Vec<_>>(),
        vec![json!(passed), json!(failed)],
        "{doc}"
    );
    assert_eq!(results[0]["went"], "ran without an error", "{doc}");
    // A run that worked alone: said so, no failure.
    let text = context(
        &send(
            &lib,
            &claude_bash("PreToolUse", "c9", &top, "cargo build --release", ""),
        ),
        "PreToolUse",
    )
    .expect("the release build");
    let items = item_lines(&text);
    assert_eq!(items.len(), 1, "{text}");
    assert_eq!(items[0].0, item_of(&lib, "build the release"));
    assert!(items[0].1.ends_with(" — ran without an error"), "{text}");
}

#[test]
fn after_a_failure_the_sessions_that_met_the_error_and_the_fix() {
    let (lib, top) = captured();
    let failed = item_of(&lib, "VAT rounding per line");
    let passed = item_of(&lib, "finish the rounding fix");
    let migrate = item_of(&lib, "run the migrations");
    let command = "cargo test --manifest-path ../shop/Cargo.toml -j 3 -- 'rounding'";
    // Claude Code's failure, and Codex's output of the same (no exit code given).
    let error = format!("Exit code 101\n   Compiling shop v0.1.0\n{ERROR_AGAIN}");
    for payload in [
        claude_bash("PostToolUseFailure", "f1", &top, command, &error),
        codex_bash(
            "PostToolUse",
            "f2",
            &top,
            command,
            &format!("   Compiling shop v0.1.0\n{ERROR_AGAIN}\n"),
        ),
    ] {
        let event = payload["hook_event_name"].as_str().unwrap().to_string();
        let text = context(&send(&lib, &payload), &event)
            .unwrap_or_else(|| panic!("{event}: the sessions that met the error"));
        let (inner, _) = crate::common::memory_block(&text);
        assert!(
            inner[0].starts_with(
                "Earlier sessions in the recall memory that met this error (error: could not compile `shop` (lib test) due to # previous errors), newest first"
            ),
            "{text}"
        );
        let items = item_lines(&text);
        assert_eq!(items.len(), 1, "{text}");
        assert_eq!(items[0].0, failed);
        assert!(
            items[0].1.ends_with(&format!(
                " — seen before; fixed in [{passed}], where the command ran without an error"
            )),
            "{text}"
        );
    }
    // An error of a path and a number, from another command, met once and never fixed.
    // A Python report: the line after its opening tells, the opening every report shares
    // does not.
    let error = "Exit code 1\nTraceback (most recent call last):\n  File \"/home/me/shop/manage.py\", line 9, in <module>\n    main()\ndjango.db.utils.OperationalError: unable to open database file /var/lib/shop/replica-12.db";
    let text = context(
        &send(
            &lib,
            &claude_bash(
                "PostToolUseFailure",
                "f3",
                &top,
                "python3 manage.py migrate --database=default",
                error,
            ),
        ),
        "PostToolUseFailure",
    )
    .expect("the migration's error");
    let items = item_lines(&text);
    assert_eq!(items.len(), 1, "{text}");
    assert_eq!(items[0].0, migrate);
    assert!(
        items[0].1.ends_with(
            " — seen before, running this command; no later session is known to have got it working"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "met this error (django.db.utils.OperationalError: unable to open database file PATH)"
        ),
        "{text}"
    );
    // An error nobody met, a failure of no error line, a failed view of a file, a Codex
    // command whose output reads as no failure: nothing.
    for payload in [
        claude_bash(
            "PostToolUseFailure",
            "f4",
            &top,
            command,
            "Exit code 101\nerror: linking with `cc` failed: exit status: 1",
        ),
        claude_bash("PostToolUseFailure", "f4", &top, command, "Exit code 1"),
        claude_bash(
            "PostToolUseFailure",
            "f4",
            &top,
            "python3 manage.py migrate --database=default",
            "Exit code 1\nTraceback (most recent call last):\n  File \"manage.py\", line 9, in <module>\nKeyError: 'DATABASES'",
        ),
        claude_bash(
            "PostToolUseFailure",
            "f4",
            &top,
            "cat src/missing.rs",
            &format!("Exit code 1\n{ERROR}"),
        ),
        codex_bash(
            "PostToolUse",
            "f5",
            &top,
            command,
            "running 4 tests\ntest result: ok. 4 passed; 0 failed\n",
        ),
    ] {
        assert_eq!(send(&lib, &payload).stdout, "", "{payload}");
    }
}

/// The JSON block of docs/cli.md's session hook section for `event` that holds `words`.
fn documented(event: &str, words: &str) -> String {
    let docs = std::fs::read_to_string(crate::common::root().join("docs/cli.md")).unwrap();
    docs.split("```json\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .find(|b| b.contains(&format!("\"hookEventName\":\"{event}\"")) && b.contains(words))
        .unwrap_or_else(|| panic!("docs/cli.md shows no {event} output with {words:?}"))
        .trim()
        .to_string()
}

/// The docs show Claude Code with recall's MCP server wired in its user file, as `recall
/// setup claude-code` leaves it, on the library of these tests.
#[test]
fn the_docs_show_the_command_blocks_exactly_as_printed() {
    let (lib, top) = captured();
    let home = home_with_server(&lib);
    let transcript = home.join(".claude/projects/-home-me-shop/d.jsonl");
    let send = |payload: &mut Value| {
        payload["transcript_path"] = json!(transcript);
        let mut cmd = lib.command();
        cmd.arg("hook")
            .env("HOME", &home)
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CLAUDE_PLUGIN_ROOT");
        let out = Ran::from(crate::common::pipe(&mut cmd, &payload.to_string()));
        assert!(out.stderr.is_empty(), "{}", out.stderr);
        out.stdout.trim().to_string()
    };
    let command = "cargo test --manifest-path crates/shop/Cargo.toml -j 2 -- 'vat'";
    assert_eq!(
        send(&mut claude_bash("PreToolUse", "d", &top, command, "")),
        documented("PreToolUse", "ran this command")
    );
    let error = format!("Exit code 101\n{ERROR_AGAIN}");
    assert_eq!(
        send(&mut claude_bash(
            "PostToolUseFailure",
            "d",
            &top,
            command,
            &error
        )),
        documented("PostToolUseFailure", "met this error")
    );
}

/// A command's earlier runs and an error's earlier sessions are told once a session, as a
/// file's memory is: the same command again, by another spelling of its values, or the
/// same error again, get nothing more; another session gets them again.
#[test]
fn a_command_and_an_error_are_told_once_a_session() {
    let (lib, top) = captured();
    let first = "cargo test --manifest-path crates/shop/Cargo.toml -j 4 -- 'vat rounding'";
    let again = "cargo test --manifest-path ../Cargo.toml -j 9 -- \"other\"";
    let error = format!("Exit code 101\n{ERROR_AGAIN}");
    let before = |session: &str, command: &str| {
        send(&lib, &claude_bash("PreToolUse", session, &top, command, ""))
    };
    let after = |session: &str, command: &str| {
        send(
            &lib,
            &claude_bash("PostToolUseFailure", session, &top, command, &error),
        )
    };
    assert!(context(&before("o1", first), "PreToolUse").is_some());
    assert_eq!(before("o1", first).stdout, "");
    assert_eq!(before("o1", again).stdout, "");
    // The failure of it is another thing to tell, once.
    assert!(context(&after("o1", first), "PostToolUseFailure").is_some());
    assert_eq!(after("o1", again).stdout, "");
    // Codex's shell output of the same error, in the same session: told already.
    let codex = codex_bash("PostToolUse", "o1", &top, first, ERROR_AGAIN);
    assert_eq!(send(&lib, &codex).stdout, "");
    // Another session is told both again.
    assert!(context(&before("o2", again), "PreToolUse").is_some());
    assert!(context(&after("o2", again), "PostToolUseFailure").is_some());
}

/// A command that only shows files, searches them or the history says nothing of the
/// work by going well: it is not told before it runs, however many sessions ran it; a
/// command of the work beside it in the same sessions is.
/// A library of `n` sessions of the project `shop` on the first days of 2026, each with
/// `atoms` (and `transcript`), and the project's folder (in a temporary folder, kept
/// while the guard lives).
fn shop_sessions(
    n: usize,
    atoms: &str,
    transcript: Option<&str>,
) -> (TempLib, tempfile::TempDir, std::path::PathBuf) {
    let items: Vec<String> = (0..n)
        .map(|i| {
            let mut item = json!({"source": "agent-claude", "project": "shop",
                   "title": format!("session {i}"), "summary": "", "atoms": atoms,
                   "occurred_at": format!("2026-01-0{}T00:00:00Z", i + 1)});
            if let Some(t) = transcript {
                item["transcript"] = json!(t);
            }
            item.to_string()
        })
        .collect();
    let lib = TempLib::with_items(None, &items);
    let base = tempfile::tempdir().unwrap();
    let top = base.path().join("shop");
    std::fs::create_dir_all(&top).unwrap();
    (lib, base, top)
}

#[test]
fn a_command_that_only_looks_is_not_told() {
    let views = [
        "grep -rn 'fn main' src",
        "cd api && git log --oneline -5",
        "find . -name '*.rs' | head -20",
        "cat README.md",
        "ls -la src/",
    ];
    let mut atoms: Vec<String> = views.iter().map(|v| v.to_string()).collect();
    atoms.push("cargo build --release".to_string());
    let (lib, _base, top) = shop_sessions(
        4,
        &atoms.join("\n"),
        Some("agent ran Bash: cargo build --release\noutput: ok\n"),
    );
    for (i, view) in views.iter().enumerate() {
        let out = send(
            &lib,
            &claude_bash("PreToolUse", &format!("v{i}"), &top, view, ""),
        );
        assert_eq!(out.stdout, "", "{view}");
    }
    let text = context(
        &send(
            &lib,
            &claude_bash("PreToolUse", "w1", &top, "cargo build --release", ""),
        ),
        "PreToolUse",
    )
    .expect("the build is told");
    assert_eq!(item_lines(&text).len(), 3, "{text}");
}

/// A failure whose only line that reads as an error is a report's opening (Python's
/// "Traceback (most recent call last):", the rest of the output cut) has no error to
/// look up: every Python failure opens so. The same report with its last line is looked
/// up by that line.
#[test]
fn a_report_s_opening_alone_is_no_error_to_look_up() {
    let (lib, _base, top) = shop_sessions(
        2,
        "Traceback (most recent call last):\nModuleNotFoundError: No module named 'yaml'\npython3 run.py",
        None,
    );
    let cut = "Exit code 1\nTraceback (most recent call last):";
    let out = send(
        &lib,
        &claude_bash("PostToolUseFailure", "t1", &top, "python3 run.py", cut),
    );
    assert_eq!(out.stdout, "", "{out:?}");
    let whole = "Exit code 1\nTraceback (most recent call last):\n  File \"run.py\", line 1, in <module>\n    import yaml\nModuleNotFoundError: No module named 'yaml'";
    let text = context(
        &send(
            &lib,
            &claude_bash("PostToolUseFailure", "t2", &top, "python3 run.py", whole),
        ),
        "PostToolUseFailure",
    )
    .expect("the module error is looked up");
    assert_eq!(item_lines(&text).len(), 2, "{text}");
}
