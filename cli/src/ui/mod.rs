//! `recall ui`: a local web page where a person reviews what the agents remember
//! (docs/ui.md). One server on 127.0.0.1 (`server`) answers the page (`page`: HTML, CSS
//! and script embedded in the binary) and a small JSON API (`api`) whose every answer
//! comes from the code the commands run: the read path (`query`), the writes of items
//! (`items`), the session hook's text (`hook::context`) and the status
//! (`status`). What it shares with `recall mcp` is `serve`'s: the library's readers and
//! writer, the signals' watch, the tools (a search is the `search` tool's call) and the
//! HTTP checks (`serve::headers`, `limits`) that guard it, with a random token in the
//! printed URL and a token per page for the writes.
mod api;
mod page;
mod server;
pub mod status;
mod token;

use crate::args::{Cli, UiArgs};
use crate::error::{err, Result};
use crate::serve::libraries::Libraries;
use crate::settings::Globals;

/// `recall ui`: opens the library for reading and writing (only for reading when it
/// cannot be written: a read-only file, a replica), and serves until the process is
/// stopped.
pub fn run(cli: &Cli, a: &UiArgs) -> Result<i32> {
    let mut g = Globals::resolve(cli)?;
    // The page reads answers as JSON whatever --json says; the hook's text is its own.
    g.json = false;
    g.dash_reads_stdin = false;
    let db = g.db()?;
    let (libraries, read_only) = match Libraries::open(db, g.tokenizer.as_deref(), true) {
        Ok(libraries) => (libraries, None),
        Err(unwritable) => match Libraries::open(db, g.tokenizer.as_deref(), false) {
            Ok(libraries) => (libraries, Some(unwritable.message)),
            // Not a library it can read either: the reason it cannot write says more.
            Err(_) => return Err(unwritable),
        },
    };
    if let Some(reason) = &read_only {
        eprintln!(
            "recall ui: the page only reads: {}",
            crate::text::field(reason)
        );
    }
    let api = api::Api::new(g, libraries, a.access.clone(), read_only);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| err!("cannot start the server: {e}"))?;
    crate::serve::signals::watch()?;
    crate::line_process::keep_alive();
    let served = runtime.block_on(server::run(api, a.port, a.public));
    crate::line_process::stop_all();
    drop(runtime);
    served?;
    Ok(0)
}
