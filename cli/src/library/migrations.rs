//! The migrations of `sql/migrations`, embedded by the build script, and how they are
//! applied: all at once in the transaction that creates a library, or each pending one
//! in its own transaction (`recall migrate`).
use rusqlite::{Connection, Transaction};

use crate::error::{Context, Result};
use crate::{fault, interrupt, tokenizer};

include!(concat!(env!("OUT_DIR"), "/migrations.rs"));

/// The migration after which an item's neighbours are of its own source.
const NEIGHBOURS_OF_ONE_SOURCE: u32 = 7;

/// The migration that creates the runs of the items' text (`library::runs`).
pub const RUNS: u32 = 9;

/// The SQL of migration `version`, as written (with the default tokenizer).
pub fn sql_of(version: u32) -> Option<&'static str> {
    MIGRATIONS.iter().find(|m| m.0 == version).map(|m| m.2)
}

pub fn latest_version() -> u32 {
    MIGRATIONS.last().map(|m| m.0).unwrap_or(0)
}

/// A migration's SQL with the library's tokenizer in its tokenize clause: as written,
/// a migration builds the default one (a test checks the clause is there to replace).
pub fn migration_sql(sql: &str, tokenizer: &str) -> String {
    sql.replace(
        &format!("tokenize = {}", tokenizer::sql_literal(tokenizer::DEFAULT)),
        &format!("tokenize = {}", tokenizer::sql_literal(tokenizer)),
    )
}

/// Records an applied migration in `recall_migrations`, which exists from version 2.
fn log_migration(tx: &Transaction, version: u32, name: &str) -> Result<()> {
    if version >= 2 {
        tx.execute(
            "insert into recall_migrations (version, name, applied_at)
             values (?1, ?2, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
            rusqlite::params![version, name],
        )
        .context("recording the migration")?;
    }
    Ok(())
}

/// Runs every migration up to `target` in the transaction that creates a library, with
/// tokenizer `spec`.
pub fn create_schema(tx: &Transaction, spec: &str, target: u32) -> Result<()> {
    for (version, name, sql) in MIGRATIONS.iter().filter(|m| m.0 <= target) {
        let doing = format!("applying migration {version:04}_{name}");
        tx.execute_batch(&migration_sql(sql, spec))
            .context(&doing)?;
        if *version == 1 {
            // Migration 0002 reads the creation time to date migration 1.
            tx.execute(
                "insert into recall_meta(key, value) values ('created_at', strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                [],
            )
            .context(&doing)?;
        }
        log_migration(tx, *version, name)?;
    }
    Ok(())
}

/// Applies the migrations above `version`, each in its own transaction, with the
/// library's tokenizer; `version` follows each commit.
pub fn migrate(conn: &mut Connection, tokenizer: &str, version: &mut u32) -> Result<()> {
    let from = *version;
    for (next, name, sql) in MIGRATIONS.iter().filter(|m| m.0 > from) {
        let doing = format!("applying migration {next:04}_{name}");
        let guard = interrupt::guard(
            format!(
                "migration {next:04}_{name} was not applied; the library is at schema version {version}"
            ),
            None,
        )?;
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .context(&doing)?;
        tx.execute_batch(&migration_sql(sql, tokenizer))
            .context(&doing)?;
        if *next == NEIGHBOURS_OF_ONE_SOURCE {
            // The contexts changed: vectors made with the old ones (vec0 is out of the
            // migration's reach in a host without sqlite-vec) go, and `recall embed`
            // makes them again.
            crate::vectors::store::drop_stale(&tx)?;
        }
        log_migration(&tx, *next, name)?;
        tx.execute_batch(&format!("pragma user_version = {next}"))
            .context(&doing)?;
        fault::pause_point("migrate", i64::from(*next));
        guard.commit(|| tx.commit()).context(&doing)?;
        *version = *next;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_migrations_build_the_default_tokenizer_or_the_one_given() {
        let (_, _, first) = MIGRATIONS[0];
        let words = migration_sql(first, "unicode61 remove_diacritics 2");
        assert_ne!(
            words, first,
            "the default tokenize clause is there to replace"
        );
        assert!(words.contains("tokenize = 'unicode61 remove_diacritics 2'"));
        assert!(!words.contains(tokenizer::DEFAULT));
        assert_eq!(migration_sql(first, tokenizer::DEFAULT), first);
    }
}
