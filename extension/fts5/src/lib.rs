//! The `recall` FTS5 tokenizer and the auxiliary functions (`recall_bm25`,
//! `recall_bm25_text`, `recall_fts5_rows`, `recall_fts5_columns`) as FTS5 calls them: the C structures of `fts5.h` they need, and the callbacks over
//! [`recall_core::tokenize`] and [`recall_core::bm25`]. It links no SQLite: each adapter
//! asks its own connection for the `fts5_api` pointer (`SELECT fts5(?1)` with
//! `sqlite3_bind_pointer`, the way `fts5.h` prescribes) and hands it to
//! [`register_tokenizer`] and [`register_bm25`], with the SQLite calls a function needs.
//! No panic crosses into SQLite: each callback catches one and answers an error.
pub mod bm25;
pub mod bm25_text;
pub mod columns;
pub mod rows;
mod trigram_text;

use std::ffi::{c_char, c_int, c_void, CStr};
use std::ops::ControlFlow;
use std::panic::{catch_unwind, AssertUnwindSafe};

use recall_core::tokenize::{tokenize_bytes, Mode};

/// The name a table gives in `tokenize = 'recall'`.
pub const NAME: &CStr = c"recall";
/// The type name `fts5()` requires of the pointer bound to it.
pub const API_POINTER_TYPE: &CStr = c"fts5_api_ptr";
/// The statement that hands back the `fts5_api` pointer through its bound parameter.
pub const API_QUERY: &CStr = c"select fts5(?1)";

const SQLITE_OK: c_int = 0;
const SQLITE_ERROR: c_int = 1;
const SQLITE_NOMEM: c_int = 7;
const SQLITE_DONE: c_int = 101;
const FTS5_TOKENIZE_QUERY: c_int = 0x0001;
const FTS5_TOKEN_COLOCATED: c_int = 0x0001;

/// `Fts5Tokenizer`: opaque to FTS5; ours holds nothing, the tokenizer has no options.
#[repr(C)]
pub struct Fts5Tokenizer {
    _unused: u8,
}

type XToken = unsafe extern "C" fn(*mut c_void, c_int, *const c_char, c_int, c_int, c_int) -> c_int;

/// `fts5_tokenizer` (version 1, which every FTS5 since 3.9 accepts).
#[repr(C)]
pub struct Fts5TokenizerV1 {
    pub x_create: Option<
        unsafe extern "C" fn(
            *mut c_void,
            *mut *const c_char,
            c_int,
            *mut *mut Fts5Tokenizer,
        ) -> c_int,
    >,
    pub x_delete: Option<unsafe extern "C" fn(*mut Fts5Tokenizer)>,
    pub x_tokenize: Option<
        unsafe extern "C" fn(
            *mut Fts5Tokenizer,
            *mut c_void,
            c_int,
            *const c_char,
            c_int,
            Option<XToken>,
        ) -> c_int,
    >,
}

/// The head of `fts5_api` up to `xCreateFunction`: the entries every version of the
/// structure starts with, in this order.
#[repr(C)]
pub struct Fts5Api {
    pub i_version: c_int,
    pub x_create_tokenizer: Option<
        unsafe extern "C" fn(
            *mut Fts5Api,
            *const c_char,
            *mut c_void,
            *mut Fts5TokenizerV1,
            Option<unsafe extern "C" fn(*mut c_void)>,
        ) -> c_int,
    >,
    pub x_find_tokenizer: Option<unsafe extern "C" fn()>,
    pub x_create_function: Option<
        unsafe extern "C" fn(
            *mut Fts5Api,
            *const c_char,
            *mut c_void,
            Option<bm25::AuxFunction>,
            Option<unsafe extern "C" fn(*mut c_void)>,
        ) -> c_int,
    >,
}

/// The auxiliary functions, each with the name SQL calls it by.
pub const AUXILIARY: [(&CStr, bm25::AuxFunction); 4] = [
    (bm25::NAME, bm25::FUNCTION),
    (bm25_text::NAME, bm25_text::FUNCTION),
    (rows::NAME, rows::function),
    (columns::NAME, columns::function),
];

/// Registers the auxiliary functions (`recall_bm25`, `recall_bm25_text`,
/// `recall_fts5_rows`) with the FTS5 behind `api`, reading their arguments and setting
/// their results through `calls`; returns SQLite's code.
///
/// # Safety
/// `api` is null or the pointer `SELECT fts5(?1)` handed back on a live connection.
pub unsafe fn register_bm25(api: *mut c_void, calls: &'static bm25::SqliteCalls) -> c_int {
    let api = api.cast::<Fts5Api>();
    if api.is_null() {
        return SQLITE_ERROR;
    }
    // SAFETY: FTS5 fills `api`; version 2 and later hold xCreateFunction.
    let Some(create) = (unsafe { (*api).i_version >= 2 })
        .then(|| unsafe { (*api).x_create_function })
        .flatten()
    else {
        return SQLITE_ERROR;
    };
    let user = (calls as *const bm25::SqliteCalls)
        .cast_mut()
        .cast::<c_void>();
    for (name, function) in AUXILIARY {
        // SAFETY: the names are static C strings; `calls` lives as long as the program.
        let rc = unsafe { create(api, name.as_ptr(), user, Some(function), None) };
        if rc != SQLITE_OK {
            return rc;
        }
    }
    SQLITE_OK
}

/// Registers the `recall` tokenizer with the FTS5 behind `api`; returns SQLite's code.
///
/// # Safety
/// `api` is null or the pointer `SELECT fts5(?1)` handed back on a live connection.
pub unsafe fn register_tokenizer(api: *mut c_void) -> c_int {
    let api = api.cast::<Fts5Api>();
    if api.is_null() {
        return SQLITE_ERROR;
    }
    // SAFETY: FTS5 fills `api`; version 2 and later start with xCreateTokenizer.
    let Some(create) = (unsafe { (*api).i_version >= 2 })
        .then(|| unsafe { (*api).x_create_tokenizer })
        .flatten()
    else {
        return SQLITE_ERROR;
    };
    let mut callbacks = Fts5TokenizerV1 {
        x_create: Some(x_create),
        x_delete: Some(x_delete),
        x_tokenize: Some(x_tokenize),
    };
    // SAFETY: FTS5 copies the structure; the name is a static C string.
    unsafe {
        create(
            api,
            NAME.as_ptr(),
            std::ptr::null_mut(),
            &mut callbacks,
            None,
        )
    }
}

/// `xCreate`: the tokenizer takes no options, and refuses any, so a typo in
/// `tokenize = 'recall …'` fails at `CREATE` instead of being ignored.
unsafe extern "C" fn x_create(
    _user: *mut c_void,
    _args: *mut *const c_char,
    n_args: c_int,
    out: *mut *mut Fts5Tokenizer,
) -> c_int {
    if out.is_null() {
        return SQLITE_ERROR;
    }
    if n_args != 0 {
        // SAFETY: checked non-null above.
        unsafe { *out = std::ptr::null_mut() };
        return SQLITE_ERROR;
    }
    let handle = Box::into_raw(Box::new(Fts5Tokenizer { _unused: 0 }));
    // SAFETY: checked non-null above.
    unsafe { *out = handle };
    SQLITE_OK
}

unsafe extern "C" fn x_delete(handle: *mut Fts5Tokenizer) {
    if !handle.is_null() {
        // SAFETY: made by `x_create` with Box::into_raw, deleted once by FTS5.
        drop(unsafe { Box::from_raw(handle) });
    }
}

unsafe extern "C" fn x_tokenize(
    _handle: *mut Fts5Tokenizer,
    ctx: *mut c_void,
    flags: c_int,
    text: *const c_char,
    n_text: c_int,
    x_token: Option<XToken>,
) -> c_int {
    let Some(x_token) = x_token else {
        return SQLITE_ERROR;
    };
    let bytes: &[u8] = if text.is_null() || n_text <= 0 {
        &[]
    } else {
        // SAFETY: FTS5 passes `n_text` readable bytes at `text` for this call.
        unsafe { std::slice::from_raw_parts(text.cast::<u8>(), n_text as usize) }
    };
    let mode = if flags & FTS5_TOKENIZE_QUERY != 0 {
        Mode::Query
    } else {
        Mode::Document
    };
    let mut rc = SQLITE_OK;
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        tokenize_bytes(bytes, mode, &mut |token| {
            let (Ok(len), Ok(start), Ok(end)) = (
                c_int::try_from(token.text.len()),
                c_int::try_from(token.start),
                c_int::try_from(token.end),
            ) else {
                rc = SQLITE_NOMEM;
                return ControlFlow::Break(());
            };
            let tflags = if token.colocated {
                FTS5_TOKEN_COLOCATED
            } else {
                0
            };
            // SAFETY: FTS5's callback, with its context, during this call.
            rc = unsafe { x_token(ctx, tflags, token.text.as_ptr().cast(), len, start, end) };
            if rc == SQLITE_OK {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        })
    }));
    match outcome {
        // FTS5 stops a tokenizer early with SQLITE_DONE; that is not a failure.
        Ok(_) if rc == SQLITE_DONE => SQLITE_OK,
        Ok(_) => rc,
        Err(_) => SQLITE_ERROR,
    }
}
