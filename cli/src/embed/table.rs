//! The vector table without an embedder: removed (`--drop`), or made for a model and a
//! size given by hand (`--model NAME --dimensions N`).
use rusqlite::Connection;

use crate::error::{Context, Result};
use crate::library::turn;
use crate::vectors::store;

/// Removes the vectors; whether there were any.
pub fn drop_vectors(conn: &Connection) -> Result<bool> {
    let tx = turn::immediate(conn).context("removing the vectors")?;
    // The record is not read: a damaged one is what --drop is for.
    let had = store::exists(&tx)?;
    store::drop(&tx)?;
    tx.commit().context("removing the vectors")?;
    Ok(had)
}

/// Makes the table for `model` and `dims`, or checks that the library's is for them;
/// whether it was made.
pub fn make_table(conn: &Connection, model: &str, dims: usize) -> Result<bool> {
    let tx = turn::immediate(conn).context("making the vector table")?;
    let made = match store::read(&tx)? {
        Some(s) => {
            s.check(model, dims, "--model and --dimensions")?;
            false
        }
        None => {
            store::create(&tx, model, dims)?;
            true
        }
    };
    tx.commit().context("making the vector table")?;
    Ok(made)
}
