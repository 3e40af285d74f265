//! The named parameters of each query file of `sql/`, from resolved settings: what the
//! CLI, `recall eval` and the scale benchmark bind alike.
use super::prune::{self, TermShare};
use super::vector_channel::{self, Channel};
use crate::config::table::SETTINGS;
use crate::error::Result;
use crate::library::sql_file::{int, real, text, Params};
use crate::library::Library;
use crate::settings::{self, kinds_param, sources_param, Filters, Ranking};
use recall_core::fts_match::MatchRules;
use rusqlite::types::Value;
use serde_json::Value as Json;

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
            s.ranking.search.candidate_pool,
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
    if let (Some(share), None) = (r.search.prune_share, &s.allow) {
        let rules = MatchRules::for_tokenizer(&lib.tokenizer, r.search.drop_stopwords);
        let terms = recall_core::fts_match::match_terms_with(&s.query, rules);
        let (kept, dropped) = prune::prune(&lib.conn, &terms, &lib.tokenizer, share)?;
        if !dropped.is_empty() {
            pruned_match = Some(recall_core::fts_match::to_match(&kept));
            pruned = dropped;
        }
    }
    let mut params = filters(&s.filters);
    params.push((":sources", text(sources_param(&s.allow).as_deref())));
    let vectors = channel(&params)?;
    params.extend(vectors.params(&r.vectors));
    params.extend([
        (":query", text(Some(&s.query))),
        (":match", text(pruned_match.as_deref())),
        (":tokenizer", text(Some(&lib.tokenizer))),
        (
            ":drop_stopwords",
            int(Some(i64::from(r.search.drop_stopwords))),
        ),
        (":limit", int(Some(s.limit))),
        (":max_limit", int(Some(s.limit.max(1)))),
        (":now", text(s.now.as_deref())),
    ]);
    params.extend(declared(r, "search"));
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
    let mut params = vec![
        (":candidates", int(Some(i64::from(candidates)))),
        (":prompt", text(Some(&s.prompt))),
        (":project", text(s.project.as_deref())),
        (":kinds", text(kinds_param(&s.kinds).as_deref())),
        (":tokenizer", text(Some(&lib.tokenizer))),
        (":sources", text(sources_param(&s.allow).as_deref())),
        (":limit", int(Some(s.limit))),
        (":now", text(s.now.as_deref())),
    ];
    params.extend(declared(&s.ranking, "related"));
    params
}

/// The parameters the declared settings of `command` are read as (`config::table`'s
/// `on`), each its value in the ranking: a whole number as an integer, a number as a
/// real, a name as text. The pool is in range already: the settings clamp its flag and
/// refuse the rest.
fn declared(ranking: &Ranking, command: &str) -> Params {
    SETTINGS
        .iter()
        .filter_map(|setting| {
            let param = setting.param_of(command)?;
            let value = match ranking.value(setting.key)? {
                Json::Number(n) => match n.as_i64() {
                    Some(i) => Value::Integer(i),
                    None => Value::Real(n.as_f64()?),
                },
                Json::String(t) => Value::Text(t),
                Json::Bool(b) => Value::Integer(i64::from(b)),
                _ => Value::Null,
            };
            Some((param, value))
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::library::sql_file::queries;

    /// Whether `sql` reads the parameter `name` (not only a longer one it begins).
    fn reads(sql: &str, name: &str) -> bool {
        sql.match_indices(name).any(|(at, _)| {
            let next = sql[at + name.len()..].chars().next();
            !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        })
    }

    /// Each declared setting a query command takes is bound to the parameter its
    /// declaration names, which that command's query file reads, with the ranking's value
    /// of the setting's kind.
    #[test]
    fn each_declared_setting_is_bound_to_a_parameter_its_query_reads() {
        let mut ranking = Ranking::from_config(&Config::default());
        ranking.search.recency_weight = 0.25;
        ranking.search.context_radius = 4;
        ranking.related.rule = crate::config::RelatedRule::Jezero;
        for (command, query) in [("search", queries::SEARCH), ("related", queries::RELATED)] {
            let bound = declared(&ranking, command);
            let expected: Vec<&str> = SETTINGS
                .iter()
                .filter_map(|s| s.param_of(command))
                .collect();
            let names: Vec<&str> = bound.iter().map(|(n, _)| *n).collect();
            assert_eq!(names, expected, "{command}");
            for name in names {
                assert!(
                    reads(query.sql, name),
                    "sql/{}.sql does not read {name}",
                    query.name
                );
            }
        }
        let value = |command, name| {
            declared(&ranking, command)
                .into_iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v)
        };
        assert_eq!(value("search", ":weight"), Some(Value::Real(0.25)));
        assert_eq!(value("related", ":weight"), Some(Value::Real(0.25)));
        assert_eq!(value("search", ":context_radius"), Some(Value::Integer(4)));
        assert_eq!(value("search", ":pool"), Some(Value::Integer(200)));
        assert_eq!(value("search", ":half_life"), Some(Value::Real(90.0)));
        assert_eq!(
            value("related", ":rule"),
            Some(Value::Text("jezero".into()))
        );
        assert_eq!(value("related", ":pool"), None);
        assert!(reads(":weight)", ":weight") && !reads(":weight_x", ":weight"));
    }
}
