//! `recall migrate`, `recall rebuild`, `recall optimize`: each in one transaction, so
//! an interrupted command leaves the library exactly as it was.
use std::time::Instant;

use serde_json::json;

use super::Globals;
use crate::error::{err, Result};
use crate::library::{self, index_check, migrations, reindex, schema, Mode};
use crate::{interrupt, output, tokenizer};

pub fn migrate(g: &Globals) -> Result<i32> {
    let mut lib = library::open_unchecked(g.db()?, Mode::Write)?;
    library::ensure_recorded(&lib)?;
    if let Some(why) = schema::version_mismatch(&lib.conn) {
        return Err(err!("{} cannot be migrated: {why}", lib.path.display()));
    }
    schema::ensure_sound(&lib.conn, &lib.tokenizer)?;
    library::check_configured(&lib, g.tokenizer.as_deref())?;
    let from = lib.schema_version;
    migrations::migrate(&mut lib.conn, &lib.tokenizer, &mut lib.schema_version)?;
    // The items migrations 0008 and 0009 list get the keys of their atom lines and the
    // runs of their text: every write's commit makes them (`library::atom_keys`,
    // `library::runs`), this one has nothing else to do.
    library::turn::immediate(&lib.conn)
        .and_then(|tx| tx.commit())
        .map_err(|e| {
            crate::error::Error::sqlite(
                "making the keys of the items' atom lines and the runs of their text",
                &e,
            )
        })?;
    let to = lib.schema_version;
    if g.json {
        output::json(
            &json!({ "command": "migrate", "from": from, "to": to, "applied": to - from }),
        );
    } else if from == to {
        crate::output::say!("{} is up to date (schema version {to})", lib.path.display());
    } else {
        crate::output::say!(
            "migrated {} from schema version {from} to {to}",
            lib.path.display()
        );
    }
    Ok(0)
}

pub fn rebuild(g: &Globals) -> Result<i32> {
    let lib = library::open_unchecked(g.db()?, Mode::Write)?;
    library::ensure_recorded(&lib)?;
    if let Some(why) = schema::version_mismatch(&lib.conn) {
        return Err(err!("{}: {why}", lib.path.display()));
    }
    if lib.schema_version < migrations::latest_version() {
        return Err(err!(
            "{} needs `recall migrate` before a rebuild",
            lib.path.display()
        ));
    }
    let target = match &g.tokenizer {
        Some(spec) => tokenizer::parse(spec)?,
        None => lib.tokenizer.clone(),
    };
    schema::ensure_index_sound(&lib.conn, &lib.tokenizer)?;
    // The index, not the record, tells what it is built with: after a hand edit of the
    // record they differ, and a rebuild with the recorded tokenizer must recreate it.
    let declared = schema::index_sql(&lib.conn)?
        .as_deref()
        .and_then(tokenizer::declared);
    let started = Instant::now();
    let from = lib.tokenizer.clone();
    let guard = interrupt::guard(
        "the index was not rebuilt; the library is as it was".to_string(),
        None,
    )?;
    let items = reindex::count_items(&lib.conn)?;
    let rebuilt = reindex::rebuild(
        &lib.conn,
        &guard,
        declared.as_deref(),
        &target,
        &from,
        || output::progress("reindexing", items, g.json),
    );
    if let Err(e) = rebuilt {
        // Damaged pages stop FTS5's rebuild, which reads the index it replaces; repair
        // builds it again from the items without reading it.
        if e.kind == crate::error::Kind::Corrupt && index_check::items_sound(&lib.conn) {
            return Err(err!(
                "the index's pages are damaged, and a rebuild reads them: run `recall repair`, which builds the index again from the items; the library is as it was"
            ));
        }
        return Err(e);
    }
    let seconds = started.elapsed().as_secs_f64();
    if g.json {
        output::json(&json!({
            "command": "rebuild", "items": items, "tokenizer": target, "previous_tokenizer": from, "seconds": seconds,
        }));
    } else if target == from {
        crate::output::say!(
            "rebuilt the index of {items} items (tokenizer '{target}') in {seconds:.2} s"
        );
    } else {
        crate::output::say!("switched the tokenizer from '{from}' to '{target}' and reindexed {items} items in {seconds:.2} s");
    }
    Ok(0)
}

pub fn optimize(g: &Globals) -> Result<i32> {
    let lib = library::open(g.db()?, Mode::Write, g.tokenizer.as_deref())?;
    let started = Instant::now();
    library::optimize(&lib)?;
    let seconds = started.elapsed().as_secs_f64();
    if g.json {
        output::json(&json!({ "command": "optimize", "optimized": true, "seconds": seconds }));
    } else {
        crate::output::say!("optimized the index and refreshed statistics in {seconds:.2} s");
    }
    Ok(0)
}
