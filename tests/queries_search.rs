//! `recall search` and `recall timeline` against hand-made libraries: each rule of
//! docs/queries.md with the expected answer worked out beside it. Fixtures written at
//! one instant are each other's neighbours, so the tests of stage 1's rules turn the
//! context stage off (`--context-weight 0`); tests/queries_context.rs tests it.

use crate::common::cli::{fillers, ids, titled, TempLib};

const NOW: &str = "2025-06-01T00:00:00Z";

#[test]
fn filters_apply_before_the_pool_is_cut() {
    // 30 items of project "big" say "zebra" three times in a short title; one item of
    // project "small" says it once in a long title. bm25 ranks by term frequency at equal
    // IDF, so "small" ranks 31st of 31: outside a pool of 10 across all projects, but the
    // first and only hit once the project filter runs inside stage 1.
    let mut items: Vec<String> = (0..30)
        .map(|i| {
            titled(&format!("zebra zebra zebra {i}"))
                .project("big")
                .line()
        })
        .collect();
    items.push(
        titled("a long title that mentions the zebra only once among many other words")
            .project("small")
            .line(),
    );
    let lib = TempLib::with_items(None, &items);
    let bare = lib.relevance("\"zebra\"");
    assert_eq!(bare.len(), 31);
    assert_eq!(
        bare.last().unwrap().0,
        31,
        "the fixture puts the small item last"
    );
    let all = lib.json(&[
        "search",
        "zebra",
        "--pool",
        "10",
        "--limit",
        "50",
        "--weight",
        "0",
        "--context-weight",
        "0",
    ]);
    assert_eq!(ids(&all).len(), 10, "the pool of 10 holds only big items");
    assert!(!ids(&all).contains(&31));
    let scoped = lib.json(&[
        "search",
        "--context-weight",
        "0",
        "zebra",
        "--pool",
        "10",
        "--project",
        "small",
    ]);
    assert_eq!(ids(&scoped), vec![31]);
}

#[test]
fn recency_reorders_but_never_adds() {
    // "alpha" is only in the old item; the brand-new item must not appear.
    let lib = TempLib::with_items(
        None,
        &[
            titled("alpha report").at("2015-01-01T00:00:00Z").line(),
            titled("beta note").at(NOW).line(),
        ],
    );
    assert_eq!(
        ids(&lib.json(&["search", "alpha", "--now", NOW, "--weight", "1"])),
        vec![1]
    );
    // Two identical texts: with recency, the newer comes first.
    let lib = TempLib::with_items(
        None,
        &[
            titled("gamma release notes")
                .at("2020-01-01T00:00:00Z")
                .line(),
            titled("gamma release notes")
                .at("2025-05-01T00:00:00Z")
                .line(),
        ],
    );
    assert_eq!(
        ids(&lib.json(&["search", "gamma", "--now", NOW])),
        vec![2, 1]
    );
}

/// Expected order by the formula, from relevance read straight from FTS5.
fn expected_order(lib: &TempLib, fts: &str, dates: &[(i64, &str)], weight: f64) -> Vec<i64> {
    let now = 20_240.0; // 2025-06-01 in days since 1970: 2025-06-01 = day 20240.
    let day = |d: &str| -> f64 {
        // Days since 1970 of the dates used below, worked out by hand.
        match d {
            "2025-06-01T00:00:00Z" => 20_240.0,
            "2025-03-03T00:00:00Z" => 20_150.0,
            "2015-06-01T00:00:00Z" => 16_587.0,
            other => panic!("no day count for {other}"),
        }
    };
    let mut scored: Vec<(i64, f64)> = lib
        .relevance(fts)
        .into_iter()
        .map(|(id, rel)| {
            let date = dates.iter().find(|(i, _)| *i == id).expect("dated").1;
            let decay = 0.5f64.powf((now - day(date)) / 90.0);
            (id, rel * ((1.0 - weight) + weight * decay))
        })
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    scored.into_iter().map(|(id, _)| id).collect()
}

#[test]
fn an_older_item_wins_only_past_its_recency_factor() {
    // Item 1 is ten years old (decay ~0), item 2 brand new (decay 1): at weight w the old
    // item keeps 1 - w of its relevance, so it comes first exactly when relevance(1) /
    // relevance(2) exceeds 1 / (1 - w): 1.111 at search's default 0.1, 1.429 at 0.3.
    // Matching both query words doubles relevance (the old item wins at both weights),
    // the same text gives ratio 1 (the new one wins at both), and a new item three words
    // longer (bm25 weighs a word less in a longer item) gives about 1.3, between the
    // bars. Twenty fillers keep the IDF of the query words above FTS5's floor.
    let mut between = 0;
    let mut ratios = Vec::new();
    for (old_title, new_summary) in [
        ("delta sigma", ""),
        ("delta", ""),
        ("delta", "kappa lambda omicron"),
    ] {
        let mut items = vec![
            titled(old_title).at("2015-06-01T00:00:00Z").line(),
            titled("delta").summary(new_summary).at(NOW).line(),
        ];
        items.extend(fillers(20));
        let lib = TempLib::with_items(None, &items);
        let rel = lib.relevance("\"delta\" OR \"sigma\"");
        let r = |id: i64| rel.iter().find(|(i, _)| *i == id).unwrap().1;
        let ratio = r(1) / r(2);
        ratios.push(ratio);
        if ratio > 1.0 / 0.9 && ratio <= 1.0 / 0.7 {
            between += 1;
        }
        let dates = [(1, "2015-06-01T00:00:00Z"), (2, NOW)];
        for (weight, flag) in [(0.1, None), (0.3, Some("0.3"))] {
            let mut args = vec!["search", "delta sigma", "--now", NOW];
            if let Some(w) = flag {
                args.extend(["--weight", w]);
            }
            let got = ids(&lib.json(&args));
            assert_eq!(
                got,
                expected_order(&lib, "\"delta\" OR \"sigma\"", &dates, weight),
                "{old_title}, weight {weight}"
            );
            let old_wins = ratio > 1.0 / (1.0 - weight);
            assert_eq!(
                got[0],
                if old_wins { 1 } else { 2 },
                "{old_title}: ratio {ratio}, weight {weight}"
            );
        }
    }
    assert_eq!(
        between, 1,
        "one fixture must tell the default weight from 0.3: ratios {ratios:?}"
    );
}

#[test]
fn weight_zero_is_pure_bm25_and_scores_follow_the_formula() {
    let lib = TempLib::with_items(
        None,
        &[
            titled("epsilon epsilon epsilon")
                .at("2015-06-01T00:00:00Z")
                .line(),
            titled("epsilon")
                .summary("epsilon notes")
                .at("2025-03-03T00:00:00Z")
                .line(),
            titled("epsilon epsilon").at(NOW).line(),
        ],
    );
    let bare: Vec<i64> = lib
        .relevance("\"epsilon\"")
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    let answer = lib.json(&["search", "epsilon", "--now", NOW, "--weight", "0"]);
    assert_eq!(ids(&answer), bare);
    for r in answer["results"].as_array().unwrap() {
        assert_eq!(r["score"], r["relevance"], "weight 0: score = relevance");
    }
    let dates = [
        (1, "2015-06-01T00:00:00Z"),
        (2, "2025-03-03T00:00:00Z"),
        (3, NOW),
    ];
    for weight in [0.3, 0.7, 1.0] {
        let got = ids(&lib.json(&[
            "search",
            "epsilon",
            "--now",
            NOW,
            "--weight",
            &weight.to_string(),
        ]));
        assert_eq!(
            got,
            expected_order(&lib, "\"epsilon\"", &dates, weight),
            "weight {weight}"
        );
    }
    assert_eq!(
        ids(&lib.json(&["search", "epsilon", "--now", NOW])),
        expected_order(&lib, "\"epsilon\"", &dates, 0.1),
        "the default weight"
    );
    // At search's default weight, 0.1 (recall_score's own is 0.3), the reported score is
    // relevance * (0.9 + 0.1 * 0.5^(90 / 90)) for item 2.
    let answer = lib.json(&["search", "epsilon", "--now", NOW]);
    let two = answer["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == 2)
        .unwrap();
    let expected = two["relevance"].as_f64().unwrap() * (0.9 + 0.1 * 0.5);
    assert!((two["score"].as_f64().unwrap() - expected).abs() < 1e-12);
}

#[test]
fn the_limit_rule_and_the_pool_clamp() {
    let items: Vec<String> = (0..60)
        .map(|i| titled(&format!("omega {i}")).line())
        .collect();
    let lib = TempLib::with_items(None, &items);
    for (flag, expected) in [
        (None, 10),
        (Some("0"), 10),
        (Some("-3"), 10),
        (Some("7"), 7),
        (Some("50"), 50),
        (Some("51"), 50),
        (Some("500"), 50),
    ] {
        let mut args = vec!["search", "--context-weight", "0", "omega"];
        let f;
        if let Some(v) = flag {
            f = format!("--limit={v}");
            args.push(&f);
        }
        let answer = lib.json(&args);
        assert_eq!(ids(&answer).len(), expected, "{flag:?}");
        assert_eq!(answer["settings"]["limit"], expected);
    }
    for (pool, clamped, results) in [("1", 10, 10), ("25", 25, 25), ("99999", 5000, 50)] {
        let answer = lib.json(&[
            "search",
            "--context-weight",
            "0",
            "omega",
            "--pool",
            pool,
            "--limit",
            "50",
        ]);
        assert_eq!(answer["settings"]["pool"], clamped);
        assert_eq!(ids(&answer).len(), results, "pool {pool}");
    }
    // The configuration sets the defaults; flags override it.
    let config = lib.path("recall.toml");
    std::fs::write(&config, "[search]\ndefault_limit = 4\nmax_limit = 6\n").unwrap();
    let c = config.to_str().unwrap();
    assert_eq!(ids(&lib.json(&["--config", c, "search", "omega"])).len(), 4);
    assert_eq!(
        ids(&lib.json(&["--config", c, "search", "omega", "--limit", "20"])).len(),
        6
    );
}

#[test]
fn since_is_inclusive_until_exclusive_and_times_are_utc() {
    let lib = TempLib::with_items(
        None,
        &[
            titled("kappa one").line(),
            titled("kappa two").at("2025-01-01T23:59:59Z").line(),
            titled("kappa three").at("2025-01-02T00:00:00Z").line(),
        ],
    );
    let sorted = |args: &[&str]| {
        let mut full = vec!["search", "kappa"];
        full.extend_from_slice(args);
        let mut v = ids(&lib.json(&full));
        v.sort();
        v
    };
    assert_eq!(sorted(&["--since", "2025-01-01"]), vec![1, 2, 3]);
    assert_eq!(sorted(&["--since", "2025-01-01T00:00:01Z"]), vec![2, 3]);
    assert_eq!(sorted(&["--until", "2025-01-02"]), vec![1, 2]);
    // 01:00 at +01:00 is midnight UTC: inclusive. 19:00 at -05:00 is the next midnight.
    assert_eq!(
        sorted(&["--since", "2025-01-01T01:00:00+01:00"]),
        vec![1, 2, 3]
    );
    assert_eq!(
        sorted(&["--until", "2025-01-01T19:00:00-05:00"]),
        vec![1, 2]
    );
    // A datetime without offset is UTC.
    assert_eq!(
        sorted(&[
            "--since",
            "2025-01-01 23:59:59",
            "--until",
            "2025-01-02 00:00:00"
        ]),
        vec![2]
    );
    lib.run(&["search", "kappa", "--since", "yesterday"])
        .fails_with("--since \"yesterday\" is not an ISO-8601 time");
    // Timeline reads the same bounds.
    assert_eq!(
        ids(&lib.json(&[
            "timeline",
            "--since",
            "2025-01-01T12:00:00Z",
            "--until",
            "2025-01-02"
        ])),
        vec![2]
    );
}

#[test]
fn stop_words_and_literal_mode() {
    let lib = TempLib::with_items(
        None,
        &[
            titled("When the build broke").line(),
            titled("Sunrise painting").line(),
        ],
    )
    // The two are neighbours: each would match the other's words by its context column.
    .without_index_context();
    // "when" and "the" are stop words: dropped while "sunrise" remains.
    let answer = lib.json(&[
        "search",
        "--context-weight",
        "0",
        "when the sunrise?",
        "--explain",
    ]);
    assert_eq!(ids(&answer), vec![2]);
    // The trigram library searches the word's stem (docs/functions.md).
    assert_eq!(answer["explain"]["terms"], serde_json::json!(["sunris"]));
    let literal = lib.json(&[
        "search",
        "--context-weight",
        "0",
        "when the sunrise?",
        "--literal",
        "--weight",
        "0",
    ]);
    assert_eq!(literal["settings"]["drop_stopwords"], false);
    let mut got = ids(&literal);
    got.sort();
    assert_eq!(got, vec![1, 2]);
    // A query of only stop words is still searched.
    assert_eq!(
        ids(&lib.json(&["search", "--context-weight", "0", "when the"])),
        vec![1]
    );
}

#[test]
fn explain_says_why_an_answer_is_empty() {
    let empty = TempLib::init(None);
    let a = empty.json(&["search", "anything", "--explain"]);
    assert_eq!(a["explain"]["reason"], "no_rows");
    let lib = TempLib::with_items(None, &[titled("lambda").project("p").line()]);
    assert_eq!(
        lib.json(&["search", "a b", "--explain"])["explain"]["reason"],
        "no_terms"
    );
    assert_eq!(
        lib.json(&["search", "lambda", "--project", "q", "--explain"])["explain"]["reason"],
        "filtered"
    );
    assert_eq!(
        lib.json(&["search", "nomatchword", "--explain"])["explain"]["reason"],
        "filtered"
    );
    let found = lib.json(&["search", "lambda", "--explain"]);
    assert_eq!(found["explain"]["reason"], serde_json::Value::Null);
    assert_eq!(found["explain"]["pool"], 200);
    assert_eq!(found["explain"]["terms"], serde_json::json!(["lambda"]));
    // The text form ends with the same facts, and an empty answer exits 0.
    let text = lib.run(&["search", "a b", "--explain"]).ok().stdout;
    assert!(text.starts_with("(no results)\n--\n"), "{text}");
    assert!(text.contains("reason: no_terms"));
    assert_eq!(
        lib.json(&["timeline", "--project", "nope", "--explain"])["explain"]["reason"],
        "filtered"
    );
    assert_eq!(
        empty.json(&["timeline", "--explain"])["explain"]["reason"],
        "no_rows"
    );
}

#[test]
fn the_text_table_and_the_json_shape() {
    let lib = TempLib::with_items(
        None,
        &[titled("Remove the analytics script")
            .source("agent-a")
            .project("shop")
            .at("2025-01-20T10:00:00Z")
            .line()],
    );
    let text = lib.run(&["search", "analytics"]).ok().stdout;
    assert_eq!(
        text,
        "[1] 2025-01-20 Remove the analytics script (shop, agent-a)\n"
    );
    let answer = lib.json(&["search", "analytics", "--now", NOW]);
    assert_eq!(answer["command"], "search");
    let r = &answer["results"][0];
    for key in [
        "id",
        "date",
        "title",
        "project",
        "source",
        "score",
        "relevance",
    ] {
        assert!(r.get(key).is_some(), "result lacks {key}: {r}");
    }
    assert_eq!(r["date"], "2025-01-20T10:00:00Z");
    for key in [
        "query",
        "tokenizer",
        "drop_stopwords",
        "pool",
        "limit",
        "half_life_days",
        "recency_weight",
        "now",
        "filters",
        "allow",
    ] {
        assert!(answer["settings"].get(key).is_some(), "settings lack {key}");
    }
}

#[test]
fn timeline_is_newest_first_with_its_limits() {
    let items: Vec<String> = (0..60)
        .map(|i| {
            titled(&format!("entry {i}"))
                .source(if i % 2 == 0 { "even" } else { "odd" })
                .project(if i < 30 { "p" } else { "q" })
                .at(&format!("2025-01-01T00:{:02}:00Z", i))
                .line()
        })
        .collect();
    let lib = TempLib::with_items(None, &items);
    // Newest first: item 60 (minute 59) down; default 20.
    let all = ids(&lib.json(&["timeline"]));
    assert_eq!(all, (41..=60).rev().collect::<Vec<i64>>());
    assert_eq!(ids(&lib.json(&["timeline", "--limit", "100"])).len(), 50);
    assert_eq!(
        ids(&lib.json(&["timeline", "--project", "p", "--limit", "3"])),
        vec![30, 29, 28]
    );
    assert_eq!(
        ids(&lib.json(&["timeline", "--source", "even", "--limit", "3"])),
        vec![59, 57, 55]
    );
    assert_eq!(
        ids(&lib.json(&[
            "timeline",
            "--project",
            "q",
            "--source",
            "odd",
            "--limit",
            "2"
        ])),
        vec![60, 58]
    );
    let text = lib.run(&["timeline", "--limit", "1"]).ok().stdout;
    assert_eq!(text, "[60] 2025-01-01 entry 59 (q, odd)\n");
}

#[test]
fn project_scoping_is_exact_whatever_the_name() {
    // The project filter runs inside FTS5 where it can, then exactly: a name that is part
    // of another, a name too short for trigram, a name with no word characters.
    for tokenizer in [None, Some("unicode61 remove_diacritics 2")] {
        let lib = TempLib::with_items(
            tokenizer,
            &[
                titled("xenon report").project("shop").line(),
                titled("xenon report").project("workshop").line(),
                titled("xenon report").project("ui").line(),
                titled("xenon report").project("@@@").line(),
                titled("xenon report").project("Shop").line(),
                titled("xenon report").project("shop \"x\"").line(),
            ],
        );
        for (project, expected) in [
            ("shop", 1),
            ("workshop", 2),
            ("ui", 3),
            ("@@@", 4),
            ("Shop", 5),
            ("shop \"x\"", 6),
        ] {
            assert_eq!(
                ids(&lib.json(&["search", "xenon", "--project", project])),
                vec![expected],
                "{project} {tokenizer:?}"
            );
        }
    }
}

#[test]
fn pruning_drops_common_words_while_a_rarer_one_remains() {
    // "common" is in 18 of 20 items, "zircon" in 2, "basalt" in 5.
    let items: Vec<String> = (0..20)
        .map(|i| {
            let mut title = String::new();
            if i < 18 {
                title.push_str("common ");
            }
            if i < 2 {
                title.push_str("zircon ");
            }
            if (5..10).contains(&i) {
                title.push_str("basalt ");
            }
            title.push_str(&format!("note {i}"));
            titled(&title).line()
        })
        .collect();
    for tokenizer in [None, Some("unicode61 remove_diacritics 2")] {
        // A word's share counts the items whose neighbours hold it too: none here.
        let lib = TempLib::with_items(tokenizer, &items).without_index_context();
        let answer = lib.json(&[
            "search",
            "--context-weight",
            "0",
            "common zircon",
            "--prune",
            "0.5",
            "--explain",
        ]);
        let pruned: Vec<&str> = answer["explain"]["pruned"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["term"].as_str().unwrap())
            .collect();
        assert_eq!(pruned, ["common"], "{tokenizer:?}");
        assert_eq!(answer["explain"]["pruned"][0]["share"], 0.9);
        assert_eq!(answer["explain"]["terms"], serde_json::json!(["zircon"]));
        let mut got = ids(&answer);
        got.sort();
        assert_eq!(got, vec![1, 2]);
        // Only common words: the rarest stays. A share above theirs prunes nothing.
        let a = lib.json(&[
            "search",
            "--context-weight",
            "0",
            "common basalt",
            "--prune",
            "0.1",
            "--explain",
        ]);
        assert_eq!(a["explain"]["terms"], serde_json::json!(["basalt"]));
        let a = lib.json(&[
            "search",
            "--context-weight",
            "0",
            "common basalt",
            "--prune",
            "0.95",
            "--explain",
        ]);
        assert_eq!(a["explain"]["pruned"], serde_json::json!([]));
        // A quoted phrase is never pruned.
        let a = lib.json(&[
            "search",
            "--context-weight",
            "0",
            "\"common note\" zircon",
            "--prune",
            "0.1",
            "--explain",
        ]);
        assert_eq!(a["explain"]["pruned"], serde_json::json!([]));
        // Off by default.
        let a = lib.json(&[
            "search",
            "--context-weight",
            "0",
            "common zircon",
            "--explain",
        ]);
        assert_eq!(a["explain"]["pruned"], serde_json::json!([]));
        assert_eq!(ids(&a).len(), 10);
    }
    let lib = TempLib::with_items(None, &items);
    lib.run(&["search", "x", "--prune", "1.5"])
        .fails_with("--prune must be above 0 and at most 1, got 1.5");
    let config = lib.path("recall.toml");
    std::fs::write(&config, "[search]\nprune_share = 0.5\n").unwrap();
    let a = lib.json(&[
        "--config",
        config.to_str().unwrap(),
        "search",
        "common zircon",
        "--explain",
    ]);
    assert_eq!(a["settings"]["prune_share"], 0.5);
    assert_eq!(a["explain"]["terms"], serde_json::json!(["zircon"]));
}

#[test]
fn a_trigram_library_finds_every_inflection_of_a_word() {
    let lib = TempLib::with_items(
        None,
        &[
            titled("She painted the fence blue").line(),
            titled("Two painters arrived").line(),
            titled("The paint ran out").line(),
            titled("Grocery list").line(),
        ],
    )
    .without_index_context();
    let answer = lib.json(&["search", "--context-weight", "0", "painting?", "--explain"]);
    assert_eq!(answer["explain"]["terms"], serde_json::json!(["paint"]));
    let mut got = ids(&answer);
    got.sort();
    assert_eq!(got, vec![1, 2, 3]);
    // A quoted word is searched as written: no item holds "painting".
    assert!(ids(&lib.json(&["search", "\"painting\""])).is_empty());
    // A porter library stems its index instead: the query's words stay as written.
    let porter = TempLib::with_items(
        Some("porter unicode61 remove_diacritics 2"),
        &[titled("She painted the fence blue").line()],
    );
    let answer = porter.json(&["search", "painting", "--explain"]);
    assert_eq!(answer["explain"]["terms"], serde_json::json!(["painting"]));
    assert_eq!(ids(&answer), vec![1]);
}
