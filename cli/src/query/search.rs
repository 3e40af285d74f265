//! `search`: the two-stage search of `sql/search.sql`, with its optional steps around it:
//! common-term pruning and the vector channel before (`params::search`), the judge after
//! (`judge_stage`).
use serde_json::{json, Value as Json};

use super::answer::Answer;
use super::explain::{self, Terms};
use super::judge_stage;
use super::params::{self, SearchPlan};
use super::rows::{SearchMatch, SearchRow};
use super::vector_channel::Channel;
use crate::error::Result;
use crate::library::sql_file::{self, queries};
use crate::library::Library;
use crate::settings;

/// The answer of a resolved search, with `explain` when asked.
pub fn search(lib: &Library, s: &settings::Search, explain: bool) -> Result<Answer<SearchRow>> {
    answer(lib, s, explain, params::search(lib, s)?)
}

/// The search fused with the items nearest the query given, as the embedder's vector
/// would find them (`params::search_near`).
pub fn search_near(
    lib: &Library,
    s: &settings::Search,
    nearest: Vec<super::vector_channel::Near>,
) -> Result<Answer<SearchRow>> {
    answer(lib, s, false, params::search_near(lib, s, nearest)?)
}

fn answer(
    lib: &Library,
    s: &settings::Search,
    explain: bool,
    plan: SearchPlan,
) -> Result<Answer<SearchRow>> {
    // Without the vector channel the answer is the literal search's, field for field.
    let fusion = plan.vectors.is_on();
    let rows = sql_file::read(&lib.conn, queries::SEARCH, &plan.params, |c| {
        SearchRow::read(c, fusion)
    })?;
    let mut answer = Answer::new("search", rows, s.shown(&lib.tokenizer));
    if explain {
        answer.explain = Some(explained(lib, s, &plan, &answer.results)?);
    }
    answer.fell_back = plan.vectors.failure().map(str::to_string);
    let mut answer = judge_stage::stage(lib, s, &plan.params, answer)?;
    if explain {
        matched(lib, s, &mut answer)?;
    }
    Ok(answer.ran(lib, queries::SEARCH, &plan.params))
}

/// Each result's `matched` (`--explain`), once the judge (if any) has chosen them: the
/// terms of `explain.terms`, the MATCH's after pruning.
fn matched(lib: &Library, s: &settings::Search, answer: &mut Answer<SearchRow>) -> Result<()> {
    let Some(doc) = answer.explain.as_mut() else {
        return Ok(());
    };
    let column_weight = s.ranking.search.context_column_weight;
    explain::attach(
        lib,
        &mut answer.results,
        doc,
        column_weight,
        &s.allow,
        |r| (r.item.id, &mut r.matched),
    )
}

/// What `--explain` shows of the literal search: what pruning dropped, the filters, the
/// pool, the context stage and the vector channel.
fn explained(
    lib: &Library,
    s: &settings::Search,
    plan: &SearchPlan,
    rows: &[SearchRow],
) -> Result<serde_json::Map<String, Json>> {
    let pruned: Vec<String> = plan.pruned.iter().map(|p| p.term.clone()).collect();
    let terms = Terms::Of {
        text: &s.query,
        drop_stopwords: s.ranking.search.drop_stopwords,
        pruned: &pruned,
    };
    let mut fields = json!({
        "pruned": plan.pruned, "filters": s.filters.shown(), "allow": s.allow,
        "pool": s.ranking.search.candidate_pool, "limit": s.limit, "context": context(s, rows),
        "period": period(s),
    });
    if !matches!(plan.vectors, Channel::Off(None)) {
        fields["vectors"] = plan.vectors.shown(&s.ranking.vectors);
    }
    explain::build(lib, &s.allow, rows.len(), terms, fields)
}

/// The period the query names as explain shows it (`recall_period`'s rule, which
/// `sql/search.sql` applies), with its weight; `null` when the query names none.
fn period(s: &settings::Search) -> Json {
    match recall_core::period::from_query(&s.query) {
        Some(p) => {
            let mut shown = p.to_value();
            shown["weight"] = json!(s.ranking.search.period_weight);
            shown
        }
        None => Json::Null,
    }
}

/// The context stage as explain shows it: its settings, and the results that are there
/// only as a neighbour, each with the hit it is next to.
fn context(s: &settings::Search, rows: &[SearchRow]) -> Json {
    let c = s.ranking.context();
    let joined: Vec<Json> = rows
        .iter()
        .filter_map(|r| {
            let found = r.found.as_ref()?;
            (found.matched_by == SearchMatch::Context)
                .then(|| json!({"id": r.item.id, "next_to": found.context_of}))
        })
        .collect();
    json!({
        "on": c.on(), "weight": c.context_weight, "radius": c.context_radius, "gap_minutes": c.context_gap_minutes,
        "joined": joined,
    })
}
