//! Each tool's answer to a call: its arguments checked against the schema the client was
//! given, turned into the command's arguments, resolved by `settings` as on the command
//! line and answered by the read path or the writes with the command's JSON. The table
//! (`table.rs`) names which function answers which tool.
use rmcp::model::Tool as Listed;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value as Json};

use super::{arguments, tools, writes};
use crate::args::AccessArgs;
use crate::error::{err, Result};
use crate::items::forget::ForgetRequest;
use crate::library::Library;
use crate::query::changed::{self, Fresh, Here, Marked};
use crate::query::{self, to_json, Answer};
use crate::settings::{self, Globals};

/// A call as the server hands it to its tool: the library it runs on (a reader, or the
/// writer for a write), the caller's access, and its arguments as the client sent them.
pub struct Call<'a> {
    pub globals: &'a Globals,
    pub access: &'a AccessArgs,
    pub lib: &'a mut Library,
    pub arguments: Option<&'a Map<String, Json>>,
    /// The tool as the client was given it: its schema checks the arguments.
    pub listed: Option<&'a Listed>,
    pub name: &'static str,
}

impl Call<'_> {
    /// The arguments, checked against the tool's schema.
    fn checked(&self) -> Result<Json> {
        let empty = Map::new();
        let schema = self
            .listed
            .map(|t| t.input_schema.as_ref())
            .unwrap_or(&empty);
        arguments::check(schema, self.arguments)
    }

    /// The server's own folder, where its agent started it: the checkout items' files
    /// are checked in (`query::changed`).
    fn here(&self) -> Option<Here> {
        Here::current(&self.globals.config.projects)
    }
}

pub fn search(c: Call<'_>) -> Result<Json> {
    let (g, lib, here) = (c.globals, &*c.lib, c.here());
    let (arguments, given) = tools::split(c.name, c.checked()?)?;
    let a = input::<tools::Search>(arguments)?.args(c.access, given)?;
    if let Some(file) = &a.file {
        let mut s = settings::FileItems::resolve(g, &a, file, None)?;
        let fresh = Fresh::ask(a.fresh, &mut s.limit);
        let mut answer = query::file_items(lib, &s, a.common.explain)?;
        fresh.apply(lib, here.as_ref(), &mut answer, &s.allow)?;
        return to_json(&answer);
    }
    let mut s = settings::Search::resolve(g, &a)?;
    let fresh = Fresh::ask(a.fresh, &mut s.limit);
    let mut answer = query::search(lib, &s, a.common.explain)?;
    fresh.apply(lib, here.as_ref(), &mut answer, &s.allow)?;
    to_json(&answer)
}

pub fn later(c: Call<'_>) -> Result<Json> {
    let a = input::<tools::Later>(c.checked()?)?.args(c.access)?;
    let s = settings::Later::resolve(c.globals, &a)?;
    let answer = query::later(c.lib, &s, a.common.explain)?;
    marked(c.lib, &c.here(), answer, &s.allow)
}

pub fn related(c: Call<'_>) -> Result<Json> {
    let (arguments, given) = tools::split(c.name, c.checked()?)?;
    let a = input::<tools::Related>(arguments)?.args(c.access, given)?;
    let s = settings::Related::resolve(c.globals, &a)?;
    let answer = query::related(c.lib, &s, a.common.explain)?;
    marked(c.lib, &c.here(), answer, &s.allow)
}

pub fn timeline(c: Call<'_>) -> Result<Json> {
    let a = input::<tools::Timeline>(c.checked()?)?.args(c.access)?;
    let s = settings::Timeline::resolve(c.globals, &a)?;
    match &s.around {
        Some(around) => {
            let answer = query::around(c.lib, &s, around, a.common.explain)?;
            marked(c.lib, &c.here(), answer, &s.allow)
        }
        None => {
            let answer = query::timeline(c.lib, &s, a.common.explain)?;
            marked(c.lib, &c.here(), answer, &s.allow)
        }
    }
}

pub fn get(c: Call<'_>) -> Result<Json> {
    let a = input::<tools::Get>(c.checked()?)?;
    let allow = c.globals.allow(&c.access.allow);
    let here = c.here();
    match a.wanted()? {
        tools::Wanted::One(id) => {
            let mut answer = query::get(c.lib, id, a.transcript, &allow)?;
            changed::mark_items(here.as_ref(), std::slice::from_mut(&mut answer.item));
            to_json(&answer)
        }
        tools::Wanted::Several(ids) => {
            let mut answer = query::get_many(c.lib, &ids, a.transcript, &allow)?;
            changed::mark_items(here.as_ref(), &mut answer.items);
            to_json(&answer)
        }
    }
}

/// The item's own checks, not the schema's, judge an added item: their messages are the
/// import's.
pub fn add(c: Call<'_>) -> Result<Json> {
    let g = c.globals;
    let item = Json::Object(c.arguments.cloned().unwrap_or_default());
    writes::add(
        c.lib,
        &item,
        g.config.kinds.extra.as_deref(),
        &g.allow(&c.access.allow),
        g.config.redact.enabled,
    )
}

pub fn forget(c: Call<'_>) -> Result<Json> {
    let req: ForgetRequest = input(c.checked()?)?;
    writes::forget_items(c.lib, &req, &c.globals.allow(&c.access.allow))
}

/// Checked arguments as a tool's input; a failure here is one the check did not foresee.
fn input<T: DeserializeOwned>(arguments: Json) -> Result<T> {
    serde_json::from_value(arguments).map_err(|e| err!("bad arguments: {e}"))
}

/// An answer as the tools give it, each result naming its files changed since, as seen
/// from the server's folder.
fn marked<R: Marked + serde::Serialize>(
    lib: &Library,
    here: &Option<Here>,
    mut answer: Answer<R>,
    allow: &Option<Vec<String>>,
) -> Result<Json> {
    changed::mark(lib, here.as_ref(), &mut answer.results, allow)?;
    to_json(&answer)
}
