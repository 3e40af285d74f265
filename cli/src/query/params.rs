//! The named parameters of each query file of `sql/`, from resolved settings: what the
//! CLI, `recall eval` and the scale benchmark bind alike.
use crate::error::Result;
use crate::library::Library;
use crate::query::sql_file::{int, real, text, Params};
use crate::settings::{self, sources_param, Filters};
use recall_core::defaults::{POOL_MAX, POOL_MIN};

/// The parameters of `sql/search.sql`. With pruning on, `:match` carries the pruned
/// expression and `pruned` what was dropped; with the vector channel on, `:nearest` the
/// items nearest the query.
pub struct SearchPlan {
    pub params: Params,
    pub pruned: Vec<crate::query::prune::TermShare>,
    pub vectors: crate::query::vector_channel::Channel,
}

fn filters(f: &Filters) -> Params {
    vec![
        (":project", text(f.project.as_deref())),
        (":source", text(f.source.as_deref())),
        (":since", text(f.since.as_deref())),
        (":until", text(f.until.as_deref())),
    ]
}

pub fn search(lib: &Library, s: &settings::Search) -> Result<SearchPlan> {
    let r = &s.ranking;
    let mut pruned = Vec::new();
    let mut pruned_match = None;
    if let Some(share) = r.prune_share {
        let min = recall_core::fts_match::min_chars_for_tokenizer(&lib.tokenizer);
        let terms = recall_core::fts_match::match_terms(&s.query, min, r.drop_stopwords);
        let (kept, dropped) = crate::query::prune::prune(&lib.conn, &terms, &lib.tokenizer, share)?;
        if !dropped.is_empty() {
            pruned_match = Some(recall_core::fts_match::to_match(&kept));
            pruned = dropped;
        }
    }
    let mut params = filters(&s.filters);
    params.push((":sources", text(sources_param(&s.allow).as_deref())));
    let pool = r.pool.clamp(POOL_MIN, POOL_MAX);
    let vectors = crate::query::vector_channel::run(lib, &r.vectors, &s.query, &params, pool)?;
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
        (":half_life", real(Some(r.half_life))),
        (":weight", real(Some(r.weight))),
        (":context_weight", real(Some(r.context.weight))),
        (":context_radius", int(Some(r.context.radius))),
        (":context_gap", real(Some(r.context.gap_minutes))),
    ]);
    Ok(SearchPlan {
        params,
        pruned,
        vectors,
    })
}

/// The parameters of `sql/later.sql`.
pub fn later(lib: &Library, s: &settings::Later) -> Params {
    vec![
        (":item_id", int(Some(s.item_id))),
        (":query", text(s.query.as_deref())),
        (":limit", int(Some(s.limit))),
        (":tokenizer", text(Some(&lib.tokenizer))),
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
        (":tokenizer", text(Some(&lib.tokenizer))),
        (":sources", text(sources_param(&s.allow).as_deref())),
        (":limit", int(Some(s.limit))),
        (":now", text(s.now.as_deref())),
        (":half_life", real(Some(s.ranking.half_life))),
        (":weight", real(Some(s.ranking.weight))),
    ]
}

/// The parameters of `sql/get.sql`.
pub fn get(id: i64, allow: &Option<Vec<String>>, transcript: bool) -> Params {
    vec![
        (":id", int(Some(id))),
        (":sources", text(sources_param(allow).as_deref())),
        (":transcript", int(Some(i64::from(transcript)))),
    ]
}

/// The parameters of `sql/explain.sql`.
pub fn explain(lib: &Library, query: Option<&str>, drop_stopwords: bool) -> Params {
    vec![
        (":query", text(query)),
        (":tokenizer", text(Some(&lib.tokenizer))),
        (":drop_stopwords", int(Some(i64::from(drop_stopwords)))),
    ]
}
