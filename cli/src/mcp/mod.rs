//! `recall mcp`: the library served to agents over the Model Context Protocol, JSON-RPC on
//! standard input and output (the `rmcp` SDK). The tools are the query commands (and
//! `add`, `forget` with `--allow-writes`); each answers with the JSON object that
//! `recall --json COMMAND` prints, and each error is the command's one-line message as a
//! tool error.
mod arguments;
mod catalog;
mod decode;
mod server;
mod tools;
mod transport;
mod writes;

use crate::args::McpArgs;
use crate::err;
use crate::error::Result;
use crate::library::{self, Access};
use crate::settings::Globals;

/// Opens the library once and serves until the client closes the connection.
pub fn serve(mut g: Globals, a: &McpArgs) -> Result<i32> {
    g.dash_reads_stdin = false;
    let access = if a.allow_writes {
        Access::Write
    } else {
        Access::Read
    };
    let lib = library::open(g.db()?, access, g.tokenizer.as_deref())?;
    let server = server::Server::new(g, lib, a.access.clone(), a.allow_writes);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| err!("cannot start the server: {e}"))?;
    // One judge process serves every call.
    crate::line_process::keep_alive();
    let served = runtime.block_on(server.run());
    crate::line_process::shutdown();
    served?;
    Ok(0)
}
