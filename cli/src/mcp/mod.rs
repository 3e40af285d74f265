//! `recall mcp`: the library served to agents over the Model Context Protocol, JSON-RPC on
//! standard input and output (the `rmcp` SDK), or with `--http` over MCP's streamable
//! HTTP transport to agents on other machines, each with a bearer token (`http`,
//! `grants`). The tools are the query commands (and `add`, `forget` with
//! `--allow-writes`), one table of them (`serve::table`, which the review page calls
//! too); each answers with the JSON object that `recall --json COMMAND` prints, and each
//! error is the command's one-line message as a tool error.
mod calls;
mod catalog;
mod decode;
mod grants;
mod http;
mod server;
mod transport;

use crate::args::McpArgs;
use crate::error::{err, Result};
use crate::serve::{libraries, signals};
use crate::settings::Globals;

/// Opens the library once and serves until the client closes the connection.
pub fn serve(mut g: Globals, a: &McpArgs) -> Result<i32> {
    g.dash_reads_stdin = false;
    // Over HTTP: the address and the tokens checked before the library is opened.
    let http = match &a.http.addr {
        Some(given) => Some((
            http::address(given, a.http.public)?,
            grants::Tokens::resolve(&g.config, &a.http, &a.access, a.allow_writes)?,
            http::origins(&a.http.allow_origins)?,
        )),
        None => None,
    };
    let libraries = libraries::Libraries::open(g.db()?, g.tokenizer.as_deref(), a.allow_writes)?;
    let server = server::Server::new(
        g,
        libraries,
        a.access.clone(),
        a.allow_writes,
        a.http.log_arguments,
    );
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| err!("cannot start the server: {e}"))?;
    signals::watch()?;
    // One judge process serves every call.
    crate::line_process::keep_alive();
    let served = match http {
        Some((addr, tokens, origins)) => {
            runtime.block_on(http::run(server, tokens, addr, a.http.public, origins))
        }
        None => runtime.block_on(server.run()),
    };
    // The calls still running lose their helpers and end; the runtime waits for them
    // as it drops (a write finishes).
    crate::line_process::stop_all();
    drop(runtime);
    served?;
    Ok(0)
}
