//! The tools as clients list them: name, description, input schema and hints. An argument
//! that is a declared setting (`config::table`) is described by its declaration, with its
//! range and the resolved configuration's value as the default, so a client sees the
//! values a call without the argument would use.
use std::sync::Arc;

use rmcp::handler::server::common::schema_for_input;
use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde_json::{json, Value as Json};

use super::tools;
use crate::config::setting::Setting;
use crate::config::table::SETTINGS;
use crate::config::Config;
use crate::item::JsonItem;
use crate::items::forget::ForgetRequest;
use recall_core::defaults::{LIST_MAX_LIMIT, RELATED_LIMIT};
use recall_core::score::limit;

/// The tools that only read.
pub const READ: [&str; 5] = ["search", "later", "related", "timeline", "get"];
/// The tools that write, offered only with `--allow-writes`.
pub const WRITE: [&str; 2] = ["add", "forget"];

/// The search tool's description; with a judge or an embedder, what its answer adds.
fn search_description(judge: bool, vectors: bool) -> String {
    let mut text = "Search the library for items (past sessions, decisions, errors) matching \
                    free text. Full-text ranking by the words, then re-ranked by recency; a \
                    date with its year in the query (in March 2026, on 2026-03-02) weighs \
                    the items written then. \
                    Returns {command, results: [{id, date, title, project, source, kind, \
                    global, score, relevance}], settings} (and explain). Read in three \
                    steps: this compact index first, then timeline with around for what \
                    came just before and after a hit, then get with ids for the few chosen, \
                    all in one call. A project filter also shows global items (rules for \
                    every project); kind keeps decisions, bugfixes, … only."
        .to_string();
    if judge {
        text.push_str(
            " A judge then rates the best candidates: results carry judged and probability \
             (those below the judge's threshold are left out), ranker says judge or \
             literal, and below_threshold that only weak matches were found.",
        );
    }
    if vectors {
        text.push_str(
            " On a library with vectors, items near the query in meaning join too: results \
             carry literal_rank, vector_rank and fused (the score), and matched_by is \
             vector for an item found by meaning alone.",
        );
    }
    text
}

/// Every tool this server offers.
pub fn tools(config: &Config, writes: bool) -> Vec<Tool> {
    let c = &config.search;
    let declared = |tool: &str, mut schema: JsonObject| {
        settings(&mut schema, tool, config);
        schema
    };
    let limits = |schema: &mut JsonObject, default: i64, max: i64| {
        let default = limit(None, default, max);
        with(
            schema,
            "limit",
            json!({ "minimum": 1, "maximum": max, "default": default }),
        );
    };

    let mut search = declared("search", input::<tools::Search>());
    limits(&mut search, c.default_limit, c.max_limit);
    let mut later = declared("later", input::<tools::Later>());
    limits(&mut later, config.later.default_limit, LIST_MAX_LIMIT);
    let mut timeline = declared("timeline", input::<tools::Timeline>());
    limits(&mut timeline, config.timeline.default_limit, LIST_MAX_LIMIT);
    let mut related = declared("related", input::<tools::Related>());
    limits(&mut related, RELATED_LIMIT, RELATED_LIMIT);

    let read = ToolAnnotations::new().read_only(true).open_world(false);
    let mut list = vec![
        Tool::new(
            "search",
            search_description(
                config.judge.command.is_some(),
                config.vectors.command.is_some(),
            ),
            search,
        ),
        Tool::new(
            "later",
            "Newer items on the same subject as an item: what happened after it, such as a \
             decision reversed or an error fixed (kind: [\"decision\"] keeps decisions). \
             Returns {command, results: [{id, date, title, project, source, kind, global, \
             matched_by}], settings}; matched_by is subject or project_timeline.",
            later,
        ),
        Tool::new(
            "related",
            "Items sharing at least two distinctive words with the first prompt of a \
             session: earlier work on the same subject, to read before starting (with a \
             project, its global items too). Returns {command, results: [{id, date, title, \
             project, source, kind, global, overlap, score}], settings}.",
            related,
        ),
        Tool::new(
            "timeline",
            "Items newest first, in a project (with its global items), a source or a time \
             window. With around (an id from search), the items just before and after it \
             in its project instead, oldest first, the item flagged anchor: the second \
             step of reading, between search and get. Returns {command, results: [{id, \
             date, title, project, source, kind, global}] (and anchor with around), \
             settings}.",
            timeline,
        ),
        Tool::new(
            "get",
            "Items in full: source, project, title, summary, questions, atoms, \
             occurred_at, imported_at, kind, global, and the transcript when asked for. \
             With id, one item: {command, item}. With ids, the few chosen from search or \
             timeline in one call, in that order: {command, items, missing}, missing \
             naming the ids of no item (not an error).",
            input::<tools::Get>(),
        ),
    ]
    .into_iter()
    .map(|t| t.with_annotations(read.clone()))
    .collect::<Vec<_>>();
    if writes {
        list.push(
            Tool::new(
                "add",
                "Store one item in the library, with the fields of a line of `recall \
                 import`: source, title and occurred_at required; kind says what it is \
                 (decision, bugfix, feature, discovery, gotcha, note), global makes it \
                 visible in every project. Returns {command, id}.",
                input::<JsonItem>(),
            )
            .with_annotations(
                ToolAnnotations::new()
                    .read_only(false)
                    .destructive(false)
                    .open_world(false),
            ),
        );
        list.push(
            Tool::new(
                "forget",
                "Remove items for good: every condition given must hold (ids, source, \
                 project, before), so adding one never forgets more; the library file is \
                 then rewritten so that no copy of their text remains. dry_run lists them \
                 and changes nothing. Returns {command, ids, items: [{id, date, title, \
                 project, source}], unmatched, dry_run, wiped, warning}.",
                input::<ForgetRequest>(),
            )
            .with_annotations(
                ToolAnnotations::new()
                    .read_only(false)
                    .destructive(true)
                    .idempotent(true)
                    .open_world(false),
            ),
        );
    }
    list
}

/// A type's input schema (root `type: object`, as MCP requires), its descriptions on one
/// line each (doc comments are wrapped at 90 columns, a client's display is not).
fn input<T: JsonSchema + 'static>() -> JsonObject {
    let mut schema = match schema_for_input::<T>() {
        Ok(schema) => Arc::unwrap_or_clone(schema),
        // Every input type here is a struct, whose schema is an object.
        Err(_) => JsonObject::new(),
    };
    let properties = schema.get_mut("properties").and_then(Json::as_object_mut);
    for property in properties.into_iter().flat_map(|p| p.values_mut()) {
        if let Some(Json::String(text)) = property.get_mut("description") {
            *text = text.replace('\n', " ");
        }
    }
    schema
}

/// Adds `keys` to the schema of property `name`.
fn with(schema: &mut JsonObject, name: &str, keys: Json) {
    let property = schema
        .get_mut("properties")
        .and_then(|p| p.get_mut(name))
        .and_then(Json::as_object_mut);
    if let (Some(property), Json::Object(keys)) = (property, keys) {
        property.extend(keys);
    }
}

/// The arguments that are declared settings: those `tool` takes from the table (`on`),
/// each a number that may be null, as schemars writes an optional field; then for each
/// the declaration's description (unless the tool words the argument for itself), and
/// unless declared `unranged` its range and, when set, the configuration's value as the
/// default.
fn settings(schema: &mut JsonObject, tool: &str, config: &Config) {
    if let Some(Json::Object(properties)) = schema.get_mut("properties") {
        for setting in crate::config::given::of_tool(tool) {
            let (Some(argument), Some(bound)) = (&setting.mcp, setting.bound()) else {
                continue;
            };
            let (kind, format) = match bound.integer {
                true => ("integer", "int64"),
                false => ("number", "double"),
            };
            properties.insert(
                argument.name.to_string(),
                json!({ "type": [kind, "null"], "format": format }),
            );
        }
    }
    let properties = schema.get_mut("properties").and_then(Json::as_object_mut);
    for (name, property) in properties.into_iter().flat_map(|p| p.iter_mut()) {
        let declared = SETTINGS
            .iter()
            .find(|s| s.mcp.as_ref().is_some_and(|a| a.name == name));
        let (Some(setting), Json::Object(property)) = (declared, property) else {
            continue;
        };
        property
            .entry("description")
            .or_insert_with(|| json!(setting.about()));
        if setting.mcp.as_ref().is_some_and(|a| a.ranged) {
            property.extend(range(setting));
            if let Some(default) = config.value(setting.key).filter(|v| !v.is_null()) {
                property.insert("default".to_string(), default);
            }
        }
    }
}

/// A setting's range as JSON Schema keywords: whole numbers as integers.
fn range(setting: &Setting) -> JsonObject {
    let mut keys = JsonObject::new();
    let Some(bound) = setting.bound() else {
        return keys;
    };
    let number = |n: f64| {
        if bound.integer {
            json!(n as i64)
        } else {
            json!(n)
        }
    };
    let low = if bound.above_min {
        "exclusiveMinimum"
    } else {
        "minimum"
    };
    keys.insert(low.to_string(), number(bound.min));
    keys.insert("maximum".to_string(), number(bound.max));
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each setting a tool takes from the table is a property of its schema: a number
    /// (whole for a whole setting) that may be null, described by its declaration, and
    /// ranged with the configuration's default unless declared `unranged`.
    #[test]
    fn a_tools_settings_are_in_its_schema() {
        let mut config = Config::default();
        config.search.recency_weight = 0.3;
        let tools = tools(&config, false);
        for name in ["search", "related"] {
            let tool = tools.iter().find(|t| t.name == name).expect("the tool");
            let properties = tool.input_schema["properties"]
                .as_object()
                .expect("properties");
            let declared: Vec<&Setting> = crate::config::given::of_tool(name).collect();
            assert!(!declared.is_empty(), "{name}");
            for setting in declared {
                let argument = setting.mcp.as_ref().expect("an argument");
                let p = &properties[argument.name];
                let kind = if setting.bound().is_some_and(|b| b.integer) {
                    "integer"
                } else {
                    "number"
                };
                assert_eq!(p["type"], json!([kind, "null"]), "{name} {}", argument.name);
                assert_eq!(
                    p["description"],
                    json!(setting.about()),
                    "{name} {}",
                    argument.name
                );
                assert_eq!(
                    p.get("maximum").is_some(),
                    argument.ranged,
                    "{}",
                    argument.name
                );
            }
            assert_eq!(properties["weight"]["default"], json!(0.3), "{name}");
        }
        let later = tools.iter().find(|t| t.name == "later").expect("later");
        assert!(later.input_schema["properties"].get("weight").is_none());
    }
}
