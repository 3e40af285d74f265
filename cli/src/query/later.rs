//! `later`: newer items on the same subject as an item (`sql/later.sql`).
use serde_json::json;

use super::answer::Answer;
use super::explain::{self, Terms};
use super::rows::LaterRow;
use super::{get, params};
use crate::error::Result;
use crate::library::sql_file::{self, queries};
use crate::library::Library;
use crate::settings;

/// The answer of a resolved `later`, with `explain` when asked. The item must exist and
/// be readable: otherwise the error is exactly `get`'s.
pub fn later(lib: &Library, s: &settings::Later, explain: bool) -> Result<Answer<LaterRow>> {
    let item = get::item(lib, s.item_id, &s.allow, false)?;
    let rows = later_results(lib, s)?;
    let subject = s
        .query
        .clone()
        .filter(|q| !q.trim().is_empty())
        .unwrap_or_else(|| item.title.clone());
    let mut shown = json!({
        "item_id": s.item_id, "subject": subject, "limit": s.limit, "allow": s.allow,
    });
    if let Some(kinds) = &s.kinds {
        shown["kind"] = json!(kinds);
    }
    let mut answer = Answer::new("later", rows, shown);
    if explain {
        let scope = match &item.project {
            Some(p) => json!({ "project": p }),
            None => json!({ "source": item.source }),
        };
        let terms = Terms::Of {
            text: &subject,
            drop_stopwords: true,
            pruned: &[],
        };
        let fields = json!({ "scope": scope, "since": item.occurred_at, "limit": s.limit });
        let mut doc = explain::build(lib, &s.allow, answer.results.len(), terms, fields)?;
        // later.sql matches an item's own fields: the neighbours' titles weigh 0.
        explain::attach(lib, &mut answer.results, &mut doc, 0.0, &s.allow, |r| {
            (r.item.id, &mut r.matched)
        })?;
        answer.explain = Some(doc);
    }
    Ok(answer.ran(lib, queries::LATER, &params::later(lib, s)))
}

/// The items `later` finds, the item not looked up first: a missing or unreadable one
/// finds nothing (`recall eval` scores such a case as a miss).
pub fn later_results(lib: &Library, s: &settings::Later) -> Result<Vec<LaterRow>> {
    sql_file::read(
        &lib.conn,
        queries::LATER,
        &params::later(lib, s),
        LaterRow::read,
    )
}
