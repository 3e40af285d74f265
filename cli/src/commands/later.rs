//! `recall later ID`: newer items on the same subject (`sql/later.sql`).
use serde_json::{json, Value as Json};

use super::open_for_query;
use crate::args::LaterArgs;
use crate::error::Result;
use crate::library::Library;
use crate::query::explain::{self, Terms};
use crate::query::sql_file::queries;
use crate::query::{params, sql_file};
use crate::settings::{self, Globals};
use crate::{err, output};

pub fn run(g: &Globals, a: &LaterArgs) -> Result<i32> {
    let s = settings::Later::resolve(g, a);
    let lib = open_for_query(g)?;
    output::results(g.json, &answer(&lib, &s, a.common.explain)?);
    Ok(0)
}

/// The JSON answer (`output::query_answer`) of a resolved `later`.
pub fn answer(lib: &Library, s: &settings::Later, explain: bool) -> Result<Json> {
    // The item must exist and be readable: otherwise answer exactly as `get` does.
    let item = sql_file::run(
        &lib.conn,
        queries::GET,
        &params::get(s.item_id, &s.allow, false),
    )?;
    let Some(item) = item.into_iter().next() else {
        return Err(err!("no item {} in {}", s.item_id, lib.path.display()));
    };
    let rows = sql_file::run(&lib.conn, queries::LATER, &params::later(lib, s))?;
    let subject = s
        .query
        .clone()
        .filter(|q| !q.trim().is_empty())
        .or_else(|| item.get("title").and_then(Json::as_str).map(str::to_string))
        .unwrap_or_default();
    let shown = json!({
        "item_id": s.item_id, "subject": subject, "limit": s.limit, "allow": s.allow,
    });
    let explain = if explain {
        let scope = match item.get("project").and_then(Json::as_str) {
            Some(p) => json!({ "project": p }),
            None => json!({ "source": item.get("source") }),
        };
        let terms = Terms::Of {
            text: &subject,
            drop_stopwords: true,
            pruned: &[],
        };
        let fields = json!({ "scope": scope, "since": item.get("occurred_at"), "limit": s.limit });
        Some(explain::build(lib, &rows, terms, fields)?)
    } else {
        None
    };
    Ok(output::query_answer("later", &rows, shown, explain))
}
