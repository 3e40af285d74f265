//! The SQL files of `sql/` give the same answers from the CLI and from the Debian
//! sqlite3 shell (`.load` + `.parameter set` + `.read`), on the bundled sample library.

use crate::common::cli::{ids, TempLib};
use crate::common::{extension_path, root, shell_ok};

const NOW: &str = "2025-11-29T00:00:00Z";
const TOKENIZER: &str = "unicode61 remove_diacritics 2";

fn sample() -> TempLib {
    // The shell's SQLite 3.40 cannot use trigram remove_diacritics (3.45+).
    let lib = TempLib::init(Some(TOKENIZER));
    let sample = root().join("examples/sample.jsonl");
    lib.run(&["import", sample.to_str().unwrap()]).ok();
    lib
}

/// Runs sql/<name>.sql in the shell with these parameters; returns the first column.
fn shell_ids(lib: &TempLib, name: &str, params: &[(&str, String)]) -> Vec<i64> {
    let mut script = format!(".load {}\n.mode list\n", extension_path().display());
    for (key, value) in params {
        script.push_str(&format!(".parameter set {key} {value}\n"));
    }
    script.push_str(&format!(
        ".read {}\n",
        root().join("sql").join(format!("{name}.sql")).display()
    ));
    shell_ok(&[lib.db.as_os_str()], &script)
        .lines()
        .map(|l| l.split('|').next().unwrap_or("").parse().expect("an id"))
        .collect()
}

fn quoted(s: &str) -> String {
    format!("\"'{}'\"", s.replace('\'', "''"))
}

#[test]
fn search_later_timeline_related_agree() {
    let lib = sample();
    for (query, project) in [
        ("When did we decide to remove the analytics script?", None),
        ("database is locked", Some("api")),
        ("¿Qué pasarela de pago usa la tienda?", None),
        ("ECONNREFUSED 5432", None),
        ("Bump serde", Some("shop")),
    ] {
        let mut args = vec!["search", query, "--now", NOW, "--limit", "8"];
        if let Some(p) = project {
            args.extend(["--project", p]);
        }
        let cli = ids(&lib.json(&args));
        let mut params = vec![
            (":query", quoted(query)),
            (":tokenizer", quoted(TOKENIZER)),
            (":now", quoted(NOW)),
            (":limit", "8".to_string()),
        ];
        if let Some(p) = project {
            params.push((":project", quoted(p)));
        }
        assert!(!cli.is_empty(), "{query}");
        assert_eq!(shell_ids(&lib, "search", &params), cli, "search {query}");
        // The context stage, with a gap wide enough for the sample's notes days apart.
        args.extend(["--context-weight", "0.4", "--context-radius", "2"]);
        args.extend(["--context-gap", "100000"]);
        let answer = lib.json(&args);
        let through_context = answer["results"]
            .as_array()
            .is_some_and(|r| r.iter().any(|r| r["matched_by"] == "context"));
        assert!(through_context, "{query}: no neighbour joined");
        params.extend([
            (":context_weight", "0.4".to_string()),
            (":context_radius", "2".to_string()),
            (":context_gap", "100000".to_string()),
        ]);
        assert_eq!(
            shell_ids(&lib, "search", &params),
            ids(&answer),
            "search {query} with context"
        );
    }
    for id in [14, 31, 86, 120] {
        let cli = ids(&lib.json(&["later", &id.to_string()]));
        let shell = shell_ids(
            &lib,
            "later",
            &[
                (":item_id", id.to_string()),
                (":tokenizer", quoted(TOKENIZER)),
            ],
        );
        assert_eq!(shell, cli, "later {id}");
    }
    let cli = ids(&lib.json(&[
        "timeline",
        "--project",
        "infra",
        "--since",
        "2025-01-01",
        "--limit",
        "7",
    ]));
    let shell = shell_ids(
        &lib,
        "timeline",
        &[
            (":project", quoted("infra")),
            (":since", quoted("2025-01-01")),
            (":limit", "7".into()),
        ],
    );
    assert_eq!(shell, cli);
    // Both rules of related: the default (unset parameters) and Jezero's by name.
    for (prompt, rule) in [
        (
            "The importer fails with database is locked again, please fix it",
            None,
        ),
        (
            "Deploy the new version to production and keep an eye on the logs",
            Some("jezero"),
        ),
    ] {
        let mut args = vec!["related", prompt, "--now", NOW];
        let mut params = vec![
            (":prompt", quoted(prompt)),
            (":tokenizer", quoted(TOKENIZER)),
            (":now", quoted(NOW)),
        ];
        if let Some(r) = rule {
            args.extend(["--rule", r]);
            params.push((":rule", quoted(r)));
        }
        let cli = ids(&lib.json(&args));
        assert!(!cli.is_empty(), "{prompt}");
        assert_eq!(shell_ids(&lib, "related", &params), cli, "related {prompt}");
    }
}

#[test]
fn a_period_in_the_query_weighs_alike_in_both_hosts() {
    let lib = sample();
    let query = "deploy failed in March 2025";
    let cli = |weight: &str| {
        ids(&lib.json(&[
            "search",
            query,
            "--now",
            NOW,
            "--limit",
            "8",
            "--period-weight",
            weight,
        ]))
    };
    let (off, on) = (cli("0"), cli("1"));
    assert_ne!(off, on, "the period reorders this answer");
    for (weight, want) in [("0", off), ("1", on)] {
        let params = vec![
            (":query", quoted(query)),
            (":tokenizer", quoted(TOKENIZER)),
            (":now", quoted(NOW)),
            (":limit", "8".to_string()),
            (":period_weight", weight.to_string()),
        ];
        assert_eq!(shell_ids(&lib, "search", &params), want, "weight {weight}");
    }
}

#[test]
fn the_readme_cookbook_runs_in_the_shell() {
    let examples = root().join("examples");
    let script = format!(
        ".load {}\n.read {}\n.parameter set :query \"'When did we remove the analytics script?'\"\n.parameter set :now \"'2025-03-01T00:00:00Z'\"\n.parameter set :limit 3\n.read {}\n",
        extension_path().display(),
        examples.join("tiny_library.sql").display(),
        examples.join("two_stage_search.sql").display()
    );
    let stdout = shell_ok(&[":memory:".as_ref()], &script);
    let first: Vec<&str> = stdout
        .lines()
        .map(|l| l.split('|').next().unwrap_or(""))
        .collect();
    // Item 3 "Remove the analytics script" is the only one with all three words.
    assert_eq!(first.len(), 3, "{stdout}");
    assert_eq!(first[0], "3", "{stdout}");
}
