//! Whatever parses as a time normalises to a form that parses back to the same second.
#![no_main]
use libfuzzer_sys::fuzz_target;
use recall_core::time::{normalize, parse_datetime, parse_unix_seconds};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Some(dt) = parse_datetime(&text) {
        let normal = normalize(&dt);
        let again = parse_datetime(&normal).unwrap_or_else(|| panic!("{normal:?} does not parse"));
        assert_eq!(again.timestamp(), dt.timestamp());
        assert_eq!(parse_unix_seconds(&text).map(|s| s.floor() as i64), Some(dt.timestamp()));
    }
});
