//! The named parameters of each query file of `sql/`, from resolved settings: what the
//! CLI, `recall eval` and the scale benchmark bind alike.
use super::prune::{self, TermShare};
use super::vector_channel::{self, Channel};
use crate::error::Result;
use crate::library::sql_file::{int, real, text, Params};
use crate::library::Library;
use crate::settings::{self, kinds_param, sources_param, Filters};
use recall_core::fts_match::MatchRules;

/// The parameters of `sql/search.sql`. With pruning on, `:match` carries the pruned
/// expression and `pruned` what was dropped; with the vector channel on, `:nearest` the
/// items nearest the query.
pub struct SearchPlan {
    pub params: Params,
    pub pruned: Vec<TermShare>,
    pub vectors: Channel,
}

fn filters(f: &Filters) -> Params {
    vec![
        (":project", text(f.project.as_deref())),
        (":source", text(f.source.as_deref())),
        (":since", text(f.since.as_deref())),
        (":until", text(f.until.as_deref())),
        (":kinds", text(kinds_param(&f.kinds).as_deref())),
    ]
}

pub fn search(lib: &Library, s: &settings::Search) -> Result<SearchPlan> {
    plan_search(lib, s, |filters| {
        vector_channel::run(
            lib,
            &s.ranking.vectors,
            &s.query,
            filters,
            s.ranking.candidate_pool,
        )
    })
}

/// `search` with the items nearest the query given, as the embedder's vector would find
/// them (the scale benchmark: a library with vectors and no embedder).
pub fn search_near(
    lib: &Library,
    s: &settings::Search,
    nearest: Vec<vector_channel::Near>,
) -> Result<SearchPlan> {
    plan_search(lib, s, |_| {
        Ok(Channel::On {
            model: String::new(),
            nearest,
            embed_ms: 0,
        })
    })
}

/// The parameters of `sql/search.sql`, the vector channel run by `channel` on the
/// filters' parameters.
fn plan_search(
    lib: &Library,
    s: &settings::Search,
    channel: impl FnOnce(&Params) -> Result<Channel>,
) -> Result<SearchPlan> {
    let r = &s.ranking;
    let mut pruned = Vec::new();
    let mut pruned_match = None;
    // Under an access restriction pruning is off: its counts are the whole library's, and
    // what it drops would tell how common a word is among items the caller may not read.
    if let (Some(share), None) = (r.prune_share, &s.allow) {
        let rules = MatchRules::for_tokenizer(&lib.tokenizer, r.drop_stopwords);
        let terms = recall_core::fts_match::match_terms_with(&s.query, rules);
        let (kept, dropped) = prune::prune(&lib.conn, &terms, &lib.tokenizer, share)?;
        if !dropped.is_empty() {
            pruned_match = Some(recall_core::fts_match::to_match(&kept));
            pruned = dropped;
        }
    }
    let mut params = filters(&s.filters);
    params.push((":sources", text(sources_param(&s.allow).as_deref())));
    // The pool is in range already: the settings clamp the flag and refuse the rest.
    let pool = r.candidate_pool;
    let vectors = channel(&params)?;
    params.extend(vectors.params(&r.vectors));
    params.extend([
        (":query", text(Some(&s.query))),
        (":match", text(pruned_match.as_deref())),
        (":tokenizer", text(Some(&lib.tokenizer))),
        (":drop_stopwords", int(Some(i64::from(r.drop_stopwords)))),
        (":pool", int(Some(pool))),
        (":limit", int(Some(s.limit))),
        (":max_limit", int(Some(s.limit.max(1)))),
        (":now", text(s.now.as_deref())),
        (":half_life", real(Some(r.recency_half_life_days))),
        (":weight", real(Some(r.recency_weight))),
        (":period_weight", real(Some(r.period_weight))),
        (":context_weight", real(Some(r.context.context_weight))),
        (":context_radius", int(Some(r.context.context_radius))),
        (":context_gap", real(Some(r.context.context_gap_minutes))),
        (
            ":context_column_weight",
            real(Some(r.context.context_column_weight)),
        ),
    ]);
    Ok(SearchPlan {
        params,
        pruned,
        vectors,
    })
}

/// The parameters of `sql/file_items.sql`.
pub fn file_items(lib: &Library, s: &settings::FileItems) -> Params {
    let mut params = filters(&s.filters);
    params.extend([
        (":file", text(Some(&s.file))),
        (":query", text(s.query.as_deref())),
        (":tokenizer", text(Some(&lib.tokenizer))),
        (":sources", text(sources_param(&s.allow).as_deref())),
        (":limit", int(Some(s.limit))),
        (":default_limit", int(Some(s.default_limit))),
    ]);
    params
}

/// The parameters of `sql/later.sql`.
pub fn later(lib: &Library, s: &settings::Later) -> Params {
    vec![
        (":item_id", int(Some(s.item_id))),
        (":query", text(s.query.as_deref())),
        (":limit", int(Some(s.limit))),
        (":tokenizer", text(Some(&lib.tokenizer))),
        (":sources", text(sources_param(&s.allow).as_deref())),
        (":kinds", text(kinds_param(&s.kinds).as_deref())),
    ]
}

/// The parameters of `sql/timeline_around.sql`.
pub fn timeline_around(s: &settings::Timeline, around: &settings::Around) -> Params {
    let all = s.filters.scope == Some(crate::args::Scope::All);
    vec![
        (":item_id", int(Some(around.id))),
        (":before", int(Some(around.before))),
        (":after", int(Some(around.after))),
        (":kinds", text(kinds_param(&s.filters.kinds).as_deref())),
        (":scope", text(all.then_some("all"))),
        (":sources", text(sources_param(&s.allow).as_deref())),
    ]
}

/// The parameters of `sql/timeline.sql`.
pub fn timeline(s: &settings::Timeline) -> Params {
    let mut params = filters(&s.filters);
    params.extend([
        (":sources", text(sources_param(&s.allow).as_deref())),
        (":limit", int(Some(s.limit))),
        (":default_limit", int(Some(s.default_limit))),
    ]);
    params
}

/// The parameters of `sql/related.sql`; with `candidates`, every judged candidate comes
/// back with its verdict (for `--explain`).
pub fn related(lib: &Library, s: &settings::Related, candidates: bool) -> Params {
    vec![
        (":rule", text(Some(s.ranking.related_rule.name()))),
        (":min_weight", real(Some(s.ranking.related_min_weight))),
        (
            ":min_joint_weight",
            real(Some(s.ranking.related_min_joint_weight)),
        ),
        (":candidates", int(Some(i64::from(candidates)))),
        (":prompt", text(Some(&s.prompt))),
        (":project", text(s.project.as_deref())),
        (":kinds", text(kinds_param(&s.kinds).as_deref())),
        (":tokenizer", text(Some(&lib.tokenizer))),
        (":sources", text(sources_param(&s.allow).as_deref())),
        (":limit", int(Some(s.limit))),
        (":now", text(s.now.as_deref())),
        (":half_life", real(Some(s.ranking.recency_half_life_days))),
        (":weight", real(Some(s.ranking.recency_weight))),
    ]
}

/// The parameters of `sql/get.sql`, for the items of `ids`.
pub fn get(ids: &[i64], allow: &Option<Vec<String>>, transcript: bool) -> Params {
    vec![
        (":ids", text(Some(&serde_json::json!(ids).to_string()))),
        (":sources", text(sources_param(allow).as_deref())),
        (":transcript", int(Some(i64::from(transcript)))),
    ]
}

/// The parameters of `sql/explain_matches.sql`: which of `terms` the items `ids` hold.
pub fn explain_matches(
    ids: &[i64],
    terms: &[String],
    context_column_weight: f64,
    allow: &Option<Vec<String>>,
) -> Params {
    vec![
        (":ids", text(Some(&serde_json::json!(ids).to_string()))),
        (":terms", text(Some(&serde_json::json!(terms).to_string()))),
        (":context_column_weight", real(Some(context_column_weight))),
        (":sources", text(sources_param(allow).as_deref())),
    ]
}

/// The parameters of `sql/explain.sql`.
pub fn explain(
    lib: &Library,
    allow: &Option<Vec<String>>,
    query: Option<&str>,
    drop_stopwords: bool,
) -> Params {
    vec![
        (":sources", text(sources_param(allow).as_deref())),
        (":query", text(query)),
        (":tokenizer", text(Some(&lib.tokenizer))),
        (":drop_stopwords", int(Some(i64::from(drop_stopwords)))),
    ]
}
