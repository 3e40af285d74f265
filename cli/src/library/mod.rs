//! The library file itself: opening and creating it, its migrations, the schema they
//! define and how a library departs from it, the columns of `items`, the rows the
//! queries cannot read, the one reader of FTS5's records, the FTS5 index's checks
//! and rebuild, the neighbours' titles each item is indexed with, the wipe that leaves no copy of a forgotten item in the file,
//! the library's health as `recall check` reports it, its repair, and `optimize`.
//!
//! The parts depend on each other in one direction only: `migrations`, `files`,
//! `columns`, `context` and `fts_records` use none of the others; `schema` uses `migrations`;
//! `unreadable` uses `columns` and `schema`; `reindex` uses them and `context`; `index_check` uses
//! `fts_records` and `reindex`; `open` uses `files`, `migrations`, `schema` and `wipe` (a
//! write finishes a wipe left pending); `wipe` uses `files`; `create` uses `open`; `turn` (the writers' turns) uses `files` and
//! `open`; `health` uses `open`, `schema`, `index_check`, `columns`, `context`, `unreadable`,
//! `wipe` and `replica`; `repair` uses `schema`, `migrations`, `context`, `turn` and `open`;
//! `optimize` uses `turn` and `open`.
pub mod atom_keys;
pub mod capture_records;
pub mod columns;
pub mod context;
mod create;
mod files;
pub mod fts_records;
pub mod health;
pub mod index_check;
pub mod migrations;
mod open;
mod optimize;
pub mod reindex;
pub mod repair;
pub mod replica;
pub mod runs;
pub mod schema;
pub mod script;
pub mod sessions;
pub mod sql_file;
pub mod turn;
pub mod unreadable;
pub mod wipe;

pub use create::create;
pub use files::{ensure_writable, sidecar};
pub use open::{
    cap_busy_timeout, check_configured, configure_sqlite, ensure_present, ensure_recorded, open,
    open_unchecked, set_busy_timeout, Library, Mode, BUSY_TIMEOUT,
};
pub use optimize::optimize;
