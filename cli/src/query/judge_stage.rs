//! The judge stage of a search: which candidates go to the judge, and the answer its
//! ratings shape (or the literal one when it fails).
use std::collections::{HashMap, HashSet};
use std::time::Instant;

use serde_json::{json, Map, Value as Json};

use crate::error::Result;
use crate::judge::protocol::Item;
use crate::judge::rules;
use crate::judge::verdict::{run, Outcome, Verdict};
use crate::judge::Settings;
use crate::library::Library;
use crate::query::sql_file::{self, int, queries, text, Params};
use crate::settings;

/// The judge stage of a search: `answer` (the literal one, from `params`) as the judge
/// shapes it, or unchanged when no judge is set. Fails only where the literal search
/// would (the library); the judge's own failures give the literal answer back.
pub fn stage(lib: &Library, s: &settings::Search, params: &Params, answer: Json) -> Result<Json> {
    stage_reporting(lib, s, params, answer).map(|(answer, _)| answer)
}

/// The judge stage, and how the judge failed when its failure gave the literal answer
/// back (`recall eval` counts those: they look like a judge that agrees).
pub fn stage_reporting(
    lib: &Library,
    s: &settings::Search,
    params: &Params,
    mut answer: Json,
) -> Result<(Json, Option<String>)> {
    let j = &s.ranking.judge;
    let Some(command) = j.active() else {
        return Ok((answer, None));
    };
    let literal: Vec<Map<String, Json>> = answer
        .get("results")
        .and_then(Json::as_array)
        .map(|rows| rows.iter().filter_map(|r| r.as_object().cloned()).collect())
        .unwrap_or_default();
    let limit = usize::try_from(s.limit.max(1)).unwrap_or(1);
    let c = candidates(lib, params, &literal, limit, j)?;
    let started = Instant::now();
    let verdict = if c.items.is_empty() {
        Verdict {
            ratings: Vec::new(),
            outcome: Outcome::Done,
        }
    } else {
        run(command, &s.query, &c.items, j)
    };
    let elapsed_ms = started.elapsed().as_millis();
    // A judge that failed is not believed, even in what it rated before.
    let ratings: HashMap<i64, f64> = match &verdict.outcome {
        Outcome::Failed(_) => HashMap::new(),
        _ => c
            .items
            .iter()
            .zip(&verdict.ratings)
            .filter_map(|(i, r)| Some((i.id, (*r)?)))
            .collect(),
    };
    let judged = !ratings.is_empty();
    let (results, below_threshold, dropped) = if judged {
        let shaped = rules::shape(&c.rules_view(&ratings), j.cuts(), limit);
        let results: Vec<Json> = shaped
            .order
            .iter()
            .map(|i| marked(&c.rows[*i], ratings.get(&c.items[*i].id).copied()))
            .collect();
        (results, shaped.below_threshold, shaped.dropped)
    } else {
        let results = literal.iter().map(|r| marked(r, None)).collect();
        (results, false, Vec::new())
    };
    let (outcome, failure) = match &verdict.outcome {
        Outcome::Done => ("rated", None),
        Outcome::TimedOut => (
            "timeout",
            Some(format!(
                "the judge rated {} of {} candidates within {} ms",
                ratings.len(),
                c.items.len(),
                j.timeout_ms
            )),
        ),
        Outcome::Failed(why) => ("failed", Some(why.clone())),
    };
    let ranker = if judged { "judge" } else { "literal" };
    let fell_back = if judged { None } else { failure.clone() };
    let empty = results.is_empty();
    answer["results"] = Json::Array(results);
    answer["ranker"] = json!(ranker);
    answer["below_threshold"] = json!(below_threshold);
    if let Some(Json::Object(shown)) = answer.get_mut("settings") {
        shown.insert("judge".into(), j.shown(command));
    }
    if let Some(Json::Object(explain)) = answer.get_mut("explain") {
        explain.insert("ranker".into(), json!(ranker));
        explain.insert(
            "judge".into(),
            json!({
                "outcome": outcome, "failure": failure,
                "candidates": c.items.len(), "rated": ratings.len(),
                "not_rated": c.items.len() - ratings.len(),
                "filtered_set_small": c.small, "elapsed_ms": elapsed_ms,
                "below_threshold": below_threshold, "dropped": dropped,
            }),
        );
        // The literal reason speaks of the literal answer; the judge may have filled an
        // empty one (a small filtered set) or emptied a full one.
        if !empty {
            explain.insert("reason".into(), Json::Null);
        } else if judged && explain.get("reason").is_some_and(Json::is_null) {
            explain.insert("reason".into(), json!("judged_out"));
        }
    }
    Ok((answer, fell_back))
}

/// What goes to the judge: one row (as the answer shows it) and one item (as the judge
/// sees it) per candidate, in the order they are judged.
struct Candidates {
    rows: Vec<Map<String, Json>>,
    items: Vec<Item>,
    /// The candidates the literal search matched.
    matched: HashSet<i64>,
    /// Whether the filtered set was small enough to be judged whole.
    small: bool,
}

impl Candidates {
    fn rules_view(&self, ratings: &HashMap<i64, f64>) -> Vec<rules::Candidate> {
        self.items
            .iter()
            .map(|i| rules::Candidate {
                id: i.id,
                literal: self.matched.contains(&i.id),
                rating: ratings.get(&i.id).copied(),
            })
            .collect()
    }
}

fn id_of(r: &Map<String, Json>) -> Option<i64> {
    r.get("id").and_then(Json::as_i64)
}

/// The shortlist (the literal best, at least `limit`: the search run again deeper when
/// the literal answer was cut), or the whole filtered set when it is no larger.
fn candidates(
    lib: &Library,
    params: &Params,
    literal: &[Map<String, Json>],
    limit: usize,
    j: &Settings,
) -> Result<Candidates> {
    let depth = limit.max(usize::try_from(j.shortlist).unwrap_or(1));
    let shortlist = if depth > literal.len() && literal.len() >= limit {
        let wider = with(params, &[(":limit", depth), (":max_limit", depth)]);
        sql_file::run(&lib.conn, queries::SEARCH, &wider)?
    } else {
        literal.to_vec()
    };
    let matched: HashSet<i64> = shortlist.iter().filter_map(id_of).collect();
    // One row past the shortlist tells a small filtered set from a large one.
    let mut filtered_params = with(params, &[(":limit", depth + 1)]);
    filtered_params.push((":filter", int(Some(1))));
    let mut filtered = sql_file::run(&lib.conn, queries::JUDGE_ITEMS, &filtered_params)?;
    let small = filtered.len() <= depth;
    let mut rows = shortlist;
    let texts = if small {
        // The items the literal search did not match follow it, newest first.
        let date = |r: &Map<String, Json>| r.get("date").and_then(Json::as_str).map(str::to_string);
        filtered.sort_by_key(|r| std::cmp::Reverse((date(r), id_of(r))));
        rows.extend(
            filtered
                .iter()
                .filter(|r| id_of(r).is_some_and(|id| !matched.contains(&id)))
                .map(unmatched_row),
        );
        filtered
    } else {
        let ids: Vec<i64> = rows.iter().filter_map(id_of).collect();
        let mut p = with(params, &[]);
        p.push((":ids", text(Some(&json!(ids).to_string()))));
        sql_file::run(&lib.conn, queries::JUDGE_ITEMS, &p)?
    };
    let by_id: HashMap<i64, Item> = texts
        .iter()
        .filter_map(Item::from_row)
        .map(|i| (i.id, i))
        .collect();
    // Only the candidates whose text was read go to the judge.
    rows.retain(|r| id_of(r).is_some_and(|id| by_id.contains_key(&id)));
    let items = rows
        .iter()
        .filter_map(|r| by_id.get(&id_of(r)?).cloned())
        .collect();
    Ok(Candidates {
        rows,
        items,
        matched,
        small,
    })
}

/// `params` with some integer parameters replaced.
fn with(params: &Params, ints: &[(&'static str, usize)]) -> Params {
    let mut p: Params = params
        .iter()
        .filter(|(n, _)| !ints.iter().any(|(m, _)| m == n))
        .cloned()
        .collect();
    for (name, v) in ints {
        p.push((name, int(i64::try_from(*v).ok())));
    }
    p
}

/// A row for an item of the filtered set that the literal search did not match.
fn unmatched_row(r: &Map<String, Json>) -> Map<String, Json> {
    let mut row = Map::new();
    for k in ["id", "date", "title", "project", "source"] {
        row.insert(k.into(), r.get(k).cloned().unwrap_or(Json::Null));
    }
    row.insert("score".into(), Json::Null);
    row.insert("relevance".into(), Json::Null);
    row
}

fn marked(row: &Map<String, Json>, probability: Option<f64>) -> Json {
    let mut row = row.clone();
    row.insert("judged".into(), json!(probability.is_some()));
    row.insert("probability".into(), json!(probability));
    Json::Object(row)
}
