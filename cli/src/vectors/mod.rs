//! The vector channel (docs/vectors.md): item embeddings kept in sqlite-vec's `vec0`
//! table (`store`), made by an embedder process (`embedder`), and a search that fuses
//! the literal list with the items nearest the query, by their scores (convex) or by
//! reciprocal rank (`query::vector_channel`, `sql/search.sql`).
//! Optional throughout: without vectors or an embedder, search is the literal one.
pub mod embedder;
pub mod fusion;
pub mod store;

pub use fusion::Fusion;

/// What to do when the vector channel has no embedder.
pub const NO_EMBEDDER: &str =
    "no embedder: give --embed-cmd CMD or the config's [vectors] command (docs/vectors.md)";
