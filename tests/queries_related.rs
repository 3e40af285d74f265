//! `recall related` with the idf rule against hand-made libraries. The verdict on every
//! judged candidate (`--explain`) is checked against a plain-Rust statement of the rule
//! (docs/queries.md#related): the words a candidate shares with the prompt, how many
//! items hold each word and all of them, their weights, and kept or dropped.

use serde_json::Value;

use crate::common::cli::{ids, titled, TempLib};

const NOW: &str = "2025-06-01T00:00:00Z";

/// A fixture item: what the index holds of it (title, summary, project) and its source.
#[derive(Clone)]
struct Item {
    title: String,
    summary: String,
    source: &'static str,
    project: Option<&'static str>,
}

fn item(title: &str) -> Item {
    Item {
        title: title.to_string(),
        summary: String::new(),
        source: "s",
        project: None,
    }
}

fn filler(i: usize) -> Item {
    Item {
        title: format!("filler {i}"),
        summary: String::new(),
        source: "f",
        project: Some("f"),
    }
}

fn library(tokenizer: Option<&str>, items: &[Item]) -> TempLib {
    let lines: Vec<String> = items
        .iter()
        .map(|it| {
            let mut f = titled(&it.title)
                .summary(&it.summary)
                .source(it.source)
                .at("2025-01-01T00:00:00Z");
            if let Some(p) = it.project {
                f = f.project(p);
            }
            f.line()
        })
        .collect();
    TempLib::with_items(tokenizer, &lines)
}

/// Lower-case ASCII words of letters and digits (the fixtures are ASCII).
fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// The rule, restated: which items hold a word as the index finds it (trigram: a
/// substring of any indexed column; a word tokenizer: a whole word), a word's weight
/// ln(N / df) / ln(N), and the verdict.
struct Oracle<'a> {
    items: &'a [Item],
    trigram: bool,
    /// The readable sources (None: all).
    allow: Option<&'a [&'a str]>,
    min_weight: f64,
    min_joint_weight: f64,
}

impl Oracle<'_> {
    fn readable(&self) -> impl Iterator<Item = &Item> {
        self.items
            .iter()
            .filter(|it| self.allow.is_none_or(|a| a.contains(&it.source)))
    }

    fn holds(&self, it: &Item, word: &str) -> bool {
        let columns = [
            it.title.as_str(),
            it.summary.as_str(),
            it.project.unwrap_or(""),
        ];
        columns.iter().any(|c| {
            if self.trigram {
                c.to_lowercase().contains(word)
            } else {
                words(c).iter().any(|w| w == word)
            }
        })
    }

    fn n(&self) -> usize {
        self.readable().count()
    }

    fn df(&self, all_of: &[&str]) -> usize {
        self.readable()
            .filter(|it| all_of.iter().all(|w| self.holds(it, w)))
            .count()
    }

    fn weight(&self, df: usize) -> f64 {
        let n = self.n();
        if n <= 1 {
            return 1.0;
        }
        (n as f64 / df.clamp(1, n) as f64).ln() / (n as f64).ln()
    }

    /// The prompt's words that the item has as whole words in its title or summary.
    fn shared(&self, prompt: &str, it: &Item) -> Vec<String> {
        let own: Vec<String> = words(&format!("{} {}", it.title, it.summary));
        let mut out: Vec<String> = Vec::new();
        for w in words(prompt) {
            if own.contains(&w) && !out.contains(&w) {
                out.push(w);
            }
        }
        out
    }

    fn verdict(&self, prompt: &str, it: &Item) -> &'static str {
        let shared = self.shared(prompt, it);
        if shared.len() < 2 {
            return "few_words";
        }
        let sum: f64 = shared.iter().map(|w| self.weight(self.df(&[w]))).sum();
        if sum < self.min_weight {
            return "low_weight";
        }
        let all: Vec<&str> = shared.iter().map(String::as_str).collect();
        if self.weight(self.df(&all)) < self.min_joint_weight {
            return "common_together";
        }
        "kept"
    }
}

fn oracle(items: &[Item]) -> Oracle<'_> {
    Oracle {
        items,
        trigram: true,
        allow: None,
        min_weight: 1.2,
        min_joint_weight: 0.5,
    }
}

/// Runs `related --explain` and checks every judged candidate against the oracle: its
/// shared words, each word's items and weight, their sum, the items with all of them,
/// and the verdict; the results are the kept ones in the order judged, at most the
/// limit. Returns the answer.
fn judged(lib: &TempLib, o: &Oracle, prompt: &str, flags: &[&str]) -> Value {
    let mut args = vec!["related", prompt, "--now", NOW, "--explain"];
    args.extend_from_slice(flags);
    let answer = lib.json(&args);
    let explain = &answer["explain"];
    // The fixtures' prompts have no stop word and no word under three letters.
    let terms: Vec<String> = words(prompt);
    assert_eq!(explain["terms"], serde_json::json!(terms), "{prompt}");
    let candidates = explain["candidates"].as_array().expect("candidates");
    assert!(
        candidates.len() <= 8,
        "{prompt}: {} judged",
        candidates.len()
    );
    let mut kept = Vec::new();
    for c in candidates {
        let id = c["id"].as_i64().expect("id");
        let it = &o.items[(id - 1) as usize];
        let shared = o.shared(prompt, it);
        let listed: Vec<&str> = c["shared"]
            .as_array()
            .expect("shared")
            .iter()
            .map(|w| w["word"].as_str().expect("word"))
            .collect();
        let mut want: Vec<&str> = shared.iter().map(String::as_str).collect();
        want.sort_unstable();
        let mut got = listed.clone();
        got.sort_unstable();
        assert_eq!(got, want, "{prompt}: words shared by {id}");
        let mut sum = 0.0;
        for w in c["shared"].as_array().expect("shared") {
            let word = w["word"].as_str().expect("word");
            let df = o.df(&[word]);
            assert_eq!(w["items"], df, "{prompt}: items with {word:?}");
            let weight = o.weight(df);
            assert!(
                (w["weight"].as_f64().expect("weight") - weight).abs() < 5e-4,
                "{prompt}: weight of {word:?}: {w} vs {weight}"
            );
            sum += weight;
        }
        if shared.len() >= 2 {
            assert!(
                (c["weight"].as_f64().expect("sum") - sum).abs() < 1e-9,
                "{prompt}: {id} weighs {} vs {sum}",
                c["weight"]
            );
            let all: Vec<&str> = shared.iter().map(String::as_str).collect();
            let joint = o.df(&all);
            assert_eq!(
                c["joint_items"], joint,
                "{prompt}: items with all of {all:?}"
            );
            assert!((c["joint_weight"].as_f64().expect("joint") - o.weight(joint)).abs() < 1e-9);
        }
        let verdict = o.verdict(prompt, it);
        match c["verdict"].as_str().expect("verdict") {
            "over_limit" => assert_eq!(verdict, "kept", "{prompt}: {id}"),
            v => {
                assert_eq!(v, verdict, "{prompt}: {id}: {}", c["why"]);
                if v == "kept" {
                    kept.push(id);
                }
            }
        }
        let why = c["why"].as_str().expect("why");
        assert!(
            why.starts_with(if c["verdict"] == "kept" {
                "kept: "
            } else {
                "dropped: "
            }),
            "{why}"
        );
    }
    assert_eq!(
        ids(&answer),
        kept,
        "{prompt}: the results are the kept candidates"
    );
    answer
}

/// 100 items: rare words, words that always come together, common words that meet by
/// chance, and fillers that hold none of the prompts' words (not even as substrings).
fn words_library() -> Vec<Item> {
    let mut items = vec![item("zeppelin quartz voyage"), item("quartz mine")];
    // 3..=12: "walrus nebula", always together (10 items each).
    items.extend((0..10).map(|i| item(&format!("walrus nebula report {i}"))));
    // 13..=32: four words that only come together (20 items).
    items.extend((0..20).map(|i| item(&format!("gizmo widget sprocket gasket {i}"))));
    // 33..=53 "harbor", 54..=62 both, 63..=83 "lantern": 30 items each, 9 together.
    items.extend((0..21).map(|i| item(&format!("harbor {i}"))));
    items.extend((0..9).map(|i| item(&format!("harbor lantern {i}"))));
    items.extend((0..21).map(|i| item(&format!("lantern {i}"))));
    items.extend((84..=100).map(filler));
    assert_eq!(items.len(), 100);
    items
}

#[test]
fn rare_shared_words_are_kept() {
    let items = words_library();
    let lib = library(None, &items);
    let o = oracle(&items);
    // 1 shares zeppelin (1 item), quartz (2) and voyage (1); 2 shares quartz alone.
    let answer = judged(&lib, &o, "zeppelin quartz voyage", &[]);
    assert_eq!(ids(&answer), vec![1]);
    assert_eq!(answer["settings"]["rule"], "idf");
}

#[test]
fn one_shared_word_is_never_enough() {
    let items = words_library();
    let lib = library(None, &items);
    let o = oracle(&items);
    let answer = judged(&lib, &o, "zeppelin orchard", &[]);
    assert_eq!(ids(&answer), Vec::<i64>::new());
    let answer = judged(&lib, &o, "zeppelin orchard", &["--min-weight", "0"]);
    assert_eq!(ids(&answer), Vec::<i64>::new());
}

#[test]
fn common_words_weigh_little_alone_and_together() {
    let items = words_library();
    let lib = library(None, &items);
    // walrus and nebula: each in 10 of 100 items (0.5), together in 10 (0.5). Their sum,
    // 1, is below the default 1.2.
    let mut o = oracle(&items);
    assert_eq!(
        ids(&judged(&lib, &o, "walrus nebula", &[])),
        Vec::<i64>::new()
    );
    o.min_weight = 0.9;
    let kept = ids(&judged(&lib, &o, "walrus nebula", &["--min-weight", "0.9"]));
    assert_eq!(kept.len(), 3);
    assert!(kept.iter().all(|id| (3..=12).contains(id)), "{kept:?}");
    o.min_joint_weight = 0.51;
    let flags = ["--min-weight", "0.9", "--min-joint-weight", "0.51"];
    assert_eq!(
        ids(&judged(&lib, &o, "walrus nebula", &flags)),
        Vec::<i64>::new()
    );
    // Four words in 20 items: 0.35 each, 1.4 together by their sum, but only 0.35 as
    // the 20 items that hold all four: a template, not a match.
    let o = oracle(&items);
    let answer = judged(&lib, &o, "gizmo widget sprocket gasket", &[]);
    assert_eq!(ids(&answer), Vec::<i64>::new());
    let verdicts: Vec<&Value> = answer["explain"]["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["verdict"])
        .collect();
    assert!(
        verdicts.iter().all(|v| *v == "common_together"),
        "{verdicts:?}"
    );
    let mut o = oracle(&items);
    o.min_joint_weight = 0.3;
    let flags = ["--min-joint-weight", "0.3"];
    assert_eq!(
        ids(&judged(&lib, &o, "gizmo widget sprocket gasket", &flags)).len(),
        3
    );
    // harbor and lantern: 30 items each (0.26), together in 9 by chance.
    let o = oracle(&items);
    assert_eq!(
        ids(&judged(&lib, &o, "harbor lantern", &[])),
        Vec::<i64>::new()
    );
}

#[test]
fn jezero_keeps_any_two_shared_words() {
    let items = words_library();
    let lib = library(None, &items);
    for prompt in [
        "walrus nebula",
        "gizmo widget sprocket gasket",
        "harbor lantern",
    ] {
        let answer = lib.json(&["related", prompt, "--now", NOW, "--rule", "jezero"]);
        let got = ids(&answer);
        assert_eq!(got.len(), 3, "{prompt}");
        for id in got {
            let shared = oracle(&items).shared(prompt, &items[(id - 1) as usize]);
            assert!(shared.len() >= 2, "{prompt}: {id} shares {shared:?}");
        }
        assert_eq!(answer["settings"]["rule"], "jezero");
    }
    assert_eq!(
        ids(&lib.json(&["related", "zeppelin orchard", "--rule", "jezero"])),
        Vec::<i64>::new()
    );
}

#[test]
fn at_most_three_and_the_rest_over_the_limit() {
    let items = words_library();
    let lib = library(None, &items);
    let mut o = oracle(&items);
    o.min_weight = 0.9;
    let answer = judged(&lib, &o, "walrus nebula", &["--min-weight", "0.9"]);
    let candidates = answer["explain"]["candidates"].as_array().unwrap();
    assert_eq!(candidates.len(), 8);
    let over = candidates
        .iter()
        .filter(|c| c["verdict"] == "over_limit")
        .count();
    assert_eq!(over, 5);
    let answer = judged(
        &lib,
        &o,
        "walrus nebula",
        &["--min-weight", "0.9", "--limit", "1"],
    );
    assert_eq!(ids(&answer).len(), 1);
    // The first kept is the best-scored candidate.
    assert_eq!(
        ids(&answer)[0],
        answer["explain"]["candidates"][0]["id"].as_i64().unwrap()
    );
}

#[test]
fn weights_count_only_the_readable_items() {
    // "quasar" is in 60 items of the source "secret" and in item 1, with "orbit".
    let mut items = vec![item("quasar orbit")];
    items.extend((0..60).map(|i| Item {
        source: "secret",
        ..item(&format!("quasar {i}"))
    }));
    items.extend((62..=100).map(filler));
    let lib = library(None, &items);
    // All 100 items: quasar in 61 weighs 0.11, orbit 1; 1.11 is below 1.2.
    let o = oracle(&items);
    let answer = judged(&lib, &o, "quasar orbit", &[]);
    assert_eq!(ids(&answer), Vec::<i64>::new());
    // Reading s and f only: 40 items, quasar in one of them.
    let allow = ["s", "f"];
    let o = Oracle {
        allow: Some(&allow),
        ..oracle(&items)
    };
    let answer = judged(&lib, &o, "quasar orbit", &["--allow", "s", "--allow", "f"]);
    assert_eq!(ids(&answer), vec![1]);
    let quasar = answer["explain"]["candidates"][0]["shared"]
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["word"] == "quasar")
        .cloned();
    assert_eq!(
        quasar.map(|w| w["items"].clone()),
        Some(serde_json::json!(1))
    );
    for c in answer["explain"]["candidates"].as_array().unwrap() {
        let id = c["id"].as_i64().unwrap();
        assert_ne!(items[(id - 1) as usize].source, "secret", "{c}");
    }
}

#[test]
fn document_frequency_follows_the_tokenizer() {
    // Trigram finds "cat" inside "catalog" and "category"; a word tokenizer does not.
    let mut items = vec![
        item("cat food recall"),
        item("catalog page"),
        item("category tree"),
        item("food notice"),
    ];
    items.extend((5..=40).map(filler));
    for (tokenizer, trigram) in [(None, true), (Some("unicode61 remove_diacritics 2"), false)] {
        let lib = library(tokenizer, &items);
        let o = Oracle {
            trigram,
            ..oracle(&items)
        };
        let answer = judged(&lib, &o, "cat food recall", &[]);
        let first = &answer["explain"]["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == 1)
            .expect("item 1 is judged")["shared"];
        let cat = first
            .as_array()
            .unwrap()
            .iter()
            .find(|w| w["word"] == "cat")
            .unwrap();
        assert_eq!(cat["items"], if trigram { 3 } else { 1 }, "{tokenizer:?}");
        assert_eq!(ids(&answer), vec![1], "{tokenizer:?}");
    }
}

#[test]
fn the_rule_comes_from_flags_over_the_config() {
    let items = words_library();
    let lib = library(None, &items);
    let config = lib.path("recall.toml");
    std::fs::write(&config, "[related]\nrule = \"jezero\"\n").unwrap();
    let config = config.to_str().unwrap();
    let by_config = lib.json(&["--config", config, "related", "harbor lantern"]);
    assert_eq!(by_config["settings"]["rule"], "jezero");
    assert_eq!(ids(&by_config).len(), 3);
    let by_flag = lib.json(&[
        "--config",
        config,
        "related",
        "harbor lantern",
        "--rule",
        "idf",
    ]);
    assert_eq!(by_flag["settings"]["rule"], "idf");
    assert_eq!(ids(&by_flag), Vec::<i64>::new());
    std::fs::write(lib.path("w.toml"), "[related]\nmin_weight = 0.9\n").unwrap();
    let w = lib.path("w.toml");
    let answer = lib.json(&["--config", w.to_str().unwrap(), "related", "walrus nebula"]);
    assert_eq!(answer["settings"]["min_weight"], 0.9);
    assert_eq!(ids(&answer).len(), 3);
}

#[test]
fn bad_rule_settings_are_refused() {
    let lib = library(None, &words_library());
    lib.run(&["related", "walrus nebula", "--min-weight", "30"])
        .fails_with("--min-weight must be from 0 to 20, got 30");
    lib.run(&["related", "walrus nebula", "--min-joint-weight", "1.5"])
        .fails_with("--min-joint-weight must be from 0 to 1, got 1.5");
    lib.run(&["related", "walrus nebula", "--min-weight", "nan"])
        .fails_with("--min-weight must be from 0 to 20, got NaN");
    let out = lib.run(&["related", "walrus nebula", "--rule", "loose"]);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("invalid value 'loose'"),
        "{}",
        out.stderr
    );
    std::fs::write(lib.path("bad.toml"), "[related]\nrule = \"loose\"\n").unwrap();
    lib.run(&[
        "--config",
        lib.path("bad.toml").to_str().unwrap(),
        "related",
        "walrus nebula",
    ])
    .fails_with("unknown variant `loose`, expected `idf` or `jezero`");
}
