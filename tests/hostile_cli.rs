//! Hostile and broken input to every command: one clear error line, a non-zero exit,
//! and the library unchanged. Damaged libraries are reported by `check`, never a panic.

use crate::common::cli::{generated_items, TempLib};
use crate::common::{extension_path, pipe, root, shell_ok, SYSTEM_PYTHON};

#[test]
fn bad_arguments_to_every_command() {
    let lib = TempLib::init(None);
    lib.import(&generated_items(50)).ok();
    let before = lib.snapshot();
    let config = lib.path("bad.toml");
    std::fs::write(&config, "[search]\ncandidate_pool = \"lots\"\n").unwrap();
    let c = config.to_str().unwrap().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["search"],
            "the following required arguments were not provided: <QUERY>",
        ),
        (
            vec!["search", "x", "--weight", "2"],
            "--weight must be from 0 to 1, got 2",
        ),
        (
            vec!["search", "x", "--weight", "NaN"],
            "--weight must be from 0 to 1, got NaN",
        ),
        (
            vec!["search", "x", "--half-life", "0"],
            "--half-life must be above 0 and at most 1000000, got 0",
        ),
        (
            vec!["search", "x", "--half-life=-inf"],
            "--half-life must be above 0 and at most 1000000, got -inf",
        ),
        (
            vec!["search", "x", "--since", "2025-13-01"],
            "--since \"2025-13-01\" is not an ISO-8601 time",
        ),
        (
            vec!["search", "x", "--now", "tomorrow"],
            "--now \"tomorrow\" is not an ISO-8601 time",
        ),
        (
            vec!["search", "x", "--limit", "many"],
            "invalid value 'many' for '--limit <LIMIT>'",
        ),
        (
            vec!["timeline", "--until", "0000-00-00"],
            "--until \"0000-00-00\" is not an ISO-8601 time",
        ),
        (vec!["later", "abc"], "invalid value 'abc' for '<ID>'"),
        (vec!["later", "99999"], "no item 99999 in"),
        (vec!["get", "-5"], "unexpected argument '-5'"),
        (
            vec!["related"],
            "required arguments were not provided: <PROMPT>",
        ),
        (
            vec!["rebuild", "--tokenizer", "klingon"],
            "unknown tokenizer \"klingon\"",
        ),
        (
            vec!["import", "/nonexistent/file.jsonl"],
            "cannot read /nonexistent/file.jsonl",
        ),
        (
            vec!["eval", "/nonexistent/cases.jsonl"],
            "cannot read /nonexistent/cases.jsonl",
        ),
        (vec!["frobnicate"], "unrecognized subcommand 'frobnicate'"),
        (
            vec!["--config", &c, "search", "x"],
            "invalid type: string \"lots\", expected i64",
        ),
        (
            vec!["--config", "/nonexistent.toml", "check"],
            "cannot read config /nonexistent.toml",
        ),
        (
            vec!["--tokenizer", "trigram", "search", "x"],
            "the configured tokenizer 'trigram' differs",
        ),
    ];
    for (args, message) in cases {
        lib.run(&args).fails_with(message);
        assert_eq!(lib.snapshot(), before, "{args:?} changed the library");
    }
}

#[test]
fn hostile_import_lines_are_refused_whole() {
    let lib = TempLib::init(None);
    lib.import(&generated_items(10)).ok();
    let before = lib.snapshot();
    let good = r#"{"source":"s","title":"fine","occurred_at":"2025-01-01"}"#;
    let huge = "x".repeat(10 * 1024 * 1024);
    let cases: Vec<(String, String)> = vec![
        (
            format!(
                r#"{{"source":"s","title":"t","summary":"{huge}","occurred_at":"2025-01-01"}}"#
            ),
            "summary is 10485760 bytes, more than the 1048576 allowed".into(),
        ),
        (
            format!(
                r#"{{"source":"s","title":"{}","occurred_at":"2025-01-01"}}"#,
                "t".repeat(5000)
            ),
            "title is 5000 bytes, more than the 4096 allowed".into(),
        ),
        (
            r#"{"source":"s","title":"t","occurred_at":"10000-01-01"}"#.into(),
            "occurred_at \"10000-01-01\" is not an ISO-8601 time".into(),
        ),
        (
            r#"{"source":"s","title":"t","occurred_at":"0000-06-01"}"#.into(),
            "occurred_at year 0 is out of range (1 to 9999)".into(),
        ),
        (
            r#"{"source":"s","title":"t","occurred_at":-1e20}"#.into(),
            "occurred_at -1e+20 is out of range for Unix seconds".into(),
        ),
        (
            r#"{"source":"s","title":"t","occurred_at":"2025-01-01","id":1.5}"#.into(),
            "id must be a positive integer, got 1.5".into(),
        ),
        (
            r#"{"source":"s","title":"t","occurred_at":"2025-01-01","id":99999999999999999999}"#
                .into(),
            "id must be a positive integer".into(),
        ),
        (
            r#"{"source":"s","title":"t","occurred_at":"2025-01-01""#.into(),
            "invalid JSON: EOF while parsing an object".into(),
        ),
        (
            r#"{"source":"s","title":"t","occurred_at":"2025-01-01","source":"again"}"#.into(),
            "line 2: invalid JSON: duplicate field".into(),
        ),
        (
            r#"{"source":"s\u0000","title":"t","occurred_at":"2025-01-01"}"#.into(),
            "source contains a NUL character".into(),
        ),
        ("null".into(), "expected a JSON object, got null".into()),
    ];
    for (bad, message) in cases {
        let out = lib.import(&format!("{good}\n{bad}\n{good}\n"));
        if message.contains("duplicate field") {
            // serde_json keeps the last of duplicate keys: the line is valid.
            assert_eq!(out.code, 0);
            lib.conn()
                .execute_batch("delete from items where id > 10")
                .unwrap();
            continue;
        }
        out.fails_with(&message);
        assert_eq!(
            lib.snapshot(),
            before,
            "after {}",
            &bad[..bad.len().min(80)]
        );
    }
    // A truncated file: the last line cut in the middle.
    let file = lib.path("cut.jsonl");
    std::fs::write(&file, format!("{good}\n{}", &good[..20])).unwrap();
    lib.run(&["import", file.to_str().unwrap()])
        .fails_with("line 2: invalid JSON");
    // NUL bytes outside strings, and a binary file.
    lib.import(&format!("{good}\n\0\0\0\n"))
        .fails_with("line 2: invalid JSON");
    std::fs::write(&file, [0xffu8, 0xd8, 0xff, 0xe0, 0, 16, b'J', b'F']).unwrap();
    lib.run(&["import", file.to_str().unwrap()])
        .fails_with("line 1: invalid UTF-8 at byte 0");
    lib.conn()
        .execute_batch("delete from items where id > 10")
        .unwrap();
    assert_eq!(lib.snapshot(), before);
}

#[test]
fn damaged_libraries_are_reported_by_check() {
    let lib = TempLib::init(None);
    lib.run(&[
        "import",
        root().join("examples/sample.jsonl").to_str().unwrap(),
    ])
    .ok();
    lib.conn()
        .execute_batch("pragma wal_checkpoint(truncate)")
        .unwrap();
    let bytes = std::fs::read(&lib.db).unwrap();

    // Truncated to a tenth: check reports it in one line and exits 1; others error.
    let cut = TempLib::new();
    std::fs::write(&cut.db, &bytes[..bytes.len() / 10]).unwrap();
    let out = cut.run(&["check"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(out.stdout.lines().count(), 1);
    assert!(
        out.stdout.starts_with("PROBLEM database: cannot be read:"),
        "{}",
        out.stdout
    );
    cut.run(&["search", "analytics"])
        .fails_with("the database file is corrupt");

    // Garbage written over pages in the middle: check lists the problems, one per line.
    let bad = TempLib::new();
    let mut damaged = bytes.clone();
    let start = 4096 * 20;
    for b in &mut damaged[start..start + 8000] {
        *b = 0xde;
    }
    std::fs::write(&bad.db, &damaged).unwrap();
    let out = bad.run(&["--json", "check"]);
    assert_eq!(out.code, 1);
    let report = out.json();
    assert_eq!(report["healthy"], false);
    let failed = out.failed_checks();
    assert!(failed.contains(&"database".to_string()), "{report}");
    let text = bad.run(&["check"]);
    for line in text.stdout.lines() {
        assert!(
            line.starts_with("ok ") || line.starts_with("PROBLEM "),
            "{line}"
        );
    }
    assert!(text.stderr.is_empty(), "{}", text.stderr);
}

#[test]
fn loading_the_extension_twice_is_harmless() {
    let ext = extension_path();
    let script = format!(".load {0}\n.load {0}\nselect recall_match('a bc def');\nselect count(*) from pragma_function_list where name like 'recall_%';\n", ext.display());
    let stdout = shell_ok(&[":memory:".as_ref()], &script);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "\"def\"");
    // One entry per function and arity, and FTS5's auxiliary functions, each once.
    let expected: usize = recall_core::FUNCTIONS
        .iter()
        .map(|f| f.max_args - f.min_args + 1)
        .sum::<usize>()
        + recall_fts5::AUXILIARY.len();
    assert_eq!(lines[1], expected.to_string());
    let py = format!(
        "import sqlite3\nc = sqlite3.connect(':memory:')\nc.enable_load_extension(True)\nc.load_extension({0:?})\nc.load_extension({0:?})\nprint(c.execute(\"select recall_match('a bc def')\").fetchone()[0])\n",
        ext.display().to_string()
    );
    let out = pipe(std::process::Command::new(SYSTEM_PYTHON).arg("-"), &py);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "\"def\"");
    let conn = rusqlite::Connection::open_in_memory().unwrap();
    crate::common::load_extension(&conn);
    crate::common::load_extension(&conn);
    let m: String = conn
        .query_row("select recall_match('a bc def')", [], |r| r.get(0))
        .unwrap();
    assert_eq!(m, "\"def\"");
}
