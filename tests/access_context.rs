//! Access and the neighbours: an item a caller may not read contributes nothing to that
//! caller's answers — not its words (the neighbours' titles each item is indexed and
//! embedded with), not its place among the neighbours of the context stage, not its
//! count in `--explain`.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::common::cli::{ids, pairs, titled, TempLib};
use crate::common::mcp::Server;

/// A CI run of one project with a private note written between two of its builds: the
/// note's title is its own words only.
fn builds_and_a_note() -> Vec<String> {
    vec![
        titled("build 41 passed for the release branch")
            .source("ci-build")
            .project("app")
            .at("2025-03-01T10:00:00Z")
            .line(),
        titled("PRIVATE human note about the salary negotiation")
            .source("human")
            .project("app")
            .at("2025-03-01T10:01:00Z")
            .line(),
        titled("build 42 deployed the release to staging")
            .source("ci-build")
            .project("app")
            .at("2025-03-01T10:02:00Z")
            .line(),
    ]
}

fn search_ids(lib: &TempLib, args: &[&str]) -> Vec<i64> {
    let mut full = vec!["search"];
    full.extend_from_slice(args);
    ids(&lib.json(&full))
}

#[test]
fn a_forbidden_title_lends_no_word_to_an_allowed_caller() {
    let lib = TempLib::with_items(None, &builds_and_a_note());
    // Every caller who may read the note finds it by its words; the builds around it
    // come only as its neighbours (the context stage), to a caller who may read both.
    for allow in [None, Some("hu*"), Some("*")] {
        let mut args = vec!["search", "salary negotiation"];
        args.extend(allow.iter().flat_map(|a| ["--allow", a]));
        let answer = lib.json(&args);
        assert_eq!(ids(&answer).first(), Some(&2), "{answer}");
        for hit in answer["results"]
            .as_array()
            .expect("results")
            .iter()
            .skip(1)
        {
            assert_eq!(hit["matched_by"], "context", "{answer}");
        }
    }
    // A caller allowed the CI builds only learns nothing of it, on every surface.
    assert_eq!(
        search_ids(&lib, &["salary negotiation", "--allow", "ci-*"]),
        Vec::<i64>::new()
    );
    let config = lib.path("recall.toml");
    std::fs::write(&config, "[access]\nallow = [\"ci-*\"]\n").expect("write config");
    let config = config.to_str().expect("utf-8 path");
    assert_eq!(
        search_ids(&lib, &["--config", config, "salary"]),
        Vec::<i64>::new()
    );
    assert_eq!(
        ids(&lib.json(&["related", "the salary negotiation note", "--allow", "ci-*"])),
        Vec::<i64>::new()
    );
    let mut server = Server::start(&lib, &["--allow", "ci-*"]);
    let answer = server
        .tool("search", json!({ "query": "salary negotiation" }))
        .expect("search tool");
    assert_eq!(ids(&answer), Vec::<i64>::new(), "{answer}");
    // The builds still find each other by their own words.
    assert_eq!(
        sorted(search_ids(&lib, &["release", "--allow", "ci-*"])),
        vec![1, 3]
    );
}

#[test]
fn an_item_is_indexed_and_embedded_with_its_own_sources_neighbours_only() {
    let lib = TempLib::with_items(None, &builds_and_a_note());
    let contexts: BTreeMap<i64, String> = pairs(&lib, "select id, context from items");
    // Builds 41 and 42 are neighbours across the note; the note has no neighbour of its
    // own source.
    assert_eq!(contexts[&1], "build 42 deployed the release to staging");
    assert_eq!(contexts[&3], "build 41 passed for the release branch");
    assert_eq!(contexts[&2], "");
    // The text a vector is made of (sql/item_texts.sql) holds no word of the note.
    let sql = std::fs::read_to_string(crate::common::root().join("sql/item_texts.sql"))
        .expect("read item_texts.sql");
    let conn = lib.conn();
    let mut stmt = conn.prepare(&sql).expect("prepare item_texts.sql");
    let names: Vec<String> = stmt.column_names().map(str::to_string).collect();
    let text_at = names
        .iter()
        .position(|c| c == "text")
        .expect("a text column");
    let mut binds = Vec::new();
    for i in 1..=stmt.parameter_count() {
        let name = stmt.parameter_name(i).unwrap_or_default().to_string();
        binds.push(match name.as_str() {
            ":after" | ":after_id" => rusqlite::types::Value::Integer(0),
            ":limit" | ":batch" => rusqlite::types::Value::Integer(100),
            _ => rusqlite::types::Value::Null,
        });
    }
    let texts: Vec<String> = stmt
        .query_map(rusqlite::params_from_iter(binds), |r| r.get(text_at))
        .expect("run item_texts.sql")
        .collect::<rusqlite::Result<_>>()
        .expect("rows");
    assert_eq!(texts.len(), 3, "{names:?}");
    for text in &texts {
        if !text.contains("PRIVATE") {
            assert!(!text.contains("salary"), "{text}");
        }
    }
    // The index agrees: no build matches the note's words, in any column.
    assert_eq!(lib.index_matches("salary"), vec![2]);
}

#[test]
fn a_forbidden_item_is_no_ones_neighbour_and_not_counted() {
    // A conversation of one project between two sources, minute after minute: the
    // context stage lends relevance from each matched item to its neighbours.
    let subjects = [
        "the parser rejects the config file",
        "private aside on the parser budget",
        "tried a fresh checkout of the config",
        "private aside on the checkout budget",
        "the yaml indentation was wrong",
        "private aside on indentation budget",
        "fixed by reformatting the file",
        "private aside on reformatting",
    ];
    let items: Vec<String> = subjects
        .iter()
        .enumerate()
        .map(|(i, title)| {
            let source = if title.starts_with("private") {
                "human"
            } else {
                "agent-x"
            };
            titled(title)
                .source(source)
                .project("app")
                .at(&format!("2025-05-01T10:{i:02}:00Z"))
                .line()
        })
        .collect();
    let everything = TempLib::with_items(None, &items);
    let readable: Vec<String> = items
        .iter()
        .filter(|line| !line.contains("\"human\""))
        .cloned()
        .collect();
    let alone = TempLib::with_items(None, &readable);
    // The ids of the readable items in the full library, by title.
    let full_titles: BTreeMap<i64, String> = pairs(
        &everything,
        "select id, title from items where source = 'agent-x'",
    );
    let alone_titles: BTreeMap<i64, String> = pairs(&alone, "select id, title from items");
    for query in [
        "parser",
        "config",
        "indentation",
        "checkout",
        "file",
        "budget parser",
    ] {
        let restricted = everything.json(&["search", query, "--allow", "agent-*", "--explain"]);
        let unrestricted = alone.json(&["search", query, "--explain"]);
        // The same items, found the same way, lent by the same items, as in a library
        // where the forbidden items were never written.
        let shape = |answer: &Value, title_of: &dyn Fn(i64) -> String| {
            answer["results"]
                .as_array()
                .expect("results")
                .iter()
                .map(|r| {
                    let of = r["context_of"].as_i64().map(title_of);
                    (
                        r["title"].as_str().expect("title").to_string(),
                        (r["matched_by"].to_string(), of),
                    )
                })
                .collect::<BTreeMap<_, _>>()
        };
        let full_title = |id: i64| {
            full_titles
                .get(&id)
                .cloned()
                .unwrap_or_else(|| format!("forbidden item {id}"))
        };
        let alone_title = |id: i64| alone_titles[&id].clone();
        assert_eq!(
            shape(&restricted, &full_title),
            shape(&unrestricted, &alone_title),
            "{query}"
        );
        assert_eq!(restricted["explain"]["items"], json!(4), "{query}");
        assert_eq!(
            restricted["explain"]["items"],
            unrestricted["explain"]["items"]
        );
    }
}

#[test]
fn migrating_takes_other_sources_titles_out_of_every_context() {
    let lib = TempLib::init_at_version(6);
    {
        let conn = lib.conn();
        for line in builds_and_a_note() {
            let item: Value = serde_json::from_str(&line).expect("fixture");
            conn.execute(
                "insert into items (source, project, title, occurred_at) values (?1, ?2, ?3, ?4)",
                (
                    item["source"].as_str(),
                    item["project"].as_str(),
                    item["title"].as_str(),
                    item["occurred_at"].as_str(),
                ),
            )
            .expect("insert at version 6");
        }
    }
    // Before: each build was indexed with the note's title.
    assert_eq!(sorted(lib.index_matches("salary")), vec![1, 2, 3]);
    lib.run(&["migrate"]).ok();
    assert_eq!(lib.index_matches("salary"), vec![2]);
    let contexts: BTreeMap<i64, String> = pairs(&lib, "select id, context from items");
    assert_eq!(contexts[&1], "build 42 deployed the release to staging");
    let check = lib.run(&["--json", "check"]).ok();
    assert!(check.failed_checks().is_empty(), "{}", check.stdout);
}

/// The statements of migration 0006 that define the neighbours, as a library at schema
/// version 6 holds them.
fn version_6_views() -> String {
    let sql = std::fs::read_to_string(
        crate::common::root().join("sql/migrations/0006_neighbour_context.sql"),
    )
    .expect("read 0006");
    sql.split_inclusive(';')
        .filter(|s| s.contains("create view"))
        .collect()
}

#[test]
fn migrating_removes_the_vectors_made_with_other_sources_titles() {
    let lib = TempLib::with_items(None, &builds_and_a_note());
    let cmd = crate::common::vectors::fake("");
    lib.json(&["embed", "--embed-cmd", &cmd]);
    // The library as version 6 left it: contexts across sources, each vector made with
    // its item's context of then, the note's title in the builds'.
    {
        let conn = lib.conn();
        conn.execute_batch(&format!(
            "drop index items_by_run; drop index items_by_content; drop view items_context_wanted; drop view items_neighbours;
             {views}
             update items set context = (select w.context from items_context_wanted as w
                                         where w.id = items.id);
             insert into items_fts (items_fts) values ('rebuild');
             update item_vector_contexts set context = (select i.context from items as i
                                                        where i.id = item_vector_contexts.id);
             drop trigger items_atom_keys_after_insert; drop trigger items_atom_keys_after_update;
             drop trigger items_atom_keys_after_delete; drop table items_atom_keys;
             drop table items_atom_keys_pending;
             drop trigger items_runs_after_insert_item; drop trigger items_runs_after_update_item;
             drop trigger items_runs_after_delete_item; drop table items_runs_fts;
             drop table items_run_items; drop table items_runs; drop table items_runs_pending;
             delete from recall_migrations where version in (7, 8, 9);
             pragma user_version = 6;",
            views = version_6_views()
        ))
        .expect("back to version 6");
        let with_note: i64 = conn
            .query_row(
                "select count(*) from item_vector_contexts where context like '%salary%'",
                [],
                |r| r.get(0),
            )
            .expect("count");
        assert_eq!(with_note, 2, "both builds' vectors hold the note's title");
    }
    lib.run(&["migrate"]).ok();
    // Every context changed (the note's held the builds' titles), and every vector made
    // with one went; `recall embed` makes them again from the new ones.
    assert_eq!(
        crate::common::vectors::embedded_ids(&lib),
        Vec::<i64>::new()
    );
    let again = lib.json(&["embed", "--embed-cmd", &cmd]);
    assert_eq!(again["embedded"], 3, "{again}");
    let stored: BTreeMap<i64, String> = pairs(&lib, "select id, context from item_vector_contexts");
    assert_eq!(stored[&1], "build 42 deployed the release to staging");
    assert_eq!(stored[&3], "build 41 passed for the release branch");
}

/// How many SQLite virtual-machine steps (in thousands) one more item costs where `ties`
/// items already share its time: its write, triggers included, and the duplicate lookup
/// every write makes first (`sql/find_duplicate.sql`).
fn steps_among(ties: usize) -> (u64, u64) {
    let lib = TempLib::init(None);
    let mut conn = lib.conn();
    let at = "2025-06-01T00:00:00Z";
    conn.execute_batch("begin").expect("begin");
    for i in 0..ties {
        let source = ["agent-a", "agent-b"][i % 2];
        conn.execute(
            "insert into items (source, project, title, occurred_at) values (?1, 'p', ?2, ?3)",
            (source, format!("tied item {i}"), at),
        )
        .expect("insert a tie");
    }
    conn.execute_batch("commit").expect("commit");
    let steps = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let counter = steps.clone();
    conn.progress_handler(
        1000,
        Some(move || {
            counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            false
        }),
    )
    .expect("progress handler");
    let counted = |f: &mut dyn FnMut()| {
        let before = steps.load(std::sync::atomic::Ordering::Relaxed);
        f();
        steps.load(std::sync::atomic::Ordering::Relaxed) - before
    };
    let lookup = std::fs::read_to_string(crate::common::root().join("sql/find_duplicate.sql"))
        .expect("read find_duplicate.sql");
    let looked = counted(&mut || {
        let found: Option<i64> = conn
            .query_row(
                &lookup,
                rusqlite::named_params! {
                    ":source": "agent-a", ":occurred_at": at, ":project": "p",
                    ":title": "one more", ":summary": "", ":questions": "", ":atoms": "",
                },
                |r| r.get(0),
            )
            .ok();
        assert_eq!(found, None);
    });
    let written = counted(&mut || {
        conn.execute(
            "insert into items (source, project, title, occurred_at) values ('agent-a', 'p', 'one more', ?1)",
            [at],
        )
        .expect("insert one more");
    });
    conn.progress_handler(0, None::<fn() -> bool>)
        .expect("progress handler off");
    (written, looked)
}

#[test]
fn a_write_costs_the_same_however_many_items_share_its_time() {
    let (few, few_lookup) = steps_among(300);
    let (many, many_lookup) = steps_among(2400);
    // Eight times the ties: a scan of the ties would cost about eight times the steps.
    assert!(
        many <= few + few / 2 + 2,
        "the write: {few} thousand steps among 300 ties, {many} thousand among 2400"
    );
    assert!(
        many_lookup <= few_lookup + few_lookup / 2 + 2,
        "the duplicate lookup: {few_lookup} thousand steps among 300 ties, {many_lookup} thousand among 2400"
    );
}

fn sorted(mut v: Vec<i64>) -> Vec<i64> {
    v.sort();
    v
}
