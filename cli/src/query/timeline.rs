//! `timeline`: items newest first (`sql/timeline.sql`).
use serde_json::json;

use super::answer::Answer;
use super::explain::{self, Terms};
use super::params;
use super::rows::Listed;
use super::sql_file::{self, queries};
use crate::error::Result;
use crate::library::Library;
use crate::settings;

/// The answer of a resolved timeline, with `explain` when asked.
pub fn timeline(lib: &Library, s: &settings::Timeline, explain: bool) -> Result<Answer<Listed>> {
    let rows = sql_file::read(
        &lib.conn,
        queries::TIMELINE,
        &params::timeline(s),
        Listed::read,
    )?;
    let shown = json!({ "limit": s.limit, "filters": s.filters.shown(), "allow": s.allow });
    let mut answer = Answer::new("timeline", rows, shown);
    if explain {
        let fields = json!({ "filters": s.filters.shown(), "allow": s.allow, "limit": s.limit });
        answer.explain = Some(explain::build(
            lib,
            answer.results.len(),
            Terms::None,
            fields,
        )?);
    }
    Ok(answer)
}
