//! `--show-sql`: every query command prints the `sqlite3` shell lines that give its rows
//! again, and the Debian shell run on them from the repository's root gives the rows the
//! CLI answered, in the same order; `--explain --json` carries the same lines as `sql`.
use std::process::Command;

use serde_json::Value;

use crate::common::cli::TempLib;
use crate::common::{extension_path, pipe, root};

/// The bundled sample in a library the shell's SQLite 3.40 can read (it has no
/// `trigram remove_diacritics`, 3.45+).
fn sample() -> TempLib {
    let lib = TempLib::init(Some("unicode61 remove_diacritics 2"));
    let sample = root().join("examples/sample.jsonl");
    lib.run(&["import", sample.to_str().unwrap()]).ok();
    lib
}

/// The replay `args --show-sql` prints, run in the shell: its rows as JSON objects.
fn replayed(lib: &TempLib, args: &[&str]) -> (String, Vec<Value>) {
    let mut full = args.to_vec();
    full.push("--show-sql");
    let script = lib.run(&full).ok().stdout;
    let out = pipe(
        Command::new("sqlite3").arg("-json").current_dir(root()),
        &script,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "sqlite3 said: {stderr}\n{script}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let rows = match stdout.trim() {
        "" => Vec::new(),
        text => serde_json::from_str(text).expect("the shell's JSON"),
    };
    (script, rows)
}

/// The CLI's rows for `args`: `results`, or `get`'s `items` (or its one `item`).
fn answered(lib: &TempLib, args: &[&str]) -> Vec<Value> {
    let doc = lib.json(args);
    match (doc.get("results"), doc.get("items"), doc.get("item")) {
        (Some(r), _, _) | (_, Some(r), _) => r.as_array().unwrap().clone(),
        (_, _, Some(item)) => vec![item.clone()],
        _ => panic!("no rows in {doc}"),
    }
}

#[test]
fn each_query_s_replay_gives_its_rows_in_the_shell() {
    let lib = sample();
    let prompt = "why does the importer fail with database is locked";
    let cases: Vec<Vec<&str>> = vec![
        vec!["search", "database is locked", "--project", "api"],
        vec!["search", "deploy", "--kind", "decision", "--scope", "all"],
        // Pruning drops common words: the pruned match is what is bound.
        vec!["search", "the api tests and the deploy", "--prune", "0.05"],
        // Quotes, a backslash, a newline and an operator word in the text.
        vec!["search", "it's \"locked\" \\ NOT\nagain OR importer"],
        vec!["search", "--file", "src/ratelimit.rs"],
        vec!["search", "borrow", "--file", "src/ratelimit.rs"],
        vec!["timeline", "--project", "api", "--since", "2025-01-01"],
        vec!["timeline", "--around", "130", "--before", "2"],
        vec!["later", "31"],
        vec!["related", prompt],
        vec!["get", "3", "5", "9"],
        vec!["get", "130"],
        vec!["search", "database is locked", "--allow", "agent-*"],
    ];
    for args in &cases {
        let want = answered(&lib, args);
        let (script, got) = replayed(&lib, args);
        assert!(
            script.contains(&format!(".load {}", extension_path().display())),
            "{script}"
        );
        let fields = |rows: &[Value]| -> Vec<(i64, String)> {
            rows.iter()
                .map(|r| {
                    (
                        r["id"].as_i64().unwrap(),
                        r["title"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect()
        };
        assert_eq!(fields(&got), fields(&want), "{args:?}\n{script}");
        if args[0] == "search" && !args.contains(&"--file") {
            // The scores too, as the CLI printed them.
            for (g, w) in got.iter().zip(&want) {
                let (g, w) = (g["score"].as_f64().unwrap(), w["score"].as_f64().unwrap());
                assert!(
                    (g - w).abs() <= 1e-9 * w.abs().max(1.0),
                    "{args:?}: {g} {w}"
                );
            }
        }
    }
    // Not every case may be empty: the comparison means something.
    let nonempty = cases
        .iter()
        .filter(|a| !answered(&lib, a).is_empty())
        .count();
    assert!(nonempty >= cases.len() - 2, "{nonempty} of {}", cases.len());
}

#[test]
fn explain_carries_the_same_replay() {
    let lib = sample();
    for args in [
        vec!["search", "database is locked", "--explain"],
        vec!["timeline", "--project", "api", "--explain"],
        vec!["later", "31", "--explain"],
        vec!["search", "--file", "src/ratelimit.rs", "--explain"],
    ] {
        let doc = lib.json(&args);
        let sql = doc["explain"]["sql"]
            .as_str()
            .expect("explain.sql")
            .to_string();
        let mut plain: Vec<&str> = args.clone();
        plain.retain(|a| *a != "--explain");
        plain.push("--show-sql");
        let printed = lib.run(&plain).ok().stdout;
        // The same lines, but for the clock a search reads anew each run.
        let without_now = |s: &str| -> Vec<String> {
            s.lines()
                .filter(|l| !l.starts_with(".parameter set :now "))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(without_now(&sql), without_now(&printed), "{args:?}");
        assert!(
            sql.contains(&format!(
                ".read sql/{}.sql",
                match args[0] {
                    "search" if args.contains(&"--file") => "file_items",
                    other => other,
                }
            )),
            "{sql}"
        );
    }
}
