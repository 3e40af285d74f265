//! What capture keeps in the library (`sql/migrations/0004_capture.sql`): the item of
//! each captured segment, and the size and time of each file read.
use rusqlite::{params, Connection, OptionalExtension};

/// A segment's record: never captured, captured as an item (made from what the digest
/// says), or its item forgotten.
#[derive(Debug, PartialEq)]
pub enum Origin {
    New,
    Item { id: i64, digest: Option<String> },
    Forgotten,
}

pub fn origin(
    conn: &Connection,
    agent: &str,
    session: &str,
    segment: u32,
) -> rusqlite::Result<Origin> {
    let row: Option<(Option<i64>, Option<String>)> = conn
        .prepare_cached(
            "select item_id, digest from capture_segments where agent = ?1 and session = ?2 and segment = ?3",
        )?
        .query_row(params![agent, session, segment], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    Ok(match row {
        None => Origin::New,
        Some((Some(id), digest)) => Origin::Item { id, digest },
        Some((None, _)) => Origin::Forgotten,
    })
}

/// Removes the item a segment became and the segment's record, unless a person marked
/// the item (a kind, global); whether it was removed.
pub fn drop_unmarked(
    conn: &Connection,
    agent: &str,
    session: &str,
    segment: u32,
    id: i64,
) -> rusqlite::Result<bool> {
    let removed = conn
        .prepare_cached("delete from items where id = ?1 and kind is null and not global")?
        .execute([id])?;
    let gone = removed > 0 || !exists(conn, id)?;
    if gone {
        conn.prepare_cached(
            "delete from capture_segments where agent = ?1 and session = ?2 and segment = ?3",
        )?
        .execute(params![agent, session, segment])?;
    }
    Ok(removed > 0)
}

/// Whether the item is still there (another program may have deleted it).
pub fn exists(conn: &Connection, id: i64) -> rusqlite::Result<bool> {
    conn.prepare_cached("select 1 from items where id = ?1")?
        .exists([id])
}

pub fn record(
    conn: &Connection,
    agent: &str,
    session: &str,
    segment: u32,
    id: i64,
    digest: &str,
) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "insert into capture_segments(agent, session, segment, item_id, digest) values (?1, ?2, ?3, ?4, ?5)
         on conflict do update set item_id = excluded.item_id, digest = excluded.digest",
    )?
    .execute(params![agent, session, segment, id, digest])
    .map(drop)
}

/// The name a file is recorded under: its canonical path, so that the same file named
/// two ways (relative, through a link) is one file read.
pub fn file_key(path: &std::path::Path) -> String {
    std::fs::canonicalize(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .to_string_lossy()
        .to_string()
}

/// A file's size and modification time (nanoseconds), as they are recorded; None when
/// the system gives no modification time.
pub fn stamp(meta: &std::fs::Metadata) -> Option<(i64, i64)> {
    let mtime = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some((meta.len() as i64, mtime.as_nanos() as i64))
}

/// Whether the file was read at this size and time.
pub fn unchanged(
    conn: &Connection,
    path: &str,
    size: i64,
    mtime_ns: i64,
) -> rusqlite::Result<bool> {
    conn.prepare_cached(
        "select 1 from capture_files where path = ?1 and size = ?2 and mtime_ns = ?3",
    )?
    .exists(params![path, size, mtime_ns])
}

/// Whether the file was read by an earlier capture, at any size and time.
pub fn known(conn: &Connection, path: &str) -> rusqlite::Result<bool> {
    conn.prepare_cached("select 1 from capture_files where path = ?1")?
        .exists(params![path])
}

pub fn read_at(conn: &Connection, path: &str, size: i64, mtime_ns: i64) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "insert into capture_files(path, size, mtime_ns) values (?1, ?2, ?3)
         on conflict do update set size = excluded.size, mtime_ns = excluded.mtime_ns",
    )?
    .execute(params![path, size, mtime_ns])
    .map(drop)
}

/// Forgotten items stay forgotten: their segments keep no item, and capture skips them.
pub fn forgotten(conn: &Connection, ids: &[i64]) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare_cached(
        "update capture_segments set item_id = null, digest = null where item_id = ?1",
    )?;
    for id in ids {
        stmt.execute([id])?;
    }
    Ok(())
}
