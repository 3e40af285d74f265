//! An item as JSON Lines carry it, validated field by field with messages that name the
//! field and say what is wrong, then read as its declared shape (`JsonItem`).
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Number, Value};

use recall_core::redact::{redact, Counts};
use recall_core::time;
use recall_core::value::shown_text;

pub const FIELDS: &[&str] = &[
    "id",
    "source",
    "project",
    "title",
    "summary",
    "questions",
    "atoms",
    "occurred_at",
    "transcript",
    "kind",
    "global",
    "embedding",
];
/// The kinds of memory every library knows; the configuration's `[kinds] extra` adds
/// more.
pub const KINDS: [&str; 6] = [
    "decision",
    "bugfix",
    "feature",
    "discovery",
    "gotcha",
    "note",
];
/// The longest kind, in bytes: a word, not a sentence.
pub const MAX_KIND: usize = 32;
/// The highest id a write may give: 2^53 - 1, the largest integer every JSON reader
/// keeps exact. Ids are never reused (a new item's is above every one used), so an id
/// near SQLite's own limit, 2^63 - 1, would leave no id for the next new item.
pub const MAX_ID: i64 = (1 << 53) - 1;
/// Size limits, in bytes of UTF-8.
pub const MAX_TITLE: usize = 4 * 1024;
pub const MAX_INDEXED: usize = 1024 * 1024;
pub const MAX_TRANSCRIPT: usize = 32 * 1024 * 1024;
/// The most numbers an embedding may have: sqlite-vec's own limit (`vectors::store`).
pub const MAX_DIMENSIONS: usize = 8192;

#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub id: Option<i64>,
    pub source: String,
    pub project: Option<String>,
    pub title: String,
    pub summary: String,
    pub questions: String,
    pub atoms: String,
    pub occurred_at: String,
    pub transcript: Option<String>,
    /// A ready vector for search's vector channel (docs/vectors.md), stored when the
    /// library has vectors of its length.
    pub embedding: Option<Vec<f32>>,
}

/// What a person says of an item beside its text: its kind of memory and whether it
/// holds in every project. Kept apart from `Item`, whose every route (capture among
/// them) builds it field by field: a write without marks keeps those of an item it
/// replaces (`sql/import_item.sql`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    pub kind: Option<String>,
    pub global: bool,
}

impl Marks {
    /// The marks of an item's JSON, checked by `Item::from_json` first.
    pub fn from_json(v: &Value) -> Marks {
        Marks {
            kind: v.get("kind").and_then(Value::as_str).map(str::to_string),
            global: v.get("global").and_then(Value::as_bool).unwrap_or(false),
        }
    }
}

/// Whether `word` has the shape of a kind: a short lowercase word (letters, digits and
/// `-`, starting with a letter). `name` is what messages call it.
pub fn kind_shape(name: &str, word: &str) -> Result<(), String> {
    let shaped = word.len() <= MAX_KIND
        && word.starts_with(|c: char| c.is_ascii_lowercase())
        && word
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    match shaped {
        true => Ok(()),
        false => Err(format!(
            "{name} {:?} is not a kind: write a short lowercase word (letters, digits and -, \
             at most {MAX_KIND}), such as {}",
            shown_text(word),
            KINDS.join(", ")
        )),
    }
}

/// The kinds a library's items may have: the built-in ones and the configuration's.
pub fn known_kinds(extra: Option<&[String]>) -> Vec<String> {
    let mut known: Vec<String> = KINDS.iter().map(|k| k.to_string()).collect();
    for k in extra.unwrap_or_default() {
        if !known.contains(k) {
            known.push(k.clone());
        }
    }
    known
}

/// Why `kind` is not one of `known`, if it is not (`name` as messages call it).
pub fn unknown_kind(name: &str, kind: &str, known: &[String]) -> Option<String> {
    (!known.iter().any(|k| k == kind)).then(|| {
        format!(
            "{name} {:?} is not a known kind (known: {}): use one of them, or add it to the \
             configuration's [kinds] extra",
            shown_text(kind),
            known.join(", ")
        )
    })
}

/// An item's JSON shape: a line of `recall import`, the object of `recall add -`, the
/// arguments of the MCP tool `add` (whose input schema is derived from this). Read only
/// after `Item::from_json`'s checks, whose messages name the field and say what is
/// wrong (serde's own do not, and stop at another field first).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JsonItem {
    /// Replace the item with this id instead of adding one.
    #[serde(default, deserialize_with = "whole_id")]
    // Leaving it out adds a new item: the schema lists no default.
    #[schemars(range(min = 1), skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// Where the item comes from: the agent or tool writing it, e.g. "agent-claude".
    pub source: String,
    /// The project it belongs to.
    pub project: Option<String>,
    /// A short title: the most searched field, so put the words one would search for.
    pub title: String,
    /// What happened or was decided.
    #[serde(default)]
    pub summary: Lines,
    /// Questions the item answers.
    #[serde(default)]
    pub questions: Lines,
    /// Short facts: names, versions, error messages, commands.
    #[serde(default)]
    pub atoms: Lines,
    /// When it happened: ISO-8601 text (2025-03-04T05:06:07Z; a bare date is UTC) or Unix
    /// seconds.
    pub occurred_at: Time,
    /// A transcript, stored and shown by get, never searched.
    pub transcript: Option<String>,
    /// What kind of memory it is: decision, bugfix, feature, discovery, gotcha, note (or
    /// a kind the server's configuration adds). Filters can ask for kinds.
    pub kind: Option<String>,
    /// Visible in every project: a project-filtered search, timeline or related list
    /// includes it (a rule that holds in every repository).
    pub global: Option<bool>,
    // Not offered to MCP clients: a model holds no vector of the library's embedder
    // (docs/vectors.md); an item it adds gets one from `recall embed`.
    #[schemars(skip)]
    pub embedding: Option<Vec<f64>>,
}

/// Text, or lines joined with line breaks.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(untagged)]
#[schemars(inline)]
pub enum Lines {
    #[default]
    None,
    Text(String),
    List(Vec<String>),
}

impl Lines {
    fn joined(self) -> String {
        match self {
            Lines::None => String::new(),
            Lines::Text(text) => text,
            Lines::List(lines) => lines.join("\n"),
        }
    }
}

/// ISO-8601 text or Unix seconds.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
#[schemars(inline)]
pub enum Time {
    Text(String),
    Seconds(#[schemars(with = "f64")] Number),
}

impl Time {
    fn value(&self) -> time::TimeValue<'_> {
        use time::TimeValue;
        match self {
            Time::Text(text) => TimeValue::Text(text),
            // Whole numbers stay integers: an f64 would round those beyond 2^53.
            Time::Seconds(n) => match (n.as_i64(), n.as_f64()) {
                (Some(i), _) => TimeValue::Integer(i),
                (None, Some(f)) => TimeValue::Real(f),
                (None, None) => TimeValue::Real(f64::NAN),
            },
        }
    }
}

/// 7.0 is 7, as JSON Schema's integer and a client's encoder take it.
fn whole(n: &Number) -> Option<i64> {
    n.as_i64().or_else(|| {
        n.as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 2f64.powi(53))
            .map(|f| f as i64)
    })
}

fn whole_id<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Ok(Option::<Number>::deserialize(d)?.as_ref().and_then(whole))
}

/// An embedding's number as stored (float32): one beyond it is not a coordinate.
fn coordinate(f: f64) -> Option<f32> {
    Some(f as f32).filter(|f| f.is_finite())
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn checked(field: &str, s: &str, max: usize) -> Result<(), String> {
    if s.contains('\0') {
        return Err(format!("{field} contains a NUL character"));
    }
    if s.len() > max {
        return Err(format!(
            "{field} is {} bytes, more than the {max} allowed",
            s.len()
        ));
    }
    Ok(())
}

/// A source as every item's is checked: some text, no NUL, at most the title's length.
pub fn check_source(source: &str) -> Result<(), String> {
    if source.trim().is_empty() {
        return Err("a source must not be empty".to_string());
    }
    checked("source", source, MAX_TITLE)
}

fn required_text(obj: &Map<String, Value>, field: &str, max: usize) -> Result<(), String> {
    match obj.get(field) {
        None | Some(Value::Null) => Err(format!("{field} is missing")),
        Some(Value::String(s)) if s.trim().is_empty() => Err(format!("{field} is empty")),
        Some(Value::String(s)) => checked(field, s, max),
        Some(v) => Err(format!("{field} must be a string, got {}", type_name(v))),
    }
}

fn optional_text(obj: &Map<String, Value>, field: &str, max: usize) -> Result<(), String> {
    match obj.get(field) {
        None | Some(Value::Null) => Ok(()),
        Some(Value::String(s)) => checked(field, s, max),
        Some(v) => Err(format!(
            "{field} must be a string or null, got {}",
            type_name(v)
        )),
    }
}

/// Text, or a list of texts (one per line), or nothing ('').
fn text_or_list(obj: &Map<String, Value>, field: &str) -> Result<(), String> {
    let value = match obj.get(field) {
        None | Some(Value::Null) => return Ok(()),
        Some(v @ Value::String(_)) => v,
        Some(v @ Value::Array(items)) => match items.iter().find(|item| !item.is_string()) {
            Some(item) => {
                return Err(format!(
                    "{field} must hold strings, got {}",
                    type_name(item)
                ))
            }
            None => v,
        },
        Some(v) => {
            return Err(format!(
                "{field} must be a string or a list of strings, got {}",
                type_name(v)
            ))
        }
    };
    let lines = Lines::deserialize(value).map_err(|e| format!("{field}: {e}"))?;
    checked(field, &lines.joined(), MAX_INDEXED)
}

fn occurred_at(obj: &Map<String, Value>) -> Result<(), String> {
    let value = match obj.get("occurred_at") {
        None | Some(Value::Null) => return Err("occurred_at is missing".to_string()),
        Some(v @ (Value::String(_) | Value::Number(_))) => v,
        Some(v) => {
            return Err(format!(
                "occurred_at must be an ISO-8601 string or Unix seconds, got {}",
                type_name(v)
            ))
        }
    };
    let time = Time::deserialize(value).map_err(|e| format!("occurred_at: {e}"))?;
    stored(&time).map(drop)
}

/// The time through the core's one rule (`recall_core::time::to_storable`), which
/// `recall_time` and the time flags follow too.
fn stored(at: &Time) -> Result<String, String> {
    use time::{TimeError, TimeValue};
    let value = at.value();
    time::to_storable(value).map_err(|e| match (value, e) {
        (TimeValue::Text(s), TimeError::Unreadable) => format!(
            "occurred_at \"{}\" is not an ISO-8601 time (like 2025-03-04T05:06:07Z or 2025-03-04)",
            shown_text(s)
        ),
        (TimeValue::Text(s), TimeError::OutOfRange { year }) => match year {
            Some(year) => format!("occurred_at year {year} is out of range (1 to 9999)"),
            None => format!(
                "occurred_at \"{}\" is out of range (years 1 to 9999)",
                shown_text(s)
            ),
        },
        _ => {
            // As the line wrote it (a Value shows a number as JSON does).
            let written = match at {
                Time::Seconds(n) => Value::Number(n.clone()),
                Time::Text(s) => Value::String(s.clone()),
            };
            format!("occurred_at {written} is out of range for Unix seconds")
        }
    })
}

fn kind(obj: &Map<String, Value>) -> Result<(), String> {
    match obj.get("kind") {
        None | Some(Value::Null) => Ok(()),
        Some(Value::String(word)) => kind_shape("kind", word),
        Some(v) => Err(format!(
            "kind must be a string or null, got {}",
            type_name(v)
        )),
    }
}

fn global(obj: &Map<String, Value>) -> Result<(), String> {
    match obj.get("global") {
        None | Some(Value::Null) | Some(Value::Bool(_)) => Ok(()),
        Some(v) => Err(format!(
            "global must be true or false, got {}",
            type_name(v)
        )),
    }
}

fn id(obj: &Map<String, Value>) -> Result<(), String> {
    match obj.get("id") {
        None | Some(Value::Null) => Ok(()),
        Some(Value::Number(n)) => match whole(n) {
            Some(i) if i > MAX_ID => Err(format!(
                "id {i} is above {MAX_ID}, the highest id an item may be given: leave id out to add a new item"
            )),
            Some(i) if i > 0 => Ok(()),
            _ => Err(format!("id must be a positive integer, got {n}")),
        },
        Some(v) => Err(format!(
            "id must be a positive integer, got {}",
            type_name(v)
        )),
    }
}

impl Item {
    /// Writes the item with `sql/import_item.sql` (an upsert when it has an id), for a
    /// caller who may read every source; 0 rows when its id may not be written.
    pub fn insert(&self, stmt: &mut rusqlite::Statement) -> rusqlite::Result<usize> {
        self.insert_as(stmt, None, None, None)
    }

    /// The same for a caller who may read only `sources` (their globs as a JSON array,
    /// `settings::sources_param`), with the ids used before the write began. With
    /// `marks` (its kind, whether it is global) they replace those of an item it
    /// replaces; without, a replaced item keeps its own (`:marks` NULL).
    pub fn insert_as(
        &self,
        stmt: &mut rusqlite::Statement,
        sources: Option<&str>,
        ids_used: Option<i64>,
        marks: Option<&Marks>,
    ) -> rusqlite::Result<usize> {
        stmt.execute(rusqlite::named_params! {
            ":sources": sources,
            ":ids_used": ids_used,
            ":id": self.id,
            ":source": self.source,
            ":project": self.project,
            ":title": self.title,
            ":summary": self.summary,
            ":questions": self.questions,
            ":atoms": self.atoms,
            ":occurred_at": self.occurred_at,
            ":transcript": self.transcript,
            ":marks": marks.map(|_| 1),
            ":kind": marks.and_then(|m| m.kind.as_deref()),
            ":global": marks.map(|m| m.global),
        })
    }

    /// Replaces the secrets of the item's text (title, summary, questions, atoms and
    /// transcript; `recall_core::redact`) by `[redacted]`, and says how many of each kind.
    /// The source and project are names, not text, and stay.
    pub fn redact(&mut self) -> Counts {
        let mut counts = Counts::default();
        let fields = [
            Some(&mut self.title),
            Some(&mut self.summary),
            Some(&mut self.questions),
            Some(&mut self.atoms),
            self.transcript.as_mut(),
        ];
        for field in fields.into_iter().flatten() {
            let (clean, found) = redact(field);
            if let std::borrow::Cow::Owned(clean) = clean {
                *field = clean;
            }
            counts.merge(&found);
        }
        counts
    }

    pub fn from_json(v: &Value) -> Result<Item, String> {
        let Value::Object(obj) = v else {
            return Err(format!("expected a JSON object, got {}", type_name(v)));
        };
        if let Some(unknown) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
            return Err(format!(
                "unknown field {unknown:?} (known: {})",
                FIELDS.join(", ")
            ));
        }
        // Field by field in this order: the first that fails is the one reported.
        id(obj)?;
        required_text(obj, "source", MAX_TITLE)?;
        optional_text(obj, "project", MAX_TITLE)?;
        required_text(obj, "title", MAX_TITLE)?;
        text_or_list(obj, "summary")?;
        text_or_list(obj, "questions")?;
        text_or_list(obj, "atoms")?;
        occurred_at(obj)?;
        optional_text(obj, "transcript", MAX_TRANSCRIPT)?;
        kind(obj)?;
        global(obj)?;
        embedding(obj)?;
        // Checked, so it reads as its shape.
        let item = JsonItem::deserialize(v).map_err(|e| e.to_string())?;
        Ok(Item {
            id: item.id,
            occurred_at: stored(&item.occurred_at)?,
            source: item.source,
            project: item.project,
            title: item.title,
            summary: item.summary.joined(),
            questions: item.questions.joined(),
            atoms: item.atoms.joined(),
            transcript: item.transcript,
            embedding: item
                .embedding
                .map(|v| v.into_iter().filter_map(coordinate).collect()),
        })
    }
}

fn embedding(obj: &Map<String, Value>) -> Result<(), String> {
    let list = match obj.get("embedding") {
        None | Some(Value::Null) => return Ok(()),
        Some(Value::Array(list)) => list,
        Some(v) => {
            return Err(format!(
                "embedding must be an array of numbers, got {}",
                type_name(v)
            ))
        }
    };
    if list.is_empty() || list.len() > MAX_DIMENSIONS {
        return Err(format!(
            "embedding must have 1 to {MAX_DIMENSIONS} numbers, got {}",
            list.len()
        ));
    }
    let mut zeros = true;
    for (i, x) in list.iter().enumerate() {
        match x.as_f64().and_then(coordinate) {
            Some(f) => zeros &= f == 0.0,
            None => {
                return Err(format!(
                    "embedding[{i}] must be a finite number (float32), got {}",
                    shown_text(&x.to_string())
                ))
            }
        }
    }
    if zeros {
        return Err("embedding is all zeros, which has no direction".to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn item(v: Value) -> Result<Item, String> {
        Item::from_json(&v)
    }

    #[test]
    fn a_full_item() {
        let it = item(json!({
            "source": "agent-claude", "project": "shop", "title": "Remove analytics",
            "summary": "gone", "questions": ["why?", "when?"], "atoms": null,
            "occurred_at": "2025-03-04T07:06:07+02:00", "transcript": "…", "id": 7
        }))
        .unwrap();
        assert_eq!(it.occurred_at, "2025-03-04T05:06:07Z");
        assert_eq!(it.questions, "why?\nwhen?");
        assert_eq!(it.atoms, "");
        assert_eq!(it.id, Some(7));
        let whole = |id: Value| {
            item(json!({"source": "s", "title": "t", "occurred_at": "2025-01-01", "id": id}))
        };
        assert_eq!(whole(json!(7.0)).unwrap().id, Some(7));
        assert_eq!(
            whole(json!(7.5)).unwrap_err(),
            "id must be a positive integer, got 7.5"
        );
        assert_eq!(
            whole(json!(-2.0)).unwrap_err(),
            "id must be a positive integer, got -2.0"
        );
        let it = item(json!({"source": "s", "title": "t", "occurred_at": 0})).unwrap();
        assert_eq!(it.occurred_at, "1970-01-01T00:00:00Z");
        assert_eq!(it.project, None);
    }

    #[test]
    fn times_follow_the_core_rule() {
        let at = |v: Value| {
            item(json!({"source": "s", "title": "t", "occurred_at": v})).map(|it| it.occurred_at)
        };
        // A fraction just below zero once became second 60 of the minute before.
        assert_eq!(at(json!(-1e-17)), Ok("1969-12-31T23:59:59Z".into()));
        assert_eq!(at(json!(1e-17)), Ok("1970-01-01T00:00:00Z".into()));
        assert_eq!(at(json!(59.9999999999)), Ok("1970-01-01T00:00:59Z".into()));
        assert_eq!(at(json!(-0.5)), Ok("1969-12-31T23:59:59Z".into()));
        assert_eq!(
            at(json!("2025-03-04T05:06:60Z")),
            Ok("2025-03-04T05:06:59Z".into())
        );
        assert_eq!(
            at(json!(-62135596800i64)),
            Ok("0001-01-01T00:00:00Z".into())
        );
        assert_eq!(at(json!(253402300799.5)), Ok("9999-12-31T23:59:59Z".into()));
        assert_eq!(
            at(json!(253402300800i64)),
            Err("occurred_at 253402300800 is out of range for Unix seconds".into())
        );
        assert_eq!(
            at(json!(u64::MAX)),
            Err("occurred_at 18446744073709551615 is out of range for Unix seconds".into())
        );
        assert_eq!(
            at(json!("+10000-01-01T00:00:00Z")),
            Err("occurred_at year 10000 is out of range (1 to 9999)".into())
        );
        assert_eq!(
            at(json!("0000-06-01")),
            Err("occurred_at year 0 is out of range (1 to 9999)".into())
        );
        let long = at(json!("x".repeat(100_000))).unwrap_err();
        assert!(long.len() < 200, "{long}");
    }

    #[test]
    fn reasons() {
        let base = || json!({"source": "s", "title": "t", "occurred_at": "2025-01-01"});
        let with = |k: &str, v: Value| {
            let mut b = base();
            b[k] = v;
            item(b).unwrap_err()
        };
        let without = |k: &str| {
            let mut b = base();
            b.as_object_mut().unwrap().remove(k);
            item(b).unwrap_err()
        };
        assert_eq!(without("title"), "title is missing");
        assert_eq!(without("source"), "source is missing");
        assert_eq!(without("occurred_at"), "occurred_at is missing");
        assert_eq!(
            with("title", json!(3)),
            "title must be a string, got a number"
        );
        assert_eq!(with("title", json!("  ")), "title is empty");
        assert_eq!(
            with("summary", json!({})),
            "summary must be a string or a list of strings, got an object"
        );
        assert_eq!(
            with("questions", json!([1])),
            "questions must hold strings, got a number"
        );
        assert_eq!(with("occurred_at", json!("yesterday")), "occurred_at \"yesterday\" is not an ISO-8601 time (like 2025-03-04T05:06:07Z or 2025-03-04)");
        assert_eq!(
            with("occurred_at", json!(1e300)),
            "occurred_at 1e+300 is out of range for Unix seconds"
        );
        assert_eq!(
            with("occurred_at", json!(true)),
            "occurred_at must be an ISO-8601 string or Unix seconds, got a boolean"
        );
        assert_eq!(
            with("id", json!(-1)),
            "id must be a positive integer, got -1"
        );
        assert_eq!(
            with("title", json!("a\u{0}b")),
            "title contains a NUL character"
        );
        assert!(with("summary", json!("x".repeat(MAX_INDEXED + 1)))
            .starts_with("summary is 1048577 bytes"));
        assert!(with("colour", json!("red")).starts_with("unknown field \"colour\""));
        assert_eq!(
            item(json!([1])).unwrap_err(),
            "expected a JSON object, got an array"
        );
    }

    /// With several fields wrong, the first in the checks' order is reported, whatever
    /// the line's order: a wrong value before a wrong type.
    #[test]
    fn the_first_field_in_order_is_reported() {
        let first = |v: Value| item(v).unwrap_err();
        assert_eq!(
            first(json!({"occurred_at": "2025", "source": " "})),
            "source is empty"
        );
        assert_eq!(
            first(json!({"title": 3, "source": "a\u{0}", "occurred_at": true})),
            "source contains a NUL character"
        );
        assert_eq!(
            first(json!({"embedding": [0], "summary": {}, "source": "s", "title": "t"})),
            "summary must be a string or a list of strings, got an object"
        );
    }
}
