//! The judge's settings: the `[judge]` section, its flags, `recall eval --set judge.*`,
//! each value checked against its range once.
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as Json};

use super::rules;
use crate::bounds::{
    JUDGE_CONCURRENCY, JUDGE_FLOOR, JUDGE_SHORTLIST, JUDGE_THRESHOLD, JUDGE_TIMEOUT_MS,
};
use crate::err;
use crate::error::{Error, Result};
use crate::line_process;
use crate::settings;

/// The `[judge]` section of the configuration.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// The judge's command line (split like a shell's words, run without a shell).
    pub command: Option<String>,
    pub threshold: f64,
    pub floor: f64,
    pub timeout_ms: i64,
    pub shortlist: i64,
    pub concurrency: i64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            command: None,
            threshold: 0.7,
            floor: 0.2,
            timeout_ms: 5000,
            shortlist: 20,
            concurrency: 8,
        }
    }
}

impl Config {
    pub fn validate(&self) -> std::result::Result<(), String> {
        JUDGE_THRESHOLD.check(JUDGE_THRESHOLD.key, self.threshold)?;
        JUDGE_FLOOR.check(JUDGE_FLOOR.key, self.floor)?;
        for (bound, value) in [
            (&JUDGE_TIMEOUT_MS, self.timeout_ms),
            (&JUDGE_SHORTLIST, self.shortlist),
            (&JUDGE_CONCURRENCY, self.concurrency),
        ] {
            bound.check_int(bound.key, value)?;
        }
        floor_below_threshold("judge.floor", self.floor, self.threshold)?;
        if let Some(c) = &self.command {
            command(c).map_err(|e| format!("judge.command: {e}"))?;
        }
        Ok(())
    }
}

fn floor_below_threshold(
    name: &str,
    floor: f64,
    threshold: f64,
) -> std::result::Result<(), String> {
    if floor > threshold {
        return Err(format!(
            "{name} must be at most the threshold {threshold}, got {floor}"
        ));
    }
    Ok(())
}

/// A judge command: words, the first one the program.
fn command(c: &str) -> std::result::Result<String, String> {
    line_process::check_command(c, "the judge")
}

/// The judge's flags of `recall search` and `recall eval`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Args {
    /// Re-rank the best candidates with a judge: a command that rates each one on its
    /// standard input and output (docs/judge.md); default: the config's [judge] command.
    #[arg(long, value_name = "CMD")]
    pub judge_cmd: Option<String>,
    /// No judge, even if the configuration names one: the literal answer.
    #[arg(long, conflicts_with = "judge_cmd")]
    pub no_judge: bool,
}

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

/// The keys of `recall eval --set` for the judge.
pub const SET_KEYS: &[&str] = &[
    "judge",
    "judge.threshold",
    "judge.floor",
    "judge.timeout_ms",
    "judge.shortlist",
    "judge.concurrency",
];

impl Settings {
    pub fn from_config(c: &Config) -> Settings {
        Settings {
            command: c.command.clone(),
            on: c.command.is_some(),
            threshold: c.threshold,
            floor: c.floor,
            timeout_ms: c.timeout_ms,
            shortlist: c.shortlist,
            concurrency: c.concurrency,
        }
    }

    /// `--judge-cmd` and `--no-judge` over the configuration.
    pub fn apply(&mut self, a: &Args) -> Result<()> {
        if let Some(c) = &a.judge_cmd {
            self.command = Some(command(c).map_err(|e| err!("--judge-cmd: {e}"))?);
            self.on = true;
        }
        if a.no_judge {
            self.on = false;
        }
        Ok(())
    }

    /// The command, when the judge runs.
    pub fn active(&self) -> Option<&str> {
        self.command.as_deref().filter(|_| self.on)
    }

    /// One `recall eval --set judge…=value`, checked like the configuration's key.
    pub fn set(&mut self, key: &str, value: &str) -> Result<()> {
        let name = format!("--set {key}");
        let number = || settings::set_number(&name, value);
        let whole = || settings::set_whole(&name, value);
        match key {
            "judge" => {
                self.on = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(err!("{name}: write on or off, got {value:?}")),
                };
                if self.on && self.command.is_none() {
                    return Err(err!(
                        "{name}=on: no judge command: give --judge-cmd CMD or the config's [judge] command"
                    ));
                }
            }
            "judge.threshold" => {
                self.threshold = JUDGE_THRESHOLD
                    .check(&name, number()?)
                    .map_err(Error::new)?
            }
            "judge.floor" => {
                self.floor = JUDGE_FLOOR.check(&name, number()?).map_err(Error::new)?
            }
            "judge.timeout_ms" => {
                self.timeout_ms = JUDGE_TIMEOUT_MS
                    .check_int(&name, whole()?)
                    .map_err(Error::new)?
            }
            "judge.shortlist" => {
                self.shortlist = JUDGE_SHORTLIST
                    .check_int(&name, whole()?)
                    .map_err(Error::new)?
            }
            "judge.concurrency" => {
                self.concurrency = JUDGE_CONCURRENCY
                    .check_int(&name, whole()?)
                    .map_err(Error::new)?
            }
            _ => return Err(err!("--set: unknown setting {key:?}")),
        }
        floor_below_threshold(&name, self.floor, self.threshold).map_err(Error::new)
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
