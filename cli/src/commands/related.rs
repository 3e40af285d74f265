//! `recall related PROMPT`: the first-prompt rule (`sql/related.sql`).
use serde_json::{json, Map, Value as Json};

use super::open_for_query;
use crate::args::RelatedArgs;
use crate::config::RelatedRule;
use crate::error::Result;
use crate::library::Library;
use crate::output;
use crate::query::explain::{self, Terms};
use crate::query::sql_file::queries;
use crate::query::{params, sql_file};
use crate::settings::{self, Globals};
use recall_core::prompt::{prompt_terms, DEFAULT_MAX_PROMPT_TERMS, RELATED_MIN_OVERLAP};
use recall_core::value::shown_real;

pub fn run(g: &Globals, a: &RelatedArgs) -> Result<i32> {
    let s = settings::Related::resolve(g, a)?;
    let lib = open_for_query(g)?;
    output::results(g.json, &answer(&lib, &s, a.common.explain)?);
    Ok(0)
}

/// The items shown: the kept candidates, without the columns that judged them (the
/// shared words and the verdict, which `--explain` shows).
pub fn rows(lib: &Library, s: &settings::Related) -> Result<Vec<Map<String, Json>>> {
    let mut rows = sql_file::run(&lib.conn, queries::RELATED, &params::related(lib, s, false))?;
    for row in &mut rows {
        row.remove("shared");
        row.remove("verdict");
    }
    Ok(rows)
}

/// The JSON answer (`output::query_answer`) of a resolved `related`.
pub fn answer(lib: &Library, s: &settings::Related, explain: bool) -> Result<Json> {
    let rows = rows(lib, s)?;
    let explain = if explain {
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
        let candidates =
            sql_file::run(&lib.conn, queries::RELATED, &params::related(lib, s, true))?;
        let candidates: Vec<Json> = candidates.iter().map(|c| candidate(c, s)).collect();
        let fields = json!({
            "project": s.project, "allow": s.allow, "candidates": candidates,
        });
        Some(explain::build(lib, &rows, terms, fields)?)
    } else {
        None
    };
    Ok(output::query_answer("related", &rows, s.shown(), explain))
}

/// One judged candidate as `--explain` shows it: the words it shares with the prompt,
/// their weights (how rare each is in the library, alone and together), and why it was
/// kept or dropped.
fn candidate(row: &Map<String, Json>, s: &settings::Related) -> Json {
    let shared: Json = row
        .get("shared")
        .and_then(Json::as_str)
        .and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or_else(|| json!([]));
    let number = |k: &str| row.get(k).and_then(Json::as_f64);
    let overlap = row.get("overlap").and_then(Json::as_i64).unwrap_or(0);
    let verdict = row.get("verdict").and_then(Json::as_str).unwrap_or("");
    let r = &s.ranking;
    let mut found = format!(
        "{overlap} shared {}",
        if overlap == 1 { "word" } else { "words" }
    );
    if let Some(w) = number("weight") {
        found.push_str(&format!(", weight {w:.3}"));
    }
    if let (Some(n), Some(w)) = (number("joint_items"), number("joint_weight")) {
        let items = if n == 1.0 { "item" } else { "items" };
        found.push_str(&format!(", together in {n} {items} (weight {w:.3})"));
    }
    let needed = match r.related_rule {
        RelatedRule::Idf => format!(
            "{RELATED_MIN_OVERLAP} words, weight {} and {} together",
            shown_real(r.related_min_weight),
            shown_real(r.related_min_joint_weight)
        ),
        RelatedRule::Jezero => format!("{RELATED_MIN_OVERLAP} words"),
    };
    let why = match verdict {
        "kept" => format!("kept: {found}; the rule needs {needed}"),
        "over_limit" => format!(
            "dropped: {found}, enough for the rule, but {} ranked higher",
            s.limit
        ),
        _ => format!("dropped: {found}; the rule needs {needed}"),
    };
    json!({
        "id": row.get("id"), "title": row.get("title"), "score": row.get("score"),
        "shared": shared, "overlap": overlap, "weight": number("weight"),
        "joint_items": row.get("joint_items"), "joint_weight": number("joint_weight"),
        "verdict": verdict, "why": why,
    })
}
