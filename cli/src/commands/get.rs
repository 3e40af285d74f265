//! `recall get ID`: one item, if the caller may read its source.
//!
//! It reads through `query::run`, as the searches do, so that an item shows the same in
//! both: text that is not valid UTF-8 appears with U+FFFD in place of the bad bytes
//! (`recall check` names such items), and a failure names what is damaged.
use serde_json::{Map, Value as Json};

use super::Globals;
use crate::err;
use crate::error::Result;
use crate::library::{self, Access, Library};
use crate::output;
use crate::query::sql_file::{self, queries};
use crate::text::field;

pub fn run(g: &Globals, id: i64, transcript: bool, allow: &[String]) -> Result<i32> {
    let lib = library::open(g.db()?, Access::Read, g.tokenizer.as_deref())?;
    let item = item(&lib, id, transcript, &g.allow(allow))?;
    if g.json {
        output::json(&answer_of(item));
        return Ok(0);
    }
    let s = |k: &str| -> String {
        match item.get(k) {
            Some(Json::String(s)) => s.clone(),
            Some(Json::Null) | None => String::new(),
            Some(other) => other.to_string(),
        }
    };
    let project = s("project");
    crate::say!(
        "[{id}] {} {} ({}, {})",
        field(&s("occurred_at")),
        field(&s("title")),
        field(if project.is_empty() { "-" } else { &project }),
        field(&s("source"))
    );
    for label in ["summary", "questions", "atoms"] {
        let text = s(label);
        if !text.is_empty() {
            crate::say!("{label}:\n{}", indent(&text));
        }
    }
    if item.contains_key("transcript") {
        crate::say!("transcript:\n{}", indent(&s("transcript")));
    }
    Ok(0)
}

/// The JSON answer, `{"command": "get", "item": {…}}`; a missing item and one whose
/// source `allow` forbids are the same error.
pub fn answer(
    lib: &Library,
    id: i64,
    transcript: bool,
    allow: &Option<Vec<String>>,
) -> Result<Json> {
    item(lib, id, transcript, allow).map(answer_of)
}

fn answer_of(item: Map<String, Json>) -> Json {
    serde_json::json!({ "command": "get", "item": item })
}

fn item(
    lib: &Library,
    id: i64,
    transcript: bool,
    allow: &Option<Vec<String>>,
) -> Result<Map<String, Json>> {
    let rows = sql_file::run(
        &lib.conn,
        queries::GET,
        &crate::query::params::get(id, allow, transcript),
    )?;
    let mut item: Map<String, Json> = rows
        .into_iter()
        .next()
        .ok_or_else(|| err!("no item {id} in {}", lib.path.display()))?;
    // Asked for or not, an item without a transcript shows none.
    if item.get("transcript").is_some_and(Json::is_null) {
        item.remove("transcript");
    }
    Ok(item)
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
