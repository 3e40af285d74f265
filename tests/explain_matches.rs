//! `search --explain`: why each hit matched. Each result names the terms it holds, the
//! fields that hold them, and whether each stands there as a word, at the start of a
//! longer word or only inside another word (a trigram index matches substrings: `lock`
//! finds `clock`). The expectations are worked out here from the items' stored fields,
//! by a plain split into words, not by the code under test.

use crate::common::cli::{ids, titled, TempLib};
use crate::common::root;
use serde_json::{json, Value};

/// The time the sample's searches rank at, so that two answers can be compared.
const NOW: &str = "2026-01-01T00:00:00Z";

const FIELDS: [&str; 6] = [
    "title",
    "summary",
    "questions",
    "atoms",
    "project",
    "context",
];

/// How an ASCII `term` stands in an ASCII `text`, by words split on every character
/// that is not a letter or a digit: the best of `word`, `start`, `inside`; None when the
/// text does not hold it.
fn oracle(text: &str, term: &str) -> Option<&'static str> {
    let text = text.to_lowercase();
    let term = term.to_lowercase();
    if !text.contains(&term) {
        return None;
    }
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    Some(if words.contains(&term.as_str()) {
        "word"
    } else if words.iter().any(|w| w.starts_with(&term)) {
        "start"
    } else {
        "inside"
    })
}

/// The entry of `explain.matched` for item `id`.
fn hit(answer: &Value, id: i64) -> &Value {
    answer["explain"]["matched"]
        .as_array()
        .unwrap_or_else(|| panic!("no explain.matched in {answer}"))
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no matched entry for {id} in {answer}"))
}

/// An entry of `explain.matched` as (term, field, as) triples, in order.
fn triples(result: &Value) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for t in result["terms"]
        .as_array()
        .unwrap_or_else(|| panic!("no terms in {result}"))
    {
        for f in t["fields"].as_array().expect("fields") {
            out.push((
                t["term"].as_str().unwrap().to_string(),
                f["field"].as_str().unwrap().to_string(),
                f["as"].as_str().unwrap().to_string(),
            ));
        }
    }
    out
}

fn result(answer: &Value, id: i64) -> &Value {
    answer["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no result {id} in {answer}"))
}

fn field_of<'a>(result: &'a Value, term: &str, field: &str) -> &'a Value {
    result["terms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["term"] == term)
        .and_then(|t| {
            t["fields"]
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["field"] == field)
        })
        .unwrap_or_else(|| panic!("{term} not in {field} of {result}"))
}

#[test]
fn the_sample_says_which_hits_hold_lock_only_inside_clock() {
    let lib = TempLib::init(None);
    let sample = root().join("examples/sample.jsonl");
    lib.run(&["import", sample.to_str().unwrap()]).ok();
    let answer = lib.json(&["search", "database is locked", "--now", NOW, "--explain"]);
    let terms = answer["explain"]["terms"].clone();
    assert_eq!(terms, json!(["databas", "lock"]));
    let conn = lib.conn();
    let mut inside_only = Vec::new();
    for r in answer["results"].as_array().unwrap() {
        let id = r["id"].as_i64().unwrap();
        // Every term of explain.terms, in order, fields or none.
        let entry = hit(&answer, id);
        let listed: Vec<&Value> = entry["terms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| &t["term"])
            .collect();
        assert_eq!(json!(listed), terms, "terms of {id}");
        let mut expected = Vec::new();
        for term in ["databas", "lock"] {
            for field in FIELDS {
                let text: Option<String> = conn
                    .query_row(
                        &format!("select {field} from items where id = ?1"),
                        [id],
                        |row| row.get(0),
                    )
                    .unwrap();
                if let Some(standing) = oracle(text.as_deref().unwrap_or(""), term) {
                    expected.push((term.to_string(), field.to_string(), standing.to_string()));
                }
            }
        }
        assert_eq!(triples(entry), expected, "item {id}");
        let only_inside = !expected.is_empty() && expected.iter().all(|(_, _, s)| s == "inside");
        assert_eq!(entry["inside_only"], only_inside, "item {id}");
        if only_inside {
            inside_only.push(id);
        }
    }
    // The report: after the two right answers come items that hold `lock` only inside
    // `clock` (and `blocks`), and say so.
    let all = ids(&answer);
    assert!(all.contains(&130) && all.contains(&31), "{all:?}");
    for id in [130, 31] {
        assert!(!inside_only.contains(&id));
        assert_eq!(field_of(hit(&answer, id), "lock", "summary")["as"], "start");
    }
    let clock: Vec<i64> = inside_only
        .iter()
        .copied()
        .filter(|&id| field_of(hit(&answer, id), "lock", "summary")["words"] == "clock")
        .collect();
    assert!(clock.len() >= 6, "{inside_only:?}");
    assert_eq!(
        field_of(hit(&answer, 130), "databas", "title")["words"],
        "database"
    );

    // Text: one line under each hit.
    let text = lib
        .run(&["search", "database is locked", "--now", NOW, "--explain"])
        .ok()
        .stdout;
    let lines: Vec<&str> = text.lines().collect();
    // Under the hits, not again among the explain fields at the end.
    assert!(!lines.iter().any(|l| l.starts_with("matched")), "{text}");
    for id in &clock {
        let at = lines
            .iter()
            .position(|l| l.starts_with(&format!("[{id}] ")))
            .unwrap_or_else(|| panic!("no line for {id} in {text}"));
        assert_eq!(
            lines[at + 1],
            "    matched only inside other words: lock in summary (inside \"clock\")",
            "{text}"
        );
    }
    let at = lines.iter().position(|l| l.starts_with("[130] ")).unwrap();
    assert_eq!(
        lines[at + 1],
        "    matched: databas in title, summary, atoms; lock in title, summary, atoms"
    );
    // One entry per result, in order; the results are those of a search without
    // --explain, which prints nothing of it.
    let order: Vec<i64> = answer["explain"]["matched"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_i64().unwrap())
        .collect();
    assert_eq!(order, all);
    let plain = lib.json(&["search", "database is locked", "--now", NOW]);
    assert_eq!(plain["results"], answer["results"]);
    assert!(!lib
        .run(&["search", "database is locked"])
        .ok()
        .stdout
        .contains("matched"));
}

#[test]
fn accents_fold_as_the_tokenizer_folds_them() {
    // Items of one instant are each other's neighbours: their contexts are cleared, so
    // that each term is in its own item's fields only.
    let items = [
        titled("Un Café au lait").summary("").line(),
        titled("decafé tastes flat").line(),
        titled("Cafe\u{301} noir").line(),
        titled("plain tea").line(),
    ];
    // Trigram with remove_diacritics 1, the default: `cafe` finds all three, and stands
    // as a word in the first and the third (a decomposed accent belongs to its letter).
    let lib = TempLib::with_items(None, &items).without_index_context();
    let a = lib.json(&["search", "cafe", "--context-weight", "0", "--explain"]);
    let mut got: Vec<(i64, Value, Value)> = a["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let id = r["id"].as_i64().unwrap();
            let f = field_of(hit(&a, id), "cafe", "title");
            (id, f["as"].clone(), f["words"].clone())
        })
        .collect();
    got.sort_by_key(|g| g.0);
    assert_eq!(
        got,
        [
            (1, json!("word"), json!("Café")),
            (2, json!("inside"), json!("decafé")),
            (3, json!("word"), json!("Cafe\u{301}")),
        ]
    );
    assert_eq!(hit(&a, 2)["inside_only"], true);
    assert_eq!(hit(&a, 1)["inside_only"], false);
    // The accented query word, kept as written, finds the plain spelling too.
    let b = lib.json(&["search", "CAFÉ", "--context-weight", "0", "--explain"]);
    assert_eq!(b["explain"]["terms"], json!(["CAFÉ"]));
    assert_eq!(field_of(hit(&b, 1), "CAFÉ", "title")["as"], "word");

    // Trigram without remove_diacritics: `cafe` is not in `Café`, `café` is.
    let strict = TempLib::with_items(Some("trigram"), &items).without_index_context();
    let c = strict.json(&["search", "cafe", "--context-weight", "0", "--explain"]);
    assert_eq!(ids(&c), vec![3]);
    let d = strict.json(&["search", "café", "--context-weight", "0", "--explain"]);
    let mut found = ids(&d);
    found.sort();
    assert_eq!(found, vec![1, 2]);
    assert_eq!(field_of(hit(&d, 2), "café", "title")["as"], "inside");
}

#[test]
fn a_term_in_the_neighbours_titles_only_is_named_in_context() {
    let items = [
        titled("deploy failed on friday")
            .project("ops")
            .at("2025-01-01T10:00:00Z")
            .line(),
        titled("rollback of the release")
            .project("ops")
            .at("2025-01-01T10:05:00Z")
            .line(),
    ];
    let lib = TempLib::with_items(None, &items);
    let a = lib.json(&["search", "rollback", "--context-weight", "0", "--explain"]);
    let mut found = ids(&a);
    found.sort();
    assert_eq!(found, vec![1, 2]);
    assert_eq!(
        triples(hit(&a, 1)),
        [("rollback".into(), "context".into(), "word".into())]
    );
    assert_eq!(
        triples(hit(&a, 2)),
        [("rollback".into(), "title".into(), "word".into())]
    );
    let text = lib
        .run(&["search", "rollback", "--context-weight", "0", "--explain"])
        .ok()
        .stdout;
    assert!(
        text.contains("\n    matched: rollback in context\n"),
        "{text}"
    );
    // At context column weight 0 the neighbours' titles neither match nor are named.
    let b = lib.json(&[
        "search",
        "rollback",
        "--context-weight",
        "0",
        "--context-column-weight",
        "0",
        "--explain",
    ]);
    assert_eq!(ids(&b), vec![2]);
    assert_eq!(
        triples(hit(&b, 2)),
        [("rollback".into(), "title".into(), "word".into())]
    );
    // A result there only through the context stage holds no term, and says so.
    let c = lib.json(&[
        "search",
        "deploy",
        "--context-column-weight",
        "0",
        "--explain",
    ]);
    assert_eq!(result(&c, 2)["matched_by"], "context");
    assert!(triples(hit(&c, 2)).is_empty());
    assert_eq!(hit(&c, 2)["inside_only"], false);
    let text = lib
        .run(&[
            "search",
            "deploy",
            "--context-column-weight",
            "0",
            "--explain",
        ])
        .ok()
        .stdout;
    assert!(
        text.contains("next to [1]\n    matched: no term\n"),
        "{text}"
    );
}

#[test]
fn word_tokenizers_match_tokens_only() {
    let items = [
        titled("the clock ticks").line(),
        titled("the lock is stuck").line(),
        titled("Locking the table").line(),
        titled("Un Café au lait").line(),
    ];
    // unicode61: whole tokens, case and accents folded; `clock` does not hold `lock`.
    let lib =
        TempLib::with_items(Some("unicode61 remove_diacritics 2"), &items).without_index_context();
    let a = lib.json(&["search", "lock", "--context-weight", "0", "--explain"]);
    assert_eq!(ids(&a), vec![2]);
    assert_eq!(
        triples(hit(&a, 2)),
        [("lock".into(), "title".into(), "word".into())]
    );
    let b = lib.json(&["search", "CAFE", "--context-weight", "0", "--explain"]);
    assert_eq!(field_of(hit(&b, 4), "CAFE", "title")["words"], "Café");
    // porter: `locks` meets `Locking` through the stem; the text does not hold the term
    // as written, and a token is a word.
    let porter = TempLib::with_items(Some("porter unicode61 remove_diacritics 2"), &items)
        .without_index_context();
    let c = porter.json(&["search", "locks", "--context-weight", "0", "--explain"]);
    let mut found = ids(&c);
    found.sort();
    assert_eq!(found, vec![2, 3]);
    let f = field_of(hit(&c, 3), "locks", "title");
    assert_eq!((&f["as"], &f["words"]), (&json!("word"), &Value::Null));
}

#[test]
fn the_recall_tokenizer_finds_identifier_parts_inside_the_identifier() {
    let items = [
        titled("getUserName fails on empty input").line(),
        titled("the user logs in").line(),
    ];
    let lib = TempLib::with_items(Some("recall"), &items).without_index_context();
    let a = lib.json(&["search", "user", "--context-weight", "0", "--explain"]);
    let mut found = ids(&a);
    found.sort();
    assert_eq!(found, vec![1, 2]);
    let f = field_of(hit(&a, 1), "user", "title");
    assert_eq!(
        (&f["as"], &f["words"]),
        (&json!("inside"), &json!("getUserName"))
    );
    assert_eq!(field_of(hit(&a, 2), "user", "title")["as"], "word");
}

#[test]
fn a_pruned_term_is_not_named_though_the_hit_holds_it() {
    // 18 of 20 items say `common`: pruning drops it from the MATCH, so the two hits
    // matched `zircon` alone.
    let items: Vec<String> = (0..20)
        .map(|i| {
            let mut title = String::new();
            if i < 18 {
                title.push_str("common ");
            }
            if i < 2 {
                title.push_str("zircon ");
            }
            titled(&format!("{title}note {i}")).line()
        })
        .collect();
    let lib = TempLib::with_items(None, &items).without_index_context();
    let a = lib.json(&[
        "search",
        "common zircon",
        "--context-weight",
        "0",
        "--prune",
        "0.5",
        "--explain",
    ]);
    assert_eq!(a["explain"]["terms"], json!(["zircon"]));
    for id in [1, 2] {
        assert_eq!(
            triples(hit(&a, id)),
            [("zircon".into(), "title".into(), "word".into())]
        );
    }
}

#[test]
fn a_quoted_phrase_is_one_term() {
    // A quoted phrase is one term; it stands as a word where the text holds it whole.
    let items = [
        titled("Fix \"database is locked\" errors").line(),
        titled("the database is lockedown").line(),
    ];
    let lib = TempLib::with_items(None, &items).without_index_context();
    let a = lib.json(&[
        "search",
        "\"database is locked\"",
        "--context-weight",
        "0",
        "--explain",
    ]);
    assert_eq!(a["explain"]["terms"], json!(["database is locked"]));
    let f1 = field_of(hit(&a, 1), "database is locked", "title");
    assert_eq!(
        (&f1["as"], &f1["words"]),
        (&json!("word"), &json!("database is locked"))
    );
    let f2 = field_of(hit(&a, 2), "database is locked", "title");
    assert_eq!(
        (&f2["as"], &f2["words"]),
        (&json!("start"), &json!("database is lockedown"))
    );
}

#[test]
fn the_mcp_search_tool_gives_the_same_matched_with_explain() {
    let lib = TempLib::init(None);
    let sample = root().join("examples/sample.jsonl");
    lib.run(&["import", sample.to_str().unwrap()]).ok();
    let cli = lib.json(&["search", "database is locked", "--now", NOW, "--explain"]);
    let mut server = crate::common::mcp::Server::start(&lib, &[]);
    let tool = server
        .tool(
            "search",
            json!({"query": "database is locked", "now": NOW, "explain": true}),
        )
        .expect("search answers");
    let plain = server
        .tool("search", json!({"query": "database is locked", "now": NOW}))
        .expect("search answers");
    server.close_stdin();
    let matched = &tool["explain"]["matched"];
    assert_eq!(matched, &cli["explain"]["matched"]);
    assert!(matched
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["inside_only"] == true));
    assert_eq!(plain["results"], tool["results"]);
    assert!(plain.get("explain").is_none(), "{plain}");
}

#[test]
fn later_names_the_subject_terms_in_the_items_own_fields() {
    // The second item's context holds the first's title; later matches own fields only.
    let items = [
        titled("deploy failed on friday")
            .project("ops")
            .at("2025-01-01T10:00:00Z")
            .line(),
        titled("redeploy retried")
            .project("ops")
            .at("2025-01-01T10:10:00Z")
            .line(),
    ];
    let lib = TempLib::with_items(None, &items);
    let a = lib.json(&["later", "1", "--explain"]);
    assert_eq!(ids(&a), vec![2]);
    let terms = a["explain"]["terms"].clone();
    // The stems of the subject's words (docs/queries.md).
    assert_eq!(terms, json!(["deplo", "fail", "frida"]));
    assert_eq!(
        triples(hit(&a, 2)),
        [("deplo".into(), "title".into(), "inside".into())]
    );
    assert_eq!(hit(&a, 2)["inside_only"], true);
    let text = lib.run(&["later", "1", "--explain"]).ok().stdout;
    assert!(
        text.contains(
            "\n    matched only inside other words: deplo in title (inside \"redeploy\")\n"
        ),
        "{text}"
    );
}
