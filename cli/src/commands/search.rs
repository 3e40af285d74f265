//! `recall search`: the two-stage search of `sql/search.sql`.
use serde_json::{json, Value as Json};

use super::open_for_query;
use crate::args::SearchArgs;
use crate::error::Result;
use crate::library::Library;
use crate::output;
use crate::query::explain::{self, Terms};
use crate::query::sql_file::queries;
use crate::query::{params, sql_file};
use crate::settings::{self, Globals};

pub fn run(g: &Globals, a: &SearchArgs) -> Result<i32> {
    let s = settings::Search::resolve(g, a)?;
    let lib = open_for_query(g)?;
    output::results(g.json, &answer(&lib, &s, a.common.explain)?);
    Ok(0)
}

/// The JSON answer (`output::query_answer`) of a resolved search.
pub fn answer(lib: &Library, s: &settings::Search, explain: bool) -> Result<Json> {
    let plan = params::search(lib, s)?;
    let mut rows = sql_file::run(&lib.conn, queries::SEARCH, &plan.params)?;
    if !plan.vectors.is_on() {
        // Without the vector channel the answer is the literal search's, field for field.
        for row in &mut rows {
            for key in VECTOR_COLUMNS {
                row.remove(key);
            }
        }
    }
    let explain = if explain {
        let pruned: Vec<String> = plan.pruned.iter().map(|p| p.term.clone()).collect();
        let terms = Terms::Of {
            text: &s.query,
            drop_stopwords: s.ranking.drop_stopwords,
            pruned: &pruned,
        };
        let fields = json!({
            "pruned": plan.pruned, "filters": s.filters.shown(), "allow": s.allow,
            "pool": s.ranking.pool, "limit": s.limit, "context": context(s, &rows),
        });
        let mut fields = fields;
        if !matches!(
            plan.vectors,
            crate::query::vector_channel::Channel::Off(None)
        ) {
            fields["vectors"] = plan.vectors.shown(&s.ranking.vectors);
        }
        Some(explain::build(lib, &rows, terms, fields)?)
    } else {
        None
    };
    let literal = output::query_answer("search", &rows, s.shown(&lib.tokenizer), explain);
    crate::query::judge_stage::stage(lib, s, &plan.params, literal)
}

/// The columns of `sql/search.sql` that only the vector channel fills.
pub const VECTOR_COLUMNS: [&str; 3] = ["literal_rank", "vector_rank", "fused"];

/// The context stage as explain shows it: its settings, and the results that are there
/// only as a neighbour, each with the hit it is next to.
fn context(s: &settings::Search, rows: &explain::Rows) -> Json {
    let c = &s.ranking.context;
    let joined: Vec<Json> = rows
        .iter()
        .filter(|r| r.get("matched_by").and_then(Json::as_str) == Some("context"))
        .map(|r| json!({"id": r.get("id"), "next_to": r.get("context_of")}))
        .collect();
    json!({
        "on": c.on(), "weight": c.weight, "radius": c.radius, "gap_minutes": c.gap_minutes,
        "joined": joined,
    })
}
