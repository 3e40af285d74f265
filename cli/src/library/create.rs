//! Creating a library: every migration and the tokenizer record in one transaction.
use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use super::files::{kind_of, sidecar, SIDECARS};
use super::migrations::{self, latest_version};
use super::open::{
    busy_timeout, configure, is_empty_database, open_unchecked, Library, Mode, APPLICATION_ID,
};
use crate::error::{err, Context, Result};
use crate::tokenizer;

/// Creates a library: every migration and the tokenizer record in one transaction. The
/// path must be new, an empty file, or an empty database (an interrupted `init`). On
/// failure, only the files this command created are removed.
pub fn create(path: &Path, tokenizer_spec: &str) -> Result<Library> {
    let spec = tokenizer::parse(tokenizer_spec)?;
    tokenizer::ensure_buildable(&spec)?;
    let existing = kind_of(path)?;
    if let Some(meta) = &existing {
        if meta.len() > 0 {
            refuse_non_empty(path)?;
        }
    }
    let sidecars_before: Vec<bool> = SIDECARS.iter().map(|s| sidecar(path, s).exists()).collect();
    let created = if existing.is_none() {
        // create_new: this command owns the file only if it made it.
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| err!("cannot create {}: {e}", path.display()))?;
        true
    } else {
        false
    };
    // What this command made, and only that, goes when it fails or is interrupted.
    let mut made = Vec::new();
    if created {
        made.push(path.to_path_buf());
        for (suffix, existed) in SIDECARS.iter().zip(sidecars_before) {
            if !existed {
                made.push(sidecar(path, suffix));
            }
        }
    }
    let remove = move || {
        for file in &made {
            let _ = std::fs::remove_file(file);
        }
    };
    let guard = crate::interrupt::guard(
        format!("no library was created at {}", path.display()),
        Some(Box::new(remove.clone())),
    )?;
    let result = create_inner(path, &spec, &guard);
    if result.is_err() {
        remove();
    }
    result
}

/// A non-empty file is refused, unless it is an empty database an interrupted `init`
/// left behind.
fn refuse_non_empty(path: &Path) -> Result<()> {
    if open_unchecked(path, Mode::Read).is_ok() {
        return Err(err!(
            "{} is already a recall library: use it as it is, or `recall migrate` it",
            path.display()
        ));
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let empty = Connection::open_with_flags(path, flags)
        .ok()
        .and_then(|conn| {
            conn.busy_timeout(busy_timeout()).ok()?;
            is_empty_database(&conn).ok()
        })
        .unwrap_or(false);
    if empty {
        return Ok(());
    }
    Err(err!(
        "{} already exists and is not empty: choose another path",
        path.display()
    ))
}

fn create_inner(path: &Path, spec: &str, guard: &crate::interrupt::Guard) -> Result<Library> {
    let doing = format!("creating {}", path.display());
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut conn = Connection::open_with_flags(path, flags).context(&doing)?;
    configure(&conn)?;
    // The schema is written in rollback-journal mode, so that a killed init leaves an
    // empty file (rolled back from its journal), never a half-made library.
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Exclusive)
        .context(&doing)?;
    if !is_empty_database(&tx)? {
        return Err(err!(
            "{} was written by another process meanwhile: choose another path",
            path.display()
        ));
    }
    tx.execute_batch(&format!("pragma application_id = {APPLICATION_ID}"))
        .context(&doing)?;
    let target = crate::fault::init_version(latest_version());
    migrations::create_schema(&tx, spec, target)?;
    tx.execute_batch(&format!("pragma user_version = {target}"))
        .context(&doing)?;
    tx.execute(
        "insert into recall_meta(key, value) values ('tokenizer', ?1), ('created_by', ?2)",
        rusqlite::params![
            spec,
            format!("recall {}", recall_core::functions::version())
        ],
    )
    .context(&doing)?;
    crate::fault::pause_point("init", 1);
    guard.commit(|| tx.commit()).context(&doing)?;
    // WAL: any number of readers while one writer imports. Set outside a transaction.
    conn.query_row("pragma journal_mode = wal", [], |_| Ok(()))
        .context(&doing)?;
    Ok(Library {
        conn,
        path: path.to_path_buf(),
        tokenizer: spec.to_string(),
        schema_version: target,
    })
}
