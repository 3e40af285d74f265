//! Registers every entry of `recall_core::FUNCTIONS` through sqlite-loadable, converting
//! values at the boundary and nothing more.
use std::borrow::Cow;
use std::ffi::CStr;
use std::rc::Rc;

use recall_core::{FunctionSpec, Host, Output, Value, FUNCTIONS};
use sqlite_loadable::api;
use sqlite_loadable::ext::{
    sqlite3ext_bind_pointer, sqlite3ext_column_text, sqlite3ext_finalize, sqlite3ext_prepare_v2,
    sqlite3ext_result_double, sqlite3ext_result_error, sqlite3ext_result_int64, sqlite3ext_step,
    sqlite3ext_value_bytes, sqlite3ext_value_double, sqlite3ext_value_text, sqlite3ext_value_type,
};
use sqlite_loadable::prelude::*;
use sqlite_loadable::{define_scalar_function_with_aux, FunctionFlags};

const SQLITE_ROW: i32 = 100;

pub fn register_all(db: *mut sqlite3) -> sqlite_loadable::Result<()> {
    let host = Rc::new(Host {
        sqlite_version: host_sqlite_version(db),
    });
    for spec in FUNCTIONS {
        for arity in spec.arities() {
            let mut flags = FunctionFlags::UTF8 | FunctionFlags::INNOCUOUS;
            if spec.is_deterministic(arity) {
                flags |= FunctionFlags::DETERMINISTIC;
            }
            define_scalar_function_with_aux(
                db,
                spec.name,
                arity as i32,
                call,
                flags,
                (spec, Rc::clone(&host)),
            )?;
        }
    }
    register_tokenizer(db)
}

/// The SQLite calls `recall_bm25` makes, through the host's routines.
static CALLS: recall_fts5::bm25::SqliteCalls = recall_fts5::bm25::SqliteCalls {
    value_type: |v| unsafe { sqlite3ext_value_type(v.cast()) },
    value_double: |v| unsafe { sqlite3ext_value_double(v.cast()) },
    value_text: |v| unsafe { sqlite3ext_value_text(v.cast()) },
    value_bytes: |v| unsafe { sqlite3ext_value_bytes(v.cast()) },
    result_double: |c, d| unsafe { sqlite3ext_result_double(c.cast(), d) },
    result_int64: |c, i| unsafe { sqlite3ext_result_int64(c.cast(), i) },
    result_error: |c, m, n| unsafe { sqlite3ext_result_error(c.cast(), m, n) },
};

/// Registers the `recall` FTS5 tokenizer (`tokenize = 'recall'`) and the `recall_bm25`
/// auxiliary function when the host has FTS5; without FTS5 there is nothing to tokenize
/// or rank, and the functions still load.
fn register_tokenizer(db: *mut sqlite3) -> sqlite_loadable::Result<()> {
    let mut api: *mut std::ffi::c_void = std::ptr::null_mut();
    // SAFETY: fts5.h's way to reach the fts5_api: bind a pointer to `api` under the
    // type name fts5() checks, step once; the statement is finalized before returning.
    let rc = unsafe {
        let mut stmt = std::ptr::null_mut();
        let sql = recall_fts5::API_QUERY;
        if sqlite3ext_prepare_v2(db, sql.as_ptr(), -1, &mut stmt, std::ptr::null_mut()) != 0
            || stmt.is_null()
        {
            return Ok(());
        }
        let kind = recall_fts5::API_POINTER_TYPE;
        sqlite3ext_bind_pointer(
            stmt,
            1,
            (&mut api as *mut *mut std::ffi::c_void).cast(),
            kind.as_ptr(),
        );
        sqlite3ext_step(stmt);
        sqlite3ext_finalize(stmt);
        match recall_fts5::register_tokenizer(api) {
            0 => recall_fts5::register_bm25(api, &CALLS),
            rc => rc,
        }
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(sqlite_loadable::Error::new_message(
            "registering the recall FTS5 tokenizer and recall_bm25 failed",
        ))
    }
}

fn call(
    context: *mut sqlite3_context,
    values: &[*mut sqlite3_value],
    aux: &(&'static FunctionSpec, Rc<Host>),
) -> sqlite_loadable::Result<()> {
    let (spec, host) = aux;
    let args: Vec<Value> = values.iter().map(read_value).collect();
    match spec.invoke(&args, host) {
        Ok(Output::Null) => api::result_null(context),
        Ok(Output::Integer(i)) => api::result_int64(context, i),
        Ok(Output::Real(r)) => api::result_double(context, r),
        Ok(Output::Text(t)) => api::result_text(context, t)?,
        // A message with NUL cannot cross as a C string; values are quoted escaped.
        Err(message) => api::result_error(context, &message.replace('\0', "\\0"))?,
    }
    Ok(())
}

fn read_value<'a>(value: &'a *mut sqlite3_value) -> Value<'a> {
    match api::value_type(value) {
        api::ValueType::Null => Value::Null,
        api::ValueType::Integer => Value::Integer(api::value_int64(value)),
        api::ValueType::Float => Value::Real(api::value_double(value)),
        api::ValueType::Text => Value::Text(read_text(value)),
        api::ValueType::Blob => Value::Blob(read_blob(value)),
    }
}

/// Text bytes, read with the length SQLite reports (text may hold NUL), invalid UTF-8
/// replaced rather than refused: a search box must take whatever arrives.
fn read_text<'a>(value: &'a *mut sqlite3_value) -> Cow<'a, str> {
    // SAFETY: SQLite owns the value for the duration of the call; `text` is requested
    // before `bytes`, as the SQLite documentation prescribes.
    let bytes: &'a [u8] = unsafe {
        let p = sqlite3ext_value_text(*value);
        let n = sqlite3ext_value_bytes(*value);
        if p.is_null() || n <= 0 {
            &[]
        } else {
            std::slice::from_raw_parts(p, n as usize)
        }
    };
    String::from_utf8_lossy(bytes)
}

fn read_blob(value: &*mut sqlite3_value) -> &[u8] {
    if api::value_bytes(value) <= 0 {
        &[]
    } else {
        api::value_blob(value)
    }
}

/// The host's `sqlite_version()`, asked once at load time for `recall_debug()`.
fn host_sqlite_version(db: *mut sqlite3) -> String {
    let sql = c"select sqlite_version()";
    let mut version = String::from("unknown");
    // SAFETY: a plain prepare/step/finalize on the connection that is loading us.
    unsafe {
        let mut stmt = std::ptr::null_mut();
        if sqlite3ext_prepare_v2(db, sql.as_ptr(), -1, &mut stmt, std::ptr::null_mut()) != 0
            || stmt.is_null()
        {
            return version;
        }
        if sqlite3ext_step(stmt) == SQLITE_ROW {
            let text = sqlite3ext_column_text(stmt, 0);
            if !text.is_null() {
                version = CStr::from_ptr(text.cast()).to_string_lossy().into_owned();
            }
        }
        sqlite3ext_finalize(stmt);
    }
    version
}
