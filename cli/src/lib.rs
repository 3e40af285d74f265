//! The `recall` command's library: everything `main.rs` dispatches to.
pub mod args;
pub mod commands;
pub mod config;
pub mod error;
pub mod eval;
pub mod fault;
pub mod functions;
pub mod item;
pub mod library;
pub mod output;
pub mod query;
pub mod tokenizer;

use std::ffi::OsString;

use clap::Parser;

/// Runs the command line; returns the process exit code. Errors print as one line.
pub fn run<I: IntoIterator<Item = OsString>>(argv: I) -> i32 {
    let cli = match args::Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { error::EXIT_ERROR } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match commands::dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("recall: {}", e.message);
            e.code
        }
    }
}
