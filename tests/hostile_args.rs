//! Every function, every arity, given every SQLite type in every argument position:
//! values or clear errors that name the function, never a crash of the host process.

use crate::common::{extension_path, pipe, root, Rusqlite, SHELL, SYSTEM_PYTHON};

/// One SQL literal per kind of trouble: each type, empty and huge values, NUL,
/// non-finite and out-of-range numbers, bad dates, invalid UTF-8.
const VALUES: &[&str] = &[
    "NULL",
    "0",
    "-1",
    "1",
    "2.5",
    "-3.0",
    "1e999",
    "-1e999",
    "1e308",
    "-1e308",
    "5e-324",
    "-62135596800.5",
    "9223372036854775807",
    "-9223372036854775808",
    "''",
    "'abc'",
    "'2025-01-01'",
    "'2025-02-30'",
    "'0000-01-01'",
    "'+10000-01-01T00:00:00Z'",
    "'2025-03-04T05:06:60Z'",
    "'trigram remove_diacritics 1'",
    "x''",
    "x'00ff'",
    "char(0)",
    "cast(x'ff80c0' as text)",
    "'\"NEAR(a b)\" OR c*'",
    "printf('%.*c', 100000, 'x')",
];

/// Errors are one line and short: values in them are cut or in scientific notation.
const MAX_MESSAGE: usize = 200;

fn assert_short(sql: &str, message: &str) {
    assert!(
        message.chars().count() <= MAX_MESSAGE && !message.contains('\n'),
        "{sql}: a long or multi-line message: {message}"
    );
}

/// A value each position accepts, so that varying one position tests that position.
fn valid_arg(name: &str, position: usize) -> &'static str {
    match (name, position) {
        ("recall_score", 0) => "-1.5",
        ("recall_decay", 2) | ("recall_score", 3) => "30",
        ("recall_score" | "recall_age_days" | "recall_decay", 1 | 2) | ("recall_age_days", 0) => {
            "'2025-01-01'"
        }
        ("recall_decay", 0) => "'2024-12-01'",
        ("recall_score", 4) => "0.5",
        ("recall_convex", 5) => "0.5",
        ("recall_rrf" | "recall_limit" | "recall_idf" | "recall_convex", _) => "5",
        ("recall_match" | "recall_terms", 1) => "3",
        ("recall_match" | "recall_terms", 2) => "1",
        ("recall_prompt_terms", 1) => "10",
        _ => "'deploy the analytics script'",
    }
}

fn statements() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for spec in recall_core::FUNCTIONS {
        for arity in spec.arities() {
            for position in 0..arity {
                for value in VALUES {
                    let args: Vec<&str> = (0..arity)
                        .map(|i| {
                            if i == position {
                                *value
                            } else {
                                valid_arg(spec.name, i)
                            }
                        })
                        .collect();
                    out.push((
                        spec.name.to_string(),
                        format!("select {}({})", spec.name, args.join(", ")),
                    ));
                }
            }
            // The same value in every position.
            for value in VALUES {
                let args = vec![*value; arity];
                out.push((
                    spec.name.to_string(),
                    format!("select {}({})", spec.name, args.join(", ")),
                ));
            }
        }
    }
    out
}

#[test]
fn bundled_sqlite_gives_values_or_named_errors() {
    for host in [Rusqlite::LoadExtension, Rusqlite::Register] {
        let conn = host.connect();
        let (mut ok, mut errors) = (0, 0);
        for (name, sql) in statements() {
            match conn.query_row(&sql, [], |_| Ok(())) {
                Ok(()) => ok += 1,
                Err(e) => {
                    errors += 1;
                    let message = e.to_string();
                    assert!(
                        message.starts_with(&format!("{name}: "))
                            || message.contains("string or blob too big"),
                        "{sql}: error does not name the function: {message}"
                    );
                    assert_short(&sql, &message);
                }
            }
        }
        assert!(ok > 500 && errors > 300, "ok {ok}, errors {errors}");
    }
}

#[test]
fn the_shell_survives_every_combination() {
    let stmts = statements();
    let mut script = format!(".load {}\n", extension_path().display());
    for (_, sql) in &stmts {
        script.push_str(sql);
        script.push_str(";\n");
    }
    script.push_str("select 'survived';\n");
    let out = pipe(
        std::process::Command::new(SHELL).args(["-batch", ":memory:"]),
        &script,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.trim_end().ends_with("survived"),
        "the shell did not reach the end: {}",
        out.status
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let error_lines = stderr.lines().filter(|l| l.contains("error")).count();
    assert!(
        error_lines > 300,
        "expected many clean errors, saw {error_lines}"
    );
    for line in stderr.lines().filter(|l| l.starts_with("Runtime error")) {
        assert!(line.contains(": recall_"), "unnamed error: {line}");
        // "Runtime error near line N: " comes before the message.
        let message = line.split_once(": ").map_or(line, |(_, m)| m);
        assert_short(line, message);
    }
}

#[test]
fn system_python_survives_every_combination() {
    let stmts = statements();
    let sql: Vec<&String> = stmts.iter().map(|(_, s)| s).collect();
    let request = serde_json::json!({
        "extension": extension_path(),
        "statements": sql,
        "keep_going": true,
    });
    let out = pipe(
        std::process::Command::new(SYSTEM_PYTHON).arg(root().join("tests/hosts/run_statements.py")),
        &request.to_string(),
    );
    assert!(
        out.status.success(),
        "python died: {} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let reply: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let errors = reply["errors"].as_array().expect("errors");
    assert_eq!(errors.len(), stmts.len());
    for ((name, sql), e) in stmts.iter().zip(errors) {
        if let Some(message) = e.as_str() {
            assert!(
                message.starts_with(&format!("{name}: ")) || message.contains("too big"),
                "{sql}: {message}"
            );
            assert_short(sql, message);
        }
    }
}
