//! The library's health, as `recall check` reports it: is the library sound, and could
//! other tools open it? Each check has a name, an outcome and a detail, which names the
//! fix of a problem.
//!
//! The checks only read, through a read-only connection: a library that is read-only,
//! owned by another user or held by a writer is checked like any other. A lock or a
//! permission that stops a check is an error, never a finding: neither says anything
//! about the library's health.
mod contents;
mod database;
mod schema_checks;

use std::path::{Path, PathBuf};

use rusqlite::Connection;
use serde::Serialize;

use super::atom_keys;
use super::index_check::verify_index;
use super::schema;
use super::{open_unchecked, Mode};
use crate::error::{blocks_check, describe_sqlite, err, Result};
use crate::tokenizer;

/// One check: its name, whether it passed, and what it found.
#[derive(Serialize)]
pub struct Check {
    pub name: &'static str,
    pub ok: bool,
    pub detail: String,
}

/// Every check of a library, in the order they ran.
pub struct Health {
    /// The library's path as it was opened.
    pub path: PathBuf,
    pub checks: Vec<Check>,
}

impl Health {
    pub fn healthy(&self) -> bool {
        self.checks.iter().all(|c| c.ok)
    }
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

/// Splits a read's outcome: `Err` when it was blocked (the check fails), else the
/// value or the error as a finding.
fn read<T>(path: &Path, r: rusqlite::Result<T>) -> Result<rusqlite::Result<T>> {
    match r {
        Err(e) if blocks_check(&e) => Err(err!(
            "{}",
            describe_sqlite(&format!("checking {}", path.display()), &e)
        )),
        other => Ok(other),
    }
}

fn one<T: rusqlite::types::FromSql>(conn: &Connection, sql: &str) -> rusqlite::Result<T> {
    conn.query_row(sql, [], |r| r.get(0))
}

/// Checks the library at `path`; `configured` is the tokenizer the configuration or
/// `--tokenizer` names, compared with the library's.
pub fn check(path: &Path, configured: Option<&str>) -> Result<Health> {
    let lib = match open_unchecked(path, Mode::Read) {
        Ok(lib) => lib,
        // A library too damaged to open is a finding, not a failure of the check.
        Err(e) if e.kind == crate::error::Kind::Corrupt => {
            return Ok(Health {
                path: path.to_path_buf(),
                checks: vec![Check {
                    name: "database",
                    ok: false,
                    detail: format!("cannot be read: {}", e.message),
                }],
            });
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

    if let Some(replica) = super::replica::of(path) {
        r.add(
            "replica",
            true,
            replica.describe(std::time::SystemTime::now()),
        );
    }

    let survey = match schema::survey(conn, None) {
        Ok(s) => Some(s),
        Err(e) => {
            r.add(
                "schema",
                false,
                format!(
                    "cannot be read ({}): restore the library from a backup",
                    e.message
                ),
            );
            None
        }
    };
    if let Some(s) = &survey {
        schema_checks::schema_version(&mut r, s);
        schema_checks::tokenizer_record(&mut r, s);
        if let Some(configured) = configured {
            schema_checks::configured_tokenizer(&mut r, s, configured);
        }
        r.add("compatibility", true, schema_checks::compatibility(s));
    }

    // The index and the table it indexes: both as defined, or comparing them means
    // nothing.
    let index_sound = survey.as_ref().is_some_and(|s| {
        s.index_damages().is_empty() && !s.damages.iter().any(|d| d.name() == "items")
    });
    let declared = survey.as_ref().and_then(|s| s.declared.clone());
    // Whether FTS5 can open the index, and build the tokenizer it declares.
    let opens: std::result::Result<(), String> = match &declared {
        Some(d) => match read(
            path,
            conn.prepare("select rowid from items_fts limit 0")
                .map(|_| ()),
        )? {
            Err(e) => Err(e.to_string()),
            Ok(()) => match tokenizer::parse(d) {
                Err(_) => Err(format!(
                    "it declares tokenizer '{d}', which recall does not know"
                )),
                Ok(_) => tokenizer::ensure_buildable(d).map_err(|e| e.message),
            },
        },
        None => Ok(()),
    };
    let index_usable = index_sound && opens.is_ok() && declared.is_some();
    // The index is derived from the items: whatever its damage, `repair` builds it again
    // from them, unless they are damaged too. So are the keys of the atom lines, and the
    // runs of the items' text.
    let is_index = |name: &str| {
        atom_keys::TABLES.contains(&name)
            || super::runs::is_part(name)
            || match &survey {
                Some(s) => s.reference.is_index_part(name),
                None => name.starts_with(schema::INDEX) && name != "items_fts_pending",
            }
    };
    let beyond_index = database::database(&mut r, path, conn, &is_index)?;
    let mend = if beyond_index {
        database::RESTORE
    } else {
        database::MEND
    };

    if let Some(s) = &survey {
        schema_checks::index(&mut r, s, opens.as_ref().err());
    }
    if let (true, Some(declared)) = (index_usable, &declared) {
        match read(path, verify_index(conn, declared))? {
            Ok(findings) if findings.is_empty() => r.add(
                "index integrity",
                true,
                "the index holds exactly the items' text (checked read-only)",
            ),
            Ok(findings) => r.add(
                "index integrity",
                false,
                format!("{}: {mend}", findings.join("; ")),
            ),
            Err(e) => r.add(
                "index integrity",
                false,
                format!("cannot read the index ({e}): {mend}"),
            ),
        }
        let items = read(path, one::<i64>(conn, "select count(*) from items"))?;
        let indexed = read(
            path,
            one::<i64>(conn, "select count(*) from items_fts_docsize"),
        )?;
        match (items, indexed) {
            (Ok(i), Ok(x)) => r.add(
                "counts",
                i == x,
                if i == x {
                    format!("{i} items, {x} indexed")
                } else {
                    format!("{i} items but {x} indexed: {mend}")
                },
            ),
            (Err(e), _) | (_, Err(e)) => {
                r.add("counts", false, format!("cannot count: {e}: {mend}"))
            }
        }
    }
    if let Some(s) = &survey {
        schema_checks::triggers(&mut r, s);
        schema_checks::objects(&mut r, s);
        contents::pending(&mut r, path, conn, s)?;
        contents::neighbour_context(&mut r, path, conn, s, mend)?;
        contents::atom_keys(&mut r, path, conn, s, mend)?;
        contents::runs(&mut r, path, conn, s, mend)?;
    }
    contents::rows(&mut r, path, conn, mend)?;
    contents::vectors(&mut r, conn);
    contents::wipe(&mut r, path, conn);
    Ok(Health {
        path: lib.path.clone(),
        checks: r.0,
    })
}
