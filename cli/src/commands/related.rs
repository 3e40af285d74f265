//! `recall related PROMPT`: the first-prompt rule (`sql/related.sql`).
use serde_json::json;

use super::open_for_query;
use crate::args::RelatedArgs;
use crate::error::Result;
use crate::explain::{self, Terms};
use crate::settings::{self, Globals};
use crate::sql_file::queries;
use crate::{output, params, sql_file};
use recall_core::prompt::{prompt_terms, DEFAULT_MAX_PROMPT_TERMS, RELATED_MIN_OVERLAP};

pub fn run(g: &Globals, a: &RelatedArgs) -> Result<i32> {
    let s = settings::Related::resolve(g, a)?;
    let lib = open_for_query(g)?;
    let rows = sql_file::run(&lib.conn, queries::RELATED, &params::related(&lib, &s))?;
    let explain = if a.common.explain {
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
        Some(explain::build(&lib, &rows, terms, fields)?)
    } else {
        None
    };
    output::results(g.json, "related", &rows, s.shown(), explain);
    Ok(0)
}
