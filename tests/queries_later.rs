//! `recall later` and `recall related` (Jezero's rule) against hand-made libraries.

use crate::common::cli::{fillers, ids, titled, TempLib};

/// The cache story of project "p". Ids in order:
///  1 2024-12-01 old "Redis cache notes"                  (before the item: never)
///  2 2025-01-01 THE ITEM "Switch the cache to redis"
///  3 2025-01-01 "Redis cache sizing"                     (same time: counts as newer)
///  4 2025-02-01 "Redis cache eviction tuned"
///  5 2025-03-01 "Cache warmup script"
///  6 2025-04-01 "Unrelated deploy notes"                 (no subject word)
///  7 2025-05-01 "Switch the cache to redis cluster"
///  8 2025-06-01 project q "Redis cache in q"             (other project: never)
///  9 2025-01-15 "Quarterly planning"                     (a subject nobody repeats)
/// 10..29 fillers in project "f", so that IDF stays above FTS5's floor.
fn story() -> TempLib {
    let mut items = vec![
        titled("Redis cache notes")
            .source("agent")
            .project("p")
            .at("2024-12-01T00:00:00Z")
            .line(),
        titled("Switch the cache to redis")
            .source("agent")
            .project("p")
            .line(),
        titled("Redis cache sizing")
            .source("agent")
            .project("p")
            .line(),
        titled("Redis cache eviction tuned")
            .source("agent")
            .project("p")
            .at("2025-02-01T00:00:00Z")
            .line(),
        titled("Cache warmup script")
            .source("agent")
            .project("p")
            .at("2025-03-01T00:00:00Z")
            .line(),
        titled("Unrelated deploy notes")
            .source("agent")
            .project("p")
            .at("2025-04-01T00:00:00Z")
            .line(),
        titled("Switch the cache to redis cluster")
            .source("agent")
            .project("p")
            .at("2025-05-01T00:00:00Z")
            .line(),
        titled("Redis cache in q")
            .source("agent")
            .project("q")
            .at("2025-06-01T00:00:00Z")
            .line(),
        titled("Quarterly planning")
            .source("agent")
            .project("p")
            .at("2025-01-15T00:00:00Z")
            .line(),
    ];
    items.extend(fillers(20));
    TempLib::with_items(None, &items)
}

const DATES: &[(i64, &str)] = &[
    (1, "2024-12-01"),
    (2, "2025-01-01"),
    (3, "2025-01-01"),
    (4, "2025-02-01"),
    (5, "2025-03-01"),
    (6, "2025-04-01"),
    (7, "2025-05-01"),
    (8, "2025-06-01"),
    (9, "2025-01-15"),
];

fn date(id: i64) -> &'static str {
    DATES
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(_, d)| *d)
        .unwrap_or("2023-01-01")
}

/// `later` as docs/queries.md states it, computed in Rust from FTS5's own relevance: the oracle.
fn later_oracle(lib: &TempLib, item_id: i64, fts: &str, scope: &[i64], limit: usize) -> Vec<i64> {
    let hits: Vec<(i64, f64)> = lib
        .relevance_own(fts)
        .into_iter()
        .filter(|(id, _)| scope.contains(id) && date(*id) >= date(item_id))
        .take(50)
        .collect();
    let best = hits.iter().map(|h| h.1).fold(f64::MIN, f64::max);
    let mut kept: Vec<(i64, f64)> = hits
        .into_iter()
        .filter(|(id, r)| *id != item_id && *r >= 0.3 * best)
        .collect();
    kept.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.cmp(&a.0)));
    let top = kept.len().min(2).min(limit);
    let mut chosen: Vec<i64> = kept[..top].iter().map(|k| k.0).collect();
    let mut rest: Vec<i64> = kept[top..].iter().map(|k| k.0).collect();
    rest.sort_by(|a, b| date(*b).cmp(date(*a)).then(b.cmp(a)));
    chosen.extend(rest.into_iter().take(limit - top));
    chosen.sort_by(|a, b| date(*b).cmp(date(*a)).then(b.cmp(a)));
    chosen
}

#[test]
fn later_follows_the_subject_inside_the_project() {
    let lib = story();
    let in_p: Vec<i64> = vec![1, 2, 3, 4, 5, 6, 7, 9];
    // Without a query the subject is the title; stop words ("the", "to") are dropped.
    let fts = "\"Switch\" OR \"cache\" OR \"redis\"";
    for limit in [1usize, 2, 3, 5] {
        let answer = lib.json(&["later", "2", "--limit", &limit.to_string()]);
        let expected = later_oracle(&lib, 2, fts, &in_p, limit);
        assert_eq!(ids(&answer), expected, "limit {limit}");
        for r in answer["results"].as_array().unwrap() {
            assert_eq!(r["matched_by"], "subject");
        }
    }
    let got = ids(&lib.json(&["later", "2"]));
    // Hand-checked facts the oracle must agree with: never the item, the older item,
    // the other project or the unrelated one; the same-time item counts as newer.
    for never in [1, 2, 6, 8] {
        assert!(!got.contains(&never), "{never} in {got:?}");
    }
    assert!(got.contains(&3) && got.contains(&7), "{got:?}");
    // Newest first.
    let dates: Vec<&str> = got.iter().map(|id| date(*id)).collect();
    let mut sorted = dates.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(dates, sorted);
}

#[test]
fn the_bar_counts_the_item_itself() {
    // The item matches its own title best: that sets the bar. Item 5 matches only
    // "cache", far below the title's three words: it falls under 0.3 x best only
    // because the item itself is counted; without the item it could set the bar.
    let lib = story();
    let rel = lib.relevance_own("\"Switch\" OR \"cache\" OR \"redis\"");
    let r = |id: i64| {
        rel.iter()
            .find(|(i, _)| *i == id)
            .map(|x| x.1)
            .unwrap_or(0.0)
    };
    let best = [2, 3, 4, 5, 7]
        .iter()
        .map(|i| r(*i))
        .fold(f64::MIN, f64::max);
    assert_eq!(
        best,
        r(2).max(r(7)),
        "the item or its near-copy is the best hit"
    );
    let got = ids(&lib.json(&["later", "2", "--limit", "10"]));
    for id in [3, 4, 5, 7] {
        assert_eq!(
            got.contains(&id),
            r(id) >= 0.3 * best,
            "item {id}: {} vs bar {}",
            r(id),
            0.3 * best
        );
    }
    assert!(
        !got.contains(&5),
        "the one-word hit is under the bar: {got:?}"
    );
}

#[test]
fn a_query_narrows_the_subject() {
    let lib = story();
    assert_eq!(
        ids(&lib.json(&["later", "2", "--query", "warmup"])),
        vec![5]
    );
    assert_eq!(
        ids(&lib.json(&["later", "2", "--query", "eviction"])),
        vec![4]
    );
}

#[test]
fn nothing_kept_falls_back_to_the_project_timeline() {
    let lib = story();
    // Item 9 "Quarterly planning": no later item shares a word. The project's items at or
    // after 2025-01-15 (not the item itself), newest first: 7, 6, 5, 4.
    let answer = lib.json(&["later", "9", "--limit", "4"]);
    assert_eq!(ids(&answer), vec![7, 6, 5, 4]);
    for r in answer["results"].as_array().unwrap() {
        assert_eq!(r["matched_by"], "project_timeline");
    }
    let text = lib.run(&["later", "9", "--limit", "1"]).ok().stdout;
    assert!(
        text.starts_with("# matched by project timeline\n[7] 2025-05-01"),
        "{text}"
    );
}

#[test]
fn an_item_without_a_project_searches_its_own_source() {
    let mut items = vec![
        titled("Kernel upgrade plan").source("notes").line(),
        titled("Kernel upgrade done")
            .source("notes")
            .at("2025-02-01T00:00:00Z")
            .line(),
        titled("Kernel upgrade elsewhere")
            .source("other")
            .at("2025-03-01T00:00:00Z")
            .line(),
        titled("Kernel upgrade in a project")
            .source("notes")
            .project("p")
            .at("2025-04-01T00:00:00Z")
            .line(),
    ];
    items.extend(fillers(20));
    let lib = TempLib::with_items(None, &items);
    assert_eq!(ids(&lib.json(&["later", "1"])), vec![2]);
}

#[test]
fn later_of_a_missing_or_forbidden_item_is_an_error_like_get() {
    let lib = story();
    lib.run(&["later", "99"]).fails_with("no item 99 in");
    lib.run(&["later", "2", "--allow", "human"])
        .fails_with("no item 2 in");
}

/// A library for the first-prompt rule, with fillers for IDF. These tests are of
/// Jezero's rule (`--rule jezero`); tests/queries_related.rs tests the idf rule.
fn related_lib(items: Vec<String>) -> TempLib {
    let mut items = items;
    items.extend(fillers(40));
    TempLib::with_items(None, &items)
}

#[test]
fn related_needs_two_distinctive_words() {
    let lib = related_lib(vec![titled("Redis cache").line()]);
    // "please", "fix", "the" are stop words: one distinctive word is not enough.
    let answer = lib.json(&[
        "related",
        "--rule",
        "jezero",
        "please fix the redis",
        "--explain",
    ]);
    assert_eq!(ids(&answer), Vec::<i64>::new());
    assert_eq!(answer["explain"]["reason"], "no_terms");
    assert_eq!(
        ids(&lib.json(&["related", "--rule", "jezero", "please fix the redis cache"])),
        vec![1]
    );
}

#[test]
fn related_keeps_whole_word_overlap_of_two_accent_insensitive_without_stemming() {
    let lib = related_lib(vec![
        titled("Migración del caché").line(),
        titled("Migracion notes")
            .summary("the cache was cold")
            .at("2025-01-02T00:00:00Z")
            .line(),
        titled("Migrations of caches")
            .at("2025-01-03T00:00:00Z")
            .line(),
        titled("Cache only").at("2025-01-04T00:00:00Z").line(),
    ]);
    // Prompt terms: migracion, cache. Item 3 is found by the trigram search ("cache" is
    // inside "caches") but "caches" and "migrations" are other words: overlap 0.
    let mut got = ids(&lib.json(&[
        "related",
        "--rule",
        "jezero",
        "¿La migración de la caché?",
        "--now",
        "2025-02-01",
    ]));
    got.sort();
    assert_eq!(got, vec![1, 2]);
    let answer = lib.json(&["related", "--rule", "jezero", "¿La migración de la caché?"]);
    for r in answer["results"].as_array().unwrap() {
        assert_eq!(r["overlap"], 2);
    }
}

#[test]
fn related_returns_at_most_three() {
    let items = (0..6)
        .map(|i| titled(&format!("Redis cache {i}")).line())
        .collect();
    let lib = related_lib(items);
    assert_eq!(
        ids(&lib.json(&["related", "--rule", "jezero", "redis cache trouble"])).len(),
        3
    );
    assert_eq!(
        ids(&lib.json(&[
            "related",
            "--rule",
            "jezero",
            "redis cache trouble",
            "--limit",
            "2"
        ]))
        .len(),
        2
    );
}

#[test]
fn related_looks_only_at_the_first_eight_results() {
    // Eight items say "redis" four times (overlap 1: not related); item 9 shares two
    // words ("cache", "eviction") but sits in a long summary, so it ranks 9th by
    // relevance — checked against FTS5 below. It is related, but not among the first 8.
    // With seven "redis" items it ranks 8th and is returned.
    let long: String = (0..200).map(|i| format!("word{i} ")).collect();
    for redis_items in [8usize, 7] {
        let mut items: Vec<String> = (0..redis_items)
            .map(|i| titled(&format!("redis redis redis redis {i}")).line())
            .collect();
        items.push(
            titled("notes")
                .summary(&format!("{long} cache eviction"))
                .line(),
        );
        let lib = related_lib(items);
        let target = redis_items as i64 + 1;
        let rank = lib
            .relevance_own("\"redis\" OR \"cache\" OR \"eviction\"")
            .iter()
            .position(|(id, _)| *id == target)
            .expect("found")
            + 1;
        assert_eq!(
            rank,
            redis_items + 1,
            "fixture: the related item ranks {rank}"
        );
        let got = ids(&lib.json(&[
            "related",
            "--rule",
            "jezero",
            "redis cache eviction",
            "--now",
            "2025-01-01",
            "--weight",
            "0",
        ]));
        if redis_items == 8 {
            assert_eq!(got, Vec::<i64>::new());
        } else {
            assert_eq!(got, vec![target]);
        }
    }
}
