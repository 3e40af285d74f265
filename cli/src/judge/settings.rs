//! The settings a search runs its judge with: the `[judge]` section (declared in
//! `config::table`) with the flags over it, resolved by `settings`.
use serde::Serialize;
use serde_json::{json, Value as Json};

use super::rules;

/// The judge settings a search runs with (part of `settings::Ranking`, so that
/// `recall eval --set judge.…` varies them).
#[derive(Debug, Clone, Serialize)]
pub struct Settings {
    pub command: Option<String>,
    /// Whether the judge runs (off: `--no-judge`, `--set judge=off`).
    pub on: bool,
    pub threshold: f64,
    pub floor: f64,
    pub timeout_ms: i64,
    pub shortlist: i64,
    pub concurrency: i64,
}

impl Settings {
    /// The command, when the judge runs.
    pub fn active(&self) -> Option<&str> {
        self.command.as_deref().filter(|_| self.on)
    }

    pub fn cuts(&self) -> rules::Cuts {
        rules::Cuts {
            threshold: self.threshold,
            floor: self.floor,
        }
    }

    pub fn shown(&self, command: &str) -> Json {
        json!({
            "command": command, "threshold": self.threshold, "floor": self.floor,
            "timeout_ms": self.timeout_ms, "shortlist": self.shortlist,
            "concurrency": self.concurrency,
        })
    }
}
