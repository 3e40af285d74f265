//! `recall_bm25(table, hits, weight…)`: FTS5's `bm25()` with the rows holding each phrase
//! given in `hits` ([`recall_core::bm25`]), as an FTS5 auxiliary function. FTS5 hands it
//! its extension API; the SQLite calls that read arguments and set the result come from
//! the adapter ([`SqliteCalls`]), as this crate links no SQLite.
use std::ffi::{c_char, c_int, c_void, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

use recall_core::bm25;

/// The name SQL calls it by.
pub const NAME: &CStr = c"recall_bm25";

pub(crate) const SQLITE_OK: c_int = 0;
const SQLITE_NULL: c_int = 5;

/// The SQLite calls an auxiliary function needs, from the adapter's binding.
pub struct SqliteCalls {
    pub value_type: unsafe fn(*mut c_void) -> c_int,
    pub value_double: unsafe fn(*mut c_void) -> f64,
    pub value_text: unsafe fn(*mut c_void) -> *const u8,
    pub value_bytes: unsafe fn(*mut c_void) -> c_int,
    pub result_double: unsafe fn(*mut c_void, f64),
    pub result_int64: unsafe fn(*mut c_void, i64),
    pub result_error: unsafe fn(*mut c_void, *const c_char, c_int),
}

/// `Fts5Context`: opaque.
#[repr(C)]
pub struct Fts5Context {
    _unused: u8,
}

pub(crate) type Ctx = *mut Fts5Context;

/// FTS5's callback for each token a tokenizer finds: context, flags, the token, its
/// start and end in the text.
pub(crate) type XToken =
    unsafe extern "C" fn(*mut c_void, c_int, *const c_char, c_int, c_int, c_int) -> c_int;

/// The head of `Fts5ExtensionApi` (`fts5.h`) up to `xPhraseNextColumn`: every version of
/// the structure starts with the entries up to `xPhraseNext`, in this order; version 2
/// (SQLite 3.11) added the two after it, read only where `i_version` says so. (Every
/// SQLite the functions register with, 3.20 and later, which pass FTS5's API by pointer,
/// has version 2 or later: the structure is all there.)
#[repr(C)]
pub struct Fts5ExtensionApi {
    pub i_version: c_int,
    pub x_user_data: Option<unsafe extern "C" fn(Ctx) -> *mut c_void>,
    pub x_column_count: Option<unsafe extern "C" fn(Ctx) -> c_int>,
    pub x_row_count: Option<unsafe extern "C" fn(Ctx, *mut i64) -> c_int>,
    pub x_column_total_size: Option<unsafe extern "C" fn(Ctx, c_int, *mut i64) -> c_int>,
    pub x_tokenize: Option<
        unsafe extern "C" fn(Ctx, *const c_char, c_int, *mut c_void, Option<XToken>) -> c_int,
    >,
    pub x_phrase_count: Option<unsafe extern "C" fn(Ctx) -> c_int>,
    pub x_phrase_size: Option<unsafe extern "C" fn(Ctx, c_int) -> c_int>,
    pub x_inst_count: Option<unsafe extern "C" fn(Ctx, *mut c_int) -> c_int>,
    pub x_inst:
        Option<unsafe extern "C" fn(Ctx, c_int, *mut c_int, *mut c_int, *mut c_int) -> c_int>,
    pub x_rowid: Option<unsafe extern "C" fn(Ctx) -> i64>,
    pub x_column_text:
        Option<unsafe extern "C" fn(Ctx, c_int, *mut *const c_char, *mut c_int) -> c_int>,
    pub x_column_size: Option<unsafe extern "C" fn(Ctx, c_int, *mut c_int) -> c_int>,
    pub x_query_phrase: Option<unsafe extern "C" fn()>,
    pub x_set_auxdata: Option<
        unsafe extern "C" fn(Ctx, *mut c_void, Option<unsafe extern "C" fn(*mut c_void)>) -> c_int,
    >,
    pub x_get_auxdata: Option<unsafe extern "C" fn(Ctx, c_int) -> *mut c_void>,
    pub x_phrase_first: Option<
        unsafe extern "C" fn(Ctx, c_int, *mut Fts5PhraseIter, *mut c_int, *mut c_int) -> c_int,
    >,
    pub x_phrase_next:
        Option<unsafe extern "C" fn(Ctx, *mut Fts5PhraseIter, *mut c_int, *mut c_int)>,
    pub x_phrase_first_column:
        Option<unsafe extern "C" fn(Ctx, c_int, *mut Fts5PhraseIter, *mut c_int) -> c_int>,
    pub x_phrase_next_column: Option<unsafe extern "C" fn(Ctx, *mut Fts5PhraseIter, *mut c_int)>,
}

/// FTS5's iterator over a phrase's places in the current row (`fts5.h`).
#[repr(C)]
pub struct Fts5PhraseIter {
    pub a: *const u8,
    pub b: *const u8,
}

/// What one query's rows share, kept with the query (FTS5's auxiliary data) so that
/// each row reads `hits` and the table's totals once.
struct Query {
    hits: Vec<u8>,
    idfs: Vec<Option<f64>>,
    avgdl: f64,
    freqs: Vec<f64>,
}

/// Data a query keeps for all its rows (FTS5's auxiliary data): made for its first
/// argument's text, and made again when that text changes.
pub(crate) trait Kept {
    fn key(&self) -> &[u8];
}

unsafe extern "C" fn drop_kept<T>(p: *mut c_void) {
    if !p.is_null() {
        // SAFETY: made by `kept` with Box::into_raw, dropped once by FTS5.
        drop(unsafe { Box::from_raw(p.cast::<T>()) });
    }
}

/// The query's kept data for `key`, from FTS5's auxiliary data when the same key made
/// it, else made by `make` and handed to FTS5.
///
/// # Safety
/// FTS5's API and context of the current call; every caller of one function keeps the
/// same `T`.
pub(crate) unsafe fn kept<'q, T: Kept>(
    api: &Fts5ExtensionApi,
    ctx: Ctx,
    key: &[u8],
    make: impl FnOnce() -> Result<T, String>,
) -> Result<&'q mut T, String> {
    let (Some(set), Some(get)) = (api.x_set_auxdata, api.x_get_auxdata) else {
        return Err("this FTS5 lacks the extension API it needs".into());
    };
    // SAFETY: FTS5's callbacks, with its context; the data is ours, made below.
    unsafe {
        let before = get(ctx, 0).cast::<T>();
        if let Some(q) = before.as_mut() {
            if q.key() == key {
                return Ok(q);
            }
        }
        let raw = Box::into_raw(Box::new(make()?));
        // FTS5 owns it from here, and frees the one before.
        let rc = set(ctx, raw.cast(), Some(drop_kept::<T>));
        if rc != SQLITE_OK {
            return Err(failed("xSetAuxdata", rc));
        }
        raw.as_mut().ok_or_else(|| "no query data".to_string())
    }
}

/// The table's rows, as `bm25()` reads them (its N).
///
/// # Safety
/// FTS5's API and context of the current call.
pub(crate) unsafe fn row_count(api: &Fts5ExtensionApi, ctx: Ctx) -> Result<i64, String> {
    let Some(row_count) = api.x_row_count else {
        return Err("this FTS5 lacks the extension API it needs".into());
    };
    let mut rows = 0i64;
    // SAFETY: FTS5's callback, with its context.
    let rc = unsafe { row_count(ctx, &mut rows) };
    if rc != SQLITE_OK {
        return Err(failed("xRowCount", rc));
    }
    Ok(rows)
}

/// The table's rows and its average row size in tokens, as `bm25()` reads them.
///
/// # Safety
/// FTS5's API and context of the current call.
pub(crate) unsafe fn totals(api: &Fts5ExtensionApi, ctx: Ctx) -> Result<(i64, f64), String> {
    let Some(total_size) = api.x_column_total_size else {
        return Err("this FTS5 lacks the extension API it needs".into());
    };
    // SAFETY: FTS5's API and context of this call.
    let rows = unsafe { row_count(api, ctx) }?;
    let mut tokens = 0i64;
    // SAFETY: FTS5's callback, with its context.
    let rc = unsafe { total_size(ctx, -1, &mut tokens) };
    if rc != SQLITE_OK {
        return Err(failed("xColumnTotalSize", rc));
    }
    Ok((rows, tokens as f64 / rows as f64))
}

impl Kept for Query {
    fn key(&self) -> &[u8] {
        &self.hits
    }
}

pub type AuxFunction =
    unsafe extern "C" fn(*const Fts5ExtensionApi, Ctx, *mut c_void, c_int, *mut *mut c_void);

pub(crate) fn failed(what: &str, rc: c_int) -> String {
    format!("FTS5's {what} failed (code {rc})")
}

/// The query's shared values for `hits` (its text as given).
///
/// # Safety
/// FTS5's API and context of the current call.
unsafe fn query<'q>(
    api: &Fts5ExtensionApi,
    ctx: Ctx,
    hits_text: &[u8],
) -> Result<&'q mut Query, String> {
    let Some(phrase_count) = api.x_phrase_count else {
        return Err("this FTS5 lacks the extension API it needs".into());
    };
    // SAFETY: FTS5's API and context of this call.
    unsafe {
        kept(api, ctx, hits_text, || {
            let text =
                std::str::from_utf8(hits_text).map_err(|_| "hits is not UTF-8".to_string())?;
            let hits = bm25::parse_hits(text)?;
            let phrases = usize::try_from(phrase_count(ctx)).unwrap_or(0);
            if hits.len() > phrases {
                return Err(format!(
                    "hits has {} entries, but the query has {phrases} phrases: give one for each phrase, in the query's order",
                    hits.len()
                ));
            }
            let (rows, avgdl) = totals(api, ctx)?;
            Ok(Query {
                hits: hits_text.to_vec(),
                idfs: (0..phrases)
                    .map(|p| hits.get(p).copied().flatten().map(|h| bm25::idf(h, rows)))
                    .collect(),
                avgdl,
                freqs: vec![0.0; phrases],
            })
        })
    }
}

/// What the function computes for the current row, or the message of its error.
fn row_score(
    api: &Fts5ExtensionApi,
    ctx: Ctx,
    hits_text: &[u8],
    weights: &[f64],
) -> Result<f64, String> {
    let (Some(inst_count), Some(inst), Some(column_size)) =
        (api.x_inst_count, api.x_inst, api.x_column_size)
    else {
        return Err("this FTS5 lacks the extension API it needs".into());
    };
    // SAFETY: FTS5's own callbacks, with its context, during the call it made.
    unsafe {
        let q = query(api, ctx, hits_text)?;
        q.freqs.iter_mut().for_each(|f| *f = 0.0);
        let mut count: c_int = 0;
        let rc = inst_count(ctx, &mut count);
        if rc != SQLITE_OK {
            return Err(failed("xInstCount", rc));
        }
        for i in 0..count {
            let (mut phrase, mut column, mut offset) = (0, 0, 0);
            let rc = inst(ctx, i, &mut phrase, &mut column, &mut offset);
            if rc != SQLITE_OK {
                return Err(failed("xInst", rc));
            }
            let weight = usize::try_from(column)
                .ok()
                .and_then(|c| weights.get(c))
                .copied()
                .unwrap_or(1.0);
            if let Some(f) = usize::try_from(phrase)
                .ok()
                .and_then(|p| q.freqs.get_mut(p))
            {
                *f += weight;
            }
        }
        let mut size: c_int = 0;
        let rc = column_size(ctx, -1, &mut size);
        if rc != SQLITE_OK {
            return Err(failed("xColumnSize", rc));
        }
        Ok(bm25::score(&q.idfs, &q.freqs, f64::from(size), q.avgdl))
    }
}

/// A row's score from the first argument (as given) and the weights, or an error.
pub(crate) type Score = fn(&Fts5ExtensionApi, Ctx, &[u8], &[f64]) -> Result<f64, String>;

/// What an auxiliary function of this crate is called and told when its first argument
/// is missing or NULL; its score of a row from that argument (as given) and the weights.
pub(crate) struct Aux {
    pub name: &'static str,
    pub usage: &'static str,
    pub null: &'static str,
    pub argument: &'static str,
    pub score: Score,
}

/// Reads the first argument (JSON text) and the weights after it.
///
/// # Safety
/// `values` holds `n` live values of this call.
unsafe fn arguments<'a>(
    aux: &Aux,
    calls: &SqliteCalls,
    values: *mut *mut c_void,
    n: c_int,
) -> Result<(&'a [u8], Vec<f64>), String> {
    let n = usize::try_from(n).unwrap_or(0);
    if n == 0 || values.is_null() {
        return Err(aux.usage.into());
    }
    // SAFETY: SQLite passes `n` values for this call.
    let values = unsafe { std::slice::from_raw_parts(values, n) };
    let first = unsafe {
        if (calls.value_type)(values[0]) == SQLITE_NULL {
            return Err(aux.null.into());
        }
        let text = (calls.value_text)(values[0]);
        let len = usize::try_from((calls.value_bytes)(values[0])).unwrap_or(0);
        if text.is_null() {
            return Err(format!("{} cannot be read as text", aux.argument));
        }
        std::slice::from_raw_parts(text, len)
    };
    let weights = values[1..]
        .iter()
        // SAFETY: a live value of this call.
        .map(|v| unsafe { (calls.value_double)(*v) })
        .collect();
    Ok((first, weights))
}

/// One call of `aux` as FTS5 makes it: its arguments read, the row scored.
///
/// # Safety
/// FTS5's API, context, result and values of the current call.
pub(crate) unsafe fn call(
    aux: &Aux,
    api: *const Fts5ExtensionApi,
    ctx: Ctx,
    result: *mut c_void,
    n: c_int,
    values: *mut *mut c_void,
) {
    // SAFETY: FTS5's API, context, result and values of this call.
    unsafe {
        answer(aux.name, api, ctx, result, |calls, api| {
            let (first, weights) = arguments(aux, calls, values, n)?;
            (aux.score)(api, ctx, first, &weights).map(Value::Double)
        })
    }
}

/// What an auxiliary function of this crate gives SQL.
pub(crate) enum Value {
    Double(f64),
    Integer(i64),
}

/// Answers one call of the auxiliary function `name`: what `compute` makes of FTS5's
/// API, or its error as one line `name: message`; no panic crosses into SQLite.
///
/// # Safety
/// FTS5's API, context and result of the current call.
pub(crate) unsafe fn answer(
    name: &str,
    api: *const Fts5ExtensionApi,
    ctx: Ctx,
    result: *mut c_void,
    compute: impl FnOnce(&SqliteCalls, &Fts5ExtensionApi) -> Result<Value, String>,
) {
    // SAFETY: FTS5 hands back the pointer registered with the function, a
    // `&'static SqliteCalls`.
    let Some(calls) = (unsafe { api.as_ref() })
        .and_then(|a| a.x_user_data)
        .map(|f| unsafe { f(ctx) }.cast::<SqliteCalls>())
        .filter(|p| !p.is_null())
        .map(|p| unsafe { &*p })
    else {
        return;
    };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: FTS5's API of this call, alive during it.
        let api = unsafe { api.as_ref() }.ok_or("no FTS5 extension API")?;
        compute(calls, api)
    }));
    let message = match outcome {
        // SAFETY: the result context of this call.
        Ok(Ok(Value::Double(d))) => return unsafe { (calls.result_double)(result, d) },
        Ok(Ok(Value::Integer(i))) => return unsafe { (calls.result_int64)(result, i) },
        Ok(Err(message)) => message,
        Err(_) => "internal error (please report it with the query that caused it)".into(),
    };
    let message = format!("{}: {}", name, message.replace('\0', "\\0"));
    let len = c_int::try_from(message.len()).unwrap_or(c_int::MAX);
    // SAFETY: SQLite copies the message (its length given).
    unsafe { (calls.result_error)(result, message.as_ptr().cast(), len) };
}

/// Answers one call of an auxiliary function that takes the table alone, `name(table)`:
/// what `compute` makes of FTS5's API; an argument after the table is an error.
///
/// # Safety
/// FTS5's API, context and result of the current call.
pub(crate) unsafe fn answer_table_alone(
    name: &str,
    api: *const Fts5ExtensionApi,
    ctx: Ctx,
    result: *mut c_void,
    n: c_int,
    compute: impl FnOnce(&Fts5ExtensionApi) -> Result<Value, String>,
) {
    // SAFETY: FTS5's API, context and result of this call.
    unsafe {
        answer(name, api, ctx, result, |_, api| {
            if n != 0 {
                return Err(format!("it takes the table alone: {name}(table)"));
            }
            compute(api)
        })
    }
}

/// An auxiliary function of this crate: what [`call`] needs of it.
pub(crate) trait Defined {
    const AUX: Aux;
}

/// The C entry FTS5 calls for `D`.
pub(crate) unsafe extern "C" fn entry<D: Defined>(
    api: *const Fts5ExtensionApi,
    ctx: Ctx,
    result: *mut c_void,
    n: c_int,
    values: *mut *mut c_void,
) {
    // SAFETY: FTS5's call.
    unsafe { call(&D::AUX, api, ctx, result, n, values) }
}

struct Bm25;

impl Defined for Bm25 {
    const AUX: Aux = Aux {
        name: "recall_bm25",
        usage: "give it the rows holding each phrase: recall_bm25(table, hits [, weight]…)",
        null: "hits is NULL: give a JSON array of row counts or nulls, one for each phrase",
        argument: "hits",
        score: row_score,
    };
}

/// The function itself, for [`crate::register_bm25`].
pub const FUNCTION: AuxFunction = entry::<Bm25>;
