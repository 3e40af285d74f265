//! The sqlite-recall SQL functions on a [rusqlite] connection, without a loadable
//! library: every entry of `recall_core::FUNCTIONS`, registered by the same table that
//! drives the loadable extension, so both give the same answers. The `recall` CLI
//! registers its functions with this call.
//!
//! ```
//! use rusqlite::Connection;
//!
//! let conn = Connection::open_in_memory()?;
//! sqlite_recall_rusqlite::register(&conn)?;
//! let version: String = conn.query_row("select recall_version()", [], |r| r.get(0))?;
//! assert_eq!(version, format!("v{}", sqlite_recall_rusqlite::VERSION));
//! // Any text becomes a MATCH expression FTS5 accepts: operators are quoted as text.
//! let m: String = conn.query_row("select recall_match('NEAR(a b) OR col:x')", [], |r| r.get(0))?;
//! assert_eq!(m, r#""NEAR(a" OR "col:x""#);
//! # Ok::<(), rusqlite::Error>(())
//! ```
use recall_core::{FunctionSpec, Host, Output, Value, FUNCTIONS};
use rusqlite::functions::{Context, FunctionFlags};
use rusqlite::types::{Value as SqlValue, ValueRef};
use rusqlite::{Connection, Error, Result};

// The README's Rust example runs as a doc-test, as written there.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeExamples;

/// The version of the functions, as `recall_version()` gives it without its `v`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Registers every `recall_*` function on `conn`, for each of its arities, with the
/// flags of the table (deterministic where the result depends on the arguments alone;
/// innocuous). Errors only when SQLite refuses a registration.
pub fn register(conn: &Connection) -> Result<()> {
    let host = Host {
        sqlite_version: rusqlite::version().to_string(),
    };
    for spec in FUNCTIONS {
        for arity in spec.arities() {
            let mut flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_INNOCUOUS;
            if spec.is_deterministic(arity) {
                flags |= FunctionFlags::SQLITE_DETERMINISTIC;
            }
            let host = host.clone();
            conn.create_scalar_function(spec.name, arity as i32, flags, move |ctx| {
                call(spec, &host, ctx)
            })?;
        }
    }
    register_tokenizer(conn)
}

/// The SQLite calls `recall_bm25` makes.
static CALLS: recall_fts5::bm25::SqliteCalls = recall_fts5::bm25::SqliteCalls {
    value_type: |v| unsafe { rusqlite::ffi::sqlite3_value_type(v.cast()) },
    value_double: |v| unsafe { rusqlite::ffi::sqlite3_value_double(v.cast()) },
    value_text: |v| unsafe { rusqlite::ffi::sqlite3_value_text(v.cast()) },
    value_bytes: |v| unsafe { rusqlite::ffi::sqlite3_value_bytes(v.cast()) },
    result_double: |c, d| unsafe { rusqlite::ffi::sqlite3_result_double(c.cast(), d) },
    result_int64: |c, i| unsafe { rusqlite::ffi::sqlite3_result_int64(c.cast(), i) },
    result_error: |c, m, n| unsafe { rusqlite::ffi::sqlite3_result_error(c.cast(), m, n) },
};

/// Registers the `recall` FTS5 tokenizer (`tokenize = 'recall'`) and the `recall_bm25`
/// auxiliary function when the SQLite has FTS5; without FTS5 there is nothing to
/// tokenize or rank, and the functions still work.
fn register_tokenizer(conn: &Connection) -> Result<()> {
    use rusqlite::ffi;
    use std::ffi::c_void;
    let mut api: *mut c_void = std::ptr::null_mut();
    // SAFETY: fts5.h's way to reach the fts5_api: bind a pointer to `api` under the
    // type name fts5() checks, step once; the statement is finalized before returning.
    let rc = unsafe {
        let db = conn.handle();
        let mut stmt = std::ptr::null_mut();
        let prepared = ffi::sqlite3_prepare_v2(
            db,
            recall_fts5::API_QUERY.as_ptr(),
            -1,
            &mut stmt,
            std::ptr::null_mut(),
        );
        if prepared != ffi::SQLITE_OK || stmt.is_null() {
            return Ok(());
        }
        ffi::sqlite3_bind_pointer(
            stmt,
            1,
            (&mut api as *mut *mut c_void).cast(),
            recall_fts5::API_POINTER_TYPE.as_ptr(),
            None,
        );
        ffi::sqlite3_step(stmt);
        ffi::sqlite3_finalize(stmt);
        match recall_fts5::register_tokenizer(api) {
            ffi::SQLITE_OK => recall_fts5::register_bm25(api, &CALLS),
            rc => rc,
        }
    };
    if rc == ffi::SQLITE_OK {
        Ok(())
    } else {
        Err(Error::SqliteFailure(
            ffi::Error::new(rc),
            Some("registering the recall FTS5 tokenizer and recall_bm25".into()),
        ))
    }
}

fn call(spec: &FunctionSpec, host: &Host, ctx: &Context) -> Result<SqlValue> {
    let args: Vec<Value> = (0..ctx.len()).map(|i| read_value(ctx.get_raw(i))).collect();
    match spec.invoke(&args, host) {
        Ok(Output::Null) => Ok(SqlValue::Null),
        Ok(Output::Integer(i)) => Ok(SqlValue::Integer(i)),
        Ok(Output::Real(r)) => Ok(SqlValue::Real(r)),
        Ok(Output::Text(t)) => Ok(SqlValue::Text(t)),
        Err(message) => Err(Error::UserFunctionError(message.into())),
    }
}

fn read_value(value: ValueRef<'_>) -> Value<'_> {
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Integer(i),
        ValueRef::Real(r) => Value::Real(r),
        ValueRef::Text(bytes) => Value::Text(String::from_utf8_lossy(bytes)),
        ValueRef::Blob(bytes) => Value::Blob(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_answer_through_rusqlite() -> Result<()> {
        let conn = Connection::open_in_memory()?;
        register(&conn)?;
        let m: String = conn.query_row("select recall_match('a \"b c\" ddd')", [], |r| r.get(0))?;
        assert_eq!(m, r#""b c" OR "ddd""#);
        let err = conn
            .query_row("select recall_decay(0, 0, -3)", [], |r| r.get::<_, f64>(0))
            .unwrap_err();
        assert!(err
            .to_string()
            .contains("recall_decay: half_life_days must be > 0, got -3"));
        Ok(())
    }
}
