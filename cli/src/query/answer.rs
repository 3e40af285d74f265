//! A query's answer, typed: what `--json` prints, what `recall mcp` returns and what the
//! text listing is made from. It becomes JSON once, in `to_json`, with every object's
//! keys in order.
use serde::Serialize;
use serde_json::{Map, Value as Json};

use super::replay::{self, Ran};
use super::rows::ItemRow;
use crate::error::{err, Result};
use crate::library::sql_file::{Params, Query};
use crate::library::Library;

/// The answer of a query command: `{"command", "results", "settings", "explain"?}`, and
/// with a judge set, how the results were ranked.
#[derive(Debug, Clone, Serialize)]
pub struct Answer<R> {
    pub command: &'static str,
    pub results: Vec<R>,
    /// The settings the query ran with, as shown.
    pub settings: Json,
    /// `--explain`: the terms and filters that ran and why an answer is empty, with each
    /// query's own fields (`explain::build`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explain: Option<Map<String, Json>>,
    #[serde(flatten)]
    pub ranked: Option<Ranked>,
    /// Why a helper process (the embedder, the judge) failed and the literal answer came
    /// instead; `--explain` shows it, `recall eval` counts it.
    #[serde(skip)]
    pub fell_back: Option<String>,
    /// The query file and parameters the rows came from (`--show-sql`).
    #[serde(skip)]
    pub ran: Option<Ran>,
}

/// How a judged search ranked its results (docs/judge.md).
#[derive(Debug, Clone, Serialize)]
pub struct Ranked {
    /// `judge`, or `literal` when the judge rated nothing.
    pub ranker: &'static str,
    /// No result reached the judge's threshold: these are weak matches.
    pub below_threshold: bool,
}

impl<R> Answer<R> {
    pub fn new(command: &'static str, results: Vec<R>, settings: Json) -> Answer<R> {
        Answer {
            command,
            results,
            settings,
            explain: None,
            ranked: None,
            fell_back: None,
            ran: None,
        }
    }

    /// Records the query file and parameters the rows came from; with `--explain`, its
    /// shell replay is `explain.sql`.
    pub fn ran(mut self, lib: &Library, query: Query, params: &Params) -> Answer<R> {
        let ran = Ran {
            query,
            params: params.clone(),
        };
        if let Some(doc) = self.explain.as_mut() {
            doc.insert("sql".to_string(), Json::String(replay::shell(lib, &ran)));
        }
        self.ran = Some(ran);
        self
    }

    pub fn below_threshold(&self) -> bool {
        self.ranked.as_ref().is_some_and(|r| r.below_threshold)
    }
}

/// The answer of `get`: `{"command": "get", "item": {…}}`.
#[derive(Debug, Clone, Serialize)]
pub struct ItemAnswer {
    pub command: &'static str,
    pub item: ItemRow,
    #[serde(skip)]
    pub ran: Option<Ran>,
}

/// The answer of `get` with several ids: `{"command": "get", "items": [...], "missing":
/// [...]}`, the items in the order asked, and the ids that name no item the caller may
/// read (missing and forbidden alike), in the order asked.
#[derive(Debug, Clone, Serialize)]
pub struct ItemsAnswer {
    pub command: &'static str,
    pub items: Vec<ItemRow>,
    pub missing: Vec<i64>,
    #[serde(skip)]
    pub ran: Option<Ran>,
}

/// The JSON object of an answer. Through `serde_json::Value`, whose objects keep their
/// keys sorted: the order every answer has always had.
pub fn to_json<T: Serialize>(answer: &T) -> Result<Json> {
    serde_json::to_value(answer).map_err(|e| err!("cannot make the answer JSON: {e}"))
}
