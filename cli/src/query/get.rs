//! `get`: one item in full, if the caller may read its source (`sql/get.sql`).
//!
//! It reads through `sql_file::read`, as the searches do, so that an item shows the same
//! in both: text that is not valid UTF-8 appears with U+FFFD in place of the bad bytes
//! (`recall check` names such items), and a failure names what is damaged.
use super::answer::{ItemAnswer, ItemsAnswer};
use super::params;
use super::replay::Ran;
use super::rows::ItemRow;
use crate::error::{err, Result};
use crate::library::sql_file::{self, queries};
use crate::library::Library;

/// The answer of `get`; a missing item and one whose source `allow` forbids are the same
/// error.
pub fn get(
    lib: &Library,
    id: i64,
    transcript: bool,
    allow: &Option<Vec<String>>,
) -> Result<ItemAnswer> {
    let params = params::get(&[id], allow, transcript);
    Ok(ItemAnswer {
        command: "get",
        item: item(lib, id, allow, transcript)?,
        ran: Some(Ran {
            query: queries::GET,
            params,
        }),
    })
}

/// The most ids one `get` reads: each item may carry a long transcript.
pub const MAX_IDS: usize = recall_core::defaults::LIST_MAX_LIMIT as usize;

/// The answer of `get` with several ids, read at once: the items the caller may read in
/// the order given (each once), and the other ids, which do not fail the call.
pub fn get_many(
    lib: &Library,
    ids: &[i64],
    transcript: bool,
    allow: &Option<Vec<String>>,
) -> Result<ItemsAnswer> {
    if ids.len() > MAX_IDS {
        return Err(err!(
            "{} ids in one get, more than the {MAX_IDS} allowed: ask for fewer at a time",
            ids.len()
        ));
    }
    let params = params::get(ids, allow, transcript);
    let items = sql_file::read(&lib.conn, queries::GET, &params, ItemRow::read)?;
    let mut missing: Vec<i64> = Vec::new();
    for id in ids {
        if !items.iter().any(|i| i.id == *id) && !missing.contains(id) {
            missing.push(*id);
        }
    }
    Ok(ItemsAnswer {
        command: "get",
        items,
        missing,
        ran: Some(Ran {
            query: queries::GET,
            params,
        }),
    })
}

/// The item, with its transcript when asked; the error of `get` when there is none.
pub(super) fn item(
    lib: &Library,
    id: i64,
    allow: &Option<Vec<String>>,
    transcript: bool,
) -> Result<ItemRow> {
    let rows = sql_file::read(
        &lib.conn,
        queries::GET,
        &params::get(&[id], allow, transcript),
        ItemRow::read,
    )?;
    rows.into_iter().next().ok_or_else(|| missing(lib, id))
}

/// The error of an id that names no item the caller may read: a forbidden item and a
/// missing one alike.
pub fn missing(lib: &Library, id: i64) -> crate::error::Error {
    err!("no item {id} in {}", lib.path.display())
}
