//! Search's context stage (docs/queries.md, "Context"): each rule on a hand-made library
//! with its answer worked out beside it, then a differential test against a computation
//! of the rule written here in Rust. The libraries index no neighbours' titles (the
//! index's context column, tests/neighbour_context.rs), so that the stage is seen alone.

use rand::{rngs::StdRng, Rng, SeedableRng};
use serde_json::Value;

use crate::common::cli::{fillers, ids, titled, TempLib};

const NOW: &str = "2025-06-01T00:00:00Z";

/// `recall --json search QUERY` without recency, with these extra arguments.
fn search(lib: &TempLib, query: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "search", query, "--now", NOW, "--weight", "0", "--limit", "50",
    ];
    args.extend_from_slice(extra);
    lib.json(&args)
}

/// (id, matched_by, context_of) of each result.
fn shown(answer: &Value) -> Vec<(i64, String, Option<i64>)> {
    answer["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["id"].as_i64().expect("id"),
                r["matched_by"].as_str().expect("matched_by").to_string(),
                r["context_of"].as_i64(),
            )
        })
        .collect()
}

fn at(minutes: i64) -> String {
    let t = chrono::DateTime::parse_from_rfc3339("2025-01-01T00:00:00Z").expect("base")
        + chrono::Duration::minutes(minutes);
    t.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// A conversation in project "chat", one turn a minute: the question matches "kettle",
/// the turns after it do not.
fn conversation() -> TempLib {
    let mut items = vec![
        titled("who fixed the kettle")
            .project("chat")
            .at(&at(0))
            .line(), // 1
        titled("Ana did, on Monday")
            .project("chat")
            .at(&at(1))
            .line(), // 2
        titled("with a new fuse").project("chat").at(&at(2)).line(), // 3
        titled("then lunch").project("chat").at(&at(3)).line(),      // 4
        titled("much later").project("chat").at(&at(300)).line(),    // 5
        titled("same minute, other project")
            .project("other")
            .at(&at(1))
            .line(), // 6
    ];
    items.extend(fillers(20));
    TempLib::with_items(None, &items).without_index_context()
}

#[test]
fn on_by_default_and_off_at_weight_or_radius_zero() {
    let lib = conversation();
    // The defaults: 0.3 of its relevance to the 2 items on each side within 30 minutes.
    let rel = lib.relevance("\"kettle\"")[0].1;
    let answer = search(&lib, "kettle", &[]);
    assert_eq!(
        shown(&answer),
        [
            (1, "terms".into(), None),
            (3, "context".into(), Some(1)),
            (2, "context".into(), Some(1)),
        ]
    );
    let share = answer["results"][1]["relevance"]
        .as_f64()
        .expect("relevance");
    assert!((share - 0.3 * rel).abs() < 1e-12, "{share} vs 0.3 of {rel}");
    for extra in [
        &["--context-weight", "0", "--context-radius", "3"][..],
        &["--context-weight", "0.5", "--context-radius", "0"][..],
    ] {
        let answer = search(&lib, "kettle", extra);
        assert_eq!(shown(&answer), [(1, "terms".into(), None)], "{extra:?}");
    }
}

#[test]
fn radius_counts_positions_in_time_within_the_project() {
    let lib = conversation();
    let rel = lib.relevance("\"kettle\"")[0].1;
    let one = search(
        &lib,
        "kettle",
        &["--context-weight", "0.5", "--context-radius", "1"],
    );
    assert_eq!(
        shown(&one),
        [(1, "terms".into(), None), (2, "context".into(), Some(1))]
    );
    let share = one["results"][1]["relevance"].as_f64().expect("relevance");
    assert!(
        (share - 0.5 * rel).abs() < 1e-12,
        "{share} vs half of {rel}"
    );
    // Radius 3 reaches turns 2, 3 and 4, not item 6 of another project at the same
    // minute, nor turn 5 five hours later (past the default gap).
    let three = search(
        &lib,
        "kettle",
        &["--context-weight", "0.5", "--context-radius", "3"],
    );
    assert_eq!(
        shown(&three),
        [
            (1, "terms".into(), None),
            // Equal shares: the newer first, as every tie of search.
            (4, "context".into(), Some(1)),
            (3, "context".into(), Some(1)),
            (2, "context".into(), Some(1)),
        ]
    );
}

#[test]
fn gap_bounds_the_time_between_neighbours() {
    let lib = conversation();
    let w = ["--context-weight", "0.3", "--context-radius", "10"];
    let gap = |minutes: &str| {
        let mut extra = w.to_vec();
        extra.extend(["--context-gap", minutes]);
        ids(&search(&lib, "kettle", &extra))
    };
    assert_eq!(gap("0"), [1]);
    assert_eq!(gap("1"), [1, 2]);
    assert_eq!(gap("2.5"), [1, 3, 2]);
    assert_eq!(gap("299"), [1, 4, 3, 2]);
    assert_eq!(gap("300"), [1, 5, 4, 3, 2]);
}

#[test]
fn items_without_a_project_are_neighbours_within_their_source() {
    let items = [
        titled("the parrot escaped").source("log").at(&at(0)).line(), // 1
        titled("found in the garden")
            .source("log")
            .at(&at(2))
            .line(), // 2
        titled("unrelated chat").source("chat").at(&at(1)).line(),    // 3
        titled("projects are other scopes")
            .source("log")
            .project("p")
            .at(&at(1))
            .line(), // 4
    ];
    let lib = TempLib::with_items(None, &items).without_index_context();
    let answer = search(
        &lib,
        "parrot",
        &["--context-weight", "0.3", "--context-radius", "1"],
    );
    assert_eq!(
        shown(&answer),
        [(1, "terms".into(), None), (2, "context".into(), Some(1))]
    );
}

#[test]
fn a_hit_takes_the_share_of_its_best_neighbour_and_neighbours_join_the_pool() {
    // Two hits side by side: each lends to the other; the weaker gains more than the
    // stronger loses nothing. Item 3 joins through the better of its two hit neighbours.
    let mut items = vec![
        titled("walrus walrus walrus")
            .project("z")
            .at(&at(0))
            .line(), // 1: strong
        titled("a walrus in a long sentence of many words")
            .project("z")
            .at(&at(1))
            .line(), // 2
        titled("and then nothing").project("z").at(&at(2)).line(), // 3
    ];
    items.extend(fillers(20));
    let lib = TempLib::with_items(None, &items).without_index_context();
    let rel: std::collections::HashMap<i64, f64> =
        lib.relevance("\"walrus\"").into_iter().collect();
    let answer = search(
        &lib,
        "walrus",
        &["--context-weight", "0.4", "--context-radius", "2"],
    );
    let got: Vec<(i64, f64)> = answer["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["id"].as_i64().expect("id"),
                r["relevance"].as_f64().expect("rel"),
            )
        })
        .collect();
    let want = [
        (1, rel[&1] + 0.4 * rel[&2]),
        (2, rel[&2] + 0.4 * rel[&1]),
        (3, 0.4 * rel[&1]),
    ];
    let mut want = want.to_vec();
    want.sort_by(|a, b| b.1.total_cmp(&a.1));
    assert_eq!(got.len(), 3);
    for ((gid, grel), (wid, wrel)) in got.iter().zip(&want) {
        assert_eq!(gid, wid);
        assert!((grel - wrel).abs() < 1e-9, "{gid}: {grel} vs {wrel}");
    }
    assert_eq!(shown(&answer)[2], (3, "context".into(), Some(1)));
}

#[test]
fn filters_and_access_bind_the_neighbours() {
    let items = [
        titled("the lighthouse lamp failed")
            .source("ops")
            .project("sea")
            .at(&at(0))
            .line(), // 1
        titled("secret cause")
            .source("private")
            .project("sea")
            .at(&at(1))
            .line(), // 2
        titled("public cause")
            .source("ops")
            .project("sea")
            .at(&at(2))
            .line(), // 3
        titled("next week")
            .source("ops")
            .project("sea")
            .at(&at(3))
            .line(), // 4
    ];
    let lib = TempLib::with_items(None, &items).without_index_context();
    let on = ["--context-weight", "0.3", "--context-radius", "2"];
    assert_eq!(ids(&search(&lib, "lighthouse", &on)), [1, 3, 2]);
    // A forbidden item is no one's neighbour: positions count the readable items only,
    // so radius 2 reaches 3 and 4, as if 2 were not there (equal shares: the newer first).
    let mut allowed = on.to_vec();
    allowed.extend(["--allow", "ops"]);
    assert_eq!(ids(&search(&lib, "lighthouse", &allowed)), [1, 4, 3]);
    // A filter is not access: the filtered-out item keeps its place, so radius 2 reaches
    // 3 and not 4.
    let mut sourced = on.to_vec();
    sourced.extend(["--source", "ops"]);
    assert_eq!(ids(&search(&lib, "lighthouse", &sourced)), [1, 3]);
    let mut until = on.to_vec();
    let bound = at(2);
    until.extend(["--until", &bound]);
    assert_eq!(ids(&search(&lib, "lighthouse", &until)), [1, 2]);
}

#[test]
fn recency_reranks_the_combined_relevance() {
    // The neighbour is a year newer than the hit: with recency weight 1 its share,
    // undecayed, outranks the hit's decayed relevance.
    let items = [
        titled("the quokka question")
            .project("q")
            .at("2024-06-01T00:00:00Z")
            .line(),
        titled("an answer")
            .project("q")
            .at("2024-06-01T00:01:00Z")
            .line(),
    ];
    let lib = TempLib::with_items(None, &items).without_index_context();
    let rel = lib.relevance("\"quokka\"")[0].1;
    let answer = lib.json(&[
        "search",
        "quokka",
        "--now",
        "2024-06-01T00:01:00Z",
        "--weight",
        "1",
        "--half-life",
        "0.0001",
        "--context-weight",
        "0.5",
    ]);
    let scores: Vec<f64> = answer["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["score"].as_f64().expect("score"))
        .collect();
    assert_eq!(ids(&answer), [2, 1]);
    assert!(
        (scores[0] - 0.5 * rel).abs() < 1e-9,
        "{} vs {}",
        scores[0],
        0.5 * rel
    );
    assert!(scores[1] < 1e-6, "the hit decayed to {}", scores[1]);
}

#[test]
fn explain_and_text_name_the_neighbour() {
    let lib = conversation();
    let on = [
        "--context-weight",
        "0.5",
        "--context-radius",
        "1",
        "--explain",
    ];
    let answer = search(&lib, "kettle", &on);
    let c = &answer["explain"]["context"];
    assert_eq!(c["on"], true);
    assert_eq!(c["radius"], 1);
    assert_eq!(c["weight"], 0.5);
    assert_eq!(c["joined"], serde_json::json!([{"id": 2, "next_to": 1}]));
    assert_eq!(answer["settings"]["context"]["gap_minutes"], 30.0);
    let text = lib
        .run(&[
            "search",
            "kettle",
            "--now",
            NOW,
            "--context-weight",
            "0.5",
            "--context-radius",
            "1",
        ])
        .ok()
        .stdout;
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("[1] ") && !lines[0].contains("next to"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("[2] ") && lines[1].ends_with(" next to [1]"),
        "{text}"
    );
    assert!(!text.contains("# matched by"), "{text}");
}

#[test]
fn settings_are_checked_everywhere() {
    let lib = conversation();
    lib.run(&["search", "x", "--context-radius", "11"])
        .fails_with("--context-radius must be a whole number from 0 to 10, got 11");
    lib.run(&["search", "x", "--context-weight", "1.5"])
        .fails_with("--context-weight must be from 0 to 1, got 1.5");
    lib.run(&["search", "x", "--context-gap=-1"])
        .fails_with("--context-gap must be from 0 to 525600, got -1");
    let config = lib.path("bad.toml");
    std::fs::write(&config, "[search]\ncontext_radius = 2.5\n").expect("write config");
    let cfg = config.to_str().expect("utf-8 path");
    assert_ne!(lib.run(&["--config", cfg, "search", "x"]).code, 0);
    std::fs::write(
        &config,
        "[search]\ncontext_weight = 0.5\ncontext_radius = 1\n",
    )
    .expect("write config");
    let answer = lib.json(&["--config", cfg, "search", "kettle", "--now", NOW]);
    assert_eq!(ids(&answer), [1, 2], "the config turns context on");
    let cases = lib.path("cases.jsonl");
    std::fs::write(
        &cases,
        format!("{{\"id\": \"c\", \"query\": \"kettle\", \"now\": \"{NOW}\", \"expect\": [2]}}\n"),
    )
    .expect("write cases");
    let report = lib.json(&[
        "eval",
        cases.to_str().expect("utf-8 path"),
        "--set",
        "search.context_weight=0,0.5",
        "--set",
        "search.context_radius=1",
        "--set",
        "search.context_gap_minutes=30",
    ]);
    let text = report.to_string();
    assert!(text.contains("context_weight=0.5"), "{text}");
    lib.run(&[
        "eval",
        cases.to_str().expect("path"),
        "--set",
        "search.context_radius=-1",
    ])
    .fails_with("--set search.context_radius must be a whole number from 0 to 10, got -1");
}

// ---- The differential test -------------------------------------------------------------

struct Row {
    id: i64,
    project: Option<&'static str>,
    source: &'static str,
    minute: i64,
}

const WORDS: [&str; 8] = [
    "kiwi", "mango", "papaya", "lychee", "guava", "quince", "durian", "feijoa",
];

/// A library of clustered turns: runs of items minutes apart, runs days apart, in two
/// projects and in two sources without a project; titles of 1–3 words of WORDS and a
/// word of their own, so that relevance rarely ties.
fn random_library(rng: &mut StdRng, n: usize) -> (Vec<Row>, Vec<String>) {
    let mut rows = Vec::new();
    let mut lines = Vec::new();
    let mut minute = 0;
    for i in 0..n {
        minute += if rng.random_bool(0.2) {
            rng.random_range(600..5000)
        } else {
            rng.random_range(0..20)
        };
        let (project, source) = match rng.random_range(0..4) {
            0 => (Some("p1"), "a"),
            1 => (Some("p2"), if rng.random_bool(0.5) { "a" } else { "b" }),
            2 => (None, "a"),
            _ => (None, "b"),
        };
        let k = rng.random_range(1..4);
        let mut words: Vec<String> = (0..k)
            .map(|_| WORDS[rng.random_range(0..WORDS.len())].to_string())
            .collect();
        words.extend((0..rng.random_range(0..5)).map(|j| format!("pad{i}x{j}")));
        let mut f = titled(&words.join(" ")).source(source).at(&at(minute));
        if let Some(p) = project {
            f = f.project(p);
        }
        lines.push(f.line());
        rows.push(Row {
            id: i as i64 + 1,
            project,
            source,
            minute,
        });
    }
    (rows, lines)
}

/// The context stage computed from the rows and FTS5's relevance of the matches:
/// (id, relevance, matched_by, context_of), ranked as search ranks without recency.
fn oracle(
    rows: &[Row],
    matches: &[(i64, f64)],
    weight: f64,
    radius: usize,
    gap: f64,
    allowed: impl Fn(&Row) -> bool,
) -> Vec<(i64, f64, &'static str, Option<i64>)> {
    let row = |id: i64| &rows[(id - 1) as usize];
    let pool: Vec<(i64, f64)> = matches
        .iter()
        .copied()
        .filter(|(id, _)| allowed(row(*id)))
        .collect();
    let mut lent: std::collections::BTreeMap<i64, (f64, i64)> = Default::default();
    if weight > 0.0 && radius > 0 {
        for &(hit, rel) in &pool {
            let h = row(hit);
            // Positions count the readable items only.
            let mut scope: Vec<&Row> = rows
                .iter()
                .filter(|r| allowed(r))
                .filter(|r| match h.project {
                    Some(p) => r.project == Some(p),
                    None => r.project.is_none() && r.source == h.source,
                })
                .collect();
            scope.sort_by_key(|r| (r.minute, r.id));
            let pos = scope
                .iter()
                .position(|r| r.id == hit)
                .expect("in its scope");
            let lo = pos.saturating_sub(radius);
            let hi = (pos + radius).min(scope.len() - 1);
            for r in &scope[lo..=hi] {
                if r.id == hit || ((r.minute - h.minute).abs() as f64) > gap {
                    continue;
                }
                let better = match lent.get(&r.id) {
                    None => true,
                    Some(&(best, of)) => rel > best || (rel == best && hit < of),
                };
                if better {
                    lent.insert(r.id, (rel, hit));
                }
            }
        }
    }
    let mut out: Vec<(i64, f64, &'static str, Option<i64>)> = pool
        .iter()
        .map(|&(id, rel)| match lent.get(&id) {
            Some(&(best, of)) => (id, rel + weight * best, "terms", Some(of)),
            None => (id, rel, "terms", None),
        })
        .collect();
    for (&id, &(best, of)) in &lent {
        if !pool.iter().any(|p| p.0 == id) && allowed(row(id)) {
            out.push((id, 0.0 + weight * best, "context", Some(of)));
        }
    }
    out.sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then(row(b.0).minute.cmp(&row(a.0).minute))
            .then(b.0.cmp(&a.0))
    });
    out.truncate(50);
    out
}

#[test]
fn differential_against_the_rule_computed_in_rust() {
    let mut rng = StdRng::seed_from_u64(14);
    let mut checked = 0;
    for library in 0..3 {
        let (rows, lines) = random_library(&mut rng, 90);
        let lib = TempLib::with_items(None, &lines).without_index_context();
        for _ in 0..12 {
            let word = WORDS[rng.random_range(0..WORDS.len())];
            let weight = [0.0, 0.15, 0.3, 1.0][rng.random_range(0..4)];
            let radius = rng.random_range(0..4usize);
            let gap = [0.0, 5.0, 30.0, 1e5][rng.random_range(0..4)];
            let allow = rng.random_range(0..3);
            let matches = lib.relevance(&format!("\"{word}\""));
            let want = oracle(&rows, &matches, weight, radius, gap, |r| match allow {
                1 => r.source == "a",
                _ => true,
            });
            let (w, rad, g) = (weight.to_string(), radius.to_string(), gap.to_string());
            let mut extra = vec![
                "--context-weight",
                &w,
                "--context-radius",
                &rad,
                "--context-gap",
                &g,
            ];
            if allow == 1 {
                extra.extend(["--allow", "a"]);
            }
            let answer = search(&lib, word, &extra);
            let got: Vec<(i64, f64, String, Option<i64>)> = answer["results"]
                .as_array()
                .expect("results")
                .iter()
                .map(|r| {
                    (
                        r["id"].as_i64().expect("id"),
                        r["score"].as_f64().expect("score"),
                        r["matched_by"].as_str().expect("matched_by").to_string(),
                        r["context_of"].as_i64(),
                    )
                })
                .collect();
            let case = format!("library {library}, {word:?} {extra:?}");
            assert_eq!(got.len(), want.len(), "{case}\ngot  {got:?}\nwant {want:?}");
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(
                    (g.0, g.2.as_str(), g.3),
                    (w.0, w.2, w.3),
                    "{case}\ngot  {got:?}\nwant {want:?}"
                );
                assert!((g.1 - w.1).abs() < 1e-9, "{case}: score {} vs {}", g.1, w.1);
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 36);
}

#[test]
fn weight_zero_answers_as_the_two_stage_search() {
    // On the bundled sample library, every unfiltered query of the bundled set, with
    // context off by its weight while its radius and gap would reach far: the answer is
    // the two-stage search computed here from FTS5's relevance and the core's score.
    use recall_core::{fts_match, score, time};
    let lib = TempLib::init(None);
    let sample = crate::common::root().join("examples/sample.jsonl");
    lib.run(&["import", sample.to_str().expect("path")]).ok();
    let conn = lib.conn();
    let dates: std::collections::HashMap<i64, String> = conn
        .prepare("select id, occurred_at from items")
        .expect("prepare")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("query")
        .collect::<rusqlite::Result<_>>()
        .expect("rows");
    let now = time::unix_seconds(&time::parse_datetime(NOW).expect("now"));
    let cases = std::fs::read_to_string(crate::common::root().join("examples/sample_cases.jsonl"))
        .expect("cases");
    let mut compared = 0;
    for line in cases.lines() {
        let case: Value = serde_json::from_str(line).expect("case");
        let Some(query) = case["query"].as_str() else {
            continue;
        };
        if ["project", "source", "since", "until"]
            .iter()
            .any(|k| !case[k].is_null())
        {
            continue;
        }
        let off = lib.json(&[
            "search",
            query,
            "--now",
            NOW,
            "--context-weight",
            "0",
            "--context-radius",
            "10",
            "--context-gap",
            "525600",
        ]);
        let fts = fts_match::to_match(&fts_match::match_terms_with(
            query,
            fts_match::MatchRules::for_tokenizer("trigram", true),
        ));
        let mut want: Vec<(i64, f64, &str)> = lib
            .relevance(&fts)
            .into_iter()
            .take(200)
            .map(|(id, rel)| {
                let date = dates[&id].as_str();
                let at = time::unix_seconds(&time::parse_datetime(date).expect("date"));
                let decay = score::decay(time::age_days(at, now), 90.0);
                // search's default recency weight
                (id, score::score(-rel, Some(decay), 0.1), date)
            })
            .collect();
        want.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.2.cmp(a.2)).then(b.0.cmp(&a.0)));
        want.truncate(10);
        let rows = off["results"].as_array().expect("results");
        let got: Vec<(i64, f64)> = rows
            .iter()
            .map(|r| {
                (
                    r["id"].as_i64().expect("id"),
                    r["score"].as_f64().expect("score"),
                )
            })
            .collect();
        assert_eq!(
            got.iter().map(|g| g.0).collect::<Vec<_>>(),
            want.iter().map(|w| w.0).collect::<Vec<_>>(),
            "{query}"
        );
        for (g, w) in got.iter().zip(&want) {
            assert!((g.1 - w.1).abs() < 1e-9, "{query}: {} vs {}", g.1, w.1);
        }
        assert!(rows
            .iter()
            .all(|r| r["matched_by"] == "terms" && r["context_of"].is_null()));
        compared += 1;
    }
    assert!(compared >= 40, "only {compared} unfiltered search cases");
}

/// The alias of each `items` table reference in `sql/search.sql`, whose rows must only
/// ever be read by id or through a stretch of a time index: a plan that scans one reads
/// every item of the library on every search.
const ITEM_ALIASES: [&str; 4] = ["i", "n", "y", "items"];

#[test]
fn search_never_scans_the_items() {
    // SQLite's planner picks join orders from the library's statistics: with `analyze`
    // (as `recall optimize` leaves it) and without, on 2,000 items, context on and off,
    // with each filter. A scan of `items` (SQLite 3.54 once chose one, probing the pool
    // through a Bloom filter) turns a 15 ms search into 150 ms at 50,000 items.
    let lib = TempLib::init(None);
    lib.import(&crate::common::cli::generated_items(2000)).ok();
    let file = lib.path("plan.sql");
    let search =
        std::fs::read_to_string(crate::common::root().join("sql/search.sql")).expect("search.sql");
    std::fs::write(&file, format!("explain query plan\n{search}")).expect("write plan.sql");
    let file = file.to_str().expect("utf-8 path");
    for analyzed in [false, true] {
        if analyzed {
            lib.run(&["optimize"]).ok();
        }
        for (weight, nearest) in [
            ("0", None),
            ("0.3", None),
            ("0.3", Some("nearest=[3, 1, 40, 7]")),
        ] {
            for filter in [
                &[][..],
                &["-p", "project=project-3"][..],
                &["-p", "source=agent-a"][..],
                &["-p", "since=2024-03-01", "-p", "until=2024-06-01"][..],
                &["-p", "sources=[\"agent-*\"]"][..],
            ] {
                let mut args = vec![
                    "--json",
                    "sql",
                    "--file",
                    file,
                    "-p",
                    "query=migrate widget7 analytics3",
                    "-p",
                ];
                let w = format!("context_weight={weight}");
                args.push(&w);
                if let Some(n) = nearest {
                    args.extend(["-p", n]);
                }
                args.extend_from_slice(filter);
                let plan = lib.run(&args).ok().json();
                let details: Vec<&str> = plan
                    .as_array()
                    .unwrap_or_else(|| panic!("rows in {plan}"))
                    .iter()
                    .filter_map(|r| r["detail"].as_str())
                    .collect();
                let scans: Vec<&&str> = details
                    .iter()
                    .filter(|d| {
                        let mut words = d.split_whitespace();
                        words.next() == Some("SCAN")
                            && words
                                .next()
                                .is_some_and(|alias| ITEM_ALIASES.contains(&alias))
                    })
                    .collect();
                assert!(
                    scans.is_empty(),
                    "analyzed {analyzed}, weight {weight}, {nearest:?}, {filter:?}: {scans:?} in\n{}",
                    details.join("\n")
                );
                assert!(details.iter().any(|d| d.contains("items_by_project")) || weight == "0");
            }
        }
    }
}
