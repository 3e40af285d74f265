//! `recall get ID`: one item, if the caller may read its source.
use rusqlite::{named_params, OptionalExtension};
use serde::Serialize;

use super::Globals;
use crate::err;
use crate::error::{Context, Result};
use crate::library::{self, Access};
use crate::output;

#[derive(Serialize)]
struct Item {
    id: i64,
    source: String,
    project: Option<String>,
    title: String,
    summary: String,
    questions: String,
    atoms: String,
    occurred_at: String,
    imported_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    transcript: Option<String>,
}

pub fn run(g: &Globals, id: i64, transcript: bool, allow: &[String]) -> Result<i32> {
    let lib = library::open(g.db()?, Access::Read, g.tokenizer.as_deref())?;
    let sources = g
        .allow(allow)
        .map(|globs| serde_json::json!(globs).to_string());
    let item = lib
        .conn
        .query_row(
            library::query_sql("get"),
            named_params! { ":id": id, ":sources": sources, ":transcript": transcript },
            |r| {
                Ok(Item {
                    id: r.get(0)?,
                    source: r.get(1)?,
                    project: r.get(2)?,
                    title: r.get(3)?,
                    summary: r.get(4)?,
                    questions: r.get(5)?,
                    atoms: r.get(6)?,
                    occurred_at: r.get(7)?,
                    imported_at: r.get(8)?,
                    transcript: r.get(9)?,
                })
            },
        )
        .optional()
        .context("reading the item")?
        .ok_or_else(|| err!("no item {id} in {}", lib.path.display()))?;
    if g.json {
        output::json(&serde_json::json!({ "item": item }));
        return Ok(0);
    }
    crate::say!(
        "[{}] {} {} ({}, {})",
        item.id,
        &item.occurred_at,
        item.title,
        item.project.as_deref().unwrap_or("-"),
        item.source
    );
    for (label, text) in [
        ("summary", &item.summary),
        ("questions", &item.questions),
        ("atoms", &item.atoms),
    ] {
        if !text.is_empty() {
            crate::say!("{label}:\n{}", indent(text));
        }
    }
    if let Some(t) = &item.transcript {
        crate::say!("transcript:\n{}", indent(t));
    }
    Ok(0)
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
