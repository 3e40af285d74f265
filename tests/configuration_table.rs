//! docs/configuration.md's table of keys, defaults, ranges and flags equals the table of
//! settings the CLI declares (`recall_cli::config::table`), row by row.

use recall_cli::bounds::short;
use recall_cli::config::setting::{Range, Setting};
use recall_cli::config::table::SETTINGS;
use recall_cli::config::{Config, RelatedRule};
use serde_json::Value as Json;

use crate::common::doc_table;

/// The rows of the table under "## Keys, defaults and ranges": key, default, range, flag.
fn documented_rows() -> Vec<[String; 4]> {
    doc_table(
        "docs/configuration.md",
        "## Keys, defaults and ranges",
        "| `",
    )
    .into_iter()
    .map(|cells| {
        assert_eq!(cells.len(), 4, "{cells:?}");
        [
            cells[0].trim_matches('`').to_string(),
            cells[1].clone(),
            cells[2].clone(),
            cells[3].clone(),
        ]
    })
    .collect()
}

/// A number as the page writes it: digits, and a thousands separator from 10,000.
fn number(n: f64) -> String {
    let plain = short(n);
    if n.abs() < 10_000.0 || plain.contains(['.', 'e']) {
        return plain;
    }
    let digits: Vec<char> = plain.chars().collect();
    let mut out = String::new();
    for (i, c) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(*c);
    }
    out
}

/// The declared default as the page writes it.
fn default_cell(s: &Setting) -> String {
    if let Some(absent) = s.absent {
        return format!("absent: {absent}");
    }
    match Config::default().value(s.key).expect("declared") {
        Json::Number(n) => n
            .as_i64()
            .map(|i| i.to_string())
            .unwrap_or_else(|| short(n.as_f64().unwrap_or_default())),
        Json::Bool(b) => format!("`{b}`"),
        Json::String(text) => format!("`{text}`"),
        Json::Array(list) => list
            .iter()
            .map(|v| format!("`{}`", v.as_str().unwrap_or_default()))
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

/// How the range cell starts.
fn range_cell(s: &Setting) -> String {
    match &s.range {
        Range::Number(b) if b.above_min => {
            format!("above {} and at most {}", number(b.min), number(b.max))
        }
        Range::Number(b) => format!("{} to {}", number(b.min), number(b.max)),
        Range::Bool => "`true` or `false`".to_string(),
        Range::Rule => RelatedRule::NAMES
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(" or "),
        Range::Fusion => recall_cli::config::Fusion::NAMES
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(" or "),
        Range::Tokenizer => "one of the".to_string(),
        Range::Command(_) => "a command line".to_string(),
        Range::Globs => "a list of globs".to_string(),
        Range::Source => "a source".to_string(),
        Range::Kinds => "a list of kinds".to_string(),
        Range::Events => "a list of the events".to_string(),
    }
}

/// A cell without its parenthesized remarks ("0 (off) to 1" reads "0 to 1").
fn without_remarks(cell: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in cell.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `cell` starts with `start`, and a number in it does not go on.
fn starts_with(cell: &str, start: &str) -> bool {
    cell.strip_prefix(start)
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_digit() || c == '.'))
}

#[test]
fn the_configuration_table_is_the_declarations() {
    let rows = documented_rows();
    let keys: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    let declared: Vec<&str> = SETTINGS.iter().map(|s| s.key).collect();
    assert_eq!(
        keys, declared,
        "the page's keys, in the declarations' order"
    );
    for ([key, default, range, flag], s) in rows.iter().zip(SETTINGS) {
        let want = default_cell(s);
        assert!(
            starts_with(default, &want),
            "{key}: the default is {want}, the page says {default}"
        );
        let want = range_cell(s);
        let range = without_remarks(range);
        assert!(
            starts_with(&range, &want),
            "{key}: the range is {want}, the page says {range}"
        );
        match &s.flag {
            Some(_) => {
                let want = format!("`{}", s.flag_name());
                assert!(
                    flag.starts_with(&want),
                    "{key}: the flag is {want}`, the page says {flag}"
                );
            }
            None => assert!(flag.is_empty(), "{key} has no flag, the page says {flag}"),
        }
    }
}
