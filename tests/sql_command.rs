//! `recall sql`: the queries of `sql/` run by hand in the bundled SQLite give the CLI's
//! answers; JSON, CSV and table output; writes only with --write, in one transaction.
use crate::common::cli::{ids, titled, TempLib};

const NOW: &str = "2025-06-01T00:00:00Z";

fn library() -> TempLib {
    let items: Vec<String> = (0..30)
        .map(|i| {
            titled(&format!("deploy step {i} of the widget, \"quoted\""))
                .project(if i % 2 == 0 { "api" } else { "shop" })
                .summary(&format!("the deploy failed with ECONNREFUSED {}", i % 5))
                .at(&format!("2025-01-{:02}T10:00:00Z", 1 + i % 28))
                .line()
        })
        .collect();
    // A word tokenizer: the query files must get the library's tokenizer, not trigram.
    TempLib::with_items(Some("unicode61 remove_diacritics 2"), &items)
}

fn sql_ids(out: &serde_json::Value) -> Vec<i64> {
    out.as_array()
        .expect("an array of rows")
        .iter()
        .map(|r| r["id"].as_i64().expect("id"))
        .collect()
}

#[test]
fn the_query_files_give_the_cli_s_answers() {
    let lib = library();
    let file = crate::common::root().join("sql");
    for (query, project) in [
        ("deploy failed", None),
        ("ECONNREFUSED widget", Some("api")),
    ] {
        let mut cli = vec!["search", query, "--now", NOW];
        let mut by_hand = vec![
            "sql".to_string(),
            "--file".into(),
            file.join("search.sql").display().to_string(),
            "-p".into(),
            format!("query={query}"),
            "-p".into(),
            format!("now={NOW}"),
        ];
        if let Some(p) = project {
            cli.extend(["--project", p]);
            by_hand.extend(["-p".into(), format!("project={p}")]);
        }
        let expected = ids(&lib.json(&cli));
        assert!(!expected.is_empty(), "{query}");
        let args: Vec<&str> = by_hand.iter().map(String::as_str).collect();
        assert_eq!(sql_ids(&lib.json(&args)), expected, "{query}");
    }
    let expected = ids(&lib.json(&["timeline", "--project", "shop"]));
    let out = lib.json(&[
        "sql",
        "--file",
        &file.join("timeline.sql").display().to_string(),
        "-p",
        "project=shop",
    ]);
    assert_eq!(sql_ids(&out), expected);
}

#[test]
fn json_csv_and_table_output() {
    let lib = library();
    let out = lib.json(&[
        "sql",
        "select id, title, project from items where id <= 2 order by id",
    ]);
    assert_eq!(out[0]["title"], "deploy step 0 of the widget, \"quoted\"");
    assert_eq!(out[1]["project"], "shop");
    let csv = lib
        .run(&[
            "sql",
            "--csv",
            "select id, title, null as empty from items where id = 1",
        ])
        .ok();
    assert_eq!(
        csv.stdout,
        "id,title,empty\n1,\"deploy step 0 of the widget, \"\"quoted\"\"\",\n"
    );
    let table = lib
        .run(&[
            "sql",
            "select 'a' || char(27) || '[2J' as x, 12345 as number",
        ])
        .ok();
    let lines: Vec<&str> = table.stdout.lines().collect();
    // The escaped cell is 10 characters wide: `a`, `\u{1b}` and `[2J`.
    assert_eq!(
        lines,
        [
            "x           number",
            "----------  ------",
            "a\\u{1b}[2J  12345"
        ]
    );
    lib.run(&["--json", "sql", "--csv", "select 1"])
        .fails_with("--csv and --json: choose one output");
}

#[test]
fn writes_need_write_and_run_in_one_transaction() {
    let lib = library();
    let before = lib.snapshot();
    lib.run(&["sql", "delete from items where id = 1"])
        .fails_with("the statement writes to the library: add --write to allow it");
    assert_eq!(lib.snapshot(), before);
    // A script that fails half-way changes nothing.
    lib.run(&[
        "sql",
        "--write",
        "delete from items where id = 1; insert into nowhere values (1);",
    ])
    .fails_with("no such table: nowhere");
    assert_eq!(lib.snapshot(), before);
    lib.run(&[
        "sql",
        "--write",
        "delete from items where id = 1; select count(*) as n from items",
    ])
    .ok();
    assert_eq!(lib.count("select count(*) from items"), 29);
    // The triggers kept the index in step.
    lib.run(&["check"]).ok();
}

#[test]
fn bad_sql_and_parameters_are_one_line() {
    let lib = library();
    for (args, needle) in [
        (&["sql", "selec 1"][..], "sql: near \"selec\": syntax error"),
        (
            &["sql", "select :x", "-p", "y=1"],
            "-p y: no statement has the parameter :y",
        ),
        (&["sql", "select 1", "-p", "novalue"], "write NAME=VALUE"),
        (&["sql"], "no SQL given"),
        (&["sql", "select ?"], "parameter 1 has no name"),
        // Its own connection in the way, not another writer: the message says which.
        (
            &["sql", "--write", "pragma wal_checkpoint(truncate)"],
            "that this connection is still using",
        ),
        (
            &["sql", "--write", "vacuum"],
            "cannot VACUUM from within a transaction",
        ),
    ] {
        let ran = lib.run(args);
        assert_eq!(ran.code, 2, "{args:?}");
        ran.fails_with(needle);
    }
    // Numbers bind as numbers, the rest as text; the ':' is optional.
    let out = lib.json(&[
        "sql",
        "select typeof(:a) as a, typeof(:b) as b, :c as c",
        "-p",
        "a=5",
        "-p",
        ":b=2.5",
        "-p",
        "c=x=y",
    ]);
    assert_eq!(
        out,
        serde_json::json!([{"a": "integer", "b": "real", "c": "x=y"}])
    );
}

/// The names in the library's directory other than the library's own files.
fn other_files(lib: &TempLib) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(lib.dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with("library.db"))
        .collect();
    names.sort();
    names
}

#[test]
fn no_statement_writes_a_file_without_write() {
    let lib = library();
    // Another WAL database, closed (no -wal, no -shm): attaching it would make them.
    let other = lib.path("other.db");
    {
        let conn = rusqlite::Connection::open(&other).expect("other");
        conn.execute_batch("pragma journal_mode=wal; create table t(x); insert into t values (1)")
            .expect("other's table");
    }
    let copy = lib.path("copy.db");
    let copy = copy.to_str().expect("path");
    let new = lib.path("new.db");
    let into = format!("vacuum into '{copy}'");
    let attach_new = format!("attach '{}' as n", new.to_str().expect("path"));
    let attach_other = format!(
        "attach '{}' as o; select x from o.t",
        other.to_str().expect("path")
    );
    let attach_uri = format!(
        "attach 'file:{}?mode=rwc' as n",
        new.to_str().expect("path")
    );
    let cases: [(&[&str], &str); 8] = [
        (
            &["sql", &into],
            "VACUUM INTO writes a copy of the library to",
        ),
        (
            &["sql", "vacuum into :p", "-p", &format!("p={copy}")],
            "VACUUM INTO writes a copy",
        ),
        (
            &[
                "sql",
                "select 1; vacuum main into :p",
                "-p",
                &format!("p:text={copy}"),
            ],
            "VACUUM INTO writes a copy",
        ),
        (&["sql", &attach_new], "ATTACH opens the database file"),
        (&["sql", &attach_other], "ATTACH opens the database file"),
        (&["sql", &attach_uri], "ATTACH opens the database file"),
        // --write's script is one transaction: it cannot end it and VACUUM INTO after.
        (
            &["sql", "--write", &format!("commit; {into}")],
            "runs in one transaction of its own",
        ),
        (
            &["sql", "select load_extension('/nonexistent/lib')"],
            "load_extension is off in recall sql",
        ),
    ];
    let before = (lib.snapshot(), other_files(&lib));
    for (args, needle) in cases {
        lib.run(args).fails_with(needle);
        assert_eq!(
            (lib.snapshot(), other_files(&lib)),
            before,
            "{args:?} wrote a file"
        );
    }
    // A script of --write that ended its transaction would keep its first statements.
    lib.run(&[
        "sql",
        "--write",
        "commit; create table kept(x); select nosuchfn()",
    ])
    .fails_with("leave out BEGIN, COMMIT, END and ROLLBACK");
    assert_eq!(
        lib.count("select count(*) from sqlite_master where name = 'kept'"),
        0
    );
    // Savepoints work inside it; reading transactions work without --write.
    let out = lib.json(&["sql", "--write", "savepoint a; release a; select 1 as one"]);
    assert_eq!(out, serde_json::json!([{"one": 1}]));
    let out = lib.json(&["sql", "begin; select count(*) as n from items; commit"]);
    assert_eq!(out, serde_json::json!([{"n": 30}]));
}

#[test]
fn every_write_a_read_only_connection_refuses_gets_the_write_advice() {
    let lib = library();
    lib.checkpoint();
    let before = lib.snapshot();
    let journal = || lib.json(&["sql", "pragma journal_mode"]);
    assert_eq!(journal(), serde_json::json!([{"journal_mode": "wal"}]));
    for sql in [
        "pragma journal_mode=delete",
        "pragma journal_mode = truncate",
        "pragma JOURNAL_MODE=persist",
        "pragma journal_mode=memory",
        "pragma journal_mode=off",
        "pragma main.journal_mode=delete",
        "pragma wal_checkpoint(truncate)",
        "pragma optimize",
        "pragma incremental_vacuum",
        "pragma user_version = 7",
        "vacuum",
        "analyze",
        "reindex",
        "insert into items_fts(items_fts) values ('optimize')",
        "update items set title = 'x' where id = 1",
        "create index by_title on items(title)",
        "create virtual table v using fts5(x)",
        "create table t(x); select 1",
    ] {
        lib.run(&["sql", sql])
            .fails_with("the statement writes to the library")
            .fails_with("add --write to allow it");
        assert_eq!(lib.snapshot(), before, "{sql}");
        assert_eq!(
            journal(),
            serde_json::json!([{"journal_mode": "wal"}]),
            "{sql}"
        );
    }
    // The connection's temporary tables are no write to the library.
    let out = lib.json(&[
        "sql",
        "create temp table t(x); insert into t values (1), (2); create virtual table temp.v using fts5(x); insert into v values ('a b'); select sum(x) as s, (select count(*) from v where v match 'a') as m from t",
    ]);
    assert_eq!(out, serde_json::json!([{"s": 3, "m": 1}]));
}

#[test]
fn parameters_take_a_type_for_number_like_text() {
    let lib = library();
    let sql = "select typeof(:v) as t, :v as v";
    let bound = |p: &str| lib.json(&["sql", sql, "-p", p]);
    for (p, t, v) in [
        ("v=007", "integer", serde_json::json!(7)),
        ("v:text=007", "text", serde_json::json!("007")),
        (":v:text=1e3", "text", serde_json::json!("1e3")),
        ("v:text=", "text", serde_json::json!("")),
        ("v=1e3", "real", serde_json::json!(1000.0)),
        ("v:int=42", "integer", serde_json::json!(42)),
        ("v:real=2", "real", serde_json::json!(2.0)),
        ("v:real=0.5", "real", serde_json::json!(0.5)),
        ("v=x:text", "text", serde_json::json!("x:text")),
    ] {
        assert_eq!(bound(p), serde_json::json!([{"t": t, "v": v}]), "{p}");
    }
    for (p, needle) in [
        ("v:int=1.5", "\"1.5\" is not a whole number"),
        ("v:real=abc", "\"abc\" is not a number"),
        (
            "v:date=2024",
            "unknown type \"date\": write NAME:text=VALUE",
        ),
        ("v:=1", "unknown type \"\""),
    ] {
        lib.run(&["sql", sql, "-p", p]).fails_with(needle);
    }
}
