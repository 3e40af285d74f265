//! The optional TOML configuration (`--config PATH` or `RECALL_CONFIG`). Unknown keys and
//! out-of-range values are refused with the key's name; flags override the file. Every
//! key is declared once, in `table`: the file's types, defaults and checks, `recall eval
//! --set` (`overlay`), the flags' help and the MCP schemas come from there.
pub mod given;
pub mod hook_events;
pub mod overlay;
pub mod projects;
pub mod setting;
pub mod table;
pub mod tokens;

use std::path::Path;

use serde::Deserialize;

use crate::error::{err, Result};
pub use crate::vectors::Fusion;
pub use table::{Access, Config, Judge, Later, Related, Search, Storage, Timeline, Vectors};

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

    /// Every value checked, each message naming its key.
    fn validate(&self) -> std::result::Result<(), String> {
        self.check_each(&|key| key.to_string())?;
        projects::check(&self.projects)?;
        tokens::check(&self.tokens)
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
    fn projects_map_absolute_folders_to_names() {
        let c = parse("[projects]\n\"/home/me/src\" = \"shop\"\n").unwrap();
        assert_eq!(
            c.projects.get("/home/me/src").map(String::as_str),
            Some("shop")
        );
        assert!(parse("[projects]\n\"src\" = \"shop\"\n")
            .unwrap_err()
            .contains("projects: \"src\" is not an absolute folder"));
        assert!(parse("[projects]\n\"/src\" = \" \"\n")
            .unwrap_err()
            .contains("the project of \"/src\" is empty"));
        assert!(parse("[projects]\n\"/src\" = 3\n")
            .unwrap_err()
            .contains("line 2"));
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
        for name in Fusion::NAMES {
            assert_eq!(Fusion::from_name(name).map(Fusion::name), Some(name));
        }
        assert_eq!(
            Config::default().vectors.fusion.name(),
            recall_core::defaults::FUSION
        );
        assert_eq!(
            parse("[vectors]\nfusion = \"rrf\"\n")
                .unwrap()
                .vectors
                .fusion,
            Fusion::Rrf
        );
        for name in RelatedRule::NAMES {
            assert_eq!(
                RelatedRule::from_name(name).map(RelatedRule::name),
                Some(name)
            );
        }
    }
}
