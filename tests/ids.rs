//! Writes that take an id: an id must name an item the caller may read (which it
//! replaces), or no item at all and be above every id ever used. Through every route
//! that writes by id (the MCP `add` tool spoken to over stdio, `recall add -`, `recall
//! import`, under `--allow` and the configuration's `[access] allow`), and ids never
//! reused after `forget`, also in a library migrated from schema version 2. Each refusal
//! is one line naming the id, and the library's files are unchanged byte for byte.
use serde_json::{json, Value};

use crate::common::cli::{generated_items, Ran, TempLib};
use crate::common::mcp::Server;
use crate::common::vectors::vectors_only;

fn item(id: Option<i64>, source: &str, title: &str) -> Value {
    let mut v = json!({"source": source, "title": title, "occurred_at": "2025-01-01T00:00:00Z"});
    if let Some(id) = id {
        v["id"] = json!(id);
    }
    v
}

fn line(id: Option<i64>, source: &str, title: &str) -> String {
    item(id, source, title).to_string()
}

/// (id, source, title) of every item, in id order, read by the test itself.
fn rows(lib: &TempLib) -> Vec<(i64, String, String)> {
    let conn = lib.conn();
    let mut stmt = conn
        .prepare("select id, source, title from items order by id")
        .unwrap();
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<rusqlite::Result<Vec<_>>>()
        .unwrap();
    rows
}

fn added_id(out: &Ran) -> i64 {
    out.stdout
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("stdout is not an id: {out:?}"))
}

/// `recall add -` with one JSON object, and `extra` arguments before the `-`.
fn add(lib: &TempLib, extra: &[&str], value: &Value) -> Ran {
    let mut args = vec!["add"];
    args.extend_from_slice(extra);
    args.push("-");
    lib.run_stdin(&args, &value.to_string())
}

/// Asserts that a command was refused with one line naming `needle`, and that the
/// library's file and its log are as they were before it ran.
fn refused_unchanged(lib: &TempLib, run: impl FnOnce() -> Ran, needle: &str) {
    let before = lib.files();
    let ran = run();
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(ran.stdout.is_empty(), "{ran:?}");
    ran.fails_with(needle);
    assert!(lib.files() == before, "a refused write changed the files");
}

/// The library of the reported case: items 1 to 3 of `human-notes`, `agent-a` and
/// `agent-b`.
fn three_sources() -> TempLib {
    let lib = TempLib::init(None);
    lib.import(
        &[
            line(None, "human-notes", "numbat private note"),
            line(None, "agent-a", "agent a finding"),
            line(None, "agent-b", "agent b finding"),
        ]
        .join("\n"),
    )
    .ok();
    lib
}

/// The message of a refused id under access globs (forbidden and forgotten alike).
fn no_readable_item(id: i64) -> String {
    format!("id {id} names no item you may read, and ids are never reused")
}

fn forgotten(id: i64) -> String {
    format!("id {id} was used by an item since forgotten: ids are never reused; leave id out to add a new item")
}

/// A tool call the server refuses with `needle`, leaving the library's files as they
/// were, and serving the next call.
fn mcp_refused(lib: &TempLib, mcp: &mut Server, tool: &str, arguments: Value, needle: &str) {
    let before = lib.files();
    let error = mcp
        .tool(tool, arguments.clone())
        .expect_err("the call was not refused");
    assert!(error.contains(needle), "{error:?} lacks {needle:?}");
    assert_eq!(error.lines().count(), 1, "{error:?}");
    assert!(
        lib.files() == before,
        "{tool} {arguments}: refused, but wrote"
    );
}

#[test]
fn the_mcp_add_tool_replaces_only_items_the_server_may_read() {
    for (global, options) in [
        (vec![], vec!["--allow-writes", "--allow", "agent-*"]),
        (vec!["--config", "access.toml"], vec!["--allow-writes"]),
    ] {
        let lib = three_sources();
        std::fs::write(lib.path("access.toml"), "[access]\nallow = [\"agent-*\"]\n").unwrap();
        let global: Vec<String> = global
            .iter()
            .map(|a| match *a {
                "access.toml" => lib.path(a).display().to_string(),
                other => other.to_string(),
            })
            .collect();
        let global: Vec<&str> = global.iter().map(String::as_str).collect();
        let mut mcp = Server::start_with(lib.command().args(&global).arg("mcp").args(&options));
        let before = rows(&lib);
        // The reported case: get says there is no item 1, and add may not replace it.
        assert_eq!(
            mcp.tool("get", json!({"id": 1})).unwrap_err(),
            format!("no item 1 in {}", lib.db.display())
        );
        mcp_refused(
            &lib,
            &mut mcp,
            "add",
            item(Some(1), "agent-evil", "replaced by an agent"),
            &no_readable_item(1),
        );
        // Nor may it replace it with an item of the forbidden source itself.
        mcp_refused(
            &lib,
            &mut mcp,
            "add",
            item(Some(1), "human-notes", "replaced"),
            "source \"human-notes\" is not one the access globs (agent-*) allow",
        );
        let forget = mcp.tool("forget", json!({"ids": [1]})).unwrap();
        assert_eq!(forget["unmatched"], json!([1]), "{forget}");
        assert_eq!(rows(&lib), before, "item 1 changed");
        // An item the server may read is replaced, keeping its id.
        let replaced = mcp
            .tool(
                "add",
                item(Some(2), "agent-c", "agent a finding, corrected"),
            )
            .unwrap();
        assert_eq!(replaced["id"], 2, "{replaced}");
        assert_eq!(
            rows(&lib)[1],
            (2, "agent-c".into(), "agent a finding, corrected".into())
        );
        // A forgotten id, readable or not, is refused the same way; a new one is not.
        mcp.tool("forget", json!({"ids": [3]})).unwrap();
        mcp_refused(
            &lib,
            &mut mcp,
            "add",
            item(Some(3), "agent-b", "back"),
            &no_readable_item(3),
        );
        let new = mcp.tool("add", item(None, "agent-a", "new")).unwrap();
        assert_eq!(new["id"], 4, "{new}");
        let above = mcp.tool("add", item(Some(40), "agent-a", "forty")).unwrap();
        assert_eq!(above["id"], 40, "{above}");
        assert_eq!(
            rows(&lib).iter().map(|r| r.0).collect::<Vec<_>>(),
            [1, 2, 4, 40]
        );
        assert_eq!(rows(&lib)[0], before[0], "item 1 changed");
    }
}

#[test]
fn recall_add_with_an_id_is_bound_by_allow_and_the_configuration() {
    let lib = three_sources();
    let config = lib.path("access.toml");
    std::fs::write(&config, "[access]\nallow = [\"agent-*\"]\n").unwrap();
    let config = config.to_str().unwrap();
    let before = rows(&lib);
    let evil = item(Some(1), "agent-evil", "replaced");
    for extra in [
        &["--allow", "agent-*"][..],
        &["--allow", "agent-a", "--allow", "agent-b"],
        &["--config", config],
    ] {
        let (global, flags): (Vec<&str>, Vec<&str>) = if extra[0] == "--config" {
            (extra.to_vec(), vec![])
        } else {
            (vec![], extra.to_vec())
        };
        let mut args = global.clone();
        args.push("add");
        args.extend(&flags);
        args.push("-");
        // Globs that forbid the item's own source refuse it for that, before its id.
        let refusal = if extra.contains(&"agent-a") {
            "source \"agent-evil\" is not one the access globs (agent-a, agent-b) allow".into()
        } else {
            format!("{}: an id replaces an item", no_readable_item(1))
        };
        refused_unchanged(&lib, || lib.run_stdin(&args, &evil.to_string()), &refusal);
    }
    assert_eq!(rows(&lib), before);
    // The flags widen or narrow the configuration, as for every command.
    let mine = item(Some(1), "human-notes", "my note, corrected");
    let out = add(&lib, &["--config", config, "--allow", "human-*"], &mine);
    assert_eq!(added_id(&out.ok()), 1);
    assert_eq!(
        rows(&lib)[0],
        (1, "human-notes".into(), "my note, corrected".into())
    );
    // A readable item is replaced; an id above every one used is a new item.
    let out = add(
        &lib,
        &["--allow", "agent-*"],
        &item(Some(3), "agent-b", "b2"),
    );
    assert_eq!(added_id(&out.ok()), 3);
    let out = add(
        &lib,
        &["--allow", "agent-*"],
        &item(Some(9), "agent-b", "nine"),
    );
    assert_eq!(added_id(&out.ok()), 9);
    // Without an id, --allow changes nothing: a new item.
    let out = add(&lib, &["--allow", "agent-*"], &item(None, "agent-b", "ten"));
    assert_eq!(added_id(&out.ok()), 10);
}

#[test]
fn recall_import_with_ids_is_bound_by_allow_and_the_configuration() {
    let lib = three_sources();
    let config = lib.path("access.toml");
    std::fs::write(&config, "[access]\nallow = [\"agent-*\"]\n").unwrap();
    let config = config.to_str().unwrap();
    let before = rows(&lib);
    // Good lines first: the whole import is refused at the line with the id.
    let input = [
        line(None, "agent-a", "new"),
        line(Some(2), "agent-a", "replaced"),
        String::new(),
        line(Some(1), "agent-evil", "replaced"),
        line(None, "agent-a", "after"),
    ]
    .join("\n");
    for args in [
        &["import", "--allow", "agent-*", "-"][..],
        &["--config", config, "import", "-"],
    ] {
        refused_unchanged(
            &lib,
            || lib.run_stdin(args, &input),
            &format!("recall: stdin: line 4: {}", no_readable_item(1)),
        );
        assert!(
            lib.run_stdin(args, &input)
                .stderr
                .ends_with("; nothing was imported\n"),
            "the refusal says nothing was imported"
        );
    }
    assert_eq!(rows(&lib), before);
    // Without the forbidden line the same import goes through.
    let good = [
        line(None, "agent-a", "new"),
        line(Some(2), "agent-a", "replaced"),
    ]
    .join("\n");
    lib.run_stdin(&["import", "--allow", "agent-*", "-"], &good)
        .ok();
    assert_eq!(
        rows(&lib),
        [
            (1, "human-notes".into(), "numbat private note".into()),
            (2, "agent-a".into(), "replaced".into()),
            (3, "agent-b".into(), "agent b finding".into()),
            (4, "agent-a".into(), "new".into()),
        ]
    );
    // Without access globs every item may be replaced.
    lib.import(&line(Some(1), "human-notes", "mine again")).ok();
    assert_eq!(rows(&lib)[0].2, "mine again");
}

#[test]
fn ids_are_never_reused_after_forget() {
    // add → forget → add.
    let lib = TempLib::init(None);
    lib.import(&generated_items(300)).ok();
    let first = added_id(&add(&lib, &[], &item(None, "s", "three hundred one")).ok());
    assert_eq!(first, 301);
    lib.run(&["forget", "301"]).ok();
    let second = added_id(&add(&lib, &[], &item(None, "s", "another")).ok());
    assert_eq!(second, 302, "the id of a forgotten item was given again");
    // The forgotten id, given explicitly, by add and by import.
    refused_unchanged(
        &lib,
        || add(&lib, &[], &item(Some(301), "s", "back")),
        &format!("{}; nothing was added", forgotten(301)),
    );
    refused_unchanged(
        &lib,
        || lib.import(&line(Some(301), "s", "back")),
        &format!("stdin: line 1: {}; nothing was imported", forgotten(301)),
    );
    // Forgotten from the middle, and the two highest (the sequence remembers them).
    lib.run(&["forget", "150", "300", "302"]).ok();
    for id in [150, 300, 302] {
        refused_unchanged(
            &lib,
            || add(&lib, &[], &item(Some(id), "s", "back")),
            &forgotten(id),
        );
    }
    // import → forget → import.
    lib.import(&[line(None, "s", "a"), line(None, "s", "b")].join("\n"))
        .ok();
    assert_eq!(lib.count("select max(id) from items"), 304);
    lib.run(&["forget", "303", "304"]).ok();
    lib.import(&line(None, "s", "c")).ok();
    assert_eq!(lib.count("select max(id) from items"), 305);
    assert_eq!(
        lib.count("select count(*) from items where id in (303, 304)"),
        0
    );
    lib.run(&["check"]).ok();
}

#[test]
fn a_new_explicit_id_is_kept_and_lines_may_come_in_any_order() {
    // Moving a library: ids given in any order, above every id used, are kept.
    let lib = TempLib::init(None);
    let input = [
        line(Some(500), "s", "five hundred"),
        line(Some(7), "s", "seven"),
        line(None, "s", "next"),
        line(Some(400), "s", "four hundred"),
    ]
    .join("\n");
    lib.import(&input).ok();
    let ids: Vec<i64> = rows(&lib).iter().map(|r| r.0).collect();
    assert_eq!(ids, [7, 400, 500, 501]);
    // Those ids were used now: a later write cannot give one that is free below them.
    refused_unchanged(
        &lib,
        || lib.import(&line(Some(450), "s", "late")),
        &forgotten(450),
    );
    assert_eq!(added_id(&add(&lib, &[], &item(None, "s", "n")).ok()), 502);
    // An id above every one used is a new item, from add too.
    assert_eq!(
        added_id(&add(&lib, &[], &item(Some(9_000), "s", "far")).ok()),
        9_000
    );
    assert_eq!(
        added_id(&add(&lib, &[], &item(None, "s", "n2")).ok()),
        9_001
    );
    // Up to 2^53 - 1, so that new items always have ids left after one given.
    let highest: i64 = (1 << 53) - 1;
    for too_high in [highest + 1, i64::MAX] {
        refused_unchanged(
            &lib,
            || add(&lib, &[], &item(Some(too_high), "s", "far")),
            &format!("id {too_high} is above {highest}, the highest id an item may be given: leave id out to add a new item; nothing was added"),
        );
        refused_unchanged(
            &lib,
            || lib.import(&line(Some(too_high), "s", "far")),
            &format!("stdin: line 1: id {too_high} is above {highest}"),
        );
    }
    assert_eq!(
        added_id(&add(&lib, &[], &item(Some(highest), "s", "last")).ok()),
        highest
    );
    assert_eq!(
        added_id(&add(&lib, &[], &item(None, "s", "after the last")).ok()),
        highest + 1
    );
    lib.run(&["check"]).ok();
}

#[test]
fn a_forgotten_id_s_vector_is_gone_and_a_new_item_gets_its_own() {
    let lib = TempLib::init(None);
    lib.run(&["embed", "--model", "m2", "--dimensions", "2"])
        .ok();
    let with = |title: &str, v: [i32; 2]| json!({"source": "s", "title": title, "occurred_at": 0, "embedding": v});
    lib.import(&format!("{}\n{}", with("one", [1, 0]), with("two", [0, 1])))
        .ok();
    lib.run(&["forget", "2"]).ok();
    assert_eq!(vectors_only(&lib), [(1, vec![1.0, 0.0])].into());
    // A new item without a vector: no vector is found under its id.
    let id = added_id(
        &add(
            &lib,
            &[],
            &json!({"source": "s", "title": "three", "occurred_at": 0}),
        )
        .ok(),
    );
    assert_eq!(id, 3);
    assert_eq!(vectors_only(&lib), [(1, vec![1.0, 0.0])].into());
    let id = added_id(&add(&lib, &[], &with("four", [1, 1])).ok());
    assert_eq!(
        vectors_only(&lib),
        [(1, vec![1.0, 0.0]), (id, vec![1.0, 1.0])].into()
    );
    lib.run(&["check"]).ok();
}

/// The schema objects of a library (not SQLite's own), as stored.
fn schema(lib: &TempLib) -> Vec<(String, String, String)> {
    let conn = lib.conn();
    let mut stmt = conn
        .prepare("select type, name, sql from sqlite_master where sql is not null and name not like 'sqlite%' order by type, name")
        .unwrap();
    let objects = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<rusqlite::Result<Vec<_>>>()
        .unwrap();
    objects
}

#[test]
fn a_library_migrated_from_version_2_keeps_its_ids_and_reuses_none() {
    for tokenizer in [None, Some("unicode61 remove_diacritics 2")] {
        let lib = TempLib::new();
        let mut init = lib.command();
        init.env("RECALL_TEST_INIT_VERSION", "2").arg("init");
        if let Some(t) = tokenizer {
            init.args(["--tokenizer", t]);
        }
        assert!(init.output().unwrap().status.success());
        lib.import_at_v1(&generated_items(60));
        // Gaps in the ids, as forgetting leaves them: 10 and the highest, 60.
        lib.conn()
            .execute_batch("delete from items where id in (10, 60)")
            .unwrap();
        let before = rows(&lib);
        let indexed = lib.matching("migrate OR keyword3");
        assert_eq!(indexed.len(), 58);
        let migrated = lib.json(&["migrate"]);
        assert_eq!(migrated["from"], 2, "{migrated}");
        assert_eq!(
            migrated["to"],
            crate::common::latest_version(),
            "{migrated}"
        );
        assert_eq!(rows(&lib), before, "the migration changed the items");
        assert_eq!(lib.matching("migrate OR keyword3"), indexed);
        lib.run(&["check"]).ok();
        // The same schema as a library made at this version.
        let fresh = TempLib::init(tokenizer);
        assert_eq!(schema(&lib), schema(&fresh));
        assert_eq!(
            lib.count("select seq from sqlite_sequence where name = 'items'"),
            59
        );
        // Ids the library still knew were used are not given again; a new one follows.
        refused_unchanged(
            &lib,
            || lib.import(&line(Some(10), "s", "back")),
            &forgotten(10),
        );
        let id = added_id(&add(&lib, &[], &item(None, "s", "after the migration")).ok());
        assert_eq!(id, 60);
        lib.run(&["forget", "60"]).ok();
        let id = added_id(&add(&lib, &[], &item(None, "s", "after forgetting")).ok());
        assert_eq!(id, 61);
        // Rebuild and repair work on it, and leave the sequence alone.
        lib.run(&["rebuild"]).ok();
        lib.run(&["repair"]).ok();
        lib.run(&["check"]).ok();
        assert_eq!(
            lib.count("select seq from sqlite_sequence where name = 'items'"),
            61
        );
        let id = added_id(&add(&lib, &[], &item(None, "s", "after repair")).ok());
        assert_eq!(id, 62);
    }
}

#[test]
fn migrating_a_library_with_a_column_added_by_hand_is_refused() {
    let lib = TempLib::init_at_version(2);
    lib.import_at_v1(&generated_items(5));
    lib.conn()
        .execute_batch("alter table items add column note text; update items set note = 'kept'")
        .unwrap();
    lib.checkpoint();
    refused_unchanged(
        &lib,
        || lib.run(&["migrate"]),
        "applying migration 0003_ids_never_reused: the table items has a column the migrations do not define (added by hand), which this migration would lose",
    );
    assert_eq!(lib.count("pragma user_version"), 2);
    assert_eq!(
        lib.count("select count(*) from items where note = 'kept'"),
        5
    );
    // Dropped, the migration goes through.
    lib.conn()
        .execute_batch("alter table items drop column note")
        .unwrap();
    lib.run(&["migrate"]).ok();
    lib.run(&["check"]).ok();
}

#[test]
fn recall_forget_is_bound_by_allow_and_the_configuration() {
    let lib = three_sources();
    let config = lib.path("access.toml");
    std::fs::write(&config, "[access]\nallow = [\"agent-*\"]\n").unwrap();
    let config = config.to_str().unwrap();
    let before = rows(&lib);
    let human: Vec<i64> = before
        .iter()
        .filter(|(_, source, _)| source == "human-notes")
        .map(|(id, _, _)| *id)
        .collect();
    assert!(!human.is_empty(), "the fixture has a human-notes item");
    let id = human[0].to_string();
    // By id, by filter, and as a dry run: an item of a forbidden source is a missing one.
    // A read leaves an empty log where there was none: the same bytes.
    let bytes = |lib: &TempLib| lib.files().map(Option::unwrap_or_default);
    for args in [
        vec!["forget", "--allow", "agent-*", &id],
        vec!["--config", config, "forget", &id],
        vec!["--config", config, "forget", "--source", "human-notes"],
        vec!["--json", "--config", config, "forget", "--dry-run", &id],
    ] {
        let files = bytes(&lib);
        let out = lib.run(&args).ok();
        assert!(bytes(&lib) == files, "{args:?} changed the file");
        if args[0] == "--json" {
            let doc = out.json();
            assert_eq!(doc["ids"], json!([]), "{args:?}");
            assert_eq!(doc["unmatched"], json!([human[0]]), "{args:?}");
        } else {
            assert!(
                out.stdout.contains("nothing to forget"),
                "{args:?}: {}",
                out.stdout
            );
        }
    }
    assert_eq!(rows(&lib), before);
    // The globs select within what the request names: only the agents' items go.
    let out = lib
        .run(&[
            "--json",
            "--config",
            config,
            "forget",
            "--before",
            "2100-01-01",
        ])
        .ok()
        .json();
    let agents: Vec<i64> = before
        .iter()
        .filter(|(_, source, _)| source.starts_with("agent-"))
        .map(|(id, _, _)| *id)
        .collect();
    assert_eq!(out["ids"], json!(agents));
    let left: Vec<i64> = rows(&lib).iter().map(|(id, _, _)| *id).collect();
    assert_eq!(left, human);
}
