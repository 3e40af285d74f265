//! recall's entries in the agents' JSON settings, edited in place: the file's text is
//! scanned for the spans of the values setup must change (`hooks` and its event lists,
//! `mcpServers.recall`), and only recall's entries are spliced in or taken out, printed in
//! the file's own indentation and line ending (`spans`). Every other byte stays: numbers
//! as they were written, escapes, line endings, key order, duplicate keys, empty objects,
//! a byte order mark. Where a key setup edits is duplicated, the last one is edited: the
//! one JavaScript's JSON.parse keeps, which is what the agents read.
//!
//! What is read (is a handler recall's, is an entry already right) is read as a value
//! (`Json`, objects in their keys' order), one small span at a time.
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

use super::spans::{self, Act, Container, Layout};
use super::{recall_hook, recall_program};

/// A JSON value whose objects keep their keys' order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Json {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Json>),
    Object(IndexMap<String, Json>),
}

pub type Object = IndexMap<String, Json>;

/// A hook event to wire: its name, its matcher (tool events), and its timeout where the
/// agent allows less than `TIMEOUT_SECONDS` (Codex's `SessionEnd`).
#[derive(Clone, Copy)]
pub struct Event {
    pub name: &'static str,
    pub matcher: Option<&'static str>,
    pub timeout: Option<u32>,
}

fn kind(value: &Json) -> &'static str {
    match value {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "a list",
        Json::Object(_) => "an object",
    }
}

/// The kind of the value starting at byte `at`, read from its first byte.
fn kind_at(text: &str, at: usize) -> &'static str {
    match text.as_bytes().get(at) {
        Some(b'{') => "an object",
        Some(b'[') => "a list",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

/// The value of an item, read (None when it cannot be: a lone surrogate in a string).
fn read(text: &str, item: &spans::Item) -> Option<Json> {
    serde_json::from_str(&text[item.value..item.end]).ok()
}

fn handler(command: &str, timeout: u32) -> Json {
    let mut h = Object::new();
    h.insert("type".into(), Json::String("command".into()));
    h.insert("command".into(), Json::String(command.into()));
    h.insert("timeout".into(), Json::Number(timeout.into()));
    Json::Object(h)
}

fn group(event: &Event, command: &str) -> Json {
    let mut g = Object::new();
    if let Some(m) = event.matcher {
        g.insert("matcher".into(), Json::String(m.into()));
    }
    let timeout = event.timeout.unwrap_or(super::TIMEOUT_SECONDS);
    g.insert("hooks".into(), Json::Array(vec![handler(command, timeout)]));
    Json::Object(g)
}

/// Whether a hook handler is recall's (its command runs `recall … hook`).
fn is_recall_handler(h: &Json) -> bool {
    matches!(h, Json::Object(o) if matches!(o.get("command"), Some(Json::String(c)) if recall_hook(c)))
}

/// The command of an MCP entry that is not recall's, if it has one.
fn foreign_command(entry: &Object) -> Option<String> {
    match entry.get("command") {
        Some(Json::String(c)) if recall_program(c) => None,
        Some(Json::String(c)) => Some(format!("`{c}`")),
        Some(other) => Some(kind(other).to_string()),
        None if entry.is_empty() => None,
        None => Some("no command".into()),
    }
}

/// A file's JSON, scanned: its byte order mark, its text after it, the root object.
struct Doc<'a> {
    bom: &'a str,
    text: &'a str,
    root: Container,
    lay: Layout,
}

impl<'a> Doc<'a> {
    /// None for a file that is missing or holds only whitespace.
    fn scan(file: Option<&'a str>) -> Result<Option<Doc<'a>>, String> {
        let Some(file) = file else { return Ok(None) };
        let (bom, text) = spans::split_bom(file);
        if text.trim().is_empty() {
            return Ok(None);
        }
        spans::validate(text)?;
        let (start, _) = spans::root(text)?;
        let root = spans::container(text, start, true)?
            .ok_or_else(|| "holds no JSON object at its top".to_string())?;
        Ok(Some(Doc {
            bom,
            text,
            root,
            lay: Layout::of(text),
        }))
    }

    /// The whole file with the root object's text replaced.
    fn with_root(&self, root: &str) -> String {
        let t = self.text;
        format!(
            "{}{}{root}{}",
            self.bom,
            &t[..self.root.open],
            &t[self.root.close + 1..]
        )
    }
}

/// A new file holding `members` (a missing or blank file given to setup).
fn new_file(file: Option<&str>, members: &[(&str, Json)]) -> String {
    let (bom, blank) = spans::split_bom(file.unwrap_or(""));
    let lay = Layout::of(blank);
    let added: Vec<String> = members
        .iter()
        .map(|(k, v)| lay.member(k, v, &lay.unit))
        .collect();
    let empty = Container {
        open: 0,
        close: 1,
        items: Vec::new(),
    };
    format!(
        "{bom}{}{}",
        spans::rebuild("{}", &empty, &[], &added, &lay),
        lay.newline
    )
}

/// The container an item's value is, or the error naming what it is instead.
fn child(text: &str, item: &spans::Item, object: bool, path: &str) -> Result<Container, String> {
    spans::container(text, item.value, object)?.ok_or_else(|| {
        let want = if object { "an object" } else { "a list" };
        format!("`{path}` is {}, not {want}", kind_at(text, item.value))
    })
}

fn keep_all(c: &Container) -> Vec<Act> {
    c.items.iter().map(|_| Act::Keep).collect()
}

/// Whether every item of a non-empty container is dropped.
fn emptied(acts: &[Act]) -> bool {
    !acts.is_empty() && acts.iter().all(|a| matches!(a, Act::Drop))
}

/// An event's groups with recall's handlers taken out (a group left with none goes), and
/// how many were taken.
fn without_recall(
    text: &str,
    groups: &Container,
    lay: &Layout,
) -> Result<(Vec<Act>, usize), String> {
    let mut acts = Vec::new();
    let mut taken = 0;
    for g in &groups.items {
        let handlers = match spans::container(text, g.value, true)? {
            Some(o) => o.last("hooks").map(|h| (o, h)),
            None => None,
        };
        let Some((object, at)) = handlers else {
            acts.push(Act::Keep);
            continue;
        };
        let Some(list) = spans::container(text, object.items[at].value, false)? else {
            acts.push(Act::Keep);
            continue;
        };
        let inner: Vec<Act> = list
            .items
            .iter()
            .map(
                |h| match read(text, h).is_some_and(|h| is_recall_handler(&h)) {
                    true => Act::Drop,
                    false => Act::Keep,
                },
            )
            .collect();
        let dropped = inner.iter().filter(|a| matches!(a, Act::Drop)).count();
        taken += dropped;
        acts.push(match dropped {
            0 => Act::Keep,
            _ if emptied(&inner) => Act::Drop,
            _ => {
                let mut outer = keep_all(&object);
                outer[at] = Act::Value(spans::rebuild(text, &list, &inner, &[], lay));
                Act::Value(spans::rebuild(text, &object, &outer, &[], lay))
            }
        });
    }
    Ok((acts, taken))
}

/// What a remove found: the file left holding nothing of its own, or its new text.
enum Removed {
    Unchanged,
    Emptied,
    Text(String),
}

/// Whether a key setup's removal emptied stays (as `{}` / `[]`) or goes: it stays when
/// the file's backup (the file before recall's last change), with recall's entries taken
/// out, still has it: the key was the file's own before setup put recall's entry in.
/// With no backup, the key goes.
struct Before(Option<Object>);

impl Before {
    fn had(&self, path: &[&str]) -> bool {
        let mut at = match &self.0 {
            Some(root) => root,
            None => return false,
        };
        for (i, key) in path.iter().enumerate() {
            match at.get(*key) {
                Some(Json::Object(o)) => at = o,
                Some(_) if i + 1 == path.len() => return true,
                _ => return false,
            }
        }
        true
    }
}

/// The backup read as a value with `remove` applied; None when there is none, it cannot
/// be read, or the removal leaves it empty (the file was setup's alone).
fn before(backup: Option<&str>, remove: impl Fn(&mut Object)) -> Before {
    let Some(Ok(mut root)) = backup.map(root_value) else {
        return Before(None);
    };
    let original = root.clone();
    remove(&mut root);
    match root.is_empty() && root != original {
        true => Before(None),
        false => Before(Some(root)),
    }
}

/// The new text of a hooks file (`settings.json`, `hooks.json`): `command` wired to each
/// event, or (None) recall's hooks taken out. None: the file is to be deleted.
pub fn edit_hooks(
    file: Option<&str>,
    events: &[Event],
    command: Option<&str>,
    backup: Option<&str>,
) -> Result<Option<String>, String> {
    let doc = Doc::scan(file)?;
    let before = before(backup, |root| remove_hooks_value(root, events));
    let result = match (command, &doc) {
        (Some(command), None) => {
            let hooks: Object = events
                .iter()
                .map(|e| (e.name.to_string(), Json::Array(vec![group(e, command)])))
                .collect();
            return Ok(Some(new_file(file, &[("hooks", Json::Object(hooks))])));
        }
        (None, None) => Removed::Unchanged,
        (Some(command), Some(doc)) => set_hooks(doc, events, command)?,
        (None, Some(doc)) => remove_hooks(doc, events, &before)?,
    };
    finish(file, doc.as_ref(), result, backup, &before)
}

/// The file's new text from what an edit found.
fn finish(
    file: Option<&str>,
    doc: Option<&Doc>,
    result: Removed,
    backup: Option<&str>,
    before: &Before,
) -> Result<Option<String>, String> {
    match (result, doc) {
        (Removed::Text(t), _) => Ok(Some(t)),
        (Removed::Emptied, Some(doc)) => {
            // A file that was blank before setup is blank again; one that held an
            // object of its own keeps `{}`; one setup created goes.
            let backup_blank = backup.is_some_and(|b| spans::split_bom(b).1.trim().is_empty());
            if backup_blank {
                return Ok(backup.map(str::to_string));
            }
            let root = &doc.root;
            match before.0.is_some() {
                true => Ok(Some(doc.with_root(&spans::rebuild(
                    doc.text,
                    root,
                    &root.items.iter().map(|_| Act::Drop).collect::<Vec<_>>(),
                    &[],
                    &doc.lay,
                )))),
                false => Ok(None),
            }
        }
        _ => Ok(file.map(str::to_string)),
    }
}

fn set_hooks(doc: &Doc, events: &[Event], command: &str) -> Result<Removed, String> {
    let (t, lay) = (doc.text, &doc.lay);
    let mut root_acts = keep_all(&doc.root);
    let mut root_added = Vec::new();
    match doc.root.last("hooks") {
        None => {
            let hooks: Object = events
                .iter()
                .map(|e| (e.name.to_string(), Json::Array(vec![group(e, command)])))
                .collect();
            root_added.push(lay.member(
                "hooks",
                &hooks,
                &format!("{}{}", Layout::line_indent(t, doc.root.open), lay.unit),
            ));
        }
        Some(h) => {
            let hooks = child(t, &doc.root.items[h], true, "hooks")?;
            let base = format!("{}{}", Layout::line_indent(t, hooks.open), lay.unit);
            let mut acts = keep_all(&hooks);
            let mut added = Vec::new();
            for event in events {
                let ours = group(event, command);
                let Some(e) = hooks.last(event.name) else {
                    added.push(lay.member(event.name, &vec![ours], &base));
                    continue;
                };
                let path = format!("hooks.{}", event.name);
                let groups = child(t, &hooks.items[e], false, &path)?;
                let (group_acts, taken) = without_recall(t, &groups, lay)?;
                let there = groups
                    .items
                    .iter()
                    .any(|g| read(t, g) == Some(ours.clone()));
                if taken == 1 && there {
                    continue;
                }
                let line = format!("{}{}", Layout::line_indent(t, groups.open), lay.unit);
                let printed = lay.print(&ours, &line);
                acts[e] = Act::Value(spans::rebuild(t, &groups, &group_acts, &[printed], lay));
            }
            if acts.iter().all(|a| matches!(a, Act::Keep)) && added.is_empty() {
                return Ok(Removed::Unchanged);
            }
            root_acts[h] = Act::Value(spans::rebuild(t, &hooks, &acts, &added, lay));
        }
    }
    let root = spans::rebuild(t, &doc.root, &root_acts, &root_added, lay);
    Ok(Removed::Text(doc.with_root(&root)))
}

fn remove_hooks(doc: &Doc, events: &[Event], before: &Before) -> Result<Removed, String> {
    let (t, lay) = (doc.text, &doc.lay);
    let Some(h) = doc.root.last("hooks") else {
        return Ok(Removed::Unchanged);
    };
    let Some(hooks) = spans::container(t, doc.root.items[h].value, true)? else {
        return Ok(Removed::Unchanged);
    };
    let mut acts = keep_all(&hooks);
    for event in events {
        let Some(e) = hooks.last(event.name) else {
            continue;
        };
        let Some(groups) = spans::container(t, hooks.items[e].value, false)? else {
            continue;
        };
        let (group_acts, taken) = without_recall(t, &groups, lay)?;
        if taken == 0 {
            continue;
        }
        acts[e] = match emptied(&group_acts) && !before.had(&["hooks", event.name]) {
            true => Act::Drop,
            false => Act::Value(spans::rebuild(t, &groups, &group_acts, &[], lay)),
        };
    }
    if acts.iter().all(|a| matches!(a, Act::Keep)) {
        return Ok(Removed::Unchanged);
    }
    let mut root_acts = keep_all(&doc.root);
    root_acts[h] = match emptied(&acts) && !before.had(&["hooks"]) {
        true => Act::Drop,
        false => Act::Value(spans::rebuild(t, &hooks, &acts, &[], lay)),
    };
    if emptied(&root_acts) {
        return Ok(Removed::Emptied);
    }
    let root = spans::rebuild(t, &doc.root, &root_acts, &[], lay);
    Ok(Removed::Text(doc.with_root(&root)))
}

/// recall's MCP entry: `program` with `args` (with `"type": "stdio"`, as Claude Code
/// writes it).
fn entry_fields(program: &str, args: &[String]) -> Vec<(&'static str, Json)> {
    vec![
        ("type", Json::String("stdio".into())),
        ("command", Json::String(program.into())),
        (
            "args",
            Json::Array(args.iter().map(|a| Json::String(a.clone())).collect()),
        ),
    ]
}

/// The new text of a file holding `mcpServers` (`.claude.json`, `.mcp.json`): the entry
/// `recall` set to run `program` with `args` (other fields of an entry already there
/// kept; one that runs another program refused), or (None) taken out. None: the file is
/// to be deleted.
pub fn edit_server(
    file: Option<&str>,
    run: Option<(&str, &[String])>,
    backup: Option<&str>,
) -> Result<Option<String>, String> {
    let doc = Doc::scan(file)?;
    let before = before(backup, remove_server_value);
    let result = match (run, &doc) {
        (Some((program, args)), None) => {
            let entry: Object = entry_fields(program, args)
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect();
            let servers: Object = [(super::SERVER.to_string(), Json::Object(entry))].into();
            return Ok(Some(new_file(
                file,
                &[("mcpServers", Json::Object(servers))],
            )));
        }
        (None, None) => Removed::Unchanged,
        (Some((program, args)), Some(doc)) => set_server(doc, program, args)?,
        (None, Some(doc)) => remove_server(doc, &before)?,
    };
    finish(file, doc.as_ref(), result, backup, &before)
}

fn set_server(doc: &Doc, program: &str, args: &[String]) -> Result<Removed, String> {
    let (t, lay) = (doc.text, &doc.lay);
    let fields = entry_fields(program, args);
    let whole = || -> Object {
        fields
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    };
    let indent = |open: usize| format!("{}{}", Layout::line_indent(t, open), lay.unit);
    let mut root_acts = keep_all(&doc.root);
    let mut root_added = Vec::new();
    let Some(s) = doc.root.last("mcpServers") else {
        let servers: Object = [(super::SERVER.to_string(), Json::Object(whole()))].into();
        root_added.push(lay.member("mcpServers", &servers, &indent(doc.root.open)));
        let root = spans::rebuild(t, &doc.root, &root_acts, &root_added, lay);
        return Ok(Removed::Text(doc.with_root(&root)));
    };
    let servers = child(t, &doc.root.items[s], true, "mcpServers")?;
    let mut server_acts = keep_all(&servers);
    let mut server_added = Vec::new();
    let path = format!("mcpServers.{}", super::SERVER);
    match servers.last(super::SERVER) {
        None => server_added.push(lay.member(super::SERVER, &whole(), &indent(servers.open))),
        Some(r) => {
            let entry = child(t, &servers.items[r], true, &path)?;
            let Some(Json::Object(value)) = read(t, &servers.items[r]) else {
                return Err(format!("`{path}` cannot be read"));
            };
            if let Some(other) = foreign_command(&value) {
                return Err(format!(
                    "`{path}` runs {other}, not recall: rename or remove that server"
                ));
            }
            let mut acts = keep_all(&entry);
            let mut added = Vec::new();
            for (key, want) in &fields {
                match entry.last(key) {
                    Some(i) if read(t, &entry.items[i]).as_ref() == Some(want) => {}
                    Some(i) => {
                        let line = Layout::line_indent(t, entry.items[i].start).to_string();
                        acts[i] = Act::Value(lay.print(want, &line));
                    }
                    None => added.push(lay.member(key, want, &indent(entry.open))),
                }
            }
            if acts.iter().all(|a| matches!(a, Act::Keep)) && added.is_empty() {
                return Ok(Removed::Unchanged);
            }
            server_acts[r] = Act::Value(spans::rebuild(t, &entry, &acts, &added, lay));
        }
    }
    root_acts[s] = Act::Value(spans::rebuild(
        t,
        &servers,
        &server_acts,
        &server_added,
        lay,
    ));
    let root = spans::rebuild(t, &doc.root, &root_acts, &root_added, lay);
    Ok(Removed::Text(doc.with_root(&root)))
}

fn remove_server(doc: &Doc, before: &Before) -> Result<Removed, String> {
    let (t, lay) = (doc.text, &doc.lay);
    let Some(s) = doc.root.last("mcpServers") else {
        return Ok(Removed::Unchanged);
    };
    let Some(servers) = spans::container(t, doc.root.items[s].value, true)? else {
        return Ok(Removed::Unchanged);
    };
    let Some(r) = servers.last(super::SERVER) else {
        return Ok(Removed::Unchanged);
    };
    match read(t, &servers.items[r]) {
        Some(Json::Object(entry)) if foreign_command(&entry).is_none() => {}
        _ => return Ok(Removed::Unchanged),
    }
    let mut acts = keep_all(&servers);
    acts[r] = Act::Drop;
    let mut root_acts = keep_all(&doc.root);
    root_acts[s] = match emptied(&acts) && !before.had(&["mcpServers"]) {
        true => Act::Drop,
        false => Act::Value(spans::rebuild(t, &servers, &acts, &[], lay)),
    };
    if emptied(&root_acts) {
        return Ok(Removed::Emptied);
    }
    let root = spans::rebuild(t, &doc.root, &root_acts, &[], lay);
    Ok(Removed::Text(doc.with_root(&root)))
}

/// recall's hooks taken out of a value (an event, `hooks` left empty go): what the
/// backup held before setup, for `Before`.
fn remove_hooks_value(root: &mut Object, events: &[Event]) {
    let Some(Json::Object(hooks)) = root.get_mut("hooks") else {
        return;
    };
    let mut changed = false;
    for event in events {
        if let Some(Json::Array(groups)) = hooks.get_mut(event.name) {
            let before = groups.len();
            let mut taken = 0;
            groups.retain_mut(|g| {
                let Json::Object(o) = g else { return true };
                let Some(Json::Array(handlers)) = o.get_mut("hooks") else {
                    return true;
                };
                let n = handlers.len();
                handlers.retain(|h| !is_recall_handler(h));
                taken += n - handlers.len();
                !(handlers.is_empty() && n > 0)
            });
            if taken > 0 {
                changed = true;
                if groups.is_empty() && before > 0 {
                    hooks.shift_remove(event.name);
                }
            }
        }
    }
    if changed && hooks.is_empty() {
        root.shift_remove("hooks");
    }
}

/// `mcpServers.recall` taken out of a value (`mcpServers` left empty goes).
fn remove_server_value(root: &mut Object) {
    let Some(Json::Object(servers)) = root.get_mut("mcpServers") else {
        return;
    };
    if let Some(Json::Object(entry)) = servers.get(super::SERVER) {
        if foreign_command(entry).is_none() {
            servers.shift_remove(super::SERVER);
            if servers.is_empty() {
                root.shift_remove("mcpServers");
            }
        }
    }
}

/// A file's root object as far as setup reads it (BOM allowed): `hooks` and
/// `mcpServers` as values, every other member as null (its key is all that counts). A
/// member is read alone, so that a string elsewhere that serde cannot hold (a lone
/// surrogate, which JSON.parse accepts) stops nothing.
fn root_value(file: &str) -> Result<Object, String> {
    let text = spans::split_bom(file).1;
    if text.trim().is_empty() {
        return Ok(Object::new());
    }
    spans::validate(text)?;
    let (start, _) = spans::root(text)?;
    let root = spans::container(text, start, true)?
        .ok_or_else(|| "holds no JSON object at its top".to_string())?;
    let mut out = Object::new();
    for item in &root.items {
        let key = item.key.clone().unwrap_or_default();
        let value = match key.as_str() {
            "hooks" | "mcpServers" => read(text, item).unwrap_or(Json::Null),
            _ => Json::Null,
        };
        out.insert(key, value);
    }
    Ok(out)
}

/// The events of a file's `hooks` that hold a recall hook, each with its command.
pub fn wired_hooks(file: &str) -> Result<Vec<(String, String)>, String> {
    let root = root_value(file)?;
    let mut out = Vec::new();
    let Some(Json::Object(hooks)) = root.get("hooks") else {
        return Ok(out);
    };
    for (event, groups) in hooks {
        let Json::Array(groups) = groups else {
            continue;
        };
        for g in groups {
            let Json::Object(g) = g else { continue };
            let Some(Json::Array(handlers)) = g.get("hooks") else {
                continue;
            };
            for h in handlers.iter().filter(|h| is_recall_handler(h)) {
                if let Json::Object(h) = h {
                    if let Some(Json::String(c)) = h.get("command") {
                        out.push((event.clone(), c.clone()));
                    }
                }
            }
        }
    }
    Ok(out)
}

/// recall's MCP entry: its command, its arguments and its `env.RECALL_DB`.
pub type Server = (String, Vec<String>, Option<String>);

/// recall's MCP entry in a file, when it is recall's.
pub fn wired_server(file: &str) -> Result<Option<Server>, String> {
    let root = root_value(file)?;
    let Some(Json::Object(servers)) = root.get("mcpServers") else {
        return Ok(None);
    };
    let Some(Json::Object(entry)) = servers.get(super::SERVER) else {
        return Ok(None);
    };
    let Some(Json::String(command)) = entry.get("command") else {
        return Ok(None);
    };
    if !recall_program(command) {
        return Ok(None);
    }
    let args = match entry.get("args") {
        Some(Json::Array(a)) => a
            .iter()
            .filter_map(|v| match v {
                Json::String(s) => Some(s.clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let env_db = match entry.get("env") {
        Some(Json::Object(env)) => match env.get("RECALL_DB") {
            Some(Json::String(db)) => Some(db.clone()),
            _ => None,
        },
        _ => None,
    };
    Ok(Some((command.clone(), args, env_db)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const EVENTS: &[Event] = &[
        Event {
            name: "SessionStart",
            matcher: None,
            timeout: None,
        },
        Event {
            name: "PostToolUse",
            matcher: Some("Edit"),
            timeout: Some(3),
        },
    ];

    #[test]
    fn setup_then_remove_gives_the_bytes_back() {
        let args = ["--db".to_string(), "/m.db".into(), "mcp".into()];
        for text in [
            "{\n  \"a\": 0.000001234,\n  \"b\": \"\\u00e9\"\n}\n",
            "\u{feff}{\r\n    \"hooks\": {\r\n        \"Stop\": []\r\n    }\r\n}",
            "{\"hooks\":{\"SessionStart\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"x\"}]}]},\"a\":1,\"a\":2}",
        ] {
            let set = edit_hooks(Some(text), EVENTS, Some("/bin/recall hook"), None)
                .unwrap()
                .unwrap();
            let back = edit_hooks(Some(&set), EVENTS, None, Some(text)).unwrap();
            assert_eq!(back.as_deref(), Some(text), "{set}");
            let set = edit_server(Some(text), Some(("/bin/recall", &args)), None)
                .unwrap()
                .unwrap();
            let back = edit_server(Some(&set), None, Some(text)).unwrap();
            assert_eq!(back.as_deref(), Some(text), "{set}");
        }
    }

    #[test]
    fn bad_json_names_line_and_column() {
        let e = edit_hooks(Some("{\n  \"a\": 1,\n}\n"), EVENTS, None, None)
            .err()
            .unwrap();
        assert!(e.contains("line 3"), "{e}");
        let e = edit_hooks(Some("[1]"), EVENTS, None, None).err().unwrap();
        assert!(e.contains("no JSON object"), "{e}");
    }
}
