//! The items that edited or named a file (`sql/file_items.sql`), newest first.
use super::answer::Answer;
use super::explain::{self, Terms};
use super::params;
use super::rows::FileRow;
use crate::error::Result;
use crate::library::sql_file::{self, queries};
use crate::library::Library;
use crate::settings;

pub fn file_items(
    lib: &Library,
    s: &settings::FileItems,
    explain: bool,
) -> Result<Answer<FileRow>> {
    let params = params::file_items(lib, s);
    let rows = sql_file::read(&lib.conn, queries::FILE_ITEMS, &params, FileRow::read)?;
    let mut answer = Answer::new("search", rows, s.shown());
    if explain {
        answer.explain = Some(explain::build(
            lib,
            &s.allow,
            answer.results.len(),
            Terms::None,
            s.shown(),
        )?);
    }
    Ok(answer.ran(lib, queries::FILE_ITEMS, &params))
}
