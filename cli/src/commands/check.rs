//! `recall check`: is the library healthy, and could other tools open it? Exit 0 when
//! healthy, 1 with one line per problem otherwise.
use std::process::Command;

use rusqlite::Connection;
use serde::Serialize;

use super::Globals;
use crate::error::{Result, EXIT_PROBLEMS};
use crate::library::{self, Access};
use crate::{output, tokenizer};

#[derive(Serialize)]
struct Check {
    name: &'static str,
    ok: bool,
    detail: String,
}

struct Report(Vec<Check>);

impl Report {
    fn add(&mut self, name: &'static str, ok: bool, detail: impl Into<String>) {
        self.0.push(Check {
            name,
            ok,
            detail: detail.into(),
        });
    }
}

fn one<T: rusqlite::types::FromSql>(conn: &Connection, sql: &str) -> rusqlite::Result<T> {
    conn.query_row(sql, [], |r| r.get(0))
}

pub fn run(g: &Globals) -> Result<i32> {
    let path = g.db()?;
    let writable = std::fs::metadata(path)
        .map(|m| !m.permissions().readonly())
        .unwrap_or(false);
    let access = if writable {
        Access::Write
    } else {
        Access::Read
    };
    let lib = match library::open_unchecked(path, access) {
        Ok(lib) => lib,
        // A library too damaged to open is a finding of check, not a failure of it.
        Err(e) if e.message.contains("is corrupt") => {
            let detail = format!("cannot be read: {}", e.message);
            if g.json {
                output::json(&serde_json::json!({
                    "path": path, "healthy": false,
                    "checks": [Check { name: "database", ok: false, detail }],
                }));
            } else {
                crate::say!("PROBLEM database: {detail}");
            }
            return Ok(EXIT_PROBLEMS);
        }
        Err(e) => return Err(e),
    };
    let conn = &lib.conn;
    let mut r = Report(Vec::new());

    let fts5: bool = one(conn, "select sqlite_compileoption_used('ENABLE_FTS5')").unwrap_or(false);
    r.add(
        "sqlite",
        fts5,
        format!(
            "SQLite {} with{} FTS5",
            rusqlite::version(),
            if fts5 { "" } else { "out" }
        ),
    );

    let latest = library::latest_version();
    r.add(
        "schema",
        lib.schema_version == latest,
        if lib.schema_version == latest {
            format!("schema version {latest}")
        } else {
            format!(
                "schema version {} of {latest}: run `recall migrate`",
                lib.schema_version
            )
        },
    );

    let index_sql = library::index_sql(conn).ok().flatten();
    let declared = index_sql.as_deref().and_then(tokenizer::declared);
    let recorded = tokenizer::normalize(&lib.tokenizer);
    match &declared {
        None => r.add("index", false, "the index table items_fts is missing: run `recall rebuild`"),
        Some(d) if *d != recorded => r.add(
            "tokenizer",
            false,
            format!("the index declares '{d}' but the library records '{recorded}': run `recall rebuild --tokenizer '{recorded}'`"),
        ),
        Some(d) => r.add("tokenizer", true, format!("'{d}' (declared and recorded)")),
    }
    if let Some(configured) = &g.tokenizer {
        let c = tokenizer::normalize(configured);
        r.add(
            "configured tokenizer",
            c == recorded,
            if c == recorded {
                format!("'{c}' as configured")
            } else {
                format!("configured '{c}' but the library records '{recorded}': run `recall rebuild --tokenizer '{c}'` or configure '{recorded}'")
            },
        );
    }

    let needs = tokenizer::min_sqlite_version(declared.as_deref().unwrap_or(&recorded));
    let needs_s = tokenizer::version_string(needs);
    let shell = Command::new("sqlite3")
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .split_whitespace()
                .next()
                .map(str::to_string)
        });
    // Informational: another SQLite's age is not a problem of the library.
    let compat = match shell.as_deref().and_then(tokenizer::parse_version) {
        Some(v) if v >= needs => format!(
            "the index needs SQLite {needs_s}+; this machine's sqlite3 shell ({}) can open it",
            tokenizer::version_string(v)
        ),
        Some(v) => format!(
            "the index needs SQLite {needs_s}+; this machine's sqlite3 shell ({}) cannot search it",
            tokenizer::version_string(v)
        ),
        None => format!("the index needs SQLite {needs_s}+; no sqlite3 shell on this machine"),
    };
    r.add("compatibility", true, compat);

    // quick_check lists one finding per row; a report line holds the first few.
    let quick: String = conn
        .prepare("pragma quick_check(5)")
        .and_then(|mut s| {
            s.query_map([], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<_>>>()
        })
        .map(|rows| {
            rows.iter()
                .map(|r| r.replace('\n', " "))
                .collect::<Vec<_>>()
                .join("; ")
        })
        .unwrap_or_else(|e| e.to_string());
    r.add(
        "database",
        quick == "ok",
        if quick == "ok" {
            "quick_check ok".to_string()
        } else {
            format!("quick_check: {quick}")
        },
    );

    if declared.is_some() {
        // The FTS5 command is an INSERT: it needs a writable connection, and changes nothing.
        if access == Access::Write {
            match conn.execute_batch(
                "savepoint integrity; insert into items_fts(items_fts, rank) values ('integrity-check', 1); rollback to integrity; release integrity;",
            ) {
                Ok(()) => r.add("index integrity", true, "FTS5 integrity-check ok"),
                Err(e) => r.add("index integrity", false, format!("FTS5 integrity-check: {e}: run `recall rebuild`")),
            }
        } else {
            r.add(
                "index integrity",
                true,
                "FTS5 integrity-check skipped: the file is read-only",
            );
        }
        let items: rusqlite::Result<i64> = one(conn, "select count(*) from items");
        let indexed: rusqlite::Result<i64> = one(conn, "select count(*) from items_fts_docsize");
        match (items, indexed) {
            (Ok(i), Ok(x)) => r.add(
                "counts",
                i == x,
                if i == x {
                    format!("{i} items, {x} indexed")
                } else {
                    format!("{i} items but {x} indexed: run `recall rebuild`")
                },
            ),
            (Err(e), _) | (_, Err(e)) => r.add("counts", false, format!("cannot count: {e}")),
        }
    }

    let present: Vec<String> = conn
        .prepare("select name from sqlite_master where type = 'trigger' and tbl_name = 'items'")
        .and_then(|mut s| s.query_map([], |row| row.get(0))?.collect())
        .unwrap_or_default();
    let missing: Vec<&str> = library::TRIGGERS
        .iter()
        .copied()
        .filter(|t| !present.iter().any(|p| p == t))
        .collect();
    r.add(
        "triggers",
        missing.is_empty(),
        if missing.is_empty() {
            format!("{} triggers present", library::TRIGGERS.len())
        } else {
            format!("missing triggers {}: the index no longer follows the items; restore them from sql/migrations and run `recall rebuild`", missing.join(", "))
        },
    );

    let healthy = r.0.iter().all(|c| c.ok);
    if g.json {
        output::json(&serde_json::json!({ "path": lib.path, "healthy": healthy, "checks": r.0 }));
    } else {
        for c in &r.0 {
            crate::say!(
                "{} {}: {}",
                if c.ok { "ok     " } else { "PROBLEM" },
                c.name,
                c.detail
            );
        }
    }
    Ok(if healthy { 0 } else { EXIT_PROBLEMS })
}
