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
/// adds one optional argument. Flags: "deterministic" for every arity, or
/// "deterministic from N arguments".
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
        let flags = cells[4];
        let deterministic_from = flags
            .strip_prefix("deterministic from ")
            .and_then(|rest| rest.split_whitespace().next())
            .map(|n| n.parse::<i64>().expect("a number of arguments"))
            .unwrap_or(0);
        assert!(
            flags.starts_with("deterministic"),
            "{name}: flags cell {flags:?}"
        );
        for arity in required..=required + optional {
            let mut f = SQLITE_INNOCUOUS;
            if arity >= deterministic_from {
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
