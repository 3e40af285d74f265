//! The optional TOML configuration (`--config PATH` or `RECALL_CONFIG`). Unknown keys and
//! out-of-range values are refused with the key's name; flags override the file.
use std::path::Path;

use serde::Deserialize;

use crate::err;
use crate::error::Result;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub storage: Storage,
    #[serde(default)]
    pub search: Search,
    #[serde(default)]
    pub later: Later,
    #[serde(default)]
    pub timeline: Timeline,
    #[serde(default)]
    pub related: Related,
    #[serde(default)]
    pub access: Access,
    #[serde(default)]
    pub judge: crate::judge::Config,
    #[serde(default)]
    pub vectors: crate::vectors::Config,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Storage {
    pub tokenizer: Option<String>,
    /// How long a command waits for another writer before giving up.
    pub busy_timeout_ms: Option<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Search {
    pub candidate_pool: i64,
    pub recency_half_life_days: f64,
    pub recency_weight: f64,
    pub default_limit: i64,
    pub max_limit: i64,
    pub drop_stopwords: bool,
    pub prune_share: Option<f64>,
    pub context_weight: f64,
    pub context_radius: i64,
    pub context_gap_minutes: f64,
}

impl Default for Search {
    fn default() -> Self {
        use recall_core::{defaults, score};
        Search {
            candidate_pool: defaults::POOL,
            recency_half_life_days: score::DEFAULT_HALF_LIFE_DAYS,
            recency_weight: score::DEFAULT_RECENCY_WEIGHT,
            default_limit: defaults::SEARCH_LIMIT,
            max_limit: defaults::SEARCH_MAX_LIMIT,
            drop_stopwords: true,
            prune_share: None,
            context_weight: defaults::CONTEXT_WEIGHT,
            context_radius: defaults::CONTEXT_RADIUS,
            context_gap_minutes: defaults::CONTEXT_GAP_MINUTES,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Later {
    pub default_limit: i64,
}

impl Default for Later {
    fn default() -> Self {
        Later {
            default_limit: recall_core::defaults::LATER_LIMIT,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Timeline {
    pub default_limit: i64,
}

impl Default for Timeline {
    fn default() -> Self {
        Timeline {
            default_limit: recall_core::defaults::TIMELINE_LIMIT,
        }
    }
}

/// The rule `related` judges its candidates by (`sql/related.sql`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum RelatedRule {
    /// Two shared words, rare in the library alone and together (`sql/related.sql`).
    Idf,
    /// Two shared words, whatever they are.
    Jezero,
}

impl RelatedRule {
    pub const NAMES: [&'static str; 2] = ["idf", "jezero"];

    /// The name `sql/related.sql` takes as `:rule`.
    pub fn name(self) -> &'static str {
        match self {
            RelatedRule::Idf => "idf",
            RelatedRule::Jezero => "jezero",
        }
    }

    pub fn from_name(name: &str) -> Option<RelatedRule> {
        match name {
            "idf" => Some(RelatedRule::Idf),
            "jezero" => Some(RelatedRule::Jezero),
            _ => None,
        }
    }
}

impl Default for RelatedRule {
    fn default() -> Self {
        // The core names the default; a test keeps that name among the known ones.
        RelatedRule::from_name(recall_core::defaults::RELATED_RULE).unwrap_or(RelatedRule::Idf)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Related {
    pub rule: RelatedRule,
    pub min_weight: f64,
    pub min_joint_weight: f64,
}

impl Default for Related {
    fn default() -> Self {
        Related {
            rule: RelatedRule::default(),
            min_weight: recall_core::defaults::RELATED_MIN_WEIGHT,
            min_joint_weight: recall_core::defaults::RELATED_MIN_JOINT_WEIGHT,
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Access {
    /// Glob patterns of the sources this caller may read; none means every source.
    pub allow: Option<Vec<String>>,
}

impl Config {
    pub fn load(path: Option<&Path>) -> Result<Config> {
        let Some(path) = path else {
            return Ok(Config::default());
        };
        let what = format!("config {}", path.display());
        let fix = "give the path of the configuration file (docs/configuration.md)";
        let bytes = crate::input::read_file_limited(path, crate::input::CONFIG, &what, fix)?;
        let text = crate::input::text(bytes, &what)?;
        let config: Config = toml::from_str(&text).map_err(|e| {
            let message = e.message().trim().replace('\n', " ");
            let place = e
                .span()
                .map(|s| format!(" (line {})", text[..s.start].lines().count().max(1)))
                .unwrap_or_default();
            err!("bad config {}{place}: {message}", path.display())
        })?;
        config
            .validate()
            .map_err(|e| err!("bad config {}: {e}", path.display()))?;
        Ok(config)
    }

    fn validate(&self) -> std::result::Result<(), String> {
        use crate::bounds::*;
        let s = &self.search;
        CANDIDATE_POOL.check_int(CANDIDATE_POOL.key, s.candidate_pool)?;
        HALF_LIFE_DAYS.check(HALF_LIFE_DAYS.key, s.recency_half_life_days)?;
        RECENCY_WEIGHT.check(RECENCY_WEIGHT.key, s.recency_weight)?;
        CONTEXT_WEIGHT.check(CONTEXT_WEIGHT.key, s.context_weight)?;
        CONTEXT_RADIUS.check_int(CONTEXT_RADIUS.key, s.context_radius)?;
        CONTEXT_GAP_MINUTES.check(CONTEXT_GAP_MINUTES.key, s.context_gap_minutes)?;
        if let Some(p) = s.prune_share {
            PRUNE_SHARE.check(PRUNE_SHARE.key, p)?;
        }
        RELATED_MIN_WEIGHT.check(RELATED_MIN_WEIGHT.key, self.related.min_weight)?;
        RELATED_MIN_JOINT_WEIGHT
            .check(RELATED_MIN_JOINT_WEIGHT.key, self.related.min_joint_weight)?;
        for (bound, value) in [
            (&SEARCH_DEFAULT_LIMIT, s.default_limit),
            (&SEARCH_MAX_LIMIT, s.max_limit),
            (&LATER_DEFAULT_LIMIT, self.later.default_limit),
            (&TIMELINE_DEFAULT_LIMIT, self.timeline.default_limit),
        ] {
            bound.check_int(bound.key, value)?;
        }
        if let Some(ms) = self.storage.busy_timeout_ms {
            BUSY_TIMEOUT_MS.check_int(BUSY_TIMEOUT_MS.key, ms)?;
        }
        if let Some(spec) = &self.storage.tokenizer {
            crate::tokenizer::parse(spec)
                .map_err(|e| format!("storage.tokenizer: {}", e.message))?;
        }
        self.judge.validate()?;
        self.vectors.validate()?;
        if let Some(globs) = &self.access.allow {
            for glob in globs {
                crate::access::check_glob("access.allow", glob)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> std::result::Result<Config, String> {
        // One file per call: tests run in parallel, and two texts may have one length.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("recall-config-{}-{n}", std::process::id()));
        std::fs::write(&dir, text).unwrap();
        let r = Config::load(Some(&dir)).map_err(|e| e.message);
        let _ = std::fs::remove_file(&dir);
        r
    }

    #[test]
    fn defaults_and_overrides() {
        let c = parse("[search]\nrecency_weight = 0.5\n[access]\nallow = [\"agent-*\"]\n").unwrap();
        assert_eq!(c.search.recency_weight, 0.5);
        assert_eq!(c.search.candidate_pool, 200);
        assert_eq!(c.later.default_limit, 5);
        assert_eq!(
            c.access.allow.as_deref(),
            Some(&["agent-*".to_string()][..])
        );
    }

    #[test]
    fn refusals_name_the_key() {
        assert!(parse("[search]\nrecency_wieght = 0.5\n")
            .unwrap_err()
            .contains("unknown field `recency_wieght`"));
        assert!(parse("[search]\nrecency_weight = 1.5\n")
            .unwrap_err()
            .contains("search.recency_weight must be from 0 to 1, got 1.5"));
        assert!(parse("[search]\ncandidate_pool = 5\n")
            .unwrap_err()
            .contains("search.candidate_pool must be a whole number from 10 to 5000"));
        assert!(parse("[storage]\ntokenizer = \"icu\"\n")
            .unwrap_err()
            .contains("storage.tokenizer: unknown tokenizer"));
        assert!(parse("[search]\nrecency_weight = \"high\"\n")
            .unwrap_err()
            .contains("line 2"));
        assert!(parse("[related]\nrule = \"loose\"\n")
            .unwrap_err()
            .contains("unknown variant `loose`, expected `idf` or `jezero`"));
        assert!(parse("[related]\nmin_weight = -1\n")
            .unwrap_err()
            .contains("related.min_weight must be from 0 to 20, got -1"));
    }

    #[test]
    fn the_related_rule_by_name() {
        assert_eq!(
            Config::default().related.rule.name(),
            recall_core::defaults::RELATED_RULE
        );
        let c = parse("[related]\nrule = \"jezero\"\nmin_weight = 1.5\nmin_joint_weight = 0\n")
            .unwrap();
        assert_eq!(
            (
                c.related.rule,
                c.related.min_weight,
                c.related.min_joint_weight
            ),
            (RelatedRule::Jezero, 1.5, 0.0)
        );
        assert!(parse("[related]\nmin_joint_weight = 1.5\n")
            .unwrap_err()
            .contains("related.min_joint_weight must be from 0 to 1, got 1.5"));
        for name in RelatedRule::NAMES {
            assert_eq!(
                RelatedRule::from_name(name).map(RelatedRule::name),
                Some(name)
            );
        }
    }
}
