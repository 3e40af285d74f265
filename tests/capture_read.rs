//! `recall capture`'s readers and item rules on the fixtures of tests/capture/: both
//! agents' formats as documented, read tolerantly, split into segments and made items.
use std::path::{Path, PathBuf};

use recall_cli::capture::items::{item_of, Rules};
use recall_cli::capture::segment::segments;
use recall_cli::capture::{read_session, Agent, Event, Session};
use recall_cli::item::Item;

pub fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/capture")
        .join(rel)
}

pub const CLAUDE: &str = "claude/-home-dev-shop/5b1c0e2a-0000-4000-8000-000000000001.jsonl";
pub const CLAUDE_SUB: &str =
    "claude/-home-dev-shop/5b1c0e2a-0000-4000-8000-000000000001/subagents/agent-a1b2c3.jsonl";
pub const CODEX: &str =
    "codex/2025/09/14/rollout-2025-09-14T08-00-00-0199a1b2-c3d4-7e5f-8a9b-000000000002.jsonl";
pub const CODEX_LEGACY: &str = "codex/rollout-2025-04-20T10-00-00-legacy.jsonl";

fn rules() -> Rules {
    Rules::of(&recall_cli::config::Config::default())
}

fn items(s: &Session) -> Vec<Item> {
    segments(&s.records, rules().gap_seconds)
        .into_iter()
        .filter_map(|(_, seg)| item_of(s, seg, &rules()).unwrap())
        .collect()
}

fn skipped(s: &Session) -> Vec<(&str, u64)> {
    s.skipped.iter().map(|(k, v)| (k.as_str(), *v)).collect()
}

#[test]
fn claude_transcript_as_read() {
    let s = read_session(&fixture(CLAUDE)).unwrap();
    assert_eq!(s.agent, Some(Agent::Claude));
    assert_eq!(s.id, "5b1c0e2a-0000-4000-8000-000000000001");
    assert_eq!(s.cwd.as_deref(), Some("/home/dev/shop"));
    // Unknown record types and blocks, the non-UTF-8 line and the cut last line are
    // counted; the program's own records (progress, snapshots) are not.
    assert_eq!(
        skipped(&s),
        vec![
            ("block:fancy_new_block", 1),
            ("bytes not UTF-8 (replaced)", 1),
            ("last line cut short", 1),
        ]
    );
    assert_eq!(s.program_records.get("mystery-record"), Some(&1));
    let prompts: Vec<&str> = s
        .records
        .iter()
        .filter(|r| !r.sidechain)
        .filter_map(|r| match &r.event {
            Event::Prompt(t) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    // Command wrappers, meta lines, the interruption and the compaction's recap are not
    // the person's prompts; the bytes that are not UTF-8 are replaced.
    assert_eq!(
        prompts,
        vec![
            "Why does checkout fail in the shop tests?\nIt started this morning.",
            "Now make the retry configurable",
            "One more: why did python fail?",
            "café \u{fffd}\u{fffd}",
        ]
    );
    let compactions = s
        .records
        .iter()
        .filter(|r| r.event == Event::Compaction)
        .count();
    assert_eq!(compactions, 2, "the boundary and the recap that follows it");
}

#[test]
fn claude_segments_become_items() {
    let s = read_session(&fixture(CLAUDE)).unwrap();
    let items = items(&s);
    // Compaction at 10:00, then a gap of two days.
    assert_eq!(items.len(), 3);
    let summary_title = "Checkout fails with ECONNREFUSED on the payments service";
    for it in &items {
        assert_eq!(it.source, "claude-code");
        assert_eq!(it.project.as_deref(), Some("shop"));
    }
    // The summary names (`leafUuid`) the last message of the first segment: it titles
    // that segment only; the later ones are titled by their own requests.
    assert_eq!(
        items[0].title, summary_title,
        "the summary record is the title"
    );
    assert_eq!(items[1].title, "Now make the retry configurable");
    assert_ne!(items[2].title, summary_title);
    let first = &items[0];
    assert_eq!(first.occurred_at, "2025-06-02T09:04:00Z");
    assert_eq!(
        first.questions,
        "Why does checkout fail in the shop tests?\nIt started this morning."
    );
    assert_eq!(
        first.summary,
        "The database was not running: checkout connects to port 5432. Start it with `docker compose up db`."
    );
    assert_eq!(
        first.atoms,
        [
            "Error: connect ECONNREFUSED 127.0.0.1:5432",
            "test checkout::pays ... FAILED",
            "cargo test -p shop checkout",
            "/home/dev/shop/src/db.rs",
        ]
        .join("\n")
    );
    let t = first.transcript.as_deref().unwrap();
    assert!(t.contains("person: Why does checkout fail"), "{t}");
    assert!(t.contains("agent ran Bash:"), "{t}");
    assert!(t.contains("error: running 3 tests"), "{t}");
    assert!(
        t.contains("(sub-agent) agent: Sub-agent finds callers."),
        "{t}"
    );
    assert!(!t.contains("let me look"), "thinking is not shown: {t}");
    let second = &items[1];
    assert_eq!(second.occurred_at, "2025-06-02T10:07:00Z");
    assert_eq!(second.questions, "Now make the retry configurable");
    assert_eq!(second.atoms, "/home/dev/shop/src/retry.rs");
    let third = &items[2];
    assert_eq!(
        third.occurred_at, "2025-06-04T15:02:00Z",
        "the last message's time"
    );
    assert_eq!(
        third.atoms,
        "Traceback (most recent call last):\nZeroDivisionError: division by zero"
    );
}

#[test]
fn a_sub_agent_is_its_own_session() {
    let s = read_session(&fixture(CLAUDE_SUB)).unwrap();
    assert_eq!(s.id, "5b1c0e2a-0000-4000-8000-000000000001/agent-a1b2c3");
    let items = items(&s);
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].title, "search for callers of connect()");
    assert_eq!(items[0].summary, "connect() is called in src/db.rs only.");
}

#[test]
fn codex_rollout_as_read() {
    let s = read_session(&fixture(CODEX)).unwrap();
    assert_eq!(s.agent, Some(Agent::Codex));
    assert_eq!(s.id, "0199a1b2-c3d4-7e5f-8a9b-000000000002");
    // A response item of a type this reader does not know, holding a call's input: told.
    assert_eq!(skipped(&s), vec![("response_item:shiny_new_call", 1),]);
    assert_eq!(s.program_records.get("shiny_new_envelope"), Some(&1));
    let items = items(&s);
    assert_eq!(items.len(), 2, "split where the rollout was compacted");
    let first = &items[0];
    assert_eq!(first.source, "codex");
    assert_eq!(first.project.as_deref(), Some("api"));
    assert_eq!(first.title, "Add a health endpoint to the api");
    assert_eq!(first.questions, "Add a health endpoint to the api");
    assert_eq!(first.summary, "Added GET /health in src/health.ts.");
    assert_eq!(
        first.atoms,
        "npm ERR! missing script: test\nnpm test\nsrc/health.ts"
    );
    assert_eq!(first.occurred_at, "2025-09-14T08:00:20Z");
    assert_eq!(items[1].title, "Now document it");
    assert_eq!(items[1].occurred_at, "2025-09-14T08:32:00Z");
}

#[test]
fn codex_rollout_before_the_envelope() {
    let s = read_session(&fixture(CODEX_LEGACY)).unwrap();
    assert_eq!(s.id, "0199-legacy-0003");
    let items = items(&s);
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].title, "Rename the config loader");
    assert_eq!(items[0].atoms, "git mv load.rs config.rs");
    assert_eq!(items[0].occurred_at, "2025-04-20T10:00:00Z");
}

#[test]
fn files_that_are_not_transcripts_are_named() {
    for name in ["other/notes.jsonl", "other/README.txt"] {
        let e = read_session(&fixture(name)).unwrap_err();
        assert!(
            e.contains(name) && e.contains("not a Claude Code or Codex session file"),
            "{e}"
        );
    }
    let e = read_session(&fixture("other")).unwrap_err();
    assert!(
        e.contains("not a regular file") || e.contains("directory"),
        "{e}"
    );
}

/// A 50 MB transcript is read whole, its transcript bounded by the item's limit.
#[test]
fn a_fifty_megabyte_transcript() {
    let dir = std::env::temp_dir().join(format!("recall-capture-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big-session.jsonl");
    let output = "x".repeat(50_000);
    let mut text = String::new();
    let mut n = 0;
    while text.len() < 50 * 1024 * 1024 {
        let minute = n % 60;
        text.push_str(&format!(
            "{{\"type\":\"user\",\"sessionId\":\"big\",\"timestamp\":\"2025-01-01T10:{minute:02}:00Z\",\"message\":{{\"content\":[{{\"type\":\"tool_result\",\"tool_use_id\":\"t\",\"content\":\"{output}\"}}]}}}}\n"
        ));
        n += 1;
    }
    text.push_str("{\"type\":\"user\",\"sessionId\":\"big\",\"timestamp\":\"2025-01-01T11:00:00Z\",\"message\":{\"content\":\"the last prompt\"}}\n");
    std::fs::write(&path, &text).unwrap();
    let s = read_session(&path).unwrap();
    assert_eq!(s.records.len(), n + 1);
    let items = items(&s);
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].title, "the last prompt");
    let t = items[0].transcript.as_deref().unwrap();
    assert!(t.len() <= recall_cli::item::MAX_TRANSCRIPT);
    std::fs::remove_dir_all(&dir).unwrap();
}
