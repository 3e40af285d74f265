//! The conversational labeled set (`examples/conversation_library.jsonl` and
//! `conversation_cases.jsonl`): it imports, its labels point at the items they mean, it
//! holds what docs/evaluation.md says it holds, and `recall eval` on it agrees with
//! `recall search` run case by case.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::cli::{ids, TempLib};
use crate::common::root;
use serde_json::Value;

fn lines(name: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(root().join("examples").join(name)).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        // The cases' first line names the items file (docs/evaluation.md#cases).
        .filter(|v| v.get("items").is_none())
        .collect()
}

fn library() -> TempLib {
    let lib = TempLib::init(None);
    let items = root().join("examples/conversation_library.jsonl");
    lib.run(&["import", items.to_str().unwrap()]).ok();
    lib
}

fn cases_path() -> String {
    root()
        .join("examples/conversation_cases.jsonl")
        .to_string_lossy()
        .into_owned()
}

fn id_list(case: &Value, field: &str) -> Vec<i64> {
    case.get(field)
        .and_then(Value::as_array)
        .map(|a| a.iter().map(|x| x.as_i64().unwrap()).collect())
        .unwrap_or_default()
}

fn tagged(case: &Value, tag: &str) -> bool {
    case["tags"].as_array().unwrap().iter().any(|t| t == tag)
}

/// The first 10 ids `recall --json search` gives for a case, run on its own.
fn shown(lib: &TempLib, case: &Value) -> Vec<i64> {
    let mut args = vec![
        "search",
        case["query"].as_str().unwrap(),
        "--now",
        case["now"].as_str().unwrap(),
    ];
    if let Some(p) = case.get("project").and_then(Value::as_str) {
        args.extend(["--project", p]);
    }
    let mut found = ids(&lib.json(&args));
    found.truncate(10);
    found
}

/// Each item's neighbours in time: the ids of the items within `radius` places of it,
/// ordered by `occurred_at`, among the items of its project (its source when it has
/// none) when `scoped`, else among all. The file's items carry no ids: import numbers
/// them from 1 in order.
fn neighbours(items: &[Value], radius: usize, scoped: bool) -> BTreeMap<i64, Vec<i64>> {
    let mut scopes: BTreeMap<(String, String), Vec<(String, i64)>> = BTreeMap::new();
    for (item, id) in items.iter().zip(1..) {
        let scope = match item["project"].as_str() {
            _ if !scoped => (String::new(), String::new()),
            Some(p) => ("project".to_string(), p.to_string()),
            None => (
                "source".to_string(),
                item["source"].as_str().unwrap().into(),
            ),
        };
        let at = item["occurred_at"].as_str().unwrap().to_string();
        scopes.entry(scope).or_default().push((at, id));
    }
    let mut near = BTreeMap::new();
    for run in scopes.values_mut() {
        run.sort();
        for (i, (_, id)) in run.iter().enumerate() {
            let from = i.saturating_sub(radius);
            let to = (i + radius + 1).min(run.len());
            let others = (from..to).filter(|&j| j != i).map(|j| run[j].1).collect();
            near.insert(*id, others);
        }
    }
    near
}

#[test]
fn the_conversational_set_holds_what_its_documentation_says() {
    let items = lines("conversation_library.jsonl");
    let cases = lines("conversation_cases.jsonl");
    assert!((300..=450).contains(&items.len()), "{} items", items.len());
    let projects: BTreeSet<&str> = items.iter().filter_map(|i| i["project"].as_str()).collect();
    assert!(projects.len() >= 6, "{projects:?}");
    assert!(items.iter().any(|i| i["project"].is_null()));
    assert!(cases.len() >= 110, "{} cases", cases.len());
    let count = |tag: &str| cases.iter().filter(|c| tagged(c, tag)).count();
    assert!(count("answer-in-self") >= 10);
    let nothing = cases
        .iter()
        .filter(|c| id_list(c, "expect").is_empty() && c.get("must_not").is_none())
        .count();
    assert!(nothing >= 8, "{nothing} cases expect nothing");
    for tag in [
        "next-turn",
        "two-away",
        "cause-after-incident",
        "decision",
        "error-diagnosis",
        "multi-hop",
        "wrong-neighbour",
        "no-project",
        "no-answer",
    ] {
        assert!(count(tag) >= 3, "{tag}: {} cases", count(tag));
    }

    // Every label names an item of the library, in the case's project when it has one.
    let lib = library();
    assert_eq!(lib.count("select count(*) from items"), items.len() as i64);
    for case in &cases {
        for id in id_list(case, "expect")
            .into_iter()
            .chain(id_list(case, "must_not"))
        {
            let got = lib.json(&["get", &id.to_string()]);
            let item = &items[id as usize - 1];
            assert_eq!(got["item"]["title"], item["title"], "{}", case["id"]);
            if let Some(p) = case.get("project") {
                assert_eq!(&item["project"], p, "{}: item {id}", case["id"]);
            }
        }
    }
}

#[test]
fn the_answers_sit_next_to_what_the_words_match() {
    let items = lines("conversation_library.jsonl");
    let cases = lines("conversation_cases.jsonl");
    let lib = library();
    let near = neighbours(&items, 4, true);
    let near_in_time = neighbours(&items, 4, false);
    let answers = lib.json(&["eval", &cases_path()]);
    let report = &answers["variants"][0];
    let by_id: BTreeMap<&str, &Value> = report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["id"].as_str().unwrap(), c))
        .collect();
    for case in &cases {
        let found = shown(&lib, case);
        let id = case["id"].as_str().unwrap();
        // The eval shows what search shows.
        assert_eq!(by_id[id]["shown"], serde_json::json!(found), "{id}");
        for expected in id_list(case, "expect") {
            if tagged(case, "answer-in-self") {
                // The answer's own words match: literal search finds it.
                assert!(
                    found.contains(&expected),
                    "{id}: {expected} not in {found:?}"
                );
            } else {
                // The rest are the point of the set: the words match an item in the same
                // project (or source) at most four places away from the answer.
                assert!(
                    near[&expected].iter().any(|n| found.contains(n)),
                    "{id}: no neighbour of {expected} in {found:?}"
                );
            }
        }
        // A forbidden item is next in time to a match and answers nothing: another
        // exchange of the project, or another source written in the same minutes.
        for bad in id_list(case, "must_not") {
            assert!(
                near[&bad]
                    .iter()
                    .chain(&near_in_time[&bad])
                    .any(|n| found.contains(n)),
                "{id}: {bad} is next to nothing shown"
            );
        }
    }
    // Context must not cost the cases whose answer matches by its own words (measured
    // without it: Recall@10 1.000, MRR 0.981).
    let own = &report["per_tag"]["answer-in-self"];
    assert_eq!(own["recall_at_10"].as_f64(), Some(1.0), "{own}");
    assert!(own["mrr"].as_f64().unwrap() >= 0.95, "{own}");
}
