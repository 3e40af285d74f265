//! The schema a library should have, and how a library departs from it.
//!
//! The reference is built, not written down: the migrations of `sql/migrations`, run in
//! a private in-memory database with the library's tokenizer, give exactly the
//! `sqlite_master` a library at that version holds. `check`, `repair`, the write
//! commands (`ensure_sound`) and the queries' error messages all compare a library with
//! it through [`compare`], so they cannot disagree about what is damage.
use std::collections::HashMap;
use std::fmt;

use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, OptionalExtension};

use super::migrations::{latest_version, migration_sql, MIGRATIONS};
use crate::error::{err, Context, Result};
use crate::tokenizer;

/// The FTS5 index: recreated, never patched, together with its shadow tables.
pub const INDEX: &str = "items_fts";
/// The index of the runs of the items' text (migration 0009, `runs`).
pub const RUNS_INDEX: &str = "items_runs_fts";

/// One row of `sqlite_master`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Object {
    /// `table`, `index`, `trigger` or `view`.
    pub kind: String,
    pub name: String,
    pub sql: String,
}

/// The schema the migrations build, up to a version, with a tokenizer.
pub struct Reference {
    pub version: u32,
    pub tokenizer: String,
    /// In creation order, which is also an order in which they can be created again.
    pub objects: Vec<Object>,
    /// The names of the FTS5 index and of its shadow tables.
    pub index_family: Vec<String>,
    /// The rows FTS5 writes into the index's config table when it creates the index.
    pub index_config: Vec<(Value, Value)>,
}

impl Reference {
    pub fn is_index_part(&self, name: &str) -> bool {
        self.index_family
            .iter()
            .any(|n| n.eq_ignore_ascii_case(name))
    }

    pub fn object(&self, name: &str) -> Option<&Object> {
        self.objects
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name))
    }
}

/// Builds the reference schema of `version` with `tokenizer` (any spelling).
pub fn reference(version: u32, tokenizer: &str) -> Result<Reference> {
    let tokenizer = tokenizer::normalize(tokenizer);
    let doing = "building the reference schema from the migrations";
    let conn = Connection::open_in_memory().context(doing)?;
    // The recall tokenizer, like every tokenizer a library may name.
    sqlite_recall_rusqlite::register(&conn).context(doing)?;
    for (_, _, sql) in MIGRATIONS.iter().filter(|m| m.0 <= version) {
        conn.execute_batch(&migration_sql(sql, &tokenizer))
            .map_err(|e| err!("{doing} with tokenizer '{tokenizer}': {e}"))?;
    }
    let objects = read_objects(&conn).context(doing)?;
    // The items' index and its shadow tables; not the index of the runs (0009), which
    // is derived from its own table, and repaired with it (`runs`).
    let index_family: Vec<String> = conn
        .prepare(
            "select name from pragma_table_list where schema = 'main' and type in ('virtual', 'shadow')
               and (name = ?1 or name like ?1 || '\\_%' escape '\\')",
        )
        .and_then(|mut s| s.query_map([INDEX], |r| r.get(0))?.collect())
        .context(doing)?;
    let index_config = if index_family.iter().any(|n| n == INDEX) {
        conn.prepare(&format!("select k, v from {INDEX}_config"))
            .and_then(|mut s| s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect())
            .context(doing)?
    } else {
        Vec::new()
    };
    Ok(Reference {
        version,
        tokenizer,
        objects,
        index_family,
        index_config,
    })
}

/// The schema objects a library defines (not SQLite's own: statistics, autoindexes).
pub fn read_objects(conn: &Connection) -> rusqlite::Result<Vec<Object>> {
    let mut stmt = conn.prepare(
        "select type, name, sql from main.sqlite_master
         where sql is not null and name not like 'sqlite\\_%' escape '\\' order by rowid",
    )?;
    let rows = stmt.query_map([], |r| {
        let text = |i: usize| -> rusqlite::Result<String> {
            Ok(match r.get_ref(i)? {
                ValueRef::Text(t) | ValueRef::Blob(t) => String::from_utf8_lossy(t).into_owned(),
                _ => String::new(),
            })
        };
        Ok(Object {
            kind: text(0)?,
            name: text(1)?,
            sql: text(2)?,
        })
    })?;
    rows.collect()
}

/// How a library's schema departs from its reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Damage {
    Missing {
        kind: String,
        name: String,
    },
    /// Present, with another definition than the migrations give.
    Altered {
        kind: String,
        name: String,
    },
    /// The index is built with another tokenizer than the library's.
    Tokenizer {
        declared: String,
        expected: String,
    },
}

impl Damage {
    pub fn name(&self) -> &str {
        match self {
            Damage::Missing { name, .. } | Damage::Altered { name, .. } => name,
            Damage::Tokenizer { .. } => INDEX,
        }
    }

    pub fn kind(&self) -> &str {
        match self {
            Damage::Missing { kind, .. } | Damage::Altered { kind, .. } => kind,
            Damage::Tokenizer { .. } => "table",
        }
    }
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Damage::Missing { kind, name } => write!(f, "missing {kind} {name}"),
            Damage::Altered { kind, name } => write!(f, "altered {kind} {name}"),
            Damage::Tokenizer { declared, expected } => write!(
                f,
                "the index uses tokenizer '{declared}', the library's is '{expected}'"
            ),
        }
    }
}

/// The damages as one phrase. A missing index implies its shadow tables: only the
/// index is named.
pub fn describe(damages: &[Damage], reference: &Reference) -> String {
    let index_missing = damages
        .iter()
        .any(|d| matches!(d, Damage::Missing { name, .. } if name == INDEX));
    damages
        .iter()
        .filter(|d| !(index_missing && d.name() != INDEX && reference.is_index_part(d.name())))
        .map(|d| match d {
            Damage::Missing { name, .. } if name == INDEX => format!("missing index {INDEX}"),
            other => other.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Compares the library's schema with the reference: one read of `sqlite_master`.
/// Objects the reference does not define (a user's own index, say) are not damage, nor
/// are columns added to a table with `ALTER TABLE … ADD COLUMN`.
pub fn compare(conn: &Connection, reference: &Reference) -> Result<Vec<Damage>> {
    let actual = read_objects(conn).context("reading the library's schema")?;
    let by_name: HashMap<String, &Object> =
        actual.iter().map(|o| (o.name.to_lowercase(), o)).collect();
    let mut damages = Vec::new();
    for want in &reference.objects {
        let Some(have) = by_name.get(&want.name.to_lowercase()) else {
            damages.push(Damage::Missing {
                kind: want.kind.clone(),
                name: want.name.clone(),
            });
            continue;
        };
        let altered = || Damage::Altered {
            kind: want.kind.clone(),
            name: want.name.clone(),
        };
        if have.kind != want.kind {
            damages.push(altered());
        } else if want.name == INDEX {
            // The tokenizer apart, the index must be defined as the reference's; a
            // rebuild with another tokenizer rewrites the statement's spacing, which is
            // why both sides go through the same rewriting.
            let same_rest = same_but_tokenizer(&have.sql, &want.sql, &reference.tokenizer);
            let declared = tokenizer::declared(&have.sql);
            if !same_rest {
                damages.push(altered());
            } else if declared.as_deref() != Some(reference.tokenizer.as_str()) {
                damages.push(Damage::Tokenizer {
                    declared: declared.unwrap_or_default(),
                    expected: reference.tokenizer.clone(),
                });
            }
        } else if want.name == RUNS_INDEX {
            // The runs' index has the library's tokenizer, or the items' index's: where
            // the index is built with another than the library's, that is the damage
            // named (and a repair or a rebuild makes both again).
            let index = by_name
                .get(INDEX)
                .and_then(|index| tokenizer::declared(&index.sql));
            let declared = tokenizer::declared(&have.sql);
            let known = declared.as_deref() == Some(reference.tokenizer.as_str())
                || (declared.is_some() && declared == index);
            if !same_but_tokenizer(&have.sql, &want.sql, &reference.tokenizer) || !known {
                damages.push(altered());
            }
        } else if !same_definition(&have.sql, &want.sql, want.kind == "table") {
            damages.push(altered());
        }
    }
    Ok(damages)
}

/// Whether two statements creating an FTS5 index define the same one, their tokenizers
/// aside: both go through the same rewriting (a rebuild with another tokenizer rewrites
/// the statement's spacing).
fn same_but_tokenizer(have: &str, want: &str, tokenizer: &str) -> bool {
    match (
        tokenizer::with_tokenizer(have, tokenizer),
        tokenizer::with_tokenizer(want, tokenizer),
    ) {
        (Some(h), Some(w)) => sql_tokens(&h) == sql_tokens(&w),
        _ => false,
    }
}

/// Whether two CREATE statements define the same object: same tokens once comments,
/// spacing and the case of words are set aside; for a table, also the reference's
/// statement with columns added (what `ALTER TABLE … ADD COLUMN` stores).
pub fn same_definition(have: &str, want: &str, is_table: bool) -> bool {
    let h = sql_tokens(have);
    let w = sql_tokens(want);
    if h == w {
        return true;
    }
    if !is_table {
        return false;
    }
    // ADD COLUMN inserts ", <definition>" before the parenthesis closing the columns.
    let Some(close) = closing_paren(&w) else {
        return false;
    };
    let tail = w.len() - close;
    h.len() > w.len() + 1
        && h[..close] == w[..close]
        && h[close] == ","
        && h[h.len() - tail..] == w[close..]
}

/// The index of the `)` that closes the first `(`.
fn closing_paren(tokens: &[String]) -> Option<usize> {
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate() {
        match t.as_str() {
            "(" => depth += 1,
            ")" => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The tokens of SQL text: comments dropped, words and quoted identifiers lowercased,
/// quoted text as written, every other character a token of its own.
pub fn sql_tokens(sql: &str) -> Vec<String> {
    let chars: Vec<char> = sql.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '-' && chars.get(i + 1) == Some(&'-') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
        } else if matches!(c, '\'' | '"' | '`' | '[') {
            let close = if c == '[' { ']' } else { c };
            let start = i;
            i += 1;
            while i < chars.len() {
                if chars[i] == close {
                    // A doubled quote stands for itself.
                    if close != ']' && chars.get(i + 1) == Some(&close) {
                        i += 2;
                        continue;
                    }
                    break;
                }
                i += 1;
            }
            i = (i + 1).min(chars.len());
            let quoted: String = chars[start..i].iter().collect();
            // "x", `x` and [x] are identifiers, the same as x; 'x' is text (or, where
            // SQLite allows it, a name as FTS5 writes its shadow tables': kept as is).
            if c == '\'' {
                out.push(quoted);
            } else {
                let inner = quoted
                    .get(1..quoted.len().saturating_sub(1))
                    .unwrap_or_default();
                out.push(
                    inner
                        .replace(&format!("{close}{close}"), &close.to_string())
                        .to_lowercase(),
                );
            }
        } else if c.is_alphanumeric() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            out.push(chars[start..i].iter().collect::<String>().to_lowercase());
        } else {
            out.push(c.to_string());
            i += 1;
        }
    }
    out
}

/// `PRAGMA user_version`, and the highest version `recall_migrations` records (None when
/// the log is missing or unreadable).
pub fn versions(conn: &Connection) -> Result<(i64, Option<i64>)> {
    let user_version: i64 = conn
        .query_row("pragma user_version", [], |r| r.get(0))
        .context("reading the schema version")?;
    let applied: Option<i64> = conn
        .query_row("select max(version) from recall_migrations", [], |r| {
            r.get::<_, Option<i64>>(0)
        })
        .ok()
        .flatten();
    Ok((user_version, applied))
}

/// The schema version a library's objects belong to: its `user_version`, unless that
/// was lowered by hand, which the migrations log (written in the same transaction as
/// the version) tells. A library has at least migration 1: it has `recall_meta`.
pub fn schema_version(user_version: i64, applied: Option<i64>) -> u32 {
    let latest = i64::from(latest_version());
    let v = user_version
        .max(applied.unwrap_or(0))
        .clamp(1, latest.max(1));
    u32::try_from(v).unwrap_or(1)
}

/// Why `user_version` cannot be trusted, if it cannot: lowered by hand below the
/// migrations the library records (so `migrate` would run them again and fail), or a log
/// from a newer recall. For `migrate` and `open` to say, instead of their usual advice.
pub fn version_mismatch(conn: &Connection) -> Option<String> {
    let (user_version, applied) = versions(conn).ok()?;
    let latest = i64::from(latest_version());
    match applied {
        Some(a) if a > latest => Some(format!(
            "its migrations log (recall_migrations) records migration {a}, newer than this recall knows ({latest}): upgrade recall"
        )),
        Some(a) if user_version < a => Some(format!(
            "its user_version is {user_version}, but its migrations log (recall_migrations) records migrations up to {a}: user_version was changed by hand; run `recall repair` to restore it"
        )),
        None if user_version < 1 => Some(format!(
            "its user_version is {user_version}, but it holds the tables of schema version 1: user_version was changed by hand; run `recall repair` to restore it"
        )),
        _ => None,
    }
}

/// The reference a write command compares with: the version `user_version` states
/// (within those this recall knows; one lowered by hand is `version_mismatch`'s to
/// report), and the library's tokenizer, which must be one recall knows.
fn reference_for_writing(conn: &Connection, tokenizer: &str) -> Result<Reference> {
    let user_version: i64 = conn
        .query_row("pragma user_version", [], |r| r.get(0))
        .context("reading the schema version")?;
    let latest = i64::from(latest_version()).max(1);
    let version = u32::try_from(user_version.clamp(1, latest)).unwrap_or(1);
    let known = tokenizer::parse(tokenizer).map_err(|_| {
        err!(
            "the library records tokenizer '{}', which recall does not know: run `recall repair`",
            crate::text::field(tokenizer)
        )
    })?;
    reference(version, &known)
}

/// Refuses to write to a library whose schema departs from the migrations (a missing
/// trigger would let the write corrupt the index). For every command that writes,
/// after opening; `tokenizer` is the library's record. It reads `user_version` and
/// `sqlite_master` once, and builds the reference in memory (about a millisecond).
pub fn ensure_sound(conn: &Connection, tokenizer: &str) -> Result<()> {
    let reference = reference_for_writing(conn, tokenizer)?;
    let damages = compare(conn, &reference)?;
    if damages.is_empty() {
        return Ok(());
    }
    Err(err!(
        "the library's schema is damaged ({}): run `recall repair`",
        describe(&damages, &reference)
    ))
}

/// Refuses to rebuild an index whose tables are damaged (FTS5 would fail, or work on a
/// broken index): only `repair` creates them again. A tokenizer that differs
/// from the record is no obstacle: `rebuild --tokenizer` is one way to settle it.
pub fn ensure_index_sound(conn: &Connection, tokenizer: &str) -> Result<()> {
    let reference = reference_for_writing(conn, tokenizer)?;
    let damages: Vec<Damage> = compare(conn, &reference)?
        .into_iter()
        .filter(|d| !matches!(d, Damage::Tokenizer { .. }) && reference.is_index_part(d.name()))
        .collect();
    if damages.is_empty() {
        return Ok(());
    }
    Err(err!(
        "the library's index is damaged ({}): run `recall repair`",
        describe(&damages, &reference)
    ))
}

/// What the library records as its tokenizer, as stored (None: no record, or no
/// `recall_meta` to hold one).
pub fn recorded_tokenizer(conn: &Connection) -> Option<String> {
    conn.query_row(
        "select value from recall_meta where key = 'tokenizer'",
        [],
        |r| {
            Ok(match r.get_ref(0)? {
                ValueRef::Text(t) => Some(String::from_utf8_lossy(t).into_owned()),
                _ => None,
            })
        },
    )
    .optional()
    .ok()
    .flatten()
    .flatten()
}

/// The `CREATE VIRTUAL TABLE` statement of the index, as stored.
pub fn index_sql(conn: &Connection) -> Result<Option<String>> {
    table_sql(conn, INDEX, "reading the index definition")
}

/// The `CREATE` statement of table `name` (an index of FTS5 among them), if any; `doing`
/// names the read in an error.
pub fn table_sql(conn: &Connection, name: &str, doing: &str) -> Result<Option<String>> {
    conn.query_row(
        "select sql from sqlite_master where type = 'table' and name = ?1",
        [name],
        |r| r.get(0),
    )
    .optional()
    .context(doing)
}

/// Where the tokenizer a library's schema should have comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenizerSource {
    Recorded,
    Configured,
    Declared,
    Default,
}

/// Everything `check` and `repair` need to know about a library's schema.
pub struct Survey {
    pub user_version: i64,
    pub applied: Option<i64>,
    /// The version whose schema the library should have.
    pub version: u32,
    /// The tokenizer record as stored, if any.
    pub recorded: Option<String>,
    /// The tokenizer the index declares, in normal form (None: no index).
    pub declared: Option<String>,
    /// The tokenizer the schema should have, and where it comes from: a valid record,
    /// else the configured one, else the index's, else the default.
    pub tokenizer: String,
    pub source: TokenizerSource,
    pub reference: Reference,
    pub damages: Vec<Damage>,
}

impl Survey {
    /// The record, when it names a tokenizer recall knows (in normal form).
    pub fn valid_record(&self) -> Option<String> {
        self.recorded
            .as_deref()
            .and_then(|r| tokenizer::parse(r).ok())
    }

    /// Damage to the index or to its shadow tables (not a tokenizer difference).
    pub fn index_damages(&self) -> Vec<&Damage> {
        self.damages
            .iter()
            .filter(|d| {
                !matches!(d, Damage::Tokenizer { .. }) && self.reference.is_index_part(d.name())
            })
            .collect()
    }
}

pub fn survey(conn: &Connection, configured: Option<&str>) -> Result<Survey> {
    let (user_version, applied) = versions(conn)?;
    let version = schema_version(user_version, applied);
    let recorded = recorded_tokenizer(conn);
    let declared = index_sql(conn)?.as_deref().and_then(tokenizer::declared);
    let valid = |t: &Option<String>| t.as_deref().and_then(|t| tokenizer::parse(t).ok());
    let (tokenizer, source) = if let Some(r) = valid(&recorded) {
        (r, TokenizerSource::Recorded)
    } else if let Some(c) = configured.map(tokenizer::parse).transpose()? {
        (c, TokenizerSource::Configured)
    } else if let Some(d) = valid(&declared) {
        (d, TokenizerSource::Declared)
    } else {
        (tokenizer::DEFAULT.to_string(), TokenizerSource::Default)
    };
    let reference = reference(version, &tokenizer)?;
    let damages = compare(conn, &reference)?;
    Ok(Survey {
        user_version,
        applied,
        version,
        recorded,
        declared,
        tokenizer,
        source,
        reference,
        damages,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_ignore_comments_spacing_and_case() {
        assert_eq!(
            sql_tokens("CREATE TABLE x (\n  a text, -- note\n  b /* c */ INT)"),
            sql_tokens("create table x(a TEXT,b int)")
        );
        assert_ne!(
            sql_tokens("create table x (a text)"),
            sql_tokens("create table x (a text not null)")
        );
        // Quoted text is kept as written; a quoted identifier is the identifier.
        assert_ne!(sql_tokens("select 'A'"), sql_tokens("select 'a'"));
        assert_eq!(
            sql_tokens("create table \"Items\" ([a] text, `b`)"),
            sql_tokens("create table items (a text, b)")
        );
        assert_eq!(sql_tokens("select 'it''s'"), vec!["select", "'it''s'"]);
    }

    #[test]
    fn added_columns_are_the_same_table() {
        let want = "CREATE TABLE t (a text, b text) strict";
        let added = "CREATE TABLE t (a text, b text, c integer) strict";
        assert!(same_definition(added, want, true));
        assert!(!same_definition(added, want, false));
        assert!(!same_definition(
            "CREATE TABLE t (a text) strict",
            want,
            true
        ));
        assert!(!same_definition(
            "CREATE TABLE t (a text, b text, c integer)",
            want,
            true
        ));
        assert!(!same_definition(
            "CREATE TABLE t (a text, b int, c integer) strict",
            want,
            true
        ));
    }

    #[test]
    fn the_reference_is_what_init_builds() {
        let r = reference(latest_version(), "Unicode61  remove_diacritics 2").unwrap();
        assert_eq!(r.tokenizer, "unicode61 remove_diacritics 2");
        let names: Vec<&str> = r.objects.iter().map(|o| o.name.as_str()).collect();
        for t in [
            "items_fts_before_insert",
            "items_fts_after_insert",
            "items_fts_after_delete",
            "items_fts_after_update",
        ] {
            assert!(names.contains(&t), "{names:?}");
        }
        let mut family = r.index_family.clone();
        family.sort();
        assert_eq!(
            family,
            [
                "items_fts",
                "items_fts_config",
                "items_fts_data",
                "items_fts_docsize",
                "items_fts_idx"
            ]
        );
        let index = r.object(INDEX).unwrap();
        assert_eq!(
            tokenizer::declared(&index.sql).as_deref(),
            Some("unicode61 remove_diacritics 2")
        );
        assert!(!r.index_config.is_empty());
        // Version 1 has no migrations log.
        let v1 = reference(1, tokenizer::DEFAULT).unwrap();
        assert!(v1.object("recall_migrations").is_none());
        assert!(r.object("recall_migrations").is_some());
    }

    #[test]
    fn versions_lowered_by_hand_are_seen() {
        assert_eq!(schema_version(0, Some(2)), 2);
        assert_eq!(schema_version(0, None), 1);
        assert_eq!(schema_version(1, None), 1);
        assert_eq!(schema_version(-5, Some(1)), 1);
    }
}
