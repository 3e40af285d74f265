//! The command line, as clap reads it.
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "recall",
    version,
    about = "Literal search for agent memory and short titled documents, on SQLite FTS5",
    after_help = "A library is one SQLite file: `recall --db memory.db init`, then `import`, `search`."
)]
pub struct Cli {
    /// The library file.
    #[arg(long, env = "RECALL_DB", global = true, value_name = "PATH")]
    pub db: Option<PathBuf>,

    /// A TOML configuration file.
    #[arg(long, env = "RECALL_CONFIG", global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,

    /// The tokenizer: for init and rebuild, the one to build; for every other command,
    /// the one expected (the command refuses to run on another).
    #[arg(long, env = "RECALL_TOKENIZER", global = true, value_name = "SPEC")]
    pub tokenizer: Option<String>,

    /// Print JSON for machines instead of text for people.
    #[arg(long, global = true)]
    pub json: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a library (every migration, and the tokenizer record).
    Init,
    /// Apply pending schema migrations.
    Migrate,
    /// Check the library: SQLite, tokenizer, index integrity, counts, triggers.
    Check,
    /// Rebuild the index; with a new --tokenizer, recreate it with that tokenizer.
    Rebuild,
    /// Import items from JSON Lines (a file, or - for standard input).
    Import {
        /// The JSON Lines file, or - for standard input.
        #[arg(value_name = "FILE")]
        file: String,
    },
    /// Show one item.
    Get {
        id: i64,
        /// Include the stored transcript.
        #[arg(long)]
        transcript: bool,
        #[command(flatten)]
        access: AccessArgs,
    },
    /// Merge the index's segments and refresh the query planner's statistics.
    Optimize,
}

#[derive(Debug, Args, Clone, Default)]
pub struct AccessArgs {
    /// Sources the caller may read (glob, case-sensitive, repeatable); default: all,
    /// or the config's [access] allow.
    #[arg(long = "allow", value_name = "GLOB")]
    pub allow: Vec<String>,
}
