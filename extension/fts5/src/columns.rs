//! `recall_fts5_columns(table)`: the columns in which the current row holds a phrase of
//! the query, as a bit mask (bit `i` for column `i`, the first 63 columns), from FTS5's
//! own instances of the phrases (`xInst`). `sql/related.sql` queries a word with no
//! column filter and keeps the rows that hold it among an item's own columns
//! (`recall_fts5_columns(items_fts) & 31`, title to project, not the neighbours' titles):
//! FTS5 filters the positions of every entry it steps through by a filter of several
//! columns, where this reads only those of the rows found. The rows kept are the rows
//! the filter finds, wherever the query is one phrase or phrases joined by OR.
use std::ffi::{c_int, c_void, CStr};

use crate::bm25::{answer_table_alone, failed, Ctx, Fts5ExtensionApi, Value, SQLITE_OK};

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

/// The mask of the columns of the row's instances of the query's phrases.
///
/// # Safety
/// FTS5's API and context of the current call.
unsafe fn columns(api: &Fts5ExtensionApi, ctx: Ctx) -> Result<i64, String> {
    let (Some(inst_count), Some(inst)) = (api.x_inst_count, api.x_inst) else {
        return Err("this FTS5 lacks the extension API it needs".into());
    };
    let mut count: c_int = 0;
    // SAFETY: FTS5's callback, with its context.
    let rc = unsafe { inst_count(ctx, &mut count) };
    if rc != SQLITE_OK {
        return Err(failed("xInstCount", rc));
    }
    let mut mask = 0i64;
    for i in 0..count {
        let (mut phrase, mut column, mut offset) = (0, 0, 0);
        // SAFETY: FTS5's callback, with its context; `i` below its count.
        let rc = unsafe { inst(ctx, i, &mut phrase, &mut column, &mut offset) };
        if rc != SQLITE_OK {
            return Err(failed("xInst", rc));
        }
        if (0..63).contains(&column) {
            mask |= 1 << column;
        }
    }
    Ok(mask)
}
