//! `timeline --around ID`: the items just before and after one item, oldest first, in its
//! project (or its source's items without one), against a reference computed here from
//! the fixtures; access globs, missing ids, the ends of a project, ties in time, kinds,
//! `--scope all`; and `sql/timeline_around.sql` in the sqlite3 shell.
use serde_json::{json, Value};

use crate::common::cli::{ids, TempLib};
use crate::common::{extension_path, root, shell_ok};

/// (id, source, project, time, kind) of the fixtures, ids 1, 2, … in order.
const ITEMS: [(&str, Option<&str>, &str, Option<&str>); 12] = [
    ("s", Some("shop"), "2025-01-01T10:00:00Z", Some("decision")),
    ("s", Some("shop"), "2025-01-01T11:00:00Z", None),
    // A tie in time with the item before: ids order them.
    ("s", Some("shop"), "2025-01-01T11:00:00Z", Some("bugfix")),
    ("s", Some("other"), "2025-01-01T11:30:00Z", Some("decision")),
    (
        "secret",
        Some("shop"),
        "2025-01-01T12:00:00Z",
        Some("decision"),
    ),
    ("s", Some("shop"), "2025-01-01T13:00:00Z", Some("note")),
    ("s", None, "2025-01-01T10:30:00Z", Some("decision")),
    ("s", None, "2025-01-01T12:30:00Z", None),
    ("t", None, "2025-01-01T11:00:00Z", None),
    ("s", Some("shop"), "2025-01-01T14:00:00Z", Some("decision")),
    // Written before item 2 in time, though its id is higher.
    ("s", Some("shop"), "2025-01-01T10:30:00Z", None),
    ("s", None, "2025-01-01T12:30:00Z", Some("gotcha")),
];

fn lines() -> String {
    ITEMS
        .iter()
        .enumerate()
        .map(|(i, (source, project, at, kind))| {
            json!({"source": source, "project": project, "title": format!("item number {}", i + 1),
                   "occurred_at": at, "kind": kind})
            .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn library(tokenizer: Option<&str>) -> TempLib {
    let lib = TempLib::init(tokenizer);
    lib.import(&lines()).ok();
    lib
}

/// What `--around` should answer, computed from the fixtures: the readable items of the
/// anchor's neighbourhood in (time, id) order, `before` of them before it and `after`
/// after, of the kinds asked.
fn expected(
    anchor: usize,
    before: usize,
    after: usize,
    readable: &dyn Fn(&str) -> bool,
    kinds: &[&str],
    everywhere: bool,
) -> Vec<i64> {
    let (source, project, ..) = ITEMS[anchor - 1];
    let mut near: Vec<(&str, i64)> = ITEMS
        .iter()
        .enumerate()
        .filter(|(_, (s, p, _, k))| {
            let mine = everywhere
                || match project {
                    Some(_) => *p == project,
                    None => p.is_none() && *s == source,
                };
            mine && readable(s) && (kinds.is_empty() || k.is_some_and(|k| kinds.contains(&k)))
        })
        .map(|(i, (_, _, at, _))| (*at, i as i64 + 1))
        .filter(|(_, id)| *id != anchor as i64)
        .collect();
    near.push((ITEMS[anchor - 1].2, anchor as i64));
    near.sort();
    let at = near
        .iter()
        .position(|(_, id)| *id == anchor as i64)
        .expect("anchor");
    near[at.saturating_sub(before)..(at + 1 + after).min(near.len())]
        .iter()
        .map(|(_, id)| *id)
        .collect()
}

fn around(lib: &TempLib, id: usize, before: usize, after: usize, extra: &[&str]) -> Value {
    let (id, b, a) = (id.to_string(), before.to_string(), after.to_string());
    let mut args = vec!["timeline", "--around", &id, "--before", &b, "--after", &a];
    args.extend_from_slice(extra);
    lib.json(&args)
}

#[test]
fn the_items_around_each_item_in_time() {
    let lib = library(None);
    let all = |_: &str| true;
    for anchor in 1..=ITEMS.len() {
        for (before, after) in [(0, 0), (1, 1), (2, 3), (5, 0), (0, 5), (50, 50)] {
            let answer = around(&lib, anchor, before, after, &[]);
            let want = expected(anchor, before, after, &all, &[], false);
            assert_eq!(ids(&answer), want, "around {anchor} -{before} +{after}");
            // The item itself, and only it, is flagged.
            let flagged: Vec<i64> = answer["results"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|r| r["anchor"] == json!(true))
                .map(|r| r["id"].as_i64().unwrap())
                .collect();
            assert_eq!(flagged, [anchor as i64]);
            assert_eq!(answer["settings"]["around"], json!(anchor));
        }
    }
    // The defaults: three on each side.
    let answer = lib.json(&["timeline", "--around", "6"]);
    assert_eq!(ids(&answer), expected(6, 3, 3, &all, &[], false));
    // At the very start and end of its project, one side is empty.
    assert_eq!(ids(&around(&lib, 1, 3, 1, &[])), [1, 11]);
    assert_eq!(ids(&around(&lib, 10, 1, 3, &[])), [6, 10]);
    // Ties in time: 2 and 3 share a time and follow their ids.
    assert_eq!(ids(&around(&lib, 3, 1, 1, &[])), [2, 3, 5]);
    assert_eq!(ids(&around(&lib, 2, 1, 1, &[])), [11, 2, 3]);
    // An item without a project: its source's items without one.
    assert_eq!(ids(&around(&lib, 8, 5, 5, &[])), [7, 8, 12]);
    assert_eq!(ids(&around(&lib, 9, 5, 5, &[])), [9]);
}

#[test]
fn text_output_marks_the_item() {
    let lib = library(None);
    let out = lib
        .run(&["timeline", "--around", "3", "--before", "1", "--after", "1"])
        .ok()
        .stdout;
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].starts_with("  [2] 2025-01-01 item number 2 (shop, s)"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("> [3] 2025-01-01 item number 3 (shop, s; bugfix)"),
        "{out}"
    );
    assert!(lines[2].starts_with("  [5] "), "{out}");
}

#[test]
fn access_globs_kinds_and_scope() {
    let lib = library(None);
    let readable = |s: &str| s != "secret";
    // Under --allow, a forbidden neighbour is not there, and a forbidden item answers
    // as a missing one does, in the words of get.
    for anchor in [2, 3, 6, 10] {
        let answer = around(&lib, anchor, 2, 2, &["--allow", "s", "--allow", "t"]);
        assert_eq!(
            ids(&answer),
            expected(anchor, 2, 2, &readable, &[], false),
            "{anchor}"
        );
    }
    let forbidden = lib.run(&["timeline", "--around", "5", "--allow", "s"]);
    let got = lib.run(&["get", "5", "--allow", "s"]);
    assert_eq!(forbidden.code, 2);
    assert_eq!(forbidden.stderr, got.stderr);
    let missing = lib.run(&["timeline", "--around", "404"]);
    assert_eq!(missing.code, 2);
    assert_eq!(missing.stderr, lib.run(&["get", "404"]).stderr);
    assert!(missing.stderr.contains("no item 404"), "{}", missing.stderr);
    // --kind keeps the neighbours of those kinds; the item itself is always there.
    for anchor in [2, 6, 10] {
        let answer = around(
            &lib,
            anchor,
            2,
            2,
            &["--kind", "decision", "--kind", "note"],
        );
        let want = expected(anchor, 2, 2, &|_| true, &["decision", "note"], false);
        assert_eq!(ids(&answer), want, "{anchor}");
    }
    // --scope all: its neighbours in the whole library.
    for anchor in [4, 7, 9] {
        let answer = around(&lib, anchor, 3, 3, &["--scope", "all"]);
        let want = expected(anchor, 3, 3, &|_| true, &[], true);
        assert_eq!(ids(&answer), want, "{anchor}");
    }
    // Out of range and flags that make no sense with it: one line, exit 2.
    lib.run(&["timeline", "--around", "2", "--before", "51"])
        .fails_with("--before must be a whole number from 0 to 50, got 51");
    lib.run(&["timeline", "--around", "2", "--project", "shop"])
        .fails_with("cannot be used with");
    lib.run(&["timeline", "--before", "2"])
        .fails_with("--around");
}

/// `sql/timeline_around.sql` in the Debian sqlite3 shell gives the CLI's answer.
#[test]
fn the_file_runs_in_the_shell() {
    let tokenizer = "unicode61 remove_diacritics 2";
    let lib = library(Some(tokenizer));
    let file = root().join("sql/timeline_around.sql");
    for (anchor, before, after, kinds, allow) in [
        (3, 1, 1, None, None),
        (6, 2, 5, None, None),
        (8, 5, 5, None, None),
        (6, 3, 3, Some(r#"[\"decision\"]"#), None),
        (6, 3, 3, None, Some(r#"[\"s\"]"#)),
        (5, 3, 3, None, Some(r#"[\"s\"]"#)),
    ] {
        let mut script = format!(
            ".load {}\n.mode list\n.parameter set :item_id {anchor}\n.parameter set :before {before}\n.parameter set :after {after}\n",
            extension_path().display()
        );
        let mut args = vec![
            "timeline".to_string(),
            "--around".into(),
            anchor.to_string(),
            "--before".into(),
            before.to_string(),
            "--after".into(),
            after.to_string(),
        ];
        if let Some(k) = kinds {
            script.push_str(&format!(".parameter set :kinds \"'{k}'\"\n"));
            args.extend(["--kind".into(), "decision".into()]);
        }
        if let Some(a) = allow {
            script.push_str(&format!(".parameter set :sources \"'{a}'\"\n"));
            args.extend(["--allow".into(), "s".into()]);
        }
        script.push_str(&format!(".read {}\n", file.display()));
        let out = shell_ok(&[lib.db.as_os_str()], &script);
        let shell: Vec<(i64, String)> = out
            .lines()
            .map(|l| {
                let cells: Vec<&str> = l.split('|').collect();
                (cells[0].parse().expect("id"), cells[7].to_string())
            })
            .collect();
        let mut full = vec!["--json".to_string()];
        full.extend(args);
        let ran = lib.command().args(&full).output().expect("run");
        if shell.is_empty() {
            // A forbidden item: no row in the shell, an error from the CLI.
            assert_eq!(ran.status.code(), Some(2), "{anchor}");
            continue;
        }
        let cli: Value = serde_json::from_slice(&ran.stdout).expect("JSON");
        let cli: Vec<(i64, String)> = cli["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let anchor = if r["anchor"] == json!(true) { "1" } else { "0" };
                (r["id"].as_i64().unwrap(), anchor.to_string())
            })
            .collect();
        assert_eq!(shell, cli, "around {anchor}");
    }
}
