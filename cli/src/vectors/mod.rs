//! The vector channel (docs/vectors.md): item embeddings kept in sqlite-vec's `vec0`
//! table (`store`), made by an embedder process (`embedder`), and a search that fuses
//! the literal list with the items nearest the query by reciprocal rank
//! (`query::vector_channel`).
//! Optional throughout: without vectors or an embedder, search is the literal one.
pub mod embedder;
pub mod store;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value as Json};

use crate::bounds::{EMBED_BATCH, EMBED_TIMEOUT_MS, LITERAL_WEIGHT, RRF_K, VECTOR_WEIGHT};
use crate::err;
use crate::error::{Error, Result};
use crate::line_process;
use crate::settings;
use recall_core::{defaults, score};

/// The `[vectors]` section of the configuration.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// The embedder's command line (split like a shell's words, run without a shell).
    pub command: Option<String>,
    pub timeout_ms: i64,
    pub batch: i64,
    pub literal_weight: f64,
    pub vector_weight: f64,
    pub rrf_k: f64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            command: None,
            timeout_ms: 30_000,
            batch: defaults::EMBED_BATCH,
            literal_weight: defaults::LITERAL_WEIGHT,
            vector_weight: defaults::VECTOR_WEIGHT,
            rrf_k: score::DEFAULT_RRF_K,
        }
    }
}

impl Config {
    pub fn validate(&self) -> std::result::Result<(), String> {
        for (bound, value) in [
            (&LITERAL_WEIGHT, self.literal_weight),
            (&VECTOR_WEIGHT, self.vector_weight),
            (&RRF_K, self.rrf_k),
        ] {
            bound.check(bound.key, value)?;
        }
        EMBED_TIMEOUT_MS.check_int(EMBED_TIMEOUT_MS.key, self.timeout_ms)?;
        EMBED_BATCH.check_int(EMBED_BATCH.key, self.batch)?;
        if let Some(c) = &self.command {
            command(c).map_err(|e| format!("vectors.command: {e}"))?;
        }
        Ok(())
    }
}

/// What to do when the vector channel has no embedder.
pub const NO_EMBEDDER: &str =
    "no embedder: give --embed-cmd CMD or the config's [vectors] command (docs/vectors.md)";

fn command(c: &str) -> std::result::Result<String, String> {
    line_process::check_command(c, "the embedder")
}

/// The embedder flag of `recall search`, `recall eval` and `recall embed`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct EmbedderArgs {
    /// The embedder: a command that turns texts into vectors on its standard input and
    /// output (docs/vectors.md); default: the config's [vectors] command.
    #[arg(long, value_name = "CMD")]
    pub embed_cmd: Option<String>,
}

/// The vector flags of `recall search` and `recall eval`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct VectorArgs {
    #[command(flatten)]
    pub embed: EmbedderArgs,
    /// Literal search only, even if the library has vectors and an embedder is set.
    #[arg(long, conflicts_with = "embed_cmd")]
    pub no_vectors: bool,
}

/// The vector settings a search runs with (part of `settings::Ranking`, so that
/// `recall eval --set vectors.…` varies them).
#[derive(Debug, Clone, Serialize)]
pub struct Settings {
    pub command: Option<String>,
    /// Whether the channel may run (off: `--no-vectors`, `--set vectors=off`).
    pub on: bool,
    pub timeout_ms: i64,
    pub literal_weight: f64,
    pub vector_weight: f64,
    pub rrf_k: f64,
    /// Asked for by `--set vectors=on`: a library without vectors is an error then, not
    /// a literal column under the name "on".
    #[serde(skip)]
    pub required: bool,
}

/// The keys of `recall eval --set` for the vector channel.
pub const SET_KEYS: &[&str] = &[
    "vectors",
    "vectors.literal_weight",
    "vectors.vector_weight",
    "vectors.rrf_k",
];

impl Settings {
    pub fn from_config(c: &Config) -> Settings {
        Settings {
            command: c.command.clone(),
            on: true,
            timeout_ms: c.timeout_ms,
            literal_weight: c.literal_weight,
            vector_weight: c.vector_weight,
            rrf_k: c.rrf_k,
            required: false,
        }
    }

    /// `--embed-cmd` and `--no-vectors` over the configuration.
    pub fn apply(&mut self, a: &VectorArgs) -> Result<()> {
        if let Some(c) = &a.embed.embed_cmd {
            self.command = Some(command(c).map_err(|e| err!("--embed-cmd: {e}"))?);
        }
        if a.no_vectors {
            self.on = false;
        }
        Ok(())
    }

    /// One `recall eval --set vectors…=value`, checked like the configuration's key.
    pub fn set(&mut self, key: &str, value: &str) -> Result<()> {
        let name = format!("--set {key}");
        let number = || settings::set_number(&name, value);
        match key {
            "vectors" => {
                self.on = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(err!("{name}: write on or off, got {value:?}")),
                };
                if self.on && self.command.is_none() {
                    return Err(err!("{name}=on: {NO_EMBEDDER}"));
                }
                self.required = self.on;
            }
            "vectors.literal_weight" => {
                self.literal_weight = LITERAL_WEIGHT.check(&name, number()?).map_err(Error::new)?
            }
            "vectors.vector_weight" => {
                self.vector_weight = VECTOR_WEIGHT.check(&name, number()?).map_err(Error::new)?
            }
            "vectors.rrf_k" => self.rrf_k = RRF_K.check(&name, number()?).map_err(Error::new)?,
            _ => return Err(err!("--set: unknown setting {key:?}")),
        }
        Ok(())
    }

    /// The settings as `--json` shows them.
    pub fn shown(&self) -> Json {
        json!({
            "command": self.command, "on": self.on, "literal_weight": self.literal_weight,
            "vector_weight": self.vector_weight, "rrf_k": self.rrf_k,
        })
    }
}
