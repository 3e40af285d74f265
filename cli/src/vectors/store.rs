//! Where vectors live: sqlite-vec's `vec0` table `item_vectors`, one row per item (its
//! rowid the item's id), the context each was made with in `item_vector_contexts`, and
//! the model and dimensions in `recall_meta`. The tables are made on demand (`recall
//! embed`), never by a migration: a library without vectors is exactly what it was, and
//! hosts without sqlite-vec read it as before.
use std::ffi::{c_char, c_int};

use rusqlite::{ffi, Connection, OptionalExtension};

use crate::error::{err, Context, Result};

pub const TABLE: &str = "item_vectors";

/// The neighbours' titles (`items.context`) each vector of `recall embed` was made with,
/// in a plain table beside the vectors: an item whose neighbours changed since is
/// embedded again, and `forget` removes every vector made with a forgotten item's
/// title. A vector without a row here (given with its item, or made before vectors held
/// the context) is not compared.
pub const CONTEXTS: &str = "item_vector_contexts";

pub use crate::item::MAX_DIMENSIONS;

/// The model and dimensions a library's vectors were made with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Store {
    pub model: String,
    pub dimensions: usize,
}

type VecInit = unsafe extern "C" fn(
    *mut ffi::sqlite3,
    *mut *mut c_char,
    *const ffi::sqlite3_api_routines,
) -> c_int;

/// Gives the connection sqlite-vec's functions and `vec0` module, compiled into this
/// binary (against the same SQLite, so the routines argument is not used).
pub fn register(conn: &Connection) -> Result<()> {
    // SAFETY: sqlite3_vec_init is sqlite-vec's C entry point, declared by its crate
    // without arguments; this is its real signature. The handle is the open connection's.
    let rc = unsafe {
        let init: VecInit = std::mem::transmute(sqlite_vec::sqlite3_vec_init as *const ());
        init(conn.handle(), std::ptr::null_mut(), std::ptr::null())
    };
    if rc != ffi::SQLITE_OK {
        return Err(err!(
            "registering sqlite-vec failed (SQLite error code {rc})"
        ));
    }
    Ok(())
}

/// Whether the library has a vector table (its record not read).
pub fn exists(conn: &Connection) -> Result<bool> {
    table_exists(conn, TABLE).context("looking for the vector table")
}

/// Whether the library has the table of the vectors' contexts (libraries embedded before
/// it existed have vectors without it, until `recall embed` makes it).
pub fn contexts_exist(conn: &Connection) -> rusqlite::Result<bool> {
    table_exists(conn, CONTEXTS)
}

// Compiled once a connection: a capture asks at every file it writes.
fn table_exists(conn: &Connection, name: &str) -> rusqlite::Result<bool> {
    conn.prepare_cached("select 1 from sqlite_master where type = 'table' and name = ?1")?
        .exists([name])
}

/// Makes the table of the vectors' contexts when the library lacks it (in the caller's
/// transaction).
pub fn ensure_contexts(conn: &Connection) -> Result<()> {
    conn.execute_batch(&format!(
        "create table if not exists {CONTEXTS} (id integer primary key, context text not null)"
    ))
    .context("making the table of the vectors' contexts")
}

/// The library's vector record, or None when it has no vector table.
pub fn read(conn: &Connection) -> Result<Option<Store>> {
    let doing = "reading the library's vector record";
    if !exists(conn)? {
        return Ok(None);
    }
    let get = |key: &str| -> Result<Option<String>> {
        conn.prepare_cached("select value from recall_meta where key = ?1")
            .and_then(|mut s| s.query_row([key], |r| r.get(0)).optional())
            .context(doing)
    };
    let (Some(model), Some(dims)) = (get("vector_model")?, get("vector_dimensions")?) else {
        return Err(err!(
            "the library has a vector table but recall_meta records no model or dimensions for it: `recall embed --drop` removes the vectors, then embed again"
        ));
    };
    let dimensions = dims.parse::<usize>().map_err(|_| {
        err!("the library's recall_meta records {dims:?} as vector_dimensions, which is not a number: `recall embed --drop` removes the vectors, then embed again")
    })?;
    Ok(Some(Store { model, dimensions }))
}

/// Makes the vector table and its record (in the caller's transaction).
pub fn create(conn: &Connection, model: &str, dimensions: usize) -> Result<Store> {
    let doing = "making the vector table";
    // The item's imported_at when it was embedded: an item replaced since has a newer
    // one, and is embedded again.
    conn.execute_batch(&format!(
        "create virtual table {TABLE} using vec0(
           embedding float[{dimensions}] distance_metric=cosine,
           +item_imported_at text)"
    ))
    .context(doing)?;
    // Records left by a vector table dropped by hand are of no vector now.
    ensure_contexts(conn)?;
    conn.execute(&format!("delete from {CONTEXTS}"), [])
        .context(doing)?;
    // Replacing a record the table had lost (dropped by hand, not by `--drop`).
    conn.execute(
        "insert or replace into recall_meta(key, value) values ('vector_model', ?1), ('vector_dimensions', ?2)",
        (model, dimensions.to_string()),
    )
    .context(doing)?;
    Ok(Store {
        model: model.to_string(),
        dimensions,
    })
}

/// Removes the vector table and its record (in the caller's transaction).
pub fn drop(conn: &Connection) -> Result<()> {
    let doing = "removing the vector table";
    conn.execute_batch(&format!(
        "drop table if exists {TABLE};
         drop table if exists {CONTEXTS};
         delete from recall_meta where key in ('vector_model', 'vector_dimensions');"
    ))
    .context(doing)
}

impl Store {
    /// Refuses vectors of another model or size than the library's, with the fix.
    pub fn check(&self, model: &str, dimensions: usize, from: &str) -> Result<()> {
        if model == self.model && dimensions == self.dimensions {
            return Ok(());
        }
        Err(err!(
            "{from} gives vectors of model {model:?} with {dimensions} dimensions, but the library's are of model {:?} with {}: use that embedder, or `recall embed --drop` to remove the library's vectors and embed again",
            self.model,
            self.dimensions
        ))
    }
}

/// Deletes the vectors of these items (forget), and every vector whose recorded context
/// is no longer its item's ([`drop_stale`]): among them each made with a forgotten title
/// among the neighbours' (the items whose context the forget changed). Run after the
/// items' rows are deleted, when the triggers have brought every context in step.
pub fn forget(conn: &Connection, ids: &[i64]) -> Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    drop_with_stale(conn, ids.to_vec())
}

/// Deletes every vector whose recorded context is no longer its item's, with its
/// record, and the records of items deleted outside recall, which may hold a
/// neighbour's title too: a vector holds no title its item's context does not. Erring on
/// the safe side, a vector made before an import moved its item's neighbours goes as
/// well; the next `recall embed` makes them all again.
pub fn drop_stale(conn: &Connection) -> Result<()> {
    drop_with_stale(conn, Vec::new())
}

fn drop_with_stale(conn: &Connection, mut gone: Vec<i64>) -> Result<()> {
    let doing = "removing vectors made with other neighbours' titles";
    let vectors = exists(conn)?;
    let contexts = contexts_exist(conn).context(doing)?;
    if contexts {
        let mut stmt = conn
            .prepare(&format!(
                "select c.id from {CONTEXTS} as c left join items as i on i.id = c.id
                 where i.id is null or c.context <> i.context"
            ))
            .context(doing)?;
        let changed = stmt
            .query_map([], |r| r.get::<_, i64>(0))
            .and_then(|rows| rows.collect::<rusqlite::Result<Vec<i64>>>())
            .context(doing)?;
        gone.extend(changed);
    }
    remove(conn, &gone, Tables { vectors, contexts }).context(doing)
}

/// Which of the two tables a library has (`exists`, `contexts_exist`).
#[derive(Debug, Clone, Copy)]
pub struct Tables {
    pub vectors: bool,
    pub contexts: bool,
}

/// Deletes these items' vectors and the records of their contexts, from the tables the
/// library has.
pub fn remove(conn: &Connection, ids: &[i64], tables: Tables) -> rusqlite::Result<()> {
    if tables.vectors {
        let mut vectors = conn.prepare_cached(&format!("delete from {TABLE} where rowid = ?1"))?;
        for id in ids {
            vectors.execute([id])?;
        }
    }
    if tables.contexts {
        let mut contexts = conn.prepare_cached(&format!("delete from {CONTEXTS} where id = ?1"))?;
        for id in ids {
            contexts.execute([id])?;
        }
    }
    Ok(())
}
