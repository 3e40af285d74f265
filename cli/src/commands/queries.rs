//! `recall search`, `later`, `timeline`, `related`: run the query files of `sql/` and
//! print a table for people or one JSON object for machines.

use serde_json::{json, Map, Value as Json};

use super::Globals;
use crate::args::{Common, Filters, LaterArgs, Recency, RelatedArgs, SearchArgs, TimelineArgs};
use crate::error::{Error, Result};
use crate::library::{self, Access, Library};
use crate::query::{self, int, real, text, Params};
use crate::text::field;
use crate::{err, output};
use recall_core::defaults::{LIST_MAX_LIMIT, POOL_MAX, POOL_MIN, RELATED_LIMIT};

type Rows = Vec<Map<String, Json>>;

/// A time flag in the stored normal form, by the one rule of every route (the SQL would
/// read garbage as NULL, and a year out of range fails inside it).
pub fn time_flag(flag: &str, value: Option<&str>) -> Result<Option<String>> {
    value
        .map(|v| recall_core::time::storable(v).map_err(|e| err!("{flag} {e}")))
        .transpose()
}

/// A query or prompt argument; `-` reads it from standard input, for text longer than
/// the system's argument limit. One trailing line break is not part of it.
fn text_argument(arg: &str) -> Result<String> {
    if arg != "-" {
        return Ok(arg.to_string());
    }
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::stdin().lock(), &mut text)
        .map_err(|e| err!("cannot read the query from standard input: {e}"))?;
    let text = crate::text::without_bom(&text);
    let text = text.strip_suffix('\n').unwrap_or(text);
    Ok(text.strip_suffix('\r').unwrap_or(text).to_string())
}

fn open(g: &Globals) -> Result<Library> {
    library::open(g.db()?, Access::Read, g.tokenizer.as_deref())
}

fn sources(g: &Globals, c: &Common) -> Option<String> {
    g.allow(&c.access.allow)
        .map(|globs| json!(globs).to_string())
}

pub struct Checked {
    pub filters: Map<String, Json>,
    pub params: Params,
}

pub fn filters(f: &Filters) -> Result<Checked> {
    let since = time_flag("--since", f.since.as_deref())?;
    let until = time_flag("--until", f.until.as_deref())?;
    let mut shown = Map::new();
    for (k, v) in [
        ("project", &f.project),
        ("source", &f.source),
        ("since", &since),
        ("until", &until),
    ] {
        if let Some(v) = v {
            shown.insert(k.to_string(), json!(v));
        }
    }
    Ok(Checked {
        filters: shown,
        params: vec![
            (":project", text(f.project.as_deref())),
            (":source", text(f.source.as_deref())),
            (":since", text(since.as_deref())),
            (":until", text(until.as_deref())),
        ],
    })
}

/// The recency settings: flags over the config. `now` is always a time: the clock is read
/// once here, so that the settings printed are the ones used.
fn recency(g: &Globals, r: &Recency) -> Result<(Option<String>, f64, f64)> {
    use crate::bounds::{HALF_LIFE_DAYS, RECENCY_WEIGHT};
    let now = time_flag("--now", r.now.as_deref())?
        .unwrap_or_else(|| recall_core::time::normalize(&chrono::Utc::now()));
    let half_life = match r.half_life {
        Some(h) => HALF_LIFE_DAYS.check("--half-life", h).map_err(Error::new)?,
        None => g.config.search.recency_half_life_days,
    };
    let weight = match r.weight {
        Some(w) => RECENCY_WEIGHT.check("--weight", w).map_err(Error::new)?,
        None => g.config.search.recency_weight,
    };
    Ok((Some(now), half_life, weight))
}

/// Why an answer is empty: nothing searchable, nothing stored, or excluded.
fn reason(rows: &Rows, terms: Option<&Json>, items: i64) -> Json {
    if !rows.is_empty() {
        return Json::Null;
    }
    match terms {
        Some(Json::Array(t)) if t.is_empty() => json!("no_terms"),
        _ if items == 0 => json!("no_rows"),
        _ => json!("filtered"),
    }
}

fn explain_facts(
    lib: &Library,
    query_text: Option<&str>,
    drop_stopwords: bool,
) -> Result<(Option<Json>, i64)> {
    let rows = query::run(
        &lib.conn,
        "explain",
        &vec![
            (":query", text(query_text)),
            (":tokenizer", text(Some(&lib.tokenizer))),
            (":drop_stopwords", int(Some(drop_stopwords as i64))),
        ],
    )?;
    let row = rows.into_iter().next().unwrap_or_default();
    let terms = row
        .get("terms")
        .and_then(|t| t.as_str())
        .and_then(|t| serde_json::from_str::<Json>(t).ok());
    let items = row.get("items").and_then(|n| n.as_i64()).unwrap_or(0);
    Ok((terms, items))
}

/// The ranking knobs of search and related (what `recall eval` varies).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Ranking {
    pub pool: i64,
    pub drop_stopwords: bool,
    pub half_life: f64,
    pub weight: f64,
    /// Common-term pruning: drop words in more than this share of items (None: off).
    pub prune_share: Option<f64>,
}

impl Ranking {
    pub fn from_config(c: &crate::config::Search) -> Ranking {
        Ranking {
            pool: c.candidate_pool,
            drop_stopwords: c.drop_stopwords,
            half_life: c.recency_half_life_days,
            weight: c.recency_weight,
            prune_share: c.prune_share,
        }
    }
}

/// The parameters of `sql/search.sql`; `filters` holds :project, :source, :since, :until.
/// With pruning on, `:match` carries the pruned expression and `pruned` what was dropped.
pub struct SearchPlan {
    pub params: Params,
    pub pruned: Vec<crate::prune::TermShare>,
}

pub fn search_params(
    lib: &Library,
    query: &str,
    r: &Ranking,
    limit: i64,
    now: Option<&str>,
    sources: Option<&str>,
    mut filters: Params,
) -> Result<SearchPlan> {
    let mut pruned = Vec::new();
    let mut pruned_match = None;
    if let Some(share) = r.prune_share {
        let min = recall_core::query::min_chars_for_tokenizer(&lib.tokenizer);
        let terms = recall_core::query::match_terms(query, min, r.drop_stopwords);
        let (kept, dropped) = crate::prune::prune(&lib.conn, &terms, &lib.tokenizer, share)?;
        if !dropped.is_empty() {
            pruned_match = Some(recall_core::query::to_match(&kept));
            pruned = dropped;
        }
    }
    filters.extend([
        (":query", text(Some(query))),
        (":match", text(pruned_match.as_deref())),
        (":tokenizer", text(Some(&lib.tokenizer))),
        (":drop_stopwords", int(Some(r.drop_stopwords as i64))),
        (":sources", text(sources)),
        (":pool", int(Some(r.pool.clamp(POOL_MIN, POOL_MAX)))),
        (":limit", int(Some(limit))),
        (":max_limit", int(Some(limit.max(1)))),
        (":now", text(now)),
        (":half_life", real(Some(r.half_life))),
        (":weight", real(Some(r.weight))),
    ]);
    Ok(SearchPlan {
        params: filters,
        pruned,
    })
}

/// The parameters of `sql/later.sql`.
pub fn later_params(
    lib: &Library,
    item_id: i64,
    query: Option<&str>,
    limit: i64,
    sources: Option<&str>,
) -> Params {
    vec![
        (":item_id", int(Some(item_id))),
        (":query", text(query)),
        (":limit", int(Some(limit))),
        (":tokenizer", text(Some(&lib.tokenizer))),
        (":sources", text(sources)),
    ]
}

/// The parameters of `sql/related.sql`.
pub fn related_params(
    lib: &Library,
    prompt: &str,
    project: Option<&str>,
    r: &Ranking,
    limit: i64,
    now: Option<&str>,
    sources: Option<&str>,
) -> Params {
    vec![
        (":prompt", text(Some(prompt))),
        (":project", text(project)),
        (":tokenizer", text(Some(&lib.tokenizer))),
        (":sources", text(sources)),
        (":limit", int(Some(limit))),
        (":now", text(now)),
        (":half_life", real(Some(r.half_life))),
        (":weight", real(Some(r.weight))),
    ]
}

/// Prints the answer: JSON `{"results", "settings", "explain"?}` or one line per row.
fn print(g: &Globals, command: &str, rows: &Rows, settings: Json, explain: Option<Json>) {
    if g.json {
        let mut doc = json!({ "command": command, "results": rows, "settings": settings });
        if let Some(e) = explain {
            doc["explain"] = e;
        }
        output::json(&doc);
        return;
    }
    let mut last_matched_by: Option<&str> = None;
    for row in rows {
        let s = |k: &str| {
            row.get(k)
                .and_then(|v| v.as_str())
                .unwrap_or("-")
                .to_string()
        };
        if let Some(m) = row.get("matched_by").and_then(|v| v.as_str()) {
            if last_matched_by != Some(m) {
                crate::say!("# matched by {}", m.replace('_', " "));
                last_matched_by = Some(m);
            }
        }
        let date: String = s("date").chars().take(10).collect();
        crate::say!(
            "[{}] {} {} ({}, {})",
            row.get("id").map(|v| v.to_string()).unwrap_or_default(),
            field(&date),
            field(&s("title")),
            field(&s("project")),
            field(&s("source"))
        );
    }
    if rows.is_empty() {
        crate::say!("(no results)");
    }
    if let Some(e) = explain {
        crate::say!("--");
        if let Some(obj) = e.as_object() {
            for (k, v) in obj {
                let shown = match v {
                    Json::String(s) => s.clone(),
                    other => other.to_string(),
                };
                crate::say!("{k}: {}", field(&shown));
            }
        }
    }
}

pub fn search(g: &Globals, a: &SearchArgs) -> Result<i32> {
    let query = text_argument(&a.query)?;
    let lib = open(g)?;
    let checked = filters(&a.filters)?;
    let (now, half_life, weight) = recency(g, &a.recency)?;
    let cfg = &g.config.search;
    let ranking = Ranking {
        pool: a
            .pool
            .unwrap_or(cfg.candidate_pool)
            .clamp(POOL_MIN, POOL_MAX),
        drop_stopwords: cfg.drop_stopwords && !a.literal,
        half_life,
        weight,
        prune_share: a.prune.or(cfg.prune_share),
    };
    if let Some(share) = a.prune {
        crate::bounds::PRUNE_SHARE
            .check("--prune", share)
            .map_err(Error::new)?;
    }
    let (pool, drop_stopwords) = (ranking.pool, ranking.drop_stopwords);
    let limit = recall_core::score::limit(a.common.limit, cfg.default_limit, cfg.max_limit);
    let allow = sources(g, &a.common);
    let plan = search_params(
        &lib,
        &query,
        &ranking,
        limit,
        now.as_deref(),
        allow.as_deref(),
        checked.params,
    )?;
    let rows = query::run(&lib.conn, "search", &plan.params)?;
    let settings = json!({
        "query": query, "tokenizer": lib.tokenizer, "drop_stopwords": drop_stopwords,
        "pool": pool, "limit": limit, "half_life_days": half_life, "recency_weight": weight,
        "now": now, "filters": checked.filters, "allow": g.allow(&a.common.access.allow),
        "prune_share": ranking.prune_share,
    });
    let explain = if a.common.explain {
        let (mut terms, items) = explain_facts(&lib, Some(&query), drop_stopwords)?;
        if let Some(Json::Array(list)) = terms.as_mut() {
            list.retain(|t| {
                !plan
                    .pruned
                    .iter()
                    .any(|p| Some(p.term.as_str()) == t.as_str())
            });
        }
        Some(json!({
            "terms": terms, "pruned": plan.pruned, "filters": checked.filters, "allow": g.allow(&a.common.access.allow),
            "pool": pool, "limit": limit, "items": items,
            "reason": reason(&rows, terms.as_ref(), items),
        }))
    } else {
        None
    };
    print(g, "search", &rows, settings, explain);
    Ok(0)
}

pub fn timeline(g: &Globals, a: &TimelineArgs) -> Result<i32> {
    let lib = open(g)?;
    let checked = filters(&a.filters)?;
    let default_limit = g.config.timeline.default_limit;
    let limit = recall_core::score::limit(a.common.limit, default_limit, LIST_MAX_LIMIT);
    let allow = sources(g, &a.common);
    let mut params = checked.params;
    params.extend([
        (":sources", text(allow.as_deref())),
        (":limit", int(Some(limit))),
        (":default_limit", int(Some(default_limit))),
    ]);
    let rows = query::run(&lib.conn, "timeline", &params)?;
    let settings = json!({ "limit": limit, "filters": checked.filters, "allow": g.allow(&a.common.access.allow) });
    let explain = if a.common.explain {
        let (_, items) = explain_facts(&lib, None, false)?;
        Some(json!({
            "filters": checked.filters, "allow": g.allow(&a.common.access.allow), "limit": limit,
            "items": items, "reason": reason(&rows, None, items),
        }))
    } else {
        None
    };
    print(g, "timeline", &rows, settings, explain);
    Ok(0)
}

pub fn later(g: &Globals, a: &LaterArgs) -> Result<i32> {
    let lib = open(g)?;
    let allow = sources(g, &a.common);
    // The item must exist and be readable: otherwise answer exactly as `get` does.
    let item = query::run(
        &lib.conn,
        "get",
        &vec![
            (":id", int(Some(a.id))),
            (":sources", text(allow.as_deref())),
            (":transcript", int(Some(0))),
        ],
    )?;
    let Some(item) = item.into_iter().next() else {
        return Err(err!("no item {} in {}", a.id, lib.path.display()));
    };
    let default_limit = g.config.later.default_limit;
    let limit = recall_core::score::limit(a.common.limit, default_limit, LIST_MAX_LIMIT);
    let params = later_params(&lib, a.id, a.query.as_deref(), limit, allow.as_deref());
    let rows = query::run(&lib.conn, "later", &params)?;
    let subject = a
        .query
        .clone()
        .filter(|q| !q.trim().is_empty())
        .or_else(|| {
            item.get("title")
                .and_then(|t| t.as_str())
                .map(str::to_string)
        })
        .unwrap_or_default();
    let settings = json!({
        "item_id": a.id, "subject": subject, "limit": limit, "allow": g.allow(&a.common.access.allow),
    });
    let explain = if a.common.explain {
        let (terms, items) = explain_facts(&lib, Some(&subject), true)?;
        let scope = match item.get("project").and_then(|p| p.as_str()) {
            Some(p) => json!({ "project": p }),
            None => json!({ "source": item.get("source") }),
        };
        Some(json!({
            "terms": terms, "scope": scope, "since": item.get("occurred_at"), "limit": limit,
            "items": items, "reason": reason(&rows, terms.as_ref(), items),
        }))
    } else {
        None
    };
    print(g, "later", &rows, settings, explain);
    Ok(0)
}

pub fn related(g: &Globals, a: &RelatedArgs) -> Result<i32> {
    let prompt = text_argument(&a.prompt)?;
    let lib = open(g)?;
    let (now, half_life, weight) = recency(g, &a.recency)?;
    let allow = sources(g, &a.common);
    let limit = recall_core::score::limit(a.common.limit, RELATED_LIMIT, RELATED_LIMIT);
    let ranking = Ranking {
        half_life,
        weight,
        ..Ranking::from_config(&g.config.search)
    };
    let params = related_params(
        &lib,
        &prompt,
        a.project.as_deref(),
        &ranking,
        limit,
        now.as_deref(),
        allow.as_deref(),
    );
    let rows = query::run(&lib.conn, "related", &params)?;
    let terms =
        recall_core::prompt::prompt_terms(&prompt, recall_core::prompt::DEFAULT_MAX_PROMPT_TERMS);
    let settings = json!({
        "prompt": prompt, "project": a.project, "limit": limit, "half_life_days": half_life,
        "recency_weight": weight, "now": now, "allow": g.allow(&a.common.access.allow),
    });
    let explain = if a.common.explain {
        let (_, items) = explain_facts(&lib, None, false)?;
        // Fewer than two distinctive words: nothing to relate by.
        let terms_json = if terms.len() < 2 {
            json!([])
        } else {
            json!(terms)
        };
        Some(json!({
            "terms": terms, "project": a.project, "allow": g.allow(&a.common.access.allow),
            "items": items, "reason": reason(&rows, Some(&terms_json), items),
        }))
    } else {
        None
    };
    print(g, "related", &rows, settings, explain);
    Ok(0)
}
