//! `recall timeline`: items newest first (`sql/timeline.sql`).
use serde_json::{json, Value as Json};

use super::open_for_query;
use crate::args::TimelineArgs;
use crate::error::Result;
use crate::library::Library;
use crate::output;
use crate::query::explain::{self, Terms};
use crate::query::sql_file::queries;
use crate::query::{params, sql_file};
use crate::settings::{self, Globals};

pub fn run(g: &Globals, a: &TimelineArgs) -> Result<i32> {
    let s = settings::Timeline::resolve(g, a)?;
    let lib = open_for_query(g)?;
    output::results(g.json, &answer(&lib, &s, a.common.explain)?);
    Ok(0)
}

/// The JSON answer (`output::query_answer`) of a resolved timeline.
pub fn answer(lib: &Library, s: &settings::Timeline, explain: bool) -> Result<Json> {
    let rows = sql_file::run(&lib.conn, queries::TIMELINE, &params::timeline(s))?;
    let shown = json!({ "limit": s.limit, "filters": s.filters.shown(), "allow": s.allow });
    let explain = if explain {
        let fields = json!({ "filters": s.filters.shown(), "allow": s.allow, "limit": s.limit });
        Some(explain::build(lib, &rows, Terms::None, fields)?)
    } else {
        None
    };
    Ok(output::query_answer("timeline", &rows, shown, explain))
}
