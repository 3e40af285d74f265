//! The fuzz targets' properties as proptest properties in the normal test suite: match
//! construction, prompt terms and overlap, time parsing, and MATCH never failing.
use proptest::prelude::*;
use recall_core::fold::fold;
use recall_core::prompt::{overlap, prompt_terms};
use recall_core::query::{build_match, match_terms, MAX_TERMS};
use recall_core::stopwords::is_stopword;
use recall_core::time::{normalize, parse_datetime};

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
            prop_assert!(t.chars().count() >= 3 && t.chars().all(char::is_alphanumeric));
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
                recall_cli::functions::register(&conn).unwrap();
                conn.execute_batch(
                    "create virtual table tri using fts5(body, tokenize = 'trigram remove_diacritics 1');
                     create virtual table uni using fts5(body, tokenize = 'unicode61 remove_diacritics 2');
                     insert into tri(body) values ('the consent banner'), ('NEAR(a b) x* \"y\"'), ('東京 é');
                     insert into uni(body) select body from tri;",
                ).unwrap();
                conn
            };
        }
        CONN.with(|conn| {
            for table in ["tri", "uni"] {
                let sql = format!("select count(*) from {table} where {table} match recall_match(?1, ?2, 1)");
                let spec = if table == "tri" { "trigram" } else { "unicode61" };
                let r: rusqlite::Result<i64> = conn.query_row(&sql, [&text, spec], |r| r.get(0));
                assert!(r.is_ok(), "{table}: {r:?} for {text:?}");
            }
        });
    }
}
