//! The vector channel end to end, with the deterministic embedder
//! `tests/vectors/fake_embed.py`: `recall embed` makes sqlite-vec's table and its record
//! on first use, embeds only what changed, refuses another model or size, resumes after
//! SIGKILL and after a failing embedder; search fuses the literal list and the nearest
//! items by reciprocal rank exactly as computed here from the stored vectors and the
//! literal answer, leaves the literal answer untouched without the channel, falls back
//! to it when the embedder fails, and `recall eval --set vectors=off,on` compares both.

use std::collections::{BTreeMap, HashSet};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

use crate::common::cli::{generated_items, kill_at_pause, titled, Ran, TempLib};
use crate::common::root;
use crate::common::vectors::{
    batch_config, fake, fake_logging, fake_vectors, requests, spawn_embed, stored, vectors_only,
};

/// The fixed "now" of every search here, so that two runs can be compared byte for byte.
const NOW: &str = "2026-01-01T00:00:00Z";

fn sample_path() -> String {
    root()
        .join("examples/sample.jsonl")
        .to_string_lossy()
        .into_owned()
}

/// A library of the bundled sample (300 items, ids 1 to 300 in file order).
fn sample() -> TempLib {
    let lib = TempLib::init(None);
    lib.run(&["import", &sample_path()]).ok();
    lib
}

fn sample_items() -> Vec<Value> {
    std::fs::read_to_string(sample_path())
        .expect("sample")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

/// The words of an item that its vector is made of: title, summary, questions and atoms
/// (not the project, not the transcript), and its neighbours' titles, of which the sample
/// items have none (none is within 30 minutes of another of its project or source). The
/// fake counts words, so their order and the separators do not matter.
fn words_of(item: &Value) -> String {
    let mut parts = vec![item["title"].as_str().expect("title").to_string()];
    for field in ["summary", "questions", "atoms"] {
        match &item[field] {
            Value::String(s) => parts.push(s.clone()),
            Value::Array(list) => {
                parts.extend(list.iter().map(|x| x.as_str().expect("text").to_string()))
            }
            Value::Null => {}
            other => panic!("{field}: {other}"),
        }
    }
    parts.join(" ")
}

/// A configuration file `name` in the library's directory.
fn config(lib: &TempLib, name: &str, toml: &str) -> String {
    let path = lib.path(name);
    std::fs::write(&path, toml).expect("write config");
    path.to_string_lossy().into_owned()
}

/// `recall --json sql SQL`: the rows as JSON objects.
fn sql(lib: &TempLib, query: &str) -> Vec<Value> {
    lib.json(&["sql", query])
        .as_array()
        .unwrap_or_else(|| panic!("sql answer is not an array"))
        .clone()
}

/// The model and dimensions recorded in `recall_meta` (a plain table, read directly).
fn record(lib: &TempLib) -> (Option<String>, Option<String>) {
    let conn = lib.conn();
    let get = |key: &str| {
        conn.query_row("select value from recall_meta where key = ?1", [key], |r| {
            r.get(0)
        })
        .ok()
    };
    (get("vector_model"), get("vector_dimensions"))
}

/// The names of the vector table, its shadow tables and the table of their contexts.
fn vector_tables(lib: &TempLib) -> Vec<String> {
    let conn = lib.conn();
    let mut stmt = conn
        .prepare(
            "select name from sqlite_master
             where name like 'item_vectors%' or name = 'item_vector_contexts' order by name",
        )
        .expect("prepare");
    let names = stmt
        .query_map([], |r| r.get(0))
        .expect("query")
        .collect::<rusqlite::Result<Vec<String>>>()
        .expect("rows");
    names
}

/// Asserts that the library file is byte for byte what `before` holds (from
/// `TempLib::files` after a checkpoint) and that its log holds nothing: a read-only
/// search leaves an empty `-wal`, as every search does.
fn assert_unchanged(lib: &TempLib, before: &[Option<Vec<u8>>; 2], what: &str) {
    let [file, wal] = lib.files();
    assert!(file == before[0], "{what} changed the library file");
    assert!(
        wal.as_ref().is_none_or(Vec::is_empty),
        "{what} left {} bytes in the log",
        wal.map_or(0, |w| w.len())
    );
}

fn ids_up_to(n: i64) -> Vec<i64> {
    (1..=n).collect()
}

/// The one `recall: …` line of a failure, for failures checked for several needles.
fn one_error_line(r: &Ran) -> String {
    assert_ne!(r.code, 0, "expected failure; stdout: {}", r.stdout);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "expected one error line: {:?}", r.stderr);
    assert!(lines[0].starts_with("recall: "), "{}", lines[0]);
    lines[0].to_string()
}

fn assert_mentions(line: &str, needles: &[&str]) {
    for n in needles {
        assert!(line.contains(n), "{line:?} lacks {n:?}");
    }
}

/// Sleeps until the clock is in a later whole second than `stamp` (an ISO time with whole
/// seconds, as imported_at is), so that a write now gets a different imported_at.
fn after_the_second_of(stamp: &str) {
    loop {
        let now = sqlite_now();
        if now.as_str() > stamp {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The current UTC time as `YYYY-MM-DDTHH:MM:SSZ`, from SQLite (the clock imported_at
/// is read from).
fn sqlite_now() -> String {
    let conn = rusqlite::Connection::open_in_memory().expect("memory db");
    conn.query_row("select strftime('%Y-%m-%dT%H:%M:%SZ', 'now')", [], |r| {
        r.get(0)
    })
    .expect("now")
}

#[test]
fn embed_makes_the_table_records_the_model_and_embeds_only_what_changed() {
    let lib = sample();
    assert!(vector_tables(&lib).is_empty(), "init makes no vector table");
    let log = lib.path("requests.log");
    let cmd = fake_logging(&log, "");
    let first = lib.json(&["embed", "--embed-cmd", &cmd]);
    assert_eq!(first["embedded"], 300, "{first}");
    assert_eq!(first["model"], "fake-bow");
    assert_eq!(first["dimensions"], 64);
    // The default batch is 32 texts a request.
    let mut want_requests = vec![32; 9];
    want_requests.push(12);
    assert_eq!(requests(&log), want_requests);
    assert_eq!(
        record(&lib),
        (Some("fake-bow".into()), Some("64".into())),
        "recall_meta records the model and dimensions"
    );
    assert!(vector_tables(&lib).contains(&"item_vectors".to_string()));
    assert_eq!(
        sql(&lib, "select count(*) as n from item_vectors")[0]["n"],
        300
    );

    // Each item's vector is the fake's for its title, summary, questions and atoms (no
    // sample item has neighbours).
    let items = sample_items();
    let texts: Vec<String> = items.iter().map(words_of).collect();
    let want = fake_vectors(&texts, &[]);
    let before = stored(&lib);
    assert_eq!(before.keys().copied().collect::<Vec<_>>(), ids_up_to(300));
    let imported: BTreeMap<i64, String> = sql(&lib, "select id, imported_at from items")
        .iter()
        .map(|r| {
            (
                r["id"].as_i64().unwrap(),
                r["imported_at"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    for (i, w) in want.iter().enumerate() {
        let id = i as i64 + 1;
        assert_eq!(&before[&id].0, w, "vector of item {id}");
        assert_eq!(before[&id].1, imported[&id], "imported_at of item {id}");
    }

    // Nothing changed: no item is sent, only one text that checks the embedder's model.
    let second = lib.json(&["embed", "--embed-cmd", &cmd]);
    assert_eq!(second["embedded"], 0, "{second}");
    assert_eq!(requests(&log)[10..], [1], "a second run sent items");

    // One item replaced (same id, other words) in a later second: that item alone.
    after_the_second_of(&imported[&7]);
    let mut changed = items[6].clone();
    changed["id"] = json!(7);
    changed["title"] = json!("Rollout of the billing service postponed");
    changed["summary"] = json!("The deployment waits for the payment provider's sandbox.");
    lib.import(&changed.to_string()).ok();
    let third = lib.json(&["embed", "--embed-cmd", &cmd]);
    assert_eq!(third["embedded"], 1, "{third}");
    assert_eq!(requests(&log)[11..], [1]);
    let after = vectors_only(&lib);
    let new7 = fake_vectors(&[words_of(&changed)], &[]).remove(0);
    assert_ne!(new7, before[&7].0, "the change must change the vector");
    assert_eq!(after[&7], new7);
    for (id, (v, _)) in &before {
        if *id != 7 {
            assert_eq!(&after[id], v, "item {id} changed");
        }
    }

    // --all sends every item again and changes no vector.
    let all = lib.json(&["embed", "--all", "--embed-cmd", &cmd]);
    assert_eq!(all["embedded"], 300, "{all}");
    assert_eq!(requests(&log)[12..], want_requests[..]);
    assert_eq!(vectors_only(&lib), after);
}

/// imported_at has whole seconds: an item replaced in the second of its embedding has
/// the same one. The replacement drops the vector, so the next `recall embed` makes it.
#[test]
fn an_item_replaced_in_the_second_of_its_embedding_is_embedded_again() {
    let items = vec![
        titled("Postgres connection pool exhausted").line(),
        titled("Weekly planning notes").line(),
        titled("Release checklist for the mobile app").line(),
    ];
    // The import, the embedding and the replacement within one second, most often:
    // start just after a second begins. The vector goes with the replacement either way.
    let into_second = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock")
        .subsec_millis();
    std::thread::sleep(Duration::from_millis(u64::from(1000 - into_second) + 10));
    let lib = TempLib::with_items(None, &items);
    lib.json(&["embed", "--embed-cmd", &fake("")]);
    let replaced = json!({"id": 2, "source": "s", "title": "Database outage postmortem",
                          "summary": "", "occurred_at": "2025-01-01T00:00:00Z"});
    lib.import(&replaced.to_string()).ok();
    assert!(
        !stored(&lib).contains_key(&2),
        "the replaced item kept its vector"
    );
    let again = lib.json(&["embed", "--embed-cmd", &fake("")]);
    // Item 2, and its neighbours 1 and 3 (the same time, one source), whose vectors
    // hold its old title.
    assert_eq!(
        again["embedded"], 3,
        "the replaced item 2 was not embedded again: {again}"
    );
    let want = fake_vectors(
        &["Database outage postmortem Postgres connection pool exhausted Release checklist for the mobile app".to_string()],
        &[],
    )
    .remove(0);
    assert_eq!(vectors_only(&lib)[&2], want, "item 2 keeps its old vector");
}

#[test]
fn another_model_or_size_is_refused_and_changes_nothing() {
    let lib = TempLib::with_items(None, &[generated_items(40)]);
    lib.json(&["embed", "--embed-cmd", &fake("")]);
    // A new item, so that embed has a batch to send.
    lib.import(&titled("widget analytics dashboard").line())
        .ok();
    lib.checkpoint();
    let files = lib.files();
    for (options, needles) in [
        (
            "--model other",
            [
                "model \"other\" with 64 dimensions",
                "model \"fake-bow\" with 64",
                "recall embed --drop",
            ],
        ),
        (
            "--dimensions 32",
            [
                "model \"fake-bow\" with 32 dimensions",
                "model \"fake-bow\" with 64",
                "recall embed --drop",
            ],
        ),
    ] {
        let embed = lib.run(&["embed", "--embed-cmd", &fake(options)]);
        assert_eq!(embed.code, 2, "{embed:?}");
        assert_mentions(&one_error_line(&embed), &needles);
        assert_unchanged(&lib, &files, &format!("embed {options}"));
        let search = lib.run(&["search", "widget", "--embed-cmd", &fake(options)]);
        assert_eq!(search.code, 2, "{search:?}");
        assert_mentions(&one_error_line(&search), &needles);
        assert_unchanged(&lib, &files, &format!("search {options}"));
    }
    assert_eq!(stored(&lib).len(), 40);

    // --drop removes the table, its shadow tables and the record; another model then
    // makes its own.
    let dropped = lib.json(&["embed", "--drop"]);
    assert_eq!(dropped["dropped"], true, "{dropped}");
    assert!(vector_tables(&lib).is_empty(), "{:?}", vector_tables(&lib));
    assert_eq!(record(&lib), (None, None));
    let again = lib.json(&["embed", "--drop"]);
    assert_eq!(again["dropped"], false, "{again}");
    let other = lib.json(&[
        "embed",
        "--embed-cmd",
        &fake("--model other --dimensions 32"),
    ]);
    assert_eq!(other["embedded"], 41, "{other}");
    assert_eq!(record(&lib), (Some("other".into()), Some("32".into())));
    let vectors = vectors_only(&lib);
    assert_eq!(vectors.len(), 41);
    assert!(vectors.values().all(|v| v.len() == 32));
}

/// With every item embedded, an embedder of another model is refused all the same.
#[test]
fn another_model_is_refused_when_every_item_already_has_a_vector() {
    let lib = TempLib::with_items(None, &[generated_items(20)]);
    lib.json(&["embed", "--embed-cmd", &fake("")]);
    lib.checkpoint();
    let files = lib.files();
    let embed = lib.run(&["embed", "--embed-cmd", &fake("--model other")]);
    assert_eq!(embed.code, 2, "{embed:?}");
    assert_mentions(
        &one_error_line(&embed),
        &["\"other\"", "\"fake-bow\"", "recall embed --drop"],
    );
    assert_unchanged(&lib, &files, "a refused embed");
}

#[test]
fn model_and_dimensions_make_the_table_without_an_embedder() {
    let lib = TempLib::with_items(None, &[generated_items(10)]);
    lib.checkpoint();
    let files = lib.files();
    for (dims, shown) in [("0", "got 0"), ("9000", "got 9000"), ("-3", "got -3")] {
        let r = lib.run(&["embed", "--model", "m", &format!("--dimensions={dims}")]);
        assert_eq!(r.code, 2, "{r:?}");
        assert_mentions(
            &one_error_line(&r),
            &["--dimensions must be a whole number from 1 to 8192", shown],
        );
        assert_unchanged(&lib, &files, &format!("--dimensions {dims}"));
    }
    let r = lib.run(&["embed", "--model", " ", "--dimensions", "4"]);
    assert_mentions(&one_error_line(&r), &["--model: give the model's name"]);
    assert_eq!(r.code, 2);
    assert_unchanged(&lib, &files, "a refused embed");
    // Each flag needs the other (a usage error, before the library is opened).
    assert_eq!(lib.run(&["embed", "--dimensions", "4"]).code, 2);
    assert_eq!(lib.run(&["embed", "--model", "m"]).code, 2);
    assert_unchanged(&lib, &files, "a refused embed");

    let made = lib.json(&["embed", "--model", "m", "--dimensions", "16"]);
    assert_eq!(made["created"], true, "{made}");
    assert_eq!(record(&lib), (Some("m".into()), Some("16".into())));
    assert_eq!(
        sql(&lib, "select count(*) as n from item_vectors")[0]["n"],
        0
    );
    let same = lib.json(&["embed", "--model", "m", "--dimensions", "16"]);
    assert_eq!(same["created"], false, "{same}");
    let other = lib.run(&["embed", "--model", "m2", "--dimensions", "16"]);
    assert_eq!(other.code, 2);
    assert_mentions(
        &one_error_line(&other),
        &["\"m2\"", "\"m\"", "recall embed --drop"],
    );
    // The default fake (fake-bow, 64) does not fit the table; its twin of m/16 does.
    let search = lib.run(&["search", "widget", "--embed-cmd", &fake("")]);
    assert_eq!(search.code, 2);
    assert_mentions(&one_error_line(&search), &["\"fake-bow\"", "\"m\""]);
    let fits = lib.json(&["embed", "--embed-cmd", &fake("--model m --dimensions 16")]);
    assert_eq!(fits["embedded"], 10, "{fits}");
    assert_eq!(record(&lib), (Some("m".into()), Some("16".into())));
}

/// `check` finds nothing wrong.
fn assert_healthy(lib: &TempLib) {
    let failed = lib.run(&["--json", "check"]).failed_checks();
    assert!(failed.is_empty(), "check: {failed:?}");
}

#[test]
fn embed_killed_midway_keeps_its_batches_and_resumes() {
    let reference = sample();
    let lib = sample();
    let cfg = batch_config(&lib, 32);
    reference
        .run(&["--config", &cfg, "embed", "--embed-cmd", &fake("")])
        .ok();
    let want = vectors_only(&reference);
    assert_eq!(want.len(), 300);

    kill_at_pause(spawn_embed(&lib, &cfg, &fake(""), Some("embed:64")));
    assert_healthy(&lib);
    let kept = vectors_only(&lib);
    assert_eq!(kept.keys().copied().collect::<Vec<_>>(), ids_up_to(64));
    assert_eq!(record(&lib), (Some("fake-bow".into()), Some("64".into())));

    let log = lib.path("requests.log");
    let rest = lib.json(&[
        "--config",
        &cfg,
        "embed",
        "--embed-cmd",
        &fake_logging(&log, ""),
    ]);
    assert_eq!(rest["embedded"], 236, "{rest}");
    let mut want_requests = vec![32; 7];
    want_requests.push(12);
    assert_eq!(
        requests(&log),
        want_requests,
        "the rerun sent more than the rest"
    );
    assert_eq!(vectors_only(&lib), want);
    assert_healthy(&lib);
}

#[test]
fn an_embedder_failing_midway_leaves_the_batches_done() {
    let lib = sample();
    let cfg = batch_config(&lib, 32);
    let failed = lib.run(&[
        "--config",
        &cfg,
        "embed",
        "--embed-cmd",
        &fake("--fail-after 2"),
    ]);
    assert_eq!(failed.code, 2, "{failed:?}");
    assert_mentions(
        &one_error_line(&failed),
        &[
            "exit status: 3",
            "fix the embedder, then run `recall embed` again",
            "the 64 items embedded before keep their vectors",
        ],
    );
    assert_eq!(
        vectors_only(&lib).keys().copied().collect::<Vec<_>>(),
        ids_up_to(64)
    );
    assert_healthy(&lib);
    let log = lib.path("requests.log");
    let rest = lib.json(&[
        "--config",
        &cfg,
        "embed",
        "--embed-cmd",
        &fake_logging(&log, ""),
    ]);
    assert_eq!(rest["embedded"], 236, "{rest}");
    assert_eq!(requests(&log).iter().sum::<usize>(), 236);
    assert_eq!(vectors_only(&lib).len(), 300);

    // An embedder that answers garbage from the start: nothing stored, no table made.
    let fresh = sample();
    fresh.checkpoint();
    let files = fresh.files();
    let garbage = fresh.run(&["embed", "--embed-cmd", &fake("--garbage")]);
    assert_eq!(garbage.code, 2, "{garbage:?}");
    assert_mentions(
        &one_error_line(&garbage),
        &[
            "\"this is not json\"",
            "fix the embedder",
            "the 0 items embedded before",
        ],
    );
    assert!(vector_tables(&fresh).is_empty());
    assert_unchanged(&fresh, &files, "a garbage embedder");
}

/// What the oracle needs of an item.
struct Item {
    project: Option<String>,
    source: String,
    date: String,
}

fn items_of(lib: &TempLib) -> BTreeMap<i64, Item> {
    sql(lib, "select id, project, source, occurred_at from items")
        .iter()
        .map(|r| {
            (
                r["id"].as_i64().expect("id"),
                Item {
                    project: r["project"].as_str().map(str::to_string),
                    source: r["source"].as_str().expect("source").to_string(),
                    date: r["occurred_at"].as_str().expect("date").to_string(),
                },
            )
        })
        .collect()
}

/// The cosine distance as sqlite-vec 0.1.9 computes it (sums in f32, the square roots
/// and the quotient in f64, the result an f32), so that equal and nearly equal distances
/// order as its scan orders them.
fn cosine_distance(a: &[f32], b: &[f32]) -> f32 {
    let (mut dot, mut aa, mut bb) = (0f32, 0f32, 0f32);
    for (x, y) in a.iter().zip(b) {
        dot += x * y;
        aa += x * x;
        bb += y * y;
    }
    (1.0 - f64::from(dot) / (f64::from(aa).sqrt() * f64::from(bb).sqrt())) as f32
}

/// One hybrid search to check against the fusion computed here.
struct Fusion<'a> {
    query: &'a str,
    pool: i64,
    /// Extra flags: filters and --allow.
    flags: Vec<&'a str>,
    /// Which items the flags let through.
    passes: &'a dyn Fn(&Item) -> bool,
}

/// The weights and k of the fusion, as the configuration sets them.
#[derive(Clone, Copy)]
struct Rrf {
    literal_weight: f64,
    vector_weight: f64,
    k: f64,
}

const DEFAULT_RRF: Rrf = Rrf {
    literal_weight: 1.0,
    vector_weight: 0.9,
    k: 60.0,
};

/// The fusion a checked search runs with, as the configuration sets it.
#[derive(Clone, Copy)]
enum Fuse {
    Rrf(Rrf),
    /// The convex fusion and its vector share.
    Convex(f64),
}

/// `x` between `least` and `best`, from 0 to 1 (all equal: 1), as docs/vectors.md says.
fn unit(x: f64, least: f64, best: f64) -> f64 {
    if best <= least {
        return if x >= best { 1.0 } else { 0.0 };
    }
    ((x - least) / (best - least)).clamp(0.0, 1.0)
}

/// What a checked search had: how many results came from each list alone.
#[derive(Default, Debug)]
struct Seen {
    results: usize,
    vector_only: usize,
    literal_only: usize,
    both: usize,
    /// Items only the vector list found, left out as too far (convex).
    too_far: usize,
}

impl std::ops::AddAssign for Seen {
    fn add_assign(&mut self, o: Seen) {
        self.results += o.results;
        self.vector_only += o.vector_only;
        self.literal_only += o.literal_only;
        self.both += o.both;
        self.too_far += o.too_far;
    }
}

/// Runs `f` with the channel and without it, and checks the hybrid answer against the
/// fusion of the literal answer's list (in its order) and the `pool` items
/// nearest the query's fake vector among those the flags let through (by distance, id):
/// ids, order (fused desc, date desc, id desc), ranks, fused, score (= fused at weight 0),
/// matched_by and relevance. Under convex, an item only the vector list found is there
/// only if its similarity is in the upper three quarters of the list's span.
fn check_fusion(
    lib: &TempLib,
    cfg: &str,
    fuse: Fuse,
    items: &BTreeMap<i64, Item>,
    vectors: &BTreeMap<i64, Vec<f32>>,
    f: &Fusion,
) -> Seen {
    let pool = f.pool.to_string();
    let mut args = vec![
        "--config", cfg, "--json", "search", f.query, "--weight", "0", "--limit", "1000", "--pool",
        &pool, "--now", NOW,
    ];
    args.extend(&f.flags);
    let literal = lib
        .run(&[&args[..], &["--no-vectors"]].concat())
        .ok()
        .json();
    let embed = fake("");
    let hybrid = lib
        .run(&[&args[..], &["--embed-cmd", &embed, "--explain"]].concat())
        .ok()
        .json();
    let what = format!("{:?} pool {} {:?}", f.query, f.pool, f.flags);

    let literal_list: Vec<&Value> = literal["results"]
        .as_array()
        .expect("results")
        .iter()
        .collect();
    for r in &literal_list {
        assert!(
            r.get("fused").is_none(),
            "{what}: a literal row has fused: {r}"
        );
    }
    // The literal list is the literal answer, in its order (recency, then date and id
    // for ties): recency ranks the literal list before the fusion.
    let literal_rank: BTreeMap<i64, (usize, &Value)> = literal_list
        .iter()
        .enumerate()
        .map(|(i, r)| (r["id"].as_i64().unwrap(), (i + 1, *r)))
        .collect();

    let q = fake_vectors(&[f.query.to_string()], &[]).remove(0);
    let mut near: Vec<(f32, i64)> = vectors
        .iter()
        .filter(|(id, _)| (f.passes)(&items[id]))
        .map(|(id, v)| (cosine_distance(v, &q), *id))
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let k = f.pool.max(10) as usize;
    if near.len() > k {
        assert!(
            near[k - 1].0 < near[k].0,
            "{what}: the {k}th and the next nearest are at the same distance {}: which one is kept is not defined by the ids (see the test of ties)",
            near[k].0
        );
    }
    near.truncate(k);
    let vector_rank: BTreeMap<i64, usize> = near
        .iter()
        .enumerate()
        .map(|(i, (_, id))| (*id, i + 1))
        .collect();

    let similarity: BTreeMap<i64, f64> = near
        .iter()
        .map(|(d, id)| (*id, 1.0 - f64::from(*d)))
        .collect();
    let (best, least) = (
        near.first().map_or(0.0, |n| 1.0 - f64::from(n.0)),
        near.last().map_or(0.0, |n| 1.0 - f64::from(n.0)),
    );
    let best_literal = literal_list
        .iter()
        .map(|r| r["score"].as_f64().expect("score"))
        .fold(0.0, f64::max);
    let agreement = literal_rank
        .iter()
        .filter(|(id, (r, _))| *r <= 10 && vector_rank.get(id).is_some_and(|v| *v <= 10))
        .count() as f64
        / 10.0;
    let fused_of = |id: i64| -> Option<f64> {
        let lr = literal_rank.get(&id).map(|(r, _)| *r);
        let vr = vector_rank.get(&id).copied();
        match fuse {
            Fuse::Rrf(rrf) => {
                let rrf_of = |rank: Option<usize>, weight: f64| {
                    rank.map_or(0.0, |r| weight / (rrf.k + r as f64))
                };
                Some(rrf_of(lr, rrf.literal_weight) + rrf_of(vr, rrf.vector_weight))
            }
            Fuse::Convex(share) => {
                let near = similarity.get(&id).map_or(0.0, |s| unit(*s, least, best));
                match literal_rank.get(&id) {
                    Some((_, lit)) => {
                        let w = share * agreement;
                        let literal = unit(lit["score"].as_f64().unwrap(), 0.0, best_literal);
                        Some((1.0 - w) * literal + w * near)
                    }
                    // Too far to join by its vector alone.
                    None if similarity[&id] < least + 0.25 * (best - least) => None,
                    None => Some(share * near),
                }
            }
        }
    };
    let candidates: HashSet<i64> = literal_rank
        .keys()
        .chain(vector_rank.keys())
        .copied()
        .collect();
    let mut want: Vec<(f64, i64)> = candidates
        .iter()
        .filter_map(|id| fused_of(*id).map(|f| (f, *id)))
        .collect();
    let too_far = candidates.len() - want.len();
    want.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then(items[&b.1].date.cmp(&items[&a.1].date))
            .then(b.1.cmp(&a.1))
    });

    let got = hybrid["results"].as_array().expect("results");
    let got_ids: Vec<i64> = got.iter().map(|r| r["id"].as_i64().unwrap()).collect();
    let want_ids: Vec<i64> = want.iter().map(|w| w.1).collect();
    assert_eq!(got_ids, want_ids, "{what}: ids and order");
    let mut seen = Seen {
        results: got.len(),
        too_far,
        ..Seen::default()
    };
    for (row, (fused, id)) in got.iter().zip(&want) {
        let close = |key: &str, v: f64| {
            let x = row[key]
                .as_f64()
                .unwrap_or_else(|| panic!("{what}: {key} of {row}"));
            assert!(
                (x - v).abs() < 1e-9,
                "{what}: {key} of [{id}] is {x}, want {v}"
            );
        };
        assert!(
            (f.passes)(&items[id]),
            "{what}: [{id}] is outside the filters"
        );
        close("fused", *fused);
        close("score", *fused);
        match vector_rank.get(id) {
            Some(r) => assert_eq!(row["vector_rank"], json!(r), "{what}: [{id}]"),
            None => assert_eq!(row["vector_rank"], Value::Null, "{what}: [{id}]"),
        }
        match literal_rank.get(id) {
            Some((r, lit)) => {
                assert_eq!(row["literal_rank"], json!(r), "{what}: [{id}]");
                assert_eq!(row["matched_by"], lit["matched_by"], "{what}: [{id}]");
                assert_eq!(row["context_of"], lit["context_of"], "{what}: [{id}]");
                close("relevance", lit["relevance"].as_f64().unwrap());
                if vector_rank.contains_key(id) {
                    seen.both += 1;
                } else {
                    seen.literal_only += 1;
                }
            }
            None => {
                assert_eq!(row["literal_rank"], Value::Null, "{what}: [{id}]");
                assert_eq!(row["matched_by"], "vector", "{what}: [{id}]");
                assert_eq!(row["context_of"], Value::Null, "{what}: [{id}]");
                close("relevance", 0.0);
                seen.vector_only += 1;
            }
        }
    }
    let v = &hybrid["explain"]["vectors"];
    assert_eq!(v["on"], true, "{what}: {v}");
    assert_eq!(v["model"], "fake-bow");
    assert_eq!(v["nearest"], json!(near.len()), "{what}");
    match fuse {
        Fuse::Rrf(rrf) => {
            assert_eq!(v["fusion"], "rrf");
            assert_eq!(v["rrf_k"], json!(rrf.k));
            assert_eq!(v["literal_weight"], json!(rrf.literal_weight));
            assert_eq!(v["vector_weight"], json!(rrf.vector_weight));
        }
        Fuse::Convex(share) => {
            assert_eq!(v["fusion"], "convex");
            assert_eq!(v["vector_share"], json!(share));
        }
    }
    seen
}

fn embedded_sample() -> TempLib {
    let lib = sample();
    lib.json(&["embed", "--embed-cmd", &fake("")]);
    lib
}

#[test]
fn search_fuses_the_literal_and_the_nearest_lists_by_each_fusion() {
    let lib = embedded_sample();
    // rrf by name: today's fusion, result for result.
    let cfg = config(
        &lib,
        "wide.toml",
        "[search]\nmax_limit = 1000\n[vectors]\nfusion = \"rrf\"\n",
    );
    let items = items_of(&lib);
    let vectors = vectors_only(&lib);
    let all = |_: &Item| true;
    let api = |i: &Item| i.project.as_deref() == Some("api");
    let allowed = |i: &Item| i.source == "agent-claude" || i.source == "human-notes";
    let shop_claude = |i: &Item| i.project.as_deref() == Some("shop") && i.source == "agent-claude";
    // Each pool is one where the k-th nearest and the next are at different distances:
    // which of two items tied at the cut is kept is the subject of the test of ties.
    let cases = [
        Fusion {
            query: "sqlite3.OperationalError: database is locked",
            pool: 10,
            flags: vec![],
            passes: &all,
        },
        Fusion {
            query: "ECONNREFUSED postgres connection",
            pool: 15,
            flags: vec![],
            passes: &all,
        },
        Fusion {
            query: "deploy failed outage",
            pool: 11,
            flags: vec![],
            passes: &all,
        },
        Fusion {
            query: "dependency upgrade",
            pool: 22,
            flags: vec![],
            passes: &all,
        },
        Fusion {
            query: "analytics script consent banner",
            pool: 18,
            flags: vec![],
            passes: &all,
        },
        Fusion {
            query: "Stripe PayPal payment gateway",
            pool: 13,
            flags: vec![],
            passes: &all,
        },
        Fusion {
            query: "database is locked",
            pool: 16,
            flags: vec!["--project", "api"],
            passes: &api,
        },
        Fusion {
            query: "slow tests",
            pool: 12,
            flags: vec!["--project", "api"],
            passes: &api,
        },
        Fusion {
            query: "release rollout broken",
            pool: 14,
            flags: vec!["--allow", "agent-claude", "--allow", "human-notes"],
            passes: &allowed,
        },
        Fusion {
            query: "weekly notes",
            pool: 11,
            flags: vec!["--allow", "agent-claude", "--allow", "human-notes"],
            passes: &allowed,
        },
        // Fewer items pass than the pool: the nearest list is all of them.
        Fusion {
            query: "payment provider",
            pool: 10,
            flags: vec!["--project", "shop", "--allow", "agent-claude"],
            passes: &shop_claude,
        },
    ];
    let mut total = Seen::default();
    for f in &cases {
        let seen = check_fusion(&lib, &cfg, Fuse::Rrf(DEFAULT_RRF), &items, &vectors, f);
        eprintln!("{:?} {:?}: {seen:?}", f.query, f.flags);
        total += seen;
    }
    // The cases exercise all three kinds of result, else they could not catch a wrong one.
    assert!(
        total.vector_only > 0 && total.literal_only > 0 && total.both > 0,
        "{total:?}"
    );

    // The weights and k of the configuration.
    let weighted = config(
        &lib,
        "weighted.toml",
        "[search]\nmax_limit = 1000\n[vectors]\nfusion = \"rrf\"\nliteral_weight = 0.5\nvector_weight = 2.0\nrrf_k = 5\n",
    );
    let rrf = Rrf {
        literal_weight: 0.5,
        vector_weight: 2.0,
        k: 5.0,
    };
    for f in &cases[..3] {
        check_fusion(&lib, &weighted, Fuse::Rrf(rrf), &items, &vectors, f);
    }

    // The default, convex, at its default share and at another.
    let convex = config(&lib, "convex.toml", "[search]\nmax_limit = 1000\n");
    let mut total = Seen::default();
    for f in &cases {
        total += check_fusion(&lib, &convex, Fuse::Convex(0.4), &items, &vectors, f);
    }
    // Some near items joined, some far ones did not, and some items were in both lists.
    assert!(
        total.vector_only > 0 && total.too_far > 0 && total.both > 0,
        "{total:?}"
    );
    let shared = config(
        &lib,
        "shared.toml",
        "[search]\nmax_limit = 1000\n[vectors]\nvector_share = 0.7\n",
    );
    for f in &cases[..3] {
        check_fusion(&lib, &shared, Fuse::Convex(0.7), &items, &vectors, f);
    }
}

#[test]
fn without_the_channel_search_is_the_literal_one() {
    let plain = sample();
    let embedded = embedded_sample();
    let embed = fake("");
    let queries = [
        "database is locked",
        "auth endpoint slow",
        "Which database does the API use?",
    ];
    for q in queries {
        let args = ["--json", "search", q, "--now", NOW, "--limit", "20"];
        let literal = plain.run(&args).ok().stdout;
        let results = serde_json::from_str::<Value>(&literal).expect("JSON")["results"].clone();
        assert!(
            !results.as_array().expect("results").is_empty(),
            "{q}: nothing found"
        );
        for r in results.as_array().unwrap() {
            for key in ["literal_rank", "vector_rank", "fused"] {
                assert!(r.get(key).is_none(), "{q}: literal row with {key}: {r}");
            }
        }
        // No vectors in the library: the embedder is not even asked.
        let with_embedder = plain.run(&[&args[..], &["--embed-cmd", &embed]].concat());
        assert_eq!(
            with_embedder.ok().stdout,
            literal,
            "{q}: no vectors, an embedder"
        );
        // Vectors, but the channel off or without an embedder.
        let off = embedded.run(&[&args[..], &["--no-vectors"]].concat());
        assert_eq!(off.ok().stdout, literal, "{q}: --no-vectors");
        let no_embedder = embedded.run(&args);
        assert_eq!(no_embedder.ok().stdout, literal, "{q}: no embedder");
        // With the channel the answer differs: it carries the fusion's fields.
        let on = embedded
            .run(&[&args[..], &["--embed-cmd", &embed]].concat())
            .ok()
            .json();
        assert!(on["results"][0].get("fused").is_some(), "{q}: {on}");

        let explained = |lib: &TempLib, more: &[&str]| {
            let a = lib
                .run(&[&args[..], &["--explain"], more].concat())
                .ok()
                .json();
            assert_eq!(
                a["results"], results,
                "{q} {more:?}: --explain changed the results"
            );
            a["explain"].clone()
        };
        let e = explained(&plain, &["--embed-cmd", &embed]);
        assert!(e.is_object(), "{q}: no explain");
        assert!(e.get("vectors").is_none(), "{q}: no vectors, yet {e}");
        let e = explained(&embedded, &["--no-vectors"]);
        assert_eq!(e["vectors"]["on"], false, "{q}: {e}");
        assert_mentions(
            e["vectors"]["reason"].as_str().expect("reason"),
            &["--no-vectors"],
        );
        let e = explained(&embedded, &[]);
        assert_eq!(e["vectors"]["on"], false, "{q}: {e}");
        assert_mentions(
            e["vectors"]["reason"].as_str().expect("reason"),
            &["no embedder", "--embed-cmd"],
        );
    }
}

#[test]
fn an_embedder_failing_at_search_time_gives_the_literal_answer() {
    let lib = embedded_sample();
    let cfg = config(&lib, "quick.toml", "[vectors]\ntimeout_ms = 300\n");
    let q = "database is locked";
    let args = [
        "--config",
        &cfg,
        "--json",
        "search",
        q,
        "--now",
        NOW,
        "--explain",
    ];
    let literal = lib
        .run(&[&args[..], &["--no-vectors"]].concat())
        .ok()
        .json();
    let missing = lib.path("no-such-embedder");
    let missing = missing.to_string_lossy();
    for (cmd, needles) in [
        (
            fake("--garbage"),
            vec![
                "\"this is not json\"",
                "is not {\"id\", \"model\", \"vectors\"} JSON",
            ],
        ),
        (
            fake("--sleep 5"),
            vec!["no answer within 300 ms", "vectors.timeout_ms"],
        ),
        (
            fake("--fail-after 0"),
            vec!["the embedder ended", "failing on purpose"],
        ),
        (
            format!("'{missing}' --flag"),
            vec!["cannot start the embedder", "no-such-embedder"],
        ),
    ] {
        let started = std::time::Instant::now();
        let r = lib.run(&[&args[..], &["--embed-cmd", &cmd]].concat());
        let took = started.elapsed();
        assert_eq!(r.code, 0, "{cmd}: {r:?}");
        assert!(r.stderr.is_empty(), "{cmd}: {}", r.stderr);
        assert!(took < Duration::from_secs(4), "{cmd}: took {took:?}");
        let a = r.json();
        assert_eq!(
            a["results"], literal["results"],
            "{cmd}: not the literal answer"
        );
        let v = &a["explain"]["vectors"];
        assert_eq!(v["on"], false, "{cmd}: {v}");
        let reason = v["reason"].as_str().expect("reason");
        assert_mentions(reason, &needles);
        assert_mentions(reason, &["the literal answer"]);
    }
}

#[test]
fn eval_compares_the_literal_and_the_hybrid_search() {
    let lib = embedded_sample();
    let cases = root().join("examples/sample_cases.jsonl");
    let cases = cases.to_string_lossy();
    let embed = fake("");
    let plain = lib.json(&["eval", &cases]);
    let both = lib.json(&[
        "eval",
        &cases,
        "--set",
        "vectors=off,on",
        "--embed-cmd",
        &embed,
    ]);
    let variants = both["variants"].as_array().expect("variants");
    assert_eq!(variants.len(), 2, "{both}");
    let (off, on) = (&variants[0], &variants[1]);
    assert_eq!(off["settings"]["vectors"]["on"], false, "{off}");
    assert_eq!(on["settings"]["vectors"]["on"], true, "{on}");
    assert_eq!(off["summary"], plain["variants"][0]["summary"]);
    assert_eq!(off["per_tag"], plain["variants"][0]["per_tag"]);
    assert_eq!(off["cases"], plain["variants"][0]["cases"]);
    assert!(on["summary"]["mrr"].is_number(), "{on}");
    // The "on" column ran the hybrid search: a case's ranks are where its expected ids
    // are in the hybrid answer.
    let case = serde_json::from_str::<Value>(
        std::fs::read_to_string(root().join("examples/sample_cases.jsonl"))
            .expect("cases")
            .lines()
            // The first line names the items file (docs/evaluation.md#cases).
            .find(|l| !l.starts_with("{\"items\""))
            .expect("a case"),
    )
    .expect("JSON");
    let hybrid = lib.json(&[
        "search",
        case["query"].as_str().expect("query"),
        "--now",
        case["now"].as_str().expect("now"),
        "--embed-cmd",
        &embed,
    ]);
    let ids: Vec<i64> = hybrid["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .collect();
    let want: Vec<Value> = case["expect"]
        .as_array()
        .expect("expect")
        .iter()
        .filter_map(|e| {
            let id = e.as_i64()?;
            let at = ids.iter().position(|x| *x == id)?;
            Some(json!([id, at + 1]))
        })
        .collect();
    let got = on["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == case["id"])
        .expect("the case in the on column");
    assert_eq!(got["ranks"], json!(want), "{got}");

    assert_eq!(on["summary"]["fell_back"], 0, "{on}");
    // An embedder that fails gives each search case the literal answer: counted per
    // case and in the summary, with one warning, never read as vectors that add nothing.
    let r = lib.run(&[
        "--json",
        "eval",
        &cases,
        "--set",
        "vectors=on",
        "--embed-cmd",
        &fake("--garbage"),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let broken = &r.json()["variants"][0];
    let searches = broken["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|c| c["kind"] == "search")
        .count();
    assert!(searches > 40, "{searches}");
    assert_eq!(broken["summary"]["fell_back"], searches, "{broken}");
    for c in broken["cases"].as_array().expect("cases") {
        let why = c["fell_back"].as_str();
        if c["kind"] == "search" {
            assert!(why.is_some_and(|w| w.contains("embedder")), "{c}");
        } else {
            assert_eq!(why, None, "vectors serve search only: {c}");
        }
    }
    assert_eq!(
        broken["summary"]["mrr"], off["summary"]["mrr"],
        "the literal answer"
    );
    let warning: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(warning.len(), 1, "{}", r.stderr);
    assert!(
        warning[0].starts_with(&format!(
            "recall: warning: vectors=on: {searches} of {} cases got the literal answer because a process failed; the first, case-01: ",
            broken["summary"]["cases"]
        )),
        "{}",
        r.stderr
    );

    // "on" needs an embedder.
    let r = lib.run(&["eval", &cases, "--set", "vectors=off,on"]);
    assert_eq!(r.code, 2);
    assert_mentions(&one_error_line(&r), &["vectors=on", "no embedder"]);
}

/// `recall forget` removes the forgotten items' vectors.
#[test]
fn forget_removes_the_vectors_of_forgotten_items() {
    let lib = TempLib::with_items(None, &[generated_items(20)]);
    lib.json(&["embed", "--embed-cmd", &fake("")]);
    lib.run(&["forget", "3"]).ok();
    let left: Vec<i64> = vectors_only(&lib).keys().copied().collect();
    assert_eq!(left, (1..=20).filter(|i| *i != 3).collect::<Vec<_>>());
}
