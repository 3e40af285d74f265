//! Codex rollouts in the shapes Codex 0.57 to 0.118 and the builds before the envelope
//! write (tests/capture/codex/rollouts): what Codex puts in the person's turn is never a
//! title or a question; a sub-agent's work belongs to its parent and its copy of the
//! parent's conversation is left out; Codex's own helpers make no items; snapshots are
//! known records; a compaction's repeated history is read once; archived sessions are
//! read; a record holding lone surrogate escapes is kept.
use std::path::Path;

use recall_cli::capture::items::{item_of, Rules};
use recall_cli::capture::segment::segments;
use recall_cli::capture::{read_session, Event, Session};
use recall_cli::item::Item;

use crate::capture_read::fixture;
use crate::common::cli::TempLib;

const INSTRUCTED: &str = "codex/rollouts/2026/02/10/rollout-2026-02-10T09-00-00-019c4a00-0000-7000-8000-000000000011.jsonl";
const HEADER_INSTRUCTIONS: &str =
    "codex/rollouts/rollout-2025-05-02T08-00-00-0196a000-0000-7000-8000-000000000012.jsonl";
const INSTRUCTIONS_IN_A_PART: &str = "codex/rollouts/2026/02/12/rollout-2026-02-12T11-00-00-019c5000-0000-7000-8000-000000000017.jsonl";
const PROMPT_FILE: &str = "codex/rollouts/2026/01/05/rollout-2026-01-05T14-00-00-019b8f00-0000-7000-8000-000000000013.jsonl";
const PARENT: &str = "codex/rollouts/2026/03/20/rollout-2026-03-20T10-00-00-019d2000-0000-7000-8000-0000000000a1.jsonl";
const CHILD: &str = "codex/rollouts/2026/03/20/rollout-2026-03-20T10-00-04-019d2001-0000-7000-8000-0000000000c1.jsonl";
const CHILD_WITHOUT_CONTEXT: &str = "codex/rollouts/2026/03/20/rollout-2026-03-20T10-00-05-019d2002-0000-7000-8000-0000000000c2.jsonl";
const MEMORY_HELPER: &str = "codex/rollouts/2026/03/21/rollout-2026-03-21T08-00-00-019d3000-0000-7000-8000-0000000000d1.jsonl";
const GUARDIAN: &str = "codex/rollouts/2026/03/21/rollout-2026-03-21T08-05-00-019d3000-0000-7000-8000-0000000000d2.jsonl";
const COMPACTED: &str = "codex/rollouts/2026/01/20/rollout-2026-01-20T16-00-00-019bdc00-0000-7000-8000-000000000014.jsonl";
const SURROGATES: &str = "codex/rollouts/2026/02/01/rollout-2026-02-01T12-00-00-019c1000-0000-7000-8000-000000000016.jsonl";
const ARCHIVED_HOME: &str = "codex/home";

fn rules() -> Rules {
    Rules::of(&recall_cli::config::Config::default())
}

fn read(rel: &str) -> Session {
    read_session(&fixture(rel)).unwrap()
}

fn items(s: &Session) -> Vec<Item> {
    segments(&s.records, rules().gap_seconds)
        .into_iter()
        .filter_map(|(_, seg)| item_of(s, seg, &rules()).unwrap())
        .collect()
}

fn prompts(s: &Session) -> Vec<&str> {
    s.records
        .iter()
        .filter_map(|r| match &r.event {
            Event::Prompt(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn what_codex_puts_in_the_persons_turn_is_no_prompt() {
    let s = read(INSTRUCTED);
    // The developer message, the AGENTS.md instructions with the environment, the go-ons
    // ("continue", "yes", ".") and the IDE's context are not prompts; the request the IDE
    // wrapper holds is.
    assert_eq!(
        prompts(&s),
        vec!["Why does the cart badge not update after checkout?"]
    );
    let items = items(&s);
    assert_eq!(items.len(), 1);
    let item = &items[0];
    assert_eq!(
        item.title,
        "Why does the cart badge not update after checkout?"
    );
    assert_eq!(
        item.questions,
        "Why does the cart badge not update after checkout?"
    );
    let transcript = item.transcript.as_deref().unwrap();
    // Shown, as notes: the instructions, the go-ons, the IDE context, the branch.
    for shown in [
        "note: # AGENTS.md instructions for /home/dev/phoenix-shop",
        "note: continue",
        "note: yes",
        "note: .",
        "note: # Context from my IDE setup:",
        "note: git branch: cart-badge",
    ] {
        assert!(transcript.contains(shown), "{shown} in {transcript}");
    }
    // The developer's instructions and the base instructions are never shown.
    assert!(!transcript.contains("permissions instructions"));
    assert!(!transcript.contains("You are a coding agent"));
}

#[test]
fn instructions_repeated_in_a_part_of_the_persons_message_are_no_prompt() {
    let s = read(INSTRUCTIONS_IN_A_PART);
    // The first part repeats the AGENTS.md text Codex gave earlier; the second is the
    // request.
    assert_eq!(
        prompts(&s),
        vec!["Let carts be updated: add change_cart/1 and update_cart/2 to lib/shop/cart.ex"]
    );
    let items = items(&s);
    assert_eq!(items.len(), 1);
    assert_eq!(
        items[0].title,
        "Let carts be updated: add change_cart/1 and update_cart/2 to lib/shop/cart.ex"
    );
    assert!(!items[0].questions.contains("Phoenix"));
}

#[test]
fn instructions_repeated_from_the_header_are_no_prompt() {
    let s = read(HEADER_INSTRUCTIONS);
    assert_eq!(prompts(&s), vec!["Add a discount code field to checkout"]);
    // The header names no folder; the environment Codex gave does.
    assert_eq!(s.cwd.as_deref(), Some("/home/dev/phoenix-shop"));
    let items = items(&s);
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].title, "Add a discount code field to checkout");
    assert_eq!(items[0].project.as_deref(), Some("phoenix-shop"));
    assert!(items[0]
        .transcript
        .as_deref()
        .unwrap()
        .contains("note: git branch: main"));
}

#[test]
fn a_prompt_file_gives_the_request_it_holds() {
    let s = read(PROMPT_FILE);
    // The template left unfilled holds no request; the filled one holds its input.
    assert_eq!(prompts(&s), vec!["Let shoppers save carts for later"]);
    let items = items(&s);
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].title, "Let shoppers save carts for later");
    assert_eq!(items[0].questions, "Let shoppers save carts for later");
}

#[test]
fn a_sub_agents_work_belongs_to_its_parent() {
    let parent = read(PARENT);
    let child = read(CHILD);
    assert_eq!(parent.id, "019d2000-0000-7000-8000-0000000000a1");
    // Its own id, as capture named it before it knew sub-agents: capturing again
    // replaces what it made then.
    assert_eq!(child.id, "019d2001-0000-7000-8000-0000000000c1");
    assert_eq!(child.cwd.as_deref(), Some("/home/dev/catalog"));
    // The parent's records copied into the child's rollout are left out: its prompt
    // is the parent's only, once.
    assert_eq!(prompts(&parent), vec!["Speed up the catalog import"]);
    assert_eq!(
        prompts(&child),
        vec!["Profile the CSV parser in lib/import/csv.ex and report the slowest function"]
    );
    assert!(child.records.iter().all(|r| r.sidechain));
    assert!(parent.records.iter().all(|r| !r.sidechain));
    let child_items = items(&child);
    assert_eq!(child_items.len(), 1);
    let item = &child_items[0];
    assert_eq!(
        item.title,
        "Profile the CSV parser in lib/import/csv.ex and report the slowest function"
    );
    assert_eq!(
        item.summary,
        "String.split/2 in Import.CSV.parse_row/1 takes 71% of the import."
    );
    let transcript = item.transcript.as_deref().unwrap();
    assert!(
        !transcript.contains("Speed up the catalog import"),
        "{transcript}"
    );
    assert!(!transcript.contains("spawn_agent"), "{transcript}");
    assert!(transcript.contains("(sub-agent) person: Profile the CSV parser"));
    assert!(transcript.starts_with(
        "(sub-agent) note: sub-agent (Pearl, worker) of session 019d2000-0000-7000-8000-0000000000a1\n"
    ));
    assert_eq!(item.occurred_at, "2026-03-20T10:00:38Z");
    let parent_items = items(&parent);
    assert_eq!(parent_items.len(), 1);
    assert_eq!(parent_items[0].title, "Speed up the catalog import");
}

#[test]
fn a_sub_agent_without_opening_context_begins_after_its_spawn() {
    let child = read(CHILD_WITHOUT_CONTEXT);
    assert_eq!(child.id, "019d2002-0000-7000-8000-0000000000c2");
    assert_eq!(
        prompts(&child),
        vec!["List the callers of Import.CSV.run/1"]
    );
    let items = items(&child);
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].title, "List the callers of Import.CSV.run/1");
    assert_eq!(items[0].atoms, "rg -n 'Import.CSV.run' lib");
    let transcript = items[0].transcript.as_deref().unwrap();
    assert!(!transcript.contains("spawn_agent"), "{transcript}");
    assert!(!transcript.contains("Speed up"), "{transcript}");
}

#[test]
fn codex_helpers_make_no_items() {
    for rel in [MEMORY_HELPER, GUARDIAN] {
        let s = read(rel);
        // Its segments are left out as a helper call's, so that a re-capture also removes
        // the items an earlier capture made of them.
        assert_eq!(s.helper, Some("codex housekeeping sub-agent"), "{rel}");
        assert!(items(&s).is_empty(), "{rel}");
    }
}

#[test]
fn snapshots_are_known_and_a_compactions_history_is_read_once() {
    let s = read(COMPACTED);
    // ghost_snapshot, compaction and web_search_call items are the program's own: not
    // unknown.
    assert!(s.skipped.is_empty(), "{:?}", s.skipped);
    let items = items(&s);
    assert_eq!(items.len(), 2);
    assert_eq!(items[0].title, "Migrate the orders table to UUID keys");
    assert_eq!(items[0].questions, "Migrate the orders table to UUID keys");
    // The request the compacted history repeats right after it is not read again; the
    // person asking it again later is a prompt.
    assert_eq!(items[1].title, "Now backfill the old rows");
    assert_eq!(
        items[1].questions,
        "Now backfill the old rows\nMigrate the orders table to UUID keys"
    );
    let transcript = items[1].transcript.as_deref().unwrap();
    assert_eq!(
        transcript.matches("Migrate the orders table").count(),
        1,
        "{transcript}"
    );
}

#[test]
fn records_with_lone_surrogates_are_kept() {
    let s = read(SURROGATES);
    assert_eq!(s.skipped.get("lone surrogate escapes (replaced)"), Some(&3));
    assert!(!s.skipped.contains_key("line not JSON"));
    let items = items(&s);
    assert_eq!(items.len(), 1);
    assert_eq!(items[0].title, "Shorten the release notes \u{fffd}\u{fffd}");
    assert_eq!(items[0].summary, "Cut to three lines \u{fffd}");
}

fn titles(lib: &TempLib) -> Vec<(String, String)> {
    let conn = lib.conn();
    let mut stmt = conn
        .prepare("select source, title from items order by title")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn archived_sessions_are_read_by_default() {
    let lib = TempLib::init(None);
    let home = fixture(ARCHIVED_HOME);
    assert!(!home.join("sessions").exists());
    let empty = lib.path("empty-home");
    std::fs::create_dir_all(&empty).unwrap();
    lib.command()
        .args(["capture"])
        .env("HOME", &empty)
        .env("CODEX_HOME", &home)
        .env_remove("CLAUDE_CONFIG_DIR")
        .output()
        .map(crate::common::cli::Ran::from)
        .unwrap()
        .ok();
    assert_eq!(
        titles(&lib),
        vec![(
            "codex".to_string(),
            "Why is the VAT line missing on credit notes?".to_string()
        )]
    );
}

#[test]
fn capture_of_the_rollouts_end_to_end() {
    let lib = TempLib::init(None);
    let dir: &Path = &fixture("codex/rollouts");
    lib.run(&["capture", dir.to_str().unwrap()]).ok();
    let got: Vec<String> = titles(&lib).into_iter().map(|(_, t)| t).collect();
    assert_eq!(
        got,
        vec![
            "Add a discount code field to checkout",
            "Let carts be updated: add change_cart/1 and update_cart/2 to lib/shop/cart.ex",
            "Let shoppers save carts for later",
            "List the callers of Import.CSV.run/1",
            "Migrate the orders table to UUID keys",
            "Now backfill the old rows",
            "Profile the CSV parser in lib/import/csv.ex and report the slowest function",
            "Shorten the release notes \u{fffd}\u{fffd}",
            "Speed up the catalog import",
            "Why does the cart badge not update after checkout?",
        ]
    );
}
