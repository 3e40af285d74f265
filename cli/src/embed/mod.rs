//! `recall embed`'s work: items given vectors for search's vector channel
//! (docs/vectors.md). Batch by batch, each stored in a transaction of its own:
//! interrupted or killed, the library keeps the batches done and is consistent, and the
//! next run goes on from there (an item with a vector as new as its text and its
//! neighbours' titles is not embedded again).
mod batch;
mod made;
mod run;
mod table;

pub use run::{embed, Embedded, Options, Progress, Refusal};
pub use table::{drop_vectors, make_table};
