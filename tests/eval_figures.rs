//! The figures the README and docs/evaluation.md publish for the bundled labeled sets,
//! made again by `recall eval` on a library of each set's items and looked for in the
//! docs' text, row by row and sentence by sentence: a figure the build no longer gives
//! fails here, with the line as measured. (The README's figures for the example embedder
//! are checked where it is installed, by tests/packages/test_vectors.py; LoCoMo's need its
//! dataset, which the project does not ship; the tables of earlier choices record what
//! was measured then: docs/evaluation.md#where-the-figures-come-from.)

use crate::common::cli::TempLib;
use crate::common::root;
use serde_json::Value;

const README: &str = "README.md";
const EVALUATION: &str = "docs/evaluation.md";
const TOKENIZER: &str = "docs/tokenizer.md";

/// A library of one bundled items file, under a tokenizer (None: the default).
fn library(items: &str, tokenizer: Option<&str>) -> TempLib {
    let lib = TempLib::init(tokenizer);
    let file = root().join("examples").join(items);
    lib.run(&["import", file.to_str().unwrap()]).ok();
    lib
}

fn cases(name: &str) -> String {
    root()
        .join("examples")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// `recall --json eval CASES ARGS…`: its columns.
fn eval(lib: &TempLib, cases_file: &str, args: &[&str]) -> Vec<Value> {
    let file = cases(cases_file);
    let mut all = vec!["eval", file.as_str()];
    all.extend(args);
    let out = lib.json(&all);
    out["variants"].as_array().unwrap().clone()
}

/// A figure as the docs print it: three decimals, `-` for none.
fn f3(v: &Value) -> String {
    v.as_f64().map_or("-".to_string(), |x| format!("{x:.3}"))
}

/// The same without the leading zero (`.779`), as the docs' compact cells have it.
fn short(v: &Value) -> String {
    let s = f3(v);
    s.strip_prefix('0').map(str::to_string).unwrap_or(s)
}

/// A summary's Recall@1 / Recall@5 / Recall@10 / MRR, compact.
fn four(s: &Value) -> String {
    ["recall_at_1", "recall_at_5", "recall_at_10", "mrr"]
        .iter()
        .map(|k| short(&s[k]))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// What a file must say, collected so that one run names every figure that drifted.
#[derive(Default)]
struct Published(Vec<(&'static str, String)>);

impl Published {
    fn says(&mut self, file: &'static str, text: String) {
        self.0.push((file, text));
    }

    fn check(self) {
        let missing: Vec<String> = self
            .0
            .iter()
            .filter(|(file, text)| {
                let doc = std::fs::read_to_string(root().join(file)).unwrap();
                // The docs wrap lines: a sentence is compared with its spaces folded.
                let fold = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
                !fold(&doc).contains(&fold(text))
            })
            .map(|(file, text)| format!("{file} lacks, as measured: {text}"))
            .collect();
        assert!(missing.is_empty(), "\n{}", missing.join("\n"));
    }
}

#[test]
fn the_bundled_sets_figures_are_what_eval_measures() {
    let sample = library("sample.jsonl", None);
    let mut p = Published::default();
    let v = &eval(&sample, "sample_cases.jsonl", &[])[0];
    let row = |label: &str, s: &Value| {
        // Over the cases that expect ids: none, no figure (as the text report prints).
        let expecting = |k: &str| match s["expecting"].as_u64() {
            Some(0) => "-".to_string(),
            _ => f3(&s[k]),
        };
        let cells = [
            s["cases"].to_string(),
            expecting("recall_at_1"),
            expecting("recall_at_10"),
            expecting("mrr"),
            f3(&s["precision"]),
            f3(&s["answered_share"]),
            f3(&s["empty_share"]),
        ];
        format!("| {label} | {} |", cells.join(" | "))
    };
    p.says(EVALUATION, row("all", &v["summary"]));
    for tag in [
        "error-string",
        "fragment",
        "accent",
        "spanish",
        "reversal",
        "later",
        "related",
        "filter",
        "expected-miss",
    ] {
        p.says(EVALUATION, row(tag, &v["per_tag"][tag]));
    }
    for tag in ["earlier-work", "nothing"] {
        let label = format!("first-prompt: {tag}");
        p.says(EVALUATION, row(&label, &v["per_tag"][tag]));
    }
    p.says(
        EVALUATION,
        format!(
            "holds {} cases on the sample library",
            v["summary"]["cases"]
        ),
    );
    // The README's literal side of the vectors' comparison.
    let s = &v["summary"];
    p.says(
        README,
        format!(
            "Recall@10 goes from {} to 0.988 and MRR from {} to 0.932",
            f3(&s["recall_at_10"]),
            f3(&s["mrr"])
        ),
    );

    // Recency weights side by side.
    let weights = eval(
        &sample,
        "sample_cases.jsonl",
        &["--set", "search.recency_weight=0,0.1,0.3,0.5"],
    );
    let at = |i: usize, k: &str| f3(&weights[i]["summary"][k]);
    let reversal = |i: usize| f3(&weights[i]["per_tag"]["reversal"]["recall_at_1"]);
    for i in 1..3 {
        assert_eq!(reversal(i), reversal(0), "the reversals up to 0.3");
    }
    p.says(
        EVALUATION,
        format!(
            "(Recall@1 {}, {}, {}, {}; the reversals' Recall@1 {} at every weight up to 0.3 and {} at 0.5)",
            at(0, "recall_at_1"),
            at(1, "recall_at_1"),
            at(2, "recall_at_1"),
            at(3, "recall_at_1"),
            reversal(0),
            reversal(3)
        ),
    );

    // The paraphrase set, on the same library.
    let para = &eval(&sample, "paraphrase_cases.jsonl", &[])[0];
    let ps = &para["summary"];
    let kinds = [
        "other-language",
        "synonym",
        "question",
        "abbreviation",
        "symptom",
    ]
    .iter()
    .map(|k| format!("{k} {}", f3(&para["per_tag"][k]["recall_at_10"])))
    .collect::<Vec<_>>()
    .join(", ");
    p.says(
        EVALUATION,
        format!(
            "with the defaults it finds Recall@1 {}, Recall@5 {}, Recall@10 {}, MRR {} (Recall@10 per kind: {kinds})",
            f3(&ps["recall_at_1"]),
            f3(&ps["recall_at_5"]),
            f3(&ps["recall_at_10"]),
            f3(&ps["mrr"])
        ),
    );
    p.says(
        EVALUATION,
        format!(
            "(../examples/paraphrase_cases.jsonl) holds {} search cases",
            ps["cases"]
        ),
    );
    for kind in [
        "synonym",
        "abbreviation",
        "other-language",
        "symptom",
        "question",
    ] {
        p.says(
            EVALUATION,
            format!("`{kind}` ({}:", para["per_tag"][kind]["cases"]),
        );
    }
    p.says(
        README,
        format!("Recall@10 goes from {} to 0.695", f3(&ps["recall_at_10"])),
    );
    p.check();
}

#[test]
fn the_first_prompts_figures_are_what_eval_measures() {
    let sample = library("sample.jsonl", None);
    let code = library("code_library.jsonl", None);
    let rows = [
        (
            "`jezero` (any two shared words)",
            "related.rule=jezero",
            "1.2",
            "0.5",
        ),
        (
            "`idf`, weight 1.0, together 0",
            "related.rule=idf",
            "1.0",
            "0",
        ),
        (
            "`idf`, weight 1.2, together 0",
            "related.rule=idf",
            "1.2",
            "0",
        ),
        (
            "`idf`, weight 0, together 0.5",
            "related.rule=idf",
            "0",
            "0.5",
        ),
        (
            "**`idf`, weight 1.2, together 0.5 (the default)**",
            "related.rule=idf",
            "1.2",
            "0.5",
        ),
        (
            "`idf`, weight 1.4, together 0.5",
            "related.rule=idf",
            "1.4",
            "0.5",
        ),
    ];
    let mut p = Published::default();
    let mut results = Vec::new();
    for (label, rule, weight, together) in rows {
        let weight = format!("related.min_weight={weight}");
        let together = format!("related.min_joint_weight={together}");
        let args = ["--set", rule, "--set", &weight, "--set", &together];
        let cells = |v: &Value| {
            let t = &v["per_tag"];
            [
                f3(&t["first-prompt"]["answered_share"]),
                f3(&t["earlier-work"]["precision"]),
                f3(&t["earlier-work"]["recall_at_10"]),
                f3(&t["nothing"]["empty_share"]),
            ]
            .join(" | ")
        };
        let on_sample = &eval(&sample, "sample_cases.jsonl", &args)[0];
        let on_code = &eval(&code, "code_first_prompts.jsonl", &args)[0];
        p.says(
            EVALUATION,
            format!("| {label} | {} | {} |", cells(on_sample), cells(on_code)),
        );
        results.push(on_sample.clone());
    }
    // The prose around the table: what Jezero's rule and the default show beyond the
    // expected items, and how often they speak when they should not.
    let t = |v: &Value, tag: &str, k: &str| v["per_tag"][tag][k].clone();
    let unwanted = |v: &Value| {
        let shown = t(v, "earlier-work", "shown").as_f64().unwrap();
        let precision = t(v, "earlier-work", "precision").as_f64().unwrap();
        (shown - (shown * precision).round(), shown)
    };
    let spoke = |v: &Value| {
        let n = t(v, "nothing", "expect_nothing_cases").as_f64().unwrap();
        n - (n * t(v, "nothing", "empty_share").as_f64().unwrap()).round()
    };
    let (jezero, default) = (&results[0], &results[4]);
    let (extra, shown) = unwanted(jezero);
    p.says(
        EVALUATION,
        format!(
            "Jezero's rule speaks on {} of the 25 prompts that should get nothing",
            spoke(jezero)
        ),
    );
    p.says(
        EVALUATION,
        format!("adds {extra} unwanted items to the {shown} it shows for earlier work"),
    );
    p.says(
        EVALUATION,
        format!(
            "The {} unwanted items left beside the expected ones",
            unwanted(default).0
        ),
    );
    // Word tokenizers: the default's shares as on trigram, its precision; Jezero's on
    // trigram beside it.
    let mut precision = Vec::new();
    for tokenizer in [
        "unicode61 remove_diacritics 2",
        "porter unicode61 remove_diacritics 2",
    ] {
        let words = library("sample.jsonl", Some(tokenizer));
        let v = &eval(&words, "sample_cases.jsonl", &[])[0];
        for (tag, k) in [
            ("first-prompt", "answered_share"),
            ("earlier-work", "recall_at_10"),
            ("nothing", "empty_share"),
        ] {
            assert_eq!(t(v, tag, k), t(default, tag, k), "{tokenizer}: {tag} {k}");
        }
        precision.push(f3(&t(v, "earlier-work", "precision")));
    }
    assert_eq!(precision[0], precision[1], "unicode61 and porter");
    p.says(
        EVALUATION,
        format!(
            "precision {} (Jezero's {})",
            precision[0],
            f3(&t(jezero, "earlier-work", "precision"))
        ),
    );
    p.check();
}

#[test]
fn the_code_sets_figures_are_what_eval_measures() {
    let tokenizers = [
        "trigram remove_diacritics 1",
        "unicode61 remove_diacritics 2",
        "porter unicode61 remove_diacritics 2",
    ];
    let columns: Vec<Value> = tokenizers
        .iter()
        .map(|t| {
            eval(
                &library("code_library.jsonl", Some(t)),
                "code_cases.jsonl",
                &[],
            )[0]
            .clone()
        })
        .collect();
    let mut p = Published::default();
    for (name, key) in [
        ("Recall@1", "recall_at_1"),
        ("Recall@10", "recall_at_10"),
        ("MRR", "mrr"),
        ("nDCG@10", "ndcg_at_10"),
    ] {
        let cells: Vec<String> = columns.iter().map(|c| f3(&c["summary"][key])).collect();
        p.says(EVALUATION, format!("| {name} | {} |", cells.join(" | ")));
    }
    for tag in [
        "identifier",
        "path",
        "error-code",
        "plural",
        "accent",
        "spanish",
        "chinese",
        "japanese",
        "fragment",
        "expected-miss",
    ] {
        let cells: Vec<String> = columns
            .iter()
            .map(|c| f3(&c["per_tag"][tag]["recall_at_10"]))
            .collect();
        p.says(
            EVALUATION,
            format!(
                "| {tag} ({}) | {} |",
                columns[0]["per_tag"][tag]["cases"],
                cells.join(" | ")
            ),
        );
    }
    p.says(
        EVALUATION,
        format!(
            "(../examples/code_cases.jsonl) holds {} cases on",
            columns[0]["summary"]["cases"]
        ),
    );
    // The README's figure for the recall tokenizer.
    let words = &eval(
        &library("code_library.jsonl", Some("recall")),
        "code_cases.jsonl",
        &[],
    )[0];
    p.says(
        README,
        format!(
            "Recall@10 {} → {} on the bundled code cases",
            f3(&columns[0]["summary"]["recall_at_10"]),
            f3(&words["summary"]["recall_at_10"])
        ),
    );
    p.check();
}

/// Recency at 0.3 against the default 0.1, literal search, in docs/evaluation.md#recency.
#[test]
fn the_recency_figures_are_what_eval_measures() {
    let sample = library("sample.jsonl", None);
    let code = library("code_library.jsonl", None);
    let set = ["--set", "search.recency_weight=0.3,0.1"];
    let mut p = Published::default();
    for (label, lib, file) in [
        ("bundled", &sample, "sample_cases.jsonl"),
        ("paraphrase", &sample, "paraphrase_cases.jsonl"),
        ("code and languages", &code, "code_cases.jsonl"),
    ] {
        let v = eval(lib, file, &set);
        let (before, after) = (four(&v[0]["summary"]), four(&v[1]["summary"]));
        let cell = if before == after {
            format!("equal ({after})")
        } else {
            format!("{before} → {after}")
        };
        p.says(EVALUATION, format!("| {label} | {cell} |"));
    }
    p.check();
}

/// The context stage on sets whose notes are hours apart: no figure moves
/// (docs/evaluation.md#context-from-neighbours).
#[test]
fn the_context_stage_figures_are_what_eval_measures() {
    let sample = library("sample.jsonl", None);
    let code = library("code_library.jsonl", None);
    let long = |s: &Value| {
        ["recall_at_1", "recall_at_5", "recall_at_10", "mrr"]
            .iter()
            .map(|k| f3(&s[k]))
            .collect::<Vec<_>>()
            .join(" / ")
    };
    let mut stay = Vec::new();
    for (lib, file) in [(&sample, "sample_cases.jsonl"), (&code, "code_cases.jsonl")] {
        let v = eval(lib, file, &["--set", "search.context_weight=0,0.3,0.5"]);
        for c in &v[1..] {
            assert_eq!(long(&c["summary"]), long(&v[0]["summary"]), "{file}");
        }
        stay.push(long(&v[0]["summary"]));
    }
    let gaps = eval(
        &sample,
        "sample_cases.jsonl",
        &[
            "--set",
            "search.context_weight=0,0.3",
            "--set",
            "search.context_gap_minutes=30,100000",
        ],
    );
    // Columns: weight 0 (both gaps), then weight 0.3 at 30 and at 100,000 minutes.
    assert_eq!(gaps[0]["summary"]["shown"], gaps[2]["summary"]["shown"]);
    let mut p = Published::default();
    p.says(
        EVALUATION,
        format!("Recall@1/5/10 and MRR stay {} and {}", stay[0], stay[1]),
    );
    p.says(
        EVALUATION,
        format!(
            "({} items shown, as without context)",
            gaps[2]["summary"]["shown"]
        ),
    );
    p.says(
        EVALUATION,
        format!(
            "({} shown, precision {} → {})",
            gaps[3]["summary"]["shown"],
            f3(&gaps[2]["summary"]["precision"]),
            f3(&gaps[3]["summary"]["precision"])
        ),
    );
    p.check();
}

/// docs/tokenizer.md#measured: each tokenizer on the code set and the sample, the best
/// of each row in bold.
#[test]
fn the_tokenizers_figures_are_what_eval_measures() {
    let tokenizers = [
        "trigram remove_diacritics 1",
        "unicode61 remove_diacritics 2",
        "porter unicode61 remove_diacritics 2",
        "recall",
    ];
    let mut p = Published::default();
    for (items, file) in [
        ("code_library.jsonl", "code_cases.jsonl"),
        ("sample.jsonl", "sample_cases.jsonl"),
    ] {
        let columns: Vec<Value> = tokenizers
            .iter()
            .map(|t| eval(&library(items, Some(t)), file, &[])[0]["summary"].clone())
            .collect();
        for (name, key) in [
            ("Recall@1", "recall_at_1"),
            ("Recall@10", "recall_at_10"),
            ("MRR", "mrr"),
        ] {
            let cells: Vec<String> = columns.iter().map(|c| f3(&c[key])).collect();
            let best = cells.iter().max().unwrap().clone();
            let cells: Vec<String> = cells
                .into_iter()
                .map(|c| if c == best { format!("**{c}**") } else { c })
                .collect();
            p.says(TOKENIZER, format!("| {name} | {} |", cells.join(" | ")));
        }
    }
    p.check();
}
