//! The `recall` command's library: everything `main.rs` dispatches to.
pub mod functions;
