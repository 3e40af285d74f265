//! Libraries built with the `recall` tokenizer (docs/tokenizer.md) through the CLI: init,
//! import and search find every spelling of an identifier, `rebuild` switches to it and
//! back, `check` says the index needs the extension, and the queries of `sql/` run in
//! the Debian sqlite3 shell with the extension loaded, giving the CLI's answers.
use std::collections::BTreeSet;

use crate::common::cli::{ids, TempLib};
use crate::common::{extension_path, root, shell_ok};

const NOW: &str = "2025-11-29T00:00:00Z";

fn code_library(tokenizer: &str) -> TempLib {
    let lib = TempLib::init(Some(tokenizer));
    let items = root().join("examples/code_library.jsonl");
    lib.run(&["import", items.to_str().unwrap()]).ok();
    lib
}

/// The ids of the items whose title or summary contains one of `needles` (as written,
/// case-sensitive): what a search for any spelling of an identifier should find. The
/// file's items carry no ids: import numbers them from 1 in order.
fn items_containing(needles: &[&str]) -> BTreeSet<i64> {
    let text = std::fs::read_to_string(root().join("examples/code_library.jsonl")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .zip(1..)
        .filter(|(item, _)| {
            ["title", "summary"].iter().any(|f| {
                let v = item[*f].as_str().unwrap_or("");
                needles.iter().any(|n| v.contains(n))
            })
        })
        .map(|(_, id)| id)
        .collect()
}

fn search(lib: &TempLib, query: &str) -> BTreeSet<i64> {
    ids(&lib.json(&["search", query, "--now", NOW, "--limit", "50"]))
        .into_iter()
        .collect()
}

#[test]
fn every_spelling_of_an_identifier_finds_the_others() {
    let lib = code_library("recall");
    let spellings = [
        "getUserName",
        "get_user_name",
        "GetUserName",
        "get-user-name",
    ];
    let expected = items_containing(&spellings);
    assert!(expected.len() >= 3, "{expected:?}");
    for query in spellings.iter().chain(&["get user name"]) {
        let found = search(&lib, query);
        assert!(
            expected.is_subset(&found),
            "{query}: missing {:?}",
            expected.difference(&found).collect::<Vec<_>>()
        );
    }
    // The default trigram index cannot: `getUserName` is one substring there, which
    // `get_user_name` does not contain.
    let trigram = code_library("trigram remove_diacritics 1");
    assert!(!expected.is_subset(&search(&trigram, "getUserName")));
}

#[test]
fn plurals_and_cjk_words_find_their_items() {
    let lib = code_library("recall");
    for (query, needles) in [
        (
            "migration",
            &["migrations", "Migrations", "migration", "Migration"][..],
        ),
        ("用户", &["用户"][..]),
        ("検索", &["検索"][..]),
    ] {
        let expected = items_containing(needles);
        assert!(!expected.is_empty(), "{query}");
        let found = search(&lib, query);
        assert!(
            expected.is_subset(&found),
            "{query}: {expected:?} ⊄ {found:?}"
        );
    }
}

#[test]
fn rebuild_switches_to_recall_and_back_and_check_names_the_extension() {
    let lib = code_library("trigram remove_diacritics 1");
    let all: BTreeSet<i64> = items_containing(&[""]);
    for tokenizer in ["recall", "unicode61 remove_diacritics 2", "recall"] {
        lib.run(&["rebuild", "--tokenizer", tokenizer]).ok();
        let check = lib.run(&["check"]);
        assert_eq!(check.code, 0, "{tokenizer}: {}", check.stdout);
        let compatibility = check
            .stdout
            .lines()
            .find(|l| l.contains("compatibility"))
            .unwrap_or_default()
            .to_string();
        assert_eq!(
            compatibility.contains("sqlite-recall loaded"),
            tokenizer == "recall",
            "{compatibility}"
        );
        let count = lib.json(&["sql", "select count(*) as n from items_fts"]);
        assert_eq!(count[0]["n"], all.len() as i64, "{tokenizer}");
    }
    assert!(!search(&lib, "get user name").is_empty());
}

#[test]
fn the_shell_with_the_extension_runs_the_queries_on_a_recall_library() {
    let lib = code_library("recall");
    for query in [
        "getUserName",
        "用户 列表",
        "migrations fail",
        "ECONNREFUSED",
    ] {
        let cli = ids(&lib.json(&["search", query, "--now", NOW, "--limit", "8"]));
        assert!(!cli.is_empty(), "{query}");
        let q = |s: &str| format!("\"'{}'\"", s.replace('\'', "''"));
        let script = format!(
            ".load {}\n.mode list\n.parameter set :query {}\n.parameter set :tokenizer {}\n\
             .parameter set :now {}\n.parameter set :limit 8\n.read {}\n",
            extension_path().display(),
            q(query),
            q("recall"),
            q(NOW),
            root().join("sql/search.sql").display()
        );
        let shell: Vec<i64> = shell_ok(&[lib.db.as_os_str()], &script)
            .lines()
            .map(|l| l.split('|').next().unwrap_or("").parse().expect("an id"))
            .collect();
        assert_eq!(shell, cli, "{query}");
    }
}
