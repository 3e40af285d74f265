//! SQL values as the adapters hand them over, and reading typed arguments from them with
//! errors that name the argument.
use std::borrow::Cow;

pub use crate::shown::{shown_real, shown_text};
use crate::time::{TimeError, TimeValue};

/// One SQL argument, borrowed from the host.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    Null,
    Integer(i64),
    Real(f64),
    /// Text; invalid UTF-8 from the host has been replaced lossily.
    Text(Cow<'a, str>),
    Blob(&'a [u8]),
}

/// What a function returns.
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
}

impl Value<'_> {
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "NULL",
            Value::Integer(_) => "INTEGER",
            Value::Real(_) => "REAL",
            Value::Text(_) => "TEXT",
            Value::Blob(_) => "BLOB",
        }
    }

    /// The value as an error message quotes it: short, one line, no control characters.
    pub fn describe(&self) -> String {
        match self {
            Value::Null => "NULL".to_string(),
            Value::Integer(i) => i.to_string(),
            Value::Real(r) => shown_real(*r),
            Value::Text(t) => format!("'{}'", shown_text(t)),
            Value::Blob(b) => format!("a {}-byte BLOB", b.len()),
        }
    }
}

/// The message for a time argument that cannot be read.
pub fn time_error(name: &str, value: &Value, error: TimeError) -> String {
    match error {
        TimeError::Unreadable => format!(
            "{name} must be an ISO-8601 time (2025-03-04T05:06:07Z, 2025-03-04) or Unix seconds, got {}",
            value.describe()
        ),
        TimeError::OutOfRange { .. } => format!(
            "{name} is out of range (years 1 to 9999), got {}",
            value.describe()
        ),
    }
}

/// Arguments of one call, read by name for clear errors (`half_life_days must be > 0`).
pub struct Args<'a, 'v> {
    values: &'a [Value<'v>],
}

pub type ArgResult<T> = Result<T, String>;

impl<'a, 'v> Args<'a, 'v> {
    pub fn new(values: &'a [Value<'v>]) -> Self {
        Args { values }
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The value at `i`; `None` when absent or NULL.
    pub fn get(&self, i: usize) -> Option<&'a Value<'v>> {
        match self.values.get(i) {
            None | Some(Value::Null) => None,
            Some(v) => Some(v),
        }
    }

    /// Text; numbers read as their SQL text, as SQLite's own text functions do.
    pub fn text(&self, i: usize, name: &str) -> ArgResult<Option<Cow<'a, str>>> {
        Ok(match self.get(i) {
            None => None,
            Some(Value::Text(t)) => Some(Cow::Borrowed(t.as_ref())),
            Some(Value::Integer(n)) => Some(Cow::Owned(n.to_string())),
            Some(Value::Real(r)) => Some(Cow::Owned(r.to_string())),
            Some(v) => return Err(format!("{name} must be TEXT, got {}", v.describe())),
        })
    }

    /// A whole number: INTEGER, a REAL without fraction, or text that reads as one.
    pub fn integer(&self, i: usize, name: &str) -> ArgResult<Option<i64>> {
        let Some(v) = self.get(i) else {
            return Ok(None);
        };
        let parsed = match v {
            Value::Integer(n) => Some(*n),
            Value::Real(r) if r.fract() == 0.0 && r.abs() < 9.0e15 => Some(*r as i64),
            Value::Text(t) => t.trim().parse::<i64>().ok(),
            _ => None,
        };
        parsed
            .map(Some)
            .ok_or_else(|| format!("{name} must be an integer, got {}", v.describe()))
    }

    /// A finite number: INTEGER, REAL, or text that reads as one.
    pub fn real(&self, i: usize, name: &str) -> ArgResult<Option<f64>> {
        let Some(v) = self.get(i) else {
            return Ok(None);
        };
        let parsed = match v {
            Value::Integer(n) => Some(*n as f64),
            Value::Real(r) => Some(*r),
            Value::Text(t) => t.trim().parse::<f64>().ok(),
            _ => None,
        };
        match parsed {
            Some(x) if x.is_finite() => Ok(Some(x)),
            _ => Err(format!(
                "{name} must be a finite number, got {}",
                v.describe()
            )),
        }
    }

    /// A time: ISO-8601 text, or INTEGER/REAL Unix seconds. Returns Unix seconds.
    pub fn time(&self, i: usize, name: &str) -> ArgResult<Option<f64>> {
        let Some(v) = self.get(i) else {
            return Ok(None);
        };
        let parsed = match v {
            Value::Integer(n) => Ok(*n as f64),
            Value::Real(r) if r.is_finite() => Ok(*r),
            Value::Text(t) => match crate::time::parse_unix_seconds(t) {
                Some(secs) => Ok(secs),
                // Only the failure path reads the text again, for the reason.
                None => Err(crate::time::read_text(t)
                    .err()
                    .unwrap_or(TimeError::Unreadable)),
            },
            _ => Err(TimeError::Unreadable),
        };
        parsed.map(Some).map_err(|e| time_error(name, v, e))
    }

    /// A time as [`crate::time::to_storable`] takes it; NULL and BLOB are `None` and an
    /// error, a REAL that is not finite is left to the rule, which refuses it.
    pub fn time_value(&self, i: usize, name: &str) -> ArgResult<Option<TimeValue<'a>>> {
        Ok(match self.get(i) {
            None => None,
            Some(Value::Text(t)) => Some(TimeValue::Text(t)),
            Some(Value::Integer(n)) => Some(TimeValue::Integer(*n)),
            Some(Value::Real(r)) => Some(TimeValue::Real(*r)),
            Some(v) => return Err(time_error(name, v, TimeError::Unreadable)),
        })
    }

    /// A flag given as 0 or 1.
    pub fn flag(&self, i: usize, name: &str) -> ArgResult<Option<bool>> {
        match self.integer(i, name) {
            Ok(None) => Ok(None),
            Ok(Some(0)) => Ok(Some(false)),
            Ok(Some(1)) => Ok(Some(true)),
            _ => Err(format!(
                "{name} must be 0 or 1, got {}",
                self.values[i].describe()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_is_short_and_escaped() {
        let long = "x".repeat(100);
        assert_eq!(
            Value::Text(long.as_str().into()).describe(),
            format!("'{}…'", "x".repeat(60))
        );
        assert_eq!(Value::Text("a\0b\n".into()).describe(), r"'a\0b\n'");
        assert_eq!(Value::Blob(&[1, 2, 3]).describe(), "a 3-byte BLOB");
    }

    #[test]
    fn numbers_are_shown_short() {
        assert_eq!(Value::Real(-1e308).describe(), "-1e308");
        assert_eq!(Value::Real(5e-324).describe(), "5e-324");
        assert_eq!(
            Value::Real(1.2345678901234567e100).describe(),
            "1.2345678901234567e100"
        );
        assert_eq!(Value::Real(1e20).describe(), "1e20");
        // Short plain forms stay as they are.
        assert_eq!(Value::Real(2.5).describe(), "2.5");
        assert_eq!(Value::Real(-3.0).describe(), "-3");
        assert_eq!(Value::Real(1e15).describe(), "1000000000000000");
        assert_eq!(Value::Real(0.000123).describe(), "0.000123");
        assert_eq!(Value::Real(f64::NEG_INFINITY).describe(), "-inf");
        assert_eq!(Value::Integer(i64::MIN).describe(), "-9223372036854775808");
        for x in [
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            1e-300,
            -1.234_567_891_234_567_8e-192,
        ] {
            let shown = shown_real(x);
            assert!(shown.len() <= 25, "{shown}");
            assert_eq!(shown.parse::<f64>(), Ok(x), "{shown} reads back");
        }
    }

    #[test]
    fn typed_reads() {
        let values = [
            Value::Integer(3),
            Value::Real(2.0),
            Value::Text(" 7 ".into()),
            Value::Real(2.5),
            Value::Blob(b"x"),
            Value::Null,
        ];
        let args = Args::new(&values);
        assert_eq!(args.integer(0, "a"), Ok(Some(3)));
        assert_eq!(args.integer(1, "a"), Ok(Some(2)));
        assert_eq!(args.integer(2, "a"), Ok(Some(7)));
        assert_eq!(
            args.integer(3, "a"),
            Err("a must be an integer, got 2.5".to_string())
        );
        assert!(args.integer(4, "a").is_err());
        assert_eq!(args.integer(5, "a"), Ok(None));
        assert_eq!(args.integer(9, "a"), Ok(None));
        assert_eq!(args.real(3, "r"), Ok(Some(2.5)));
        assert!(args
            .text(4, "t")
            .unwrap_err()
            .contains("must be TEXT, got a 1-byte BLOB"));
        assert_eq!(args.text(0, "t").unwrap().as_deref(), Some("3"));
        assert_eq!(
            args.flag(0, "f"),
            Err("f must be 0 or 1, got 3".to_string())
        );
    }
}
