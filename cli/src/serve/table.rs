//! The one table of the MCP tools, as `config/table.rs` is of the settings: each tool's
//! name, spelled here only, whether it reads or writes, what `tools/list` shows of it
//! (description, input schema, hints) and the function that answers a call, called by
//! `Tool::call` for the MCP server and the review page alike. The MCP catalog lists them
//! in this order (the writes only with `--allow-writes`), the MCP server serves and
//! classifies a call by its entry, and a write's entry says what a signal that waited
//! for its commit tells of it.
use rmcp::model::{JsonObject, ToolAnnotations};
use serde_json::{Map, Value as Json};

use super::answer::{self, Call, Reply};
use super::{schema, tools};
use crate::args::AccessArgs;
use crate::config::Config;
use crate::error::Result;
use crate::item::JsonItem;
use crate::items::forget::ForgetRequest;
use crate::library::Library;
use crate::settings::Globals;
use recall_core::defaults::{LIST_MAX_LIMIT, RELATED_LIMIT};

/// Whether a call reads the library or writes to it: a write runs on the one write
/// connection, under the signals' watch, and only for a server and a token that may write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

/// A tool.
pub struct Tool {
    pub name: &'static str,
    pub access: Access,
    pub description: fn(&Config) -> String,
    /// Its input schema, before `schema::settings` adds the declared settings it takes.
    pub input: fn(&Config) -> JsonObject,
    pub hints: fn() -> ToolAnnotations,
    pub run: fn(Call<'_>) -> Result<Reply>,
    /// For a write, what its call did, told by a signal's line once its answer is
    /// written: "the NAME call in progress …".
    pub done: fn(&Json) -> String,
}

impl Tool {
    /// The one way a tool is called, by the MCP server for its clients and by the review
    /// page (its search, an item's neighbours, its forget): the call's arguments, checked
    /// against `schema` when one is given, under the caller's access, on `lib` (a reader,
    /// or the writer for a write, which the caller takes).
    pub fn call(
        &self,
        globals: &Globals,
        access: &AccessArgs,
        lib: &mut Library,
        arguments: Option<&Map<String, Json>>,
        schema: Option<&JsonObject>,
    ) -> Result<Reply> {
        (self.run)(Call {
            globals,
            access,
            lib,
            arguments,
            schema,
            name: self.name,
        })
    }
}

/// Every tool, in the order `tools/list` gives them.
pub const TOOLS: [&Tool; 7] = [&SEARCH, &LATER, &RELATED, &TIMELINE, &GET, &ADD, &FORGET];

/// The tool of this name.
pub fn tool(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().copied().find(|t| t.name == name)
}

/// The hints of every tool that only reads.
fn reads() -> ToolAnnotations {
    ToolAnnotations::new().read_only(true).open_world(false)
}

/// A read has nothing to tell after a commit: it never begins one.
fn no_commit(_: &Json) -> String {
    String::new()
}

pub const SEARCH: Tool = Tool {
    name: "search",
    access: Access::Read,
    description: search_description,
    input: |c| schema::limited::<tools::Search>(c.search.default_limit, c.search.max_limit),
    hints: reads,
    run: answer::search,
    done: no_commit,
};

pub const LATER: Tool = Tool {
    name: "later",
    access: Access::Read,
    description: |_| {
        "Newer items on the same subject as an item: what happened after it, such as a \
         decision reversed or an error fixed (kind: [\"decision\"] keeps decisions). \
         Returns {command, results: [{id, date, title, project, source, kind, global, \
         matched_by}], settings}; matched_by is subject or project_timeline."
            .to_string()
    },
    input: |c| schema::limited::<tools::Later>(c.later.default_limit, LIST_MAX_LIMIT),
    hints: reads,
    run: answer::later,
    done: no_commit,
};

pub const RELATED: Tool = Tool {
    name: "related",
    access: Access::Read,
    description: |_| {
        "Items sharing at least two distinctive words with the first prompt of a \
         session: earlier work on the same subject, to read before starting (with a \
         project, its global items too). Returns {command, results: [{id, date, title, \
         project, source, kind, global, overlap, score}], settings}."
            .to_string()
    },
    input: |_| schema::limited::<tools::Related>(RELATED_LIMIT, RELATED_LIMIT),
    hints: reads,
    run: answer::related,
    done: no_commit,
};

pub const TIMELINE: Tool = Tool {
    name: "timeline",
    access: Access::Read,
    description: |_| {
        "Items newest first, in a project (with its global items), a source or a time \
         window. With around (an id from search), the items just before and after it \
         in its project instead, oldest first, the item flagged anchor: the second \
         step of reading, between search and get. Returns {command, results: [{id, \
         date, title, project, source, kind, global}] (and anchor with around), \
         settings}."
            .to_string()
    },
    input: |c| schema::limited::<tools::Timeline>(c.timeline.default_limit, LIST_MAX_LIMIT),
    hints: reads,
    run: answer::timeline,
    done: no_commit,
};

pub const GET: Tool = Tool {
    name: "get",
    access: Access::Read,
    description: |_| {
        "Items in full: source, project, title, summary, questions, atoms, \
         occurred_at, imported_at, kind, global, and the transcript when asked for. \
         With id, one item: {command, item}. With ids, the few chosen from search or \
         timeline in one call, in that order: {command, items, missing}, missing \
         naming the ids of no item (not an error)."
            .to_string()
    },
    input: |_| schema::input::<tools::Get>(),
    hints: reads,
    run: answer::get,
    done: no_commit,
};

pub const ADD: Tool = Tool {
    name: "add",
    access: Access::Write,
    description: |_| {
        "Store one item in the library, with the fields of a line of `recall \
         import`: source, title and occurred_at required; kind says what it is \
         (decision, bugfix, feature, discovery, gotcha, note), global makes it \
         visible in every project. Returns {command, id}."
            .to_string()
    },
    input: |_| schema::input::<JsonItem>(),
    hints: || {
        ToolAnnotations::new()
            .read_only(false)
            .destructive(false)
            .open_world(false)
    },
    run: answer::add,
    done: |answer| {
        format!(
            "completed (item {} stored)",
            answer.get("id").unwrap_or(&Json::Null)
        )
    },
};

pub const FORGET: Tool = Tool {
    name: "forget",
    access: Access::Write,
    description: |_| {
        "Remove items for good: every condition given must hold (ids, source, \
         project, before), so adding one never forgets more; the library file is \
         then rewritten so that no copy of their text remains. dry_run lists them \
         and changes nothing. Returns {command, ids, items: [{id, date, title, \
         project, source}], unmatched, dry_run, wiped, warning}."
            .to_string()
    },
    input: |_| schema::input::<ForgetRequest>(),
    hints: || {
        ToolAnnotations::new()
            .read_only(false)
            .destructive(true)
            .idempotent(true)
            .open_world(false)
    },
    run: answer::forget,
    done: forgotten,
};

/// What a forget call did: its items forgotten, and wiped from the file unless its
/// answer says they were not.
pub fn forgotten(answer: &Json) -> String {
    if answer.get("wiped") == Some(&Json::Bool(false)) {
        "forgot its items, but their text was not wiped from the file: run `recall forget \
         --finish`"
            .to_string()
    } else {
        "completed (its items forgotten and wiped)".to_string()
    }
}

/// The search tool's description; with a judge or an embedder, what its answer adds.
fn search_description(config: &Config) -> String {
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
    if config.judge.command.is_some() {
        text.push_str(
            " A judge then rates the best candidates: results carry judged and probability \
             (those below the judge's threshold are left out), ranker says judge or \
             literal, and below_threshold that only weak matches were found.",
        );
    }
    if config.vectors.command.is_some() {
        text.push_str(
            " On a library with vectors, items near the query in meaning join too: results \
             carry literal_rank, vector_rank and fused (the score), and matched_by is \
             vector for an item found by meaning alone.",
        );
    }
    text
}
