//! `recall eval`: labeled cases run through the same queries as the CLI, under one or
//! more settings, with Recall@k, MRR, nDCG@10 and must-not violations.
pub mod labels;
pub mod locomo;
pub mod longmemeval;
pub mod metrics;
pub mod select;
pub mod sessions;
pub mod start_cost;

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::args;
use crate::error::{err, Result};
use crate::library::Library;
use crate::settings::{self, time_flag, Globals, Ranking};
use crate::{input, query};

/// How many results a case reads: the first 10 for the metrics, and the ranks beyond.
const DEPTH: i64 = 50;
use metrics::Outcome;

/// One labeled case, as a line of the cases file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub id: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    /// A search query; with `item`, the subject words of `later`.
    pub query: Option<String>,
    /// A first prompt, for `related`.
    pub prompt: Option<String>,
    /// An item id, for `later`.
    pub item: Option<i64>,
    pub project: Option<String>,
    pub source: Option<String>,
    pub since: Option<String>,
    pub until: Option<String>,
    /// Only items of these kinds (a kind, or a list of them), as `--kind` asks.
    #[serde(default, rename = "kind", deserialize_with = "one_or_more")]
    pub kinds: Option<Vec<String>>,
    /// The reference time for recency; without it, the time of the run.
    pub now: Option<String>,
    /// Ids that must be found; `[]` without `must_not`: the answer should be empty.
    pub expect: Option<Vec<i64>>,
    /// Ids that must not appear in the first 10.
    #[serde(default)]
    pub must_not: Vec<i64>,
    /// The sessions of the case's conversation, by name: the first and the last id of
    /// each one's items (`import-locomo` writes them). With them eval reports the session
    /// level too (`sessions.rs`): the evidence sessions are those of the expected ids.
    pub sessions: Option<indexmap::IndexMap<String, [i64; 2]>>,
}

/// A kind, or a list of kinds.
fn one_or_more<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<Vec<String>>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMore {
        One(String),
        More(Vec<String>),
    }
    Ok(match Option::<OneOrMore>::deserialize(d)? {
        None => None,
        Some(OneOrMore::One(k)) => Some(vec![k]),
        Some(OneOrMore::More(k)) => Some(k),
    })
}

impl Case {
    /// The ids the case must find.
    pub fn expected(&self) -> &[i64] {
        self.expect.as_deref().unwrap_or_default()
    }

    /// Whether the answer should be empty: `"expect": []` and no `must_not`.
    pub fn expects_nothing(&self) -> bool {
        self.expect.as_ref().is_some_and(Vec::is_empty) && self.must_not.is_empty()
    }

    /// Every item id the case names: what it expects, forbids, and the item of `later`.
    pub fn ids(&self) -> impl Iterator<Item = i64> + '_ {
        self.expected()
            .iter()
            .chain(&self.must_not)
            .chain(&self.item)
            .copied()
    }

    /// The case with each id it names replaced by `to(id)`.
    pub fn renumbered(&self, to: impl Fn(i64) -> i64) -> Case {
        let mut c = self.clone();
        c.item = c.item.map(&to);
        c.expect = c.expect.map(|ids| ids.into_iter().map(&to).collect());
        c.must_not = c.must_not.into_iter().map(&to).collect();
        c
    }

    /// The session an item id is in, when the case names its sessions.
    pub fn session_of(&self, id: i64) -> Option<&str> {
        self.sessions
            .as_ref()?
            .iter()
            .find(|(_, [first, last])| (*first..=*last).contains(&id))
            .map(|(name, _)| name.as_str())
    }

    /// The sessions of the expected ids, each once, in the order they are named.
    pub fn evidence_sessions(&self) -> Vec<String> {
        sessions::rank(self.expected(), |id| self.session_of(id))
    }

    pub fn kind(&self) -> &'static str {
        if self.item.is_some() {
            "later"
        } else if self.prompt.is_some() {
            "related"
        } else {
            "search"
        }
    }

    fn check(&mut self) -> std::result::Result<(), String> {
        if self.item.is_none() && self.prompt.is_none() && self.query.is_none() {
            return Err(
                "a case needs a query (search), a prompt (related) or an item (later)".into(),
            );
        }
        if self.prompt.is_some() && (self.query.is_some() || self.item.is_some()) {
            return Err("a prompt case (related) takes no query or item".into());
        }
        if self.expect.is_none() && self.must_not.is_empty() {
            return Err(
                "a case needs expect (the ids it must find, or [] for an answer that should be empty) or must_not"
                    .into(),
            );
        }
        if let Some(sessions) = &self.sessions {
            if self.kind() != "search" {
                return Err("sessions are for a search case (query)".into());
            }
            if let Some((name, _)) = sessions.iter().find(|(_, [a, b])| a > b) {
                return Err(format!(
                    "session {name:?}: write [first id, last id], the first not above the last"
                ));
            }
            if let Some(id) = self
                .expected()
                .iter()
                .find(|id| self.session_of(**id).is_none())
            {
                return Err(format!(
                    "expected id {id} is in none of the case's sessions: each session is [first id, last id] of its items"
                ));
            }
        }
        if let Some(kinds) = &self.kinds {
            if kinds.is_empty() {
                return Err("kind is an empty list: leave it out for any kind".into());
            }
            for k in kinds {
                crate::item::kind_shape("kind", k)?;
            }
        }
        // Times are read once, into the library's normal form, as the CLI's flags are.
        for (name, v) in [
            ("now", &mut self.now),
            ("since", &mut self.since),
            ("until", &mut self.until),
        ] {
            *v = time_flag(name, v.as_deref()).map_err(|e| e.message)?;
        }
        Ok(())
    }
}

/// A cases file: its cases, and the import file they were made against when its first
/// line names one (`{"items": "sample.jsonl"}`, [`labels`]).
pub struct CasesFile {
    pub cases: Vec<Case>,
    pub labels: Option<labels::Labels>,
}

pub fn read_cases(path: &Path) -> Result<CasesFile> {
    let what = path.display().to_string();
    let bytes =
        input::read_file_limited(path, input::DATASET, &what, "split the cases into files")?;
    let text = input::text(bytes, &what)?;
    let mut cases = Vec::new();
    let mut labels = None;
    for (i, line) in text.lines().enumerate() {
        let line = crate::text::without_bom(line);
        if line.trim().is_empty() {
            continue;
        }
        let at = |e: &dyn std::fmt::Display| err!("{}: line {}: {e}", path.display(), i + 1);
        let value: serde_json::Value = serde_json::from_str(line).map_err(|e| at(&e))?;
        if let Some(named) = value.get("items") {
            let only = value.as_object().is_some_and(|o| o.len() == 1);
            let named = named.as_str().filter(|n| only && !n.is_empty()).ok_or_else(|| {
                at(&"the items line is {\"items\": \"FILE\"}, the import file the ids are of, and nothing else")
            })?;
            if !cases.is_empty() || labels.is_some() {
                return Err(at(&"the items line comes first, once"));
            }
            labels = Some(labels::read(path, named)?);
            continue;
        }
        let mut case: Case = serde_json::from_value(value).map_err(|e| at(&e))?;
        case.check().map_err(|e| at(&e))?;
        // Sessions are ranges of the ids of the library the cases were written for; an
        // items line renumbers single ids, which keeps no range.
        if labels.is_some() && case.sessions.is_some() {
            return Err(at(&"a case with sessions takes no items line: sessions name ranges of this library's ids"));
        }
        case.id.get_or_insert_with(|| format!("line-{}", i + 1));
        cases.push(case);
    }
    if cases.is_empty() {
        return Err(err!("{} holds no cases", path.display()));
    }
    Ok(CasesFile { cases, labels })
}

/// One column of the comparison: a library and ranking settings.
#[derive(Debug, Clone)]
pub struct Variant {
    pub label: String,
    pub library: PathBuf,
    pub ranking: Ranking,
}

/// The ids a case's query returns, in rank order, and how the judge or the embedder
/// failed when their failure gave the literal answer instead. The case is asked as the
/// command line asks it (`args`), and resolved by the command's own `settings`, over the
/// column's ranking.
pub fn answer(
    g: &Globals,
    lib: &Library,
    case: &Case,
    ranking: &Ranking,
) -> Result<(Vec<i64>, Option<String>)> {
    // A column reads the whole library, whatever the configuration's `[access] allow`:
    // its labels name items of every source (set below, after each resolve).
    let kinds = args::KindArgs {
        kinds: case.kinds.clone().unwrap_or_default(),
    };
    let common = args::Common {
        limit: Some(DEPTH),
        ..args::Common::default()
    };
    let recency = args::Recency {
        now: case.now.clone(),
    };
    match case.kind() {
        "later" => {
            let asked = args::LaterArgs {
                id: case.item.unwrap_or_default(),
                query: case.query.clone(),
                kinds,
                common,
            };
            let mut s = in_case(case, settings::Later::resolve(g, &asked))?;
            s.allow = None;
            let rows = query::later_results(lib, &s)?;
            Ok((rows.iter().map(|r| r.item.id).collect(), None))
        }
        "related" => {
            let asked = args::RelatedArgs {
                prompt: String::new(),
                project: case.project.clone(),
                recency,
                settings: Default::default(),
                kinds,
                scope: args::ScopeArgs::default(),
                common: args::Common::default(),
            };
            let prompt = case.prompt.clone().unwrap_or_default();
            let mut s = in_case(
                case,
                settings::Related::ranked(g, &asked, prompt, ranking.clone()),
            )?;
            s.allow = None;
            let answer = query::related(lib, &s, false)?;
            Ok((answer.results.iter().map(|r| r.item.id).collect(), None))
        }
        _ => {
            let asked = args::SearchArgs {
                filters: args::Filters {
                    project: case.project.clone(),
                    source: case.source.clone(),
                    since: case.since.clone(),
                    until: case.until.clone(),
                },
                recency,
                kinds,
                common,
                ..args::SearchArgs::default()
            };
            let query = case.query.clone().unwrap_or_default();
            let mut s = in_case(
                case,
                settings::Search::ranked(g, &asked, ranking.clone(), || Ok(query)),
            )?;
            // Every case reads DEPTH ranks, whatever the configuration's most results.
            s.limit = DEPTH;
            s.allow = None;
            // The judge's answer when one is set, as `recall search` gives it.
            let answer = query::search(lib, &s, false)?;
            let ids = answer.results.iter().map(|r| r.item.id).collect();
            Ok((ids, answer.fell_back))
        }
    }
}

/// A case's request refused (a kind the library does not know), named by its case.
fn in_case<T>(case: &Case, asked: Result<T>) -> Result<T> {
    asked.map_err(|e| {
        let id = case.id.as_deref().unwrap_or("?");
        err!("case {id}: {}", e.message)
    })
}

pub fn run_variant(
    g: &Globals,
    lib: &Library,
    cases: &[Case],
    ranking: &Ranking,
) -> Result<Vec<Outcome>> {
    cases
        .iter()
        .map(|c| {
            let (ids, fell_back) = answer(g, lib, c, ranking)?;
            let mut outcome = metrics::outcome(
                c.id.clone().unwrap_or_default(),
                c.kind(),
                c.tags.clone(),
                &ids,
                metrics::Expected {
                    ids: c.expected(),
                    must_not: &c.must_not,
                    nothing: c.expects_nothing(),
                },
            );
            outcome.fell_back = fell_back;
            Ok(outcome)
        })
        .collect()
}
