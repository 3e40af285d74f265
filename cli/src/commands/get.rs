//! `recall get ID…`: items in full, if the caller may read their source (`query::get`,
//! `query::get_many`). One id is one item, or an error; several are shown one after
//! another, each under a rule, and an id that names no item the caller may read is
//! named, not fatal.
use super::Globals;
use crate::error::Result;
use crate::query::changed::{self, Here};
use crate::query::rows::ItemRow;
use crate::text::field;
use crate::{output, query};

/// The exit status of a `get` of several ids some of which named no item the caller may
/// read: the others were shown.
const EXIT_SOME_MISSING: i32 = 1;

pub fn run(
    g: &Globals,
    ids: &[i64],
    transcript: bool,
    show_sql: bool,
    allow: &[String],
) -> Result<i32> {
    let lib = g.open_for_query()?;
    let allow = g.allow(allow);
    let here = Here::current(&g.config.projects);
    if let [id] = ids {
        let mut answer = query::get(&lib, *id, transcript, &allow)?;
        changed::mark_items(here.as_ref(), std::slice::from_mut(&mut answer.item));
        if show_sql {
            output::replay(&lib, answer.ran.as_ref());
        } else if g.json {
            output::json(&query::to_json(&answer)?);
        } else {
            show(&answer.item);
        }
        return Ok(0);
    }
    let mut answer = query::get_many(&lib, ids, transcript, &allow)?;
    changed::mark_items(here.as_ref(), &mut answer.items);
    if show_sql {
        output::replay(&lib, answer.ran.as_ref());
        return Ok(0);
    }
    if g.json {
        output::json(&query::to_json(&answer)?);
    } else {
        for (n, item) in answer.items.iter().enumerate() {
            if n > 0 {
                crate::output::say!("");
            }
            crate::output::say!(
                "--- item {} ({} of {}) ---",
                item.id,
                n + 1,
                answer.items.len()
            );
            show(item);
        }
    }
    if answer.missing.is_empty() {
        return Ok(0);
    }
    let missing: Vec<String> = answer.missing.iter().map(i64::to_string).collect();
    eprintln!(
        "recall: warning: no item {} in {} (or none you may read)",
        missing.join(", "),
        lib.path.display()
    );
    Ok(EXIT_SOME_MISSING)
}

/// One item as text: its line, then each text field indented under its name.
fn show(item: &ItemRow) {
    crate::output::say!(
        "[{}] {} {} ({}, {}{}){}",
        item.id,
        field(&item.occurred_at),
        field(&item.title),
        field(
            item.project
                .as_deref()
                .filter(|p| !p.is_empty())
                .unwrap_or("-")
        ),
        field(&item.source),
        field(&output::marks(item.kind.as_deref(), item.global)),
        output::changed_mark(&item.changed_since)
    );
    for (label, text) in [
        ("summary", &item.summary),
        ("questions", &item.questions),
        ("atoms", &item.atoms),
    ] {
        if !text.is_empty() {
            crate::output::say!("{label}:\n{}", indent(text));
        }
    }
    if let Some(transcript) = &item.transcript {
        crate::output::say!("transcript:\n{}", indent(transcript));
    }
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
