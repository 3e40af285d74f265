//! `get`: one item in full, if the caller may read its source (`sql/get.sql`).
//!
//! It reads through `sql_file::read`, as the searches do, so that an item shows the same
//! in both: text that is not valid UTF-8 appears with U+FFFD in place of the bad bytes
//! (`recall check` names such items), and a failure names what is damaged.
use super::answer::ItemAnswer;
use super::params;
use super::rows::ItemRow;
use super::sql_file::{self, queries};
use crate::err;
use crate::error::Result;
use crate::library::Library;

/// The answer of `get`; a missing item and one whose source `allow` forbids are the same
/// error.
pub fn get(
    lib: &Library,
    id: i64,
    transcript: bool,
    allow: &Option<Vec<String>>,
) -> Result<ItemAnswer> {
    Ok(ItemAnswer {
        command: "get",
        item: item(lib, id, allow, transcript)?,
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
        &params::get(id, allow, transcript),
        ItemRow::read,
    )?;
    rows.into_iter()
        .next()
        .ok_or_else(|| err!("no item {id} in {}", lib.path.display()))
}
