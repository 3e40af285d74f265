//! `recall_fts5_rows(table)`: the rows the FTS5 table holds, from FTS5's own totals
//! (`xRowCount`, the N of `bm25()`): one read of a record FTS5 keeps up to date, where
//! `count(*)` of the table or its content reads every row. `sql/related.sql` reads a
//! library's size with it before each first prompt.
use std::ffi::{c_int, c_void, CStr};

use crate::bm25::{answer_table_alone, row_count, Ctx, Fts5ExtensionApi, Value};

/// The name SQL calls it by.
pub const NAME: &CStr = c"recall_fts5_rows";

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
        answer_table_alone("recall_fts5_rows", api, ctx, result, n, |api| {
            row_count(api, ctx).map(Value::Integer)
        })
    }
}
