//! The scale benchmark: synthetic libraries of N items, the CLI's queries timed against
//! bare FTS5 (baseline a) and a Python re-ranker (baseline b) in the same run.
//!
//! cargo bench --bench scale -- [--quick] [--sizes 10000,50000,200000,1000000]
//!                                [--queries 200] [--tokenizer SPEC]
//!
//! Libraries are cached in target/scale/ (built once per size, seed and tokenizer). The
//! report goes to stdout and target/scale/report.md. Libraries use the `trigram`
//! tokenizer by default, so that the system Python's SQLite 3.40 can run baseline (b)
//! (`trigram remove_diacritics 1` needs 3.45).
#[path = "scale/corpus.rs"]
mod corpus;
#[path = "scale/vectors.rs"]
mod vectors;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use recall_cli::library::sql_file::queries;
use recall_cli::library::{self, Mode};
use recall_cli::query;
use recall_cli::settings::{self, Filters, Ranking};
use rusqlite::Connection;

const SEED: u64 = 42;
/// The shares above which pruning drops a query word.
const PRUNE_SHARES: [f64; 2] = [0.05, 0.25];
/// The default tokenizer of the benchmark (see the module comment); `--tokenizer` sets
/// another.
const TOKENIZER: &str = "trigram";
const NOW: &str = "2026-01-01T00:00:00Z";
const BARE: &str = "select rowid from items_fts where items_fts match ?1 \
                    order by bm25(items_fts, 2.0, 1.0, 1.5, 1.5, 0.5) limit 200";

struct Opts {
    tokenizer: String,
    sizes: Vec<usize>,
    queries: usize,
    out: PathBuf,
}

fn opts() -> Opts {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut o = Opts {
        tokenizer: TOKENIZER.to_string(),
        sizes: vec![10_000, 50_000, 200_000, 1_000_000],
        queries: 200,
        out: target_dir().join("scale"),
    };
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--quick" => {
                o.sizes = vec![2_000];
                o.queries = 20;
            }
            "--sizes" => {
                i += 1;
                o.sizes = args[i]
                    .split(',')
                    .map(|s| s.parse().expect("a size"))
                    .collect();
            }
            "--tokenizer" => {
                i += 1;
                o.tokenizer = args[i].clone();
            }
            "--queries" => {
                i += 1;
                o.queries = args[i].parse().expect("a number of queries");
            }
            _ => {}
        }
        i += 1;
    }
    o
}

fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("bench path");
    exe.parent()
        .and_then(Path::parent)
        .and_then(Path::parent)
        .expect("target dir")
        .to_path_buf()
}

fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("bench path");
    exe.parent()
        .and_then(Path::parent)
        .expect("profile dir")
        .to_path_buf()
}

/// Builds (or reuses) the library of n items; returns seconds spent building it.
fn build(n: usize, path: &Path, tokenizer: &str) -> f64 {
    let tag = format!("{SEED}-{n}-v2");
    if path.exists() {
        if let Ok(conn) = Connection::open(path) {
            let found: Option<(String, String)> = conn
                .query_row(
                    "select (select value from recall_meta where key = 'bench'), (select value from recall_meta where key = 'bench_build_seconds')",
                    [],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .ok();
            if let Some((t, secs)) = found {
                if t == tag {
                    return secs.parse().unwrap_or(0.0);
                }
            }
        }
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
    }
    eprintln!("building {n} items at {}", path.display());
    let started = Instant::now();
    let mut lib = library::create(path, tokenizer).expect("create library");
    let mut generator = corpus::Generator::new(SEED);
    {
        let tx = lib.conn.transaction().expect("begin");
        {
            let mut stmt = tx.prepare(queries::IMPORT_ITEM.sql).expect("prepare");
            for _ in 0..n {
                let item =
                    recall_cli::item::Item::from_json(&generator.item()).expect("valid item");
                item.insert(&mut stmt).expect("insert");
            }
        }
        tx.commit().expect("commit");
    }
    lib.conn
        .execute_batch("insert into items_fts(items_fts) values ('optimize'); analyze;")
        .expect("optimize");
    let secs = started.elapsed().as_secs_f64();
    lib.conn
        .execute(
            "insert into recall_meta(key, value) values ('bench', ?1), ('bench_build_seconds', ?2)",
            [tag, secs.to_string()],
        )
        .expect("record");
    lib.conn
        .execute_batch("pragma wal_checkpoint(truncate)")
        .expect("checkpoint");
    secs
}

struct Timing {
    name: String,
    ms: Vec<f64>,
}

impl Timing {
    fn pct(&self, p: f64) -> f64 {
        let mut v = self.ms.clone();
        v.sort_by(f64::total_cmp);
        if v.is_empty() {
            return 0.0;
        }
        let idx = ((p / 100.0) * (v.len() - 1) as f64).round() as usize;
        v[idx]
    }
}

fn time_each<F: FnMut(usize)>(name: &str, n: usize, mut f: F) -> Timing {
    for i in 0..n.min(5) {
        f(i); // warm the page cache
    }
    let mut ms = Vec::with_capacity(n);
    for i in 0..n {
        let t = Instant::now();
        f(i);
        ms.push(t.elapsed().as_secs_f64() * 1e3);
    }
    Timing {
        name: name.to_string(),
        ms,
    }
}

/// Several ways of running the same queries, timed in turn on each query (the first of
/// them moving one place a query), so that a machine busier for a while weighs on every
/// one alike and their ratios hold under a changing load.
fn time_interleaved<F: FnMut(usize, usize)>(names: &[&str], n: usize, mut f: F) -> Vec<Timing> {
    let k = names.len();
    for i in 0..n.min(5) {
        for v in 0..k {
            f(v, i); // warm the page cache
        }
    }
    let mut ms = vec![Vec::with_capacity(n); k];
    for i in 0..n {
        for step in 0..k {
            let v = (i + step) % k;
            let t = Instant::now();
            f(v, i);
            ms[v].push(t.elapsed().as_secs_f64() * 1e3);
        }
    }
    names
        .iter()
        .zip(ms)
        .map(|(name, ms)| Timing {
            name: name.to_string(),
            ms,
        })
        .collect()
}

/// Baseline (b), where the system Python's SQLite (3.40) can read the library: not for
/// `trigram remove_diacritics 1` (3.45+); for `recall`, with the extension loaded (only
/// its tokenizer is used; the re-ranking stays Python's).
fn python_baseline(db: &Path, queries: &[String], tokenizer: &str) -> Option<Timing> {
    use recall_cli::tokenizer::{min_sqlite_version, needs_extension};
    if min_sqlite_version(tokenizer) > (3, 40, 0) && !needs_extension(tokenizer) {
        return None;
    }
    let extension = needs_extension(tokenizer).then(|| profile_dir().join("librecall0"));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/scale/python_rerank.py");
    let input =
        serde_json::json!({ "db": db, "now": NOW, "matches": queries, "extension": extension })
            .to_string();
    let mut child = Command::new("/usr/bin/python3")
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("python");
    assert!(out.status.success(), "python baseline failed");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let ms = v["ms"]
        .as_array()
        .expect("ms")
        .iter()
        .filter_map(|x| x.as_f64())
        .collect();
    Some(Timing {
        name: "baseline (b) Python re-rank".into(),
        ms,
    })
}

/// Peak resident memory (MB) of the CLI running a few searches on the library.
fn cli_peak_mb(db: &Path, queries: &[String]) -> f64 {
    let bin = profile_dir().join("recall");
    if !bin.exists() {
        return f64::NAN;
    }
    let mut peak = 0f64;
    for q in queries.iter().take(5) {
        // Reaped by wait4 below, which also reports the child's peak memory.
        #[allow(clippy::zombie_processes)]
        let child = Command::new(&bin)
            .args([
                "--db",
                db.to_str().expect("path"),
                "--json",
                "search",
                q,
                "--now",
                NOW,
            ])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("recall");
        let mut status = 0;
        // SAFETY: an all-zero rusage is valid; wait4 fills it for our own child.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
        peak = peak.max(usage.ru_maxrss as f64 / 1024.0);
    }
    peak
}

struct SizeReport {
    n: usize,
    tokenizer: String,
    build_s: f64,
    size_mb: f64,
    peak_mb: f64,
    /// (share, part of the unpruned top-10 results that pruned search also returns)
    overlaps: Vec<(f64, f64)>,
    /// The megabytes a 256-dimension vector per item adds (None: not measured here).
    vectors_mb: Option<f64>,
    timings: Vec<Timing>,
}

fn measure(n: usize, o: &Opts) -> SizeReport {
    std::fs::create_dir_all(&o.out).expect("out dir");
    let suffix = if o.tokenizer == TOKENIZER {
        String::new()
    } else {
        format!("-{}", o.tokenizer.split(' ').next().unwrap_or("other"))
    };
    let path = o.out.join(format!("lib-{n}{suffix}.db"));
    let build_s = build(n, &path, &o.tokenizer);
    let size_mb = std::fs::metadata(&path)
        .map(|m| m.len() as f64 / 1e6)
        .unwrap_or(0.0);
    let lib = library::open(&path, Mode::Read, None).expect("open");
    let mut generator = corpus::Generator::new(SEED ^ 0xbeef);
    let queries: Vec<String> = (0..o.queries).map(|_| generator.query()).collect();
    let matches: Vec<String> = queries
        .iter()
        .map(|q| {
            recall_core::fts_match::build_match(
                q,
                recall_core::fts_match::min_chars_for_tokenizer(&o.tokenizer),
                true,
            )
        })
        .collect();
    let ids: Vec<i64> = (0..o.queries).map(|_| generator.below(n as i64)).collect();
    // The CLI's defaults, as a library without a configuration file searches.
    let ranking = Ranking::from_config(&recall_cli::config::Config::default());
    let search_with = |r: &Ranking, q: &str, project: Option<&str>| -> Vec<i64> {
        let s = settings::Search {
            query: q.to_string(),
            ranking: r.clone(),
            limit: 10,
            now: Some(NOW.to_string()),
            filters: Filters {
                project: project.map(str::to_string),
                ..Filters::default()
            },
            allow: None,
        };
        query::search(&lib, &s, false)
            .expect("search")
            .results
            .iter()
            .map(|row| row.item.id)
            .collect()
    };
    let search = |q: &str, project: Option<&str>| search_with(&ranking, q, project).len();
    let mut timings = Vec::new();
    let bare = |m: &str| -> usize {
        let mut stmt = lib.conn.prepare_cached(BARE).expect("bare");
        let rows = stmt.query_map([m], |r| r.get::<_, i64>(0)).expect("query");
        rows.count()
    };
    // The context stage (on by default) costs what search with it off does not: its
    // neighbours within the default gap, and within a day (where, items being hours
    // apart per project, most hits have neighbours).
    let context = |weight: f64, gap_minutes: f64| {
        let mut r = ranking.clone();
        r.search.context_weight = weight;
        r.search.context_gap_minutes = gap_minutes;
        r
    };
    let (off, day) = (
        context(0.0, ranking.search.context_gap_minutes),
        context(ranking.search.context_weight, 1440.0),
    );
    timings.extend(time_interleaved(
        &[
            "baseline (a) bare FTS5",
            "search, all projects",
            "search, context off",
            "search, context within a day",
        ],
        o.queries,
        |v, i| match v {
            0 => {
                bare(&matches[i]);
            }
            1 => {
                search(&queries[i], None);
            }
            2 => {
                search_with(&off, &queries[i], None);
            }
            _ => {
                search_with(&day, &queries[i], None);
            }
        },
    ));
    // Pruning: its speed, and how much of the unpruned top 10 it keeps.
    let mut overlaps = Vec::new();
    for share in PRUNE_SHARES {
        let mut pruning = ranking.clone();
        pruning.search.prune_share = Some(share);
        let name = format!("search, all projects, pruned at {share}");
        timings.push(time_each(&name, o.queries, |i| {
            search_with(&pruning, &queries[i], None);
        }));
        let (mut kept, mut total) = (0usize, 0usize);
        for q in &queries {
            let full = search_with(&ranking, q, None);
            let pruned = search_with(&pruning, q, None);
            total += full.len();
            kept += full.iter().filter(|id| pruned.contains(id)).count();
        }
        overlaps.push((
            share,
            if total == 0 {
                1.0
            } else {
                kept as f64 / total as f64
            },
        ));
    }
    let vectors_mb =
        (n <= VECTORS_UP_TO).then(|| vector_channel(&path, n, o, &queries, &mut timings));
    let large = corpus::project_name(0);
    let five = corpus::project_name(5);
    let small = corpus::project_name(corpus::PROJECTS - 1);
    timings.push(time_each("search, largest project (32%)", o.queries, |i| {
        search(&queries[i], Some(&large));
    }));
    timings.push(time_each("search, 5% project", o.queries, |i| {
        search(&queries[i], Some(&five));
    }));
    timings.push(time_each("search, small project (1%)", o.queries, |i| {
        search(&queries[i], Some(&small));
    }));
    timings.push(time_each("later", o.queries, |i| {
        let s = settings::Later {
            item_id: ids[i],
            query: None,
            limit: 5,
            allow: None,
            kinds: None,
        };
        query::later_results(&lib, &s).expect("later");
    }));
    // The default rule, and Jezero's, which counts no words.
    let mut jezero = ranking.clone();
    jezero.related.rule = recall_cli::config::RelatedRule::Jezero;
    for (name, rule) in [("related", &ranking), ("related, rule jezero", &jezero)] {
        timings.push(time_each(name, o.queries, |i| {
            let prompt = format!(
                "please help me fix the {} when it {}",
                queries[i],
                queries[(i + 1) % queries.len()]
            );
            let s = settings::Related {
                prompt,
                project: None,
                kinds: None,
                ranking: rule.clone(),
                limit: 3,
                now: Some(NOW.to_string()),
                allow: None,
            };
            query::related(&lib, &s, false).expect("related");
        }));
    }
    timings.push(time_each("timeline", o.queries, |i| {
        let s = settings::Timeline {
            filters: Filters {
                project: Some(corpus::project_name(i % corpus::PROJECTS)),
                ..Filters::default()
            },
            limit: 20,
            default_limit: 20,
            allow: None,
            around: None,
        };
        query::timeline(&lib, &s, false).expect("timeline");
    }));
    timings.push(time_each(
        "timeline around an item (3 and 3)",
        o.queries,
        |i| {
            let around = settings::Around {
                id: ids[i],
                before: 3,
                after: 3,
            };
            let s = settings::Timeline {
                filters: Filters::default(),
                limit: 20,
                default_limit: 20,
                allow: None,
                around: Some(around),
            };
            query::around(&lib, &s, &around, false).expect("around");
        },
    ));
    timings.push(time_each("get of 5 ids", o.queries, |i| {
        let five: Vec<i64> = (0..5).map(|k| ids[(i + k) % ids.len()]).collect();
        query::get_many(&lib, &five, false, &None).expect("get");
    }));
    timings.extend(python_baseline(&path, &matches, &o.tokenizer));
    let peak_mb = cli_peak_mb(&path, &queries);
    SizeReport {
        n,
        tokenizer: o.tokenizer.clone(),
        build_s,
        size_mb,
        peak_mb,
        overlaps,
        vectors_mb,
        timings,
    }
}

/// The vector channel is timed up to this size: beyond, its copy of the library would
/// cost gigabytes of disk for a scan whose cost grows linearly anyway.
const VECTORS_UP_TO: usize = 200_000;

/// Times search on a copy of the library with vectors: literal, the nearest 200 alone,
/// and hybrid (the nearest, then search fusing them), all with the CLI's defaults.
fn vector_channel(
    path: &Path,
    n: usize,
    o: &Opts,
    texts: &[String],
    timings: &mut Vec<Timing>,
) -> f64 {
    let vpath = path.with_extension("vectors.db");
    let mb = vectors::library_with_vectors(path, &vpath, SEED ^ n as u64);
    let lib = library::open(&vpath, Mode::Read, None).expect("open");
    let query_vectors = vectors::queries(o.queries, SEED ^ 0x5eed);
    let ranking = Ranking::from_config(&recall_cli::config::Config::default());
    let search = |q: &str| settings::Search {
        query: q.to_string(),
        ranking: ranking.clone(),
        limit: 10,
        now: Some(NOW.to_string()),
        filters: Filters::default(),
        allow: None,
    };
    let nearest = |v: &str| -> Vec<query::vector_channel::Near> {
        query::vector_channel::nearest(&lib, v, &Vec::new(), ranking.search.candidate_pool)
            .expect("nearest")
    };
    // No embedder here: the query's vector is given, and the search fuses its nearest.
    let hybrid = |i: usize| {
        let ids = nearest(&query_vectors[i]);
        query::search_near(&lib, &search(&texts[i]), ids).expect("hybrid search");
    };
    timings.extend(time_interleaved(
        &[
            "vectors: literal search",
            "vectors: nearest 200 alone",
            "vectors: hybrid search",
        ],
        o.queries,
        |v, i| match v {
            0 => {
                query::search(&lib, &search(&texts[i]), false).expect("search");
            }
            1 => {
                nearest(&query_vectors[i]);
            }
            _ => hybrid(i),
        },
    ));
    mb
}

fn report(reports: &[SizeReport]) -> String {
    let mut md = String::new();
    for r in reports {
        md.push_str(&format!(
            "\n### {} items ({})\n\nbuild {:.1} s (import + optimize), file {:.0} MB, CLI peak memory {:.0} MB\n\n| query | p50 ms | p95 ms | p99 ms |\n|---|---|---|---|\n",
            r.n, r.tokenizer, r.build_s, r.size_mb, r.peak_mb
        ));
        for t in &r.timings {
            md.push_str(&format!(
                "| {} | {:.2} | {:.2} | {:.2} |\n",
                t.name,
                t.pct(50.0),
                t.pct(95.0),
                t.pct(99.0)
            ));
        }
        let p95 = |name: &str| {
            r.timings
                .iter()
                .find(|t| t.name.starts_with(name))
                .map(|t| t.pct(95.0))
                .unwrap_or(f64::NAN)
        };
        let a = p95("baseline (a)");
        let b = p95("baseline (b)");
        for (share, overlap) in &r.overlaps {
            md.push_str(&format!(
                "\npruned at {share}: p95 speed-up {:.2}x, top-10 overlap with unpruned {:.1}%\n",
                p95("search, all") / p95(&format!("search, all projects, pruned at {share}")),
                overlap * 100.0
            ));
        }
        md.push_str(&format!(
            "\ncontext (weight 0.3, radius 2): p95 on / off {:.2} within the default gap, {:.2} within a day\n",
            p95("search, all projects") / p95("search, context off"),
            p95("search, context within a day") / p95("search, context off"),
        ));
        if let Some(mb) = r.vectors_mb {
            md.push_str(&format!(
                "\nvectors ({} dimensions): hybrid / literal search p95 {:.2}; nearest alone p95 {:.2} ms; they add {mb:.0} MB ({:.0} bytes per item)\n",
                vectors::DIMENSIONS,
                p95("vectors: hybrid") / p95("vectors: literal"),
                p95("vectors: nearest"),
                mb * 1e6 / r.n as f64,
            ));
        }
        md.push_str(&format!(
            "\np95 ratios: search / bare FTS5 {:.2}; largest project / bare {:.2}; 5% project / bare {:.2}; all projects / 5% project {:.2}; search / Python re-rank {}\n",
            p95("search, all") / a,
            p95("search, largest") / a,
            p95("search, 5%") / a,
            p95("search, all") / p95("search, 5%"),
            // Python's SQLite cannot read every tokenizer (see python_baseline).
            if b.is_nan() {
                "not run (the system Python's SQLite cannot read this tokenizer)".to_string()
            } else {
                format!("{:.2}", p95("search, all") / b)
            },
        ));
    }
    md
}

fn main() {
    let o = opts();
    let mut reports = Vec::new();
    for &n in &o.sizes {
        reports.push(measure(n, &o));
        let md = report(&reports);
        let name = if o.tokenizer == TOKENIZER {
            "report.md".to_string()
        } else {
            format!("report-{}.md", o.tokenizer.replace(' ', "-"))
        };
        std::fs::write(o.out.join(name), &md).expect("write report");
    }
    println!("{}", report(&reports));
}
