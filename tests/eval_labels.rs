//! Cases made against an import file name its items by the ids an import into an empty
//! library gives (`{"items": "FILE"}` first): `recall eval` finds each item in the library
//! it runs on, whatever id it has there, and refuses a library that lacks one or holds it
//! twice (docs/evaluation.md#cases).

use std::collections::BTreeMap;

use crate::common::cli::TempLib;
use crate::common::root;
use serde_json::{json, Value};

fn sample_path() -> String {
    root()
        .join("examples/sample.jsonl")
        .to_string_lossy()
        .into_owned()
}

fn cases() -> String {
    root()
        .join("examples/sample_cases.jsonl")
        .to_string_lossy()
        .into_owned()
}

/// What tells an item from the sample's others: its title and time (titles repeat).
type Key = (String, String);

/// The sample's items by the id an import into an empty library gives: its line.
fn sample_keys() -> BTreeMap<i64, Key> {
    std::fs::read_to_string(sample_path())
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            let v: Value = serde_json::from_str(l).unwrap();
            let key = (
                v["title"].as_str().unwrap().to_string(),
                v["occurred_at"].as_str().unwrap().to_string(),
            );
            (i as i64 + 1, key)
        })
        .collect()
}

/// The first 20 characters of a title, as an error line starts it.
fn start(title: &str) -> String {
    title.chars().take(20).collect()
}

/// Items that share no word with the sample's cases.
fn strangers(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "{}\n",
                json!({"source": "elsewhere", "title": format!("qqzx vvkw {i}"), "occurred_at": "2020-01-01"})
            )
        })
        .collect()
}

fn import_sample(lib: &TempLib) {
    lib.run(&["import", &sample_path()]).ok();
}

/// The library's items by id.
fn keys(lib: &TempLib) -> BTreeMap<i64, Key> {
    let conn = lib.conn();
    let mut stmt = conn
        .prepare("select id, title, occurred_at from items")
        .unwrap();
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?))))
        .unwrap();
    rows.map(Result::unwrap).collect()
}

/// The library's id of each item.
fn ids_by_key(lib: &TempLib) -> BTreeMap<Key, i64> {
    keys(lib).into_iter().map(|(id, k)| (k, id)).collect()
}

/// Each case's ranks, with the library's ids read back as the items they hold.
fn ranks_by_key(out: &Value, lib: &TempLib) -> Vec<(Key, Value)> {
    let titles = keys(lib);
    out["variants"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["ranks"].as_array().unwrap().clone())
        .map(|r| (titles[&r[0].as_i64().unwrap()].clone(), r[1].clone()))
        .collect()
}

#[test]
fn ids_follow_their_items_into_a_library_that_numbers_them_otherwise() {
    let right = TempLib::init(None);
    import_sample(&right);
    let reference = right.run(&["--json", "eval", &cases()]).ok();
    assert_eq!(reference.stderr, "", "the set's own library: no word");
    let reference = reference.json();
    assert_eq!(reference["variants"][0]["other_items"], 0);
    let titles = sample_keys();
    // The ids are the sample's lines: case-01 finds line 130 first.
    let case_01 = &reference["variants"][0]["cases"][0];
    assert_eq!(case_01["ranks"], json!([[130, 1]]));
    assert_eq!(ids_by_key(&right)[&titles[&130]], 130);

    // Shifted by 3, then 40: items imported first and forgotten, so the library holds
    // the sample alone under other ids.
    for shift in [3usize, 40] {
        let shifted = TempLib::init(None);
        shifted.import(&strangers(shift)).ok();
        import_sample(&shifted);
        let first: Vec<String> = (1..=shift).map(|i| i.to_string()).collect();
        let mut forget = vec!["forget"];
        forget.extend(first.iter().map(String::as_str));
        shifted.run(&forget).ok();
        assert_eq!(shifted.count("select min(id) from items"), shift as i64 + 1);
        let ran = shifted.run(&["--json", "eval", &cases()]).ok();
        assert_eq!(ran.stderr, "", "shift {shift}");
        let out = ran.json();
        assert_eq!(out["variants"][0]["other_items"], 0);
        assert_eq!(
            out["variants"][0]["summary"], reference["variants"][0]["summary"],
            "shift {shift}"
        );
        // Every rank names the item of the right title, at the same place.
        assert_eq!(
            ranks_by_key(&out, &shifted),
            ranks_by_key(&reference, &right)
        );
        let case_01 = &out["variants"][0]["cases"][0];
        assert_eq!(case_01["ranks"], json!([[130 + shift as i64, 1]]));
        // And as a second column of the right library's run.
        let both = right.json(&["eval", &cases(), "--library", shifted.db.to_str().unwrap()]);
        assert_eq!(
            both["variants"][1]["summary"],
            both["variants"][0]["summary"]
        );
    }
}

#[test]
fn a_library_with_other_items_is_measured_with_a_warning() {
    // The README's tour: three sessions captured, then the sample (every id off by 3);
    // and the sample first, other items after (ids as in the file).
    let tour = TempLib::init(None);
    let sessions = root().join("examples/sessions");
    tour.run(&["capture", sessions.to_str().unwrap()]).ok();
    let captured = tour.count("select count(*) from items");
    assert!(captured > 0);
    import_sample(&tour);
    let after = TempLib::init(None);
    import_sample(&after);
    after.import(&strangers(5)).ok();
    let right = TempLib::init(None);
    import_sample(&right);
    let reference = right.json(&["eval", &cases()]);
    for (lib, others) in [(&tour, captured), (&after, 5)] {
        let ran = lib.run(&["--json", "eval", &cases()]).ok();
        let warning = format!(
            "recall: warning: defaults: the library {} holds {others} items besides those of {}",
            lib.db.display(),
            sample_path()
        );
        assert!(ran.stderr.starts_with(&warning), "{}", ran.stderr);
        assert_eq!(ran.stderr.trim().lines().count(), 1, "{}", ran.stderr);
        let out = ran.json();
        assert_eq!(out["variants"][0]["other_items"], others);
        // The labels found their items: each expected item is where its title is.
        let summary = &out["variants"][0]["summary"];
        assert_eq!(
            summary["recall_at_10"],
            reference["variants"][0]["summary"]["recall_at_10"]
        );
        let by_title = ids_by_key(lib);
        let titles = sample_keys();
        for (case, want) in out["variants"][0]["cases"]
            .as_array()
            .unwrap()
            .iter()
            .zip(reference["variants"][0]["cases"].as_array().unwrap())
        {
            let expected: Vec<i64> = want["ranks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| by_title[&titles[&r[0].as_i64().unwrap()]])
                .collect();
            let got: Vec<i64> = case["ranks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r[0].as_i64().unwrap())
                .collect();
            assert_eq!(got, expected, "{}", case["id"]);
        }
    }
}

#[test]
fn a_library_that_lacks_an_item_or_holds_it_twice_is_refused() {
    let titles = sample_keys();
    let sample = std::fs::read_to_string(sample_path()).unwrap();
    // The first 100 lines: the lowest id the cases name above 100 is missing.
    let named: std::collections::BTreeSet<i64> = std::fs::read_to_string(cases())
        .unwrap()
        .lines()
        .skip(1)
        .flat_map(|l| {
            let c: Value = serde_json::from_str(l).unwrap();
            let mut ids: Vec<i64> = ["expect", "must_not"]
                .iter()
                .flat_map(|k| c[k].as_array().cloned().unwrap_or_default())
                .map(|x| x.as_i64().unwrap())
                .collect();
            ids.extend(c["item"].as_i64());
            ids
        })
        .collect();
    let part: String = sample.lines().take(100).map(|l| format!("{l}\n")).collect();
    let missing = named.iter().find(|&&id| id > 100).copied().unwrap();
    let cut = TempLib::init(None);
    cut.import(&part).ok();
    // One missing from the middle: the sample, its item 130 forgotten.
    let holed = TempLib::init(None);
    import_sample(&holed);
    holed.run(&["forget", "130"]).ok();
    for (lib, id) in [(&cut, missing), (&holed, 130)] {
        let before = lib.snapshot();
        let out = lib.run(&["eval", &cases()]).fails_with(&format!(
            "{}: the library {} lacks item {id} of sample.jsonl (\"{}",
            cases(),
            lib.db.display(),
            start(&titles[&id].0)
        ));
        assert!(
            out.stderr.contains(&format!(
                "run eval on a library made of {} alone: recall --db /tmp/cases.db init && recall --db /tmp/cases.db import {} && recall --db /tmp/cases.db eval {}",
                sample_path(), sample_path(), cases()
            )),
            "{}",
            out.stderr
        );
        assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
        assert_eq!(out.stdout, "");
        assert_eq!(lib.snapshot(), before);
    }
    // Imported twice: each item is two, and the cases cannot say which.
    let twice = TempLib::init(None);
    import_sample(&twice);
    import_sample(&twice);
    let first = *named.iter().next().unwrap();
    twice.run(&["eval", &cases()]).fails_with(&format!(
        "the library {} holds item {first} of sample.jsonl (\"{}",
        twice.db.display(),
        start(&titles[&first].0),
    ));
    twice
        .run(&["eval", &cases()])
        .fails_with(&format!("more than once (ids {first} and {})", first + 300));
    // A library of other items altogether (the code library), as a second column too.
    let code = TempLib::init(None);
    let library = root().join("examples/code_library.jsonl");
    code.run(&["import", library.to_str().unwrap()]).ok();
    code.run(&["eval", &cases()]).fails_with(&format!(
        "the library {} lacks item {first}",
        code.db.display()
    ));
    let right = TempLib::init(None);
    import_sample(&right);
    right
        .run(&["eval", &cases(), "--library", code.db.to_str().unwrap()])
        .fails_with(&format!(
            "the library {} lacks item {first}",
            code.db.display()
        ));
}

/// A set of one's own: the items line names a file beside the cases; titles the import
/// redacted are found as well; bad items lines are refused with their line.
#[test]
fn a_cases_file_of_ones_own_names_its_items() {
    let lib = TempLib::init(None);
    let secret = format!("ghp_{}", "a1B2c3D4e5".repeat(4).get(..36).unwrap());
    let items = [
        json!({"source": "me", "project": "p", "title": "deploy key rotated", "summary": format!("rotated {secret}"), "occurred_at": "2025-01-02"}),
        json!({"source": "me", "project": "p", "title": format!("token {secret} leaked into the build log"), "occurred_at": "2025-01-03T10:00:00Z"}),
        json!({"source": "me", "title": "pagination cursor bug", "occurred_at": "2025-01-04"}),
    ];
    let dir = lib.path("set");
    std::fs::create_dir(&dir).unwrap();
    let text: String = items.iter().map(|i| format!("{i}\n")).collect();
    std::fs::write(dir.join("items.jsonl"), &text).unwrap();
    let file = dir.join("cases.jsonl");
    let write = |lines: &[Value]| {
        let t: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&file, t).unwrap();
    };
    let header = json!({"items": "items.jsonl"});
    let case_lines = [
        header.clone(),
        json!({"id": "leak", "query": "leaked build log", "expect": [2], "must_not": [3]}),
        json!({"id": "cursor", "query": "pagination cursor", "expect": [3]}),
        json!({"id": "after", "item": 1, "query": "token", "expect": [2]}),
    ];
    write(&case_lines);
    lib.import(&strangers(7)).ok();
    lib.import(&text).ok();
    let stored: String = lib
        .conn()
        .query_row("select title from items where id = 9", [], |r| r.get(0))
        .unwrap();
    assert!(
        stored.contains("[redacted]") && !stored.contains(&secret),
        "{stored}"
    );
    let ran = lib.run(&["--json", "eval", file.to_str().unwrap()]).ok();
    assert!(
        ran.stderr.contains("holds 7 items besides"),
        "{}",
        ran.stderr
    );
    let out = ran.json();
    let ranks: Vec<Value> = out["variants"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["ranks"].clone())
        .collect();
    assert_eq!(ranks, [json!([[9, 1]]), json!([[10, 1]]), json!([[9, 1]])]);

    // Bad items lines, each with its line number and nothing run.
    let f = file.to_str().unwrap();
    for (lines, message) in [
        (
            vec![case_lines[1].clone(), header.clone()],
            "line 2: the items line comes first, once".to_string(),
        ),
        (
            vec![
                json!({"items": "items.jsonl", "query": "x"}),
                case_lines[1].clone(),
            ],
            "line 1: the items line is {\"items\": \"FILE\"}".to_string(),
        ),
        (
            vec![json!({"items": ""}), case_lines[1].clone()],
            "line 1: the items line is {\"items\": \"FILE\"}".to_string(),
        ),
        (
            vec![json!({"items": "nowhere.jsonl"}), case_lines[1].clone()],
            format!(
                "cannot read {} (the items of {f})",
                dir.join("nowhere.jsonl").display()
            ),
        ),
        (
            vec![header.clone(), json!({"query": "x", "expect": [4]})],
            format!("{f}: a case names item 4, which items.jsonl does not hold (3 items)"),
        ),
    ] {
        write(&lines);
        let out = lib.run(&["eval", f]).fails_with(&message);
        assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    }
    // Without an items line, the ids are the library's own, as before.
    write(&[json!({"query": "pagination cursor", "expect": [10]})]);
    let out = lib.run(&["--json", "eval", f]).ok();
    assert_eq!(out.stderr, "");
    let out = out.json();
    assert_eq!(out["variants"][0]["summary"]["recall_at_1"], 1.0);
    assert_eq!(out["variants"][0]["other_items"], Value::Null);
}
