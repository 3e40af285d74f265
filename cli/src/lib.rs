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
pub mod prune;
pub mod query;
pub mod tokenizer;

use std::ffi::OsString;

use clap::Parser;

/// Runs the command line; returns the process exit code. Errors print as one line.
pub fn run<I: IntoIterator<Item = OsString>>(argv: I) -> i32 {
    let cli = match args::Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        // Help and version print as clap writes them; a usage error is one line.
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return 0;
        }
        Err(e) => {
            let text = e.to_string();
            let message: Vec<&str> = text
                .lines()
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            let message = message.join(" ");
            eprintln!(
                "recall: {} (see `recall --help`)",
                message.trim_start_matches("error: ")
            );
            return error::EXIT_ERROR;
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
