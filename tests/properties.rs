//! The fuzz targets' properties as proptest properties in the normal test suite: match
//! construction, prompt terms and overlap, time parsing, the time storage rule on every
//! route, and MATCH never failing.
use proptest::prelude::*;
use recall_core::fold::{fold, is_word_char};
use recall_core::fts_match::{build_match, match_terms, MAX_TERMS};
use recall_core::prompt::{overlap, prompt_terms};
use recall_core::stopwords::is_stopword;
use recall_core::time::{
    normalize, parse_datetime, to_storable, TimeValue, MAX_UNIX_SECONDS, MIN_UNIX_SECONDS,
};

/// Text built from pieces that matter to FTS5 and to the splitter, mixed with anything.
fn nasty() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("\"".to_string()),
        Just(" ".to_string()),
        Just("NEAR(".to_string()),
        Just(" OR ".to_string()),
        Just("AND".to_string()),
        Just("*".to_string()),
        Just(":".to_string()),
        Just("^".to_string()),
        Just("-".to_string()),
        Just("{body}".to_string()),
        Just("\0".to_string()),
        Just("\u{a0}".to_string()),
        Just("é".to_string()),
        Just("東京".to_string()),
        Just("the".to_string()),
        "[a-z]{1,6}",
        any::<char>().prop_map(|c| c.to_string()),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn match_terms_are_bounded_and_quoted(text in nasty(), min in 0usize..5, drop in any::<bool>()) {
        let terms = match_terms(&text, min, drop);
        prop_assert!(terms.len() <= MAX_TERMS);
        for t in &terms {
            prop_assert!(t.chars().count() >= min.max(1));
            prop_assert!(!t.contains('\0'));
        }
        let m = build_match(&text, min, drop);
        if terms.is_empty() {
            prop_assert_eq!(m, "\"\"");
        } else {
            // Every term is one FTS5 string: removing doubled quotes leaves 2 per term.
            prop_assert_eq!(m.replace("\"\"", "").matches('"').count(), 2 * terms.len());
            prop_assert_eq!(m.matches("\" OR \"").count() >= terms.len() - 1, true);
        }
        // Case-insensitively unique.
        let lower: std::collections::HashSet<String> = terms.iter().map(|t| t.to_lowercase()).collect();
        prop_assert_eq!(lower.len(), terms.len());
    }

    #[test]
    fn prompt_terms_are_distinctive_words(text in nasty(), max in 0usize..25) {
        let terms = prompt_terms(&text, max);
        prop_assert!(terms.len() <= max);
        for t in &terms {
            prop_assert_eq!(&fold(t), t);
            prop_assert!(t.chars().count() >= 3 && t.chars().all(is_word_char));
            prop_assert!(!is_stopword(t));
        }
        let all = prompt_terms(&text, 20);
        prop_assert_eq!(overlap(&text, &text, ""), all.len());
        prop_assert!(overlap(&text, "", "") == 0);
    }

    #[test]
    fn parsed_times_normalise_and_parse_back(text in "[0-9 :TZ+.-]{0,30}|\\PC{0,30}") {
        if let Some(dt) = parse_datetime(&text) {
            let again = parse_datetime(&normalize(&dt)).expect("the normal form parses");
            prop_assert_eq!(again.timestamp(), dt.timestamp());
        }
    }

    #[test]
    fn generated_datetimes_parse_in_every_listed_form(
        y in 1000i32..9999, mo in 1u32..13, d in 1u32..29, h in 0u32..24, mi in 0u32..60, s in 0u32..60,
        off_h in -12i32..15,
    ) {
        let utc = format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z");
        let expected = parse_datetime(&utc).expect("valid").timestamp();
        prop_assert_eq!(parse_datetime(&utc.replace('T', " ")).unwrap().timestamp(), expected);
        prop_assert_eq!(parse_datetime(&utc.replace('Z', "")).unwrap().timestamp(), expected);
        // The same instant written in another offset.
        let shifted = chrono::DateTime::from_timestamp(expected + i64::from(off_h) * 3600, 0).unwrap();
        let sign = if off_h < 0 { '-' } else { '+' };
        let local = format!("{}{sign}{:02}:00", shifted.format("%Y-%m-%dT%H:%M:%S"), off_h.abs());
        prop_assert_eq!(parse_datetime(&local).unwrap().timestamp(), expected);
        let compact = format!("{}{sign}{:02}00", shifted.format("%Y-%m-%dT%H:%M:%S"), off_h.abs());
        prop_assert_eq!(parse_datetime(&compact).unwrap().timestamp(), expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn match_never_fails_in_fts5(text in nasty()) {
        thread_local! {
            static CONN: rusqlite::Connection = {
                let conn = rusqlite::Connection::open_in_memory().unwrap();
                sqlite_recall_rusqlite::register(&conn).unwrap();
                conn
            };
            static TABLES: Vec<(String, String)> =
                CONN.with(crate::common::adversarial_fts_tables);
        }
        CONN.with(|conn| TABLES.with(|tables| {
            for (table, spec) in tables {
                let sql = format!("select count(*) from {table} where {table} match recall_match(?1, ?2, 1)");
                let r: rusqlite::Result<i64> = conn.query_row(&sql, [&text, spec], |r| r.get(0));
                assert!(r.is_ok(), "{table}: {r:?} for {text:?}");
            }
        }));
    }
}

/// Unix seconds near every edge that matters: the stored range's ends, zero, and
/// fractions just off a whole second; plus any f64 at all.
fn seconds() -> impl Strategy<Value = f64> {
    let (min, max) = (MIN_UNIX_SECONDS as f64, MAX_UNIX_SECONDS as f64);
    prop_oneof![
        Just(-1e-17),
        Just(1e-17),
        Just(59.9999999999),
        Just(-0.5),
        Just(min),
        Just(min - 0.5),
        Just(max + 0.999),
        Just(max + 1.0),
        -2.0f64..2.0,
        (min - 1e3)..(min + 1e3),
        (max - 1e3)..(max + 1e3),
        min..max,
        any::<f64>(),
    ]
}

/// ISO text around the edges: years 0 and 10000, second 60, fractions, offsets.
fn iso_text() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just(0i32), Just(1), Just(9999), Just(10000), 1i32..9999],
        1u32..13,
        1u32..29,
        prop_oneof![Just(0u32), Just(23), 0u32..24],
        prop_oneof![Just(0u32), Just(59), 0u32..60],
        prop_oneof![Just(59u32), Just(60), 0u32..61],
        prop_oneof![
            Just(String::new()),
            Just(".5".to_string()),
            Just(".999999999".to_string())
        ],
        prop_oneof![
            Just("Z"),
            Just("+01:00"),
            Just("-02:00"),
            Just("+0530"),
            Just("")
        ],
    )
        .prop_map(|(y, mo, d, h, mi, s, frac, off)| {
            let year = if y > 9999 {
                format!("+{y}")
            } else {
                format!("{y:04}")
            };
            format!("{year}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}{frac}{off}")
        })
}

fn time_value() -> impl Strategy<Value = (Option<String>, Option<f64>, Option<i64>)> {
    prop_oneof![
        iso_text().prop_map(|t| (Some(t), None, None)),
        seconds().prop_map(|x| (None, Some(x), None)),
        prop_oneof![any::<i64>(), (MIN_UNIX_SECONDS - 5)..(MAX_UNIX_SECONDS + 5)].prop_map(|n| (
            None,
            None,
            Some(n)
        )),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// One rule on every route: what the core stores, `recall_time` returns and import
    /// stores, and SQLite's date functions read it and write it back unchanged; numbers
    /// agree with SQLite's own `unixepoch` reading. What the rule refuses, every route
    /// refuses.
    #[test]
    fn every_route_stores_the_same_time_and_sqlite_reads_it(
        (text, real, int) in time_value()
    ) {
        thread_local! {
            static CONN: rusqlite::Connection = {
                let conn = rusqlite::Connection::open_in_memory().expect("in-memory database");
                sqlite_recall_rusqlite::register(&conn).expect("functions");
                conn
            };
        }
        let (value, sql_value, json) = match (&text, real, int) {
            (Some(t), _, _) => (
                TimeValue::Text(t),
                rusqlite::types::Value::Text(t.clone()),
                serde_json::json!(t),
            ),
            (_, Some(x), _) => (
                TimeValue::Real(x),
                rusqlite::types::Value::Real(x),
                serde_json::Number::from_f64(x).map_or(serde_json::Value::Null, Into::into),
            ),
            (_, _, Some(n)) => (
                TimeValue::Integer(n),
                rusqlite::types::Value::Integer(n),
                serde_json::json!(n),
            ),
            _ => unreachable!("the strategy fills one of the three"),
        };
        // The input as SQLite's date functions spell it: they know no second 60 (the rule
        // reads it as 59) and want a colon in an offset.
        let sqlite_spelling = text
            .as_deref()
            .map(|t| t.replace(":60", ":59").replace("+0530", "+05:30"));
        let stored = to_storable(value);
        let via_sql: rusqlite::Result<String> = CONN.with(|c| {
            c.query_row("select recall_time(?1)", [&sql_value], |r| r.get(0))
        });
        let item = serde_json::json!({"source": "s", "title": "t", "occurred_at": json});
        let imported = recall_cli::item::Item::from_json(&item).map(|it| it.occurred_at);
        match &stored {
            Ok(s) => {
                prop_assert_eq!(via_sql.as_ref().ok(), Some(s));
                if !json.is_null() {
                    prop_assert_eq!(imported.as_ref().ok(), Some(s));
                }
                let again = to_storable(TimeValue::Text(s));
                prop_assert_eq!(again.as_ref(), Ok(s));
                let (julian, back, oracle): (Option<f64>, Option<String>, Option<String>) =
                    CONN.with(|c| {
                        c.query_row(
                            "select julianday(?1), strftime('%Y-%m-%dT%H:%M:%SZ', ?1),
                                    case when typeof(?2) = 'text'
                                         then strftime('%Y-%m-%dT%H:%M:%SZ', ?3)
                                         else strftime('%Y-%m-%dT%H:%M:%SZ', floor(?2), 'unixepoch') end",
                            rusqlite::params![s, sql_value, sqlite_spelling],
                            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                        )
                    })
                    .expect("date functions");
                prop_assert!(julian.is_some(), "julianday({s}) is NULL");
                prop_assert_eq!(back.as_ref(), Some(s));
                // SQLite reads four-digit years only: an input of year +10000 whose offset
                // brings it back into 9999 is ours to read, and has no oracle.
                if !text.as_deref().is_some_and(|t| t.starts_with('+')) {
                    prop_assert_eq!(oracle.as_ref(), Some(s), "SQLite reads the input otherwise");
                }
            }
            Err(_) => {
                prop_assert!(via_sql.is_err(), "recall_time accepted {:?}", sql_value);
                prop_assert!(imported.is_err(), "import accepted {}", json);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5000, ..ProptestConfig::default() })]

    /// The access rule agrees with SQLite's own GLOB, on patterns made of its syntax.
    #[test]
    fn source_allowed_agrees_with_sqlite_glob(
        pattern in "[ab*?\\[\\]^!\\-é東]{0,8}",
        source in "[ab\\-!\\]^é東]{0,6}",
        other in "[ab*?\\[\\]^]{0,4}",
    ) {
        thread_local! {
            static CONN: rusqlite::Connection = {
                let conn = rusqlite::Connection::open_in_memory().expect("open");
                sqlite_recall_rusqlite::register(&conn).expect("register");
                conn
            };
        }
        CONN.with(|conn| {
            let sqlite: bool = conn
                .query_row("select ?2 glob ?1 or ?2 glob ?3", rusqlite::params![pattern, source, other], |r| r.get(0))
                .expect("glob");
            let list = serde_json::json!([pattern, other]).to_string();
            let ours: i64 = conn
                .query_row("select recall_source_allowed(?1, ?2)", rusqlite::params![source, list], |r| r.get(0))
                .expect("recall_source_allowed");
            prop_assert_eq!(ours == 1, sqlite, "pattern {:?} or {:?}, source {:?}", pattern, other, source);
            let everyone: i64 = conn
                .query_row("select recall_source_allowed(?1, NULL)", [&source], |r| r.get(0))
                .expect("NULL list");
            prop_assert_eq!(everyone, 1);
            Ok(())
        })?;
    }
}
