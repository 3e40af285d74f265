//! The `recall` binary end to end on temporary libraries: init, tokenizer management,
//! check, rebuild, import, get, optimize, and every error of the library commands.

use crate::common::cli::{generated_items, kill_at_pause, TempLib};
use serde_json::json;

const ITEM: &str = r#"{"source":"agent-a","project":"shop","title":"Remove the analytics script","summary":"Dropped analytics entirely.","occurred_at":"2025-01-20T11:00:00+01:00"}"#;

#[test]
fn init_records_the_default_tokenizer_and_check_is_clean() {
    let lib = TempLib::new();
    let out = lib.run(&["--json", "init"]).ok().json();
    assert_eq!(out["tokenizer"], "trigram remove_diacritics 1");
    assert_eq!(out["schema_version"], crate::common::latest_version());
    let check = lib.run(&["--json", "check"]).ok().json();
    assert_eq!(check["healthy"], true, "{check}");
    let names: Vec<&str> = check["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    for expected in [
        "sqlite",
        "schema",
        "tokenizer",
        "compatibility",
        "database",
        "index integrity",
        "counts",
        "triggers",
    ] {
        assert!(
            names.contains(&expected),
            "check lacks {expected}: {names:?}"
        );
    }
    let compat = check["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "compatibility")
        .unwrap();
    assert!(
        compat["detail"]
            .as_str()
            .unwrap()
            .starts_with("the index needs SQLite 3.45.0+"),
        "{compat}"
    );
    // The record is in the database, where any tool can read it.
    assert_eq!(lib.count("pragma application_id"), 0x5243_4c4c);
    let tok: String = lib
        .conn()
        .query_row(
            "select value from recall_meta where key = 'tokenizer'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(tok, "trigram remove_diacritics 1");
    // The library is in WAL mode, for readers beside a writer.
    let mode: String = lib
        .conn()
        .query_row("pragma journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

#[test]
fn init_with_each_known_tokenizer_declares_it() {
    for spec in [
        "unicode61 remove_diacritics 2",
        "porter unicode61 remove_diacritics 2",
        "trigram",
        "TRIGRAM  remove_diacritics 1",
    ] {
        let lib = TempLib::init(Some(spec));
        let sql: String = lib
            .conn()
            .query_row(
                "select sql from sqlite_master where name = 'items_fts'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        let normal = spec
            .to_lowercase()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(sql.contains(&format!("tokenize = '{normal}'")), "{sql}");
        assert_eq!(lib.run(&["check"]).ok().code, 0);
    }
}

#[test]
fn init_refuses_unknown_tokenizers_and_existing_files() {
    let lib = TempLib::new();
    lib.run(&["init", "--tokenizer", "icu zh"])
        .fails_with("unknown tokenizer \"icu zh\": use one of 'trigram remove_diacritics 1', 'trigram', 'unicode61 remove_diacritics 2'");
    assert!(!lib.db.exists(), "a refused init creates no file");
    // Options beyond the six known specs are refused, not passed to FTS5.
    for spec in [
        "unicode61 remove_diacritics 7",
        "porter",
        "trigram case_sensitive 1",
        "unicode61 separators x",
        "unicode61 tokenchars '-'",
    ] {
        lib.run(&["init", "--tokenizer", spec])
            .fails_with(&format!("unknown tokenizer {spec:?}: use one of"));
        assert!(!lib.db.exists(), "{spec}");
    }
    lib.run(&["init"]).ok();
    lib.run(&["init"]).fails_with("is already a recall library");
    let other = lib.path("notes.txt");
    std::fs::write(&other, "notes").unwrap();
    let out = std::process::Command::new(crate::common::cli::recall_bin())
        .args(["--db", other.to_str().unwrap(), "init"])
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already exists and is not empty"));
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "notes");
}

#[test]
fn every_command_refuses_a_configured_tokenizer_that_differs() {
    let lib = TempLib::init(None);
    lib.import(ITEM).ok();
    let before = lib.snapshot();
    let fix = "differs from the library's 'trigram remove_diacritics 1': run `recall rebuild --tokenizer 'unicode61 remove_diacritics 2'`";
    for args in [
        &["import", "-"][..],
        &["get", "1"],
        &["optimize"],
        &["migrate"],
    ] {
        let mut full = vec!["--tokenizer", "unicode61 remove_diacritics 2"];
        full.extend_from_slice(args);
        lib.run_stdin(&full, ITEM).fails_with(fix);
    }
    // The same from the configuration file.
    let config = lib.path("recall.toml");
    std::fs::write(
        &config,
        "[storage]\ntokenizer = \"unicode61 remove_diacritics 2\"\n",
    )
    .unwrap();
    lib.run(&["--config", config.to_str().unwrap(), "get", "1"])
        .fails_with(fix);
    // check reports it as a problem, with exit 1.
    let out = lib.run(&["--config", config.to_str().unwrap(), "check"]);
    assert_eq!(out.code, 1);
    let problems: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("PROBLEM"))
        .collect();
    assert_eq!(problems.len(), 1, "{}", out.stdout);
    assert!(problems[0].contains("configured 'unicode61 remove_diacritics 2' but the library records 'trigram remove_diacritics 1'"));
    assert_eq!(lib.snapshot(), before, "refused commands change nothing");
    // The same spelling in another form is the same tokenizer.
    lib.run(&["--tokenizer", "'Trigram' remove_diacritics 1", "get", "1"])
        .ok();
}

#[test]
fn rebuild_switches_the_tokenizer() {
    let lib = TempLib::init(None);
    lib.import(ITEM).ok();
    // Trigram matches inside words; unicode61 only whole words.
    assert_eq!(lib.matching("\"nalyti\""), vec![1]);
    let out = lib
        .run(&[
            "--json",
            "rebuild",
            "--tokenizer",
            "unicode61 remove_diacritics 2",
        ])
        .ok()
        .json();
    assert_eq!(out["tokenizer"], "unicode61 remove_diacritics 2");
    assert_eq!(out["previous_tokenizer"], "trigram remove_diacritics 1");
    assert_eq!(out["items"], 1);
    assert_eq!(lib.matching("\"nalyti\""), Vec::<i64>::new());
    assert_eq!(lib.matching("analytics"), vec![1]);
    let check = lib.run(&["--json", "check"]).ok().json();
    assert_eq!(check["healthy"], true);
    // Commands now expect the new tokenizer.
    lib.run(&["--tokenizer", "trigram remove_diacritics 1", "get", "1"])
        .fails_with("differs from the library's 'unicode61 remove_diacritics 2'");
    // The triggers still feed the new index.
    lib.import(r#"{"source":"s","title":"Zebra crossing","occurred_at":"2025-01-01"}"#)
        .ok();
    assert_eq!(lib.matching("zebra"), vec![2]);
    // A plain rebuild keeps the tokenizer.
    let out = lib.run(&["--json", "rebuild"]).ok().json();
    assert_eq!(out["tokenizer"], "unicode61 remove_diacritics 2");
    assert_eq!(lib.run(&["check"]).code, 0);
}

#[test]
fn rebuild_killed_half_way_leaves_the_library_as_it_was() {
    let _turn = crate::common::heavy();
    let lib = TempLib::init(None);
    lib.import(&generated_items(20_000)).ok();
    let before = lib.snapshot();
    let child = lib
        .command()
        .args(["rebuild", "--tokenizer", "unicode61 remove_diacritics 2"])
        .env("RECALL_TEST_PAUSE_AT", "rebuild:10000")
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("spawn rebuild");
    // Half the items are reindexed inside the open transaction: kill it there.
    kill_at_pause(child);
    assert_eq!(
        lib.snapshot(),
        before,
        "the library must be exactly as before"
    );
    let check = lib.run(&["--json", "check"]).ok().json();
    assert_eq!(check["healthy"], true, "{check}");
    assert_eq!(
        lib.matching("\"widget1\"").len(),
        lib.count("select count(*) from items where title like '%widget1%'") as usize
    );
}

#[test]
fn import_normalises_and_reports() {
    let lib = TempLib::init(None);
    let jsonl = format!(
        "{ITEM}\n\n{}\n{}\n",
        r#"{"source":"human","project":null,"title":"Nota: migración","summary":"Se normaliza a UTC","questions":["¿cuándo?","¿por qué?"],"atoms":"E0425","occurred_at":"2025-03-04 00:06:07-05:00","transcript":"long text"}"#,
        r#"{"source":"human","title":"Unix time","occurred_at":1741064767}"#
    );
    let out = lib
        .run_stdin(&["--json", "import", "-"], &jsonl)
        .ok()
        .json();
    assert_eq!(out["imported"], 3);
    let times: Vec<String> = lib
        .conn()
        .prepare("select occurred_at from items order by id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert_eq!(
        times,
        [
            "2025-01-20T10:00:00Z",
            "2025-03-04T05:06:07Z",
            "2025-03-04T05:06:07Z"
        ]
    );
    let q: String = lib
        .conn()
        .query_row("select questions from items where id = 2", [], |r| r.get(0))
        .unwrap();
    assert_eq!(q, "¿cuándo?\n¿por qué?");
    // Accent-insensitive trigram index; the transcript is stored, not indexed.
    assert_eq!(lib.matching("\"migracion\""), vec![2]);
    assert_eq!(lib.matching("\"long text\""), Vec::<i64>::new());
    let text = lib.run(&["import", "-"]).ok();
    assert!(
        text.stdout.starts_with("imported 0 items in "),
        "{}",
        text.stdout
    );
    // A file path works like stdin.
    let file = lib.path("items.jsonl");
    std::fs::write(&file, format!("{ITEM}\n")).unwrap();
    let out = lib.run(&["import", file.to_str().unwrap()]).ok();
    assert!(out.stdout.starts_with("imported 1 items in "));
    lib.run(&["import", lib.path("missing.jsonl").to_str().unwrap()])
        .fails_with("cannot read ");
}

#[test]
fn a_bad_line_stops_the_import_and_nothing_is_written() {
    let lib = TempLib::init(None);
    lib.import(ITEM).ok();
    let before = lib.snapshot();
    let good = r#"{"source":"s","title":"fine","occurred_at":"2025-01-01"}"#;
    let cases: Vec<(String, &str)> = vec![
        ("{not json".into(), "line 3: invalid JSON: "),
        (
            r#"{"source":"s","occurred_at":"2025-01-01"}"#.into(),
            "line 3: title is missing",
        ),
        (
            r#"{"title":"t","occurred_at":"2025-01-01"}"#.into(),
            "line 3: source is missing",
        ),
        (
            r#"{"source":"s","title":"t"}"#.into(),
            "line 3: occurred_at is missing",
        ),
        (
            r#"{"source":"s","title":"t","occurred_at":"last week"}"#.into(),
            "line 3: occurred_at \"last week\" is not an ISO-8601 time",
        ),
        (
            r#"{"source":"s","title":"t","occurred_at":"2025-02-30"}"#.into(),
            "line 3: occurred_at \"2025-02-30\" is not an ISO-8601 time",
        ),
        (
            r#"{"source":"s","title":42,"occurred_at":"2025-01-01"}"#.into(),
            "line 3: title must be a string, got a number",
        ),
        (
            r#"{"source":"s","title":"t","occurred_at":"2025-01-01","summary":{}}"#.into(),
            "line 3: summary must be a string or a list of strings, got an object",
        ),
        (
            r#"{"source":"s","title":"t","occurred_at":"2025-01-01","tags":[]}"#.into(),
            "line 3: unknown field \"tags\"",
        ),
        (
            r#"[1,2]"#.into(),
            "line 3: expected a JSON object, got an array",
        ),
        (
            r#"{"source":"s","title":"t\u0000","occurred_at":"2025-01-01"}"#.into(),
            "line 3: title contains a NUL character",
        ),
    ];
    for (bad, message) in cases {
        let input = format!("{good}\n{good}\n{bad}\n{good}\n");
        lib.import(&input).fails_with(&format!("stdin: {message}"));
        assert_eq!(lib.snapshot(), before, "after {bad}");
    }
    // Invalid UTF-8.
    let mut bytes = format!("{good}\n").into_bytes();
    bytes.extend_from_slice(
        b"{\"source\":\"s\",\"title\":\"\xff\xfe\",\"occurred_at\":\"2025-01-01\"}\n",
    );
    let file = lib.path("bad.jsonl");
    std::fs::write(&file, &bytes).unwrap();
    lib.run(&["import", file.to_str().unwrap()])
        .fails_with("line 2: invalid UTF-8 at byte 23; nothing was imported");
    assert_eq!(lib.snapshot(), before);
}

#[test]
fn get_shows_an_item_and_hides_forbidden_ones_like_missing_ones() {
    let lib = TempLib::init(None);
    lib.import(&format!("{ITEM}\n{}\n", r#"{"source":"human","title":"Private note","occurred_at":"2025-01-01","transcript":"secret"}"#)).ok();
    let item = lib.run(&["--json", "get", "1"]).ok().json();
    assert_eq!(item["item"]["title"], "Remove the analytics script");
    assert_eq!(item["item"]["occurred_at"], "2025-01-20T10:00:00Z");
    assert!(item["item"].get("transcript").is_none());
    let item = lib.run(&["--json", "get", "2", "--transcript"]).ok().json();
    assert_eq!(item["item"]["transcript"], "secret");
    let text = lib.run(&["get", "1"]).ok().stdout;
    assert!(
        text.starts_with("[1] 2025-01-20T10:00:00Z Remove the analytics script (shop, agent-a)\n"),
        "{text}"
    );
    let forbidden = lib.run(&["get", "2", "--allow", "agent-*"]);
    let missing = lib.run(&["get", "3", "--allow", "agent-*"]);
    assert_eq!(forbidden.code, missing.code);
    assert_eq!(
        forbidden.stderr.replace(" 2 ", " N "),
        missing.stderr.replace(" 3 ", " N ")
    );
    forbidden.fails_with("no item 2 in");
    lib.run(&["get", "1", "--allow", "agent-*"]).ok();
    lib.run(&["get", "1", "--allow", "Agent-*"])
        .fails_with("no item 1");
    let config = lib.path("recall.toml");
    std::fs::write(&config, "[access]\nallow = [\"human\"]\n").unwrap();
    lib.run(&["--config", config.to_str().unwrap(), "get", "1"])
        .fails_with("no item 1");
    lib.run(&["--config", config.to_str().unwrap(), "get", "2"])
        .ok();
}

#[test]
fn check_finds_each_problem_and_exits_1() {
    // Declared and recorded tokenizers disagree.
    let lib = TempLib::init(None);
    lib.conn()
        .execute(
            "update recall_meta set value = 'trigram' where key = 'tokenizer'",
            [],
        )
        .unwrap();
    let out = lib.run(&["check"]);
    assert_eq!(out.code, 1);
    assert!(out.stdout.contains("PROBLEM tokenizer: the index declares 'trigram remove_diacritics 1' but the library records 'trigram'"), "{}", out.stdout);

    // A missing trigger, and items the index does not know.
    let lib = TempLib::init(None);
    lib.import(ITEM).ok();
    lib.conn().execute_batch("drop trigger items_fts_after_insert; insert into items(source, title, occurred_at) values ('s', 'unindexed', '2025-01-01');").unwrap();
    let out = lib.run(&["--json", "check"]);
    assert_eq!(out.code, 1);
    let report = out.json();
    let failed = out.failed_checks();
    assert!(failed.contains(&"triggers".to_string()), "{report}");
    assert!(failed.contains(&"counts".to_string()), "{report}");
    assert!(failed.contains(&"index integrity".to_string()), "{report}");
    let counts = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "counts")
        .unwrap();
    assert_eq!(
        counts["detail"],
        "2 items but 1 indexed: run `recall repair`"
    );

    // A schema behind this recall.
    let lib = TempLib::init_at_version_1();
    let out = lib.run(&["check"]);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.contains(&format!(
            "PROBLEM schema: schema version 1 of {}: run `recall migrate`",
            crate::common::latest_version()
        )),
        "{}",
        out.stdout
    );
    lib.run(&["get", "1"]).fails_with(&format!(
        "is at schema version 1, this recall needs {}: run `recall migrate` first",
        crate::common::latest_version()
    ));

    // user_version lowered by hand: the migrations log tells the version it should be.
    let lib = TempLib::init(None);
    lib.conn().execute_batch("pragma user_version = 0").unwrap();
    let out = lib.run(&["check"]);
    assert_eq!(out.code, 1);
    assert!(out.stdout.contains(&format!("PROBLEM schema: schema version 0, but the migrations log (recall_migrations) records migrations up to {}: user_version was changed by hand; run `recall repair` to restore it", crate::common::latest_version())), "{}", out.stdout);
    lib.run(&["get", "1"]).fails_with(
        &format!("its user_version is 0, but its migrations log (recall_migrations) records migrations up to {}", crate::common::latest_version()),
    );
}

#[test]
fn optimize_and_migrate_report() {
    let lib = TempLib::init(None);
    lib.import(&generated_items(500)).ok();
    let out = lib.run(&["--json", "optimize"]).ok().json();
    assert_eq!(out["optimized"], true);
    assert!(
        lib.count("select count(*) from sqlite_stat1") > 0,
        "ANALYZE ran"
    );
    assert_eq!(lib.run(&["check"]).code, 0);
    let out = lib.run(&["--json", "migrate"]).ok().json();
    assert_eq!(
        out,
        json!({"command": "migrate", "from": crate::common::latest_version(), "to": crate::common::latest_version(), "applied": 0})
    );
    assert!(lib.run(&["migrate"]).ok().stdout.contains(&format!(
        "is up to date (schema version {})",
        crate::common::latest_version()
    )));
}

#[test]
fn errors_are_one_line_and_change_nothing() {
    let lib = TempLib::new();
    lib.run(&["get", "1"]).fails_with(&format!(
        "no library at {}: create one with `recall init --db {}`",
        lib.db.display(),
        lib.db.display()
    ));
    assert!(!lib.db.exists(), "a read creates no file");
    std::fs::write(
        &lib.db,
        "this is not a database, just some text that is long enough to have a header",
    )
    .unwrap();
    lib.run(&["check"]).fails_with("is not a SQLite database");
    lib.run(&["import", "-"])
        .fails_with("is not a SQLite database");

    let plain = TempLib::new();
    rusqlite::Connection::open(&plain.db)
        .unwrap()
        .execute_batch("create table notes(x)")
        .unwrap();
    plain
        .run(&["check"])
        .fails_with("is a SQLite database but not a recall library");

    let out = std::process::Command::new(crate::common::cli::recall_bin())
        .arg("check")
        .env_remove("RECALL_DB")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "recall: no library given: pass --db PATH or set RECALL_DB"
    );

    let config = plain.path("bad.toml");
    std::fs::write(&config, "[search]\nrecency_weight = 2\n").unwrap();
    plain
        .run(&["--config", config.to_str().unwrap(), "check"])
        .fails_with("search.recency_weight must be from 0 to 1, got 2");
    std::fs::write(&config, "[serch]\n").unwrap();
    plain
        .run(&["--config", config.to_str().unwrap(), "check"])
        .fails_with("unknown field `serch`");
}

#[test]
fn a_read_only_library_reads_but_refuses_writes() {
    use std::os::unix::fs::PermissionsExt;
    let lib = TempLib::init(None);
    lib.import(ITEM).ok();
    // Fold the WAL into the main file so the read-only file holds everything.
    lib.conn()
        .execute_batch("pragma wal_checkpoint(truncate)")
        .unwrap();
    let before = lib.snapshot();
    std::fs::set_permissions(&lib.db, std::fs::Permissions::from_mode(0o444)).unwrap();
    lib.run(&["get", "1"]).ok();
    lib.run(&["check"]).ok();
    for args in [
        &["import", "-"][..],
        &["optimize"],
        &["rebuild"],
        &["migrate"],
    ] {
        lib.run_stdin(args, ITEM).fails_with(
            "is read-only for you and this command writes to it: make it writable (chmod u+w)",
        );
    }
    std::fs::set_permissions(&lib.db, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(lib.snapshot(), before);
}

#[test]
fn a_locked_library_waits_then_fails_clearly() {
    let lib = TempLib::init(None);
    let config = lib.path("fast.toml");
    std::fs::write(&config, "[storage]\nbusy_timeout_ms = 200\n").unwrap();
    let holder = lib.conn();
    holder.execute_batch("begin immediate; insert into items(source, title, occurred_at) values ('s', 'held', '2025-01-01');").unwrap();
    lib.run_stdin(&["--config", config.to_str().unwrap(), "import", "-"], ITEM)
        .fails_with(
            "the library is locked by another writer and stayed locked past the busy timeout",
        );
    // With the default timeout (5 s) it waits for a lock released in the meantime.
    let release = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(500));
        holder.execute_batch("commit").unwrap();
    });
    lib.import(ITEM).ok();
    release.join().unwrap();
    assert_eq!(lib.count("select count(*) from items"), 2);
}
