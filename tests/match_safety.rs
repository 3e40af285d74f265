//! The safety invariant of docs/functions.md: for every input string, `MATCH recall_match(s, …)`
//! never raises an FTS5 error — checked on generated adversarial strings, on trigram and
//! unicode61 tables, in rusqlite's bundled SQLite and in the system Python's SQLite 3.40.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::common::{extension_path, load_extension, pipe, root, SYSTEM_PYTHON};

/// Pieces that mean something to FTS5's query syntax, to the splitter, or to UTF-8.
const ALPHABET: &[&str] = &[
    "\"",
    "\"",
    "\"",
    "'",
    "(",
    ")",
    "*",
    ":",
    "^",
    "+",
    "-",
    "{",
    "}",
    ",",
    ".",
    "?",
    "!",
    "NEAR",
    "NEAR(",
    "near/3",
    "AND",
    "OR",
    "NOT",
    "and",
    "or",
    "not",
    "body",
    "body:",
    "title:",
    "{body title}:",
    "rowid",
    "*:",
    "-body:",
    " ",
    " ",
    " ",
    "\t",
    "\n",
    "\r",
    "\u{a0}",
    "\u{2003}",
    "\u{3000}",
    "\u{2028}",
    "\u{85}",
    "\u{200b}",
    "\u{feff}",
    "é",
    "É",
    "ñ",
    "ü",
    "e\u{301}",
    "\u{301}",
    "ß",
    "東京",
    "中",
    "😀",
    "👩‍💻",
    "\u{0}",
    "\u{1}",
    "\u{1b}",
    "\u{7f}",
    "\u{fffd}",
    "a",
    "ab",
    "abc",
    "consent",
    "banner",
    "c++",
    "C#",
    "$HOME",
    ".env",
    "x*",
    "\"\"",
    "\"\"\"",
    "''",
    "«",
    "»",
    "“",
    "”",
    "¿",
    "¡",
    "\\",
    "%",
    "_",
    ";",
    "--",
    "/*",
    "*/",
    "0",
    "42",
    "-1",
];

fn generate(rng: &mut StdRng, index: usize) -> String {
    // Every 1,000th input is about 10 kB; the rest are up to 40 pieces.
    let pieces = if index % 1000 == 999 {
        4000
    } else {
        rng.random_range(0..40)
    };
    let mut s = String::new();
    for _ in 0..pieces {
        if rng.random_bool(0.1) {
            // Any Unicode scalar value at all, controls and unassigned included.
            let c = loop {
                if let Some(c) = char::from_u32(rng.random_range(0..0x11_0000)) {
                    break c;
                }
            };
            s.push(c);
        } else {
            s.push_str(ALPHABET[rng.random_range(0..ALPHABET.len())]);
        }
    }
    if index % 1000 == 999 {
        while s.len() < 10_000 {
            s.push_str("abc\" NEAR(x");
        }
    }
    s
}

fn inputs(count: usize, seed: u64) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..count).map(|i| generate(&mut rng, i)).collect()
}

#[test]
fn recall_match_never_raises_an_fts5_error_in_bundled_sqlite() {
    let _turn = crate::common::heavy();
    let conn = rusqlite::Connection::open_in_memory().expect("open");
    load_extension(&conn);
    let tables = crate::common::adversarial_fts_tables(&conn);
    let mut queries = 0usize;
    let mut matched_rows = 0i64;
    let mut failures = Vec::new();
    const INPUTS: usize = 70_000;
    for text in inputs(INPUTS, 0x5eed) {
        for (table, tokenizer) in &tables {
            let sql_default =
                format!("select count(*) from {table} where {table} match recall_match(?1)");
            let sql_tok =
                format!("select count(*) from {table} where {table} match recall_match(?1, ?2)");
            for (sql, with_tok) in [(sql_default, false), (sql_tok, true)] {
                let mut stmt = conn.prepare_cached(&sql).expect("prepare");
                let result: rusqlite::Result<i64> = if with_tok {
                    stmt.query_row(rusqlite::params![text, tokenizer], |r| r.get(0))
                } else {
                    stmt.query_row([&text], |r| r.get(0))
                };
                queries += 1;
                match result {
                    Ok(n) => matched_rows += n,
                    Err(e) if failures.len() < 20 => {
                        failures.push(format!("{text:?} on {tokenizer}: {e}"))
                    }
                    Err(_) => {}
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "MATCH errors:\n{}",
        failures.join("\n")
    );
    // Each input on each table, with and without the tokenizer argument.
    assert_eq!(queries, INPUTS * tables.len() * 2);
    // The queries really search: a good share of them find rows.
    assert!(
        matched_rows > 10_000,
        "only {matched_rows} rows matched in all"
    );
    eprintln!("{queries} queries, {matched_rows} rows matched, no FTS5 error");
}

#[test]
fn recall_match_never_raises_an_fts5_error_in_system_python() {
    let inputs = inputs(25_000, 0xfeed);
    let request = serde_json::json!({ "extension": extension_path(), "inputs": inputs });
    let out = pipe(
        std::process::Command::new(SYSTEM_PYTHON).arg(root().join("tests/hosts/match_safety.py")),
        &request.to_string(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reply: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON reply");
    // Each input, in each of the three tables, with and without the tokenizer named.
    assert_eq!(reply["queries"], 25_000 * 3 * 2);
    assert_eq!(
        reply["failures"],
        serde_json::json!([]),
        "SQLite {}",
        reply["sqlite_version"]
    );
}

#[test]
fn plain_quoting_would_not_be_safe() {
    // The invariant is not vacuous: the same inputs, passed to MATCH as they are, fail.
    let conn = rusqlite::Connection::open_in_memory().expect("open");
    conn.execute_batch("create virtual table t using fts5(body, tokenize = 'trigram')")
        .expect("create");
    let errors = inputs(1_000, 0x5eed)
        .iter()
        .filter(|s| {
            conn.query_row("select count(*) from t where t match ?1", [s], |r| {
                r.get::<_, i64>(0)
            })
            .is_err()
        })
        .count();
    assert!(errors > 500, "only {errors} of 1000 raw inputs failed");
}
