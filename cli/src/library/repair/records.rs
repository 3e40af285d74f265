//! The records a repair writes again: the tokenizer's and the migrations log.
use rusqlite::Connection;

use crate::error::{Context, Result};
use crate::library::migrations;
use crate::library::schema::{Reference, Survey, TokenizerSource};

/// Records the tokenizer when the record is missing, unknown or not in normal form.
pub(super) fn record_tokenizer(
    conn: &Connection,
    survey: &Survey,
    done: &mut Vec<String>,
) -> Result<()> {
    if survey.recorded.as_deref() == Some(survey.tokenizer.as_str()) {
        return Ok(());
    }
    conn.execute(
        "insert or replace into recall_meta(key, value) values ('tokenizer', ?1)",
        [&survey.tokenizer],
    )
    .context("recording the tokenizer")?;
    let from = match survey.source {
        TokenizerSource::Recorded => "the record, in normal form",
        TokenizerSource::Configured => "as configured",
        TokenizerSource::Declared => "the one the index declared",
        TokenizerSource::Default => "the default: neither a record nor an index named one",
    };
    done.push(format!(
        "recorded tokenizer '{}' ({from})",
        survey.tokenizer
    ));
    Ok(())
}

/// The log lists every migration up to the library's version; rows lost with a dropped
/// log are written again, dated now (when they ran is not known).
pub(super) fn log_migrations(
    conn: &Connection,
    reference: &Reference,
    done: &mut Vec<String>,
) -> Result<()> {
    if reference.object("recall_migrations").is_none() {
        return Ok(());
    }
    let mut added = Vec::new();
    for (version, name, _) in migrations::MIGRATIONS
        .iter()
        .filter(|m| m.0 <= reference.version)
    {
        let n = conn
            .execute(
                "insert or ignore into recall_migrations (version, name, applied_at)
                 values (?1, ?2, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                rusqlite::params![version, name],
            )
            .context("recording the migrations")?;
        if n > 0 {
            added.push(version.to_string());
        }
    }
    if !added.is_empty() {
        done.push(format!(
            "recorded migrations {} in recall_migrations (dated now: when they ran is not known)",
            added.join(", ")
        ));
    }
    Ok(())
}
