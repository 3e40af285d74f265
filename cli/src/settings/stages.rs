//! The two stages a search may run besides its literal ranking: the judge and the
//! vector channel. Each is its section of the table of settings (`config::Judge`,
//! `config::Vectors`) with the flags over it, as `Ranking`'s `[search]` and `[related]`
//! are, and whether it runs: a setting of either is declared once, in `config::table`.
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{json, Value as Json};

use crate::config::setting::Setting;
use crate::config::table::{EMBED_BATCH, SETTINGS};
use crate::config::{self};
use crate::judge::rules;

/// The judge a search runs (`recall eval --set judge.…` varies it).
#[derive(Debug, Clone)]
pub struct Judge {
    pub config: config::Judge,
    /// Whether the judge runs (off: `--no-judge`, `--set judge=off`).
    pub on: bool,
}

impl Judge {
    /// The command, when the judge runs.
    pub fn active(&self) -> Option<&str> {
        self.config.command.as_deref().filter(|_| self.on)
    }

    pub fn cuts(&self) -> rules::Cuts {
        rules::Cuts {
            threshold: self.config.threshold,
            floor: self.config.floor,
        }
    }

    /// The settings as `--explain` shows them.
    pub fn shown(&self, command: &str) -> Json {
        let c = &self.config;
        json!({
            "command": command, "threshold": c.threshold, "floor": c.floor,
            "timeout_ms": c.timeout_ms, "shortlist": c.shortlist,
            "concurrency": c.concurrency,
        })
    }
}

/// Search's vector channel (`recall eval --set vectors.…` varies it).
#[derive(Debug, Clone)]
pub struct Vectors {
    pub config: config::Vectors,
    /// Whether the channel may run (off: `--no-vectors`, `--set vectors=off`).
    pub on: bool,
    /// Asked for by `--set vectors=on`: a library without vectors is an error then, not
    /// a literal column under the name "on".
    pub required: bool,
}

/// The settings of `section` as `recall eval --json` shows them, each under its field's
/// name, then `on`.
fn serialize<S: Serializer>(
    serializer: S,
    section: &str,
    value: impl Fn(&str) -> Option<Json>,
    on: bool,
    but: &[&Setting],
) -> Result<S::Ok, S::Error> {
    let prefix = format!("{section}.");
    let mut map = serializer.serialize_map(None)?;
    for setting in SETTINGS
        .iter()
        .filter(|s| !but.iter().any(|b| b.key == s.key))
    {
        let Some(field) = setting.key.strip_prefix(&prefix) else {
            continue;
        };
        map.serialize_entry(field, &value(setting.key))?;
    }
    map.serialize_entry("on", &on)?;
    map.end()
}

impl Serialize for Judge {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize(serializer, "judge", |k| self.config.value(k), self.on, &[])
    }
}

impl Serialize for Vectors {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // The batch is `recall embed`'s, not the search's.
        serialize(
            serializer,
            "vectors",
            |k| self.config.value(k),
            self.on,
            &[&EMBED_BATCH],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `recall eval --json` shows each stage's settings of the search, written out here
    /// from the table's defaults.
    #[test]
    fn the_stages_show_their_sections_settings() {
        let c = config::Config::default();
        let judge = Judge {
            config: c.judge.clone(),
            on: false,
        };
        assert_eq!(
            json!(judge).to_string(),
            json!({
                "command": null, "on": false, "threshold": 0.7, "floor": 0.2,
                "timeout_ms": 5000, "shortlist": 20, "concurrency": 8,
            })
            .to_string()
        );
        let mut vectors = Vectors {
            config: c.vectors.clone(),
            on: true,
            required: true,
        };
        vectors.config.command = Some("embed --fast".into());
        vectors.config.fusion = config::Fusion::Rrf;
        assert_eq!(
            json!(vectors).to_string(),
            json!({
                "command": "embed --fast", "on": true, "timeout_ms": 30000,
                "literal_weight": recall_core::defaults::LITERAL_WEIGHT,
                "vector_weight": recall_core::defaults::VECTOR_WEIGHT,
                "rrf_k": recall_core::score::DEFAULT_RRF_K, "fusion": "rrf",
                "vector_share": recall_core::defaults::VECTOR_SHARE,
            })
            .to_string()
        );
    }
}
