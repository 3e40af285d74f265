//! Reading time values: ISO-8601 / RFC 3339 text, or Unix seconds (docs/functions.md), and the one
//! rule that turns any of them into the normal form a library stores.
use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, Timelike, Utc};

use crate::shown::shown_text;

const SECONDS_PER_DAY: f64 = 86_400.0;

/// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in Unix seconds: the stored range, the
/// years SQLite's date functions read (and Python's `fromisoformat`, from year 1).
pub const MIN_UNIX_SECONDS: i64 = -62_135_596_800;
pub const MAX_UNIX_SECONDS: i64 = 253_402_300_799;

/// A time value as the routes receive it: text, or Unix seconds as an integer or a real.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimeValue<'a> {
    Text(&'a str),
    Integer(i64),
    Real(f64),
}

/// Why a value is not a storable time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeError {
    /// Not a time in any accepted form.
    Unreadable,
    /// A time outside the years 1 to 9999, with its year when the text names one.
    OutOfRange { year: Option<i32> },
}

/// The normal form `YYYY-MM-DDTHH:MM:SSZ`, read without a format interpreter: scoring
/// reads one per row, and this is most of its cost.
fn parse_normal_form(s: &str) -> Option<DateTime<Utc>> {
    let b = s.as_bytes();
    if b.len() != 20
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
        || b[19] != b'Z'
    {
        return None;
    }
    let num = |range: std::ops::Range<usize>| -> Option<u32> {
        b[range].iter().try_fold(0u32, |acc, &c| {
            c.is_ascii_digit().then(|| acc * 10 + u32::from(c - b'0'))
        })
    };
    let date = NaiveDate::from_ymd_opt(num(0..4)? as i32, num(5..7)?, num(8..10)?)?;
    Some(
        date.and_hms_opt(num(11..13)?, num(14..16)?, num(17..19)?)?
            .and_utc(),
    )
}

/// Any accepted spelling of a datetime, in UTC, whatever its year. chrono reads a leap
/// second (`:60`) as second 59 with a nanosecond field of a second or more.
fn parse_any(text: &str) -> Option<DateTime<Utc>> {
    if let Some(dt) = parse_normal_form(text) {
        return Some(dt);
    }
    let s = text.trim();
    if s.len() == 10 {
        let date = NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()?;
        return Some(date.and_hms_opt(0, 0, 0)?.and_utc());
    }
    // A space (or lowercase t) may separate date and time; a lowercase z is Zulu too.
    let mut s = s.to_string();
    if s.is_char_boundary(10) && s.is_char_boundary(11) && matches!(&s[10..11], " " | "t") {
        s.replace_range(10..11, "T");
    }
    if s.ends_with('z') {
        s.pop();
        s.push('Z');
    }
    for format in ["%Y-%m-%dT%H:%M:%S%.f%#z", "%Y-%m-%dT%H:%M%#z"] {
        if let Ok(dt) = DateTime::parse_from_str(&s, format) {
            return Some(dt.with_timezone(&Utc));
        }
    }
    for format in ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%dT%H:%M"] {
        if let Ok(dt) = NaiveDateTime::parse_from_str(&s, format) {
            return Some(dt.and_utc());
        }
    }
    None
}

/// Time text, read by the rule of [`to_storable`]: years 1 to 9999 (of the UTC instant,
/// after the offset), a leap second read as second 59.
pub fn read_text(text: &str) -> Result<DateTime<Utc>, TimeError> {
    let dt = parse_any(text).ok_or(TimeError::Unreadable)?;
    if !(1..=9999).contains(&dt.year()) {
        return Err(TimeError::OutOfRange {
            year: Some(dt.year()),
        });
    }
    // SQLite's date functions and most languages have no second 60: a leap second is read
    // as second 59 (60.5 as 59.5), which keeps text order equal to time order.
    let nanos = dt.nanosecond();
    if nanos >= 1_000_000_000 {
        return dt
            .with_nanosecond(nanos - 1_000_000_000)
            .ok_or(TimeError::Unreadable);
    }
    Ok(dt)
}

/// A datetime in text, in UTC, by [`read_text`]. Offsets are applied; no offset and bare
/// dates are UTC.
pub fn parse_datetime(text: &str) -> Option<DateTime<Utc>> {
    read_text(text).ok()
}

/// Whole Unix seconds to a datetime, within the stored range.
fn read_whole_seconds(secs: i64) -> Result<DateTime<Utc>, TimeError> {
    if !(MIN_UNIX_SECONDS..=MAX_UNIX_SECONDS).contains(&secs) {
        return Err(TimeError::OutOfRange { year: None });
    }
    DateTime::from_timestamp(secs, 0).ok_or(TimeError::OutOfRange { year: None })
}

/// Unix seconds, with a fraction, to the datetime of their whole second: rounded down,
/// toward the past, so -0.5 is 23:59:59 of the day before, and a fraction never becomes a
/// nanosecond field of a whole second (which chrono would print as second 60).
pub fn read_unix_seconds(secs: f64) -> Result<DateTime<Utc>, TimeError> {
    if !secs.is_finite() {
        return Err(TimeError::Unreadable);
    }
    let whole = secs.floor();
    // Compared as floats first: casting a huge float to i64 would saturate.
    if whole < MIN_UNIX_SECONDS as f64 || whole > MAX_UNIX_SECONDS as f64 {
        return Err(TimeError::OutOfRange { year: None });
    }
    read_whole_seconds(whole as i64)
}

/// The one rule that turns a time value into the normal form a library stores,
/// `YYYY-MM-DDTHH:MM:SSZ`, used by every route (import, `recall_time`, the CLI's time
/// flags through [`storable`]):
///
/// - ISO-8601 / RFC 3339 text in any accepted spelling, converted to UTC; Unix seconds as
///   an integer or a real.
/// - Whole seconds, rounded down toward the past (`07.9` is `07`; `-1e-17` is
///   `1969-12-31T23:59:59Z`).
/// - A leap second (`:60`, as in `23:59:60`) is stored as second 59 of its minute: SQLite's date
///   functions and Python's `fromisoformat` refuse second 60, and POSIX time has none.
/// - Years 1 to 9999 only (the UTC instant's year): the years SQLite's date functions
///   read. Anything else is an error.
pub fn to_storable(value: TimeValue) -> Result<String, TimeError> {
    let dt = match value {
        TimeValue::Text(text) => read_text(text)?,
        TimeValue::Integer(secs) => read_whole_seconds(secs)?,
        TimeValue::Real(secs) => read_unix_seconds(secs)?,
    };
    Ok(normalize(&dt))
}

/// [`to_storable`] for text, as the CLI's `--since`, `--until` and `--now` take it; the
/// error is one line that quotes the value (short) and names the problem.
pub fn storable(text: &str) -> Result<String, String> {
    to_storable(TimeValue::Text(text)).map_err(|e| {
        let shown = quoted(text);
        match e {
            TimeError::Unreadable => {
                format!("{shown} is not an ISO-8601 time (like 2025-03-04T05:06:07Z or 2025-03-04)")
            }
            TimeError::OutOfRange { year: Some(year) } => format!(
                "{shown} is out of range (year {year}): give a time from 0001-01-01 to 9999-12-31"
            ),
            TimeError::OutOfRange { year: None } => {
                format!("{shown} is out of range: give a time from 0001-01-01 to 9999-12-31")
            }
        }
    })
}

/// Text in double quotes as messages quote a value: short, one line.
fn quoted(text: &str) -> String {
    format!("\"{}\"", shown_text(text))
}

/// Unix seconds, with the fraction, of a datetime.
pub fn unix_seconds(dt: &DateTime<Utc>) -> f64 {
    dt.timestamp() as f64 + f64::from(dt.timestamp_subsec_nanos()) / 1e9
}

/// Text time to Unix seconds. The last text read on this thread is remembered: a query
/// passes the same `now` for every row.
pub fn parse_unix_seconds(text: &str) -> Option<f64> {
    use std::cell::RefCell;
    thread_local! {
        static LAST: RefCell<(String, Option<f64>)> = const { RefCell::new((String::new(), None)) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if last.1.is_some() && last.0 == text {
            return last.1;
        }
        let parsed = parse_datetime(text).map(|dt| unix_seconds(&dt));
        last.0.clear();
        last.0.push_str(text);
        last.1 = parsed;
        parsed
    })
}

/// The normal form stored in a library: `2025-03-04T05:06:07Z`, whole seconds, so that
/// text order is time order (a fraction would sort `07.5Z` before `07Z`). A leap second
/// prints as second 59: chrono keeps it on second 59, and only its nanosecond field, which
/// this drops, says 60.
pub fn normalize(dt: &DateTime<Utc>) -> String {
    dt.with_nanosecond(0)
        .unwrap_or(*dt)
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

pub fn now_unix_seconds() -> f64 {
    unix_seconds(&Utc::now())
}

/// Days from `occurred` to `now`, never negative.
pub fn age_days(occurred: f64, now: f64) -> f64 {
    ((now - occurred) / SECONDS_PER_DAY).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: &str) -> f64 {
        parse_unix_seconds(s).unwrap_or_else(|| panic!("{s:?} should parse"))
    }

    // 2025-03-04T05:06:07Z as Unix seconds, computed independently:
    // 2025-03-04 is day 20151 since 1970-01-01; 20151*86400 + 5*3600 + 6*60 + 7.
    const T: f64 = 20151.0 * 86400.0 + 18367.0;

    #[test]
    fn every_listed_format() {
        assert_eq!(secs("2025-03-04T05:06:07Z"), T);
        assert_eq!(secs("2025-03-04t05:06:07z"), T);
        assert_eq!(secs("2025-03-04 05:06:07Z"), T);
        assert_eq!(secs("2025-03-04T05:06:07"), T);
        assert_eq!(secs("2025-03-04 05:06:07"), T);
        assert_eq!(secs("2025-03-04T07:06:07+02:00"), T);
        assert_eq!(secs("2025-03-04T00:06:07-0500"), T);
        assert_eq!(secs("2025-03-04T00:06:07-05"), T);
        assert_eq!(secs("2025-03-04T05:06:07.250Z"), T + 0.25);
        assert_eq!(secs("2025-03-04T05:06:07.5"), T + 0.5);
        assert_eq!(secs("2025-03-04T05:06Z"), T - 7.0);
        assert_eq!(secs("2025-03-04"), 20151.0 * 86400.0);
        assert_eq!(secs("  2025-03-04T05:06:07Z  "), T);
    }

    #[test]
    fn the_fast_path_agrees_with_the_general_one() {
        for s in [
            "2025-03-04T05:06:07Z",
            "1970-01-01T00:00:00Z",
            "2024-02-29T23:59:59Z",
            "0001-01-01T00:00:00Z",
        ] {
            let general = DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
            assert_eq!(parse_normal_form(s), Some(general), "{s}");
        }
        for bad in [
            "2025-02-29T00:00:00Z",
            "2025-03-04T24:00:00Z",
            "2025-03-04T05:06:60Z",
            "2025-0a-04T05:06:07Z",
            "2025-03-04 05:06:07Z",
        ] {
            assert_eq!(parse_normal_form(bad), None, "{bad}");
        }
        // A failure is not remembered; the next text replaces the last one.
        assert_eq!(parse_unix_seconds("nope"), None);
        assert_eq!(parse_unix_seconds("nope"), None);
        assert_eq!(parse_unix_seconds("1970-01-02"), Some(86400.0));
        assert_eq!(parse_unix_seconds("1970-01-02"), Some(86400.0));
    }

    #[test]
    fn rejects_what_is_not_a_time() {
        for bad in [
            "",
            "yesterday",
            "2025-13-01",
            "2025-02-30",
            "2025/03/04",
            "04-03-2025",
            "2025-03-04T25:00:00Z",
            "2025-03-04T05:06:07+25:00",
            "1741064767",
            "2025-03-04Tx",
            "2025-03-04é05:06:07",
        ] {
            assert_eq!(parse_unix_seconds(bad), None, "{bad:?} must not parse");
        }
    }

    #[test]
    fn normal_form() {
        let dt = parse_datetime("2025-03-04T07:06:07+02:00").unwrap();
        assert_eq!(normalize(&dt), "2025-03-04T05:06:07Z");
        let dt = parse_datetime("2025-03-04 05:06:07.920").unwrap();
        assert_eq!(normalize(&dt), "2025-03-04T05:06:07Z");
        let dt = parse_datetime("0900-01-01").unwrap();
        assert_eq!(normalize(&dt), "0900-01-01T00:00:00Z");
    }

    fn stored(value: TimeValue) -> Result<String, TimeError> {
        to_storable(value)
    }

    #[test]
    fn unix_seconds_round_down_and_never_reach_second_60() {
        use TimeValue::{Integer, Real};
        let ok = |s: &str| Ok(s.to_string());
        // A fraction just under a whole second once became nanosecond 1e9: second 60.
        assert_eq!(stored(Real(-1e-17)), ok("1969-12-31T23:59:59Z"));
        assert_eq!(stored(Real(1e-17)), ok("1970-01-01T00:00:00Z"));
        assert_eq!(stored(Real(59.9999999999)), ok("1970-01-01T00:00:59Z"));
        assert_eq!(stored(Real(-0.5)), ok("1969-12-31T23:59:59Z"));
        assert_eq!(stored(Real(-1.5)), ok("1969-12-31T23:59:58Z"));
        assert_eq!(stored(Real(1741064767.5)), ok("2025-03-04T05:06:07Z"));
        assert_eq!(stored(Integer(1741064767)), ok("2025-03-04T05:06:07Z"));
        // The bounds: 719162 days before 1970, and 2932897 days after it less a second.
        assert_eq!(MIN_UNIX_SECONDS, -719_162 * 86_400);
        assert_eq!(MAX_UNIX_SECONDS, 2_932_897 * 86_400 - 1);
        let out = Err(TimeError::OutOfRange { year: None });
        assert_eq!(
            stored(Integer(MIN_UNIX_SECONDS)),
            ok("0001-01-01T00:00:00Z")
        );
        assert_eq!(
            stored(Real(MIN_UNIX_SECONDS as f64)),
            ok("0001-01-01T00:00:00Z")
        );
        assert_eq!(stored(Real(MIN_UNIX_SECONDS as f64 - 0.5)), out);
        assert_eq!(stored(Integer(MIN_UNIX_SECONDS - 1)), out);
        assert_eq!(
            stored(Integer(MAX_UNIX_SECONDS)),
            ok("9999-12-31T23:59:59Z")
        );
        assert_eq!(
            stored(Real(MAX_UNIX_SECONDS as f64 + 0.9)),
            ok("9999-12-31T23:59:59Z")
        );
        assert_eq!(stored(Real(MAX_UNIX_SECONDS as f64 + 1.0)), out);
        assert_eq!(stored(Integer(i64::MAX)), out);
        assert_eq!(stored(Integer(i64::MIN)), out);
        assert_eq!(stored(Real(-1e308)), out);
        assert_eq!(stored(Real(f64::NAN)), Err(TimeError::Unreadable));
        assert_eq!(stored(Real(f64::NEG_INFINITY)), Err(TimeError::Unreadable));
    }

    #[test]
    fn leap_seconds_are_stored_as_second_59() {
        let text = |s| stored(TimeValue::Text(s));
        assert_eq!(
            text("2025-03-04T05:06:60Z"),
            Ok("2025-03-04T05:06:59Z".into())
        );
        assert_eq!(
            text("2016-12-31T23:59:60.5Z"),
            Ok("2016-12-31T23:59:59Z".into())
        );
        assert_eq!(
            text("2017-01-01T00:59:60+01:00"),
            Ok("2016-12-31T23:59:59Z".into())
        );
        assert_eq!(
            text("9999-12-31T23:59:60Z"),
            Ok("9999-12-31T23:59:59Z".into())
        );
        // Read for scoring, a leap second stays inside second 59 too.
        assert_eq!(secs("2016-12-31T23:59:60.5Z"), 1483228799.5);
    }

    #[test]
    fn text_years_outside_1_to_9999_are_refused() {
        let text = |s| stored(TimeValue::Text(s));
        let out = |year| Err(TimeError::OutOfRange { year: Some(year) });
        assert_eq!(text("0000-01-01"), out(0));
        assert_eq!(text("0000-12-31T23:59:59Z"), out(0));
        assert_eq!(text("+10000-01-01T00:00:00Z"), out(10000));
        // The year of the UTC instant decides, after the offset.
        assert_eq!(text("0001-01-01T00:30:00+01:00"), out(0));
        assert_eq!(text("9999-12-31T23:00:00-02:00"), out(10000));
        assert_eq!(
            text("0000-12-31T23:00:00-02:00"),
            Ok("0001-01-01T01:00:00Z".into())
        );
        assert_eq!(text("0001-01-01"), Ok("0001-01-01T00:00:00Z".into()));
        assert_eq!(
            text("9999-12-31T23:59:59.999Z"),
            Ok("9999-12-31T23:59:59Z".into())
        );
        assert_eq!(text("yesterday"), Err(TimeError::Unreadable));
        assert_eq!(parse_datetime("0000-01-01"), None);
        assert_eq!(parse_unix_seconds("0000-01-01T00:00:00Z"), None);
    }

    #[test]
    fn storable_messages_quote_the_value_and_name_the_problem() {
        assert_eq!(
            storable("2025-03-04T07:06:07+02:00"),
            Ok("2025-03-04T05:06:07Z".into())
        );
        assert_eq!(
            storable("0000-01-01"),
            Err("\"0000-01-01\" is out of range (year 0): give a time from 0001-01-01 to 9999-12-31".into())
        );
        assert_eq!(
            storable("+10000-01-01T00:00:00Z"),
            Err("\"+10000-01-01T00:00:00Z\" is out of range (year 10000): give a time from 0001-01-01 to 9999-12-31".into())
        );
        assert_eq!(
            storable("tomorrow"),
            Err(
                "\"tomorrow\" is not an ISO-8601 time (like 2025-03-04T05:06:07Z or 2025-03-04)"
                    .into()
            )
        );
        let long = storable(&format!("{}\n", "x".repeat(10_000))).unwrap_err();
        assert!(long.len() < 150 && !long.contains('\n'), "{long}");
    }

    #[test]
    fn ages() {
        assert_eq!(age_days(0.0, 86400.0 * 1.5), 1.5);
        assert_eq!(age_days(100.0, 0.0), 0.0, "future times are age 0");
        assert_eq!(age_days(5.0, 5.0), 0.0);
    }
}
