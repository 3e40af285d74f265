//! One module per command; `dispatch` resolves the settings they share.
mod check;
mod eval;
mod get;
mod import;
pub use import::insert_item as import_item;
mod init;
mod maintain;
pub mod queries;

use std::path::PathBuf;

use crate::args::{Cli, Command};
use crate::config::Config;
use crate::err;
use crate::error::Result;

/// What every command may need: the library path, configuration and global flags.
pub struct Globals {
    pub db: Option<PathBuf>,
    pub config: Config,
    /// The tokenizer of the flag, else of the config.
    pub tokenizer: Option<String>,
    pub json: bool,
}

impl Globals {
    pub fn db(&self) -> Result<&PathBuf> {
        self.db
            .as_ref()
            .ok_or_else(|| err!("no library given: pass --db PATH or set RECALL_DB"))
    }

    /// Allowed source globs: the flags, else the config, else every source (None).
    pub fn allow(&self, flags: &[String]) -> Option<Vec<String>> {
        if !flags.is_empty() {
            Some(flags.to_vec())
        } else {
            self.config.access.allow.clone()
        }
    }
}

pub fn dispatch(cli: Cli) -> Result<i32> {
    let config = Config::load(cli.config.as_deref())?;
    if let Some(ms) = config.storage.busy_timeout_ms {
        // The config's range (bounds::BUSY_TIMEOUT_MS) keeps it non-negative.
        crate::library::set_busy_timeout(std::time::Duration::from_millis(ms.unsigned_abs()));
    }
    let tokenizer = cli
        .tokenizer
        .clone()
        .or_else(|| config.storage.tokenizer.clone());
    let g = Globals {
        db: cli.db,
        config,
        tokenizer,
        json: cli.json,
    };
    match cli.command {
        Command::Init => init::run(&g),
        Command::Migrate => maintain::migrate(&g),
        Command::Check => check::run(&g),
        Command::Rebuild => maintain::rebuild(&g),
        Command::Import {
            file,
            skip_duplicates,
        } => import::run(&g, &file, skip_duplicates),
        Command::Get {
            id,
            transcript,
            access,
        } => get::run(&g, id, transcript, &access.allow),
        Command::Optimize => maintain::optimize(&g),
        Command::Search(a) => queries::search(&g, &a),
        Command::Later(a) => queries::later(&g, &a),
        Command::Timeline(a) => queries::timeline(&g, &a),
        Command::Related(a) => queries::related(&g, &a),
        Command::Eval(a) => eval::run(&g, &a),
        Command::ImportLocomo { file, cases } => eval::import_locomo(&g, &file, &cases),
    }
}
