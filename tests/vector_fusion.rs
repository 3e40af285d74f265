//! The convex fusion on a library whose vectors are chosen here: items arrive with ready
//! vectors (`embedding`), placed at known similarities to the fake embedder's vector of
//! the query, so that every fused score can be written down by hand (docs/vectors.md):
//! a near item found by its vector alone joins, a far one does not, `rrf` by name lets
//! both in, and an unknown fusion is refused with one line.

use std::process::Command;

use serde_json::{json, Value};

use crate::common::cli::{Ran, TempLib};
use crate::common::vectors::{fake, fake_script};
use crate::common::{pipe, SYSTEM_PYTHON};

const NOW: &str = "2026-01-01T00:00:00Z";
const QUERY: &str = "zebra";

/// The fake embedder's vector of `text`, asked directly.
fn fake_vector(text: &str) -> Vec<f64> {
    let request = json!({"id": 1, "texts": [text]}).to_string() + "\n";
    let out = pipe(Command::new(SYSTEM_PYTHON).arg(fake_script()), &request);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    answer["vectors"][0]
        .as_array()
        .expect("a vector")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

/// A vector at cosine similarity `c` to the query's (a one-hot vector for one word): `c`
/// on the query's axis, the rest on another.
fn at_similarity(query: &[f64], c: f64) -> Vec<f64> {
    let axis = query
        .iter()
        .position(|x| *x > 0.0)
        .expect("the query's axis");
    let other = (axis + 1) % query.len();
    let mut v = vec![0.0; query.len()];
    v[axis] = c;
    v[other] = (1.0 - c * c).sqrt();
    v
}

/// (title, similarity to the query, date): two items the words find, and four only
/// their vectors can: the nearest (1.0), a near one (0.6), a far one (-0.6) and the
/// farthest (-1.0, the vector list's last).
const ITEMS: [(&str, f64, &str); 6] = [
    ("zebra sighting at the lake", 0.0, "2025-06-01T00:00:00Z"),
    (
        "notes on the zebra crossing by the school and its zebra paint",
        0.3,
        "2025-06-02T00:00:00Z",
    ),
    (
        "striped horse grazing in the savanna",
        1.0,
        "2025-06-03T00:00:00Z",
    ),
    ("wild animals of the plains", 0.6, "2025-06-04T00:00:00Z"),
    ("quarterly tax filing", -0.6, "2025-06-05T00:00:00Z"),
    ("printer toner order", -1.0, "2025-06-06T00:00:00Z"),
];

fn library() -> TempLib {
    let lib = TempLib::init(None);
    let query = fake_vector(QUERY);
    lib.json(&[
        "embed",
        "--model",
        "fake-bow",
        "--dimensions",
        &query.len().to_string(),
    ]);
    let lines: Vec<String> = ITEMS
        .iter()
        .map(|(title, c, date)| {
            json!({"source": "notes", "title": title, "occurred_at": date,
                   "embedding": at_similarity(&query, *c)})
            .to_string()
        })
        .collect();
    lib.import(&lines.join("\n")).ok();
    lib
}

/// The query at recency weight 0, with `extra` flags.
fn search_with(lib: &TempLib, extra: &[&str]) -> Value {
    let mut args = vec!["search", QUERY, "--weight", "0", "--now", NOW];
    args.extend(extra);
    lib.json(&args)
}

/// The hybrid search: the query with the fake embedder.
fn search(lib: &TempLib, extra: &[&str]) -> Value {
    let embed = fake("");
    let mut args = vec!["--embed-cmd", embed.as_str()];
    args.extend(extra);
    search_with(lib, &args)
}

fn titles(answer: &Value) -> Vec<String> {
    answer["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["title"].as_str().expect("title").to_string())
        .collect()
}

fn close(got: &Value, want: f64, what: &str) {
    let got = got.as_f64().unwrap_or_else(|| panic!("{what}: {got}"));
    assert!((got - want).abs() < 1e-6, "{what}: {got}, want {want}");
}

#[test]
fn a_near_item_joins_by_its_vector_and_a_far_one_does_not() {
    let lib = library();
    let literal = search_with(&lib, &["--no-vectors"]);
    let scores: Vec<f64> = literal["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["score"].as_f64().expect("score"))
        .collect();
    // The literal list: the two zebra items, the shorter one first.
    let (first, second) = (ITEMS[0], ITEMS[1]);
    assert_eq!(titles(&literal), [first.0, second.0], "the literal list");
    let share_of_best = scores[1] / scores[0];
    assert!(share_of_best > 0.0 && share_of_best < 1.0, "{scores:?}");

    let hybrid = search(&lib, &["--explain"]);
    assert_eq!(hybrid["explain"]["vectors"]["fusion"], "convex");
    // The vector list spans similarities -1 (least) to 1 (best): an item's place in it is
    // (s + 1) / 2, and the floor for joining alone is -1 + 0.25 * 2 = -0.5. The two lists
    // share both literal items among their first ten: agreement 2/10, so the literal
    // items' vector share is 0.4 * 0.2 = 0.08; an item of the vector list alone has 0.4.
    // Similarity 0 is at 0.5 of the span, 0.3 at 0.65.
    let mut want = [
        (first.0, 0.92 * 1.0 + 0.08 * 0.5, "terms"),
        (second.0, 0.92 * share_of_best + 0.08 * 0.65, "terms"),
        (ITEMS[2].0, 0.4 * 1.0, "vector"),
        (ITEMS[3].0, 0.4 * 0.8, "vector"),
    ];
    want.sort_by(|a, b| b.1.total_cmp(&a.1));
    assert_eq!(
        titles(&hybrid),
        want.iter().map(|w| w.0).collect::<Vec<_>>(),
        "the far items (-0.6 and -1.0, under the floor of -0.5) are left out"
    );
    for (row, (title, fused, by)) in hybrid["results"].as_array().unwrap().iter().zip(want) {
        close(&row["fused"], fused, title);
        close(&row["score"], fused, title);
        assert_eq!(row["matched_by"], by, "{title}");
    }

    // rrf by name: no floor, every item of both lists, by 1 / (61..) and 0.9 / (61..).
    let rrf = search(&lib, &["--fusion", "rrf", "--explain"]);
    assert_eq!(rrf["explain"]["vectors"]["fusion"], "rrf");
    let got = titles(&rrf);
    assert_eq!(got.len(), ITEMS.len(), "{got:?}");
    for (title, c, _) in &ITEMS[4..] {
        let row = &rrf["results"][got.iter().position(|t| t == title).expect("joined")];
        // Vector ranks by similarity: -0.6 is 5th, -1.0 6th.
        let rank = if *c > -1.0 { 5.0 } else { 6.0 };
        close(&row["fused"], 0.9 / (60.0 + rank), title);
    }
}

/// One `recall: …` line and a failure.
fn one_line(r: &Ran) -> String {
    assert_ne!(r.code, 0, "expected failure: {}", r.stdout);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{:?}", r.stderr);
    lines[0].to_string()
}

#[test]
fn an_unknown_fusion_is_refused_with_one_line() {
    let lib = library();
    let cfg = lib.path("bad.toml");
    std::fs::write(&cfg, "[vectors]\nfusion = \"borda\"\n").expect("config");
    let cfg = cfg.to_string_lossy().into_owned();
    let embed = fake("");
    let cases = lib.path("cases.jsonl");
    std::fs::write(
        &cases,
        "{\"id\": \"z\", \"query\": \"zebra\", \"expect\": [1]}\n",
    )
    .expect("cases");
    let cases = cases.to_string_lossy().into_owned();
    let runs = [
        lib.run(&["--config", &cfg, "search", QUERY, "--embed-cmd", &embed]),
        lib.run(&["search", QUERY, "--fusion", "borda", "--embed-cmd", &embed]),
        lib.run(&[
            "eval",
            &cases,
            "--embed-cmd",
            &embed,
            "--set",
            "vectors.fusion=rrf,borda",
        ]),
    ];
    for r in &runs {
        let line = one_line(r);
        assert!(
            line.contains("borda") && line.contains("convex") && line.contains("rrf"),
            "{line}"
        );
    }
}
