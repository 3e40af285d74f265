//! `related`: the first-prompt rule (`sql/related.sql`).
use serde_json::{json, Value as Json};

use super::answer::Answer;
use super::explain::{self, Terms};
use super::params;
use super::rows::{RelatedCandidate, RelatedRow};
use crate::config::RelatedRule;
use crate::error::Result;
use crate::library::sql_file::{self, queries};
use crate::library::Library;
use crate::settings;
use recall_core::prompt::{prompt_terms, DEFAULT_MAX_PROMPT_TERMS, RELATED_MIN_OVERLAP};
use recall_core::value::shown_real;

/// The answer of a resolved `related`, with `explain` when asked. The items shown are the
/// kept candidates, without what judged them (the shared words and the verdict, which
/// `--explain` shows).
pub fn related(lib: &Library, s: &settings::Related, explain: bool) -> Result<Answer<RelatedRow>> {
    let params = params::related(lib, s, false);
    let rows = sql_file::read(&lib.conn, queries::RELATED, &params, RelatedRow::read)?;
    let mut answer = Answer::new("related", rows, s.shown());
    if explain {
        let terms = prompt_terms(&s.prompt, DEFAULT_MAX_PROMPT_TERMS);
        // Fewer distinctive words than the rule needs: nothing was searched.
        let searched = if terms.len() < RELATED_MIN_OVERLAP {
            json!([])
        } else {
            json!(terms)
        };
        let terms = Terms::Given {
            shown: json!(terms),
            searched,
        };
        let candidates = sql_file::read(
            &lib.conn,
            queries::RELATED,
            &params::related(lib, s, true),
            RelatedCandidate::read,
        )?;
        let candidates: Vec<Json> = candidates.iter().map(|c| candidate(c, s)).collect();
        let fields = json!({
            "project": s.project, "allow": s.allow, "candidates": candidates,
        });
        answer.explain = Some(explain::build(
            lib,
            &s.allow,
            answer.results.len(),
            terms,
            fields,
        )?);
    }
    Ok(answer.ran(lib, queries::RELATED, &params))
}

/// One judged candidate as `--explain` shows it: the words it shares with the prompt,
/// their weights (how rare each is in the library, alone and together), and why it was
/// kept or dropped.
fn candidate(c: &RelatedCandidate, s: &settings::Related) -> Json {
    let row = &c.row;
    let shared: Json = serde_json::from_str(&c.shared).unwrap_or_else(|_| json!([]));
    let overlap = row.overlap;
    let r = &s.ranking;
    let mut found = format!(
        "{overlap} shared {}",
        if overlap == 1 { "word" } else { "words" }
    );
    if let Some(w) = row.weight {
        found.push_str(&format!(", weight {w:.3}"));
    }
    if let (Some(n), Some(w)) = (row.joint_items.map(|n| n as f64), row.joint_weight) {
        let items = if n == 1.0 { "item" } else { "items" };
        found.push_str(&format!(", together in {n} {items} (weight {w:.3})"));
    }
    let needed = match r.related.rule {
        RelatedRule::Idf => format!(
            "{RELATED_MIN_OVERLAP} words, weight {} and {} together",
            shown_real(r.related.min_weight),
            shown_real(r.related.min_joint_weight)
        ),
        RelatedRule::Jezero => format!("{RELATED_MIN_OVERLAP} words"),
    };
    let why = match c.verdict.as_str() {
        "kept" => format!("kept: {found}; the rule needs {needed}"),
        "over_limit" => format!(
            "dropped: {found}, enough for the rule, but {} ranked higher",
            s.limit
        ),
        _ => format!("dropped: {found}; the rule needs {needed}"),
    };
    json!({
        "id": row.item.id, "title": row.item.title, "score": row.score,
        "shared": shared, "overlap": overlap, "weight": row.weight,
        "joint_items": row.joint_items, "joint_weight": row.joint_weight,
        "verdict": c.verdict, "why": why,
    })
}
