//! The candidates of `related` (the first 8 of its pool) are those of FTS5's own `bm25()`
//! over the query of all the prompt's words, whichever way `sql/related.sql` makes its
//! pool: the quick pool of the items holding a word that is not common (its 8th
//! candidate out of reach of the others, or its 200th item), or the pool of every
//! match. The expectation is computed here: the pool by `bm25()` on a plain connection,
//! the recency score in Rust.

use crate::common::cli::{titled, TempLib};

const NOW: &str = "2025-06-01T00:00:00Z";
const ITEMS: usize = 1500;
const COLUMNS: &str = "{title summary questions atoms project}";

/// 1,500 items: `alpha` in 90% of them (common), `kappa` in 375, `beta` in 300 (75 of
/// them with kappa), `gamma` in 20, `delta` in 3 (one of them with gamma); lengths and
/// ages vary with the item, so that scores rarely tie.
fn library() -> TempLib {
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
            let filler: Vec<String> = (0..i % 13).map(|k| format!("f{k}z{}", i % 7)).collect();
            let day = chrono_day(i % 400);
            titled(&words.join(" "))
                .summary(&filler.join(" "))
                .at(&day)
                .line()
        })
        .collect();
    TempLib::with_items(None, &lines)
}

/// `NOW` less `days` days, as a time.
fn chrono_day(days: usize) -> String {
    let now = chrono::DateTime::parse_from_rfc3339(NOW).expect("now");
    (now - chrono::Duration::days(days as i64))
        .to_utc()
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

/// The first 8 candidates as FTS5's bm25() ranks them, then by the recency score of
/// `recall_score` (weight 0.1, half-life 90 days), newest and highest id first on ties.
fn expected(lib: &TempLib, words: &[&str]) -> Vec<i64> {
    let conn = lib.conn();
    let query = format!(
        "{COLUMNS} : ({})",
        words
            .iter()
            .map(|w| format!("\"{w}\""))
            .collect::<Vec<_>>()
            .join(" OR ")
    );
    let mut stmt = conn
        .prepare(
            "select p.id, p.bm25, i.occurred_at from
               (select rowid as id, bm25(items_fts, 2.0, 1.0, 1.5, 1.5, 0.5, 0.0) as bm25
                from items_fts where items_fts match ?1 order by bm25 limit 200) as p
             join items as i on i.id = p.id",
        )
        .expect("prepare");
    let now = chrono::DateTime::parse_from_rfc3339(NOW).expect("now");
    let mut pool: Vec<(f64, String, i64)> = stmt
        .query_map([&query], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, f64>(1)?,
                r.get::<_, String>(2)?,
            ))
        })
        .expect("query")
        .map(|r| {
            let (id, bm25, at) = r.expect("row");
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

/// The candidates `related --explain` judged, best first.
fn candidates(lib: &TempLib, prompt: &str) -> Vec<i64> {
    let answer = lib.json(&["related", prompt, "--now", NOW, "--explain"]);
    let mut listed: Vec<(f64, i64)> = answer["explain"]["candidates"]
        .as_array()
        .expect("candidates")
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

/// Whether the quick pool stood for the pool, how many items it held, and whether the
/// pool of every match was skipped as the rule can keep nothing, from the query file's
/// own steps.
fn quick(lib: &TempLib, prompt: &str) -> (i64, i64, i64) {
    let file = std::fs::read_to_string(crate::common::root().join("sql/related.sql"))
        .expect("related.sql");
    let steps = file.split("\npool as (").next().expect("steps");
    let sql = format!(
        "{}\nselect (select holds from way) as holds, (select count(*) from quick) as quick, (select skip from way) as skip",
        steps.trim_end().trim_end_matches(',')
    );
    let file = lib.db.with_extension("steps.sql");
    std::fs::write(&file, sql).expect("write the steps");
    let prompt_arg = format!("prompt={prompt}");
    let now_arg = format!("now={NOW}");
    let out = lib.json(&[
        "sql",
        "--file",
        file.to_str().expect("path"),
        "-p",
        &prompt_arg,
        "-p",
        &now_arg,
    ]);
    let row = &out[0];
    (
        row["holds"].as_i64().expect("holds"),
        row["quick"].as_i64().expect("quick"),
        row["skip"].as_i64().expect("skip"),
    )
}

#[test]
fn each_way_of_making_the_pool_gives_bm25s_candidates() {
    let lib = library();
    // (prompt words, the quick pool stands for the pool, items in it)
    let cases: [(&[&str], i64, Option<i64>); 7] = [
        // 300 items with beta: the quick pool's 200th is out of alpha's reach.
        (&["alpha", "beta"], 1, Some(200)),
        // 20 items with gamma: fewer than 200, the 8th out of reach.
        (&["alpha", "gamma"], 1, Some(20)),
        // 3 items with delta: fewer than 8, so every match.
        (&["alpha", "delta"], 0, Some(3)),
        // kappa, in 375 items, adds at most 2.4, below 3: common. The quick pool of beta's
        // 300 items: its 200th, holding beta alone, is in kappa's reach, its 8th (beta and
        // kappa) is not.
        (&["beta", "kappa"], 1, Some(200)),
        // beta adds at most 3.05, below 0.55 of what gamma (20 items) can: common.
        (&["beta", "gamma"], 1, Some(20)),
        // No common word (each adds more than 0.55 of gamma's 9.4): every match, no
        // quick pool.
        (&["gamma", "delta"], 0, Some(0)),
        // The other word in no item: the pool is alpha's.
        (&["alpha", "omega"], 0, Some(0)),
    ];
    for (words, holds, held) in cases {
        let prompt = words.join(" ");
        let (got_holds, got_held, _) = quick(&lib, &prompt);
        assert_eq!(got_holds, holds, "{prompt}: quick pool stands");
        if let Some(n) = held {
            assert_eq!(got_held, n, "{prompt}: items in the quick pool");
        }
        let want = expected(&lib, words);
        assert_eq!(want.len(), 8, "{prompt}: the fixture gives 8 candidates");
        assert_eq!(candidates(&lib, &prompt), want, "{prompt}");
    }
}

#[test]
fn words_too_common_to_keep_anything_make_no_pool_of_every_match() {
    let lib = library();
    // Weights (ln(N / items) / ln N, N = 1,500): note 0, alpha 0.014, beta 0.22, gamma
    // 0.59, delta 0.85, a word in no item 1: below 1.2 together, nothing can be kept.
    for prompt in [
        "alpha note",
        "alpha beta",
        "alpha gamma",
        "beta gamma",
        "alpha omega",
    ] {
        // No pool of every match: the quick one stands for it, or none is made.
        let (holds, _, skipped) = quick(&lib, prompt);
        assert_eq!((holds, skipped), (holds, 1 - holds), "{prompt}");
        let answer = lib.json(&["related", prompt, "--now", NOW]);
        assert_eq!(
            answer["results"],
            serde_json::json!([]),
            "{prompt}: {answer}"
        );
    }
    // --explain makes the pool, and its candidates are bm25's.
    assert_eq!(
        candidates(&lib, "alpha note"),
        expected(&lib, &["alpha", "note"])
    );
    // gamma and delta weigh 1.44: the pool is made (the quick one: 22 items, the 8th
    // candidate out of alpha's reach), and what is kept is what --explain keeps.
    let prompt = "alpha gamma delta";
    assert_eq!(quick(&lib, prompt), (1, 22, 0));
    assert_eq!(
        candidates(&lib, prompt),
        expected(&lib, &["alpha", "gamma", "delta"])
    );
    let kept: Vec<i64> = lib.json(&["related", prompt, "--now", NOW, "--explain"])["explain"]
        ["candidates"]
        .as_array()
        .expect("candidates")
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
