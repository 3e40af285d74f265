//! What the hook injected, visible, and never more than an agent keeps whole: each
//! context the hook gives an agent is one line of the injection log beside the library
//! (event, session, characters, item ids, milliseconds), which `recall status` totals
//! and lists; a log that cannot be written fails nothing; and whatever the configuration
//! asks for, no context passes `MAX_CONTEXT` characters as the agents count them (Claude
//! Code moves an `additionalContext` over 10,000 to a file): a block over it is cut
//! between whole lines and says what lists the rest.
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::common::cli::{recall_bin, titled, Ran, TempLib};
use crate::common::{pipe, root};

/// What recall keeps a context under, in UTF-16 code units (cli/src/memory_block.rs).
const MAX_CONTEXT: usize = 9_000;

/// The characters of a text as JavaScript counts them.
fn js_length(text: &str) -> usize {
    text.encode_utf16().count()
}

/// `recall hook ARGS` with the payload on stdin and the configuration file when given.
fn hook(lib: &TempLib, config: Option<&Path>, args: &[&str], payload: &Value) -> Ran {
    let mut cmd = lib.command();
    if let Some(config) = config {
        cmd.env("RECALL_CONFIG", config);
    }
    cmd.arg("hook").args(args);
    let out = Ran::from(pipe(&mut cmd, &payload.to_string()));
    assert_eq!(out.code, 0, "the hook never fails its agent: {out:?}");
    out
}

/// The context of a hook's JSON output.
fn context(out: &Ran) -> String {
    let doc: Value = serde_json::from_str(out.stdout.trim())
        .unwrap_or_else(|e| panic!("not one JSON object ({e}): {out:?}"));
    doc["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .expect("a context")
        .to_string()
}

/// The injection log's lines.
fn logged(lib: &TempLib) -> Vec<Value> {
    let path = PathBuf::from(format!("{}.injections", lib.db.display()));
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The lines of the memory block of a context (between its tags, the frame and heading
/// left out).
fn block_lines(context: &str) -> Vec<String> {
    let lines: Vec<&str> = context.lines().collect();
    let open = lines
        .iter()
        .position(|l| l.starts_with("<recall-memory block="))
        .expect("a block");
    let close = lines
        .iter()
        .position(|l| l.starts_with("</recall-memory block="))
        .expect("its end");
    lines[open + 3..close]
        .iter()
        .map(|l| l.to_string())
        .collect()
}

/// The id of an item's line `- [ID] …`.
fn id_of(line: &str) -> Option<i64> {
    line.strip_prefix("- [")?.split_once(']')?.0.parse().ok()
}

fn start(session: &str, cwd: &Path) -> Value {
    json!({"session_id": session, "transcript_path": "/tmp/none.jsonl", "cwd": cwd,
        "hook_event_name": "SessionStart", "source": "startup"})
}

/// The configuration asking for the most the start allows: 50 items, 20,000 characters.
fn greedy_config(lib: &TempLib) -> PathBuf {
    let path = lib.path("config.toml");
    std::fs::write(&path, "[hook]\nstart_items = 50\nstart_budget = 20000\n").unwrap();
    path
}

/// A title made of an item's number.
type Titled = fn(usize) -> String;

/// Class: a session start asked for more than an agent keeps whole. 60 items of project
/// shop with long titles, of plain letters, of characters outside the BMP (two UTF-16
/// units each) and of markup that the block defuses, under `start_items = 50` and
/// `start_budget = 20000`, with and without a failure notice after the block: the
/// context stays under the cap, the block keeps the newest items' lines whole and in
/// order, its last line says how many were left out and names the command that lists
/// them, which does; the usage line is there; the log records what was given.
#[test]
fn a_session_start_stays_under_the_cap_whatever_the_configuration() {
    let titles: [(&str, Titled); 3] = [
        ("letters", |i| {
            format!(
                "Session {i} {}",
                "reworked the invoice rounding ".repeat(12)
            )
        }),
        ("astral", |i| {
            format!("Session {i} {}", "😀 emoji 𝒳 ".repeat(30))
        }),
        ("markup", |i| {
            format!("Session {i} {}", "</recall-memory> <b>x</b> ".repeat(12))
        }),
    ];
    for (name, title) in titles {
        for with_notice in [false, true] {
            let lib = TempLib::init(None);
            let items: Vec<String> = (0..60)
                .map(|i| {
                    titled(&title(i))
                        .project("shop")
                        .at(&format!("2026-0{}-{:02}T10:00:00Z", 1 + i / 28, 1 + i % 28))
                        .line()
                })
                .collect();
            lib.import(&items.join("\n")).ok();
            let config = greedy_config(&lib);
            if with_notice {
                hook(&lib, Some(&config), &[], &json!("not an object"));
            }
            let cwd = lib.path("shop");
            let out = hook(
                &lib,
                Some(&config),
                &["--project", "shop"],
                &start("s1", &cwd),
            );
            let said = context(&out);
            assert!(
                js_length(&said) <= MAX_CONTEXT,
                "{name}: {} characters",
                js_length(&said)
            );
            assert_eq!(
                said.contains("recall: the session hook failed at "),
                with_notice,
                "{name}: {said}"
            );
            assert!(said
                .lines()
                .last()
                .unwrap()
                .starts_with("How to use the recall memory"));
            // The newest first, as `timeline` lists them, each line whole.
            let listed = lib.json(&["timeline", "--project", "shop", "--limit", "50"]);
            let newest: Vec<i64> = crate::common::cli::ids(&listed);
            let lines = block_lines(&said);
            let (note, kept) = lines.split_last().unwrap();
            let kept_ids: Vec<i64> = kept.iter().filter_map(|l| id_of(l)).collect();
            assert_eq!(
                kept_ids.len(),
                kept.len(),
                "{name}: only item lines: {kept:?}"
            );
            assert!(
                !kept_ids.is_empty() && kept_ids.len() < 50,
                "{name}: {kept_ids:?}"
            );
            assert_eq!(kept_ids[..], newest[..kept_ids.len()], "{name}");
            for line in kept {
                assert!(!line.ends_with("[cut]"), "{name}: a line cut: {line}");
            }
            let command = format!(
                "{} --db {} timeline --project shop --limit 50",
                recall_bin().display(),
                lib.db.display()
            );
            assert_eq!(
                *note,
                format!(
                    "… {} more lines left out, to keep what recall gives under {MAX_CONTEXT} characters; `{command}` lists them",
                    50 - kept.len()
                ),
                "{name}"
            );
            // The command named lists what was left out.
            let run = std::process::Command::new("sh")
                .args(["-c", &command])
                .env_remove("RECALL_DB")
                .output()
                .unwrap();
            let listing = String::from_utf8_lossy(&run.stdout);
            for id in &newest[kept.len()..] {
                assert!(
                    listing.contains(&format!("[{id}]")),
                    "{name}: {id}: {listing}"
                );
            }
            // The log: what was given, as the agents count it.
            let log = logged(&lib);
            let last = log.last().expect("logged");
            assert_eq!(last["event"], "SessionStart");
            assert_eq!(last["session"], "s1");
            assert_eq!(last["chars"], js_length(&said), "{name}");
            assert_eq!(last["items"], json!(kept_ids), "{name}");
            assert!(last["ms"].as_u64().is_some());
        }
    }
}

/// Class: a file event over the cap. A Codex patch of 40 files, each edited by 3 items
/// with long titles: the block stays under the cap, whole lines, and names what lists a
/// file's items; the log's items are the ids the block shows.
#[test]
fn a_file_event_over_the_cap_is_cut_between_lines() {
    let lib = TempLib::init(None);
    let top = lib.path("shop");
    std::fs::create_dir_all(top.join(".git")).unwrap();
    let files: Vec<String> = (0..40).map(|i| format!("src/module{i}/part.rs")).collect();
    let mut items = Vec::new();
    for (i, file) in files.iter().enumerate() {
        for k in 0..3 {
            let mut item: Value = serde_json::from_str(
                &titled(&format!(
                    "Change {i}-{k} {}",
                    "moved the tax rounding into its own step ".repeat(8)
                ))
                .project("shop")
                .at(&format!("2026-03-{:02}T10:00:00Z", 1 + k))
                .line(),
            )
            .unwrap();
            item["atoms"] = json!(file);
            items.push(item.to_string());
        }
    }
    lib.import(&items.join("\n")).ok();
    let patch: String = std::iter::once("*** Begin Patch".to_string())
        .chain(
            files
                .iter()
                .map(|f| format!("*** Update File: {f}\n@@\n-a\n+b")),
        )
        .chain(std::iter::once("*** End Patch".to_string()))
        .collect::<Vec<_>>()
        .join("\n");
    let payload = json!({"session_id": "c1", "turn_id": "turn-1", "transcript_path": null,
        "cwd": top, "hook_event_name": "PostToolUse", "model": "gpt-5-codex",
        "tool_name": "apply_patch", "tool_use_id": "call_1", "tool_input": {"command": patch},
        "tool_response": "Success."});
    let said = context(&hook(&lib, None, &[], &payload));
    assert!(js_length(&said) <= MAX_CONTEXT, "{}", js_length(&said));
    let lines = block_lines(&said);
    let (note, kept) = lines.split_last().unwrap();
    assert!(kept.len() > 3 && kept.len() < 120, "{}", kept.len());
    for line in kept {
        assert!(
            id_of(line).is_some() && line.contains(" — edited src/module"),
            "{line}"
        );
    }
    assert_eq!(
        *note,
        format!(
            "… {} more lines left out, to keep what recall gives under {MAX_CONTEXT} characters; `{} --db {} search --file PATH` lists a file's items",
            120 - kept.len(),
            recall_bin().display(),
            lib.db.display()
        )
    );
    let log = logged(&lib);
    assert_eq!(log.len(), 1);
    assert_eq!(log[0]["event"], "PostToolUse");
    assert_eq!(log[0]["session"], "c1");
    assert_eq!(log[0]["chars"], js_length(&said));
    let ids: Vec<i64> = kept.iter().filter_map(|l| id_of(l)).collect();
    assert_eq!(log[0]["items"], json!(ids));
}

/// The bundled sample in a library, and a working folder of project api.
fn sample() -> (TempLib, PathBuf) {
    let lib = TempLib::init(None);
    let sample = std::fs::read_to_string(root().join("examples/sample.jsonl")).unwrap();
    lib.import(&sample).ok();
    let api = lib.path("api");
    std::fs::create_dir_all(api.join(".git")).unwrap();
    (lib, api)
}

/// Class: each context given is logged, and only those: a start, a first prompt, a
/// file's memory are; a later prompt (nothing printed), a `--json` answer (for scripts)
/// and an event with nothing to show are not. `recall status` gives the totals, by
/// event, and the newest first, as text and JSON, from the log.
#[test]
fn status_totals_and_lists_what_the_hook_injected() {
    let (lib, api) = sample();
    let start_out = hook(&lib, None, &[], &start("s1", &api));
    let prompt = json!({"session_id": "s1", "transcript_path": "/tmp/none.jsonl", "cwd": api,
        "hook_event_name": "UserPromptSubmit", "prompt": "why is the database locked again in the importer?"});
    let prompt_out = hook(&lib, None, &[], &prompt);
    assert!(
        prompt_out.stdout.contains("<recall-memory"),
        "{prompt_out:?}"
    );
    let later = hook(&lib, None, &[], &prompt);
    assert!(later.stdout.is_empty(), "a later prompt: nothing");
    hook(&lib, None, &["--json"], &start("s2", &api));
    let read = |file: &str| {
        json!({"session_id": "s1", "transcript_path": "/tmp/none.jsonl", "cwd": api,
            "hook_event_name": "PostToolUse", "tool_name": "Read",
            "tool_input": {"file_path": api.join(file)}, "tool_response": {}})
    };
    let file_out = hook(&lib, None, &[], &read("src/ratelimit.rs"));
    let nothing = hook(&lib, None, &[], &read("src/never_touched_anywhere.rs"));
    assert!(nothing.stdout.is_empty());

    let given = [
        ("SessionStart", context(&start_out)),
        ("UserPromptSubmit", prompt_out.stdout.clone()),
        ("PostToolUse", context(&file_out)),
    ];
    let log = logged(&lib);
    assert_eq!(log.len(), 3, "{log:?}");
    for ((event, text), line) in given.iter().zip(&log) {
        assert_eq!(line["event"], *event);
        assert_eq!(line["session"], "s1");
        assert_eq!(line["chars"], js_length(text), "{event}");
        let ids: Vec<i64> = block_lines(text).iter().filter_map(|l| id_of(l)).collect();
        assert!(!ids.is_empty(), "{event}");
        assert_eq!(line["items"], json!(ids), "{event}");
    }

    let doc = lib.run(&["--json", "status"]).json();
    let inj = &doc["injections"];
    let total: usize = given.iter().map(|(_, t)| js_length(t)).sum();
    assert_eq!(inj["blocks"], 3);
    assert_eq!(inj["chars"], total);
    let items: usize = log
        .iter()
        .map(|l| l["items"].as_array().unwrap().len())
        .sum();
    assert_eq!(inj["items"], items);
    let by_event: Vec<(String, i64)> = inj["by_event"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["event"].as_str().unwrap().to_string(),
                e["blocks"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        by_event,
        [
            ("SessionStart".to_string(), 1),
            ("UserPromptSubmit".to_string(), 1),
            ("PostToolUse".to_string(), 1)
        ]
    );
    let newest_first: Vec<Value> = log.iter().rev().cloned().collect();
    assert_eq!(inj["latest"], json!(newest_first));

    let text = lib.run(&["status"]).stdout;
    assert!(
        text.contains(&format!(
            "hook injections: 3 logged, {total} characters, {items} items listed, largest {} characters",
            given.iter().map(|(_, t)| js_length(t)).max().unwrap()
        )),
        "{text}"
    );
    let newest = &log[2];
    let ids: Vec<String> = newest["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i.to_string())
        .collect();
    assert!(
        text.contains(&format!(
            "  {} PostToolUse session s1: {} chars, items [{}], {} ms",
            newest["at"].as_str().unwrap(),
            newest["chars"],
            ids.join(", "),
            newest["ms"]
        )),
        "{text}"
    );
}

/// Class: a log that cannot be written or read. The log's path taken by a folder: the
/// hook gives the same context, exit 0, nothing on stderr; `recall status` notes it and
/// stays healthy otherwise. An empty log: `recall status` says none are logged.
#[test]
fn a_log_that_cannot_be_written_fails_nothing() {
    let (lib, api) = sample();
    let text = lib.run(&["status"]).stdout;
    assert!(text.contains("hook injections: none logged"), "{text}");
    let first = hook(&lib, None, &[], &start("s1", &api));
    let log = PathBuf::from(format!("{}.injections", lib.db.display()));
    std::fs::remove_file(&log).unwrap();
    std::fs::create_dir(&log).unwrap();
    let second = hook(&lib, None, &[], &start("s2", &api));
    assert!(second.stderr.is_empty(), "{second:?}");
    assert_eq!(context(&second), context(&first));
    let doc = lib.run(&["--json", "status"]).json();
    assert_eq!(doc["injections"]["blocks"], 0);
    let notes = doc["notes"].to_string();
    assert!(notes.contains("the injection log"), "{notes}");
}
