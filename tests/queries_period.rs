//! A period the query names ("in August 2023") weighs the items dated in it: their
//! relevance counts 1 + `period_weight` times (docs/queries.md#a-period-in-the-query).
//! Each expected relevance is the same search's with the weight at 0, times the factor.

use crate::common::cli::{ids, titled, TempLib};

fn library() -> TempLib {
    TempLib::with_items(
        None,
        &[
            titled("quarterly budget review")
                .at("2023-07-10T09:00:00Z")
                .line(),
            titled("quarterly budget review")
                .at("2023-08-14T09:00:00Z")
                .line(),
            titled("quarterly budget review")
                .at("2023-09-20T09:00:00Z")
                .line(),
            // Dated in August but sharing no word: a period reorders, it brings in nothing.
            titled("lunch menu").at("2023-08-15T12:00:00Z").line(),
        ],
    )
}

/// (id, relevance) of a search with recency and context off, so that relevance alone
/// orders the answer.
fn relevance(lib: &TempLib, query: &str, period_weight: &str) -> Vec<(i64, f64)> {
    let answer = lib.json(&[
        "search",
        query,
        "--weight",
        "0",
        "--context-weight",
        "0",
        "--period-weight",
        period_weight,
    ]);
    let relevance = answer["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["relevance"].as_f64().expect("relevance"));
    ids(&answer).into_iter().zip(relevance).collect()
}

fn of(rows: &[(i64, f64)], id: i64) -> f64 {
    rows.iter()
        .find(|(i, _)| *i == id)
        .map(|(_, r)| *r)
        .unwrap_or_else(|| panic!("item {id} not in {rows:?}"))
}

#[test]
fn items_dated_in_the_named_period_count_more() {
    let lib = library();
    let query = "budget review in August 2023";
    let plain = relevance(&lib, query, "0");
    // Equal titles, equal relevance: the newest first, and the August item in the middle.
    assert_eq!(plain.iter().map(|r| r.0).collect::<Vec<_>>(), vec![3, 2, 1]);
    for (weight, factor) in [("1", 2.0), ("2.5", 3.5)] {
        let weighed = relevance(&lib, query, weight);
        assert_eq!(
            weighed.iter().map(|r| r.0).collect::<Vec<_>>(),
            vec![2, 3, 1],
            "weight {weight}"
        );
        assert!((of(&weighed, 2) - factor * of(&plain, 2)).abs() < 1e-9);
        for id in [1, 3] {
            assert!((of(&weighed, id) - of(&plain, id)).abs() < 1e-9);
        }
    }
    // The default weight is 1: the August item first.
    let answer = lib.json(&["search", query, "--context-weight", "0"]);
    assert_eq!(ids(&answer)[0], 2);
    assert_eq!(answer["settings"]["period_weight"], 1.0);
    // --explain shows the period read and its weight; none for a query without a date.
    let explained = lib.json(&["search", query, "--explain"]);
    assert_eq!(
        explained["explain"]["period"],
        serde_json::json!({"since": "2023-08-01T00:00:00Z", "until": "2023-09-01T00:00:00Z",
                           "weight": 1.0})
    );
    let plain = lib.json(&["search", "budget review", "--explain"]);
    assert!(plain["explain"]["period"].is_null());
}

#[test]
fn each_way_of_writing_the_date_names_the_period() {
    let lib = library();
    for query in [
        "budget review on August 14, 2023",
        "budget review on 14 Aug 2023",
        "budget review 2023-08-14",
        "budget review 2023-08",
        "budget review between August 1 and August 20, 2023",
    ] {
        assert_eq!(
            ids(&lib.json(&["search", query, "--weight", "0", "--context-weight", "0"])),
            vec![2, 3, 1],
            "{query}"
        );
    }
    // A bare year after "in" is the whole year: all three alike, the newest first.
    // A month without its year, or a number that is no year, names no period.
    for query in [
        "budget review in 2023",
        "budget review in August",
        "budget review 2023 edition",
    ] {
        let rows = relevance(&lib, query, "1");
        assert_eq!(
            rows.iter().map(|r| r.0).collect::<Vec<_>>(),
            vec![3, 2, 1],
            "{query}"
        );
        assert!((of(&rows, 1) - of(&rows, 2)).abs() < 1e-9, "{query}");
    }
}

#[test]
fn a_period_weight_out_of_range_is_refused() {
    let lib = library();
    for bad in ["-1", "10.5", "nan"] {
        lib.run(&[
            "search",
            "budget in August 2023",
            &format!("--period-weight={bad}"),
        ])
        .fails_with("--period-weight");
    }
    lib.run(&["search", "budget", "--period-weight", "10"]).ok();
}
