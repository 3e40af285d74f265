//! The sqlite-recall loadable extension. `.load path/to/librecall0` finds
//! `sqlite3_recall_init` by itself. This file only registers; see `sqlite_loadable_adapter.rs`.
mod sqlite_loadable_adapter;

use sqlite_loadable::prelude::*;

#[sqlite_entrypoint]
pub fn sqlite3_recall_init(db: *mut sqlite3) -> sqlite_loadable::Result<()> {
    sqlite_loadable_adapter::register_all(db)
}
