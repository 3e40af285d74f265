//! A numeric setting's range and the one message that refuses a value outside it: the
//! configuration file, the flags and `recall eval --set` say the same thing. Each
//! setting's range is declared with it (`config::table`).

/// An allowed range of numbers.
#[derive(Debug, Clone, Copy)]
pub struct Bound {
    pub min: f64,
    /// Whether `min` itself is refused (a half-life of 0 days means nothing).
    pub above_min: bool,
    pub max: f64,
    pub integer: bool,
}

impl Bound {
    /// The value, or a message naming `name` (a key, a flag or `--set key`) and the range.
    pub fn check(&self, name: &str, value: f64) -> Result<f64, String> {
        if self.contains(value) {
            return Ok(value);
        }
        Err(format!(
            "{name} must be {}, got {}",
            self.range(),
            short(value)
        ))
    }

    /// An integer setting: the value, or the message of [`Bound::check`].
    pub fn check_int(&self, name: &str, value: i64) -> Result<i64, String> {
        // i64 to f64 loses precision only far outside every range here.
        if self.contains(value as f64) {
            return Ok(value);
        }
        Err(format!("{name} must be {}, got {value}", self.range()))
    }

    fn contains(&self, value: f64) -> bool {
        let low_ok = if self.above_min {
            value > self.min
        } else {
            value >= self.min
        };
        value.is_finite() && low_ok && value <= self.max && (!self.integer || value.fract() == 0.0)
    }

    pub fn range(&self) -> String {
        let (lo, hi) = (short(self.min), short(self.max));
        match (self.integer, self.above_min) {
            (true, _) => format!("a whole number from {lo} to {hi}"),
            (false, true) => format!("above {lo} and at most {hi}"),
            (false, false) => format!("from {lo} to {hi}"),
        }
    }
}

/// Numbers in messages are short (never 309 digits): the core's rule for SQL errors.
pub fn short(value: f64) -> String {
    recall_core::value::shown_real(value)
}

/// Whole numbers from `min` to `max`.
pub const fn whole(min: i64, max: i64) -> Bound {
    Bound {
        min: min as f64,
        above_min: false,
        max: max as f64,
        integer: true,
    }
}

/// Numbers from `min` to `max`.
pub const fn real(min: f64, max: f64) -> Bound {
    Bound {
        min,
        above_min: false,
        max,
        integer: false,
    }
}

/// Numbers above `min` and at most `max`.
pub const fn above(min: f64, max: f64) -> Bound {
    Bound {
        min,
        above_min: true,
        max,
        integer: false,
    }
}
