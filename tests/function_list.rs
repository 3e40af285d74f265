//! The functions each host sees equal the README's function reference, in every host,
//! and every function has checks in `tests/sql/`.
mod common;

use std::collections::BTreeSet;

use common::{all_hosts, parse_sql_file, root, sql_files, Line};

const SQLITE_DETERMINISTIC: i64 = 0x800;
const SQLITE_INNOCUOUS: i64 = 0x20_0000;

type Entry = (String, i64, i64);

/// Rows of the README table under "## Function reference": `| `name` | signature | … | flags |`.
/// Arities come from the signature: the names outside brackets are required, each `[`
/// adds one optional argument. Flags: "deterministic" or "not deterministic", for every
/// arity (SQLite's flag cannot depend on values, and a NULL selects a default as a
/// missing argument does).
fn documented() -> BTreeSet<Entry> {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let section = readme
        .split("## Function reference")
        .nth(1)
        .expect("README has a '## Function reference' section");
    let mut entries = BTreeSet::new();
    for row in section.lines().take_while(|l| !l.starts_with("## ")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        if cells.len() < 6 || !cells[1].starts_with("`recall_") {
            continue;
        }
        let name = cells[1].trim_matches('`').to_string();
        let signature = cells[2].trim_matches('`');
        let optional = signature.matches('[').count() as i64;
        let required = signature
            .split('[')
            .next()
            .unwrap_or("")
            .split(',')
            .filter(|a| !a.trim().is_empty())
            .count() as i64;
        let deterministic = match cells[4] {
            "deterministic" => true,
            "not deterministic" => false,
            other => panic!("{name}: flags cell {other:?}, not (not) deterministic"),
        };
        for arity in required..=required + optional {
            let mut f = SQLITE_INNOCUOUS;
            if deterministic {
                f |= SQLITE_DETERMINISTIC;
            }
            entries.insert((name.clone(), arity, f));
        }
    }
    entries
}

const QUERY: &str = "select name, narg, flags from pragma_function_list \
                     where name like 'recall\\_%' escape '\\' order by 1, 2";

#[test]
fn every_host_lists_exactly_the_documented_functions() {
    let expected = documented();
    assert!(
        expected.len() >= 26,
        "the README documents every arity: {expected:?}"
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
            "{}: missing {missing:?}, undocumented {extra:?}",
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
    entries
}

#[test]
fn the_readme_documents_the_table() {
    assert_eq!(documented(), registered());
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
    for spec in recall_core::FUNCTIONS {
        assert!(
            tested.contains(&format!("{}(", spec.name)),
            "{} has no check in tests/sql/",
            spec.name
        );
    }
}
