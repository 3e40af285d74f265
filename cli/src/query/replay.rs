//! An answer as the `sqlite3` shell gives it again: the library opened read-only, the
//! extension loaded, each parameter the CLI bound set to the value it bound (the clock
//! read, the pruned match, the nearest items), then the query file of `sql/` read. Piped
//! into `sqlite3` from the repository's root, it prints the rows the CLI answered from
//! (`--show-sql`, and `sql` in `--explain`). A judge's reordering comes after the query
//! and is not in it.
use std::fmt::Write;
use std::path::{Path, PathBuf};

use rusqlite::types::Value;

use crate::library::sql_file::{Params, Query};
use crate::library::Library;

/// A query file and the parameters it ran with.
#[derive(Debug, Clone)]
pub struct Ran {
    pub query: Query,
    pub params: Params,
}

/// The name of the loadable extension, beside the `recall` binary in a build and in the
/// Python package.
const EXTENSION: &str = "librecall0";

/// The shell's lines for `ran` on the library.
pub fn shell(lib: &Library, ran: &Ran) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "-- recall's {} query, replayed: pipe into sqlite3 from the repository's root",
        ran.query.name
    );
    let _ = writeln!(
        out,
        ".open --readonly {}",
        argument(&lib.path.to_string_lossy())
    );
    match extension() {
        Some(path) => {
            let _ = writeln!(out, ".load {}", argument(&path.to_string_lossy()));
        }
        None => {
            let _ = writeln!(
                out,
                "-- the extension's path (docs/functions.md#load-the-extension):"
            );
            let _ = writeln!(out, ".load {EXTENSION}");
        }
    }
    for name in used(lib, ran.query) {
        let Some((_, value)) = ran.params.iter().find(|(n, _)| *n == name) else {
            continue;
        };
        if let Some(literal) = literal(value) {
            let _ = writeln!(out, ".parameter set {name} {}", argument(&literal));
        }
    }
    let _ = writeln!(out, ".read sql/{}.sql", ran.query.name);
    out
}

/// The parameter names the query file uses, in its order.
fn used(lib: &Library, query: Query) -> Vec<String> {
    let Ok(stmt) = lib.conn.prepare(query.sql) else {
        return Vec::new();
    };
    (1..=stmt.parameter_count())
        .filter_map(|i| stmt.parameter_name(i).map(str::to_string))
        .collect()
}

/// A bound value as the SQL literal `.parameter set` takes; None for NULL, which an
/// unset parameter is already.
fn literal(value: &Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::Integer(n) => Some(n.to_string()),
        // `{:?}` keeps a decimal point: 1.0, not 1.
        Value::Real(x) => Some(format!("{x:?}")),
        Value::Text(t) => Some(format!("'{}'", t.replace('\'', "''"))),
        Value::Blob(b) => Some(format!(
            "x'{}'",
            b.iter()
                .map(|byte| format!("{byte:02x}"))
                .collect::<String>()
        )),
    }
}

/// One argument of a dot-command: bare when it is a plain word, else in double quotes,
/// whose backslash escapes the shell reads back (`\"`, `\\`, `\n`, `\t`, `\r`).
fn argument(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:+,=@%".contains(c));
    if plain {
        return text.to_string();
    }
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The loadable extension beside the running binary, if there is one.
fn extension() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    [".so", ".dylib", ".dll"]
        .iter()
        .map(|suffix| dir.join(format!("{EXTENSION}{suffix}")))
        .chain(std::iter::once(
            dir.join("deps").join(format!("{EXTENSION}.so")),
        ))
        .find(|p| Path::new(p).is_file())
        .map(|p| p.with_extension(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_become_the_literals_the_shell_reads_back() {
        assert_eq!(literal(&Value::Null), None);
        assert_eq!(literal(&Value::Integer(-3)).as_deref(), Some("-3"));
        assert_eq!(literal(&Value::Real(1.0)).as_deref(), Some("1.0"));
        assert_eq!(literal(&Value::Real(0.1)).as_deref(), Some("0.1"));
        assert_eq!(
            literal(&Value::Text("it's".into())).as_deref(),
            Some("'it''s'")
        );
        assert_eq!(argument("sql/search.sql"), "sql/search.sql");
        assert_eq!(
            argument("'a \"b\" \\ c\nd'"),
            "\"'a \\\"b\\\" \\\\ c\\nd'\""
        );
        assert_eq!(argument(""), "\"\"");
    }
}
