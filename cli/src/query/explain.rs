//! `--explain`: the terms and filters that ran, how many items the caller may read, and
//! why an answer is empty. One builder serves every query command; each adds its own
//! fields (pool, scope, project …).
use serde_json::{json, Map, Value as Json};

use super::sql_file::{self, queries};
use crate::error::Result;
use crate::library::Library;

/// The terms an answer was searched with, as `explain` shows them.
pub enum Terms<'a> {
    /// None searched (timeline).
    None,
    /// What `recall_match` makes of the text, less the terms pruning dropped.
    Of {
        text: &'a str,
        drop_stopwords: bool,
        pruned: &'a [String],
    },
    /// Given by the command: `shown`, and `searched` (empty when nothing could be).
    Given { shown: Json, searched: Json },
}

/// The explain object of an answer of `results` rows: `fields`, plus `terms` (unless
/// `Terms::None`), `items` and `reason` (`null` when there are results, else
/// `no_terms`, `no_rows` or `filtered`).
pub fn build(
    lib: &Library,
    allow: &Option<Vec<String>>,
    results: usize,
    terms: Terms,
    fields: Json,
) -> Result<Map<String, Json>> {
    let text = match &terms {
        Terms::Of {
            text,
            drop_stopwords,
            ..
        } => Some((*text, *drop_stopwords)),
        _ => None,
    };
    let facts = sql_file::read(
        &lib.conn,
        queries::EXPLAIN,
        &super::params::explain(lib, allow, text.map(|t| t.0), text.is_some_and(|t| t.1)),
        |c| Ok((c.text("terms")?, c.int("items")?)),
    )?;
    let (listed, items) = facts.into_iter().next().unwrap_or_default();
    let items = items.unwrap_or(0);
    let (shown, searched) = match terms {
        Terms::None => (None, None),
        Terms::Of { pruned, .. } => {
            let mut list = listed
                .as_deref()
                .and_then(|t| serde_json::from_str::<Json>(t).ok());
            if let Some(Json::Array(l)) = list.as_mut() {
                l.retain(|t| !pruned.iter().any(|p| Some(p.as_str()) == t.as_str()));
            }
            (list.clone(), list)
        }
        Terms::Given { shown, searched } => (Some(shown), Some(searched)),
    };
    let mut doc = match fields {
        Json::Object(map) => map,
        _ => Map::new(),
    };
    if let Some(shown) = shown {
        doc.insert("terms".into(), shown);
    }
    doc.insert("items".into(), json!(items));
    doc.insert("reason".into(), reason(results, searched.as_ref(), items));
    Ok(doc)
}

/// Why an answer is empty: nothing searchable, nothing stored, or excluded.
fn reason(results: usize, terms: Option<&Json>, items: i64) -> Json {
    if results > 0 {
        return Json::Null;
    }
    match terms {
        Some(Json::Array(t)) if t.is_empty() => json!("no_terms"),
        _ if items == 0 => json!("no_rows"),
        _ => json!("filtered"),
    }
}
