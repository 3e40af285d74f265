//! The judge: an optional re-ranker run after the literal search. The best candidates go
//! to a local process that rates, item by item, the probability that the item helps
//! answer the question, and the answer is shaped by those ratings (`rules`). A judge is
//! never trusted with the search itself: whatever it does (crash, hang, garbage, missing
//! command), the literal answer comes back and `--explain` says why (docs/judge.md).
pub mod protocol;
pub mod rules;

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value as Json};

use crate::bounds::{
    JUDGE_CONCURRENCY, JUDGE_FLOOR, JUDGE_SHORTLIST, JUDGE_THRESHOLD, JUDGE_TIMEOUT_MS,
};
use crate::err;
use crate::error::{Error, Result};
use crate::library::Library;
use crate::line_process::{self, Event, Process};
use crate::settings;
use crate::sql_file::{self, int, queries, text, Params};
use protocol::Item;

/// The `[judge]` section of the configuration.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// The judge's command line (split like a shell's words, run without a shell).
    pub command: Option<String>,
    pub threshold: f64,
    pub floor: f64,
    pub timeout_ms: i64,
    pub shortlist: i64,
    pub concurrency: i64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            command: None,
            threshold: 0.7,
            floor: 0.2,
            timeout_ms: 5000,
            shortlist: 20,
            concurrency: 8,
        }
    }
}

impl Config {
    pub fn validate(&self) -> std::result::Result<(), String> {
        JUDGE_THRESHOLD.check(JUDGE_THRESHOLD.key, self.threshold)?;
        JUDGE_FLOOR.check(JUDGE_FLOOR.key, self.floor)?;
        for (bound, value) in [
            (&JUDGE_TIMEOUT_MS, self.timeout_ms),
            (&JUDGE_SHORTLIST, self.shortlist),
            (&JUDGE_CONCURRENCY, self.concurrency),
        ] {
            bound.check_int(bound.key, value)?;
        }
        floor_below_threshold("judge.floor", self.floor, self.threshold)?;
        if let Some(c) = &self.command {
            command(c).map_err(|e| format!("judge.command: {e}"))?;
        }
        Ok(())
    }
}

fn floor_below_threshold(
    name: &str,
    floor: f64,
    threshold: f64,
) -> std::result::Result<(), String> {
    if floor > threshold {
        return Err(format!(
            "{name} must be at most the threshold {threshold}, got {floor}"
        ));
    }
    Ok(())
}

/// A judge command: words, the first one the program.
fn command(c: &str) -> std::result::Result<String, String> {
    line_process::check_command(c, "the judge")
}

/// The judge's flags of `recall search` and `recall eval`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Args {
    /// Re-rank the best candidates with a judge: a command that rates each one on its
    /// standard input and output (docs/judge.md); default: the config's [judge] command.
    #[arg(long, value_name = "CMD")]
    pub judge_cmd: Option<String>,
    /// No judge, even if the configuration names one: the literal answer.
    #[arg(long, conflicts_with = "judge_cmd")]
    pub no_judge: bool,
}

/// The judge settings a search runs with (part of `settings::Ranking`, so that
/// `recall eval --set judge.…` varies them).
#[derive(Debug, Clone, Serialize)]
pub struct Settings {
    pub command: Option<String>,
    /// Whether the judge runs (off: `--no-judge`, `--set judge=off`).
    pub on: bool,
    pub threshold: f64,
    pub floor: f64,
    pub timeout_ms: i64,
    pub shortlist: i64,
    pub concurrency: i64,
}

/// The keys of `recall eval --set` for the judge.
pub const SET_KEYS: &[&str] = &[
    "judge",
    "judge.threshold",
    "judge.floor",
    "judge.timeout_ms",
    "judge.shortlist",
    "judge.concurrency",
];

impl Settings {
    pub fn from_config(c: &Config) -> Settings {
        Settings {
            command: c.command.clone(),
            on: c.command.is_some(),
            threshold: c.threshold,
            floor: c.floor,
            timeout_ms: c.timeout_ms,
            shortlist: c.shortlist,
            concurrency: c.concurrency,
        }
    }

    /// `--judge-cmd` and `--no-judge` over the configuration.
    pub fn apply(&mut self, a: &Args) -> Result<()> {
        if let Some(c) = &a.judge_cmd {
            self.command = Some(command(c).map_err(|e| err!("--judge-cmd: {e}"))?);
            self.on = true;
        }
        if a.no_judge {
            self.on = false;
        }
        Ok(())
    }

    /// The command, when the judge runs.
    pub fn active(&self) -> Option<&str> {
        self.command.as_deref().filter(|_| self.on)
    }

    /// One `recall eval --set judge…=value`, checked like the configuration's key.
    pub fn set(&mut self, key: &str, value: &str) -> Result<()> {
        let name = format!("--set {key}");
        let number = || settings::set_number(&name, value);
        let whole = || settings::set_whole(&name, value);
        match key {
            "judge" => {
                self.on = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(err!("{name}: write on or off, got {value:?}")),
                };
                if self.on && self.command.is_none() {
                    return Err(err!(
                        "{name}=on: no judge command: give --judge-cmd CMD or the config's [judge] command"
                    ));
                }
            }
            "judge.threshold" => {
                self.threshold = JUDGE_THRESHOLD
                    .check(&name, number()?)
                    .map_err(Error::new)?
            }
            "judge.floor" => {
                self.floor = JUDGE_FLOOR.check(&name, number()?).map_err(Error::new)?
            }
            "judge.timeout_ms" => {
                self.timeout_ms = JUDGE_TIMEOUT_MS
                    .check_int(&name, whole()?)
                    .map_err(Error::new)?
            }
            "judge.shortlist" => {
                self.shortlist = JUDGE_SHORTLIST
                    .check_int(&name, whole()?)
                    .map_err(Error::new)?
            }
            "judge.concurrency" => {
                self.concurrency = JUDGE_CONCURRENCY
                    .check_int(&name, whole()?)
                    .map_err(Error::new)?
            }
            _ => return Err(err!("--set: unknown setting {key:?}")),
        }
        floor_below_threshold(&name, self.floor, self.threshold).map_err(Error::new)
    }

    fn cuts(&self) -> rules::Cuts {
        rules::Cuts {
            threshold: self.threshold,
            floor: self.floor,
        }
    }

    fn shown(&self, command: &str) -> Json {
        json!({
            "command": command, "threshold": self.threshold, "floor": self.floor,
            "timeout_ms": self.timeout_ms, "shortlist": self.shortlist,
            "concurrency": self.concurrency,
        })
    }
}

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

enum Outcome {
    Done,
    TimedOut,
    Failed(String),
}

struct Verdict {
    /// One per item, in order: None when not rated.
    ratings: Vec<Option<f64>>,
    outcome: Outcome,
}

/// Rates `items` with the judge `command`, everything within the timeout.
fn run(command: &str, question: &str, items: &[Item], j: &Settings) -> Verdict {
    let timeout = Duration::from_millis(u64::try_from(j.timeout_ms).unwrap_or(0));
    let deadline = Instant::now() + timeout;
    let mut process = match line_process::JUDGE.take(command) {
        Ok(p) => p,
        Err(why) => {
            return Verdict {
                ratings: vec![None; items.len()],
                outcome: Outcome::Failed(why),
            }
        }
    };
    let concurrency = usize::try_from(j.concurrency).unwrap_or(1).max(1);
    let verdict = rate(&mut process, question, items, concurrency, deadline);
    match verdict.outcome {
        Outcome::Done => line_process::JUDGE.give_back(process),
        // Late answers would belong to this search: the judge goes.
        _ => process.kill(),
    }
    verdict
}

/// At most `concurrency` requests outstanding; each answer makes room for the next.
fn rate(
    p: &mut Process,
    question: &str,
    items: &[Item],
    concurrency: usize,
    deadline: Instant,
) -> Verdict {
    let mut ratings = vec![None; items.len()];
    let mut outstanding: HashMap<u64, usize> = HashMap::new();
    let mut next = 0;
    let fail = |ratings: Vec<Option<f64>>, why: String| Verdict {
        ratings,
        outcome: Outcome::Failed(why),
    };
    loop {
        while next < items.len() && outstanding.len() < concurrency {
            let id = p.next_request_id();
            let line = match serde_json::to_string(&protocol::Request {
                id,
                question,
                item: &items[next],
            }) {
                Ok(l) => l,
                Err(e) => return fail(ratings, format!("cannot write a request: {e}")),
            };
            if let Err(why) = p.send(line) {
                return fail(ratings, why);
            }
            outstanding.insert(id, next);
            next += 1;
        }
        if outstanding.is_empty() {
            return Verdict {
                ratings,
                outcome: Outcome::Done,
            };
        }
        match p.next(deadline) {
            None => {
                return Verdict {
                    ratings,
                    outcome: Outcome::TimedOut,
                }
            }
            Some(Event::Closed) => {
                let why = p.ended();
                return fail(
                    ratings,
                    format!("{why}, with {} requests unanswered", outstanding.len()),
                );
            }
            Some(Event::Line(line)) if line.trim().is_empty() => {}
            Some(Event::Line(line)) => {
                let answer = match protocol::parse(line.trim()) {
                    Ok(a) => a,
                    Err(why) => return fail(ratings, why),
                };
                let Some(index) = outstanding.remove(&answer.id) else {
                    return fail(
                        ratings,
                        format!(
                            "the judge answered request {}, which is not waiting for an answer",
                            answer.id
                        ),
                    );
                };
                ratings[index] = Some(answer.probability);
            }
        }
    }
}
