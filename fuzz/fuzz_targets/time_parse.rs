//! Whatever parses as a time normalises to a form that parses back to the same second,
//! `recall_time` gives that same normal form, and the Unix seconds agree to the
//! precision of an f64.
#![no_main]
use libfuzzer_sys::fuzz_target;
use recall_core::functions::{call, Host};
use recall_core::time::{normalize, parse_datetime, parse_unix_seconds, unix_seconds};
use recall_core::{Output, Value};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Some(dt) = parse_datetime(&text) {
        let normal = normalize(&dt);
        let again = parse_datetime(&normal).unwrap_or_else(|| panic!("{normal:?} does not parse"));
        assert_eq!(again.timestamp(), dt.timestamp());
        let secs = parse_unix_seconds(&text).expect("parses as seconds too");
        assert!((secs - unix_seconds(&dt)).abs() < 1e-3);
        let via_sql = call("recall_time", &[Value::Text(text.clone())], &Host::default());
        if (1..=9999).contains(&chrono::Datelike::year(&dt)) {
            assert_eq!(via_sql, Ok(Output::Text(normal)));
        }
    }
});
