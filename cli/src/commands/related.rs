//! `recall related PROMPT`: the first-prompt rule (`sql/related.sql`).
use serde_json::{json, Value as Json};

use super::open_for_query;
use crate::args::RelatedArgs;
use crate::error::Result;
use crate::explain::{self, Terms};
use crate::library::Library;
use crate::settings::{self, Globals};
use crate::sql_file::queries;
use crate::{output, params, sql_file};
use recall_core::prompt::{prompt_terms, DEFAULT_MAX_PROMPT_TERMS, RELATED_MIN_OVERLAP};

pub fn run(g: &Globals, a: &RelatedArgs) -> Result<i32> {
    let s = settings::Related::resolve(g, a)?;
    let lib = open_for_query(g)?;
    output::results(g.json, &answer(&lib, &s, a.common.explain)?);
    Ok(0)
}

/// The JSON answer (`output::query_answer`) of a resolved `related`.
pub fn answer(lib: &Library, s: &settings::Related, explain: bool) -> Result<Json> {
    let rows = sql_file::run(&lib.conn, queries::RELATED, &params::related(lib, s))?;
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
        let fields = json!({ "project": s.project, "allow": s.allow });
        Some(explain::build(lib, &rows, terms, fields)?)
    } else {
        None
    };
    Ok(output::query_answer("related", &rows, s.shown(), explain))
}
