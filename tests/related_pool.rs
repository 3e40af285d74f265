//! The candidates of `related` (the first 8 of its pool): under the idf rule, FTS5's own
//! `bm25()` over the query of all the prompt's words, among the items that hold a heavy
//! word (the words left when the lightest, together below `min_weight`, are set aside);
//! under jezero, under a tokenizer that keeps accents (plain trigram), and for `--explain`
//! when every word is light, among every match. Under trigram the pool scores its items
//! from their text (`recall_bm25_text`), under unicode61 through FTS5's own positions.
//! And in a library 20 times the sample or more, a word spread over the sample and held
//! by 2% of it is counted there; a cluster, or a rarer word, in every item; from twice the
//! sample, only a word held by half of it in every range. Every expectation is computed here from the library:
//! counts and `bm25()` on a plain connection, the weights, the rule's partition and the
//! recency score in Rust.

use crate::common::cli::{titled, TempLib};

const NOW: &str = "2025-06-01T00:00:00Z";
const ITEMS: usize = 1500;
const COLUMNS: &str = "{title summary questions atoms project}";
const MIN_WEIGHT: f64 = 1.2;

/// 1,500 items: `alpha` in 90% of them (twice in the summary of some), `kappa` in 375
/// titles and 250 summaries, `beta` in 300 (75 of them with
/// kappa), `gamma` in 20, `theta` in 10, `delta` in 3 (one of them with gamma); lengths and
/// ages vary with the item, so that scores rarely tie.
fn library(tokenizer: &str) -> TempLib {
    let lines: Vec<String> = (0..ITEMS)
        .map(|i| {
            let mut words = vec![format!("note n{i}q")];
            if i % 10 != 0 {
                words.push("alpha".into());
            }
            if i % 5 == 1 {
                words.push("beta".into());
            }
            if i % 4 == 3 {
                words.push("kappa".into());
            }
            if i % 75 == 2 {
                words.push("gamma".into());
            }
            if i % 500 == 2 {
                words.push("delta".into());
            }
            if i % 150 == 4 {
                words.push("theta".into());
            }
            let mut filler: Vec<String> = (0..i % 13).map(|k| format!("f{k}z{}", i % 7)).collect();
            // Some words in the summary too, once or twice: each column weighs its own.
            if i % 6 == 5 {
                filler.push("kappa".into());
            }
            if i % 9 == 4 {
                filler.extend(["alpha".into(), "alpha".into()]);
            }
            let day = chrono_day(i % 400);
            titled(&words.join(" "))
                .summary(&filler.join(" "))
                .at(&day)
                .line()
        })
        .collect();
    TempLib::with_items(Some(tokenizer), &lines)
}

/// `NOW` less `days` days, as a time.
fn chrono_day(days: usize) -> String {
    let now = chrono::DateTime::parse_from_rfc3339(NOW).expect("now");
    (now - chrono::Duration::days(days as i64))
        .to_utc()
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

fn phrase_query(words: &[&str]) -> String {
    let phrases: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
    format!("{COLUMNS} : ({})", phrases.join(" OR "))
}

fn count(conn: &rusqlite::Connection, words: &[&str]) -> i64 {
    conn.query_row(
        "select count(*) from items_fts where items_fts match ?1",
        [phrase_query(words)],
        |r| r.get(0),
    )
    .expect("count")
}

/// The heavy words of a prompt under the idf rule: the words left when the lightest
/// (weight `ln(N / items) / ln N`, 0 for a word in no item; ties: more items first, then
/// the prompt's order) are set aside while their weights together stay below 1.2.
fn heavy<'w>(lib: &TempLib, words: &[&'w str]) -> Vec<&'w str> {
    let conn = lib.conn();
    let counted: Vec<(&str, i64)> = words.iter().map(|w| (*w, count(&conn, &[w]))).collect();
    let items: i64 = conn
        .query_row("select count(*) from items", [], |r| r.get(0))
        .expect("items");
    heavy_of(&counted, items as f64)
}

/// The same, given each word's items and the library's.
fn heavy_of<'w>(counted: &[(&'w str, i64)], n: f64) -> Vec<&'w str> {
    let mut weighed: Vec<(f64, i64, usize, &str)> = counted
        .iter()
        .enumerate()
        .map(|(place, (w, c))| {
            let weight = if *c > 0 {
                (n / *c as f64).ln() / n.ln()
            } else {
                0.0
            };
            (weight, *c, place, *w)
        })
        .collect();
    weighed.sort_by(|a, b| {
        a.0.total_cmp(&b.0)
            .then_with(|| b.1.cmp(&a.1))
            .then_with(|| a.2.cmp(&b.2))
    });
    let mut sum = 0.0;
    let mut out = Vec::new();
    for (weight, _, _, w) in weighed {
        sum += weight;
        if sum >= MIN_WEIGHT {
            out.push(w);
        }
    }
    out
}

/// The first 8 candidates: FTS5's bm25() over the query of all `words`, among the items
/// holding one of `among` (every match when empty), its best 200, then by the recency
/// score of `recall_score` (weight 0.1, half-life 90 days), newest and highest id first
/// on ties.
fn expected(lib: &TempLib, words: &[&str], among: &[&str]) -> Vec<i64> {
    expected_in(lib, words, among, None)
}

/// The same among the items of `project` and the global ones (the project column then
/// weighs nothing).
fn expected_in(lib: &TempLib, words: &[&str], among: &[&str], project: Option<&str>) -> Vec<i64> {
    let conn = lib.conn();
    let held: std::collections::HashSet<i64> = if among.is_empty() {
        Default::default()
    } else {
        let mut stmt = conn
            .prepare("select rowid from items_fts where items_fts match ?1")
            .expect("prepare");
        stmt.query_map([phrase_query(among)], |r| r.get(0))
            .expect("query")
            .map(|r| r.expect("row"))
            .collect()
    };
    let mut stmt = conn
        .prepare(
            "select p.id, p.bm25, i.occurred_at from
               (select rowid as id,
                       bm25(items_fts, 2.0, 1.0, 1.5, 1.5, iif(?2 is null, 0.5, 0.0), 0.0)
                         as bm25
                from items_fts where items_fts match ?1) as p
             join items as i on i.id = p.id
             where ?2 is null or i.project = ?2 or i.global = 1
             order by p.bm25",
        )
        .expect("prepare");
    let now = chrono::DateTime::parse_from_rfc3339(NOW).expect("now");
    let mut pool: Vec<(f64, String, i64)> = stmt
        .query_map(rusqlite::params![phrase_query(words), project], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, f64>(1)?,
                r.get::<_, String>(2)?,
            ))
        })
        .expect("query")
        .map(|r| r.expect("row"))
        .filter(|(id, ..)| among.is_empty() || held.contains(id))
        .take(200)
        .map(|(id, bm25, at)| {
            let then = chrono::DateTime::parse_from_rfc3339(&at).expect("time");
            let age = ((now - then).num_seconds() as f64 / 86_400.0).max(0.0);
            let decay = 0.5f64.powf(age / 90.0);
            (-bm25 * (0.9 + 0.1 * decay), at, id)
        })
        .collect();
    pool.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then_with(|| b.1.cmp(&a.1))
            .then_with(|| b.2.cmp(&a.2))
    });
    pool.iter().take(8).map(|p| p.2).collect()
}

/// The candidates `related --explain` judged, with `extra` options, as it lists them.
fn judged(lib: &TempLib, prompt: &str, extra: &[&str]) -> Vec<serde_json::Value> {
    let mut args = vec!["related", prompt, "--now", NOW, "--explain"];
    args.extend(extra);
    lib.json(&args)["explain"]["candidates"]
        .as_array()
        .expect("candidates")
        .clone()
}

/// The candidates `related --explain` judged, best first.
fn candidates(lib: &TempLib, prompt: &str, extra: &[&str]) -> Vec<i64> {
    let mut listed: Vec<(f64, i64)> = judged(lib, prompt, extra)
        .iter()
        .map(|c| {
            (
                c["score"].as_f64().expect("score"),
                c["id"].as_i64().expect("id"),
            )
        })
        .collect();
    listed.sort_by(|a, b| b.0.total_cmp(&a.0));
    listed.into_iter().map(|c| c.1).collect()
}

#[test]
fn the_pool_is_bm25s_among_the_items_holding_a_heavy_word() {
    // (prompt words, its heavy words as worked out by hand: weights with N = 1,500:
    // note 0, alpha 0.014, kappa 0.19, beta 0.22, gamma 0.59, theta 0.69, delta 0.85,
    // omega 0)
    let cases: [(&[&str], &[&str]); 7] = [
        // alpha and gamma 0.60 together; with delta 1.45: only delta's 3 items.
        (&["alpha", "gamma", "delta"], &["delta"]),
        // kappa, beta, gamma 1.0: delta's.
        (&["beta", "kappa", "gamma", "delta"], &["delta"]),
        // gamma alone is light.
        (&["gamma", "delta"], &["delta"]),
        // A word in no item weighs nothing here, and is light.
        (&["omega", "gamma", "delta"], &["delta"]),
        // The prompt's order does not matter.
        (&["delta", "gamma", "note"], &["delta"]),
        // Five light words, 1.01 together.
        (
            &["note", "alpha", "kappa", "beta", "gamma", "delta"],
            &["delta"],
        ),
        // gamma is light; theta brings the sum to 1.27: two heavy words.
        (&["delta", "theta", "gamma"], &["theta", "delta"]),
    ];
    for tokenizer in ["trigram remove_diacritics 1", "unicode61"] {
        let lib = library(tokenizer);
        for (words, by_hand) in cases {
            let prompt = words.join(" ");
            let heavy = heavy(&lib, words);
            assert_eq!(heavy, by_hand, "{tokenizer}: {prompt}: the heavy words");
            let want = expected(&lib, words, &heavy);
            assert!(!want.is_empty(), "{tokenizer}: {prompt}: some candidates");
            assert_eq!(
                candidates(&lib, &prompt, &[]),
                want,
                "{tokenizer}: {prompt}"
            );
        }
        // Under jezero no word is light: bm25's first 8 of every match.
        for words in [
            &["alpha", "beta"][..],
            &["beta", "kappa", "gamma"],
            &["alpha", "delta"],
        ] {
            let prompt = words.join(" ");
            let want = expected(&lib, words, &[]);
            assert_eq!(want.len(), 8, "{tokenizer}: {prompt}: 8 candidates");
            assert_eq!(
                candidates(&lib, &prompt, &["--rule", "jezero"]),
                want,
                "{tokenizer}: {prompt}, jezero"
            );
        }
    }
}

#[test]
fn a_tokenizer_that_keeps_accents_sets_no_word_aside() {
    // Plain trigram does not fold accents as the rule's words are folded: an item may
    // share a word FTS5 does not find in it, so every match is the pool.
    let lib = library("trigram");
    for (words, _) in [
        (&["alpha", "gamma", "delta"][..], ()),
        (&["delta", "theta", "gamma"], ()),
        (&["omega", "gamma", "delta"], ()),
    ] {
        let prompt = words.join(" ");
        let want = expected(&lib, words, &[]);
        assert_eq!(want.len(), 8, "{prompt}: 8 candidates");
        assert_eq!(candidates(&lib, &prompt, &[]), want, "{prompt}");
    }
    // An item that writes `Café` shares `cafe` with the prompt though FTS5 finds `cafe` in
    // no item: the word weighs 1, and the item is kept, with `delta`.
    let lines = vec![
        titled("Café delta pricing")
            .at("2025-05-01T00:00:00Z")
            .line(),
        titled("unrelated notes").at("2025-05-02T00:00:00Z").line(),
    ];
    let small = TempLib::with_items(Some("trigram"), &lines);
    let shown = small.json(&["related", "cafe delta", "--now", NOW]);
    assert_eq!(shown["results"][0]["id"], 1, "{shown}");
}

#[test]
fn words_too_light_to_keep_anything_make_no_pool() {
    let lib = library("trigram remove_diacritics 1");
    // Below 1.2 together, nothing can be kept: nothing shown, and --explain judges bm25's
    // first 8 of every match.
    for words in [
        &["alpha", "note"][..],
        &["alpha", "beta"],
        &["alpha", "gamma"],
        &["beta", "gamma"],
        &["alpha", "omega"],
    ] {
        let prompt = words.join(" ");
        assert!(heavy(&lib, words).is_empty(), "{prompt}: all light");
        let answer = lib.json(&["related", &prompt, "--now", NOW]);
        assert_eq!(
            answer["results"],
            serde_json::json!([]),
            "{prompt}: {answer}"
        );
        let every = expected(&lib, words, &[]);
        assert_eq!(candidates(&lib, &prompt, &[]), every, "{prompt}: --explain");
    }
    // gamma and delta weigh 1.44: delta's items are judged, and what is shown is what
    // --explain keeps.
    let prompt = "alpha gamma delta";
    let kept: Vec<i64> = judged(&lib, prompt, &[])
        .iter()
        .filter(|c| c["verdict"] == "kept")
        .map(|c| c["id"].as_i64().expect("id"))
        .collect();
    assert!(!kept.is_empty(), "the fixture keeps one");
    let results: Vec<i64> = lib.json(&["related", prompt, "--now", NOW])["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["id"].as_i64().expect("id"))
        .collect();
    assert_eq!(results, kept);
}

/// 4,000 items (20 times a sample of 200): `wide` in the first 300 ids of every 400, so
/// in every id of the sample's ten ranges (the first 20 of every 400) and in 3 items of
/// 4 in all; `block` in every item of ids 1,201 to 2,000 (a project's cluster), in no
/// other; `needle` in 4 of block's; `scarce` in those 4 and in one item of 200 (2 of
/// them in the sample); `sparse` in those 4 and in one item of 400, one in each of the
/// sample's ranges; lengths vary; a third of the items in project `vault`, the others
/// in `ledger`. Under `tokenizer` (the default where `None`).
fn sampled_library_with(tokenizer: Option<&str>) -> TempLib {
    let lines: Vec<String> = (1..=4000usize)
        .map(|id| {
            let mut words = vec![format!("entry e{id}x")];
            if id % 400 < 300 {
                words.push("wide".into());
            }
            if (1201..=2000).contains(&id) {
                words.push("block".into());
            }
            if id % 200 == 100 || (1201..=2000).contains(&id) && id % 200 == 7 {
                words.push("scarce".into());
            }
            if id % 400 == 3 || (1201..=2000).contains(&id) && id % 200 == 7 {
                words.push("sparse".into());
            }
            if (1201..=2000).contains(&id) && id % 200 == 7 {
                words.push("needle".into());
            }
            titled(&words.join(" "))
                .summary(&"pad ".repeat(id % 9))
                .project(if id % 3 == 0 { "vault" } else { "ledger" })
                .at(&chrono_day(id % 300))
                .line()
        })
        .collect();
    TempLib::with_items(tokenizer, &lines)
}

fn sampled_library() -> TempLib {
    sampled_library_with(None)
}

/// The items `related --explain` gave each word its candidates share.
fn shared_counts(lib: &TempLib, prompt: &str, extra: &[&str]) -> Vec<(String, i64)> {
    let mut seen: Vec<(String, i64)> = judged(lib, prompt, extra)
        .iter()
        .flat_map(|c| c["shared"].as_array().cloned().unwrap_or_default())
        .map(|s| {
            (
                s["word"].as_str().expect("word").to_string(),
                s["items"].as_i64().expect("items"),
            )
        })
        .collect();
    seen.sort();
    seen.dedup();
    seen
}

/// The ids of the first `n` items holding `word`, by FTS5.
fn first_ids(conn: &rusqlite::Connection, word: &str, n: i64) -> Vec<i64> {
    let mut stmt = conn
        .prepare("select rowid from items_fts where items_fts match ?1 order by rowid limit ?2")
        .expect("prepare");
    stmt.query_map(rusqlite::params![phrase_query(&[word]), n], |r| r.get(0))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("ids")
}

/// How many items of a sample of ten ranges of `width` ids, the k-th starting at
/// `first + k * step`, hold `word`; and in how many of the ranges.
fn in_ranges(conn: &rusqlite::Connection, word: &str, step: i64, width: i64) -> (i64, i64) {
    let (mut held, mut ranges) = (0, 0);
    for k in 0..10 {
        let low = 1 + k * step;
        let c: i64 = conn
            .query_row(
                "select count(*) from items_fts where items_fts match ?1
                 and rowid >= ?2 and rowid <= ?3",
                rusqlite::params![phrase_query(&[word]), low, low + width - 1],
                |r| r.get(0),
            )
            .expect("count");
        held += c;
        ranges += i64::from(c > 0);
    }
    (held, ranges)
}

#[test]
fn a_common_word_spread_over_the_library_is_counted_in_the_sample() {
    // A sample of 200 in 4,000 items (20 times): ten ranges of 20 ids, the k-th starting
    // at 1 + k * 400. A word is estimated where 2% of the sample holds it (4 items), in 5
    // of the ranges or more; under trigram, only where its first 5 items lie among the
    // first 500 ids (twice the ids 2% would take).
    let least = 200 * 2 / 100;
    let estimate = |held: i64| (held as f64 * 4000.0 / 200.0).round() as i64;
    let prompt = "wide block scarce needle sparse";
    let words = ["block", "needle", "scarce", "sparse", "wide"];
    for tokenizer in [None, Some("unicode61 remove_diacritics 2")] {
        let lib = sampled_library_with(tokenizer);
        let conn = lib.conn();
        let exact = |w: &str| count(&conn, &[w]);
        let trigram = tokenizer.is_none();
        let want: Vec<(String, i64)> = words
            .iter()
            .map(|w| {
                let (held, ranges) = in_ranges(&conn, w, 400, 20);
                let first = first_ids(&conn, w, 5);
                let dense = !trigram || (first.len() == 5 && first[4] < 1 + 500);
                let n = if dense && held >= least && ranges >= 5 {
                    estimate(held)
                } else {
                    exact(w)
                };
                (w.to_string(), n)
            })
            .collect();
        // `wide`, in 3 of 4 items, and in every one of the sample's: 4,000 for 3,000.
        // `sparse`, in 14 items but one in each range: 240 where it is looked for in the
        // sample; under trigram its fifth item is the 1,603rd, and it is counted. `block`,
        // a cluster in two ranges, `scarce`, below 2% of the sample, and `needle`: counted.
        let (sparse, sparse_ranges) = in_ranges(&conn, "sparse", 400, 20);
        assert!(
            (least..20).contains(&sparse) && sparse_ranges >= 5,
            "{sparse}"
        );
        let (block, block_ranges) = in_ranges(&conn, "block", 400, 20);
        assert!(block >= least && block_ranges < 5, "{block}");
        assert_eq!(
            (want[4].1, exact("wide"), want[3].1, exact("sparse")),
            (4000, 3000, if trigram { 14 } else { 240 }, 14),
            "the estimates and the counts, {tokenizer:?}"
        );
        assert_eq!(
            shared_counts(&lib, prompt, &["--sample", "200"]),
            want,
            "{tokenizer:?}"
        );
        // At the default sample (1,000), 4 times as many items: under trigram only a word
        // held by half the sample in every range is estimated (`wide`, in all of its ids);
        // under other tokenizers, 4,000 items are too few to sample.
        let every: Vec<(String, i64)> = words.iter().map(|w| (w.to_string(), exact(w))).collect();
        let mut small = every.clone();
        if trigram {
            small[4].1 = 4000;
        }
        assert_eq!(shared_counts(&lib, prompt, &[]), small, "{tokenizer:?}");
        // With a sample of 0, every word is counted in every item.
        assert_eq!(shared_counts(&lib, prompt, &["--sample", "0"]), every);
    }
}

/// 3,000 items: `plenty` in the first 200 ids of every 300, `shy` in those but the first
/// of every 300, `early` in the first 2,700, `fifth` in every fifth, `oddity` in 4 items
/// that hold the others too; lengths vary.
fn small_sampled_library() -> TempLib {
    let lines: Vec<String> = (1..=3000usize)
        .map(|id| {
            let mut words = vec![format!("entry e{id}x")];
            if id % 300 < 200 {
                words.push("plenty".into());
            }
            if id % 300 < 200 && id % 300 != 1 {
                words.push("shy".into());
            }
            if id <= 2700 {
                words.push("early".into());
            }
            if id % 5 == 0 {
                words.push("fifth".into());
            }
            if id % 300 == 150 && (1650..=2700).contains(&id) {
                words.push("oddity".into());
            }
            titled(&words.join(" "))
                .summary(&"pad ".repeat(id % 7))
                .at(&chrono_day(id % 300))
                .line()
        })
        .collect();
    TempLib::with_items(None, &lines)
}

#[test]
fn below_20_times_the_sample_only_a_word_held_by_half_of_it_everywhere_is_estimated() {
    // Under trigram, from twice the sample: a word is looked for in the sample where half
    // of 10 items at ids spread evenly (the k-th, 1 + k * 300) hold it, and estimated where
    // half the sample holds it, in every range (the k-th starting at 1 + k * 300 too).
    let lib = small_sampled_library();
    let conn = lib.conn();
    let exact = |w: &str| count(&conn, &[w]);
    let title = |id: i64| -> String {
        conn.query_row("select title from items where id = ?1", [id], |r| r.get(0))
            .expect("title")
    };
    let seen = |w: &str| {
        (0..10)
            .filter(|k| title(1 + k * 300).split(' ').any(|t| t == w))
            .count()
            >= 5
    };
    let prompt = "plenty shy early fifth oddity";
    let words = ["early", "fifth", "oddity", "plenty", "shy"];
    let mut estimated = Vec::new();
    // From twice the sample (1,500) to 10 times (300); 1,501 is too large a sample.
    for size in [1500_i64, 1000, 600, 300, 1501] {
        let sampled = 3000 >= 2 * size;
        let want: Vec<(String, i64)> = words
            .iter()
            .map(|w| {
                let (held, ranges) = in_ranges(&conn, w, 300, size / 10);
                let n = if sampled && seen(w) && held * 2 >= size && ranges == 10 {
                    estimated.push((w.to_string(), size));
                    (held as f64 * 3000.0 / size as f64).round() as i64
                } else {
                    exact(w)
                };
                (w.to_string(), n)
            })
            .collect();
        let flag = size.to_string();
        assert_eq!(
            shared_counts(&lib, prompt, &["--sample", &flag]),
            want,
            "a sample of {size}"
        );
    }
    // `plenty` is estimated from every sample (all of its ids: 3,000 for 2,000). `shy` is
    // held by nearly all of the sample too, but by none of the 10 items: counted. `early`
    // misses the last range, `fifth` is a fifth of it, `oddity` is rare: all counted.
    let plenty: Vec<(String, i64)> = [1500, 1000, 600, 300]
        .map(|n| ("plenty".to_string(), n))
        .to_vec();
    assert_eq!(estimated, plenty);
    let (shy, shy_ranges) = in_ranges(&conn, "shy", 300, 100);
    assert!(shy * 2 >= 1000 && shy_ranges == 10, "{shy} in {shy_ranges}");
    assert_eq!(
        words.map(exact),
        [2700, 600, 4, 2000, 1990],
        "the words' counts"
    );
}

#[test]
fn joint_counts_in_a_sampled_library_are_fts5s_own() {
    let lib = sampled_library();
    let conn = lib.conn();
    // Each a candidate's joint count by another way: every shared word listed (`block`,
    // `scarce`, `needle`); some (`wide` and `sparse` estimated), few items in every list,
    // the others found in those (of the 8 items of `block` and `scarce`, 6 hold `wide`);
    // many items in the list (`block`'s 800): FTS5's count.
    let prompts = [
        "wide block scarce needle sparse",
        "block scarce needle",
        "block scarce wide",
        "wide block",
    ];
    let mut checked = 0;
    for prompt in prompts {
        for extra in [&["--sample", "200"][..], &[]] {
            for c in judged(&lib, prompt, extra) {
                let words: Vec<String> = c["shared"]
                    .as_array()
                    .expect("shared")
                    .iter()
                    .map(|s| format!("\"{}\"", s["word"].as_str().expect("word")))
                    .collect();
                if words.len() < 2 {
                    continue;
                }
                let all = format!("{COLUMNS} : ({})", words.join(" AND "));
                let want: i64 = conn
                    .query_row(
                        "select count(*) from items_fts where items_fts match ?1",
                        [&all],
                        |r| r.get(0),
                    )
                    .expect("count");
                assert_eq!(
                    c["joint_items"].as_i64(),
                    Some(want),
                    "{prompt} {extra:?}: {}",
                    c["title"]
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 12, "{checked} candidates checked");
    // The pool of the first prompt, read from the lists of its heavy words: with `wide`
    // estimated at 4,000 and the others counted (see the test above), `sparse` and
    // `needle`; the first 8 are bm25()'s among their items (`wide` weighs nothing in a
    // score at 3,000 of 4,000 items as at 4,000). The same at 4 times the default sample,
    // where under trigram every word the sample does not estimate is listed too.
    let words = ["wide", "block", "scarce", "needle", "sparse"];
    let counted: Vec<(&str, i64)> = words
        .iter()
        .map(|w| {
            (
                *w,
                if *w == "wide" {
                    4000
                } else {
                    count(&conn, &[w])
                },
            )
        })
        .collect();
    let heavy = heavy_of(&counted, 4000.0);
    assert_eq!(heavy, ["sparse", "needle"]);
    for extra in [&["--sample", "200"][..], &[]] {
        let got: Vec<i64> = judged(&lib, prompts[0], extra)
            .iter()
            .map(|c| c["id"].as_i64().expect("id"))
            .collect();
        assert_eq!(got, expected_in(&lib, &words, &heavy, None), "{extra:?}");
        assert_eq!(got.len(), 8);
    }
}

#[test]
fn the_quick_pool_of_a_sampled_library_is_bm25s_of_every_match() {
    // Under plain trigram no word is set aside, and the quick pool scores the items of
    // the words that are not common, with the counts of a sampled library (the rarer
    // words listed with no column filter). The words here are all counted in every item
    // (`entry`, in all of them, is estimated at its count), so the first 8 are bm25()'s
    // own of every match, as FTS5 ranks them; the same with no sample (no lists), and in
    // a project.
    let lib = sampled_library_with(Some("trigram"));
    let conn = lib.conn();
    assert_eq!(count(&conn, &["entry"]), 4000, "entry in every item");
    let prompts: [&[&str]; 5] = [
        &["block", "scarce", "needle"],
        &["entry", "block", "scarce"],
        &["block", "needle"],
        &["entry", "scarce", "needle"],
        &["entry", "block"],
    ];
    let mut full = 0;
    for words in prompts {
        let prompt = words.join(" ");
        let want = expected(&lib, words, &[]);
        full += usize::from(want.len() == 8);
        for extra in [&["--sample", "200"][..], &["--sample", "0"]] {
            assert_eq!(candidates(&lib, &prompt, extra), want, "{prompt} {extra:?}");
        }
        for project in ["vault", "ledger"] {
            let want = expected_in(&lib, words, &[], Some(project));
            let extra = ["--sample", "200", "--project", project];
            assert_eq!(
                candidates(&lib, &prompt, &extra),
                want,
                "{prompt} {project}"
            );
        }
    }
    assert!(full >= 4, "{full} prompts with 8 candidates");
}

/// 2,000 items: `haze` in one item of 9 (222), in none of which any other word below is;
/// elsewhere `amber` in one of 4, `basil` one of 5, `cedar` one of 6, `dune` one of 7,
/// `ember` one of 9, `fjord` one of 11, `grove` one of 13, each at its own offset, so
/// that items hold from none to several of them; lengths and ages vary; a third of the
/// items in project `ledger` (every 50th item of it global), the others in `vault`.
fn wide_library() -> TempLib {
    let words = [
        ("amber", 4, 0),
        ("basil", 5, 1),
        ("cedar", 6, 2),
        ("dune", 7, 3),
        ("ember", 9, 4),
        ("fjord", 11, 5),
        ("grove", 13, 6),
    ];
    let lines: Vec<String> = (0..2000usize)
        .map(|i| {
            let mut held = vec![format!("item w{i}k")];
            if i % 9 == 7 {
                held.push("haze".into());
            } else {
                held.extend(
                    words
                        .iter()
                        .filter(|(_, every, at)| i % every == *at)
                        .map(|(w, ..)| w.to_string()),
                );
            }
            let pad = (0..i % 11).map(|k| format!("p{k}z")).collect::<Vec<_>>();
            let project = if i % 3 == 0 { "ledger" } else { "vault" };
            let mut line: serde_json::Value = serde_json::from_str(
                &titled(&held.join(" "))
                    .summary(&pad.join(" "))
                    .project(project)
                    .at(&chrono_day(i % 365))
                    .line(),
            )
            .expect("fixture");
            line["global"] = (project == "ledger" && i % 50 == 0).into();
            line.to_string()
        })
        .collect();
    TempLib::with_items(None, &lines)
}

/// Prompts of the wide library, each with its heavy words as worked out by hand.
const WIDE_CASES: [(&[&str], &[&str]); 3] = [
    // amber to dune are light (0.95 together): ember, fjord and grove are heavy, some 450
    // items, which hold from one to five of the words.
    (
        &["amber", "basil", "cedar", "dune", "ember", "fjord", "grove"],
        &["ember", "fjord", "grove"],
    ),
    // haze is heavy, alone: its 222 items hold no other word, and each can score what the
    // others can: every one is scored.
    (&["amber", "basil", "cedar", "dune", "haze"], &["haze"]),
    // Both kinds of items.
    (
        &["amber", "basil", "cedar", "dune", "haze", "grove"],
        &["haze", "grove"],
    ),
];

#[test]
fn a_pool_larger_than_it_takes_is_bm25s_first_8() {
    // Under trigram, the items of the heavy words, listed, scored by the most each can
    // score first: the 50 that can score the most stand for the pool when what the next
    // one can score is below the 8th candidate's score; else the 200 that can score the
    // most, the same way; else every item is scored. Either way the first 8 are bm25()'s
    // among the heavy words' items (of the project and the global ones, under --project).
    let lib = wide_library();
    let conn = lib.conn();
    let mut pools = Vec::new();
    for (words, by_hand) in WIDE_CASES {
        let heavy = heavy(&lib, words);
        assert_eq!(heavy, by_hand, "{words:?}: the heavy words");
        let prompt = words.join(" ");
        for project in [None, Some("vault")] {
            let mut extra = vec![];
            if let Some(p) = project {
                extra.extend(["--project", p]);
            }
            let want = expected_in(&lib, words, &heavy, project);
            assert_eq!(want.len(), 8, "{prompt} in {project:?}");
            assert_eq!(
                candidates(&lib, &prompt, &extra),
                want,
                "{prompt} in {project:?}"
            );
            // (How many items the pool could hold: the heavy words', in the project.)
            let pool: i64 = conn
                .query_row(
                    "select count(*) from items_fts as f join items as i on i.id = f.rowid
                     where items_fts match ?1 and (?2 is null or i.project = ?2 or i.global)",
                    rusqlite::params![phrase_query(&heavy), project],
                    |r| r.get(0),
                )
                .expect("pool");
            pools.push(pool);
        }
    }
    // (Each case offers more than 200 items, in the project too.)
    assert!(pools.iter().all(|&n| n > 200), "{pools:?}");
}

#[test]
fn a_word_that_is_another_words_phrase_weighs_for_its_own() {
    // Under trigram the phrase of `implementation` is `implement`, whose own phrase is
    // `imple` (and `documentation`'s is `document`, `document`'s `docu`). 1,500 items:
    // `implementation gamma` in 3 of them, `gamma` alone in 17 more, `implemented` in
    // 600; `documentation theta` in 3, `theta` in 17, `documented` in 600. With N =
    // 1,500: implementation 0.85 (3 items), gamma 0.59 (20), implement 0.12 (603). The
    // phrase `implement` weighs implementation's 0.85, `imple` implement's 0.12: gamma
    // and imple are light, `implement` heavy, and the 3 items sharing implementation and
    // gamma (1.44 together, in 3 items together) are kept, whatever the words' order.
    let lines: Vec<String> = (0..ITEMS)
        .map(|i| {
            let words = match i {
                0..=2 => "implementation gamma".to_string(),
                3..=19 => "gamma".into(),
                20..=619 => "implemented".into(),
                620..=622 => "documentation theta".into(),
                623..=639 => "theta".into(),
                640..=1239 => "documented".into(),
                _ => format!("note n{i}q"),
            };
            titled(&words)
                .summary(&format!("f{}z", i % 11))
                .at(&chrono_day(i % 300))
                .line()
        })
        .collect();
    let lib = TempLib::with_items(None, &lines);
    let conn = lib.conn();
    let pairs = [
        (["implementation", "gamma", "implement"], [1, 2, 3]),
        (["documentation", "theta", "document"], [621, 622, 623]),
    ];
    for (words, ids) in pairs {
        let counts: Vec<i64> = words.iter().map(|w| count(&conn, &[w])).collect();
        assert_eq!(counts, [3, 20, 603], "{words:?}: the fixture's counts");
        let orders = [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ];
        for order in orders {
            let prompt = order.map(|k| words[k]).join(" ");
            let mut shown: Vec<i64> = lib.json(&["related", &prompt, "--now", NOW])["results"]
                .as_array()
                .expect("results")
                .iter()
                .map(|r| r["id"].as_i64().expect("id"))
                .collect();
            shown.sort();
            assert_eq!(shown, ids, "{prompt}");
            // Each shared word with the items FTS5 finds it in.
            let mut want: Vec<(String, i64)> = [(words[1], counts[1]), (words[0], counts[0])]
                .map(|(w, c)| (w.to_string(), c))
                .to_vec();
            want.sort();
            assert_eq!(shared_counts(&lib, &prompt, &[]), want, "{prompt}");
        }
    }
}

#[test]
fn the_pool_is_the_same_whatever_the_items_scored_first() {
    // The query file run as it is and with the first step of the pool read from the
    // bounds at 8 items (where it rarely stands, so that the 200 are scored after it) or
    // at 200 (one step): every candidate of every case the same, and bm25()'s.
    let lib = wide_library();
    let conn = lib.conn();
    sqlite_recall_rusqlite::register(&conn).expect("functions");
    let tokenizer: String = conn
        .query_row(
            "select value from recall_meta where key = 'tokenizer'",
            [],
            |r| r.get(0),
        )
        .expect("tokenizer");
    let file = std::fs::read_to_string(crate::common::root().join("sql/related.sql"))
        .expect("related.sql");
    let rule = "50 as scored_first";
    assert_eq!(file.matches(rule).count(), 1, "the rule's first step");
    for first in [8, 50, 200] {
        let sql = file.replace(rule, &format!("{first} as scored_first"));
        let mut stmt = conn.prepare(&sql).expect("prepare related.sql");
        for (words, _) in WIDE_CASES {
            let prompt = words.join(" ");
            let heavy = heavy(&lib, words);
            for project in [None, Some("vault")] {
                let params = rusqlite::named_params! {
                    ":prompt": prompt, ":project": project, ":tokenizer": tokenizer,
                    ":now": NOW, ":candidates": 1,
                };
                let mut got: Vec<(f64, i64)> = stmt
                    .query_map(params, |r| Ok((r.get("score")?, r.get("id")?)))
                    .expect("related.sql")
                    .map(|r| r.expect("row"))
                    .collect();
                got.sort_by(|a, b| b.0.total_cmp(&a.0));
                let got: Vec<i64> = got.into_iter().map(|c| c.1).collect();
                assert_eq!(
                    got,
                    expected_in(&lib, words, &heavy, project),
                    "{prompt} in {project:?}, {first} first"
                );
            }
        }
    }
}
