//! The algorithms of sqlite-recall, free of any SQLite binding: the loadable extension
//! and the `recall` CLI are two thin adapters over [`functions::FUNCTIONS`].
pub mod bm25;
pub mod defaults;
pub mod fold;
pub mod fts_match;
pub mod functions;
pub mod glob;
pub mod lists;
pub mod matched;
pub mod period;
pub mod prompt;
pub mod redact;
pub mod runs;
pub mod score;
pub mod shown;
pub mod stem;
pub mod stopwords;
pub mod time;
pub mod tokenize;
pub mod value;

pub use functions::{FunctionSpec, Host, FUNCTIONS};
pub use value::{Output, Value};
