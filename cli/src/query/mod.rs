//! The read path: one function per query (search, later, related, timeline, get) that
//! binds a file of `sql/`, runs it and returns a typed answer. The commands, the MCP
//! server, the prompt hook, `recall eval` and the benchmarks all read through here.
pub mod explain;
pub mod judge_stage;
pub mod params;
pub mod prune;
pub mod sql_file;
pub mod vector_channel;
