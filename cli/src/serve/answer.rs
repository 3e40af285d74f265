//! Each tool's answer to a call: its arguments checked against the schema the client was
//! given, turned into the command's arguments, resolved by `settings` as on the command
//! line and answered by the read path or the writes, typed (`Reply`), which is the
//! command's JSON once made JSON. The table (`table.rs`) names which function answers
//! which tool, and `Tool::call` is how both servers call one.
use rmcp::model::JsonObject;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value as Json};

use super::{arguments, tools, writes};
use crate::args::AccessArgs;
use crate::error::{err, Result};
use crate::items::forget::ForgetRequest;
use crate::library::Library;
use crate::query::changed::{self, Fresh, Here, Marked};
use crate::query::rows::{AroundRow, FileRow, LaterRow, Listed, RelatedRow, SearchRow};
use crate::query::{self, to_json, Answer};
use crate::settings::{self, Globals};

/// A tool's answer, as the read path typed it: the MCP server gives it as the command's
/// JSON (`into_json`), the review page also lists a listing's rows with their lines.
pub enum Reply {
    Search(Answer<SearchRow>),
    /// `search` with `file`: the items that name a file.
    Files(Answer<FileRow>),
    Later(Answer<LaterRow>),
    Related(Answer<RelatedRow>),
    /// `timeline` with `around`.
    Around(Answer<AroundRow>),
    Timeline(Answer<Listed>),
    /// `get`'s items and the writes' reports, already the command's JSON.
    Json(Json),
}

impl Reply {
    /// What `recall --json COMMAND` prints for the same call.
    pub fn into_json(self) -> Result<Json> {
        match self {
            Reply::Search(a) => to_json(&a),
            Reply::Files(a) => to_json(&a),
            Reply::Later(a) => to_json(&a),
            Reply::Related(a) => to_json(&a),
            Reply::Around(a) => to_json(&a),
            Reply::Timeline(a) => to_json(&a),
            Reply::Json(j) => Ok(j),
        }
    }
}

/// A call as a server hands it to its tool (`Tool::call`): the library it runs on (a
/// reader, or the writer for a write), the caller's access, and its arguments as the
/// client sent them.
pub struct Call<'a> {
    pub globals: &'a Globals,
    pub access: &'a AccessArgs,
    pub lib: &'a mut Library,
    pub arguments: Option<&'a Map<String, Json>>,
    /// The input schema the client was given, which the arguments are checked against
    /// (the MCP server's); none, and the tool's input struct reads them as they are (the
    /// review page's, whose own script sends them).
    pub schema: Option<&'a JsonObject>,
    pub name: &'static str,
}

impl Call<'_> {
    /// The arguments, checked against the tool's schema when there is one.
    fn checked(&self) -> Result<Json> {
        match self.schema {
            Some(schema) => arguments::check(schema, self.arguments),
            None => Ok(Json::Object(self.arguments.cloned().unwrap_or_default())),
        }
    }

    /// The server's own folder, where its agent started it: the checkout items' files
    /// are checked in (`query::changed`).
    fn here(&self) -> Option<Here> {
        Here::current(&self.globals.config.projects)
    }
}

pub fn search(c: Call<'_>) -> Result<Reply> {
    let (g, lib, here) = (c.globals, &*c.lib, c.here());
    let (arguments, given) = tools::split(c.name, c.checked()?)?;
    let a = input::<tools::Search>(arguments)?.args(c.access, given)?;
    if let Some(file) = &a.file {
        let mut s = settings::FileItems::resolve(g, &a, file, None)?;
        let fresh = Fresh::ask(a.fresh, &mut s.limit);
        let mut answer = query::file_items(lib, &s, a.common.explain)?;
        fresh.apply(lib, here.as_ref(), &mut answer, &s.allow)?;
        return Ok(Reply::Files(answer));
    }
    let mut s = settings::Search::resolve(g, &a)?;
    let fresh = Fresh::ask(a.fresh, &mut s.limit);
    let mut answer = query::search(lib, &s, a.common.explain)?;
    fresh.apply(lib, here.as_ref(), &mut answer, &s.allow)?;
    Ok(Reply::Search(answer))
}

pub fn later(c: Call<'_>) -> Result<Reply> {
    let a = input::<tools::Later>(c.checked()?)?.args(c.access)?;
    let s = settings::Later::resolve(c.globals, &a)?;
    let answer = query::later(c.lib, &s, a.common.explain)?;
    marked(c.lib, &c.here(), answer, &s.allow).map(Reply::Later)
}

pub fn related(c: Call<'_>) -> Result<Reply> {
    let (arguments, given) = tools::split(c.name, c.checked()?)?;
    let a = input::<tools::Related>(arguments)?.args(c.access, given)?;
    let s = settings::Related::resolve(c.globals, &a)?;
    let answer = query::related(c.lib, &s, a.common.explain)?;
    marked(c.lib, &c.here(), answer, &s.allow).map(Reply::Related)
}

pub fn timeline(c: Call<'_>) -> Result<Reply> {
    let a = input::<tools::Timeline>(c.checked()?)?.args(c.access)?;
    let s = settings::Timeline::resolve(c.globals, &a)?;
    match &s.around {
        Some(around) => {
            let answer = query::around(c.lib, &s, around, a.common.explain)?;
            marked(c.lib, &c.here(), answer, &s.allow).map(Reply::Around)
        }
        None => {
            let answer = query::timeline(c.lib, &s, a.common.explain)?;
            marked(c.lib, &c.here(), answer, &s.allow).map(Reply::Timeline)
        }
    }
}

pub fn get(c: Call<'_>) -> Result<Reply> {
    let a = input::<tools::Get>(c.checked()?)?;
    let allow = c.globals.allow(&c.access.allow);
    let here = c.here();
    match a.wanted()? {
        tools::Wanted::One(id) => {
            let mut answer = query::get(c.lib, id, a.transcript, &allow)?;
            changed::mark_items(here.as_ref(), std::slice::from_mut(&mut answer.item));
            to_json(&answer).map(Reply::Json)
        }
        tools::Wanted::Several(ids) => {
            let mut answer = query::get_many(c.lib, &ids, a.transcript, &allow)?;
            changed::mark_items(here.as_ref(), &mut answer.items);
            to_json(&answer).map(Reply::Json)
        }
    }
}

/// The item's own checks, not the schema's, judge an added item: their messages are the
/// import's.
pub fn add(c: Call<'_>) -> Result<Reply> {
    let g = c.globals;
    let item = Json::Object(c.arguments.cloned().unwrap_or_default());
    writes::add(
        c.lib,
        &item,
        g.config.kinds.extra.as_deref(),
        &g.allow(&c.access.allow),
        g.config.redact.enabled,
    )
    .map(Reply::Json)
}

pub fn forget(c: Call<'_>) -> Result<Reply> {
    let req: ForgetRequest = input(c.checked()?)?;
    writes::forget_items(c.lib, &req, &c.globals.allow(&c.access.allow)).map(Reply::Json)
}

/// Checked arguments as a tool's input; a failure here is one the check did not foresee.
fn input<T: DeserializeOwned>(arguments: Json) -> Result<T> {
    serde_json::from_value(arguments).map_err(|e| err!("bad arguments: {e}"))
}

/// An answer as the tools give it, each result naming its files changed since, as seen
/// from the server's folder.
fn marked<R: Marked>(
    lib: &Library,
    here: &Option<Here>,
    mut answer: Answer<R>,
    allow: &Option<Vec<String>>,
) -> Result<Answer<R>> {
    changed::mark(lib, here.as_ref(), &mut answer.results, allow)?;
    Ok(answer)
}
