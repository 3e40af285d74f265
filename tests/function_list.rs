//! The functions each host sees equal the one table both adapters register from
//! (`recall_core::FUNCTIONS`), the function reference in docs/functions.md equals that
//! table row by row, and every function has checks in `tests/sql/`.

use std::collections::BTreeSet;

use crate::common::{all_hosts, doc_table, parse_sql_file, root, sql_files, Line};

const SQLITE_DETERMINISTIC: i64 = 0x800;
const SQLITE_INNOCUOUS: i64 = 0x20_0000;

type Entry = (String, i64, i64);

/// One row of the reference table: name, signature, result type, flags, description.
type Row = [String; 5];

/// The rows of the table under "## Function reference" in docs/functions.md:
/// `| `name` | `signature` | TYPE | deterministic | description |`.
fn documented_rows() -> Vec<Row> {
    doc_table("docs/functions.md", "## Function reference", "| `recall_")
        .into_iter()
        .map(|cells| {
            assert_eq!(cells.len(), 5, "{cells:?}");
            [
                cells[0].trim_matches('`').to_string(),
                cells[1]
                    .strip_prefix('`')
                    .and_then(|c| c.strip_suffix('`'))
                    .unwrap_or(&cells[1])
                    .to_string(),
                cells[2].clone(),
                cells[3].clone(),
                cells[4].clone(),
            ]
        })
        .collect()
}

/// The same rows, from the table.
fn table_rows() -> Vec<Row> {
    recall_core::FUNCTIONS
        .iter()
        .map(|f| {
            [
                f.name.to_string(),
                f.signature.to_string(),
                f.returns.to_string(),
                if f.reads_clock {
                    "not deterministic"
                } else {
                    "deterministic"
                }
                .to_string(),
                f.description.to_string(),
            ]
        })
        .collect()
}

#[test]
fn the_function_reference_is_the_table() {
    assert_eq!(documented_rows(), table_rows());
}

/// A signature's arities: the names outside brackets are required, each `[` adds one
/// optional argument.
fn arities(signature: &str) -> std::ops::RangeInclusive<usize> {
    let optional = signature.matches('[').count();
    let required = signature
        .split('[')
        .next()
        .unwrap_or("")
        .split(',')
        .filter(|a| !a.trim().is_empty())
        .count();
    required..=required + optional
}

#[test]
fn each_signature_gives_the_registered_arities() {
    for f in recall_core::FUNCTIONS {
        assert_eq!(arities(f.signature), f.min_args..=f.max_args, "{}", f.name);
        assert!(
            ["TEXT", "INTEGER", "REAL"].contains(&f.returns),
            "{}",
            f.name
        );
    }
}

const QUERY: &str = "select name, narg, flags from pragma_function_list \
                     where name like 'recall\\_%' escape '\\' order by 1, 2";

#[test]
fn every_host_lists_exactly_the_registered_functions() {
    let expected = registered();
    let arities: usize = recall_core::FUNCTIONS
        .iter()
        .map(|f| f.arities().count())
        .sum();
    assert_eq!(
        expected.len(),
        arities + recall_fts5::AUXILIARY.len(),
        "one entry per function and arity, and one per FTS5 auxiliary function"
    );
    for host in all_hosts() {
        let run = host.run(&[QUERY.to_string()]);
        assert_eq!(run.error, None, "{}", host.name());
        let got: BTreeSet<Entry> = run.outputs[0]
            .iter()
            .map(|row| {
                let cell = |i: usize| row[i].clone().expect("non-null");
                (
                    cell(0),
                    cell(1).parse().expect("narg"),
                    cell(2).parse().expect("flags"),
                )
            })
            .collect();
        let missing: Vec<_> = expected.difference(&got).collect();
        let extra: Vec<_> = got.difference(&expected).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{}: missing {missing:?}, unexpected {extra:?}",
            host.name()
        );
    }
}

/// The same entries from the one table both adapters register from.
fn registered() -> BTreeSet<Entry> {
    let mut entries = BTreeSet::new();
    for spec in recall_core::FUNCTIONS {
        for arity in spec.arities() {
            let mut f = SQLITE_INNOCUOUS;
            if spec.is_deterministic(arity) {
                f |= SQLITE_DETERMINISTIC;
            }
            entries.insert((spec.name.to_string(), arity as i64, f));
        }
    }
    // The FTS5 auxiliary functions: FTS5 declares each name to SQLite for any number of
    // arguments (sqlite3_overload_function), with no flag.
    for (name, _) in recall_fts5::AUXILIARY {
        entries.insert((name.to_string_lossy().into_owned(), -1, 0));
    }
    entries
}

/// A function that can read the clock (`recall_score`: `now` missing or NULL) must not be
/// DETERMINISTIC at any arity, or SQLite would let it into an index or a generated column.
#[test]
fn clock_readers_stay_out_of_indexes_and_generated_columns() {
    let readers: Vec<&str> = recall_core::FUNCTIONS
        .iter()
        .filter(|f| f.reads_clock)
        .map(|f| f.name)
        .collect();
    assert_eq!(readers, ["recall_score"]);
    for host in all_hosts() {
        for spec in recall_core::FUNCTIONS {
            for arity in spec.arities() {
                // Column references for every argument; `recall_score(b, t, NULL)` is the
                // call with `now` NULL that reads the clock.
                let args: Vec<&str> = (0..arity)
                    .map(|i| match i {
                        0 => "b",
                        1 => "t",
                        _ => "NULL",
                    })
                    .collect();
                let call = format!("{}({})", spec.name, args.join(", "));
                for (ddl, refusal) in [
                    (
                        format!("create index x_{arity} on x({call});"),
                        "non-deterministic functions prohibited in index expressions",
                    ),
                    (
                        format!("create table g(b, t, v as ({call}));"),
                        "non-deterministic functions prohibited in generated columns",
                    ),
                ] {
                    let run = host.run(&["create table x(b, t);".to_string(), ddl.clone()]);
                    if spec.is_deterministic(arity) {
                        assert_eq!(run.error, None, "{}: {ddl}", host.name());
                    } else {
                        assert!(
                            run.error.as_deref().is_some_and(|e| e.contains(refusal)),
                            "{}: {ddl} must be refused, got {:?}",
                            host.name(),
                            run.error
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn every_function_has_sql_checks() {
    let mut tested = String::new();
    for file in sql_files() {
        for line in parse_sql_file(&file) {
            if let Line::Check { sql, .. } | Line::Error { sql, .. } = line {
                tested.push_str(&sql);
                tested.push('\n');
            }
        }
    }
    let auxiliary = recall_fts5::AUXILIARY.map(|(name, _)| name.to_string_lossy().into_owned());
    let names = recall_core::FUNCTIONS
        .iter()
        .map(|spec| spec.name.to_string());
    for name in names.chain(auxiliary) {
        assert!(
            tested.contains(&format!("{name}(")),
            "{name} has no check in tests/sql/"
        );
    }
}

/// One version everywhere: the workspace's (root Cargo.toml), which every crate
/// inherits, is what `recall --version`, `recall_version()` in every host and
/// `sqlite_recall_rusqlite::VERSION` give. The Python and Node packages take it at build
/// time; their tests compare it with `recall --version` (docs/install.md).
#[test]
fn one_version_everywhere() {
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    let section = manifest
        .split("[workspace.package]")
        .nth(1)
        .expect("[workspace.package] in Cargo.toml");
    let version = section
        .lines()
        .find_map(|l| l.strip_prefix("version = "))
        .expect("a workspace version")
        .trim_matches('"')
        .to_string();
    assert_eq!(sqlite_recall_rusqlite::VERSION, version);
    let out = std::process::Command::new(crate::common::cli::recall_bin())
        .arg("--version")
        .output()
        .expect("recall --version");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("recall {version}")
    );
    for host in all_hosts() {
        let run = host.run(&["select recall_version()".to_string()]);
        assert_eq!(run.error, None, "{}", host.name());
        assert_eq!(
            run.outputs[0],
            vec![vec![Some(format!("v{version}"))]],
            "{}",
            host.name()
        );
    }
}
