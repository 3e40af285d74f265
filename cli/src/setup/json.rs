//! The agents' JSON settings, read and written back in the file's own key order and
//! indentation: a value of its own (`Json`, objects as `IndexMap`) rather than
//! `serde_json::Value`, whose key order is the whole program's choice (sorted) and would
//! change every other command's `--json` output if switched. Printed by serde_json's
//! pretty printer with the indentation the file uses, as the agents write their files.
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

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

/// A settings file: its value, and how it is printed.
pub struct Doc {
    pub root: Object,
    indent: String,
    newline_at_end: bool,
}

impl Doc {
    /// Parses a file's text (None: no file yet); the error says what is wrong.
    pub fn parse(text: Option<&str>) -> Result<Doc, String> {
        let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
            return Ok(Doc {
                root: Object::new(),
                indent: "  ".into(),
                newline_at_end: true,
            });
        };
        // serde_json first, for its message with line and column.
        serde_json::from_str::<serde_json::Value>(text)
            .map_err(|e| format!("not valid JSON: {e}"))?;
        let value: Json = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
        let Json::Object(root) = value else {
            return Err("holds no JSON object at its top".into());
        };
        Ok(Doc {
            root,
            indent: indentation(text),
            newline_at_end: text.ends_with('\n'),
        })
    }

    pub fn print(&self) -> String {
        let mut out = Vec::new();
        let formatter = serde_json::ser::PrettyFormatter::with_indent(self.indent.as_bytes());
        let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
        // Writing a tree of strings, numbers and maps into memory cannot fail.
        let _ = Json::Object(self.root.clone()).serialize(&mut serializer);
        let mut text = String::from_utf8_lossy(&out).into_owned();
        if self.newline_at_end {
            text.push('\n');
        }
        text
    }
}

/// The indentation of the first indented line (two spaces when there is none).
fn indentation(text: &str) -> String {
    text.lines()
        .skip(1)
        .map(|l| {
            l.chars()
                .take_while(|c| *c == ' ' || *c == '\t')
                .collect::<String>()
        })
        .find(|i| !i.is_empty())
        .unwrap_or_else(|| "  ".into())
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

fn object_at<'a>(parent: &'a mut Object, key: &str, path: &str) -> Result<&'a mut Object, String> {
    match parent
        .entry(key.to_string())
        .or_insert(Json::Object(Object::new()))
    {
        Json::Object(o) => Ok(o),
        other => Err(format!("`{path}` is {}, not an object", kind(other))),
    }
}

/// A hook event to wire: its name, its matcher (tool events), and its timeout where the
/// agent allows less than `TIMEOUT_SECONDS` (Codex's `SessionEnd`).
#[derive(Clone, Copy)]
pub struct Event {
    pub name: &'static str,
    pub matcher: Option<&'static str>,
    pub timeout: Option<u32>,
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

/// The groups of an event with recall's handlers taken out (a group left empty goes),
/// and how many were taken.
fn without_recall(groups: &[Json]) -> (Vec<Json>, usize) {
    let mut taken = 0;
    let mut kept = Vec::new();
    for g in groups {
        let mut g = g.clone();
        if let Json::Object(o) = &mut g {
            if let Some(Json::Array(handlers)) = o.get_mut("hooks") {
                let before = handlers.len();
                handlers.retain(|h| !is_recall_handler(h));
                taken += before - handlers.len();
                if handlers.is_empty() && before > 0 {
                    continue;
                }
            }
        }
        kept.push(g);
    }
    (kept, taken)
}

/// Wires `command` to each event in `root["hooks"]`: one group of its own per event,
/// after the groups already there; a recall hook already there in another form (an
/// older path, a hand-written `recall hook`) is replaced, so the hook runs once.
pub fn set_hooks(root: &mut Object, events: &[Event], command: &str) -> Result<(), String> {
    let hooks = object_at(root, "hooks", "hooks")?;
    for event in events {
        let path = format!("hooks.{}", event.name);
        let groups = match hooks
            .entry(event.name.to_string())
            .or_insert(Json::Array(Vec::new()))
        {
            Json::Array(a) => a,
            other => return Err(format!("`{path}` is {}, not a list", kind(other))),
        };
        let ours = group(event, command);
        let (mut kept, taken) = without_recall(groups);
        if taken == 1 && groups.contains(&ours) {
            continue;
        }
        kept.push(ours);
        *groups = kept;
    }
    Ok(())
}

/// Takes recall's hooks out of the events; an event left with no group goes, and
/// `hooks` left empty goes.
pub fn remove_hooks(root: &mut Object, events: &[Event]) {
    let Some(Json::Object(hooks)) = root.get_mut("hooks") else {
        return;
    };
    for event in events {
        if let Some(Json::Array(groups)) = hooks.get_mut(event.name) {
            let (kept, taken) = without_recall(groups);
            if taken == 0 {
                continue;
            }
            if kept.is_empty() {
                hooks.shift_remove(event.name);
            } else {
                *groups = kept;
            }
        }
    }
    if hooks.is_empty() {
        root.shift_remove("hooks");
    }
}

/// The events of `root["hooks"]` that hold a recall hook, each with its command.
pub fn wired_hooks(root: &Object) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(Json::Object(hooks)) = root.get("hooks") {
        for (event, groups) in hooks {
            let Json::Array(groups) = groups else {
                continue;
            };
            for g in groups {
                if let Json::Object(g) = g {
                    if let Some(Json::Array(handlers)) = g.get("hooks") {
                        for h in handlers.iter().filter(|h| is_recall_handler(h)) {
                            if let Json::Object(h) = h {
                                if let Some(Json::String(c)) = h.get("command") {
                                    out.push((event.clone(), c.clone()));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out
}

/// The MCP server entry `mcpServers.recall`, set to run `program` with `args`; other
/// fields of an entry already there are kept. An entry of that name that runs another
/// program is refused.
pub fn set_server(
    root: &mut Object,
    program: &str,
    args: &[String],
    with_type: bool,
) -> Result<(), String> {
    let servers = object_at(root, "mcpServers", "mcpServers")?;
    let entry = servers
        .entry(super::SERVER.to_string())
        .or_insert(Json::Object(Object::new()));
    let Json::Object(entry) = entry else {
        return Err(format!(
            "`mcpServers.{}` is {}, not an object",
            super::SERVER,
            kind(entry)
        ));
    };
    if let Some(other) = foreign_command(entry) {
        return Err(format!(
            "`mcpServers.{}` runs {other}, not recall: rename or remove that server",
            super::SERVER
        ));
    }
    let mut want = Vec::new();
    if with_type {
        want.push(("type", Json::String("stdio".into())));
    }
    want.push(("command", Json::String(program.into())));
    want.push((
        "args",
        Json::Array(args.iter().map(|a| Json::String(a.clone())).collect()),
    ));
    for (k, v) in want {
        if entry.get(k) != Some(&v) {
            entry.insert(k.into(), v);
        }
    }
    Ok(())
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

/// Takes `mcpServers.recall` out when it is recall's; `mcpServers` left empty goes.
pub fn remove_server(root: &mut Object) {
    let Some(Json::Object(servers)) = root.get_mut("mcpServers") else {
        return;
    };
    if let Some(Json::Object(entry)) = servers.get(super::SERVER) {
        if foreign_command(entry).is_none() {
            servers.shift_remove(super::SERVER);
        }
    }
    if servers.is_empty() {
        root.shift_remove("mcpServers");
    }
}

/// recall's MCP entry: its command and arguments, when it is recall's.
pub fn wired_server(root: &Object) -> Option<(String, Vec<String>, Option<String>)> {
    let Some(Json::Object(servers)) = root.get("mcpServers") else {
        return None;
    };
    let Some(Json::Object(entry)) = servers.get(super::SERVER) else {
        return None;
    };
    let Some(Json::String(command)) = entry.get("command") else {
        return None;
    };
    if !recall_program(command) {
        return None;
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
    Some((command.clone(), args, env_db))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_prints_back_as_it_was_read() {
        let text = "{\n    \"b\": [\n        1,\n        2.5\n    ],\n    \"a\": {\n        \"z\": null,\n        \"y\": \"\u{e9}\"\n    },\n    \"empty\": {},\n    \"none\": []\n}\n";
        assert_eq!(Doc::parse(Some(text)).unwrap().print(), text);
        let tabs = "{\n\t\"k\": true\n}";
        assert_eq!(Doc::parse(Some(tabs)).unwrap().print(), tabs);
    }

    #[test]
    fn bad_json_names_line_and_column() {
        let e = Doc::parse(Some("{\n  \"a\": 1,\n}\n")).err().unwrap();
        assert!(e.contains("line 3"), "{e}");
        let e = Doc::parse(Some("[1]")).err().unwrap();
        assert!(e.contains("no JSON object"), "{e}");
    }
}
