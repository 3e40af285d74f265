//! `--explain`: the terms and filters that ran, how many items the caller may read, and
//! why an answer is empty. One builder serves every query command; each adds its own
//! fields (pool, scope, project …). A search's hits say why they matched (`matches`).
use std::collections::HashMap;

use serde::Serialize;
use serde_json::{json, Map, Value as Json};

use crate::error::Result;
use crate::library::sql_file::{self, queries};
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

/// The terms an explain object lists (`build`'s `terms`: those of the MATCH).
pub fn terms(doc: &Map<String, Json>) -> Vec<String> {
    doc.get("terms")
        .and_then(Json::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(|t| t.as_str().map(str::to_string))
        .collect()
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

/// The longest stretch of a field `matched` quotes: a term found inside a long token (a
/// hash, a path) is shown by its first characters.
const MAX_WORDS_CHARS: usize = 80;

/// Why a hit matched (`--explain`): each term searched, with the fields that hold it and
/// how it stands there. `inside_only` when some field holds a term and no term stands
/// anywhere as a word or at the start of one: a trigram index matches substrings, and
/// `lock` finds `clock`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Matched {
    pub terms: Vec<TermMatch>,
    pub inside_only: bool,
}

/// One term of `Matched`: the fields that hold it (none: it is not in this hit).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TermMatch {
    pub term: String,
    pub fields: Vec<FieldMatch>,
}

/// A field that holds a term: `as` is `word` (a whole word), `start` (the start of a
/// longer word: a stem meeting `locked`) or `inside` (only inside another word); `words`
/// the field's words at that place, as written (at most 80 characters).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldMatch {
    pub field: String,
    #[serde(rename = "as")]
    pub standing: &'static str,
    pub words: Option<String>,
}

impl Matched {
    /// Whether some field holds some term.
    pub fn any(&self) -> bool {
        self.terms.iter().any(|t| !t.fields.is_empty())
    }

    /// The line text output prints under the hit: `matched: databas in title, summary;
    /// lock in summary (inside "clock")`.
    pub fn line(&self) -> String {
        let found: Vec<String> = self
            .terms
            .iter()
            .filter(|t| !t.fields.is_empty())
            .map(|t| {
                let fields: Vec<String> = t
                    .fields
                    .iter()
                    .map(|f| match (f.standing, &f.words) {
                        ("inside", Some(w)) => format!("{} (inside \"{w}\")", f.field),
                        _ => f.field.clone(),
                    })
                    .collect();
                format!("{} in {}", t.term, fields.join(", "))
            })
            .collect();
        match (found.is_empty(), self.inside_only) {
            (true, _) => "matched: no term".to_string(),
            (false, true) => format!("matched only inside other words: {}", found.join("; ")),
            (false, false) => format!("matched: {}", found.join("; ")),
        }
    }
}

/// Gives each row its `Matched` (`matches` of the rows' items and the terms `doc`
/// lists), and `doc` the list of them as `matched`: `{"id", "terms", "inside_only"}`
/// for each result, in order.
pub fn attach<R>(
    lib: &Library,
    rows: &mut [R],
    doc: &mut Map<String, Json>,
    context_column_weight: f64,
    allow: &Option<Vec<String>>,
    slot: impl Fn(&mut R) -> (i64, &mut Option<Matched>),
) -> Result<()> {
    let terms = terms(doc);
    let ids: Vec<i64> = rows.iter_mut().map(|r| slot(r).0).collect();
    let mut found = matches(lib, &ids, &terms, context_column_weight, allow)?;
    let mut listed = Vec::with_capacity(rows.len());
    for row in rows.iter_mut() {
        let (id, matched) = slot(row);
        *matched = found.remove(&id);
        if let Some(m) = matched {
            listed.push(json!({"id": id, "terms": m.terms, "inside_only": m.inside_only}));
        }
    }
    doc.insert("matched".into(), Json::Array(listed));
    Ok(())
}

/// Why each of the items `ids` matched `terms` (as the search's MATCH held them), read
/// with `sql/explain_matches.sql`: FTS5 says which fields hold each term, and
/// `recall_core::matched::place` how it stands there, folded as the library's tokenizer
/// folds. The neighbours' titles (`context`) count unless their column weight is 0.
pub fn matches(
    lib: &Library,
    ids: &[i64],
    terms: &[String],
    context_column_weight: f64,
    allow: &Option<Vec<String>>,
) -> Result<HashMap<i64, Matched>> {
    use recall_core::matched::{place, removes_diacritics, Standing};
    let found = sql_file::read(
        &lib.conn,
        queries::EXPLAIN_MATCHES,
        &super::params::explain_matches(ids, terms, context_column_weight, allow),
        |c| {
            Ok((
                c.int("id")?,
                c.int("term")?,
                c.text("field")?,
                c.text("text")?,
            ))
        },
    )?;
    let folds = removes_diacritics(&lib.tokenizer);
    let mut out: HashMap<i64, Matched> = ids
        .iter()
        .map(|&id| {
            let terms = terms
                .iter()
                .map(|t| TermMatch {
                    term: t.clone(),
                    fields: Vec::new(),
                })
                .collect();
            (
                id,
                Matched {
                    terms,
                    inside_only: false,
                },
            )
        })
        .collect();
    for (id, term, field, text) in found {
        let (Some(id), Some(term), Some(field)) = (id, term, field) else {
            continue;
        };
        let Some(slot) = out
            .get_mut(&id)
            .and_then(|m| m.terms.get_mut(usize::try_from(term).ok()?))
        else {
            continue;
        };
        // FTS5 found it there; a tokenizer that matches tokens (porter's stems) may
        // match where the text does not hold the term as written: a token, a word.
        let placed = place(text.as_deref().unwrap_or(""), &slot.term, folds);
        let standing = placed.as_ref().map_or(Standing::Word, |p| p.standing);
        slot.fields.push(FieldMatch {
            field,
            standing: standing.as_str(),
            words: placed.map(|p| p.words.chars().take(MAX_WORDS_CHARS).collect()),
        });
    }
    for m in out.values_mut() {
        m.inside_only = m.any()
            && m.terms
                .iter()
                .flat_map(|t| &t.fields)
                .all(|f| f.standing == Standing::Inside.as_str());
    }
    Ok(out)
}
