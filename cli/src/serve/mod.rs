//! What the two servers share, `recall mcp` (stdio and HTTP) and `recall ui` (the review
//! page): the library held open as a pool of readers and one writer (`libraries`), the
//! signals' watch over a write (`signals`), the HTTP checks of a connection and of a
//! request's headers (`limits`, `headers`), and the tools: one table of them (`table`),
//! their inputs (`tools`, `schema`, `arguments`) and the one function that answers a call
//! (`Tool::call`, `answer`), which the MCP server calls for its clients and the page for
//! its search and its item's neighbours. What is each server's own stays with it: the
//! MCP protocol, its tokens and its call log in `mcp`; the page, its actions and its
//! tokens in `ui`.
pub(crate) mod answer;
pub(crate) mod arguments;
pub(crate) mod headers;
pub(crate) mod libraries;
pub(crate) mod limits;
pub(crate) mod schema;
pub(crate) mod signals;
pub mod table;
pub(crate) mod tools;
mod writes;
