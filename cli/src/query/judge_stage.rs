//! The judge stage of a search: which candidates go to the judge, and the answer its
//! ratings shape (or the literal one when it fails).
use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};
use std::time::Instant;

use serde_json::{json, Value as Json};

use super::answer::{Answer, Ranked};
use super::rows::{Listed, Rating, SearchRow};
use crate::error::Result;
use crate::judge::protocol::Item;
use crate::judge::rules;
use crate::judge::verdict::{run, Outcome, Verdict};
use crate::library::sql_file::{self, int, queries, text, Params};
use crate::library::Library;
use crate::settings;
use crate::settings::Judge as Settings;

/// The judge stage of a search: the literal `answer` (from `params`) as the judge shapes
/// it, or unchanged when no judge is set. Fails only where the literal search would (the
/// library); the judge's own failures give the literal answer back, and `fell_back`
/// says how (`recall eval` counts those: they look like a judge that agrees).
pub fn stage(
    lib: &Library,
    s: &settings::Search,
    params: &Params,
    mut answer: Answer<SearchRow>,
) -> Result<Answer<SearchRow>> {
    let j = &s.ranking.judge;
    let Some(command) = j.active() else {
        return Ok(answer);
    };
    let literal = std::mem::take(&mut answer.results);
    let limit = usize::try_from(s.limit.max(1)).unwrap_or(1);
    let c = candidates(lib, params, &literal, limit, j)?;
    let started = Instant::now();
    let verdict = if c.items.is_empty() {
        Verdict {
            ratings: Vec::new(),
            outcome: Outcome::Done,
        }
    } else {
        run(
            command,
            &s.query,
            &c.items,
            (j.config.timeout_ms, j.config.concurrency),
        )
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
        let results: Vec<SearchRow> = shaped
            .order
            .iter()
            .map(|i| marked(c.rows[*i].clone(), ratings.get(&c.items[*i].id).copied()))
            .collect();
        (results, shaped.below_threshold, shaped.dropped)
    } else {
        let results = literal.into_iter().map(|r| marked(r, None)).collect();
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
                j.config.timeout_ms
            )),
        ),
        Outcome::Failed(why) => ("failed", Some(why.clone())),
    };
    let ranker = if judged { "judge" } else { "literal" };
    let fell_back = if judged { None } else { failure.clone() };
    let empty = results.is_empty();
    answer.results = results;
    answer.ranked = Some(Ranked {
        ranker,
        below_threshold,
    });
    if let Json::Object(shown) = &mut answer.settings {
        shown.insert("judge".into(), j.shown(command));
    }
    if let Some(explain) = &mut answer.explain {
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
    // Each message names the process that failed.
    answer.fell_back = answer
        .fell_back
        .take()
        .into_iter()
        .chain(fell_back)
        .reduce(|a, b| format!("{a}; {b}"));
    Ok(answer)
}

/// What goes to the judge: one row (as the answer shows it) and one item (as the judge
/// sees it) per candidate, in the order they are judged.
struct Candidates {
    rows: Vec<SearchRow>,
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

/// The shortlist (the literal best, at least `limit`: the search run again deeper when
/// the literal answer was cut), or the whole filtered set when it is no larger.
fn candidates(
    lib: &Library,
    params: &Params,
    literal: &[SearchRow],
    limit: usize,
    j: &Settings,
) -> Result<Candidates> {
    let depth = limit.max(usize::try_from(j.config.shortlist).unwrap_or(1));
    let shortlist = if depth > literal.len() && literal.len() >= limit {
        let wider = with(params, &[(":limit", depth), (":max_limit", depth)]);
        // The rows of the deeper run show the vector columns, null when the channel is
        // off: as they always have.
        sql_file::read(&lib.conn, queries::SEARCH, &wider, |c| {
            SearchRow::read(c, true)
        })?
    } else {
        literal.to_vec()
    };
    let matched: HashSet<i64> = shortlist.iter().map(|r| r.item.id).collect();
    // One row past the shortlist tells a small filtered set from a large one.
    let mut filtered_params = with(params, &[(":limit", depth + 1)]);
    filtered_params.push((":filter", int(Some(1))));
    let mut filtered = judge_items(lib, &filtered_params)?;
    let small = filtered.len() <= depth;
    let mut rows = shortlist;
    let texts = if small {
        // The items the literal search did not match follow it, newest first.
        filtered.sort_by_key(|(listed, _)| Reverse((listed.date.clone(), listed.id)));
        rows.extend(
            filtered
                .iter()
                .filter(|(listed, _)| !matched.contains(&listed.id))
                .map(|(listed, _)| unmatched_row(listed)),
        );
        filtered
    } else {
        let ids: Vec<i64> = rows.iter().map(|r| r.item.id).collect();
        let mut p = with(params, &[]);
        p.push((":ids", text(Some(&json!(ids).to_string()))));
        judge_items(lib, &p)?
    };
    let by_id: HashMap<i64, Item> = texts.into_iter().map(|(_, i)| (i.id, i)).collect();
    // Only the candidates whose text was read go to the judge.
    rows.retain(|r| by_id.contains_key(&r.item.id));
    let items = rows
        .iter()
        .filter_map(|r| by_id.get(&r.item.id).cloned())
        .collect();
    Ok(Candidates {
        rows,
        items,
        matched,
        small,
    })
}

/// The rows of `sql/judge_items.sql`: each item as a listing shows it and as the judge
/// sees it.
fn judge_items(lib: &Library, params: &Params) -> Result<Vec<(Listed, Item)>> {
    sql_file::read(&lib.conn, queries::JUDGE_ITEMS, params, |c| {
        let listed = Listed::read(c)?;
        let text = |column: &str| c.text(column).map(Option::unwrap_or_default);
        let item = Item {
            id: listed.id,
            title: listed.title.clone(),
            summary: text("summary")?,
            questions: text("questions")?,
            atoms: text("atoms")?,
            project: listed.project.clone(),
            date: listed.date.clone(),
        };
        Ok((listed, item))
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
fn unmatched_row(listed: &Listed) -> SearchRow {
    SearchRow {
        item: listed.clone(),
        score: None,
        relevance: None,
        found: None,
        fusion: None,
        judge: None,
        matched: None,
    }
}

fn marked(mut row: SearchRow, probability: Option<f64>) -> SearchRow {
    row.judge = Some(Rating {
        judged: probability.is_some(),
        probability,
    });
    row
}
