//! The one table of SQL functions. Both adapters (the loadable extension and the CLI's
//! rusqlite connection) register exactly these entries, so they cannot drift apart.
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::value::{shown_real, time_error, ArgResult, Args, Output, Value};
use crate::{bm25, fold, fts_match, period, prompt, score, stopwords, time};

/// What the host tells a function about itself.
#[derive(Debug, Clone, Default)]
pub struct Host {
    pub sqlite_version: String,
}

pub type Implementation = fn(&Args, &Host) -> ArgResult<Output>;

/// One SQL function: registered once for every arity in `min_args..=max_args`.
pub struct FunctionSpec {
    pub name: &'static str,
    /// The arguments as the function reference writes them, optional ones in brackets:
    /// `text [, min_chars [, drop_stopwords]]`.
    pub signature: &'static str,
    /// The SQL type of the result: TEXT, INTEGER or REAL (NULL aside).
    pub returns: &'static str,
    /// One line for the function reference (docs/functions.md, checked by a test).
    pub description: &'static str,
    pub min_args: usize,
    pub max_args: usize,
    /// Whether a missing or NULL argument can make the function read the clock (the
    /// `now` of `recall_score`). Such a function is DETERMINISTIC at no arity: SQLite's
    /// flag belongs to a name and an arity and cannot look at values, and a NULL selects
    /// the default as surely as a missing argument does, so `recall_score(b, t, NULL)` in
    /// an index or a generated column would store a value that changes with the clock.
    /// Every other function is DETERMINISTIC; all are UTF8 | INNOCUOUS.
    pub reads_clock: bool,
    pub run: Implementation,
}

impl FunctionSpec {
    pub fn arities(&self) -> impl Iterator<Item = usize> {
        self.min_args..=self.max_args
    }

    /// Whether the function is registered DETERMINISTIC at `arity`: the same at every
    /// arity (see `reads_clock`), asked per arity because SQLite registers per arity.
    pub fn is_deterministic(&self, _arity: usize) -> bool {
        !self.reads_clock
    }

    /// Runs the function. A panic becomes an error: nothing may unwind into the host.
    /// Errors start with the function's name.
    pub fn invoke(&self, values: &[Value], host: &Host) -> Result<Output, String> {
        let args = Args::new(values);
        match catch_unwind(AssertUnwindSafe(|| (self.run)(&args, host))) {
            Ok(Ok(out)) => Ok(out),
            Ok(Err(message)) => Err(format!("{}: {message}", self.name)),
            Err(_) => Err(format!(
                "{}: internal error (please report it with the arguments that caused it)",
                self.name
            )),
        }
    }
}

pub const FUNCTIONS: &[FunctionSpec] = &[
    FunctionSpec {
        name: "recall_match",
        signature: r#"text [, min_chars [, drop_stopwords]]"#,
        returns: "TEXT",
        description: r#"FTS5 query in which nothing acts as an operator"#,
        min_args: 1,
        max_args: 3,
        reads_clock: false,
        run: recall_match,
    },
    FunctionSpec {
        name: "recall_terms",
        signature: r#"text [, min_chars [, drop_stopwords]]"#,
        returns: "TEXT",
        description: r#"the terms of `recall_match`, unquoted, as a JSON array"#,
        min_args: 1,
        max_args: 3,
        reads_clock: false,
        run: recall_terms,
    },
    FunctionSpec {
        name: "recall_column_filter",
        signature: r#"column, value [, tokenizer]"#,
        returns: "TEXT",
        description: r#"` AND column : "value"`, to narrow a match expression to a column's value inside FTS5; `''` for a NULL value or one in which the tokenizer finds no token"#,
        min_args: 2,
        max_args: 3,
        reads_clock: false,
        run: recall_column_filter,
    },
    FunctionSpec {
        name: "recall_age_days",
        signature: r#"occurred_at, now"#,
        returns: "REAL",
        description: r#"`max((now - occurred_at) / 86400 s, 0)`"#,
        min_args: 2,
        max_args: 2,
        reads_clock: false,
        run: recall_age_days,
    },
    FunctionSpec {
        name: "recall_time",
        signature: r#"value"#,
        returns: "TEXT",
        description: r#"a time value in the library's normal form, `2025-03-04T05:06:07Z` (UTC, whole seconds), by the time rule below"#,
        min_args: 1,
        max_args: 1,
        reads_clock: false,
        run: recall_time,
    },
    FunctionSpec {
        name: "recall_decay",
        signature: r#"occurred_at, now, half_life_days"#,
        returns: "REAL",
        description: r#"`0.5 ^ (age_days / half_life_days)`"#,
        min_args: 3,
        max_args: 3,
        reads_clock: false,
        run: recall_decay,
    },
    FunctionSpec {
        name: "recall_score",
        signature: r#"bm25, occurred_at [, now [, half_life_days [, recency_weight]]]"#,
        returns: "REAL",
        description: r#"`-bm25 * ((1 - w) + w * decay)`; without `now`, or with `now` NULL, it reads the clock"#,
        min_args: 2,
        max_args: 5,
        reads_clock: true,
        run: recall_score,
    },
    FunctionSpec {
        name: "recall_prompt_terms",
        signature: r#"prompt [, max_terms]"#,
        returns: "TEXT",
        description: r#"distinctive prompt words, folded, as a JSON array"#,
        min_args: 1,
        max_args: 2,
        reads_clock: false,
        run: recall_prompt_terms,
    },
    FunctionSpec {
        name: "recall_overlap",
        signature: r#"prompt, title [, summary]"#,
        returns: "INTEGER",
        description: r#"how many prompt terms appear as whole words"#,
        min_args: 2,
        max_args: 3,
        reads_clock: false,
        run: recall_overlap,
    },
    FunctionSpec {
        name: "recall_overlap_terms",
        signature: r#"prompt, title [, summary]"#,
        returns: "TEXT",
        description: r#"the prompt terms that appear as whole words, in the prompt's order, as a JSON array"#,
        min_args: 2,
        max_args: 3,
        reads_clock: false,
        run: recall_overlap_terms,
    },
    FunctionSpec {
        name: "recall_related",
        signature: r#"prompt, title [, summary]"#,
        returns: "INTEGER",
        description: r#"1 when the overlap is 2 or more"#,
        min_args: 2,
        max_args: 3,
        reads_clock: false,
        run: recall_related,
    },
    FunctionSpec {
        name: "recall_idf",
        signature: r#"with_word, items"#,
        returns: "REAL",
        description: r#"how distinctive a word in `with_word` of `items` items is: `ln(items / with_word) / ln(items)`, 1 in one item, 0 in all"#,
        min_args: 2,
        max_args: 2,
        reads_clock: false,
        run: recall_idf,
    },
    FunctionSpec {
        name: "recall_bm25_bound",
        signature: r#"hits, rows"#,
        returns: "REAL",
        description: r#"what a phrase held by `hits` of an FTS5 table's `rows` rows adds to a row's `bm25()` at most (never reached): `(k1 + 1) * idf`, with FTS5's `k1` and idf"#,
        min_args: 2,
        max_args: 2,
        reads_clock: false,
        run: recall_bm25_bound,
    },
    FunctionSpec {
        name: "recall_bm25_bounds",
        signature: r#"rows, phrases [, among]"#,
        returns: "TEXT",
        description: r#"the most each row of a pool can add up to in `bm25()`: `phrases` a JSON array of `[hits, rowids, selects]` (rowids null where not listed), the pool the rows of the phrases that select (and of `among`, a JSON array of rowids, where given); a JSON array of `[rowid, bound]`, highest first"#,
        min_args: 2,
        max_args: 3,
        reads_clock: false,
        run: recall_bm25_bounds,
    },
    FunctionSpec {
        name: "recall_in_every",
        signature: r#"lists"#,
        returns: "TEXT",
        description: r#"the rowids in every one of `lists`, a JSON array of JSON arrays of rowids: a JSON array, ascending"#,
        min_args: 1,
        max_args: 1,
        reads_clock: false,
        run: recall_in_every,
    },
    FunctionSpec {
        name: "recall_rrf",
        signature: r#"rank [, k [, weight]]"#,
        returns: "REAL",
        description: r#"reciprocal rank fusion `weight / (k + rank)`"#,
        min_args: 1,
        max_args: 3,
        reads_clock: false,
        run: recall_rrf,
    },
    FunctionSpec {
        name: "recall_convex",
        signature: r#"literal, best_literal, similarity, least, best, share"#,
        returns: "REAL",
        description: r#"convex fusion `(1 - share) * literal / best_literal + share * (similarity - least) / (best - least)`, each part clamped to 0..1 and 0 when NULL"#,
        min_args: 6,
        max_args: 6,
        reads_clock: false,
        run: recall_convex,
    },
    FunctionSpec {
        name: "recall_period",
        signature: r#"text"#,
        returns: "TEXT",
        description: r#"the period `text` names, from its earliest date with a year to its latest, as `{"since": …, "until": …}` (UTC days, until exclusive); NULL when it names none"#,
        min_args: 1,
        max_args: 1,
        reads_clock: false,
        run: recall_period,
    },
    FunctionSpec {
        name: "recall_limit",
        signature: r#"requested, default, max"#,
        returns: "INTEGER",
        description: r#"the limit rule of every query"#,
        min_args: 3,
        max_args: 3,
        reads_clock: false,
        run: recall_limit,
    },
    FunctionSpec {
        name: "recall_fold",
        signature: r#"text"#,
        returns: "TEXT",
        description: r#"case folded, accents of Latin letters removed: FTS5's `remove_diacritics` folding"#,
        min_args: 1,
        max_args: 1,
        reads_clock: false,
        run: recall_fold,
    },
    FunctionSpec {
        name: "recall_folds",
        signature: r#"tokenizer"#,
        returns: "INTEGER",
        description: r#"1 when the FTS5 tokenizer of `tokenizer` (a `tokenize` option, such as `trigram remove_diacritics 1`) folds text as `recall_fold` does, case and Latin accents; else 0: `trigram` without `remove_diacritics`, `ascii`, `case_sensitive 1`"#,
        min_args: 1,
        max_args: 1,
        reads_clock: false,
        run: recall_folds,
    },
    FunctionSpec {
        name: "recall_source_allowed",
        signature: r#"source, sources"#,
        returns: "INTEGER",
        description: r#"1 when `sources` (a JSON array of GLOB patterns) is NULL or `source` matches one of its patterns (SQLite `GLOB`: case-sensitive, `*`, `?`, `[…]`, `[^…]`), else 0: the access rule of every query"#,
        min_args: 2,
        max_args: 2,
        reads_clock: false,
        run: recall_source_allowed,
    },
    FunctionSpec {
        name: "recall_stopwords",
        signature: r#""#,
        returns: "TEXT",
        description: r#"the stop list as a JSON array"#,
        min_args: 0,
        max_args: 0,
        reads_clock: false,
        run: recall_stopwords,
    },
    FunctionSpec {
        name: "recall_version",
        signature: r#""#,
        returns: "TEXT",
        description: r#"`v0.1.0`"#,
        min_args: 0,
        max_args: 0,
        reads_clock: false,
        run: recall_version,
    },
    FunctionSpec {
        name: "recall_debug",
        signature: r#""#,
        returns: "TEXT",
        description: r#"version, source commit, the host's SQLite version"#,
        min_args: 0,
        max_args: 0,
        reads_clock: false,
        run: recall_debug,
    },
];

pub fn version() -> String {
    format!("v{}", env!("CARGO_PKG_VERSION"))
}

fn json_array<S: serde::Serialize>(items: &[S]) -> Output {
    // Serialising a list of strings cannot fail.
    Output::Text(serde_json::to_string(items).unwrap_or_else(|_| "[]".to_string()))
}

/// Argument `i` when it is a tokenizer spec (text that is no number), not a length.
fn tokenizer_spec<'a>(args: &'a Args, i: usize) -> Option<&'a str> {
    match args.get(i) {
        Some(Value::Text(t)) if t.trim().parse::<i64>().is_err() => Some(t),
        _ => None,
    }
}

/// `min_chars` as a count, or a tokenizer spec (trigram -> 3, anything else -> 1).
fn min_chars(args: &Args, i: usize) -> ArgResult<usize> {
    if let Some(spec) = tokenizer_spec(args, i) {
        return Ok(fts_match::min_chars_for_tokenizer(spec));
    }
    match args.get(i) {
        None => Ok(fts_match::DEFAULT_MIN_CHARS),
        Some(v) => match args.integer(i, "min_chars")? {
            Some(n) if n >= 0 => Ok(n as usize),
            _ => Err(format!(
                "min_chars must be >= 0 or a tokenizer spec, got {}",
                v.describe()
            )),
        },
    }
}

fn match_terms_of(args: &Args) -> ArgResult<Option<Vec<String>>> {
    let Some(text) = args.text(0, "text")? else {
        return Ok(None);
    };
    let min = min_chars(args, 1)?;
    let drop = args.flag(2, "drop_stopwords")?.unwrap_or(false);
    let rules = fts_match::MatchRules {
        min_chars: min,
        drop_stopwords: drop,
        // Stems only where a tokenizer spec says the index is trigram: a bare length says
        // nothing of how the index matches.
        stems: tokenizer_spec(args, 1).is_some_and(fts_match::is_trigram),
    };
    Ok(Some(fts_match::match_terms_with(&text, rules)))
}

fn recall_match(args: &Args, _: &Host) -> ArgResult<Output> {
    Ok(match match_terms_of(args)? {
        Some(terms) => Output::Text(fts_match::to_match(&terms)),
        None => Output::Null,
    })
}

fn recall_terms(args: &Args, _: &Host) -> ArgResult<Output> {
    Ok(match match_terms_of(args)? {
        Some(terms) => json_array(&terms),
        None => Output::Null,
    })
}

fn recall_column_filter(args: &Args, _: &Host) -> ArgResult<Output> {
    let column = args.text(0, "column")?;
    let value = args.text(1, "value")?;
    let tokenizer = args.text(2, "tokenizer")?;
    let Some(column) = column else {
        return Ok(Output::Null);
    };
    if !fts_match::is_plain_column(&column) {
        return Err(format!(
            "column must be a plain column name (letters, digits, _), got {}",
            Value::Text(column.clone()).describe()
        ));
    }
    // No value, no filter: the empty string keeps the match expression as it is.
    Ok(Output::Text(match value {
        Some(v) => fts_match::column_filter(&column, &v, tokenizer.as_deref().unwrap_or("trigram")),
        None => String::new(),
    }))
}

fn recall_age_days(args: &Args, _: &Host) -> ArgResult<Output> {
    let occurred = args.time(0, "occurred_at")?;
    let now = args.time(1, "now")?;
    Ok(match (occurred, now) {
        (Some(o), Some(n)) => Output::Real(time::age_days(o, n)),
        _ => Output::Null,
    })
}

fn recall_time(args: &Args, _: &Host) -> ArgResult<Output> {
    let (Some(arg), Some(value)) = (args.get(0), args.time_value(0, "value")?) else {
        return Ok(Output::Null);
    };
    time::to_storable(value)
        .map(Output::Text)
        .map_err(|e| time_error("value", arg, e))
}

fn half_life(args: &Args, i: usize) -> ArgResult<Option<f64>> {
    match args.real(i, "half_life_days")? {
        Some(h) if h <= 0.0 => Err(format!("half_life_days must be > 0, got {}", shown_real(h))),
        h => Ok(h),
    }
}

fn recall_decay(args: &Args, _: &Host) -> ArgResult<Output> {
    let occurred = args.time(0, "occurred_at")?;
    let now = args.time(1, "now")?;
    let half_life = half_life(args, 2)?;
    Ok(match (occurred, now, half_life) {
        (Some(o), Some(n), Some(h)) => Output::Real(score::decay(time::age_days(o, n), h)),
        _ => Output::Null,
    })
}

fn recall_score(args: &Args, _: &Host) -> ArgResult<Output> {
    let bm25 = args.real(0, "bm25")?;
    let occurred = args.time(1, "occurred_at")?;
    let now = args.time(2, "now")?;
    let half_life = half_life(args, 3)?.unwrap_or(score::DEFAULT_HALF_LIFE_DAYS);
    let weight = match args.real(4, "recency_weight")? {
        Some(w) if !(0.0..=1.0).contains(&w) => {
            return Err(format!(
                "recency_weight must be between 0 and 1, got {}",
                shown_real(w)
            ))
        }
        w => w.unwrap_or(score::DEFAULT_RECENCY_WEIGHT),
    };
    let Some(bm25) = bm25 else {
        return Ok(Output::Null);
    };
    let now = now.unwrap_or_else(time::now_unix_seconds);
    let decay = occurred.map(|o| score::decay(time::age_days(o, now), half_life));
    Ok(Output::Real(score::score(bm25, decay, weight)))
}

fn recall_prompt_terms(args: &Args, _: &Host) -> ArgResult<Output> {
    let prompt = args.text(0, "prompt")?;
    let max = match args.integer(1, "max_terms")? {
        Some(n) if n < 0 => return Err(format!("max_terms must be >= 0, got {n}")),
        Some(n) => n as usize,
        None => prompt::DEFAULT_MAX_PROMPT_TERMS,
    };
    Ok(match prompt {
        Some(p) => json_array(&prompt::prompt_terms(&p, max)),
        None => Output::Null,
    })
}

/// The prompt's terms that title or summary hold as whole words (`recall_overlap_terms`,
/// which `recall_overlap` counts and `recall_related` compares); NULL for a NULL prompt.
fn overlap_terms_of(args: &Args) -> ArgResult<Option<Vec<String>>> {
    let prompt = args.text(0, "prompt")?;
    let title = args.text(1, "title")?;
    let summary = args.text(2, "summary")?;
    Ok(prompt.map(|p| {
        prompt::overlap_terms(
            &p,
            title.as_deref().unwrap_or(""),
            summary.as_deref().unwrap_or(""),
        )
    }))
}

fn recall_overlap(args: &Args, _: &Host) -> ArgResult<Output> {
    Ok(match overlap_terms_of(args)? {
        Some(terms) => Output::Integer(terms.len() as i64),
        None => Output::Null,
    })
}

fn recall_overlap_terms(args: &Args, _: &Host) -> ArgResult<Output> {
    Ok(match overlap_terms_of(args)? {
        Some(terms) => json_array(&terms),
        None => Output::Null,
    })
}

fn recall_related(args: &Args, _: &Host) -> ArgResult<Output> {
    Ok(match overlap_terms_of(args)? {
        Some(terms) => Output::Integer(i64::from(terms.len() >= prompt::RELATED_MIN_OVERLAP)),
        None => Output::Null,
    })
}

fn recall_idf(args: &Args, _: &Host) -> ArgResult<Output> {
    let count = |i: usize, name: &str| match args.integer(i, name)? {
        Some(n) if n < 0 => Err(format!("{name} must be >= 0, got {n}")),
        n => Ok(n),
    };
    let with_word = count(0, "with_word")?;
    let items = count(1, "items")?;
    Ok(match (with_word, items) {
        (Some(w), Some(n)) => Output::Real(prompt::idf(w, n)),
        _ => Output::Null,
    })
}

fn recall_bm25_bound(args: &Args, _: &Host) -> ArgResult<Output> {
    let count = |i: usize, name: &str| match args.integer(i, name)? {
        Some(n) if n < 0 => Err(format!("{name} must be >= 0, got {n}")),
        n => Ok(n),
    };
    let hits = count(0, "hits")?;
    let rows = count(1, "rows")?;
    Ok(match (hits, rows) {
        (Some(h), Some(r)) if h > r => {
            return Err(format!("hits ({h}) cannot be more than rows ({r})"))
        }
        (Some(h), Some(r)) => Output::Real(bm25::part_bound(h, r)),
        _ => Output::Null,
    })
}

fn recall_bm25_bounds(args: &Args, _: &Host) -> ArgResult<Output> {
    let rows = match args.integer(0, "rows")? {
        Some(n) if n < 0 => return Err(format!("rows must be >= 0, got {n}")),
        n => n,
    };
    let phrases = args.text(1, "phrases")?;
    let among = args.text(2, "among")?;
    Ok(match (rows, phrases) {
        (Some(rows), Some(phrases)) => {
            Output::Text(bm25::bounds(rows, &phrases, among.as_deref())?)
        }
        _ => Output::Null,
    })
}

fn recall_in_every(args: &Args, _: &Host) -> ArgResult<Output> {
    Ok(match args.text(0, "lists")? {
        Some(lists) => Output::Text(crate::lists::in_every(&lists)?),
        None => Output::Null,
    })
}

fn recall_rrf(args: &Args, _: &Host) -> ArgResult<Output> {
    let rank = match args.real(0, "rank")? {
        Some(r) if r < 1.0 => {
            return Err(format!(
                "rank must be >= 1 (ranks are 1-based), got {}",
                shown_real(r)
            ))
        }
        r => r,
    };
    let k = match args.real(1, "k")? {
        Some(k) if k < 0.0 => return Err(format!("k must be >= 0, got {}", shown_real(k))),
        k => k.unwrap_or(score::DEFAULT_RRF_K),
    };
    let weight = match args.real(2, "weight")? {
        Some(w) if w < 0.0 => return Err(format!("weight must be >= 0, got {}", shown_real(w))),
        w => w.unwrap_or(1.0),
    };
    Ok(match rank {
        Some(r) => Output::Real(score::rrf(r, k, weight)),
        None => Output::Null,
    })
}

fn recall_convex(args: &Args, _: &Host) -> ArgResult<Output> {
    let literal = args.real(0, "literal")?;
    let best_literal = args.real(1, "best_literal")?.unwrap_or(0.0);
    let similarity = args.real(2, "similarity")?;
    let least = args.real(3, "least")?.unwrap_or(0.0);
    let best = args.real(4, "best")?.unwrap_or(0.0);
    let share = match args.real(5, "share")? {
        Some(s) if !(0.0..=1.0).contains(&s) => {
            return Err(format!(
                "share must be between 0 and 1, got {}",
                shown_real(s)
            ))
        }
        s => s.unwrap_or(0.0),
    };
    Ok(Output::Real(score::fuse(
        literal,
        best_literal,
        similarity,
        least,
        best,
        share,
    )))
}

fn recall_period(args: &Args, _: &Host) -> ArgResult<Output> {
    Ok(
        match args
            .text(0, "text")?
            .as_deref()
            .and_then(period::from_query)
        {
            Some(p) => Output::Text(p.to_json()),
            None => Output::Null,
        },
    )
}

fn recall_limit(args: &Args, _: &Host) -> ArgResult<Output> {
    let requested = args.integer(0, "requested")?;
    let default = args.integer(1, "default")?;
    let max = args.integer(2, "max")?;
    if let Some(m) = max.filter(|m| *m < 1) {
        return Err(format!("max must be >= 1, got {m}"));
    }
    if let Some(d) = default.filter(|d| *d < 1) {
        return Err(format!("default must be >= 1, got {d}"));
    }
    Ok(match (default, max) {
        (Some(d), Some(m)) => Output::Integer(score::limit(requested, d, m)),
        _ => Output::Null,
    })
}

fn recall_fold(args: &Args, _: &Host) -> ArgResult<Output> {
    Ok(match args.text(0, "text")? {
        Some(t) => Output::Text(fold::fold(&t)),
        None => Output::Null,
    })
}

fn recall_folds(args: &Args, _: &Host) -> ArgResult<Output> {
    Ok(match args.text(0, "tokenizer")? {
        Some(t) => Output::Integer(i64::from(crate::matched::folds_as_fold(&t))),
        None => Output::Null,
    })
}

/// The access rule of every query: a NULL list allows every source; otherwise the source
/// must match one of the list's GLOB patterns. A query passes the same list for every row,
/// so the last one read is kept, parsed.
fn recall_source_allowed(args: &Args, _: &Host) -> ArgResult<Output> {
    use std::cell::RefCell;
    thread_local! {
        static LAST: RefCell<(String, Vec<String>)> = const { RefCell::new((String::new(), Vec::new())) };
    }
    let source = args.text(0, "source")?;
    let Some(sources) = args.text(1, "sources")? else {
        return Ok(Output::Integer(1));
    };
    let Some(source) = source else {
        return Ok(Output::Null);
    };
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if last.0 != *sources || last.0.is_empty() {
            let globs: Vec<String> = serde_json::from_str(&sources).map_err(|_| {
                format!(
                    "sources must be a JSON array of glob patterns, like '[\"agent-*\"]', got {}",
                    Value::Text(sources.clone()).describe()
                )
            })?;
            *last = (sources.to_string(), globs);
        }
        Ok(Output::Integer(i64::from(
            last.1.iter().any(|g| crate::glob::glob(g, &source)),
        )))
    })
}

fn recall_stopwords(_: &Args, _: &Host) -> ArgResult<Output> {
    Ok(json_array(stopwords::stopwords()))
}

fn recall_version(_: &Args, _: &Host) -> ArgResult<Output> {
    Ok(Output::Text(version()))
}

fn recall_debug(_: &Args, host: &Host) -> ArgResult<Output> {
    Ok(Output::Text(format!(
        "Version: {}\nSource: {}\nSQLite: {}",
        version(),
        env!("RECALL_SOURCE_COMMIT"),
        host.sqlite_version
    )))
}

/// Looks a function up by name.
pub fn find(name: &str) -> Option<&'static FunctionSpec> {
    FUNCTIONS.iter().find(|f| f.name == name)
}

/// Calls a function by name, as SQL would (for tests and the CLI's own use).
pub fn call(name: &str, values: &[Value], host: &Host) -> Result<Output, String> {
    let f = find(name).ok_or_else(|| format!("no such function: {name}"))?;
    if !(f.min_args..=f.max_args).contains(&values.len()) {
        return Err(format!("wrong number of arguments to function {name}()"));
    }
    f.invoke(values, host)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(name: &str, values: &[Value]) -> Result<Output, String> {
        call(name, values, &Host::default())
    }

    #[test]
    fn messages_show_numbers_short() {
        assert_eq!(
            run("recall_time", &[Value::Real(-1e308)]),
            Err("recall_time: value is out of range (years 1 to 9999), got -1e308".into())
        );
        assert_eq!(
            run(
                "recall_decay",
                &[Value::Integer(0), Value::Integer(0), Value::Real(-1e308)]
            ),
            Err("recall_decay: half_life_days must be > 0, got -1e308".into())
        );
        assert_eq!(
            run("recall_rrf", &[Value::Real(5e-324)]),
            Err("recall_rrf: rank must be >= 1 (ranks are 1-based), got 5e-324".into())
        );
        assert_eq!(
            run("recall_rrf", &[Value::Integer(1), Value::Real(-1e300)]),
            Err("recall_rrf: k must be >= 0, got -1e300".into())
        );
    }

    /// Every function, arity and position given huge, tiny and long values: any error is
    /// one short line.
    #[test]
    fn every_error_is_one_short_line() {
        let long = "9".repeat(100_000);
        let nasty = [
            Value::Real(-1e308),
            Value::Real(1e308),
            Value::Real(5e-324),
            Value::Real(-5e-324),
            Value::Real(f64::INFINITY),
            Value::Real(f64::NAN),
            Value::Integer(i64::MIN),
            Value::Text(long.as_str().into()),
            Value::Text("-1e308".into()),
            Value::Blob(&[0; 1000]),
        ];
        let mut errors = 0;
        for spec in FUNCTIONS {
            for arity in spec.arities() {
                for position in 0..arity {
                    for value in &nasty {
                        let mut args = vec![Value::Integer(1); arity];
                        args[position] = value.clone();
                        if let Err(message) = spec.invoke(&args, &Host::default()) {
                            errors += 1;
                            assert!(
                                message.len() <= 200 && !message.contains('\n'),
                                "{}({args:?}): {message}",
                                spec.name
                            );
                        }
                    }
                }
            }
        }
        assert!(errors > 100, "{errors}");
    }

    #[test]
    fn a_null_now_reads_the_clock_so_recall_score_is_never_deterministic() {
        // An item dated one second ago scores like a brand-new one only if NULL `now`
        // means the current time.
        let recent = time::normalize(&chrono::Utc::now());
        for arity in 2..=5 {
            let mut args = vec![Value::Real(-10.0), Value::Text(recent.as_str().into())];
            args.resize(arity, Value::Null);
            let Ok(Output::Real(score)) = run("recall_score", &args) else {
                panic!("recall_score/{arity}");
            };
            assert!(score > 9.99, "recall_score/{arity}: {score}");
        }
        let spec = find("recall_score").expect("recall_score");
        assert!(spec.arities().all(|a| !spec.is_deterministic(a)));
        // Only recall_score has a default that is the clock.
        for f in FUNCTIONS.iter().filter(|f| f.name != "recall_score") {
            assert!(f.arities().all(|a| f.is_deterministic(a)), "{}", f.name);
        }
    }
}
