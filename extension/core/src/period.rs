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
const BEFORE_YEAR: &[&str] = &[
    "in", "during", "of", "since", "until", "before", "after", "from", "through", "early", "late",
    "mid", "spring", "summer", "autumn", "fall", "winter", "year",
];

fn month(word: &str) -> Option<u32> {
    let w = word.to_lowercase();
    let w = w.trim_end_matches('.');
    MONTHS
        .iter()
        .position(|m| *m == w || (w.len() >= 3 && w != "may" && m.starts_with(w) && w.len() <= 4))
        .map(|i| i as u32 + 1)
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
    fn span(&self, year: i32) -> Option<(NaiveDate, NaiveDate)> {
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
    let date = match word.split_once(['T', 't']) {
        Some((date, _)) if date.len() == 10 => date,
        _ => word,
    };
    let mut parts = date.split('-');
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
    Some(Named {
        year: Some(y),
        month: Some(m),
        day: d,
    })
}

/// The dates in `text`, in order. A month with a day but no year ("between August 11 and
/// August 15, 2023") takes the year of the next date that has one.
fn named(text: &str) -> Vec<Named> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '?' | '!' | ';'))
        .map(|w| w.trim_matches(|c: char| matches!(c, '.' | '"' | '\'' | ':')))
        .filter(|w| !w.is_empty())
        .collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let at = |k: usize| words.get(i + k).copied().unwrap_or("");
        if let Some(n) = iso(w) {
            found.push(n);
            i += 1;
        } else if let Some(m) = month(w) {
            // Month [day] [year]
            let (d, skip) = match day(at(1)) {
                Some(d) => (Some(d), 2),
                None => (None, 1),
            };
            let y = year(at(skip));
            if y.is_some() || d.is_some() {
                found.push(Named {
                    year: y,
                    month: Some(m),
                    day: d,
                });
            }
            i += skip + usize::from(y.is_some());
        } else if let Some(d) = day(w) {
            // day [of] Month [year]
            let k = if at(1).eq_ignore_ascii_case("of") {
                2
            } else {
                1
            };
            match month(at(k)) {
                Some(m) => {
                    let y = year(at(k + 1));
                    found.push(Named {
                        year: y,
                        month: Some(m),
                        day: Some(d),
                    });
                    i += k + 1 + usize::from(y.is_some());
                }
                None => i += 1,
            }
        } else if let Some(y) =
            year(w).filter(|_| i > 0 && BEFORE_YEAR.contains(&words[i - 1].to_lowercase().as_str()))
        {
            found.push(Named {
                year: Some(y),
                month: None,
                day: None,
            });
            i += 1;
        } else {
            i += 1;
        }
    }
    // A date without its year borrows the next one's.
    let mut next_year = None;
    for n in found.iter_mut().rev() {
        match n.year {
            Some(y) => next_year = Some(y),
            None => n.year = next_year,
        }
    }
    found
}

/// The period `text` names, if it names dates with their years.
pub fn from_query(text: &str) -> Option<Period> {
    let spans: Vec<_> = named(text).iter().filter_map(|n| n.span(n.year?)).collect();
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
    fn json_in_the_stored_form() {
        let period = from_query("in August 2023").map(|p| p.to_json());
        assert_eq!(
            period.as_deref(),
            Some(r#"{"since":"2023-08-01T00:00:00Z","until":"2023-09-01T00:00:00Z"}"#)
        );
    }
}
