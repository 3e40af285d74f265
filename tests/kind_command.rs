//! `recall kind KIND ID…` and `recall kind --none ID…`: the kind of stored items set and
//! taken away, shown by `get` and found by `--kind`; an unknown kind, an id where the
//! kind goes, no id and a word that is not an id refused in one line with the library
//! unchanged byte for byte; missing and forbidden ids left alone, named, exit 1; the
//! configuration's `[kinds] extra`; `--json`'s object; `check` clean after.
use serde_json::json;

use crate::common::cli::{ids, TempLib};

fn library() -> TempLib {
    let lib = TempLib::init(None);
    let items = [
        json!({"source": "agent", "project": "shop", "title": "Drop the analytics script",
               "occurred_at": "2025-01-01T00:00:00Z"}),
        json!({"source": "agent", "project": "shop", "title": "Analytics script loads twice",
               "occurred_at": "2025-01-02T00:00:00Z", "kind": "bugfix"}),
        json!({"source": "human", "project": "shop", "title": "Analytics script consent order",
               "occurred_at": "2025-01-03T00:00:00Z"}),
    ];
    let jsonl: String = items.iter().map(|i| format!("{i}\n")).collect();
    lib.import(&jsonl).ok();
    lib
}

fn kind_of(lib: &TempLib, id: i64) -> serde_json::Value {
    lib.json(&["get", &id.to_string()])["item"]["kind"].clone()
}

#[test]
fn kind_sets_and_none_takes_away() {
    let lib = library();
    let set = lib.run(&["kind", "decision", "1", "3"]).ok();
    assert_eq!(set.stdout, "1, 3: kind decision\n");
    assert_eq!(kind_of(&lib, 1), "decision");
    assert_eq!(kind_of(&lib, 3), "decision");
    assert_eq!(
        kind_of(&lib, 2),
        "bugfix",
        "an item not named keeps its kind"
    );
    let found = lib.json(&["search", "analytics script", "--kind", "decision"]);
    let mut found = ids(&found);
    found.sort();
    assert_eq!(found, vec![1, 3]);
    let listed = lib.run(&["get", "1"]).ok().stdout;
    assert!(
        listed
            .lines()
            .next()
            .unwrap_or("")
            .ends_with("(shop, agent; decision)"),
        "{listed}"
    );
    let none = lib.run(&["kind", "--none", "2"]).ok();
    assert_eq!(none.stdout, "2: no kind\n");
    assert_eq!(kind_of(&lib, 2), serde_json::Value::Null);
    let doc = lib.json(&["kind", "gotcha", "2"]);
    assert_eq!(
        doc,
        json!({"command": "kind", "ids": [2], "kind": "gotcha", "missing": []})
    );
    lib.run(&["check"]).ok();
}

#[test]
fn bad_requests_are_one_line_and_change_nothing() {
    let lib = library();
    lib.checkpoint();
    let before = lib.files();
    for (args, needle) in [
        (vec!["kind", "nonsense", "1"], "not a known kind"),
        (vec!["kind", "1", "2"], "is an id, not a kind"),
        (vec!["kind", "decision"], "no id given"),
        (vec!["kind", "decision", "one"], "is not an item's id"),
        (vec!["kind", "Decision!", "1"], "the kind"),
        (
            vec!["kind", "--none"],
            "required arguments were not provided",
        ),
    ] {
        let ran = lib.run(&args);
        assert_eq!(ran.code, 2, "{args:?}: {ran:?}");
        assert_eq!(ran.stderr.lines().count(), 1, "{args:?}: {}", ran.stderr);
        assert!(ran.stderr.contains(needle), "{args:?}: {}", ran.stderr);
    }
    assert_eq!(lib.files(), before, "no refused request changed a byte");
}

#[test]
fn missing_and_forbidden_ids_are_left_alone_and_named() {
    let lib = library();
    let ran = lib.run(&["kind", "note", "1", "99"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(ran.stdout, "1: kind note\n");
    assert!(ran.stderr.contains("no item 99"), "{}", ran.stderr);
    assert_eq!(kind_of(&lib, 1), "note");
    // Item 3 is human's: under --allow 'agent*' it is as a missing one.
    let ran = lib.run(&["kind", "decision", "3", "2", "--allow", "agent*"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(ran.stderr.contains("no item 3"), "{}", ran.stderr);
    assert_eq!(kind_of(&lib, 3), serde_json::Value::Null);
    assert_eq!(kind_of(&lib, 2), "decision");
}

#[test]
fn the_configuration_adds_kinds() {
    let lib = library();
    let config = lib.path("recall.toml");
    std::fs::write(&config, "[kinds]\nextra = [\"runbook\"]\n").expect("config");
    let config = config.to_string_lossy().to_string();
    let refused = lib.run(&["kind", "runbook", "1"]);
    assert_eq!(refused.code, 2, "{refused:?}");
    lib.run(&["--config", &config, "kind", "runbook", "1"]).ok();
    assert_eq!(kind_of(&lib, 1), "runbook");
}
