//! The checks of the schema against the one the migrations define: its version, the
//! tokenizer recorded and declared, the index, the triggers and the other tables.
use std::process::Command;

use super::Report;
use crate::library::migrations;
use crate::library::schema::{self, Damage, Survey};
use crate::tokenizer;

pub(super) fn schema_version(r: &mut Report, s: &Survey) {
    let latest = migrations::latest_version();
    let user_version = s.user_version;
    match s.applied {
        Some(a) if a > i64::from(latest) => r.add(
            "schema",
            false,
            format!("the migrations log records migration {a}, newer than this recall knows ({latest}): upgrade recall"),
        ),
        Some(a) if user_version < a => r.add(
            "schema",
            false,
            format!("schema version {user_version}, but the migrations log (recall_migrations) records migrations up to {a}: user_version was changed by hand; run `recall repair` to restore it"),
        ),
        None if user_version < 1 => r.add(
            "schema",
            false,
            format!("schema version {user_version}, but the library holds the tables of version 1: user_version was changed by hand; run `recall repair` to restore it"),
        ),
        _ if s.version < latest => r.add(
            "schema",
            false,
            format!("schema version {} of {latest}: run `recall migrate`", s.version),
        ),
        _ => r.add("schema", true, format!("schema version {latest}")),
    }
}

pub(super) fn tokenizer_record(r: &mut Report, s: &Survey) {
    let declared = s.declared.as_deref();
    let index_says = match declared {
        Some(d) => format!("the one the index declares, '{d}'"),
        None => format!(
            "the default '{}', or the one given with --tokenizer",
            tokenizer::DEFAULT
        ),
    };
    match (&s.recorded, s.valid_record()) {
        (None, _) => r.add(
            "tokenizer",
            false,
            format!("the library records no tokenizer: run `recall repair` to record {index_says}"),
        ),
        (Some(raw), None) => r.add(
            "tokenizer",
            false,
            format!(
                "the library records '{}', which is not a tokenizer recall knows: run `recall repair` to record {index_says}",
                crate::text::field(raw)
            ),
        ),
        (Some(raw), Some(normal)) if *raw != normal => r.add(
            "tokenizer",
            false,
            format!("the library records '{}', not in its normal form '{normal}': run `recall repair`", crate::text::field(raw)),
        ),
        (Some(_), Some(recorded)) => match declared {
            None => r.add(
                "tokenizer",
                true,
                format!("'{recorded}' recorded; no index declares one (see index)"),
            ),
            Some(d) if d != recorded => r.add(
                "tokenizer",
                false,
                if tokenizer::parse(d).is_ok() {
                    format!("the index declares '{d}' but the library records '{recorded}': run `recall repair` to rebuild the index with '{recorded}', or `recall rebuild --tokenizer '{d}'` to record '{d}'")
                } else {
                    format!("the index declares '{d}', which is not a tokenizer recall knows, but the library records '{recorded}': run `recall repair` to rebuild the index with '{recorded}'")
                },
            ),
            Some(d) => r.add("tokenizer", true, format!("'{d}' (declared and recorded)")),
        },
    }
}

pub(super) fn configured_tokenizer(r: &mut Report, s: &Survey, configured: &str) {
    let c = tokenizer::normalize(configured);
    let recorded = s.valid_record().unwrap_or_else(|| s.tokenizer.clone());
    r.add(
        "configured tokenizer",
        c == recorded,
        if c == recorded {
            format!("'{c}' as configured")
        } else {
            format!("configured '{c}' but the library records '{recorded}': run `recall rebuild --tokenizer '{c}'` or configure '{recorded}'")
        },
    );
}

/// Informational: another SQLite's age is not a problem of the library.
pub(super) fn compatibility(s: &Survey) -> String {
    let spec = s.declared.as_deref().unwrap_or(&s.tokenizer);
    if tokenizer::needs_extension(spec) {
        return "the index uses the recall tokenizer: only a SQLite with sqlite-recall loaded can search it (`.load librecall0` in the sqlite3 shell, load() in Python or Node, the recall CLI, sqlite-recall-rusqlite)".to_string();
    }
    let needs = tokenizer::min_sqlite_version(spec);
    let needs_s = tokenizer::version_string(needs);
    let shell = Command::new("sqlite3")
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .split_whitespace()
                .next()
                .map(str::to_string)
        });
    match shell.as_deref().and_then(tokenizer::parse_version) {
        Some(v) if v >= needs => format!(
            "the index needs SQLite {needs_s}+; this machine's sqlite3 shell ({}) can open it",
            tokenizer::version_string(v)
        ),
        Some(v) => format!(
            "the index needs SQLite {needs_s}+; this machine's sqlite3 shell ({}) cannot search it",
            tokenizer::version_string(v)
        ),
        None => format!("the index needs SQLite {needs_s}+; no sqlite3 shell on this machine"),
    }
}

pub(super) fn index(r: &mut Report, s: &Survey, cannot_open: Option<&String>) {
    let damages = s.index_damages();
    if s.declared.is_none()
        || damages
            .iter()
            .any(|d| matches!(d, Damage::Missing { name, .. } if name == schema::INDEX))
    {
        r.add(
            "index",
            false,
            format!(
                "the index table {} is missing: run `recall repair`",
                schema::INDEX
            ),
        );
    } else if !damages.is_empty() {
        let list: Vec<String> = damages.iter().map(|d| d.to_string()).collect();
        r.add(
            "index",
            false,
            format!(
                "the index is damaged ({}): run `recall repair`",
                list.join(", ")
            ),
        );
    } else if let Some(e) = cannot_open {
        r.add(
            "index",
            false,
            format!("the index cannot be used ({e}): run `recall repair`"),
        );
    } else {
        r.add(
            "index",
            true,
            format!(
                "{} and its {} shadow tables as the migrations define them",
                schema::INDEX,
                s.reference.index_family.len().saturating_sub(1)
            ),
        );
    }
}

pub(super) fn triggers(r: &mut Report, s: &Survey) {
    let total = s
        .reference
        .objects
        .iter()
        .filter(|o| o.kind == "trigger")
        .count();
    let damaged: Vec<String> = s
        .damages
        .iter()
        .filter(|d| d.kind() == "trigger")
        .map(|d| d.to_string())
        .collect();
    if damaged.is_empty() {
        r.add(
            "triggers",
            true,
            format!("{total} triggers as the migrations define them"),
        );
    } else {
        r.add(
            "triggers",
            false,
            format!(
                "{}: the index no longer follows the items; run `recall repair`",
                damaged.join(", ")
            ),
        );
    }
}

/// Tables and indexes outside the FTS5 index.
pub(super) fn objects(r: &mut Report, s: &Survey) {
    let ours = |kind: &str, name: &str| {
        (kind == "table" || kind == "index") && !s.reference.is_index_part(name)
    };
    let (tables, indexes) = s.reference.objects.iter().fold((0, 0), |(t, i), o| {
        match (ours(&o.kind, &o.name), o.kind.as_str()) {
            (true, "table") => (t + 1, i),
            (true, _) => (t, i + 1),
            _ => (t, i),
        }
    });
    let damaged: Vec<String> = s
        .damages
        .iter()
        .filter(|d| ours(d.kind(), d.name()))
        .map(|d| d.to_string())
        .collect();
    if damaged.is_empty() {
        r.add(
            "tables",
            true,
            format!("{tables} tables and {indexes} indexes as the migrations define them"),
        );
    } else {
        r.add(
            "tables",
            false,
            format!("{}: run `recall repair`", damaged.join(", ")),
        );
    }
}
