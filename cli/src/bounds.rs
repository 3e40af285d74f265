//! The range of every numeric setting, written once: the configuration file, the flags
//! and `recall eval --set` check their values against these, and say the same thing.

/// A numeric setting: its configuration key and its allowed range.
pub struct Bound {
    pub key: &'static str,
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
fn short(value: f64) -> String {
    recall_core::value::shown_real(value)
}

use recall_core::defaults::{CONTEXT_RADIUS_MAX, LIST_MAX_LIMIT, POOL_MAX, POOL_MIN};

const fn int(key: &'static str, min: i64, max: i64) -> Bound {
    Bound {
        key,
        min: min as f64,
        above_min: false,
        max: max as f64,
        integer: true,
    }
}

pub const CANDIDATE_POOL: Bound = int("search.candidate_pool", POOL_MIN, POOL_MAX);
pub const HALF_LIFE_DAYS: Bound = Bound {
    key: "search.recency_half_life_days",
    min: 0.0,
    above_min: true,
    // A million days (2,700 years): recency no longer ranks anything.
    max: 1e6,
    integer: false,
};
pub const RECENCY_WEIGHT: Bound = Bound {
    key: "search.recency_weight",
    min: 0.0,
    above_min: false,
    max: 1.0,
    integer: false,
};
pub const PRUNE_SHARE: Bound = Bound {
    key: "search.prune_share",
    min: 0.0,
    above_min: true,
    max: 1.0,
    integer: false,
};
/// The share of its relevance a search hit lends its neighbours: at most all of it.
pub const CONTEXT_WEIGHT: Bound = Bound {
    key: "search.context_weight",
    min: 0.0,
    above_min: false,
    max: 1.0,
    integer: false,
};
/// Neighbours on each side: a handful is what "next to" means; 0 turns context off.
pub const CONTEXT_RADIUS: Bound = int("search.context_radius", 0, CONTEXT_RADIUS_MAX);
/// Minutes between an item and a neighbour: at most a year.
pub const CONTEXT_GAP_MINUTES: Bound = Bound {
    key: "search.context_gap_minutes",
    min: 0.0,
    above_min: false,
    max: 525_600.0,
    integer: false,
};
/// The least total weight of the words a candidate of `related` shares; each weighs at
/// most 1 and a prompt gives at most 20 (`recall_prompt_terms`).
pub const RELATED_MIN_WEIGHT: Bound = Bound {
    key: "related.min_weight",
    min: 0.0,
    above_min: false,
    max: 20.0,
    integer: false,
};
/// The least weight of the shared words together: a word's weight, 0 to 1.
pub const RELATED_MIN_JOINT_WEIGHT: Bound = Bound {
    key: "related.min_joint_weight",
    min: 0.0,
    above_min: false,
    max: 1.0,
    integer: false,
};
/// Results are read by people and agents: thousands is already more than either uses.
pub const SEARCH_DEFAULT_LIMIT: Bound = int("search.default_limit", 1, 10_000);
pub const SEARCH_MAX_LIMIT: Bound = int("search.max_limit", 1, 10_000);
pub const LATER_DEFAULT_LIMIT: Bound = int("later.default_limit", 1, LIST_MAX_LIMIT);
pub const TIMELINE_DEFAULT_LIMIT: Bound = int("timeline.default_limit", 1, LIST_MAX_LIMIT);
/// SQLite takes the busy timeout as a C int of milliseconds; a day is the most any
/// command should wait for another writer.
pub const BUSY_TIMEOUT_MS: Bound = int("storage.busy_timeout_ms", 0, 86_400_000);

/// The judge's probabilities are from 0 to 1, and so are the cuts made on them.
pub const JUDGE_THRESHOLD: Bound = probability("judge.threshold");
pub const JUDGE_FLOOR: Bound = probability("judge.floor");
/// A search waits for its judge at most ten minutes: longer is a hang, not a judgement.
pub const JUDGE_TIMEOUT_MS: Bound = int("judge.timeout_ms", 1, 600_000);
/// More candidates than a search ever returns would only cost the judge's time.
pub const JUDGE_SHORTLIST: Bound = int("judge.shortlist", 1, 10_000);
pub const JUDGE_CONCURRENCY: Bound = int("judge.concurrency", 1, 256);

/// The vector channel: list weights and fusion's k. A weight of 0 silences a list; ten
/// times the other list's is already all of the say.
pub const LITERAL_WEIGHT: Bound = real("vectors.literal_weight", 0.0, 10.0);
pub const VECTOR_WEIGHT: Bound = real("vectors.vector_weight", 0.0, 10.0);
pub const RRF_K: Bound = real("vectors.rrf_k", 0.0, 10_000.0);
/// An embedder gets at most ten minutes per batch: longer is a hang.
pub const EMBED_TIMEOUT_MS: Bound = int("vectors.timeout_ms", 1, 600_000);
pub const EMBED_BATCH: Bound = int("vectors.batch", 1, 10_000);

const fn real(key: &'static str, min: f64, max: f64) -> Bound {
    Bound {
        key,
        min,
        above_min: false,
        max,
        integer: false,
    }
}

const fn probability(key: &'static str) -> Bound {
    Bound {
        key,
        min: 0.0,
        above_min: false,
        max: 1.0,
        integer: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_messages() {
        assert_eq!(CANDIDATE_POOL.check_int("--pool", 10), Ok(10));
        assert_eq!(
            CANDIDATE_POOL.check_int("--pool", 9),
            Err("--pool must be a whole number from 10 to 5000, got 9".to_string())
        );
        assert!(HALF_LIFE_DAYS.check("h", 0.0).is_err());
        assert!(HALF_LIFE_DAYS.check("h", f64::NAN).is_err());
        assert!(HALF_LIFE_DAYS.check("h", f64::INFINITY).is_err());
        assert_eq!(HALF_LIFE_DAYS.check("h", 1e-9), Ok(1e-9));
        assert_eq!(RECENCY_WEIGHT.check("w", 0.0), Ok(0.0));
        assert_eq!(RECENCY_WEIGHT.check("w", 1.0), Ok(1.0));
        assert!(RECENCY_WEIGHT.check("w", 1.0000001).is_err());
        assert!(PRUNE_SHARE.check("p", 0.0).is_err());
        assert_eq!(
            BUSY_TIMEOUT_MS.check_int("storage.busy_timeout_ms", 2_147_483_648),
            Err(
                "storage.busy_timeout_ms must be a whole number from 0 to 86400000, got 2147483648"
                    .to_string()
            )
        );
        assert_eq!(
            BUSY_TIMEOUT_MS.check_int("b", i64::MAX),
            Err("b must be a whole number from 0 to 86400000, got 9223372036854775807".to_string())
        );
    }
}
