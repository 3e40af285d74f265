//! The period a query names: "in August 2023", "on May 7, 2023", "2023-08-11", "during
//! 2022". A memory's items carry their dates, and a question that names a time seldom
//! finds it in their words ("what did we decide in March 2026?"), so search counts the
//! items dated in that period for more. Only dates with a year count: "May" alone is a
//! word as often as a month, and a month without a year could be any of them.
use chrono::NaiveDate;

/// From the start of the earliest date named to the end of the latest, as UTC days:
/// `since` inclusive, `until` exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    pub since: NaiveDate,
    pub until: NaiveDate,
}

impl Period {
    /// `{"since": "…T00:00:00Z", "until": "…T00:00:00Z"}`, in the stored time form.
    pub fn to_value(&self) -> serde_json::Value {
        let at = |d: NaiveDate| format!("{}T00:00:00Z", d.format("%Y-%m-%d"));
        serde_json::json!({"since": at(self.since), "until": at(self.until)})
    }

    pub fn to_json(&self) -> String {
        self.to_value().to_string()
    }
}

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// Words after which a bare year is a time ("in 2022", "summer 2021"), not a number.
/// Words of bounds ("since", "after") are not among them: they come before numbers as
/// often ("after 2000 ms"), and bounds are what `--since` and `--until` are for.
const BEFORE_YEAR: &[&str] = &[
    "in", "during", "early", "late", "mid", "spring", "summer", "autumn", "fall", "winter", "year",
];

/// The short forms of the months besides their names.
const SHORT: [(&str, u32); 12] = [
    ("jan", 1),
    ("feb", 2),
    ("mar", 3),
    ("apr", 4),
    ("jun", 6),
    ("jul", 7),
    ("aug", 8),
    ("sep", 9),
    ("sept", 9),
    ("oct", 10),
    ("nov", 11),
    ("dec", 12),
];

fn month(word: &str) -> Option<u32> {
    let w = word.to_lowercase();
    let w = w.trim_end_matches('.');
    let named = MONTHS.iter().position(|m| *m == w).map(|i| i as u32 + 1);
    named.or_else(|| SHORT.iter().find(|(s, _)| *s == w).map(|(_, m)| *m))
}

fn year(word: &str) -> Option<i32> {
    let y: i32 = (word.len() == 4 && word.bytes().all(|b| b.is_ascii_digit()))
        .then(|| word.parse().ok())??;
    (1900..=2099).contains(&y).then_some(y)
}

fn day(word: &str) -> Option<u32> {
    let w = word.to_lowercase();
    let digits = ["st", "nd", "rd", "th"]
        .iter()
        .find_map(|s| w.strip_suffix(s))
        .unwrap_or(&w);
    let d: u32 =
        (!digits.is_empty() && digits.len() <= 2 && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| digits.parse().ok())??;
    (1..=31).contains(&d).then_some(d)
}

fn next_month(y: i32, m: u32) -> Option<NaiveDate> {
    if m == 12 {
        NaiveDate::from_ymd_opt(y + 1, 1, 1)
    } else {
        NaiveDate::from_ymd_opt(y, m + 1, 1)
    }
}

/// One date as written: its year, perhaps its month, perhaps its day.
#[derive(Debug, Clone, Copy)]
struct Named {
    year: Option<i32>,
    month: Option<u32>,
    day: Option<u32>,
}

impl Named {
    /// The days the date covers; none without a year.
    fn span(&self) -> Option<(NaiveDate, NaiveDate)> {
        let year = self.year?;
        match (self.month, self.day) {
            (Some(m), Some(d)) => {
                let since = NaiveDate::from_ymd_opt(year, m, d)?;
                Some((since, since.succ_opt()?))
            }
            (Some(m), None) => Some((NaiveDate::from_ymd_opt(year, m, 1)?, next_month(year, m)?)),
            (None, _) => Some((
                NaiveDate::from_ymd_opt(year, 1, 1)?,
                NaiveDate::from_ymd_opt(year + 1, 1, 1)?,
            )),
        }
    }
}

/// An ISO date or month: `2023-08-11`, `2023-08`, a time after the date read as its day
/// (`2023-08-11T09:30:00Z`).
fn iso(word: &str) -> Option<Named> {
    let written = match word.split_once(['T', 't']) {
        Some((day, _)) if day.len() == 10 => day,
        _ => word,
    };
    let mut parts = written.split('-');
    let y = year(parts.next()?)?;
    let m: u32 = parts.next().filter(|p| p.len() == 2)?.parse().ok()?;
    let d = match parts.next() {
        Some(p) if p.len() == 2 => Some(p.parse().ok()?),
        Some(_) => return None,
        None => None,
    };
    if parts.next().is_some() || !(1..=12).contains(&m) {
        return None;
    }
    Some(date(Some(y), Some(m), d))
}

/// A day range in one word: `11-15`, `7th-9th`.
fn days(word: &str) -> Option<(u32, u32)> {
    let (a, b) = word.split_once(['-', '\u{2013}'])?;
    Some((day(a)?, day(b)?))
}

/// A range of years in one word: `2022-2023`.
fn years(word: &str) -> Option<(i32, i32)> {
    let (a, b) = word.split_once(['-', '\u{2013}'])?;
    let (a, b) = (year(a)?, year(b)?);
    (a <= b).then_some((a, b))
}

/// The words of `text`, without the punctuation around them and a possessive's `'s`.
fn words(text: &str) -> Vec<&str> {
    text.split(|c: char| {
        c.is_whitespace() || matches!(c, ',' | '(' | ')' | '[' | ']' | '?' | '!' | ';')
    })
    .map(|w| {
        let w = w.trim_matches(|c: char| {
            matches!(
                c,
                '.' | '"'
                    | '\''
                    | ':'
                    | '\u{2018}'
                    | '\u{2019}'
                    | '\u{201c}'
                    | '\u{201d}'
                    | '\u{ab}'
                    | '\u{bb}'
            )
        });
        w.strip_suffix("'s")
            .or_else(|| w.strip_suffix("\u{2019}s"))
            .unwrap_or(w)
    })
    .filter(|w| !w.is_empty())
    .collect()
}

fn date(year: Option<i32>, month: Option<u32>, day: Option<u32>) -> Named {
    Named { year, month, day }
}

/// The dates in `text`, in order. A month with a day but no year ("between August 11 and
/// August 15, 2023") takes the year of the next date that has one, or the year before
/// when it would otherwise come after that date ("December 20 to January 5, 2024").
fn named(text: &str) -> Vec<Named> {
    let words = words(text);
    let at = |k: usize| words.get(k).copied().unwrap_or("");
    // The year at word k, written `2023` or `of 2023`: the year and the words it takes.
    let year_at = |k: usize| match (year(at(k)), at(k).eq_ignore_ascii_case("of")) {
        (Some(y), _) => (Some(y), 1),
        (None, true) => year(at(k + 1)).map_or((None, 0), |y| (Some(y), 2)),
        (None, false) => (None, 0),
    };
    let mut found = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if let Some((a, b)) = years(w) {
            found.extend([date(Some(a), None, None), date(Some(b), None, None)]);
            i += 1;
        } else if let Some(n) = iso(w) {
            found.push(n);
            i += 1;
        } else if let Some(m) = month(w) {
            // Month [day or days] [[of] year]
            let (first, last, took) = match (day(at(i + 1)), days(at(i + 1))) {
                (Some(d), _) => (Some(d), None, 1),
                (None, Some((a, b))) => (Some(a), Some(b), 1),
                (None, None) => (None, None, 0),
            };
            let (y, took_year) = year_at(i + 1 + took);
            if y.is_some() || first.is_some() {
                found.push(date(y, Some(m), first));
                if let Some(b) = last {
                    found.push(date(y, Some(m), Some(b)));
                }
            }
            i += 1 + took + took_year;
        } else if let Some(d) = day(w) {
            // day [of] Month [[of] year]
            let k = if at(i + 1).eq_ignore_ascii_case("of") {
                2
            } else {
                1
            };
            match month(at(i + k)) {
                Some(m) => {
                    let (y, took_year) = year_at(i + k + 1);
                    found.push(date(y, Some(m), Some(d)));
                    i += k + 1 + took_year;
                }
                None => i += 1,
            }
        } else if let Some(y) =
            year(w).filter(|_| i > 0 && BEFORE_YEAR.contains(&words[i - 1].to_lowercase().as_str()))
        {
            found.push(date(Some(y), None, None));
            i += 1;
        } else {
            i += 1;
        }
    }
    // A date without its year borrows the next one's, a year less if it would come
    // after that next date.
    let mut next: Option<Named> = None;
    for n in found.iter_mut().rev() {
        if n.year.is_none() {
            n.year = next.and_then(|x| {
                let y = x.year?;
                let later = (n.month, n.day.unwrap_or(1)) > (x.month, x.day.unwrap_or(1));
                Some(if later && x.month.is_some() { y - 1 } else { y })
            });
        }
        if n.year.is_some() {
            next = Some(*n);
        }
    }
    found
}

/// The period `text` names, if it names dates with their years.
pub fn from_query(text: &str) -> Option<Period> {
    let spans: Vec<_> = named(text).iter().filter_map(Named::span).collect();
    let since = spans.iter().map(|s| s.0).min()?;
    let until = spans.iter().map(|s| s.1).max()?;
    Some(Period { since, until })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Option<(String, String)> {
        from_query(text).map(|p| (p.since.to_string(), p.until.to_string()))
    }

    fn span(a: &str, b: &str) -> Option<(String, String)> {
        Some((a.to_string(), b.to_string()))
    }

    #[test]
    fn months_with_their_years() {
        assert_eq!(
            p("What did John do in August 2023?"),
            span("2023-08-01", "2023-09-01")
        );
        assert_eq!(p("in December, 2022"), span("2022-12-01", "2023-01-01"));
        assert_eq!(p("Sept 2021 plans"), span("2021-09-01", "2021-10-01"));
        assert_eq!(
            p("what broke in Dec. 2025"),
            span("2025-12-01", "2026-01-01")
        );
    }

    #[test]
    fn days_in_both_orders_and_iso() {
        assert_eq!(p("on May 7, 2023"), span("2023-05-07", "2023-05-08"));
        assert_eq!(p("on 7 May 2023"), span("2023-05-07", "2023-05-08"));
        assert_eq!(
            p("the 21st of March, 2024"),
            span("2024-03-21", "2024-03-22")
        );
        assert_eq!(
            p("deploy on 2023-08-11 failed"),
            span("2023-08-11", "2023-08-12")
        );
        assert_eq!(p("the 2026-02 release"), span("2026-02-01", "2026-03-01"));
        assert_eq!(
            p("since 2026-02-03T10:00:00Z"),
            span("2026-02-03", "2026-02-04")
        );
        assert_eq!(p("2026-2-3"), None);
        // December 31 ends at the new year.
        assert_eq!(p("December 31, 2023"), span("2023-12-31", "2024-01-01"));
    }

    #[test]
    fn several_dates_span_from_first_to_last() {
        assert_eq!(
            p("Where was John between August 11 and August 15 2023?"),
            span("2023-08-11", "2023-08-16")
        );
        assert_eq!(
            p("from March 2023 to May 2023"),
            span("2023-03-01", "2023-06-01")
        );
    }

    #[test]
    fn bare_years_only_after_a_time_word() {
        assert_eq!(
            p("What state did Joanna visit in summer 2021?"),
            span("2021-01-01", "2022-01-01")
        );
        assert_eq!(p("during 2022"), span("2022-01-01", "2023-01-01"));
        assert_eq!(p("error 2022 on port 2023"), None);
        assert_eq!(p("in 1850"), None);
    }

    #[test]
    fn no_year_no_period() {
        assert_eq!(p("what may we do in May?"), None);
        assert_eq!(p("on March 3"), None);
        assert_eq!(p("may 2023"), span("2023-05-01", "2023-06-01"));
        assert_eq!(p(""), None);
        assert_eq!(p("mar jan dec"), None);
    }

    #[test]
    fn impossible_dates_name_nothing() {
        assert_eq!(p("February 30, 2023"), None);
        assert_eq!(p("2023-13-01"), None);
        assert_eq!(p("2023-02-30"), None);
        assert_eq!(p("on 32 May 2023"), span("2023-05-01", "2023-06-01"));
    }

    #[test]
    fn of_before_the_year_ranges_and_new_year() {
        assert_eq!(p("in August of 2023"), span("2023-08-01", "2023-09-01"));
        assert_eq!(p("on May 5th of 2023"), span("2023-05-05", "2023-05-06"));
        assert_eq!(p("August 11-15, 2023"), span("2023-08-11", "2023-08-16"));
        assert_eq!(p("during 2022-2023"), span("2022-01-01", "2024-01-01"));
        assert_eq!(p("2023-2022"), None);
        // The borrowed year is the one before when the range crosses a new year.
        assert_eq!(
            p("from December 20 to January 5, 2024"),
            span("2023-12-20", "2024-01-06")
        );
    }

    #[test]
    fn numbers_that_are_no_years() {
        assert_eq!(
            p("timeout after 2000 ms in August 2023"),
            span("2023-08-01", "2023-09-01")
        );
        assert_eq!(p("3 of 2023 tests failed"), None);
        assert_eq!(p("since 2022"), None);
        // Only the names and their short forms are months.
        assert_eq!(p("marc 2023"), None);
        assert_eq!(p("augu 2023"), None);
        assert_eq!(p("April 31, 2023"), None);
    }

    #[test]
    fn quotes_brackets_and_possessives_around_a_date() {
        assert_eq!(
            p("\u{2018}August 2023\u{2019}"),
            span("2023-08-01", "2023-09-01")
        );
        assert_eq!(p("«August 2023»"), span("2023-08-01", "2023-09-01"));
        assert_eq!(p("[2023-08-11]"), span("2023-08-11", "2023-08-12"));
        assert_eq!(p("August's 2023 release"), span("2023-08-01", "2023-09-01"));
    }

    #[test]
    fn json_in_the_stored_form() {
        let period = from_query("in August 2023").map(|p| p.to_json());
        assert_eq!(
            period.as_deref(),
            Some(r#"{"since":"2023-08-01T00:00:00Z","until":"2023-09-01T00:00:00Z"}"#)
        );
    }
}
