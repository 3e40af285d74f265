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
