//! Tokenizer specs: normal form, the SQLite version each needs, whether this SQLite can
//! build one, and reading the one an FTS5 table declares in its CREATE statement.
use rusqlite::Connection;

use crate::error::{err, Result};

pub const DEFAULT: &str = "trigram remove_diacritics 1";

/// Tokenizers a library may use, as `recall init --tokenizer` lists them.
pub const KNOWN: &[&str] = &[
    "trigram remove_diacritics 1",
    "trigram",
    "unicode61 remove_diacritics 2",
    "porter unicode61 remove_diacritics 2",
    "unicode61",
    "ascii",
    // sqlite-recall's own (docs/tokenizer.md): read only where the extension is loaded.
    "recall",
];

/// Whether an index built with this tokenizer can be read only where sqlite-recall
/// registered it (the extension loaded, the CLI, sqlite-recall-rusqlite).
pub fn needs_extension(spec: &str) -> bool {
    normalize(spec) == "recall"
}

/// A spec in normal form: words unquoted, lowercase, single spaces.
pub fn normalize(spec: &str) -> String {
    words(spec)
        .iter()
        .map(|w| w.to_lowercase())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The words of a tokenizer spec, with FTS5's quoting ('x', "x", `x`, [x]) removed.
fn words(spec: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = spec.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let close = match c {
            '\'' => Some('\''),
            '"' => Some('"'),
            '`' => Some('`'),
            '[' => Some(']'),
            _ => None,
        };
        let mut word = String::new();
        if let Some(close) = close {
            chars.next();
            while let Some(c) = chars.next() {
                if c == close {
                    // A doubled quote stands for itself.
                    if close != ']' && chars.peek() == Some(&close) {
                        chars.next();
                        word.push(c);
                        continue;
                    }
                    break;
                }
                word.push(c);
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                word.push(c);
                chars.next();
            }
        }
        out.push(word);
    }
    out
}

/// Checks the spec is one of the known tokenizers (in any spelling FTS5 reads the same);
/// returns its normal form. Other options (`separators`, `tokenchars`, `case_sensitive`,
/// a bare `porter`) are refused: the queries' minimum term length and the project filter
/// are defined for these six only.
pub fn parse(spec: &str) -> Result<String> {
    let normal = normalize(spec);
    if !KNOWN.contains(&normal.as_str()) {
        return Err(err!(
            "unknown tokenizer {spec:?}: use one of {}",
            KNOWN
                .iter()
                .map(|k| format!("'{k}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(normal)
}

/// The oldest SQLite whose FTS5 can open an index built with this tokenizer.
pub fn min_sqlite_version(spec: &str) -> (u32, u32, u32) {
    let normal = normalize(spec);
    if needs_extension(&normal) {
        // fts5_api version 2, through which the extension registers the tokenizer.
        return (3, 20, 0);
    }
    let w: Vec<&str> = normal.split(' ').collect();
    let has_option = |name: &str| w.windows(2).any(|p| p[0] == name && p[1] != "0");
    if w.first() == Some(&"trigram") {
        if has_option("remove_diacritics") {
            (3, 45, 0)
        } else {
            (3, 34, 0)
        }
    } else if w
        .windows(2)
        .any(|p| p[0] == "remove_diacritics" && p[1] == "2")
    {
        (3, 27, 0)
    } else {
        (3, 9, 0)
    }
}

pub fn version_string(v: (u32, u32, u32)) -> String {
    format!("{}.{}.{}", v.0, v.1, v.2)
}

pub fn parse_version(text: &str) -> Option<(u32, u32, u32)> {
    let mut parts = text.trim().split('.').map(|p| p.parse::<u32>().ok());
    Some((
        parts.next()??,
        parts.next()??,
        parts.next().flatten().unwrap_or(0),
    ))
}

/// The spec as an FTS5 option value: one SQL string literal.
pub fn sql_literal(spec: &str) -> String {
    format!("'{}'", spec.replace('\'', "''"))
}

/// Refuses a tokenizer this SQLite cannot build, saying which version it needs.
/// FTS5 only builds a tokenizer when the table is used, so this writes a row into a
/// table in a private in-memory database.
pub fn ensure_buildable(spec: &str) -> Result<()> {
    let normal = parse(spec)?;
    let probe = || -> rusqlite::Result<()> {
        let conn = Connection::open_in_memory()?;
        sqlite_recall_rusqlite::register(&conn)?;
        conn.execute_batch(&format!(
            "create virtual table probe using fts5(body, tokenize = {});
             insert into probe(body) values ('probe');",
            sql_literal(&normal)
        ))
    };
    probe().map_err(|e| unbuildable(&normal, rusqlite::version(), &e.to_string()))
}

/// Why a tokenizer could not be built: the SQLite version it needs when `have` is older,
/// else SQLite's own reason.
fn unbuildable(normal: &str, have: &str, reason: &str) -> crate::error::Error {
    let needs = min_sqlite_version(normal);
    if parse_version(have).unwrap_or((0, 0, 0)) < needs {
        err!(
            "tokenizer '{normal}' needs SQLite {} or later; this SQLite is {have}",
            version_string(needs)
        )
    } else {
        err!("SQLite cannot build tokenizer '{normal}': {reason}")
    }
}

/// The `tokenize` option of an FTS5 `CREATE VIRTUAL TABLE` statement, in normal form;
/// `unicode61` when the statement has none (FTS5's default).
pub fn declared(create_sql: &str) -> Option<String> {
    let open = create_sql.find('(')?;
    let close = create_sql.rfind(')')?;
    let body = create_sql.get(open + 1..close)?;
    for arg in split_args(body) {
        let Some((key, value)) = arg.split_once('=') else {
            continue;
        };
        if normalize(key) == "tokenize" {
            let inner = words(value.trim()).join(" ");
            return Some(normalize(&inner));
        }
    }
    Some("unicode61".to_string())
}

/// Splits FTS5 module arguments on commas outside quotes and brackets.
fn split_args(body: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    for c in body.chars() {
        match quote {
            Some(q) => {
                current.push(c);
                if c == q {
                    quote = None;
                }
            }
            None => match c {
                '\'' | '"' | '`' => {
                    quote = Some(c);
                    current.push(c);
                }
                '[' => {
                    quote = Some(']');
                    current.push(c);
                }
                ',' => args.push(std::mem::take(&mut current)),
                _ => current.push(c),
            },
        }
    }
    args.push(current);
    args
}

/// Replaces the `tokenize = …` option of an FTS5 CREATE statement (or adds one).
pub fn with_tokenizer(create_sql: &str, spec: &str) -> Option<String> {
    let open = create_sql.find('(')?;
    let close = create_sql.rfind(')')?;
    let body = create_sql.get(open + 1..close)?;
    let mut args: Vec<String> = split_args(body)
        .into_iter()
        .filter(|a| {
            a.split_once('=')
                .map(|(k, _)| normalize(k) != "tokenize")
                .unwrap_or(true)
        })
        .map(|a| a.trim().to_string())
        .collect();
    args.push(format!("tokenize = {}", sql_literal(spec)));
    Some(format!(
        "{}({}){}",
        &create_sql[..open],
        args.join(", "),
        &create_sql[close + 1..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_forms() {
        assert_eq!(
            normalize("  Trigram   remove_diacritics 1 "),
            "trigram remove_diacritics 1"
        );
        assert_eq!(
            normalize("'porter' \"unicode61\" `remove_diacritics` [2]"),
            "porter unicode61 remove_diacritics 2"
        );
        assert_eq!(parse("trigram").unwrap(), "trigram");
        let e = parse("icu").unwrap_err().message;
        assert!(
            e.starts_with("unknown tokenizer \"icu\": use one of 'trigram remove_diacritics 1'"),
            "{e}"
        );
    }

    #[test]
    fn declared_in_every_quoting_form() {
        let cases = [
            ("create virtual table t using fts5(a, b, tokenize = 'trigram remove_diacritics 1')", "trigram remove_diacritics 1"),
            ("CREATE VIRTUAL TABLE t USING fts5(a, tokenize=\"porter unicode61\")", "porter unicode61"),
            ("create virtual table t using fts5(a, tokenize = trigram)", "trigram"),
            ("create virtual table t using fts5(a, TOKENIZE = `unicode61 remove_diacritics 2`)", "unicode61 remove_diacritics 2"),
            ("create virtual table t using fts5(a, tokenize = [ascii])", "ascii"),
            ("create virtual table t using fts5(a, tokenize = 'unicode61 \"remove_diacritics\" 2')", "unicode61 remove_diacritics 2"),
            ("create virtual table t using fts5(a, tokenize = \"unicode61 separators ',;'\")", "unicode61 separators ,;"),
            ("create virtual table t using fts5(a, content='items', content_rowid='id')", "unicode61"),
            ("create virtual table t using fts5(a, content = 'x,tokenize=y', tokenize = 'trigram')", "trigram"),
        ];
        for (sql, want) in cases {
            assert_eq!(declared(sql).as_deref(), Some(want), "{sql}");
        }
    }

    #[test]
    fn replacing_the_tokenizer() {
        let sql = "CREATE VIRTUAL TABLE items_fts USING fts5 (title, summary, content = 'items', tokenize = 'trigram remove_diacritics 1')";
        let new = with_tokenizer(sql, "unicode61 remove_diacritics 2").unwrap();
        assert_eq!(new, "CREATE VIRTUAL TABLE items_fts USING fts5 (title, summary, content = 'items', tokenize = 'unicode61 remove_diacritics 2')");
        assert_eq!(
            declared(&new).as_deref(),
            Some("unicode61 remove_diacritics 2")
        );
    }

    #[test]
    fn versions() {
        assert_eq!(
            min_sqlite_version("trigram remove_diacritics 1"),
            (3, 45, 0)
        );
        assert_eq!(
            min_sqlite_version("trigram remove_diacritics 0"),
            (3, 34, 0)
        );
        assert_eq!(min_sqlite_version("trigram"), (3, 34, 0));
        assert_eq!(
            min_sqlite_version("unicode61 remove_diacritics 2"),
            (3, 27, 0)
        );
        assert_eq!(min_sqlite_version("porter unicode61"), (3, 9, 0));
        assert_eq!(parse_version("3.40.1"), Some((3, 40, 1)));
        assert_eq!(parse_version("3.45"), Some((3, 45, 0)));
    }

    #[test]
    fn an_older_sqlite_is_told_the_version_it_needs() {
        let e = unbuildable(
            "trigram remove_diacritics 1",
            "3.40.1",
            "error in tokenizer constructor",
        );
        assert_eq!(e.message, "tokenizer 'trigram remove_diacritics 1' needs SQLite 3.45.0 or later; this SQLite is 3.40.1");
        let e = unbuildable(
            "unicode61 remove_diacritics 7",
            "3.54.1",
            "error in tokenizer constructor",
        );
        assert_eq!(e.message, "SQLite cannot build tokenizer 'unicode61 remove_diacritics 7': error in tokenizer constructor");
    }

    #[test]
    fn this_sqlite_builds_every_known_tokenizer() {
        for spec in KNOWN {
            ensure_buildable(spec).unwrap();
        }
    }
}
