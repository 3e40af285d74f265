//! Whether the FTS5 index holds exactly what the items say, read-only: FTS5's own
//! content check run on a copy of the index in temporary storage, and a comparison of
//! the index with the items, token by token, to name the items that differ (`check`).
use std::collections::hash_map;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use rusqlite::types::ValueRef;
use rusqlite::{Connection, OptionalExtension};

use super::fts_records;
use super::reindex::batches;
use crate::error::is_corrupt;
use crate::tokenizer;

/// Items as a message lists them: "item 5", "items 3, 7 and 2 more".
pub fn items_named(ids: &[i64]) -> String {
    format!(
        "{} {}",
        if ids.len() == 1 { "item" } else { "items" },
        first_ids(ids)
    )
}

/// Ids as a message lists them: the first few, and how many more.
pub fn first_ids(ids: &[i64]) -> String {
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

pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
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

/// The index's totals record: rows, then tokens per column (what bm25 averages over).
fn totals(conn: &Connection, data: &str) -> rusqlite::Result<Vec<u64>> {
    let block: Option<Vec<u8>> = conn
        .query_row(&format!("select block from {data} where id = 1"), [], |r| {
            Ok(bytes_of(&r.get_ref(0)?).to_vec())
        })
        .optional()?;
    Ok(fts_records::totals(&block.unwrap_or_default()))
}

/// Whether the index holds exactly what the items hold, without writing to the library.
/// FTS5's `integrity-check` command compares them, but it is an INSERT, which needs the
/// write lock; so it runs on a copy of the index in the temp schema, fed by a view of
/// the items. When it fails, the items that differ are named; when the copy cannot be
/// made (no room for temporary files), the items are compared by reading both indexes.
/// Returns the findings.
pub fn verify_index(conn: &Connection, declared: &str) -> rusqlite::Result<Vec<String>> {
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
        // Damaged pages, not a lack of room: the comparison would meet them again.
        Err(e) if is_corrupt(&e) => return Err(e),
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
        Err(e) if is_corrupt(&e) => Ok(Some(e.to_string())),
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
    let expected_totals = fill_probe(conn, list, || {
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
fn fill_probe(
    conn: &Connection,
    list: &str,
    mut each: impl FnMut() -> rusqlite::Result<()>,
) -> rusqlite::Result<Vec<u64>> {
    let mut sums: Vec<u64> = Vec::new();
    for batch in batches(conn) {
        let batch = batch?;
        conn.execute(
            &format!(
                "insert into temp.recall_check_probe(rowid, {list}) select id, {list} from main.items where id > ?1 and id <= ?2"
            ),
            [batch.after, batch.last],
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
    fill_probe(conn, list, || {
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

/// Whether SQLite finds the items table and its indexes sound, page by page: then a
/// damaged index can be built again from them (`recall repair`).
pub fn items_sound(conn: &Connection) -> bool {
    let rows: rusqlite::Result<Vec<String>> = conn
        .prepare("pragma quick_check(items)")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect());
    matches!(rows.as_deref(), Ok([ok]) if ok == "ok")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::migrations::{migration_sql, MIGRATIONS};

    /// A library in memory, built by the migrations, with these titles (ids 1, 2, …).
    fn library(titles: &[&str]) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        for (_, _, sql) in MIGRATIONS {
            conn.execute_batch(&migration_sql(sql, tokenizer::DEFAULT))
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

    fn both_checks(conn: &Connection) -> (Option<String>, Vec<String>) {
        let columns = crate::library::columns::indexed()
            .iter()
            .map(|c| format!("\"{c}\""))
            .collect::<Vec<_>>()
            .join(", ");
        let tokenize = tokenizer::sql_literal(tokenizer::DEFAULT);
        let copy = fts5_content_check(conn, &columns, &tokenize).unwrap();
        conn.execute_batch("drop table temp.recall_check_copy; drop view temp.recall_check_items;")
            .unwrap();
        (copy, compare_indexes(conn, &columns, &tokenize).unwrap())
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
