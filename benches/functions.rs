//! Per-call cost of the core functions (typical and worst-case inputs), and recall_score
//! over 1,000,000 rows through SQL against the same arithmetic as a plain SQL expression,
//! both measured in this run. Run with `make bench` (it builds the release extension).
use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use recall_core::{fts_match, prompt, score, time};

const TYPICAL_QUERY: &str = "When did we decide to remove the analytics script from the shop?";
const TYPICAL_TITLE: &str = "Remove the analytics script and the consent banner";
const TYPICAL_SUMMARY: &str =
    "Decided to drop analytics entirely after the audit; the banner goes with it.";

/// A 10 kB query of many short and quoted words, stop words, accents and duplicates.
fn worst_query() -> String {
    let piece = "\"consent banner\" (¿Cuándo?) c++ the NEAR(a b) AND x* migración ";
    piece.repeat(10_000 / piece.len() + 1)
}

fn per_call(c: &mut Criterion) {
    let worst = worst_query();
    let mut g = c.benchmark_group("recall_match");
    for (name, input) in [("typical", TYPICAL_QUERY), ("worst_10kB", worst.as_str())] {
        g.bench_with_input(BenchmarkId::from_parameter(name), input, |b, s| {
            b.iter(|| fts_match::build_match(s, 3, true))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("recall_prompt_terms");
    for (name, input) in [("typical", TYPICAL_QUERY), ("worst_10kB", worst.as_str())] {
        g.bench_with_input(BenchmarkId::from_parameter(name), input, |b, s| {
            b.iter(|| prompt::prompt_terms(s, 20))
        });
    }
    g.finish();

    let long_summary = TYPICAL_SUMMARY.repeat(40);
    let mut g = c.benchmark_group("recall_overlap");
    g.bench_function("typical", |b| {
        b.iter(|| prompt::overlap(TYPICAL_QUERY, TYPICAL_TITLE, TYPICAL_SUMMARY))
    });
    g.bench_function("worst_10kB_prompt_3kB_summary", |b| {
        b.iter(|| prompt::overlap(&worst, TYPICAL_TITLE, &long_summary))
    });
    g.finish();

    let mut g = c.benchmark_group("recall_score");
    g.bench_function("parse_times_and_score", |b| {
        b.iter(|| {
            let occurred = time::parse_unix_seconds("2024-11-05T08:15:00+02:00").unwrap_or(0.0);
            let now = time::parse_unix_seconds("2025-03-01T00:00:00Z").unwrap_or(0.0);
            let decay = score::decay(time::age_days(occurred, now), 90.0);
            score::score(-7.5, Some(decay), 0.3)
        })
    });
    g.finish();
}

fn extension() -> PathBuf {
    let exe = std::env::current_exe().expect("bench binary path");
    let dir = exe
        .parent()
        .and_then(|p| p.parent())
        .expect("target/<profile>");
    dir.join("librecall0")
}

const ROWS: i64 = 1_000_000;

fn scoring_a_million_rows(c: &mut Criterion) {
    let conn = rusqlite::Connection::open_in_memory().expect("open");
    // SAFETY: loading the extension this workspace built (`make bench` builds it).
    unsafe {
        let _guard = rusqlite::LoadExtensionGuard::new(&conn).expect("enable loading");
        conn.load_extension(extension(), None::<&str>)
            .expect("load librecall0: build it with `cargo build --release -p recall0`");
    }
    conn.execute_batch(&format!(
        "create table t(bm25 real, occurred_at text);
         with recursive n(i) as (select 1 union all select i + 1 from n where i < {ROWS})
         insert into t select -1.0 - (i % 97) / 10.0,
                              strftime('%Y-%m-%dT%H:%M:%SZ', '2022-01-01', '+' || (i % 1100) || ' days')
         from n;"
    ))
    .expect("fill table");
    let now = "2025-03-01T00:00:00Z";
    let ours = "select sum(recall_score(bm25, occurred_at, ?1, 90, 0.3)) from t";
    let plain = "select sum(-bm25 * (0.7 + 0.3 * pow(0.5,
                   max(julianday(?1) - julianday(occurred_at), 0) / 90))) from t";
    // Both compute the same thing.
    let a: f64 = conn.query_row(ours, [now], |r| r.get(0)).expect("ours");
    let b: f64 = conn.query_row(plain, [now], |r| r.get(0)).expect("plain");
    assert!((a - b).abs() / b < 1e-9, "{a} vs {b}");

    let mut g = c.benchmark_group("score_1M_rows");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    g.bench_function("recall_score", |bench| {
        bench.iter(|| conn.query_row(ours, [now], |r| r.get::<_, f64>(0)))
    });
    g.bench_function("plain_sql_expression", |bench| {
        bench.iter(|| conn.query_row(plain, [now], |r| r.get::<_, f64>(0)))
    });
    g.finish();
}

criterion_group!(benches, per_call, scoring_a_million_rows);
criterion_main!(benches);
