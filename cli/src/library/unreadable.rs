//! What the queries cannot read: the items holding a value the schema does not promise
//! (which `check` lists), and, when a query fails, the damage that explains it.
use std::fmt;

use rusqlite::types::ValueRef;
use rusqlite::Connection;

use super::columns::{Column, ITEM_COLUMNS};
use super::schema::{describe, survey, version_mismatch};
use crate::error::worth_diagnosing;

/// A value of an item that the queries or `get` cannot read as the schema promises.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadRow {
    pub id: i64,
    pub column: &'static str,
    /// What is wrong, after "item ID has ".
    pub problem: String,
}

impl fmt::Display for BadRow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "item {} has {}", self.id, self.problem)
    }
}

/// What the problem is with one value, if any.
fn value_problem(column: &str, nullable: bool, time: bool, v: ValueRef<'_>) -> Option<String> {
    const FORM: &str = "a time in the form 2025-03-04T05:06:07Z";
    match v {
        ValueRef::Null if nullable => None,
        ValueRef::Null => Some(format!("no {column} (NULL)")),
        ValueRef::Integer(n) if time => Some(format!("{column} {n}, a number, not {FORM}")),
        ValueRef::Real(n) if time => Some(format!(
            "{column} {}, a number, not {FORM}",
            recall_core::value::shown_real(n)
        )),
        ValueRef::Integer(n) => Some(format!("{column} {n}, a number where text belongs")),
        ValueRef::Real(n) => Some(format!(
            "{column} {}, a number where text belongs",
            recall_core::value::shown_real(n)
        )),
        ValueRef::Blob(b) => Some(format!(
            "{column} stored as a BLOB of {} bytes, not text",
            b.len()
        )),
        ValueRef::Text(bytes) => match std::str::from_utf8(bytes) {
            Err(e) => Some(format!(
                "a {column} that is not valid UTF-8 (at byte {})",
                e.valid_up_to()
            )),
            Ok(text) if time => {
                let normal = recall_core::time::parse_datetime(text)
                    .map(|dt| recall_core::time::normalize(&dt));
                (normal.as_deref() != Some(text))
                    .then(|| format!("{column} '{}', not {FORM}", shown(text)))
            }
            Ok(_) => None,
        },
    }
}

/// What the problem is with the value of a mark (0 or 1), if any.
fn flag_problem(column: &str, v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Integer(0 | 1) => None,
        ValueRef::Integer(n) => Some(format!("{column} {n}, not 0 or 1")),
        _ => Some(format!("{column} that is not 0 or 1")),
    }
}

/// A value as a message quotes it: short, and with control characters escaped.
fn shown(text: &str) -> String {
    const MAX: usize = 40;
    let cut: String = text.chars().take(MAX).collect();
    let ellipsis = if text.chars().count() > MAX {
        "…"
    } else {
        ""
    };
    format!("{}{ellipsis}", crate::text::field(&cut))
}

/// Rows the queries cannot read: how many items have one, and the first problem of each
/// of the first `first` such items, in id order.
pub struct RowScan {
    pub items: u64,
    pub bad: u64,
    pub first: Vec<BadRow>,
}

/// Reads every value of every item (one pass; it reads transcripts too, so its cost is
/// the size of the library).
pub fn scan(conn: &Connection, first: usize) -> rusqlite::Result<RowScan> {
    scan_columns(conn, first, &[])
}

/// The same, looking only at `only` (every column when empty).
fn scan_columns(conn: &Connection, first: usize, only: &[&str]) -> rusqlite::Result<RowScan> {
    let all: Vec<&str> = ITEM_COLUMNS.iter().map(|c| c.name).collect();
    let columns = super::columns::present(conn, "items", &all)?;
    let read: Vec<&Column> = ITEM_COLUMNS
        .iter()
        .filter(|c| columns.contains(&c.name))
        .collect();
    let mut stmt = conn.prepare(&format!(
        "select id, {} from main.items order by id",
        columns.join(", ")
    ))?;
    let mut rows = stmt.query([])?;
    let mut scan = RowScan {
        items: 0,
        bad: 0,
        first: Vec::new(),
    };
    while let Some(row) = rows.next()? {
        scan.items += 1;
        let id = match row.get_ref(0)? {
            ValueRef::Integer(n) => n,
            _ => continue,
        };
        for (i, column) in read.iter().enumerate() {
            if !only.is_empty() && !only.contains(&column.name) {
                continue;
            }
            let value = row.get_ref(i + 1)?;
            let problem = match column.flag {
                true => flag_problem(column.name, value),
                false => value_problem(column.name, column.nullable, column.time, value),
            };
            if let Some(problem) = problem {
                scan.bad += 1;
                if scan.first.len() < first {
                    scan.first.push(BadRow {
                        id,
                        column: column.name,
                        problem,
                    });
                }
                break;
            }
        }
    }
    Ok(scan)
}

/// What to do about rows the queries cannot read.
pub const ROW_FIX: &str =
    "re-import them with `recall import` (an `id` field replaces an item) or delete them";

/// Why a query failed with `error`, when the library is to blame: a damaged schema the
/// error points at, or the first item holding a bad value in a column the error names.
/// None when neither (the error then speaks for itself), and at once for the codes that
/// have their own advice (locks, permissions, a corrupt file: `error::worth_diagnosing`).
pub fn diagnose(conn: &Connection, error: &rusqlite::Error) -> Option<String> {
    if !worth_diagnosing(error) {
        return None;
    }
    let lower = error.to_string().to_lowercase();
    let about_schema = ["no such table", "no such column", "fts5", "vtable"]
        .iter()
        .any(|m| lower.contains(m));
    if about_schema {
        if let Some(why) = version_mismatch(conn) {
            return Some(format!("the library's schema version is wrong: {why}"));
        }
        if let Ok(s) = survey(conn, None) {
            if !s.damages.is_empty() {
                return Some(format!(
                    "the library's schema is damaged ({}): run `recall repair`",
                    describe(&s.damages, &s.reference)
                ));
            }
        }
    }
    // A function refusing a value names the argument, which is named after the column.
    let named: Vec<&str> = ITEM_COLUMNS
        .iter()
        .map(|c| c.name)
        .filter(|c| lower.contains(c))
        .collect();
    if named.is_empty() {
        return None;
    }
    let scan = scan_columns(conn, 1, &named).ok()?;
    let bad = scan.first.first()?;
    Some(format!(
        "{bad}: re-import it with `recall import` (an `id` field replaces an item) or delete it (`recall check` lists every such row)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_the_queries_cannot_read() {
        let p = |c: &str, n: bool, t: bool, v: ValueRef<'_>| value_problem(c, n, t, v);
        assert_eq!(
            p("occurred_at", false, true, ValueRef::Text(b"1741064767")).as_deref(),
            Some("occurred_at '1741064767', not a time in the form 2025-03-04T05:06:07Z")
        );
        assert_eq!(
            p(
                "occurred_at",
                false,
                true,
                ValueRef::Text(b"2025-03-04T05:06:07Z")
            ),
            None
        );
        assert!(p(
            "occurred_at",
            false,
            true,
            ValueRef::Text(b"2025-02-30T00:00:00Z")
        )
        .is_some());
        assert!(p(
            "occurred_at",
            false,
            true,
            ValueRef::Text(b"2025-03-04 05:06:07")
        )
        .is_some());
        assert!(p("occurred_at", false, true, ValueRef::Integer(1_741_064_767)).is_some());
        assert_eq!(
            p("title", false, false, ValueRef::Text(b"ab\xffc")).as_deref(),
            Some("a title that is not valid UTF-8 (at byte 2)")
        );
        assert_eq!(
            p("summary", false, false, ValueRef::Null).as_deref(),
            Some("no summary (NULL)")
        );
        assert_eq!(p("project", true, false, ValueRef::Null), None);
        assert!(p("title", false, false, ValueRef::Blob(b"x")).is_some());
        assert_eq!(
            p("occurred_at", false, true, ValueRef::Text(b"\x1b[2J")).as_deref(),
            Some("occurred_at '\\u{1b}[2J', not a time in the form 2025-03-04T05:06:07Z")
        );
    }
}
