//! The read path: one function per query (search, later, related, timeline, get) that
//! binds a file of `sql/` (`params`), runs it (`library::sql_file`) and returns a typed answer
//! (`answer`, `rows`), which becomes JSON once, at the edge. The commands, the MCP
//! server, the prompt hook, `recall eval` and the benchmarks all read through here.
pub mod answer;
pub mod changed;
pub mod explain;
mod file;
mod get;
#[cfg(test)]
mod item_shape;
mod judge_stage;
mod later;
mod params;
mod prune;
mod related;
pub mod replay;
pub mod rows;
mod search;
mod start;
mod timeline;
pub mod vector_channel;

pub use answer::{to_json, Answer, ItemAnswer, ItemsAnswer};
pub use file::file_items;
pub use get::{get, get_many, missing, MAX_IDS};
pub use later::{later, later_results};
pub use related::related;
pub use search::{search, search_near};
pub use start::sub_agent_items;
pub use timeline::{around, timeline};
