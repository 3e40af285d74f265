//! The `recall` command's library: its modules, declared and nothing else. `main.rs`
//! hands the command line to `entry::run`, the front door; `err!` and `say!` are
//! exported by the files of what they make (`error.rs`, `output.rs`).
pub mod access;
pub mod agents;
pub mod args;
pub mod bounds;
pub mod capture;
pub mod commands;
pub mod config;
pub mod embed;
pub mod entry;
pub mod error;
pub mod fault;
pub mod hook;
pub mod input;
pub mod interrupt;
pub mod item;
pub mod judge;
pub mod library;
pub mod line_process;
pub mod masked;
pub mod mcp;
pub mod memory_block;
pub mod output;
pub mod places;
pub mod project;
pub mod quality;
pub mod serve;
pub mod settings;
pub mod setup;
pub mod sql_guard;
pub mod status;
pub mod text;
pub mod tokenizer;
pub mod ui;
pub mod vectors;

// The read path and the writes of items, which the front ends (`commands`, `mcp`) call.
pub mod items;
pub mod query;
