//! `recall check`: is the library healthy, and could other tools open it? Exit 0 when
//! healthy, 1 with one line per problem otherwise, each naming its fix.
//!
//! Check only reads, through a read-only connection: a library that is read-only, owned
//! by another user or held by a writer is checked like any other. A lock or a permission
//! that stops a check is an error of the command (exit 2), never a finding: neither says
//! anything about the library's health.
use std::process::Command;

use rusqlite::Connection;
use serde::Serialize;

use super::Globals;
use crate::error::{blocks_check, describe_sqlite, Result, EXIT_PROBLEMS};
use crate::library::index_check::{first_ids, plural, verify_index};
use crate::library::schema::{self, Damage, Survey};
use crate::library::{self, columns, migrations, unreadable, Access};
use crate::{err, output, tokenizer};

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

/// Splits a read's outcome: `Err` when it was blocked (the command fails), else the
/// value or the error as a finding.
fn read<T>(path: &std::path::Path, r: rusqlite::Result<T>) -> Result<rusqlite::Result<T>> {
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

pub fn run(g: &Globals) -> Result<i32> {
    let path = g.db()?;
    let lib = match library::open_unchecked(path, Access::Read) {
        Ok(lib) => lib,
        // A library too damaged to open is a finding of check, not a failure of it.
        Err(e) if e.kind == crate::error::Kind::Corrupt => {
            let detail = format!("cannot be read: {}", e.message);
            if g.json {
                output::json(&serde_json::json!({
                    "command": "check", "path": path, "healthy": false,
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

    if let Some(replica) = library::replica::of(path) {
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
        schema_version(&mut r, s);
        tokenizer_record(&mut r, s);
        if let Some(configured) = &g.tokenizer {
            configured_tokenizer(&mut r, s, configured);
        }
        r.add("compatibility", true, compatibility(s));
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
    // from them, unless they are damaged too.
    let is_index = |name: &str| match &survey {
        Some(s) => s.reference.is_index_part(name),
        None => name.starts_with(schema::INDEX) && name != "items_fts_pending",
    };
    let beyond_index = database(&mut r, path, conn, &is_index)?;
    let mend = if beyond_index { RESTORE } else { MEND };

    if let Some(s) = &survey {
        index(&mut r, s, opens.as_ref().err());
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
        triggers(&mut r, s);
        objects(&mut r, s);
        pending(&mut r, path, conn, s)?;
        neighbour_context(&mut r, path, conn, s, mend)?;
    }
    rows(&mut r, path, conn, mend)?;
    vectors(&mut r, conn);
    wipe(&mut r, path, conn);

    let healthy = r.0.iter().all(|c| c.ok);
    if g.json {
        output::json(&serde_json::json!({
            "command": "check", "path": lib.path, "healthy": healthy, "checks": r.0,
        }));
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

fn schema_version(r: &mut Report, s: &Survey) {
    let latest = migrations::latest_version();
    let user_version = s.user_version;
    match s.applied {
        Some(a) if a > i64::from(latest) => r.add(
            "schema",
            false,
            format!("the migrations log records migration {a}, newer than this recall knows ({latest}): upgrade recall"),
        ),
        Some(a) if user_version < a => r.add(
            "schema",
            false,
            format!("schema version {user_version}, but the migrations log (recall_migrations) records migrations up to {a}: user_version was changed by hand; run `recall repair` to restore it"),
        ),
        None if user_version < 1 => r.add(
            "schema",
            false,
            format!("schema version {user_version}, but the library holds the tables of version 1: user_version was changed by hand; run `recall repair` to restore it"),
        ),
        _ if s.version < latest => r.add(
            "schema",
            false,
            format!("schema version {} of {latest}: run `recall migrate`", s.version),
        ),
        _ => r.add("schema", true, format!("schema version {latest}")),
    }
}

fn tokenizer_record(r: &mut Report, s: &Survey) {
    let declared = s.declared.as_deref();
    let index_says = match declared {
        Some(d) => format!("the one the index declares, '{d}'"),
        None => format!(
            "the default '{}', or the one given with --tokenizer",
            tokenizer::DEFAULT
        ),
    };
    match (&s.recorded, s.valid_record()) {
        (None, _) => r.add(
            "tokenizer",
            false,
            format!("the library records no tokenizer: run `recall repair` to record {index_says}"),
        ),
        (Some(raw), None) => r.add(
            "tokenizer",
            false,
            format!(
                "the library records '{}', which is not a tokenizer recall knows: run `recall repair` to record {index_says}",
                crate::text::field(raw)
            ),
        ),
        (Some(raw), Some(normal)) if *raw != normal => r.add(
            "tokenizer",
            false,
            format!("the library records '{}', not in its normal form '{normal}': run `recall repair`", crate::text::field(raw)),
        ),
        (Some(_), Some(recorded)) => match declared {
            None => r.add(
                "tokenizer",
                true,
                format!("'{recorded}' recorded; no index declares one (see index)"),
            ),
            Some(d) if d != recorded => r.add(
                "tokenizer",
                false,
                if tokenizer::parse(d).is_ok() {
                    format!("the index declares '{d}' but the library records '{recorded}': run `recall repair` to rebuild the index with '{recorded}', or `recall rebuild --tokenizer '{d}'` to record '{d}'")
                } else {
                    format!("the index declares '{d}', which is not a tokenizer recall knows, but the library records '{recorded}': run `recall repair` to rebuild the index with '{recorded}'")
                },
            ),
            Some(d) => r.add("tokenizer", true, format!("'{d}' (declared and recorded)")),
        },
    }
}

fn configured_tokenizer(r: &mut Report, s: &Survey, configured: &str) {
    let c = tokenizer::normalize(configured);
    let recorded = s.valid_record().unwrap_or_else(|| s.tokenizer.clone());
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

/// Informational: another SQLite's age is not a problem of the library.
fn compatibility(s: &Survey) -> String {
    let spec = s.declared.as_deref().unwrap_or(&s.tokenizer);
    if tokenizer::needs_extension(spec) {
        return "the index uses the recall tokenizer: only a SQLite with sqlite-recall loaded can search it (`.load librecall0` in the sqlite3 shell, load() in Python or Node, the recall CLI, sqlite-recall-rusqlite)".to_string();
    }
    let needs = tokenizer::min_sqlite_version(spec);
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
    match shell.as_deref().and_then(tokenizer::parse_version) {
        Some(v) if v >= needs => format!(
            "the index needs SQLite {needs_s}+; this machine's sqlite3 shell ({}) can open it",
            tokenizer::version_string(v)
        ),
        Some(v) => format!(
            "the index needs SQLite {needs_s}+; this machine's sqlite3 shell ({}) cannot search it",
            tokenizer::version_string(v)
        ),
        None => format!("the index needs SQLite {needs_s}+; no sqlite3 shell on this machine"),
    }
}

/// `quick_check`, which since SQLite 3.44 also runs FTS5's own check of the index's
/// structure (not of its agreement with the items: `index integrity` does that).
fn quick_check(conn: &Connection, table: Option<&str>) -> rusqlite::Result<Vec<String>> {
    let sql = match table {
        Some(t) => format!("pragma quick_check(\"{}\")", t.replace('"', "\"\"")),
        None => "pragma quick_check(5)".to_string(),
    };
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    rows.map(|r| r.map(|s| s.replace('\n', " "))).collect()
}

/// What mends the index, whatever its damage, while the items are sound.
const MEND: &str = "run `recall repair`";
/// What is left when the items themselves are damaged.
const RESTORE: &str = "the items themselves are damaged: restore the library from a backup (without one, `sqlite3 LIBRARY .recover | sqlite3 NEW.db` salvages the rows SQLite can still read)";

/// `quick_check`, and when it finds anything, the same table by table, to tell damage
/// to the index (which `repair` builds again from the items) from damage to anything
/// else. Pages no table uses are the index's too: what `repair` leaves when cut off
/// between unlinking a damaged index and rewriting the file. Returns whether anything
/// outside the index is damaged.
fn database(
    r: &mut Report,
    path: &std::path::Path,
    conn: &Connection,
    is_index: &dyn Fn(&str) -> bool,
) -> Result<bool> {
    let whole = match read(path, quick_check(conn, None))? {
        Ok(rows) if rows.len() == 1 && rows[0] == "ok" => {
            r.add("database", true, "quick_check ok");
            return Ok(false);
        }
        Ok(rows) => rows,
        Err(e) => vec![e.to_string()],
    };
    let tables: Vec<String> = read(
        path,
        conn.prepare(
            "select name from sqlite_master where type = 'table' and sql not like 'create virtual%'",
        )
        .and_then(|mut s| s.query_map([], |row| row.get(0))?.collect()),
    )?
    .unwrap_or_default();
    let mut damaged = Vec::new();
    for t in &tables {
        let found = match read(path, quick_check(conn, Some(t)))? {
            Ok(rows) => rows.into_iter().filter(|x| x != "ok").collect(),
            Err(e) => vec![e.to_string()],
        };
        if !found.is_empty() {
            damaged.push((t.clone(), found));
        }
    }
    let outside: Vec<&(String, Vec<String>)> =
        damaged.iter().filter(|(t, _)| !is_index(t)).collect();
    let detail = if damaged.is_empty() {
        whole.join("; ")
    } else {
        damaged
            .iter()
            .map(|(t, found)| format!("{t}: {}", found.join("; ")))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let fix = if outside.is_empty() { MEND } else { RESTORE };
    r.add("database", false, format!("quick_check: {detail}: {fix}"));
    Ok(!outside.is_empty())
}

fn index(r: &mut Report, s: &Survey, cannot_open: Option<&String>) {
    let damages = s.index_damages();
    if s.declared.is_none()
        || damages
            .iter()
            .any(|d| matches!(d, Damage::Missing { name, .. } if name == schema::INDEX))
    {
        r.add(
            "index",
            false,
            format!(
                "the index table {} is missing: run `recall repair`",
                schema::INDEX
            ),
        );
    } else if !damages.is_empty() {
        let list: Vec<String> = damages.iter().map(|d| d.to_string()).collect();
        r.add(
            "index",
            false,
            format!(
                "the index is damaged ({}): run `recall repair`",
                list.join(", ")
            ),
        );
    } else if let Some(e) = cannot_open {
        r.add(
            "index",
            false,
            format!("the index cannot be used ({e}): run `recall repair`"),
        );
    } else {
        r.add(
            "index",
            true,
            format!(
                "{} and its {} shadow tables as the migrations define them",
                schema::INDEX,
                s.reference.index_family.len().saturating_sub(1)
            ),
        );
    }
}

fn triggers(r: &mut Report, s: &Survey) {
    let total = s
        .reference
        .objects
        .iter()
        .filter(|o| o.kind == "trigger")
        .count();
    let damaged: Vec<String> = s
        .damages
        .iter()
        .filter(|d| d.kind() == "trigger")
        .map(|d| d.to_string())
        .collect();
    if damaged.is_empty() {
        r.add(
            "triggers",
            true,
            format!("{total} triggers as the migrations define them"),
        );
    } else {
        r.add(
            "triggers",
            false,
            format!(
                "{}: the index no longer follows the items; run `recall repair`",
                damaged.join(", ")
            ),
        );
    }
}

/// Tables and indexes outside the FTS5 index.
fn objects(r: &mut Report, s: &Survey) {
    let ours = |kind: &str, name: &str| {
        (kind == "table" || kind == "index") && !s.reference.is_index_part(name)
    };
    let (tables, indexes) = s.reference.objects.iter().fold((0, 0), |(t, i), o| {
        match (ours(&o.kind, &o.name), o.kind.as_str()) {
            (true, "table") => (t + 1, i),
            (true, _) => (t, i + 1),
            _ => (t, i),
        }
    });
    let damaged: Vec<String> = s
        .damages
        .iter()
        .filter(|d| ours(d.kind(), d.name()))
        .map(|d| d.to_string())
        .collect();
    if damaged.is_empty() {
        r.add(
            "tables",
            true,
            format!("{tables} tables and {indexes} indexes as the migrations define them"),
        );
    } else {
        r.add(
            "tables",
            false,
            format!("{}: run `recall repair`", damaged.join(", ")),
        );
    }
}

/// The vector channel's table, when the library has one: how many items have vectors,
/// and that other hosts need sqlite-vec to use them (docs/vectors.md).
fn vectors(r: &mut Report, conn: &Connection) {
    let store = match crate::vectors::store::read(conn) {
        Ok(None) => return,
        Ok(Some(s)) => s,
        Err(e) => return r.add("vectors", false, e.message),
    };
    let table = crate::vectors::store::TABLE;
    let counts = one::<i64>(conn, "select count(*) from items").and_then(|items| {
        let with: i64 = one(
            conn,
            &format!("select count(*) from {table} where rowid in (select id from items)"),
        )?;
        let orphans: i64 = one(
            conn,
            &format!("select count(*) from {table} where rowid not in (select id from items)"),
        )?;
        // Vectors made before their item's neighbours changed (an item arriving next to
        // it, a neighbour retitled or deleted outside `forget`).
        let behind: i64 = if crate::vectors::store::contexts_exist(conn)? {
            one(
                conn,
                &format!(
                    "select count(*) from {} as c join items as i on i.id = c.id
                     where c.context <> i.context and c.id in (select rowid from {table})",
                    crate::vectors::store::CONTEXTS
                ),
            )?
        } else {
            0
        };
        Ok((items, with, orphans, behind))
    });
    match counts {
        Ok((items, with, orphans, behind)) => {
            let mut detail = format!(
                "{with} of {items} items have vectors of model {:?} ({} dimensions)",
                store.model, store.dimensions
            );
            if with < items {
                detail.push_str("; `recall embed` gives the others theirs");
            }
            if orphans > 0 {
                detail.push_str(&format!(
                    "; {orphans} vectors of deleted items, which `recall embed` removes"
                ));
            }
            if behind > 0 {
                detail.push_str(&format!(
                    "; {behind} vectors made before their items' neighbours changed, which `recall embed` makes again"
                ));
            }
            detail.push_str("; other hosts need sqlite-vec loaded to search with them");
            r.add("vectors", true, detail);
        }
        Err(e) => r.add(
            "vectors",
            false,
            format!("cannot read the vector table {table} ({e}): `recall embed --drop` removes it, then `recall embed` makes it again"),
        ),
    }
}

/// Old values kept aside by the before-insert trigger are normally removed by the next
/// trigger; an ignored `INSERT OR IGNORE` leaves them, harmlessly, since they are the
/// item's current values. A row that differs from its item, or has none, would be
/// "deleted" from the index the next time that id is written, damaging it.
fn pending(r: &mut Report, path: &std::path::Path, conn: &Connection, s: &Survey) -> Result<()> {
    // Without the table, or the items to compare with, the tables line says it all.
    if s.damages
        .iter()
        .any(|d| d.name() == "items_fts_pending" || d.name() == "items")
    {
        return Ok(());
    }
    let kept = match read(
        path,
        columns::present(conn, "items_fts_pending", &columns::indexed()),
    )? {
        Ok(kept) => kept,
        Err(e) => {
            r.add(
                "pending",
                false,
                format!("cannot read items_fts_pending ({e}): run `recall repair`"),
            );
            return Ok(());
        }
    };
    let differs: Vec<String> = kept.iter().map(|c| format!("i.{c} is not p.{c}")).collect();
    let stale = format!(
        "select p.id from items_fts_pending as p left join items as i on i.id = p.id
         where i.id is null or {}",
        differs.join(" or ")
    );
    let found: rusqlite::Result<Vec<i64>> = conn
        .prepare(&stale)
        .and_then(|mut st| st.query_map([], |row| row.get(0))?.collect());
    match read(path, found)? {
        Ok(ids) if ids.is_empty() => r.add(
            "pending",
            true,
            "items_fts_pending holds nothing that differs from the items",
        ),
        Ok(ids) => r.add(
            "pending",
            false,
            format!(
                "items_fts_pending holds {} that {} from the items (ids {}), left by a write that ran without its triggers; the next write of those ids would corrupt the index: run `recall repair`",
                plural(ids.len(), "row", "rows"),
                if ids.len() == 1 { "differs" } else { "differ" },
                first_ids(&ids)
            ),
        ),
        Err(e) => r.add(
            "pending",
            false,
            format!("cannot read items_fts_pending ({e}): run `recall repair`"),
        ),
    }
    Ok(())
}

/// Each item's context (its neighbours' titles, which the index holds) is kept by the
/// triggers; a write that ran without them leaves one out of step, and search then
/// finds the item by words its neighbours no longer have.
fn neighbour_context(
    r: &mut Report,
    path: &std::path::Path,
    conn: &Connection,
    s: &Survey,
    mend: &str,
) -> Result<()> {
    // Without the items or the views, the tables line says it all; a library a migration
    // behind has no contexts yet.
    let parts = ["items", "items_neighbours", "items_context_wanted"];
    if s.reference.object("items_context_wanted").is_none()
        || s.damages.iter().any(|d| parts.contains(&d.name()))
    {
        return Ok(());
    }
    match read(path, crate::library::context::stale(conn))? {
        Ok(0) => r.add(
            "context",
            true,
            "every item's context holds its neighbours' titles",
        ),
        Ok(n) => r.add(
            "context",
            false,
            format!(
                "{} out of step with {} neighbours, left by a write that ran without its triggers: run `recall repair`",
                plural(n as usize, "item's context is", "items' contexts are"),
                if n == 1 { "its" } else { "their" }
            ),
        ),
        Err(e) => r.add(
            "context",
            false,
            format!("cannot compare the items' contexts ({e}): {mend}"),
        ),
    }
    Ok(())
}

fn rows(r: &mut Report, path: &std::path::Path, conn: &Connection, mend: &str) -> Result<()> {
    const LISTED: usize = 5;
    match read(path, unreadable::scan(conn, LISTED))? {
        Ok(scan) if scan.bad == 0 => r.add(
            "rows",
            true,
            format!("every value of the {} items is readable", scan.items),
        ),
        Ok(scan) => {
            let listed: Vec<String> = scan.first.iter().map(|b| b.to_string()).collect();
            let more = if scan.bad > scan.first.len() as u64 {
                format!("; and {} more", scan.bad - scan.first.len() as u64)
            } else {
                String::new()
            };
            r.add(
                "rows",
                false,
                format!(
                    "{} that the queries cannot read: {}{more}: {}",
                    plural(scan.bad as usize, "item holds a value", "items hold values"),
                    listed.join("; "),
                    unreadable::ROW_FIX
                ),
            );
        }
        Err(e) => r.add(
            "rows",
            false,
            format!("cannot read the items ({e}): {mend}"),
        ),
    }
    Ok(())
}

/// A forget records, in its own transaction, that the file is still to be wiped, and
/// clears the record once the file is rewritten and its log emptied: a record left means
/// that copies of forgotten text may still be in the file, whatever the rows say.
fn wipe(r: &mut Report, path: &std::path::Path, conn: &Connection) {
    match crate::library::wipe::pending(conn) {
        None => r.add("wipe", true, "no forget is waiting for the file to be wiped"),
        // The record came from the primary, whose file is the one left to wipe.
        Some(since) if library::replica::of(path).is_some() => r.add(
            "wipe",
            false,
            format!(
                "a forget of {} on the primary removed items but has not wiped its file yet: copies of their text may remain in the primary's file and log; run `recall forget --finish` on the primary (with Litestream stopped for the moment it takes: docs/team.md), and this replica follows",
                crate::text::field(&since)
            ),
        ),
        Some(since) if crate::library::wipe::why_unfinished(conn).is_some() => {
            let record = crate::library::wipe::why_unfinished(conn).unwrap_or_default();
            let (at, why) = record.split_once(' ').unwrap_or(("an unknown time", &record));
            r.add(
                "wipe",
                false,
                format!(
                    "a forget of {} removed items, and the wipe of the file is still pending: its last try, at {}, did not finish: {}; copies of their text may remain in {} and its log; the next write to the library finishes the wipe, or {}",
                    crate::text::field(&since),
                    crate::text::field(at),
                    crate::text::field(why),
                    path.display(),
                    crate::library::wipe::FINISH
                ),
            )
        }
        Some(since) => r.add(
            "wipe",
            false,
            format!(
                "a forget of {} removed items but was cut off before it wiped the file: copies of their text may remain in {} and its log; the next write to the library finishes the wipe, or {}",
                crate::text::field(&since),
                path.display(),
                crate::library::wipe::FINISH
            ),
        ),
    }
}
