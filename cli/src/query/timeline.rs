//! `timeline`: items newest first (`sql/timeline.sql`).
use serde_json::json;

use super::answer::Answer;
use super::explain::{self, Terms};
use super::params;
use super::rows::{AroundRow, Listed};
use crate::error::Result;
use crate::library::sql_file::{self, queries};
use crate::library::Library;
use crate::settings;

/// The answer of a resolved timeline, with `explain` when asked.
pub fn timeline(lib: &Library, s: &settings::Timeline, explain: bool) -> Result<Answer<Listed>> {
    let params = params::timeline(s);
    let rows = sql_file::read(&lib.conn, queries::TIMELINE, &params, Listed::read)?;
    let shown = json!({ "limit": s.limit, "filters": s.filters.shown(), "allow": s.allow });
    let mut answer = Answer::new("timeline", rows, shown);
    if explain {
        let fields = json!({ "filters": s.filters.shown(), "allow": s.allow, "limit": s.limit });
        answer.explain = Some(explain::build(
            lib,
            &s.allow,
            answer.results.len(),
            Terms::None,
            fields,
        )?);
    }
    Ok(answer.ran(lib, queries::TIMELINE, &params))
}

/// The answer of `timeline --around`: the items just before and after one item, oldest
/// first, that item among them (`anchor`). An item the caller may not read is an error,
/// exactly `get`'s for a missing one.
pub fn around(
    lib: &Library,
    s: &settings::Timeline,
    around: &settings::Around,
    explain: bool,
) -> Result<Answer<AroundRow>> {
    let params = params::timeline_around(s, around);
    let rows = sql_file::read(
        &lib.conn,
        queries::TIMELINE_AROUND,
        &params,
        AroundRow::read,
    )?;
    if !rows.iter().any(|r| r.anchor) {
        return Err(super::get::missing(lib, around.id));
    }
    let shown = json!({
        "around": around.id, "before": around.before, "after": around.after,
        "filters": s.filters.shown(), "allow": s.allow,
    });
    let mut answer = Answer::new("timeline", rows, shown);
    if explain {
        let anchor = answer.results.iter().find(|r| r.anchor).map(|r| &r.item);
        let scope = match (s.filters.scope, anchor) {
            (Some(crate::args::Scope::All), _) => json!("all"),
            (
                _,
                Some(Listed {
                    project: Some(p), ..
                }),
            ) => json!({ "project": p }),
            (_, Some(item)) => json!({ "source": item.source }),
            (_, None) => json!(null),
        };
        let fields = json!({
            "around": around.id, "scope": scope, "filters": s.filters.shown(),
            "allow": s.allow,
        });
        answer.explain = Some(explain::build(
            lib,
            &s.allow,
            answer.results.len(),
            Terms::None,
            fields,
        )?);
    }
    Ok(answer.ran(lib, queries::TIMELINE_AROUND, &params))
}
