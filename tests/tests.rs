//! The end-to-end tests, as one binary (one link of bundled SQLite, one run): a module
//! per subject. `make test` runs them with the CLI built with its test hooks.
mod common;

mod access;
mod add;
mod check_repair;
mod cli_library;
mod cli_safety;
mod concurrency;
mod crashes;
mod docs_links;
mod eval;
mod eval_conversation;
mod fold_agreement;
mod forget;
mod function_list;
mod hook;
mod hostile_args;
mod hostile_cli;
mod judge;
mod match_safety;
mod mcp_helpers;
mod mcp_library;
mod mcp_protocol;
mod mcp_signals;
mod properties;
mod queries_context;
mod queries_later;
mod queries_related;
mod queries_search;
mod recall_tokenizer;
mod replace_routes;
mod shell_parity;
mod sql_command;
mod sql_files;
mod vectors;
mod vectors_items;
