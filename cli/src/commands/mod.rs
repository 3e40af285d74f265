//! The command line: one module per command, each of which resolves its settings
//! (`settings`), calls the read path (`query`) or the writes of items (`items`) and
//! prints.
mod add;
mod capture;
mod check;
mod embed;
mod eval;
mod export;
mod forget;
mod get;
mod import;
mod init;
mod kind;
mod later;
mod maintain;
mod promote;
mod related;
mod repair;
mod search;
mod setup;
mod sql;
pub(crate) mod status;
mod timeline;

use crate::args::{Cli, Command};
use crate::error::Result;
pub use crate::settings::Globals;

pub fn dispatch(cli: Cli) -> Result<i32> {
    let g = Globals::resolve(&cli)?;
    match cli.command {
        Command::Init => init::run(&g),
        Command::Migrate => maintain::migrate(&g),
        Command::Check => check::run(&g),
        Command::Status { access } => status::run(&g, &access),
        Command::Rebuild => maintain::rebuild(&g),
        Command::Repair => repair::run(&g),
        Command::Import {
            file,
            skip_duplicates,
            redact,
            access,
        } => import::run(
            &g,
            &file,
            skip_duplicates,
            redact.on(g.config.redact.enabled),
            &access.allow,
        ),
        Command::Add(a) => add::run(&g, &a),
        Command::Export(a) => export::run(&g, &a),
        Command::Capture(a) => capture::run(&g, &a),
        Command::Forget(a) => forget::run(&g, &a),
        // Served by `crate::entry::run`: the hook is a front end of its own (`crate::hook`).
        Command::Hook(_) => Ok(0),
        Command::Get {
            id,
            transcript,
            show_sql,
            access,
        } => get::run(&g, &id, transcript, show_sql, &access.allow),
        Command::Promote(a) => promote::run(&g, &a, true),
        Command::Demote(a) => promote::run(&g, &a, false),
        Command::Kind(a) => kind::run(&g, &a),
        // Served by `crate::entry::run`: the page is a front end above the commands.
        Command::Ui(_) => Ok(0),
        Command::Optimize => maintain::optimize(&g),
        Command::Embed(a) => embed::run(&g, &a),
        Command::Search(a) => search::run(&g, &a),
        Command::Later(a) => later::run(&g, &a),
        Command::Timeline(a) => timeline::run(&g, &a),
        Command::Related(a) => related::run(&g, &a),
        Command::Eval(a) => eval::run(&g, &a),
        Command::ImportLocomo {
            file,
            cases,
            per_session,
        } => eval::import_locomo(&g, &file, &cases, per_session),
        Command::Sql(a) => sql::run(&g, &a),
        Command::Mcp(a) => crate::mcp::serve(g, &a),
        Command::Setup(a) => setup::run(&g, &a),
    }
}
