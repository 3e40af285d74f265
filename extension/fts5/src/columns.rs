//! `recall_fts5_columns(table)`: the columns in which the current row holds a phrase of
//! the query, as a bit mask (bit `i` for column `i`, the first 63 columns), from FTS5's
//! own places of the phrases. `sql/related.sql` queries a word with no
//! column filter and keeps the rows that hold it among an item's own columns
//! (`recall_fts5_columns(items_fts) & 31`, title to project, not the neighbours' titles):
//! FTS5 filters the positions of every entry it steps through by a filter of several
//! columns, where this reads only those of the rows found. The rows kept are the rows
//! the filter finds, wherever the query is one phrase or phrases joined by OR.
use std::ffi::{c_int, c_void, CStr};

use crate::bm25::{
    answer_table_alone, failed, Ctx, Fts5ExtensionApi, Fts5PhraseIter, Value, SQLITE_OK,
};

/// The name SQL calls it by.
pub const NAME: &CStr = c"recall_fts5_columns";

/// The C entry FTS5 calls.
///
/// # Safety
/// FTS5's API, context, result and values of the current call.
pub unsafe extern "C" fn function(
    api: *const Fts5ExtensionApi,
    ctx: Ctx,
    result: *mut c_void,
    n: c_int,
    _values: *mut *mut c_void,
) {
    // SAFETY: FTS5's API, context and result of this call.
    unsafe {
        answer_table_alone("recall_fts5_columns", api, ctx, result, n, |api| {
            columns(api, ctx).map(Value::Integer)
        })
    }
}

/// The mask of the columns of the row's places of the query's phrases, from each
/// phrase's columns (`xPhraseFirstColumn`, FTS5's API from version 2, SQLite 3.11):
/// FTS5 steps from column to column of the phrase's positions. (`xInst` first gathers
/// every place of every phrase into one array: of the queries of the 1,056 words of 40
/// long prompts, each alone under trigram, the function took 22% of the time so, 17%
/// this way.)
///
/// # Safety
/// FTS5's API and context of the current call.
unsafe fn columns(api: &Fts5ExtensionApi, ctx: Ctx) -> Result<i64, String> {
    // (The fields of version 2 are read only once the version says they are there.)
    if api.i_version < 2 {
        return Err("this FTS5 lacks the extension API it needs".into());
    }
    let (Some(count), Some(first), Some(next)) = (
        api.x_phrase_count,
        api.x_phrase_first_column,
        api.x_phrase_next_column,
    ) else {
        return Err("this FTS5 lacks the extension API it needs".into());
    };
    let mut mask = 0i64;
    // SAFETY: FTS5's callbacks, with its context, during the call it made; the iterator
    // is FTS5's to fill.
    unsafe {
        for phrase in 0..count(ctx) {
            let mut iter = Fts5PhraseIter {
                a: std::ptr::null(),
                b: std::ptr::null(),
            };
            let mut column: c_int = -1;
            let rc = first(ctx, phrase, &mut iter, &mut column);
            if rc != SQLITE_OK {
                return Err(failed("xPhraseFirstColumn", rc));
            }
            while column >= 0 {
                mask |= bit(column);
                next(ctx, &mut iter, &mut column);
            }
        }
    }
    Ok(mask)
}

/// Column `column`'s bit, none past the 63rd.
fn bit(column: c_int) -> i64 {
    if (0..63).contains(&column) {
        1 << column
    } else {
        0
    }
}
