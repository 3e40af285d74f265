//! What `recall capture` makes of Claude Code transcripts in the shapes versions 2.0 and
//! 2.1 really write (tests/capture/claude/-home-dev-atlas): no item of the agent's helper
//! calls nor of sessions without work; the person's title, then the agent's, then a
//! request; a compaction's recap as the summary of the segment it recaps; error atoms only
//! from what commands printed and from errors; sub-agents titled by their task; private
//! spans never stored; and a capture again over a library whose items earlier rules made.
use std::path::PathBuf;

use serde_json::{json, Value};

use crate::common::cli::{titled, TempLib};
use crate::common::root;

const ATLAS: &str = "tests/capture/claude/-home-dev-atlas";
const S1: &str = "7a1e0c00-0000-4000-8000-000000000001";
const S5: &str = "7a1e0c00-0000-4000-8000-000000000005";
const S8: &str = "7a1e0c00-0000-4000-8000-000000000008";

fn atlas() -> PathBuf {
    root().join(ATLAS)
}

/// The fixtures' records, file by file, as JSON (the expectations are read from them).
fn records(file: &str) -> Vec<Value> {
    std::fs::read_to_string(atlas().join(file))
        .expect("fixture")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

fn capture(lib: &TempLib, extra: &[&str]) -> Value {
    let mut args = vec!["--json", "capture"];
    args.extend_from_slice(extra);
    let dir = atlas();
    args.push(dir.to_str().unwrap());
    lib.run(&args).ok().json()
}

#[derive(Debug)]
struct Row {
    id: i64,
    title: String,
    summary: String,
    questions: String,
    atoms: String,
    project: Option<String>,
    transcript: String,
}

fn rows(lib: &TempLib) -> Vec<Row> {
    let conn = lib.conn();
    let mut stmt = conn
        .prepare(
            "select id, title, summary, questions, atoms, project, coalesce(transcript, '')
             from items order by occurred_at, id",
        )
        .unwrap();
    stmt.query_map([], |r| {
        Ok(Row {
            id: r.get(0)?,
            title: r.get(1)?,
            summary: r.get(2)?,
            questions: r.get(3)?,
            atoms: r.get(4)?,
            project: r.get(5)?,
            transcript: r.get(6)?,
        })
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

fn captured() -> (TempLib, Value, Vec<Row>) {
    let lib = TempLib::init(None);
    let out = capture(&lib, &[]);
    let rows = rows(&lib);
    (lib, out, rows)
}

/// The first text of the session's first user record whose text starts with `start`.
fn prompt_of(file: &str, start: &str) -> String {
    records(file)
        .iter()
        .filter(|r| r["type"] == "user")
        .flat_map(|r| match &r["message"]["content"] {
            Value::String(s) => vec![s.clone()],
            Value::Array(b) => b
                .iter()
                .filter_map(|b| b["text"].as_str().map(str::to_string))
                .collect(),
            _ => vec![],
        })
        .find(|t| t.starts_with(start))
        .expect("prompt")
}

fn titles(rows: &[Row]) -> Vec<&str> {
    rows.iter().map(|r| r.title.as_str()).collect()
}

#[test]
fn helper_calls_and_sessions_without_work_make_no_items() {
    let (_lib, out, rows) = captured();
    // Thirteen files: six sessions with work, the two real sub-agents; the warm-up, the
    // compaction helper, the prompt suggestion, the slash command, the greeting and the
    // lone API error make nothing.
    assert_eq!(out["files"], 12, "{out}");
    let mut got = titles(&rows);
    got.sort();
    let mut want = vec![
        "orders-customer-index",
        "orders-customer-index",
        "Add swagger definition for the OrderStatus enum",
        "Fetch the raw content of these files from GitHub: atlas/db/schema.sql",
        "Port the clock applet to the new panel API",
        "Find clock applet examples",
        "Map the orders migrations",
    ];
    want.sort();
    assert_eq!(got, want, "{rows:#?}");
    for r in &rows {
        for helper in ["Warmup", "[SUGGESTION MODE", "Your task is to create", "hi"] {
            assert!(!r.questions.starts_with(helper), "{r:?}");
        }
        assert_eq!(r.project.as_deref(), Some("atlas"), "{r:?}");
    }
    // What was left out is counted by why.
    let skipped = &out["skipped"];
    assert_eq!(skipped["helper call of the agent"], 3, "{out}");
    assert_eq!(skipped["segment without work"], 2, "{out}");
    // The slash command's session holds nothing said: not even a segment.
    assert_eq!(out["segments"], 7, "{out}");
}

#[test]
fn the_persons_title_then_the_agents_then_a_request() {
    let (_lib, _out, rows) = captured();
    let s1 = records(&format!("{S1}.jsonl"));
    let custom = s1
        .iter()
        .find(|r| r["type"] == "custom-title")
        .and_then(|r| r["customTitle"].as_str())
        .unwrap();
    let by = |needle: &str| {
        rows.iter()
            .filter(|r| r.questions.contains(needle) || r.transcript.contains(needle))
            .map(|r| r.title.clone())
            .collect::<Vec<_>>()
    };
    // The person's /rename wins over the agent's ai-title, in both segments.
    assert_eq!(by("orders.customer_id"), vec![custom, custom]);
    let ai = records("7a1e0c00-0000-4000-8000-000000000002.jsonl")
        .iter()
        .find(|r| r["type"] == "ai-title")
        .and_then(|r| r["aiTitle"].as_str().map(str::to_string))
        .unwrap();
    assert_eq!(by("swagger page"), vec![ai]);
    // No title record: the request, not the IDE wrapper nor the go-on before it, and the
    // line cut at its colon goes on with what follows, a list's line without its bullet.
    let fetch = prompt_of("7a1e0c00-0000-4000-8000-000000000003.jsonl", "Fetch");
    let mut lines = fetch.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().unwrap();
    let next = lines.next().unwrap().trim();
    assert!(
        next.starts_with("- "),
        "the fixture's line after the colon is a list's: {next}"
    );
    let want = format!("{first} {}", &next[2..]);
    assert_eq!(by("raw content"), vec![want]);
}

#[test]
fn wrappers_go_ons_and_api_errors_are_no_questions() {
    let (_lib, _out, rows) = captured();
    let first = rows
        .iter()
        .find(|r| r.questions.contains("orders.customer_id"))
        .unwrap();
    // The one request of the first segment: not the IDE wrapper, not "continue".
    let asked = prompt_of(&format!("{S1}.jsonl"), "Add an index");
    let private = asked.find(" My staging").unwrap();
    assert!(first.questions.starts_with(&asked[..private]), "{first:?}");
    assert!(!first.questions.contains("continue"), "{first:?}");
    assert!(!first.questions.contains("ide_opened_file"), "{first:?}");
    // The API error the program wrote as the agent's turn is no summary.
    for r in &rows {
        assert!(!r.summary.contains("API Error"), "{r:?}");
        assert!(!r.summary.contains("Invalid API key"), "{r:?}");
    }
    let fetched = rows.iter().find(|r| r.title.starts_with("Fetch")).unwrap();
    assert_eq!(
        fetched.questions.lines().next(),
        Some("Fetch the raw content of these files from GitHub:")
    );
    assert!(!fetched.questions.contains("yes"), "{fetched:?}");
}

#[test]
fn a_compactions_recap_is_the_summary_of_the_segment_it_recaps() {
    let (_lib, _out, rows) = captured();
    let s1: Vec<&Row> = rows
        .iter()
        .filter(|r| r.title == "orders-customer-index")
        .collect();
    assert_eq!(s1.len(), 2);
    let recap = prompt_of(&format!("{S1}.jsonl"), "This session is being continued");
    let body = &recap[recap.find("Summary:").unwrap() + "Summary:".len()..];
    let body = body[..body.find("Please continue").unwrap()].trim();
    assert_eq!(s1[0].summary, body, "{:?}", s1[0]);
    // The segment after it ends with the agent's own last answer.
    let last = records(&format!("{S1}.jsonl"))
        .iter()
        .rev()
        .find_map(|r| {
            r["message"]["content"][0]["text"]
                .as_str()
                .map(str::to_string)
        })
        .unwrap();
    assert_eq!(s1[1].summary, last);
    // Its request is the second segment's question; the recap is shown, not asked.
    assert_eq!(
        s1[1].questions,
        "Now backfill the statistics for the new index"
    );
}

#[test]
fn error_atoms_come_from_commands_and_errors_not_from_files() {
    let (_lib, _out, rows) = captured();
    let first = rows
        .iter()
        .find(|r| r.questions.contains("orders.customer_id"))
        .unwrap();
    let atoms: Vec<&str> = first.atoms.lines().collect();
    // The command's own error line is kept, the file read and the diff written are not.
    assert!(
        atoms.contains(&"error: relation \"orders_customer_id_idx\" does not exist"),
        "{atoms:?}"
    );
    assert!(atoms.iter().all(|a| !a.contains("TODO")), "{atoms:?}");
    assert!(atoms.iter().all(|a| !a.starts_with('+')), "{atoms:?}");
    assert!(
        atoms.contains(&"psql atlas -c '\\d orders_customer_id_idx'"),
        "{atoms:?}"
    );
    assert!(
        atoms.contains(&"/home/dev/atlas/db/migrations/0042_orders_customer.sql"),
        "{atoms:?}"
    );
    // A search's result naming an error class is not an error the agent met.
    let swagger = rows.iter().find(|r| r.title.contains("swagger")).unwrap();
    assert!(!swagger.atoms.contains("OrderStatusError"), "{swagger:?}");
}

#[test]
fn one_message_over_several_records_is_read_once_and_new_records_are_known() {
    let (_lib, out, rows) = captured();
    let first = rows
        .iter()
        .find(|r| r.questions.contains("orders.customer_id"))
        .unwrap();
    assert_eq!(
        first
            .transcript
            .matches("I'll look at the schema first.")
            .count(),
        1,
        "{}",
        first.transcript
    );
    let skipped = out["skipped"].as_object().unwrap();
    for kind in [
        "type:ai-title",
        "type:custom-title",
        "type:agent-name",
        "type:last-prompt",
        "type:attachment",
        "type:permission-mode",
        "type:pr-link",
        "type:queue-operation",
        "block:thinking",
    ] {
        assert!(!skipped.contains_key(kind), "{kind}: {out}");
    }
}

#[test]
fn sub_agents_are_titled_by_their_task() {
    let (_lib, _out, rows) = captured();
    let parent = records("7a1e0c00-0000-4000-8000-000000000009.jsonl");
    let task = parent
        .iter()
        .filter_map(|r| r["message"]["content"].as_array())
        .flatten()
        .find(|b| b["name"] == "Task")
        .unwrap();
    let meta: Value = serde_json::from_str(
        &std::fs::read_to_string(
            atlas().join(format!("{S1}/subagents/agent-a3c4d5e6f7a8b9c0d.meta.json")),
        )
        .unwrap(),
    )
    .unwrap();
    for (title, prompt) in [
        (
            task["input"]["description"].as_str().unwrap(),
            task["input"]["prompt"].as_str().unwrap(),
        ),
        (meta["description"].as_str().unwrap(), "List the migrations"),
    ] {
        let item = rows.iter().find(|r| r.title == title).expect(title);
        let start = &prompt[..15];
        assert!(item.questions.starts_with(start), "{item:?}");
        assert!(rows.iter().all(|r| !r.title.starts_with(start)));
    }
}

#[test]
fn the_branch_is_kept_where_it_says_something() {
    let (_lib, _out, rows) = captured();
    let first = rows
        .iter()
        .find(|r| r.questions.contains("orders.customer_id"))
        .unwrap();
    let branch = records(&format!("{S1}.jsonl"))
        .iter()
        .find_map(|r| r["gitBranch"].as_str().map(str::to_string))
        .unwrap();
    assert!(
        first
            .atoms
            .lines()
            .any(|a| a == format!("branch: {branch}")),
        "{first:?}"
    );
    let swagger = rows.iter().find(|r| r.title.contains("swagger")).unwrap();
    assert!(!swagger.atoms.contains("branch:"), "{swagger:?}");
}

#[test]
fn private_spans_are_never_stored() {
    let (lib, _out, rows) = captured();
    let asked = prompt_of(&format!("{S1}.jsonl"), "Add an index");
    let start = asked.find("<private>").unwrap() + "<private>".len();
    let secret = &asked[start..asked.find("</private>").unwrap()];
    for r in &rows {
        for field in [&r.title, &r.summary, &r.questions, &r.atoms, &r.transcript] {
            assert!(!field.contains(secret), "{r:?}");
        }
    }
    lib.checkpoint();
    for file in lib.files().into_iter().flatten() {
        assert!(
            !file.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "the library file holds the private text"
        );
    }
}

#[test]
fn the_session_start_shows_no_noise() {
    let (lib, _out, rows) = captured();
    let input = json!({"session_id": "s-start", "transcript_path": "/tmp/none.jsonl",
        "cwd": "/home/dev/atlas", "hook_event_name": "SessionStart", "source": "startup"})
    .to_string();
    let out = lib.run_stdin(&["hook"], &input).ok();
    let doc: Value = serde_json::from_str(out.stdout.trim()).expect("hook JSON");
    let context = doc["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    let lines: Vec<&str> = context.lines().filter(|l| l.starts_with("- [")).collect();
    // The person's sessions, each title once: a sub-agent's item stands for none.
    let sessions = rows
        .iter()
        .filter(|r| !r.transcript.starts_with("(sub-agent) "))
        .map(|r| r.title.as_str())
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    assert_eq!(lines.len(), 5.min(sessions), "{context}");
    for line in lines {
        let title = line.splitn(3, ' ').nth(2).unwrap_or("");
        let title = &title[title.find(' ').map(|i| i + 1).unwrap_or(0)..];
        assert!(rows.iter().any(|r| r.title == title), "{line}");
        for noise in ["<", "Warmup", "[SUGGESTION", "API Error", "hi", "continue"] {
            assert!(!title.starts_with(noise), "{line}");
        }
    }
}

/// A library captured by earlier rules: the warm-up and the prompt suggestion as items,
/// the first segment titled by its IDE wrapper, the greeting an item that was forgotten.
/// Captured again, the noise goes, a title is replaced in place, an item a person marked
/// stays, and the forgotten one stays forgotten.
#[test]
fn a_capture_again_replaces_earlier_rules_noise() {
    let lib = TempLib::init(None);
    let old = [
        ("Warmup", format!("{S1}/agent-5d1f2a3b")),
        (
            "[SUGGESTION MODE: Suggest what the user might naturally type next into Claude Code.]",
            S8.to_string(),
        ),
        (
            "<ide_opened_file>The user opened the file /home/dev/atlas/db/schema.sql in the IDE.",
            S1.to_string(),
        ),
        ("hi", S5.to_string()),
    ];
    let lines: Vec<String> = old
        .iter()
        .map(|(t, _)| titled(t).source("claude-code").project("atlas").line())
        .collect();
    lib.import(&lines.join("\n")).ok();
    let conn = lib.conn();
    let id_of = |title: &str| -> i64 {
        conn.query_row("select id from items where title = ?1", [title], |r| {
            r.get(0)
        })
        .unwrap()
    };
    let ids: Vec<i64> = old.iter().map(|(t, _)| id_of(t)).collect();
    for ((_, session), id) in old.iter().zip(&ids) {
        conn.execute(
            "insert into capture_segments(agent, session, segment, item_id, digest)
             values ('claude-code', ?1, 1, ?2, 'earlier rules')",
            rusqlite::params![session, id],
        )
        .unwrap();
    }
    // The person marked the suggestion's item; the greeting's was forgotten.
    conn.execute("update items set kind = 'note' where id = ?1", [ids[1]])
        .unwrap();
    drop(conn);
    lib.run(&["forget", &ids[3].to_string()]).ok();

    let out = capture(&lib, &["--reread"]);
    let rows = rows(&lib);
    let has = |id: i64| rows.iter().find(|r| r.id == id);
    assert!(
        has(ids[0]).is_none(),
        "the warm-up's item is removed: {out}"
    );
    assert_eq!(
        has(ids[1]).map(|r| r.title.as_str()),
        Some(old[1].0),
        "marked: kept"
    );
    assert_eq!(
        has(ids[2]).map(|r| r.title.as_str()),
        Some("orders-customer-index"),
        "replaced in place: {rows:#?}"
    );
    assert!(has(ids[3]).is_none());
    assert!(rows
        .iter()
        .all(|r| r.title != "hi" && !r.questions.starts_with("hi")));
    assert_eq!(out["removed"], 1, "{out}");
    // Nothing noisy is left but what the person kept.
    for r in &rows {
        assert!(r.id == ids[1] || !r.title.starts_with(['<', '[']), "{r:?}");
        assert!(r.title != "Warmup", "{r:?}");
    }
    // And a second capture finds nothing more to do.
    let again = capture(&lib, &["--reread"]);
    assert_eq!(
        (
            again["added"].as_u64(),
            again["replaced"].as_u64(),
            again["removed"].as_u64()
        ),
        (Some(0), Some(0), Some(0)),
        "{again}"
    );
}
