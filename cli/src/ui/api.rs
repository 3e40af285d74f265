//! The page's JSON API: one action a request, each answered by the code a command runs,
//! with the command's JSON. A search, an item and its neighbours, and a forget are the
//! MCP tools' calls (`Tool::call` of `serve::table`: the command's options, resolved by
//! `settings` as on the command line), so a search here is `recall --json search
//! --explain` with the same options; the other writes go through `items` as `recall
//! promote`, `demote` and `kind` do, under the server's access globs, one at a time on
//! the one write connection and under the server's interruption watch
//! (`serve::libraries::Libraries::write`).
use serde::Deserialize;
use serde_json::{json, Map, Value as Json};

use crate::args::{AccessArgs, HookArgs};
use crate::error::{err, Result};
use crate::item::known_kinds;
use crate::items::forget::ForgetRequest;
use crate::items::marks::{set_global, set_kind};
use crate::library::Library;
use crate::output::{lines, Listing};
use crate::query::{self, to_json, Answer};
use crate::serve::answer::Reply;
use crate::serve::libraries::Libraries;
use crate::serve::table::{self, Access, Tool};
use crate::settings::Globals;

/// An action of the page: its name (the tools' own for the two it shares with the MCP
/// server) and what it runs.
pub struct Action {
    pub name: &'static str,
    run: Run,
}

/// What an action runs, given its name and the request's body: a read on a reader, a
/// write on the one writer with what its completed call did (for a signal's line), or
/// an answer that needs no library.
enum Run {
    Read(fn(&Api, &'static str, Json, &mut Library) -> Result<Json>),
    Write(
        fn(&Api, &'static str, Json, &mut Library) -> Result<Json>,
        fn(&Json) -> String,
    ),
    Own(fn(&Api) -> Result<Json>),
}

impl Action {
    /// A write's request must carry its page's token.
    pub fn access(&self) -> Access {
        match self.run {
            Run::Write(..) => Access::Write,
            Run::Read(_) | Run::Own(_) => Access::Read,
        }
    }
}

/// Every action, the reads first.
pub const ACTIONS: [Action; 10] = [
    Action {
        name: table::SEARCH.name,
        run: Run::Read(Api::search),
    },
    Action {
        name: "item",
        run: Run::Read(Api::item),
    },
    Action {
        name: "transcript",
        run: Run::Read(Api::transcript),
    },
    Action {
        name: "agent",
        run: Run::Read(|api, _, body, _| api.agent(input(body)?)),
    },
    Action {
        name: "status",
        run: Run::Own(|api| super::status::report(&api.globals, api.allow().as_ref())),
    },
    Action {
        name: "kinds",
        run: Run::Own(Api::kinds),
    },
    Action {
        name: table::FORGET.name,
        run: Run::Write(Api::forget, table::FORGET.done),
    },
    Action {
        name: "promote",
        run: Run::Write(
            |api, name, body, lib| api.mark(name, true, body, lib),
            marked,
        ),
    },
    Action {
        name: "demote",
        run: Run::Write(
            |api, name, body, lib| api.mark(name, false, body, lib),
            marked,
        ),
    },
    Action {
        name: "kind",
        run: Run::Write(Api::kind, marked),
    },
];

/// The action of this name.
pub fn action(name: &str) -> Option<&'static Action> {
    ACTIONS.iter().find(|a| a.name == name)
}

/// The names of the actions that read, or that write.
pub fn names(access: Access) -> Vec<&'static str> {
    ACTIONS
        .iter()
        .filter(|a| a.access() == access)
        .map(|a| a.name)
        .collect()
}

/// What a completed promote, demote or kind did.
fn marked(_: &Json) -> String {
    "completed (its items marked)".to_string()
}

/// The most characters of a transcript one answer holds (up to 1 MiB of UTF-8, 1.5 MiB
/// as escaped JSON): an item's transcript may be 32 MiB, and eight of them opened at
/// once must not cost the server gigabytes.
pub const TRANSCRIPT_PAGE: i64 = 256 * 1024;

pub struct Api {
    globals: Globals,
    libraries: Libraries,
    /// `--allow`: the sources the page may read and change.
    access: AccessArgs,
    /// Why the library could not be opened for writing, when it could not.
    read_only: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Ids {
    ids: Vec<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct One {
    id: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Page {
    id: i64,
    #[serde(default)]
    offset: i64,
    limit: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Kind {
    ids: Vec<i64>,
    /// None (null): no kind.
    kind: Option<String>,
}

/// What the agent's view is asked for: the session hook's payloads are made of it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Agent {
    #[serde(default)]
    project: Option<String>,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    prompt: Option<String>,
    #[serde(default)]
    file: Option<String>,
}

impl Api {
    pub fn new(
        globals: Globals,
        libraries: Libraries,
        access: AccessArgs,
        read_only: Option<String>,
    ) -> Api {
        Api {
            globals,
            libraries,
            access,
            read_only,
        }
    }

    /// The answer of `action` for the request's body, or the one-line reason it failed.
    pub fn call(&self, action: &str, body: Json) -> Result<Json> {
        let Some(Action { name, run }) = self::action(action) else {
            return Err(err!("no such action: {action}"));
        };
        match run {
            Run::Write(write, done) => self.libraries.write(
                || {
                    err!(
                        "the page only reads this library, which could not be opened for writing when recall ui started ({}); nothing was written",
                        self.read_only.as_deref().unwrap_or("no reason given")
                    )
                },
                name,
                *done,
                Json::Null,
                |lib| write(self, name, body, lib),
            ),
            Run::Own(own) => own(self),
            Run::Read(read) => self.libraries.read(|lib| read(self, name, body, lib)),
        }
    }

    /// The tool's answer to `arguments` (a JSON object), under the page's access globs,
    /// as the MCP server answers the same call.
    fn tool(&self, tool: &Tool, arguments: Json, lib: &mut Library) -> Result<Reply> {
        let Json::Object(arguments) = arguments else {
            return Err(err!("bad arguments: not a JSON object"));
        };
        tool.call(&self.globals, &self.access, lib, Some(&arguments), None)
    }

    fn kinds(&self) -> Result<Json> {
        Ok(json!({
            "kinds": known_kinds(self.globals.config.kinds.extra.as_deref()),
            "library": self.globals.db()?.display().to_string(),
            "read_only": self.read_only,
        }))
    }

    fn allow(&self) -> Option<Vec<String>> {
        self.globals.allow(&self.access.allow)
    }

    /// `recall --json search --explain` (the `search` tool's call), with its lines.
    fn search(&self, _: &'static str, mut body: Json, lib: &mut Library) -> Result<Json> {
        if let Json::Object(arguments) = &mut body {
            // Every hit says which words it holds, and where.
            arguments.insert("explain".into(), Json::Bool(true));
        }
        listed(self.tool(&table::SEARCH, body, lib)?)
    }

    /// An item (the `get` tool's call, without its transcript), with its neighbours in
    /// time and what came later (the `timeline` tool's call around it, and `later`'s).
    fn item(&self, _: &'static str, body: Json, lib: &mut Library) -> Result<Json> {
        let One { id } = input(body)?;
        // The transcript is not sent here: `transcript` sends it a page at a time.
        let mut item = self
            .tool(&table::GET, json!({ "id": id }), lib)?
            .into_json()?;
        let total = transcript_page(lib, id, 0, 0, &self.allow())?["total"].clone();
        item["item"]["transcript_chars"] = total;
        // Its neighbours in time and what came later: each its command's answer, or the
        // command's error in its place.
        let timeline = self
            .tool(&table::TIMELINE, json!({ "around": id }), lib)
            .and_then(listed);
        let later = self
            .tool(&table::LATER, json!({ "id": id, "explain": true }), lib)
            .and_then(listed);
        Ok(json!({
            "command": "item",
            "get": item,
            "timeline": answer_or_error(timeline),
            "later": answer_or_error(later),
        }))
    }

    fn transcript(&self, _: &'static str, body: Json, lib: &mut Library) -> Result<Json> {
        let Page { id, offset, limit } = input(body)?;
        let limit = limit.unwrap_or(TRANSCRIPT_PAGE);
        if offset < 0 || !(1..=TRANSCRIPT_PAGE).contains(&limit) {
            return Err(err!(
                "bad arguments: offset must be 0 or more and limit from 1 to {TRANSCRIPT_PAGE}, got {offset} and {limit}"
            ));
        }
        transcript_page(lib, id, offset, limit, &self.allow())
    }

    /// The `forget` tool's call, for the items it names.
    fn forget(&self, _: &'static str, body: Json, lib: &mut Library) -> Result<Json> {
        let req: ForgetRequest = input(body.clone())?;
        if req.ids.is_empty() {
            // The page forgets the items it names, never a whole filter's worth.
            return Err(err!("ids is empty: name the items to forget"));
        }
        self.tool(&table::FORGET, body, lib)?.into_json()
    }

    /// `promote` (`global`) or `demote`.
    fn mark(&self, name: &str, global: bool, body: Json, lib: &mut Library) -> Result<Json> {
        let Ids { ids } = input(body)?;
        Ok(set_global(lib, &non_empty(ids)?, global, &self.allow(), None)?.to_json(name, global))
    }

    fn kind(&self, _: &'static str, body: Json, lib: &mut Library) -> Result<Json> {
        let Kind { ids, kind } = input(body)?;
        let known = known_kinds(self.globals.config.kinds.extra.as_deref());
        let set = set_kind(
            lib,
            &non_empty(ids)?,
            kind.as_deref(),
            &known,
            &self.allow(),
            None,
        )?;
        Ok(set.kind_json(kind.as_deref()))
    }

    /// What the session hook injects for a project: at session start, at the first
    /// prompt (when one is given), on opening the file (when one is given). Each with the
    /// payload it was made from and the command that prints the same, `printed` exactly
    /// what `recall hook` prints and `context` the text the agent is given.
    fn agent(&self, a: Agent) -> Result<Json> {
        let blank = |v: Option<String>| v.filter(|s| !s.trim().is_empty());
        let (project, cwd) = (blank(a.project), blank(a.cwd));
        let hook = HookArgs {
            project: project.clone(),
            every_prompt: false,
            settings: Default::default(),
            access: self.access.clone(),
        };
        let mut common = Map::new();
        if let Some(cwd) = &cwd {
            common.insert("cwd".into(), json!(cwd));
        }
        let mut payloads = vec![(
            "SessionStart",
            json!({"hook_event_name": "SessionStart", "source": "startup"}),
        )];
        if let Some(prompt) = blank(a.prompt) {
            payloads.push((
                "UserPromptSubmit",
                json!({"hook_event_name": "UserPromptSubmit", "prompt": prompt}),
            ));
        }
        if let Some(file) = blank(a.file) {
            payloads.push((
                "PostToolUse",
                json!({"hook_event_name": "PostToolUse", "tool_name": "Read",
                       "tool_input": {"file_path": file}}),
            ));
        }
        let mut command = vec!["recall".to_string(), "hook".to_string()];
        if let Some(p) = &project {
            command.push("--project".into());
            command.push(p.clone());
        }
        for globs in &self.access.allow {
            command.push("--allow".into());
            command.push(globs.clone());
        }
        let command = shlex::try_join(command.iter().map(String::as_str)).unwrap_or_default();
        let mut blocks = Vec::new();
        for (event, mut payload) in payloads {
            if let Some(obj) = payload.as_object_mut() {
                obj.extend(common.clone());
            }
            let text = payload.to_string();
            let printed = crate::hook::context(&self.globals, &hook, &text)?;
            let quoted = shlex::try_quote(&text)
                .map(|q| q.into_owned())
                .unwrap_or_default();
            blocks.push(json!({
                "event": event,
                "payload": text,
                "command": command,
                // printf, not echo: dash's echo (Debian's sh) turns the payload's `\n`
                // and other backslashes into other bytes; `%s` passes it as it is in
                // every POSIX shell.
                "shell": format!("printf '%s\\n' {quoted} | {command}"),
                "printed": printed,
                "context": context_of(&printed),
            }));
        }
        Ok(json!({"command": "agent", "project": project, "blocks": blocks}))
    }
}

/// The text the agent is given: the `additionalContext` of a JSON answer, else the text.
fn context_of(printed: &str) -> String {
    serde_json::from_str::<Json>(printed)
        .ok()
        .and_then(|v| {
            v.pointer("/hookSpecificOutput/additionalContext")
                .and_then(Json::as_str)
                .map(str::to_string)
        })
        .unwrap_or_else(|| printed.to_string())
}

/// A tool's answer as `recall --json` gives it, a listing's with its lines (`listing`).
fn listed(reply: Reply) -> Result<Json> {
    match reply {
        Reply::Search(a) => listing(&a),
        Reply::Files(a) => listing(&a),
        Reply::Later(a) => listing(&a),
        Reply::Related(a) => listing(&a),
        Reply::Around(a) => listing(&a),
        Reply::Timeline(a) => listing(&a),
        Reply::Json(j) => Ok(j),
    }
}

/// A query's answer as `recall --json` gives it, with `lines`: each result as the
/// command's text output lists it (its line, the detail line under it, the `# matched
/// by` group it is listed under), from the same code.
fn listing<R: Listing + serde::Serialize>(answer: &Answer<R>) -> Result<Json> {
    let mut doc = to_json(answer)?;
    let rows: Vec<Json> = answer
        .results
        .iter()
        .map(|row| {
            let (line, detail) = lines(row);
            json!({
                "id": row.listed().id,
                "group": row.group().map(|g| format!("# matched by {}", g.replace('_', " "))),
                "line": line,
                "detail": detail,
            })
        })
        .collect();
    doc["lines"] = Json::Array(rows);
    Ok(doc)
}

fn answer_or_error(answer: Result<Json>) -> Json {
    answer.unwrap_or_else(|e| json!({"error": e.message}))
}

fn non_empty(ids: Vec<i64>) -> Result<Vec<i64>> {
    if ids.is_empty() {
        return Err(err!("ids is empty: name the items"));
    }
    Ok(ids)
}

/// The body as an action's input, or why not.
fn input<T: serde::de::DeserializeOwned>(body: Json) -> Result<T> {
    serde_json::from_value(body).map_err(|e| err!("bad arguments: {e}"))
}

/// A page of an item's transcript (`sql/transcript_page.sql`): its characters from
/// `offset`, at most `limit`, the transcript's length, and where the next page starts
/// (null after the last). An item the caller may not read is a missing one.
fn transcript_page(
    lib: &Library,
    id: i64,
    offset: i64,
    limit: i64,
    allow: &Option<Vec<String>>,
) -> Result<Json> {
    use crate::library::sql_file::{self, int, queries, text};
    let sources = crate::settings::sources_param(allow);
    let params = vec![
        (":id", int(Some(id))),
        (":offset", int(Some(offset))),
        (":limit", int(Some(limit))),
        (":sources", text(sources.as_deref())),
    ];
    let rows = sql_file::read(&lib.conn, queries::TRANSCRIPT_PAGE, &params, |c| {
        Ok((c.int("total")?, c.text("text")?))
    })?;
    let Some((total, page)) = rows.into_iter().next() else {
        return Err(query::missing(lib, id));
    };
    let page = page.unwrap_or_default();
    let end = offset + page.chars().count() as i64;
    let next = total.filter(|t| end < *t).map(|_| end);
    Ok(json!({
        "command": "transcript",
        "id": id,
        "offset": offset,
        "total": total.unwrap_or(0),
        "text": page,
        "next": next,
    }))
}
