//! The library file itself: opening and creating it, its migrations, the schema they
//! define and how a library departs from it, the rows the queries cannot read, the one
//! reader of FTS5's records, and the checks of its FTS5 index.
//!
//! The parts depend on each other in one direction only: `migrations`, `files` and
//! `fts_records` use none of the others; `schema` uses `migrations`; `unreadable` uses
//! `schema`; `index_check` uses `fts_records`; `open` uses `files`, `migrations` and
//! `schema`; `create` uses `open`.
pub mod columns;
mod create;
mod files;
pub mod fts_records;
pub mod index_check;
pub mod migrations;
mod open;
pub mod reindex;
pub mod schema;
pub mod unreadable;

pub use create::create;
pub use files::sidecar;
pub use open::{
    check_configured, ensure_recorded, open, open_unchecked, set_busy_timeout, Access, Library,
};
