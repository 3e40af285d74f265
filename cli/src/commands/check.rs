//! `recall check`: is the library healthy, and could other tools open it? Exit 0 when
//! healthy, 1 with one line per problem otherwise, each naming its fix.
//!
//! Check only reads, through a read-only connection: a library that is read-only, owned
//! by another user or held by a writer is checked like any other. A lock or a permission
//! that stops a check is an error of the command (exit 2), never a finding: neither says
//! anything about the library's health.
use std::collections::hash_map;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::process::Command;

use rusqlite::types::ValueRef;
use rusqlite::{Connection, ErrorCode, OptionalExtension};
use serde::Serialize;

use super::Globals;
use crate::error::{describe_sqlite, Result, EXIT_PROBLEMS};
use crate::library::{self, Access};
use crate::schema::{self, Damage, Survey};
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

/// A lock held by another process, or a file this user may not read: the check could not
/// run, which is no finding about the library.
fn blocked(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(
            ErrorCode::DatabaseBusy
                | ErrorCode::DatabaseLocked
                | ErrorCode::ReadOnly
                | ErrorCode::CannotOpen
                | ErrorCode::PermissionDenied
        )
    )
}

/// Splits a read's outcome: `Err` when it was blocked (the command fails), else the
/// value or the error as a finding.
fn read<T>(path: &std::path::Path, r: rusqlite::Result<T>) -> Result<rusqlite::Result<T>> {
    match r {
        Err(e) if blocked(&e) => Err(err!(
            "{}",
            describe_sqlite(&format!("checking {}", path.display()), &e)
        )),
        other => Ok(other),
    }
}

fn one<T: rusqlite::types::FromSql>(conn: &Connection, sql: &str) -> rusqlite::Result<T> {
    conn.query_row(sql, [], |r| r.get(0))
}

/// Items as a message lists them: "item 5", "items 3, 7 and 2 more".
fn items_named(ids: &[i64]) -> String {
    format!(
        "{} {}",
        if ids.len() == 1 { "item" } else { "items" },
        first_ids(ids)
    )
}

/// Ids as a message lists them: the first few, and how many more.
fn first_ids(ids: &[i64]) -> String {
    const SHOWN: usize = 5;
    let mut sorted = ids.to_vec();
    sorted.sort_unstable();
    let list = sorted
        .iter()
        .take(SHOWN)
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    if sorted.len() > SHOWN {
        format!("{list} and {} more", sorted.len() - SHOWN)
    } else {
        list
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
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
    // nothing (and a rebuild cannot mend them).
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
    // What mends the index's contents: a rebuild, unless its tables are damaged.
    let mend = if index_usable {
        "run `recall rebuild`"
    } else {
        "run `recall repair`"
    };

    database(&mut r, path, conn, mend)?;

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
            (Err(e), _) | (_, Err(e)) => r.add(
                "counts",
                false,
                format!("cannot count: {e}: run `recall repair`"),
            ),
        }
    }
    if let Some(s) = &survey {
        triggers(&mut r, s);
        objects(&mut r, s);
        pending(&mut r, path, conn, s)?;
    }
    rows(&mut r, path, conn)?;

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
    let latest = library::latest_version();
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
    let needs = tokenizer::min_sqlite_version(s.declared.as_deref().unwrap_or(&s.tokenizer));
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

fn is_about_index(finding: &str) -> bool {
    let f = finding.to_lowercase();
    f.contains("fts5") || f.contains("items_fts") || f.contains("vtable constructor")
}

fn database(r: &mut Report, path: &std::path::Path, conn: &Connection, mend: &str) -> Result<()> {
    const RESTORE: &str = "the file itself is damaged: restore it from a backup";
    let findings = match read(path, quick_check(conn, None))? {
        Ok(rows) => rows,
        // An index that cannot even be opened stops the whole pragma: check the tables
        // one by one, and leave the index to its own line.
        Err(e) if is_about_index(&e.to_string()) => {
            let tables: Vec<String> = read(
                path,
                conn.prepare(
                    "select name from sqlite_master where type = 'table' and sql not like 'create virtual%'",
                )
                .and_then(|mut s| s.query_map([], |row| row.get(0))?.collect()),
            )?
            .unwrap_or_default();
            let mut found = Vec::new();
            for t in &tables {
                match read(path, quick_check(conn, Some(t)))? {
                    Ok(rows) => found.extend(rows.into_iter().filter(|x| x != "ok")),
                    Err(e) => found.push(format!("{t}: {e}")),
                }
            }
            if found.is_empty() {
                r.add(
                    "database",
                    true,
                    format!("quick_check ok for every table; the index could not be opened ({e}): see index"),
                );
                return Ok(());
            }
            found
        }
        Err(e) => vec![e.to_string()],
    };
    if findings.len() == 1 && findings[0] == "ok" {
        r.add("database", true, "quick_check ok");
        return Ok(());
    }
    let fix = if findings.iter().all(|f| is_about_index(f)) {
        mend
    } else {
        RESTORE
    };
    r.add(
        "database",
        false,
        format!("quick_check: {}: {fix}", findings.join("; ")),
    );
    Ok(())
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
    let stale = "select p.id from items_fts_pending as p left join items as i on i.id = p.id
                 where i.id is null or i.title is not p.title or i.summary is not p.summary
                    or i.questions is not p.questions or i.atoms is not p.atoms
                    or i.project is not p.project";
    let found: rusqlite::Result<Vec<i64>> = conn
        .prepare(stale)
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

fn rows(r: &mut Report, path: &std::path::Path, conn: &Connection) -> Result<()> {
    const LISTED: usize = 5;
    match read(path, schema::unreadable_rows(conn, LISTED))? {
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
                    schema::ROW_FIX
                ),
            );
        }
        Err(e) => r.add(
            "rows",
            false,
            format!("cannot read the items ({e}): run `recall repair`"),
        ),
    }
    Ok(())
}

/// What the index holds for one item: a checksum of its tokens (term, column,
/// position) and of its token counts (its `docsize` record).
#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct Indexed {
    tokens: u64,
    sizes: u64,
}

/// A checksum, not a defence against crafted input: FNV-1a over the bytes, then
/// splitmix64's finaliser, so that sums of many of them stay well spread. (Cheap even in
/// a debug build, where check runs in the tests.)
fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn finish(mut h: u64) -> u64 {
    h ^= h >> 30;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^ (h >> 31)
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

fn bytes_of<'a>(v: &'a ValueRef<'a>) -> &'a [u8] {
    match v {
        ValueRef::Text(b) | ValueRef::Blob(b) => b,
        _ => &[],
    }
}

/// Item ids as hash keys: already spread enough for a map once mixed.
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        finish(self.0)
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0 = fnv(self.0, bytes);
    }
    fn write_i64(&mut self, n: i64) {
        self.0 = self.0.wrapping_add(n as u64);
    }
}

type ById = HashMap<i64, Indexed, BuildHasherDefault<IdHasher>>;

/// Where an index's checksums go: per item, to name the items that differ, or only in
/// sum, which is what a healthy library needs and costs no map.
trait Tally {
    fn token(&mut self, doc: i64, h: u64);
    fn sizes(&mut self, id: i64, h: u64);
}

impl Tally for ById {
    fn token(&mut self, doc: i64, h: u64) {
        let e = self.entry(doc).or_default();
        e.tokens = e.tokens.wrapping_add(h);
    }
    fn sizes(&mut self, id: i64, h: u64) {
        self.entry(id).or_default().sizes = h;
    }
}

#[derive(Default, PartialEq, Eq, Debug)]
struct Sums {
    tokens: u64,
    sizes: u64,
    records: u64,
}

impl Tally for Sums {
    fn token(&mut self, _: i64, h: u64) {
        self.tokens = self.tokens.wrapping_add(h);
    }
    fn sizes(&mut self, _: i64, h: u64) {
        self.sizes = self.sizes.wrapping_add(h);
        self.records += 1;
    }
}

/// Adds the tokens (from an `fts5vocab` instance table) and token counts (a `docsize`
/// table) of an index to `into`.
fn read_index(
    conn: &Connection,
    vocab: &str,
    docsize: &str,
    into: &mut impl Tally,
) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare(&format!("select term, col, doc, offset from {vocab}"))?;
    let mut rows = stmt.query([])?;
    // Rows come term by term, and name few columns: the hashes of the last term and
    // column are kept rather than computed again for every row.
    let (mut term, mut term_hash) = (Vec::new(), fnv(FNV_START, &[]));
    let (mut col, mut col_hash) = (Vec::new(), fnv(FNV_START, &[]));
    while let Some(row) = rows.next()? {
        let t = row.get_ref(0)?;
        if bytes_of(&t) != term.as_slice() {
            term = bytes_of(&t).to_vec();
            term_hash = fnv(FNV_START, &term);
        }
        let c = row.get_ref(1)?;
        if bytes_of(&c) != col.as_slice() {
            col = bytes_of(&c).to_vec();
            col_hash = fnv(FNV_START, &col);
        }
        let doc = row.get_ref(2)?.as_i64()?;
        let offset = row.get_ref(3)?.as_i64()?;
        // Each part is mixed in separately, so that no two parts cancel; the item is
        // part of it, so that sums see a token moved from one item to another.
        let h = finish(
            finish(finish(term_hash ^ col_hash.rotate_left(17)) ^ offset as u64) ^ doc as u64,
        );
        into.token(doc, h);
    }
    let mut stmt = conn.prepare(&format!("select id, sz from {docsize}"))?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        let id = row.get_ref(0)?.as_i64()?;
        let sz = row.get_ref(1)?;
        into.sizes(id, finish(fnv(FNV_START, bytes_of(&sz)) ^ id as u64));
    }
    Ok(())
}

/// SQLite's variable-length integer (FTS5 writes its records with it).
fn varint(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v: u64 = 0;
    for i in 0..9 {
        let b = *bytes.get(*pos)?;
        *pos += 1;
        if i == 8 {
            return Some((v << 8) | u64::from(b));
        }
        v = (v << 7) | u64::from(b & 0x7f);
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    Some(v)
}

/// The index's totals record: rows, then tokens per column (what bm25 averages over).
fn totals(conn: &Connection, data: &str) -> rusqlite::Result<Vec<u64>> {
    let block: Option<Vec<u8>> = conn
        .query_row(&format!("select block from {data} where id = 1"), [], |r| {
            Ok(bytes_of(&r.get_ref(0)?).to_vec())
        })
        .optional()?;
    let block = block.unwrap_or_default();
    let mut pos = 0;
    let mut out = Vec::new();
    while let Some(v) = varint(&block, &mut pos) {
        out.push(v);
    }
    Ok(out)
}

/// Whether the index holds exactly what the items hold, without writing to the library.
/// FTS5's `integrity-check` command compares them, but it is an INSERT, which needs the
/// write lock; so it runs on a copy of the index in the temp schema, fed by a view of
/// the items. When it fails, the items that differ are named; when the copy cannot be
/// made (no room for temporary files), the items are compared by reading both indexes.
/// Returns the findings.
fn verify_index(conn: &Connection, declared: &str) -> rusqlite::Result<Vec<String>> {
    let columns: Vec<String> = conn
        .prepare("select name from pragma_table_info('items_fts')")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let list = columns
        .iter()
        .map(|c| format!("\"{}\"", c.replace('"', "\"\"")))
        .collect::<Vec<_>>()
        .join(", ");
    let tokenize = tokenizer::sql_literal(declared);
    let copied = fts5_content_check(conn, &list, &tokenize);
    conn.execute_batch(
        "drop table if exists temp.recall_check_copy; drop view if exists temp.recall_check_items;",
    )?;
    match copied {
        Ok(None) => return Ok(Vec::new()),
        Ok(Some(_)) => {}
        // Temporary files unavailable: the comparison below needs little room, in memory.
        Err(_) => conn.execute_batch("pragma temp_store = memory")?,
    }
    let findings = compare_indexes(conn, &list, &tokenize)?;
    Ok(match (findings.is_empty(), copied) {
        (true, Ok(Some(why))) => vec![format!(
            "FTS5's content check fails on a copy of the index ({why})"
        )],
        _ => findings,
    })
}

/// FTS5's content check on a copy of the index (its shadow tables, copied as they are).
/// `Ok(None)` when it passes, `Ok(Some(why))` when it fails.
fn fts5_content_check(
    conn: &Connection,
    list: &str,
    tokenize: &str,
) -> rusqlite::Result<Option<String>> {
    conn.execute_batch(&format!(
        "pragma temp_store = file;
         drop table if exists temp.recall_check_copy;
         drop view if exists temp.recall_check_items;
         create temp view recall_check_items as select id, {list} from main.items;
         create virtual table temp.recall_check_copy using fts5({list},
           content = 'recall_check_items', content_rowid = 'id', tokenize = {tokenize});"
    ))?;
    for shadow in ["data", "idx", "docsize", "config"] {
        conn.execute_batch(&format!(
            "delete from temp.recall_check_copy_{shadow};
             insert into temp.recall_check_copy_{shadow} select * from main.items_fts_{shadow};"
        ))?;
    }
    match conn.execute_batch(
        "insert into temp.recall_check_copy(recall_check_copy, rank) values ('integrity-check', 1)",
    ) {
        Ok(()) => Ok(None),
        Err(e) if e.sqlite_error_code() == Some(ErrorCode::DatabaseCorrupt) => {
            Ok(Some(e.to_string()))
        }
        Err(e) => Err(e),
    }
}

/// Indexes the items again into a scratch index, a batch at a time, and compares both
/// indexes' tokens, token counts and totals: in sum first, and item by item when the
/// sums differ, to name the items.
fn compare_indexes(conn: &Connection, list: &str, tokenize: &str) -> rusqlite::Result<Vec<String>> {
    conn.execute_batch(&format!(
        "drop table if exists temp.recall_check_vocab;
         drop table if exists temp.recall_check_probe_vocab;
         drop table if exists temp.recall_check_probe;
         create virtual table temp.recall_check_vocab using fts5vocab(main, 'items_fts', 'instance');
         create virtual table temp.recall_check_probe using fts5({list}, content = '', tokenize = {tokenize});
         create virtual table temp.recall_check_probe_vocab using fts5vocab(temp, 'recall_check_probe', 'instance');"
    ))?;
    let index_totals = totals(conn, "main.items_fts_data")?;
    let mut indexed = Sums::default();
    read_index(
        conn,
        "temp.recall_check_vocab",
        "main.items_fts_docsize",
        &mut indexed,
    )?;
    let mut expected = Sums::default();
    let expected_totals = reindex(conn, list, || {
        read_index(
            conn,
            "temp.recall_check_probe_vocab",
            "temp.recall_check_probe_docsize",
            &mut expected,
        )
    })?;
    let no_items = expected_totals.is_empty();
    let totals_agree =
        index_totals == expected_totals || (no_items && index_totals.iter().all(|&t| t == 0));
    let findings = if indexed == expected {
        if totals_agree {
            Vec::new()
        } else {
            vec!["the index's totals (what bm25 averages over) disagree with the items".to_string()]
        }
    } else {
        name_differences(conn, list)?
    };
    conn.execute_batch(
        "drop table temp.recall_check_probe_vocab; drop table temp.recall_check_probe; drop table temp.recall_check_vocab;",
    )?;
    Ok(findings)
}

/// Indexes the items into the scratch index a batch at a time, calling `each` while a
/// batch is in it; returns the sum of the batches' totals records.
fn reindex(
    conn: &Connection,
    list: &str,
    mut each: impl FnMut() -> rusqlite::Result<()>,
) -> rusqlite::Result<Vec<u64>> {
    const BATCH: i64 = 2_000;
    let mut sums: Vec<u64> = Vec::new();
    let mut last = i64::MIN;
    loop {
        let max: Option<i64> = conn.query_row(
            "select max(id) from (select id from main.items where id > ?1 order by id limit ?2)",
            [last, BATCH],
            |r| r.get(0),
        )?;
        let Some(max) = max else { break };
        conn.execute(
            &format!(
                "insert into temp.recall_check_probe(rowid, {list}) select id, {list} from main.items where id > ?1 and id <= ?2"
            ),
            [last, max],
        )?;
        each()?;
        for (i, t) in totals(conn, "temp.recall_check_probe_data")?
            .into_iter()
            .enumerate()
        {
            match sums.get_mut(i) {
                Some(sum) => *sum = sum.wrapping_add(t),
                None => sums.push(t),
            }
        }
        conn.execute_batch(
            "insert into temp.recall_check_probe(recall_check_probe) values ('delete-all')",
        )?;
        last = max;
    }
    Ok(sums)
}

/// The items whose index entries differ from what they hold, item by item.
fn name_differences(conn: &Connection, list: &str) -> rusqlite::Result<Vec<String>> {
    let mut indexed = ById::default();
    read_index(
        conn,
        "temp.recall_check_vocab",
        "main.items_fts_docsize",
        &mut indexed,
    )?;
    let (mut unindexed, mut differ, mut sizes) = (Vec::new(), Vec::new(), Vec::new());
    reindex(conn, list, || {
        let mut batch = ById::default();
        read_index(
            conn,
            "temp.recall_check_probe_vocab",
            "temp.recall_check_probe_docsize",
            &mut batch,
        )?;
        for (id, want) in batch {
            match indexed.entry(id) {
                hash_map::Entry::Vacant(_) => unindexed.push(id),
                hash_map::Entry::Occupied(have) => {
                    let have = have.remove();
                    if have.tokens != want.tokens {
                        differ.push(id);
                    } else if have.sizes != want.sizes {
                        sizes.push(id);
                    }
                }
            }
        }
        Ok(())
    })?;
    // Whatever is left was indexed under an id no item has.
    let orphans: Vec<i64> = indexed.into_keys().collect();
    let mut findings = Vec::new();
    if !unindexed.is_empty() {
        findings.push(format!(
            "{} not in the index ({})",
            plural(unindexed.len(), "item is", "items are"),
            items_named(&unindexed)
        ));
    }
    if !differ.is_empty() {
        findings.push(format!(
            "{} indexed with other text than {} ({})",
            plural(differ.len(), "item is", "items are"),
            if differ.len() == 1 {
                "it holds"
            } else {
                "they hold"
            },
            items_named(&differ)
        ));
    }
    if !orphans.is_empty() {
        findings.push(format!(
            "the index holds {} that no item has (ids {})",
            plural(orphans.len(), "entry", "entries"),
            first_ids(&orphans)
        ));
    }
    if !sizes.is_empty() {
        findings.push(format!(
            "the index's token counts (items_fts_docsize) are wrong for {}",
            items_named(&sizes)
        ));
    }
    if findings.is_empty() {
        // The sums differed, yet no item does: the docsize table holds a record for an
        // id with no tokens and no item.
        findings.push(
            "the index's token counts (items_fts_docsize) hold records no item has".to_string(),
        );
    }
    Ok(findings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_as_sqlite_writes_them() {
        let mut pos = 0;
        // 300 = 0b10_0101100: two bytes, high group first.
        let bytes = [0x82, 0x2c, 0x05, 0x00];
        assert_eq!(varint(&bytes, &mut pos), Some(300));
        assert_eq!(varint(&bytes, &mut pos), Some(5));
        assert_eq!(varint(&bytes, &mut pos), Some(0));
        assert_eq!(varint(&bytes, &mut pos), None);
        let nine = [0xff; 9];
        assert_eq!(varint(&nine, &mut 0), Some(u64::MAX));
    }

    /// A library in memory, built by the migrations, with these titles (ids 1, 2, …).
    fn library(titles: &[&str]) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        for (_, _, sql) in library::MIGRATIONS {
            conn.execute_batch(&crate::library::migration_sql(sql, tokenizer::DEFAULT))
                .unwrap();
        }
        for (i, title) in titles.iter().enumerate() {
            conn.execute(
                "insert into items(id, source, title, occurred_at) values (?1, 's', ?2, '2025-01-01T00:00:00Z')",
                rusqlite::params![i as i64 + 1, title],
            )
            .unwrap();
        }
        conn
    }

    const COLUMNS: &str = "\"title\", \"summary\", \"questions\", \"atoms\", \"project\"";

    fn both_checks(conn: &Connection) -> (Option<String>, Vec<String>) {
        let tokenize = tokenizer::sql_literal(tokenizer::DEFAULT);
        let copy = fts5_content_check(conn, COLUMNS, &tokenize).unwrap();
        conn.execute_batch("drop table temp.recall_check_copy; drop view temp.recall_check_items;")
            .unwrap();
        (copy, compare_indexes(conn, COLUMNS, &tokenize).unwrap())
    }

    #[test]
    fn both_index_checks_pass_a_healthy_index() {
        let conn = library(&["alpha widget", "beta widget", "gamma"]);
        assert_eq!(both_checks(&conn), (None, Vec::new()));
        let empty = library(&[]);
        assert_eq!(both_checks(&empty), (None, Vec::new()));
    }

    #[test]
    fn both_index_checks_find_each_difference() {
        let cases = [
            (
                "drop trigger items_fts_after_insert; insert into items(id, source, title, occurred_at) values (9, 's', 'delta', '2025-01-01T00:00:00Z')",
                "1 item is not in the index (item 9)",
            ),
            (
                "insert into items_fts(items_fts, rowid, title, summary, questions, atoms, project) values ('delete', 2, 'beta widget', '', '', '', null);
                 insert into items_fts(rowid, title, summary, questions, atoms, project) values (2, 'other words', '', '', '', null)",
                "1 item is indexed with other text than it holds (item 2)",
            ),
            (
                "drop trigger items_fts_after_delete; delete from items where id = 3",
                "the index holds 1 entry that no item has (ids 3)",
            ),
            (
                "update items_fts_docsize set sz = x'0909090909' where id = 1",
                "the index's token counts (items_fts_docsize) are wrong for item 1",
            ),
            (
                "update items_fts_data set block = x'0101' where id = 1",
                "the index's totals (what bm25 averages over) disagree with the items",
            ),
        ];
        for (damage, finding) in cases {
            let conn = library(&["alpha widget", "beta widget", "gamma"]);
            conn.execute_batch(damage).unwrap();
            let (copy, compared) = both_checks(&conn);
            assert!(copy.is_some(), "FTS5's check passed after {damage}");
            assert_eq!(compared, [finding], "{damage}");
        }
    }

    #[test]
    fn first_ids_are_sorted_and_capped() {
        assert_eq!(first_ids(&[9, 3, 5]), "3, 5, 9");
        assert_eq!(
            first_ids(&[7, 6, 5, 4, 3, 2, 1]),
            "1, 2, 3, 4, 5 and 2 more"
        );
    }
}
