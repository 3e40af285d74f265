//! The fusions of search's literal list and vector list, by the names the configuration,
//! `--fusion` and `sql/search.sql`'s `:fusion` take.
use serde::Deserialize;

/// How search fuses the literal list and the vector list (`sql/search.sql`'s `:fusion`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Fusion {
    /// Each list's score on one scale, the vector list's share of the say growing with
    /// the lists' agreement (docs/vectors.md).
    Convex,
    /// Reciprocal rank fusion: each list's weight over k plus the item's rank in it.
    Rrf,
}

impl Fusion {
    pub const NAMES: [&'static str; 2] = ["convex", "rrf"];

    /// The name `sql/search.sql` takes as `:fusion`.
    pub fn name(self) -> &'static str {
        match self {
            Fusion::Convex => "convex",
            Fusion::Rrf => "rrf",
        }
    }

    pub fn from_name(name: &str) -> Option<Fusion> {
        match name {
            "convex" => Some(Fusion::Convex),
            "rrf" => Some(Fusion::Rrf),
            _ => None,
        }
    }
}

impl Default for Fusion {
    fn default() -> Self {
        // The core names the default; a test keeps that name among the known ones.
        Fusion::from_name(recall_core::defaults::FUSION).unwrap_or(Fusion::Convex)
    }
}
