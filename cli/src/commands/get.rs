//! `recall get ID`: one item, if the caller may read its source (`query::get`).
use super::Globals;
use crate::error::Result;
use crate::library::{self, Access};
use crate::text::field;
use crate::{output, query};

pub fn run(g: &Globals, id: i64, transcript: bool, allow: &[String]) -> Result<i32> {
    let lib = library::open(g.db()?, Access::Read, g.tokenizer.as_deref())?;
    let answer = query::get(&lib, id, transcript, &g.allow(allow))?;
    if g.json {
        output::json(&query::to_json(&answer)?);
        return Ok(0);
    }
    let item = &answer.item;
    crate::say!(
        "[{id}] {} {} ({}, {})",
        field(&item.occurred_at),
        field(&item.title),
        field(
            item.project
                .as_deref()
                .filter(|p| !p.is_empty())
                .unwrap_or("-")
        ),
        field(&item.source)
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
    if let Some(transcript) = &item.transcript {
        crate::say!("transcript:\n{}", indent(transcript));
    }
    Ok(0)
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
