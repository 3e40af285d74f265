//! Items as JSON Lines that `import` reads back into the same library: every field a line
//! of `import` takes (the id, kind and global mark among them), in id order, from
//! `sql/export.sql`, under the caller's access globs and filters, with secrets taken out
//! on the way (the rule of the writes, `Item::redact`), in one read transaction.
use std::io::Write;

use recall_core::redact::Counts;
use rusqlite::Connection;
use serde_json::{json, Map, Value};

use crate::error::{err, Context, Result};
use crate::item::Item;
use crate::library::sql_file::{self, int, queries, text};
use crate::settings::{kinds_param, sources_param, Filters};

/// What to export.
pub struct ExportRequest<'a> {
    pub filters: &'a Filters,
    /// The caller's access globs (None: every source).
    pub allow: &'a Option<Vec<String>>,
    pub transcripts: bool,
    /// Whether secrets are taken out of the text written.
    pub redact: bool,
}

/// What an export wrote.
#[derive(Debug, Default)]
pub struct Exported {
    pub count: usize,
    pub redacted: Counts,
}

/// Rows read at a time: the export's memory does not grow with the library.
const BATCH: i64 = 500;

/// One row of `sql/export.sql`: the item and its marks.
struct Row {
    item: Item,
    kind: Option<String>,
    global: bool,
}

/// Writes the items the request selects to `out`, one JSON object a line.
pub fn export(conn: &Connection, req: &ExportRequest, out: &mut dyn Write) -> Result<Exported> {
    // One snapshot: a write made meanwhile is in no batch or in all of them.
    let tx = conn
        .unchecked_transaction()
        .context("starting the export")?;
    let mut done = Exported::default();
    let mut after: Option<i64> = None;
    loop {
        let params = vec![
            (":project", text(req.filters.project.as_deref())),
            (":source", text(req.filters.source.as_deref())),
            (":since", text(req.filters.since.as_deref())),
            (":until", text(req.filters.until.as_deref())),
            (":kinds", text(kinds_param(&req.filters.kinds).as_deref())),
            (":sources", text(sources_param(req.allow).as_deref())),
            (":transcript", int(Some(i64::from(req.transcripts)))),
            (":after", int(after)),
            (":batch", int(Some(BATCH))),
        ];
        let rows = sql_file::read(&tx, queries::EXPORT, &params, |c| {
            Ok(Row {
                item: Item {
                    id: c.int("id")?,
                    source: c.text("source")?.unwrap_or_default(),
                    project: c.text("project")?,
                    title: c.text("title")?.unwrap_or_default(),
                    summary: c.text("summary")?.unwrap_or_default(),
                    questions: c.text("questions")?.unwrap_or_default(),
                    atoms: c.text("atoms")?.unwrap_or_default(),
                    occurred_at: c.text("occurred_at")?.unwrap_or_default(),
                    transcript: c.text("transcript")?,
                    embedding: None,
                },
                kind: c.text("kind")?,
                global: c.int("global")?.unwrap_or(0) != 0,
            })
        })?;
        let Some(last) = rows.last().and_then(|r| r.item.id) else {
            break;
        };
        after = Some(last);
        for mut row in rows {
            if req.redact {
                let found = row.item.redact();
                done.redacted.merge(&found);
            }
            // A map of strings, numbers and booleans: it always serialises.
            let line = line_of(row).to_string();
            writeln!(out, "{line}").map_err(|e| err!("writing the export failed: {e}"))?;
            done.count += 1;
        }
    }
    out.flush()
        .map_err(|e| err!("writing the export failed: {e}"))?;
    tx.commit().context("ending the export")?;
    Ok(done)
}

/// A line as `import` reads it: a field left out where the item has nothing (no
/// project, kind or transcript; not global), so that the line is the item's own.
fn line_of(row: Row) -> Value {
    let Row { item, kind, global } = row;
    let mut line = Map::new();
    line.insert("id".into(), json!(item.id));
    line.insert("source".into(), json!(item.source));
    if let Some(p) = item.project {
        line.insert("project".into(), json!(p));
    }
    line.insert("title".into(), json!(item.title));
    line.insert("summary".into(), json!(item.summary));
    line.insert("questions".into(), json!(item.questions));
    line.insert("atoms".into(), json!(item.atoms));
    line.insert("occurred_at".into(), json!(item.occurred_at));
    if let Some(k) = kind {
        line.insert("kind".into(), json!(k));
    }
    if global {
        line.insert("global".into(), json!(true));
    }
    if let Some(t) = item.transcript {
        line.insert("transcript".into(), json!(t));
    }
    Value::Object(line)
}
