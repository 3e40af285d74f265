//! The query tools' inputs: one struct per tool, whose fields are the command's options
//! (the writes take the real types: `item::JsonItem`, `items::forget::ForgetRequest`).
//! The input schemas are derived from them; an argument that is a declared setting is
//! described, ranged and given its default by its declaration (`config::table`, filled
//! in by `schema`); the declared settings a tool takes are not fields here but made from
//! the table (`split`, and `schema` for their schemas). Each call becomes the command's
//! clap arguments, resolved by `settings` as on the command line.
use schemars::JsonSchema;
use serde::Deserialize;

use serde_json::Value as Json;

use crate::args::{self, AccessArgs, Scope};
use crate::config::{self, given::Given};
use crate::error::{err, Result};

/// A result count: the command line takes zero or less as "the default", which from a
/// client is more likely a mistake than a wish.
fn positive_limit(limit: Option<i64>) -> Result<Option<i64>> {
    match limit {
        Some(n) if n < 1 => Err(err!(
            "limit must be a positive whole number, got {n}: leave it out for the default"
        )),
        other => Ok(other),
    }
}

/// `scope` as the command's `--scope` takes it.
fn scope(value: Option<String>) -> Result<args::ScopeArgs> {
    let scope = match value.as_deref() {
        None => None,
        Some(name) => Some(
            Scope::from_name(name)
                .ok_or_else(|| err!("scope must be {}, got {name:?}", Scope::NAMES.join(" or ")))?,
        ),
    };
    Ok(args::ScopeArgs { scope })
}

/// The arguments of `tool` that are declared settings (`config::table`'s `on` with an
/// `mcp` name), taken out of `arguments`, whose rest the tool's struct reads. A null is an
/// argument left out; one not of its setting's kind of number is refused as the struct
/// refuses a field of the wrong type (the MCP server's schema check refuses it before,
/// the review page's API has none).
pub fn split(tool: &str, mut arguments: Json) -> Result<(Json, Given)> {
    let mut given = Given::default();
    if let Json::Object(map) = &mut arguments {
        for setting in config::given::of_tool(tool) {
            let Some(name) = setting.mcp.as_ref().map(|a| a.name) else {
                continue;
            };
            match map.remove(name) {
                None | Some(Json::Null) => {}
                Some(value) => {
                    of_its_kind(setting, &value).map_err(|e| err!("bad arguments: {e}"))?;
                    given.push(setting, value);
                }
            }
        }
    }
    Ok((arguments, given))
}

/// Whether `value` reads as `setting`'s kind of number, in serde's words when it does not.
fn of_its_kind(setting: &config::setting::Setting, value: &Json) -> serde_json::Result<()> {
    match &setting.range {
        config::setting::Range::Number(b) if b.integer => i64::deserialize(value).map(drop),
        config::setting::Range::Number(_) => f64::deserialize(value).map(drop),
        _ => Ok(()),
    }
}

fn not_blank(name: &str, text: &str, what: &str) -> Result<()> {
    if text.trim().is_empty() {
        return Err(err!("{name} is empty: give {what}"));
    }
    Ok(())
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Search {
    /// Free text: literal words, not meanings, so use words the items would contain
    /// (names, error messages, identifiers). Nothing in it acts as a search operator;
    /// "quoted phrases" stay phrases.
    pub query: Option<String>,
    /// Only the items that edited or named this file, newest first (query may then be
    /// left out): its path relative to the repository's top folder (src/billing/tax.rs),
    /// which matches in every clone, or an absolute path.
    pub file: Option<String>,
    /// Leave out the items whose files changed after them (in the server's checkout);
    /// each other result names such files in changed_since.
    #[serde(default)]
    pub fresh: bool,
    /// Only items of this project.
    pub project: Option<String>,
    /// Only items of this source (the agent or tool that wrote them).
    pub source: Option<String>,
    /// Only items at or after this time: ISO-8601, like 2025-03-04 or
    /// 2025-03-04T05:06:07Z (a bare date or a time without offset is UTC).
    pub since: Option<String>,
    /// Only items before this time (ISO-8601, as since).
    pub until: Option<String>,
    /// How many results; more than the maximum is cut to it.
    pub limit: Option<i64>,
    /// Keep stop words; by default they are dropped while another word remains.
    #[serde(default)]
    pub literal: bool,
    /// The reference time for recency (ISO-8601); by default the time of the call.
    pub now: Option<String>,
    /// Only items of these kinds (decision, bugfix, feature, discovery, gotcha, note, or
    /// one the server's configuration adds).
    #[serde(default)]
    pub kind: Vec<String>,
    /// project (default): a project filter keeps the project's items and the global
    /// ones; all: every project.
    #[schemars(extend("enum" = ["project", "all", null]))]
    pub scope: Option<String>,
    /// Also return `explain`: the terms and filters that ran, and why an answer is empty;
    /// with `matched`, for each result the terms it holds, in which fields, and whether only
    /// inside other words.
    #[serde(default)]
    pub explain: bool,
}

impl Search {
    /// The command's arguments; `given` holds the tool's arguments that are declared
    /// settings (`split`).
    pub fn args(self, access: &AccessArgs, given: Given) -> Result<args::SearchArgs> {
        // Absent and null alike: the query may be left out for a file.
        let query = self.query.unwrap_or_default();
        match &self.file {
            Some(file) => not_blank("file", file, "the path of a file")?,
            None => not_blank("query", &query, "the words to search for, or a file")?,
        }
        Ok(args::SearchArgs {
            query,
            file: self.file,
            fresh: self.fresh,
            filters: args::Filters {
                project: self.project,
                source: self.source,
                since: self.since,
                until: self.until,
            },
            literal: self.literal,
            settings: args::SearchFlags { given },
            recency: args::Recency { now: self.now },
            // The server's configuration chooses the judge and the embedder, as it does
            // for the command.
            judge: Default::default(),
            vectors: Default::default(),
            kinds: args::KindArgs { kinds: self.kind },
            scope: scope(self.scope)?,
            common: common(self.limit, self.explain, access)?,
        })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Later {
    /// The item whose later history is wanted (an id from another tool's results).
    pub id: i64,
    /// Subject words; by default the item's title.
    pub query: Option<String>,
    /// Only newer items of these kinds (decision is the usual one: was it reversed?).
    #[serde(default)]
    pub kind: Vec<String>,
    /// How many results; more than the maximum is cut to it.
    pub limit: Option<i64>,
    /// Also return `explain`: the terms and scope that ran, and why an answer is empty;
    /// with `matched`, for each result the subject's terms it holds, in which fields.
    #[serde(default)]
    pub explain: bool,
}

impl Later {
    pub fn args(self, access: &AccessArgs) -> Result<args::LaterArgs> {
        Ok(args::LaterArgs {
            id: self.id,
            query: self.query,
            kinds: args::KindArgs { kinds: self.kind },
            common: common(self.limit, self.explain, access)?,
        })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Timeline {
    /// Only items of this project.
    pub project: Option<String>,
    /// Only items of this source.
    pub source: Option<String>,
    /// Only items at or after this time (ISO-8601, like 2025-03-04).
    pub since: Option<String>,
    /// Only items before this time (ISO-8601).
    pub until: Option<String>,
    /// An item's id: instead of the newest items, the items just before and after it in
    /// time, oldest first, in its project (with it, flagged anchor). Takes no project,
    /// source, since, until or limit.
    pub around: Option<i64>,
    /// With around: how many items before it (default 3, at most 50).
    pub before: Option<i64>,
    /// With around: how many items after it (default 3, at most 50).
    pub after: Option<i64>,
    /// Only items of these kinds (with around: only such neighbours).
    #[serde(default)]
    pub kind: Vec<String>,
    /// project (default): a project filter keeps the project's items and the global
    /// ones; all: every project (with around: its neighbours in the whole library).
    #[schemars(extend("enum" = ["project", "all", null]))]
    pub scope: Option<String>,
    /// How many results; more than the maximum is cut to it.
    pub limit: Option<i64>,
    /// Also return `explain`: the filters that ran, and why an answer is empty.
    #[serde(default)]
    pub explain: bool,
}

impl Timeline {
    pub fn args(self, access: &AccessArgs) -> Result<args::TimelineArgs> {
        if self.around.is_some() {
            // As the command line refuses them together.
            let given = [
                ("project", self.project.is_some()),
                ("source", self.source.is_some()),
                ("since", self.since.is_some()),
                ("until", self.until.is_some()),
                ("limit", self.limit.is_some()),
            ];
            if let Some((name, _)) = given.iter().find(|(_, g)| *g) {
                return Err(err!(
                    "around cannot be given with {name}: around lists the item's own neighbours (before and after say how many)"
                ));
            }
        } else if let Some(name) = [("before", self.before), ("after", self.after)]
            .iter()
            .find_map(|(n, v)| v.map(|_| n))
        {
            return Err(err!(
                "{name} needs around: the item to list the neighbours of"
            ));
        }
        Ok(args::TimelineArgs {
            filters: args::Filters {
                project: self.project,
                source: self.source,
                since: self.since,
                until: self.until,
            },
            around: args::AroundArgs {
                around: self.around,
                before: self.before,
                after: self.after,
            },
            kinds: args::KindArgs { kinds: self.kind },
            scope: scope(self.scope)?,
            common: common(self.limit, self.explain, access)?,
        })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Related {
    /// The first prompt of a session, as the user wrote it.
    pub prompt: String,
    /// Only items of this project.
    pub project: Option<String>,
    /// The reference time for recency (ISO-8601); by default the time of the call.
    pub now: Option<String>,
    /// Only items of these kinds.
    #[serde(default)]
    pub kind: Vec<String>,
    /// project (default): a project filter keeps the project's items and the global
    /// ones; all: every project.
    #[schemars(extend("enum" = ["project", "all", null]))]
    pub scope: Option<String>,
    /// How many results; more than the maximum is cut to it.
    pub limit: Option<i64>,
    /// Also return `explain`: the prompt's distinctive words, each candidate judged (the
    /// words it shares, their weights, kept or dropped and why), and why an answer is
    /// empty.
    #[serde(default)]
    pub explain: bool,
}

impl Related {
    /// The command's arguments; `given` holds the tool's arguments that are declared
    /// settings (`split`).
    pub fn args(self, access: &AccessArgs, given: Given) -> Result<args::RelatedArgs> {
        not_blank("prompt", &self.prompt, "the first prompt of the session")?;
        Ok(args::RelatedArgs {
            prompt: self.prompt,
            project: self.project,
            recency: args::Recency { now: self.now },
            settings: args::RelatedFlags { given },
            kinds: args::KindArgs { kinds: self.kind },
            scope: scope(self.scope)?,
            common: common(self.limit, self.explain, access)?,
        })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Get {
    /// One item's id (from another tool's results): answers {command, item}, an error
    /// when it names no item.
    pub id: Option<i64>,
    /// Several ids at once, in the order wanted (at most 50): answers {command, items,
    /// missing}, items in that order and missing the ids that name no item.
    pub ids: Option<Vec<i64>>,
    /// Include each item's stored transcript, which can be long.
    #[serde(default)]
    pub transcript: bool,
}

/// Which items a `get` call asks for: one id, or several.
pub enum Wanted {
    One(i64),
    Several(Vec<i64>),
}

impl Get {
    pub fn wanted(&self) -> Result<Wanted> {
        match (self.id, &self.ids) {
            (Some(id), None) => Ok(Wanted::One(id)),
            (None, Some(ids)) if !ids.is_empty() => Ok(Wanted::Several(ids.clone())),
            (None, Some(_)) => Err(err!("ids is empty: give the ids of the items to get")),
            (Some(_), Some(_)) => Err(err!("give id (one item) or ids (several), not both")),
            (None, None) => Err(err!("id is missing: give id (one item) or ids (several)")),
        }
    }
}

fn common(limit: Option<i64>, explain: bool, access: &AccessArgs) -> Result<args::Common> {
    Ok(args::Common {
        limit: positive_limit(limit)?,
        explain,
        show_sql: false,
        access: access.clone(),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The declared settings a tool takes leave its arguments for `Given`, a null as left
    /// out; the rest stays for the tool's struct, which refuses what it does not know.
    #[test]
    fn a_tools_settings_are_split_from_its_arguments() {
        let (rest, given) = split(
            "search",
            json!({ "query": "x", "weight": 0.5, "pool": 20, "prune": null, "limit": 3 }),
        )
        .unwrap();
        assert_eq!(rest, json!({ "query": "x", "limit": 3 }));
        let values: Vec<(&str, Json)> = given
            .values()
            .map(|(s, v)| (s.key, v.cloned().unwrap_or_default()))
            .collect();
        assert_eq!(
            values,
            [
                ("search.candidate_pool", json!(20)),
                ("search.recency_weight", json!(0.5)),
            ]
        );
        // related takes the recency settings, not search's pool; later takes none.
        let (rest, given) =
            split("related", json!({ "prompt": "p", "pool": 20, "weight": 0 })).unwrap();
        assert_eq!(rest, json!({ "prompt": "p", "pool": 20 }));
        assert_eq!(given.values().count(), 1);
        assert!(serde_json::from_value::<Related>(rest).is_err());
        let (rest, given) = split("later", json!({ "id": 1, "weight": 0.5 })).unwrap();
        assert_eq!(rest, json!({ "id": 1, "weight": 0.5 }));
        assert_eq!(given.values().count(), 0);
        // A value of the wrong kind is refused in serde's words, as a field of the struct.
        let refused = |arguments: Json| split("search", arguments).unwrap_err().message;
        assert_eq!(
            refused(json!({ "query": "x", "weight": "0.5" })),
            "bad arguments: invalid type: string \"0.5\", expected f64"
        );
        assert_eq!(
            refused(json!({ "query": "x", "pool": 20.0 })),
            "bad arguments: invalid type: floating point `20.0`, expected i64"
        );
        assert!(
            split("search", json!({ "weight": 1 })).is_ok(),
            "a whole number is a real"
        );
    }
}
