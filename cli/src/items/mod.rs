//! The writes of items: adding one, importing many, forgetting them, marking them global
//! (`marks`), and the one insert they share (`writer`), bound by the one set of options of
//! each route (`options`). The commands and the MCP server both write through here.
pub mod add;
pub mod export;
pub mod forget;
pub mod import;
pub mod marks;
pub mod options;
pub mod writer;
