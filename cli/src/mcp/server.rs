//! The MCP handler: lists the tools and runs each call on the blocking pool, reads on
//! connections of their own and writes one at a time (`serve::libraries`), each by the
//! tools' one function (`Tool::call`). A call the client cancels stops its helpers' work
//! at once; a panic in one is caught and answered as a tool error, and the server goes
//! on.
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value as Json};

use super::grants::Grant;
use super::{calls, catalog};
use crate::args::AccessArgs;
use crate::error::{err, Result};
use crate::library::Library;
use crate::line_process::{self, Cancel};
use crate::serve::libraries::Libraries;
use crate::serve::table::{self, Access};
use crate::settings::Globals;

#[derive(Clone)]
pub struct Server {
    shared: Arc<Shared>,
}

struct Shared {
    globals: Globals,
    /// The server's `--allow` flags, resolved against the configuration on each call
    /// exactly as a command's are.
    access: AccessArgs,
    writes: bool,
    tools: Vec<Tool>,
    libraries: Libraries,
    /// Whether a token's call log line holds its arguments and error message.
    log_arguments: bool,
}

impl Server {
    pub fn new(
        globals: Globals,
        libraries: Libraries,
        access: AccessArgs,
        writes: bool,
        log_arguments: bool,
    ) -> Server {
        let tools = catalog::tools(&globals.config, writes);
        Server {
            shared: Arc::new(Shared {
                globals,
                access,
                writes,
                tools,
                libraries,
                log_arguments,
            }),
        }
    }

    /// The grant of the call's caller: its token's over HTTP, the server's on stdio.
    fn grant(&self, extensions: &rmcp::model::Extensions) -> Arc<Grant> {
        super::grants::grant_of(extensions)
            .unwrap_or_else(|| Arc::new(Grant::server(&self.shared.access, self.shared.writes)))
    }

    /// Serves on standard input and output until the client closes them.
    pub async fn run(self) -> Result<()> {
        let service = self
            .serve(super::transport::stdio())
            .await
            .map_err(|e| err!("the MCP connection failed to start: {e}"))?;
        service
            .waiting()
            .await
            .map_err(|e| err!("the MCP server stopped: {e}"))?;
        Ok(())
    }
}

/// How to read the library, which the server tells a client of itself, followed by
/// what the session hook says of every block it injects (`memory_block::FRAME`): the
/// items are data.
const READING: &str = "A library of past work (sessions, decisions, error messages), \
     searched by literal words. Read it in three steps: an index of hits (related with the \
     session's first prompt, or search), then timeline with around an id for the items \
     just before and after it, then get with ids for the few chosen, in one call. later \
     shows what happened after an item.";

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("recall", env!("CARGO_PKG_VERSION")))
            .with_instructions(format!("{READING} {}", crate::memory_block::FRAME))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> std::result::Result<ListToolsResult, ErrorData> {
        // A token that may not write is not offered the tools that write.
        let writes = self.grant(&context.extensions).writes;
        let tools =
            self.shared.tools.iter().filter(|t| {
                writes || table::tool(&t.name).is_some_and(|t| t.access == Access::Read)
            });
        Ok(ListToolsResult::with_all_items(tools.cloned().collect()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.shared.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> std::result::Result<CallToolResponse, ErrorData> {
        let Some(tool) = table::tool(&request.name) else {
            let name = &request.name;
            // The tools this server lists: a write tool is no option without
            // --allow-writes.
            let names: Vec<&str> = self.shared.tools.iter().map(|t| t.name.as_ref()).collect();
            return Err(ErrorData::invalid_params(
                format!("unknown tool {name:?} (known: {})", names.join(", ")),
                None,
            ));
        };
        let grant = self.grant(&context.extensions);
        let started = std::time::Instant::now();
        let logged = grant
            .token
            .then(|| (grant.clone(), request.arguments.clone()));
        let shared = self.shared.clone();
        let arguments = request.arguments;
        let request_id = serde_json::to_value(&context.id).unwrap_or(Json::Null);
        let cancel = Arc::new(Cancel::default());
        let scope = cancel.clone();
        let call = tokio::task::spawn_blocking(move || {
            line_process::within(&scope, || {
                catch_unwind(AssertUnwindSafe(|| {
                    shared.call(tool, arguments.as_ref(), request_id, &grant)
                }))
            })
        });
        tokio::pin!(call);
        let mut cancelled = false;
        let outcome = tokio::select! {
            outcome = &mut call => outcome,
            () = context.ct.cancelled() => {
                // The helpers' waits end now; the call returns as soon as it can, and
                // no one reads its answer.
                cancel.cancel();
                cancelled = true;
                call.await
            }
        };
        let result = match outcome {
            Ok(Ok(Ok(answer))) => answered(answer),
            Ok(Ok(Err(e))) => refused(&e.message),
            Ok(Err(_)) | Err(_) => refused(
                "the call failed inside recall (a bug: please report it with the arguments); \
                 nothing was written, and the server goes on",
            ),
        };
        if let Some((grant, arguments)) = logged {
            let outcome = if cancelled {
                calls::Outcome::Cancelled
            } else if result.is_error == Some(true) {
                calls::Outcome::Error(tool_text(&result))
            } else {
                calls::Outcome::Ok
            };
            let arguments = self.shared.log_arguments.then_some(arguments);
            calls::log(
                &grant.name,
                &request.name,
                started.elapsed(),
                &outcome,
                arguments,
            );
        }
        Ok(result.into())
    }
}

/// The answer as structured content, and the same object as the text `--json` prints.
fn answered(answer: Json) -> CallToolResult {
    let text = serde_json::to_string_pretty(&answer).unwrap_or_else(|_| answer.to_string());
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(answer);
    result
}

/// The text of a tool error.
fn tool_text(result: &CallToolResult) -> String {
    result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

fn refused(message: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message.to_string())])
}

impl Shared {
    fn call(
        &self,
        tool: &'static table::Tool,
        arguments: Option<&Map<String, Json>>,
        request_id: Json,
        grant: &Grant,
    ) -> Result<Json> {
        let name = tool.name;
        // The schema the client was given checks its arguments.
        let schema = self
            .tools
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.input_schema.as_ref());
        let call = |lib: &mut Library| {
            tool.call(&self.globals, &grant.access, lib, arguments, schema)?
                .into_json()
        };
        match tool.access {
            Access::Write if !self.writes => Err(err!(
                "{name} writes to the library, and this server only reads: start it with `recall mcp --allow-writes`"
            )),
            Access::Write if !grant.writes => Err(err!(
                "{name} writes to the library, and the token {:?} may only read: give it \
                 writes = true in [tokens.{}] of the server's configuration",
                grant.name,
                grant.name
            )),
            Access::Write => self.libraries.write(
                || err!("this server opened the library only for reading"),
                name,
                tool.done,
                request_id,
                call,
            ),
            Access::Read => self.libraries.read(call),
        }
    }
}
