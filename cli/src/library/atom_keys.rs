//! The keys of the items' atom lines (migration 0008): by them the session hook finds
//! the earlier items holding a command, or an error line, the same under the rule of
//! `masked`, in one indexed lookup. The schema's triggers keep the table from saying
//! anything untrue (a write to an item's atoms removes its keys and makes it pending);
//! this module makes the keys of the pending items, which needs the rule, in Rust.
use std::collections::BTreeSet;

use rusqlite::Connection;
use sha2::Digest;

use super::sql_file::{self, queries};
use crate::error::Result;
use crate::masked;

/// What an atom line is read as: its two keys are of different kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Command,
    Error,
}

/// The tables of the keys, derived from the items as the full-text index is: `check`
/// counts damage to their pages as `recall repair`'s to mend, and repair makes them again.
pub const TABLES: &[&str] = &["items_atom_keys", "items_atom_keys_pending"];
/// The keys' own index (the tables' primary keys aside).
pub const INDEXES: &[&str] = &["items_atom_keys_by_item"];

/// The pending items read at a time.
const BATCH: i64 = 500;

/// The key of a line already read through the rule (`masked::command` or
/// `masked::error`): the first 8 bytes of SHA-256 of its kind and the line. A change to
/// how a key is made needs a migration that makes every item pending again.
pub fn key(kind: Kind, masked: &str) -> i64 {
    let tag = match kind {
        Kind::Command => "command\n",
        Kind::Error => "error\n",
    };
    let digest = sha2::Sha256::new()
        .chain_update(tag.as_bytes())
        .chain_update(masked.as_bytes())
        .finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    i64::from_be_bytes(first)
}

/// The keys of an item's atoms: each line as a command and as an error line, as the
/// hook reads a line of an earlier item on either side.
pub fn keys_of(atoms: &str) -> BTreeSet<i64> {
    let mut out = BTreeSet::new();
    for line in atoms.lines().filter(|l| !l.trim().is_empty()) {
        if let Some(command) = masked::command(line) {
            out.insert(key(Kind::Command, &command));
        }
        out.insert(key(Kind::Error, &masked::error(line)));
    }
    out
}

/// Whether an item's keys are not made yet: the hook does not use the keys then.
pub fn any_pending(conn: &Connection) -> Result<bool> {
    let rows = sql_file::read(conn, queries::ATOM_KEYS_ANY_PENDING, &Vec::new(), |c| {
        c.int("pending")
    })?;
    Ok(rows.first().copied().flatten().unwrap_or(0) != 0)
}

/// Makes the keys of every pending item, in the caller's transaction (every write of
/// recall's commits through it: `turn::WriteTx::commit`); the number of items done. A
/// library from before migration 0008 has nothing to do.
pub fn fill(conn: &Connection) -> rusqlite::Result<usize> {
    if !has_keys(conn)? {
        return Ok(0);
    }
    let mut done = 0;
    loop {
        type Pending = (i64, Option<String>, Option<String>);
        let pending: Vec<Pending> = conn
            .prepare_cached(queries::ATOM_KEYS_PENDING.sql)?
            .query_map(rusqlite::named_params! {":batch": BATCH}, |r| {
                Ok((
                    r.get(0)?,
                    sql_file::lossy(r.get_ref(1)?),
                    sql_file::lossy(r.get_ref(2)?),
                ))
            })?
            .collect::<rusqlite::Result<_>>()?;
        if pending.is_empty() {
            return Ok(done);
        }
        let mut insert = conn.prepare_cached(queries::ATOM_KEYS_INSERT.sql)?;
        let mut finish = conn.prepare_cached(queries::ATOM_KEYS_DONE.sql)?;
        for (id, atoms, date) in &pending {
            // A deleted item (no row) has no keys to make.
            if let (Some(atoms), Some(date)) = (atoms, date) {
                for k in keys_of(atoms) {
                    let at =
                        rusqlite::named_params! {":key": k, ":occurred_at": date, ":item_id": id};
                    insert.execute(at)?;
                }
            }
            finish.execute(rusqlite::named_params! {":item_id": id})?;
        }
        done += pending.len();
    }
}

/// Whether the library has the keys' tables (a library before migration 0008 has not).
fn has_keys(conn: &Connection) -> rusqlite::Result<bool> {
    Ok(tables_present(conn)?.contains(&"items_atom_keys_pending"))
}

/// The keys' tables (`TABLES`) the library has.
pub fn tables_present(conn: &Connection) -> rusqlite::Result<Vec<&'static str>> {
    // Compiled once a connection: every commit of recall's writes asks.
    let mut table =
        conn.prepare_cached("select 1 from sqlite_master where type = 'table' and name = ?1")?;
    let mut out = Vec::new();
    for name in TABLES {
        if table.exists([name])? {
            out.push(*name);
        }
    }
    Ok(out)
}

/// The items whose stored keys are not those of their atom lines (a write that ran
/// without the triggers, keys removed by hand), and the ids of keys of no item; the
/// pending items aside, whose keys are not made yet. Empty on a library from before
/// migration 0008.
pub fn stale(conn: &Connection) -> rusqlite::Result<Vec<i64>> {
    if !has_keys(conn)? {
        return Ok(Vec::new());
    }
    let mut stored = conn.prepare("select key from items_atom_keys where item_id = ?1")?;
    let mut items = conn.prepare(
        "select id, atoms from items
         where id not in (select item_id from items_atom_keys_pending) order by id",
    )?;
    let mut rows = items.query([])?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        let id: i64 = row.get(0)?;
        let want = keys_of(&sql_file::lossy(row.get_ref(1)?).unwrap_or_default());
        let have: BTreeSet<i64> = stored
            .query_map([id], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        if want != have {
            out.push(id);
        }
    }
    let mut orphans = conn.prepare(
        "select distinct item_id from items_atom_keys
         where item_id not in (select id from items) order by item_id",
    )?;
    let orphans: Vec<i64> = orphans
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    out.extend(orphans);
    Ok(out)
}

/// Makes the keys of `ids` again: their keys go and they are pending, for the commit's
/// `fill` (`recall repair`).
pub fn remake(conn: &Connection, ids: &[i64]) -> rusqlite::Result<()> {
    let mut forget = conn.prepare("delete from items_atom_keys where item_id = ?1")?;
    let mut wait = conn.prepare(
        "insert or ignore into items_atom_keys_pending (item_id)
         select id from items where id = ?1 and atoms <> ''",
    )?;
    for id in ids {
        forget.execute([id])?;
        wait.execute([id])?;
    }
    Ok(())
}

/// Lists every item with atoms as pending, its keys to be made again by the commit.
pub fn remake_all(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "delete from items_atom_keys;
         insert or ignore into items_atom_keys_pending (item_id)
         select id from items where atoms <> '';",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_has_a_key_of_each_kind_and_lines_alike_share_them() {
        let a = keys_of("cargo test --workspace\nerror: cannot open src/a.rs: No such file");
        let b = keys_of("cargo test --workspace\nerror: cannot open src/b.rs: No such file");
        assert_eq!(a, b, "paths are masked on both sides");
        // Two lines, each read as a command and as an error line.
        assert_eq!(a.len(), 4);
        assert!(a.contains(&key(Kind::Command, "cargo test --workspace")));
        assert!(a.contains(&key(Kind::Error, "error: cannot open PATH: No such file")));
        // The kinds never share a key: a line read as a command is not the same line read
        // as an error.
        assert_ne!(key(Kind::Command, "make"), key(Kind::Error, "make"));
        assert_ne!(keys_of("cargo test"), keys_of("cargo build"));
        assert!(keys_of("\n  \n").is_empty());
    }

    #[test]
    fn a_key_is_the_same_in_every_build() {
        // Stored keys outlive the binary that made them: the value of one is fixed here,
        // computed apart (`printf 'error\nboom' | sha256sum`, its first 16 hex digits).
        let expected = i64::from_be_bytes(0xc9e8_169d_091f_5564u64.to_be_bytes());
        assert_eq!(key(Kind::Error, "boom"), expected);
    }
}
