//! The vector channel (docs/vectors.md): item embeddings kept in sqlite-vec's `vec0`
//! table (`store`), made by an embedder process (`embedder`), and a search that fuses
//! the literal list with the items nearest the query, by their scores (convex) or by
//! reciprocal rank (`query::vector_channel`, `sql/search.sql`).
//! Optional throughout: without vectors or an embedder, search is the literal one.
pub mod embedder;
pub mod fusion;
pub mod store;

pub use fusion::Fusion;

use serde::Serialize;
use serde_json::{json, Value as Json};

/// What to do when the vector channel has no embedder.
pub const NO_EMBEDDER: &str =
    "no embedder: give --embed-cmd CMD or the config's [vectors] command (docs/vectors.md)";

/// The vector settings a search runs with (part of `settings::Ranking`, so that
/// `recall eval --set vectors.…` varies them): the `[vectors]` section (declared in
/// `config::table`) with the flags over it, resolved by `settings`.
#[derive(Debug, Clone, Serialize)]
pub struct Settings {
    pub command: Option<String>,
    /// Whether the channel may run (off: `--no-vectors`, `--set vectors=off`).
    pub on: bool,
    pub timeout_ms: i64,
    pub literal_weight: f64,
    pub vector_weight: f64,
    pub rrf_k: f64,
    /// How the two lists are fused, and the vector list's share under convex.
    pub fusion: Fusion,
    pub vector_share: f64,
    /// Asked for by `--set vectors=on`: a library without vectors is an error then, not
    /// a literal column under the name "on".
    #[serde(skip)]
    pub required: bool,
}

impl Settings {
    /// The settings as `--json` shows them.
    pub fn shown(&self) -> Json {
        json!({
            "command": self.command, "on": self.on, "literal_weight": self.literal_weight,
            "vector_weight": self.vector_weight, "rrf_k": self.rrf_k,
            "fusion": self.fusion.name(), "vector_share": self.vector_share,
        })
    }
}
