//! Codex rollouts in the shapes Codex 0.57 to 0.118 and the builds before the envelope
//! write (tests/capture/codex/rollouts): what Codex puts in the person's turn is never a
//! title or a question; a sub-agent's work belongs to its parent and its copy of the
//! parent's conversation is left out; Codex's own helpers make no items; snapshots are
//! known records; a compaction's repeated history is read once; archived sessions are
//! read; a record holding lone surrogate escapes is kept.
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use recall_cli::capture::items::{item_of, Rules};
use recall_cli::capture::segment::segments;
use recall_cli::capture::{read_session, Event, Session};
use recall_cli::item::Item;

use crate::capture_read::fixture;
use crate::capture_sessions::titles_and_questions;
use crate::common::cli::{two_columns, TempLib};

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
    two_columns(lib, "select source, title from items order by title")
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

/// A rollout of `version` in the envelope, written under `dir`: its records given as
/// (timestamp, type, payload).
fn rollout(dir: &Path, id: &str, version: &str, source: &str, records: &[Value]) -> PathBuf {
    let at = "2026-07-20T09:00:00.000Z";
    let mut lines = vec![json!({"timestamp": at, "type": "session_meta", "payload": {
        "id": id, "timestamp": at, "cwd": "/home/dev/tea-shop", "originator": "codex_vscode",
        "cli_version": version, "source": source, "model_provider": "openai"}})];
    lines.extend(records.iter().cloned());
    let path = dir.join(format!("rollout-2026-07-20T09-00-00-{id}.jsonl"));
    std::fs::create_dir_all(dir).unwrap();
    let text: Vec<String> = lines.iter().map(Value::to_string).collect();
    std::fs::write(&path, text.join("\n") + "\n").unwrap();
    path
}

/// A response item at `at`.
fn item(at: &str, payload: Value) -> Value {
    json!({"timestamp": at, "type": "response_item", "payload": payload})
}

/// The person's message of `parts`, at `at`.
fn said(at: &str, parts: &[&str]) -> Value {
    let content: Vec<Value> = parts
        .iter()
        .map(|t| json!({"type": "input_text", "text": t}))
        .collect();
    item(
        at,
        json!({"type": "message", "role": "user", "content": content}),
    )
}

/// The agent's answer at `at`.
fn answered(at: &str, text: &str) -> Value {
    item(
        at,
        json!({"type": "message", "role": "assistant",
               "content": [{"type": "output_text", "text": text}]}),
    )
}

/// A shell call and its output at `at`: work.
fn worked(at: &str, call: &str, command: &str) -> [Value; 2] {
    [
        item(
            at,
            json!({"type": "function_call", "name": "shell_command", "call_id": call,
                   "arguments": json!({"command": command}).to_string()}),
        ),
        item(
            at,
            json!({"type": "function_call_output", "call_id": call,
                   "output": "Exit code: 0\nOutput:\nok"}),
        ),
    ]
}

const PLUGINS: &str = "<recommended_plugins>\nHere is a list of plugins that are available but not installed. Suggest one when the query would benefit from it.\n\n- Calendar (calendar@curated)\n- Drive (drive@curated)\n</recommended_plugins>";
const AGENTS_MD: &str =
    "# AGENTS.md instructions\n\n<INSTRUCTIONS>\nThe shop sells tea; run mix test before you say done.\n</INSTRUCTIONS>";
const ENVIRONMENT: &str = "<environment_context>\n  <cwd>/home/dev/tea-shop</cwd>\n  <shell>bash</shell>\n</environment_context>";

/// Class: what Codex adds to the person's turn in its own tags — the plug-ins it offers
/// (0.142 on, beside the AGENTS.md text or in a message of its own), a skill's text, a
/// review's results, a sub-agent's report, and a tag of the same form no version writes
/// yet — is a note, never a title or a question.
#[test]
fn what_codex_adds_in_its_own_tags_is_no_prompt() {
    let lib = TempLib::init(None);
    let dir = lib.path("sessions/2026/07/20");
    let asked = |n: usize| format!("Count a bundle of teas as one item in the cart badge ({n})");
    let mut cases: Vec<Vec<Value>> = Vec::new();
    // 0.145: the offer, the AGENTS.md text and the environment as parts of one message.
    cases.push(vec![
        item(
            "2026-07-20T09:00:01.000Z",
            json!({"type": "message", "role": "developer",
                   "content": [{"type": "input_text", "text": "<permissions instructions>\nsandbox\n</permissions instructions>"}]}),
        ),
        said("2026-07-20T09:00:01.000Z", &[PLUGINS, AGENTS_MD, ENVIRONMENT]),
    ]);
    // The offer in a message of its own.
    cases.push(vec![
        said("2026-07-20T09:00:01.000Z", &[AGENTS_MD]),
        said("2026-07-20T09:00:01.000Z", &[ENVIRONMENT]),
        said("2026-07-20T09:00:02.000Z", &[PLUGINS]),
    ]);
    // A tag no version writes yet, in the same form.
    cases.push(vec![said(
        "2026-07-20T09:00:01.000Z",
        &[
            "<workspace_hints>\nThe default branch is protected.\n</workspace_hints>",
            ENVIRONMENT,
        ],
    )]);
    let mut paths = Vec::new();
    for (n, mut records) in cases.into_iter().enumerate() {
        records.push(said("2026-07-20T09:01:00.000Z", &[&asked(n)]));
        records.extend(worked("2026-07-20T09:02:00.000Z", "call_1", "mix test"));
        records.push(answered(
            "2026-07-20T09:03:00.000Z",
            "The badge counts bundles as one.",
        ));
        let id = format!("019f8d00-0000-7000-8000-00000000000{n}");
        paths.push(rollout(&dir, &id, "0.145.0", "vscode", &records));
    }
    // 0.107 to 0.126: a skill's text after the request that names it, a review's
    // results, a sub-agent's report.
    let mut later = vec![
        said("2026-07-20T09:00:01.000Z", &[AGENTS_MD, ENVIRONMENT]),
        said(
            "2026-07-20T09:01:00.000Z",
            &["$release-notes draft the notes for 2.3"],
        ),
        said(
            "2026-07-20T09:01:00.000Z",
            &["<skill>\n<name>release-notes</name>\n<path>/home/dev/.codex/skills/release-notes/SKILL.md</path>\n---\nname: release-notes\n---\n# Release notes\nGroup the changes by area.\n</skill>"],
        ),
    ];
    later.extend(worked(
        "2026-07-20T09:02:00.000Z",
        "call_1",
        "git log --oneline v2.2..",
    ));
    later.push(answered(
        "2026-07-20T09:03:00.000Z",
        "Drafted NOTES-2.3.md.",
    ));
    later.push(said(
        "2026-07-20T09:10:00.000Z",
        &["<user_action>\n  <context>User initiated a review task. Here's the full review output from reviewer model.</context>\n  <action>review</action>\n  <results>\n  - [P2] The date is missing.\n  </results>\n</user_action>"],
    ));
    later.push(said(
        "2026-07-20T09:11:00.000Z",
        &["<subagent_notification>\n{\"agent_path\":\"019f8d00-aaaa\",\"status\":{\"completed\":\"Checked the links.\"}}\n</subagent_notification>"],
    ));
    later.extend(worked("2026-07-20T09:12:00.000Z", "call_2", "mix format"));
    later.push(answered("2026-07-20T09:13:00.000Z", "Added the date."));
    paths.push(rollout(
        &dir,
        "019f8d00-0000-7000-8000-000000000009",
        "0.126.0",
        "cli",
        &later,
    ));
    let (code, out) = {
        let ran = lib.run(&["--json", "capture", dir.to_str().unwrap()]);
        (ran.code, ran.stdout)
    };
    assert_eq!(code, 0, "{out}");
    let mut want: Vec<(String, String)> = (0..3).map(|n| (asked(n), asked(n))).collect();
    want.push((
        "$release-notes draft the notes for 2.3".into(),
        "$release-notes draft the notes for 2.3".into(),
    ));
    want.sort();
    assert_eq!(titles_and_questions(&lib), want, "{out}");
    // Shown in the transcript, as notes.
    let conn = lib.conn();
    let transcripts: Vec<String> = conn
        .prepare("select transcript from items")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let all = transcripts.join("\n");
    for note in [
        "note: <recommended_plugins>",
        "note: <workspace_hints>",
        "note: <skill>",
        "note: <user_action>",
        "note: <subagent_notification>",
    ] {
        assert!(all.contains(note), "{note} in {all}");
    }
}

/// Class: a prompt file inserted in the IDE extension's editor is read as one: its input
/// when it was filled; none when left `$ARGUMENTS`, and the segment the agent worked on
/// goes on with the request before it (or is titled by the agent's report); without
/// work, no item.
#[test]
fn a_prompt_file_in_the_ide_wrapper_is_read_as_a_prompt_file() {
    let lib = TempLib::init(None);
    let dir = lib.path("sessions/2026/07/21");
    let ide = |request: &str| {
        format!("# Context from my IDE setup:\n\n## Active file: lib/shop/cart.ex\n\n## Open tabs:\n- cart.ex: lib/shop/cart.ex\n\n## My request for Codex:\n{request}\n")
    };
    let template = |input: &str| {
        format!("## User Input\n\n```text\n{input}\n```\n\nYou **MUST** consider the user input before proceeding (if not empty).\n\n## Outline\n\n1. Run the prerequisite checks.\n2. Write the tasks.")
    };
    // Filled: its input.
    let mut filled = vec![said(
        "2026-07-21T09:00:00.000Z",
        &[&ide(&template("Let shoppers keep a wishlist of teas"))],
    )];
    filled.extend(worked("2026-07-21T09:01:00.000Z", "call_1", "mix test"));
    filled.push(answered(
        "2026-07-21T09:02:00.000Z",
        "Wrote specs/007-wishlist/spec.md.",
    ));
    rollout(
        &dir,
        "019f9000-0000-7000-8000-000000000001",
        "0.77.0",
        "vscode",
        &filled,
    );
    // Unfilled, hours after a request, with Windows line ends: the request, continued.
    let mut after = vec![said(
        "2026-07-21T09:00:00.000Z",
        &[&ide("Add a gift wrap option to checkout")],
    )];
    after.extend(worked("2026-07-21T09:01:00.000Z", "call_1", "mix test"));
    after.push(answered("2026-07-21T09:02:00.000Z", "Added the option."));
    after.push(said(
        "2026-07-21T13:00:00.000Z",
        &[&ide(&template("$ARGUMENTS")).replace('\n', "\r\n")],
    ));
    after.extend(worked("2026-07-21T13:01:00.000Z", "call_2", "mix test"));
    after.push(answered("2026-07-21T13:02:00.000Z", "All tasks are done."));
    rollout(
        &dir,
        "019f9000-0000-7000-8000-000000000002",
        "0.77.0",
        "vscode",
        &after,
    );
    // Unfilled, alone, worked on: the agent's report.
    let mut alone = vec![said(
        "2026-07-21T09:00:00.000Z",
        &[&ide(&template("$ARGUMENTS"))],
    )];
    alone.extend(worked("2026-07-21T09:01:00.000Z", "call_1", "mix test"));
    alone.push(answered(
        "2026-07-21T09:02:00.000Z",
        "## Result\n\nImplemented the wishlist API and marked tasks T010 to T014 done.",
    ));
    rollout(
        &dir,
        "019f9000-0000-7000-8000-000000000003",
        "0.77.0",
        "vscode",
        &alone,
    );
    // Unfilled, alone, only answered: no item.
    let idle = vec![
        said("2026-07-21T09:00:00.000Z", &[&ide(&template("$ARGUMENTS"))]),
        answered(
            "2026-07-21T09:00:05.000Z",
            "The input is empty: what should the feature do?",
        ),
    ];
    rollout(
        &dir,
        "019f9000-0000-7000-8000-000000000004",
        "0.77.0",
        "vscode",
        &idle,
    );
    let ran = lib.run(&["--json", "capture", dir.to_str().unwrap()]);
    assert_eq!(ran.code, 0, "{}", ran.stdout);
    let doc: Value = serde_json::from_str(ran.stdout.trim()).unwrap();
    assert_eq!(doc["skipped"]["segment without a request"], 1, "{doc}");
    let mut want = vec![
        (
            "Let shoppers keep a wishlist of teas".to_string(),
            "Let shoppers keep a wishlist of teas".to_string(),
        ),
        (
            "Add a gift wrap option to checkout".into(),
            "Add a gift wrap option to checkout".into(),
        ),
        (
            "Add a gift wrap option to checkout (continued)".into(),
            String::new(),
        ),
        (
            "Implemented the wishlist API and marked tasks T010 to T014 done.".into(),
            String::new(),
        ),
    ];
    want.sort();
    assert_eq!(titles_and_questions(&lib), want, "{doc}");
}

/// Class: the IDE extension's calls of Codex that name a task (0.81 to 0.89, `exec`)
/// make no items.
#[test]
fn the_ide_extension_s_title_calls_make_no_items() {
    let lib = TempLib::init(None);
    let dir = lib.path("sessions/2026/07/22");
    for (n, prompt) in [
        "Generate a concise UI title (20-40 characters) for this task.\nReturn only the title. No quotes or trailing punctuation.\n\nTask:\nmake the cart badge count bundles once",
        "You are a helpful assistant. You will be presented with a user prompt, and your job is to provide a short title for a task that will be created from that prompt.\n\nUser prompt:\nmake the cart badge count bundles once",
    ]
    .iter()
    .enumerate()
    {
        let records = vec![
            said("2026-07-22T09:00:00.000Z", &[AGENTS_MD, ENVIRONMENT]),
            said("2026-07-22T09:00:01.000Z", &[prompt]),
            answered("2026-07-22T09:00:03.000Z", "Bundle count in cart badge"),
        ];
        let id = format!("019f9100-0000-7000-8000-00000000000{n}");
        rollout(&dir, &id, "0.89.0", "exec", &records);
    }
    let mut own = vec![said(
        "2026-07-22T09:00:00.000Z",
        &["make the cart badge count bundles once"],
    )];
    own.extend(worked("2026-07-22T09:01:00.000Z", "call_1", "mix test"));
    own.push(answered("2026-07-22T09:02:00.000Z", "Done."));
    rollout(
        &dir,
        "019f9100-0000-7000-8000-000000000009",
        "0.89.0",
        "vscode",
        &own,
    );
    let ran = lib.run(&["--json", "capture", dir.to_str().unwrap()]);
    let doc: Value = serde_json::from_str(ran.stdout.trim()).unwrap();
    assert_eq!(doc["skipped"]["helper call of the agent"], 2, "{doc}");
    assert_eq!(
        titles(&lib),
        vec![(
            "codex".to_string(),
            "make the cart badge count bundles once".to_string()
        )]
    );
}
