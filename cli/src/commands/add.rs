//! `recall add`: one item, from flags or from one JSON object on standard input (`-`).
//! The flags build the JSON object the import format describes, so that an item is
//! checked by the one validation of `import` (`Item::from_json`) either way.
use std::io::IsTerminal;

use serde_json::{json, Map, Value};

use super::Globals;
use crate::args::AddArgs;
use crate::error::{err, Result};
use crate::input;
use crate::item::{known_kinds, unknown_kind, Item, Marks, MAX_TRANSCRIPT};
use crate::items::add::add;
use crate::items::options::{Duplicates, WriteOptions};
use crate::library::{self, Mode};
use crate::{interrupt, output};

pub fn run(g: &Globals, a: &AddArgs) -> Result<i32> {
    let path = g.db()?;
    let (value, from_flags) = match a.input.as_deref() {
        Some("-") => {
            if let Some(flag) = item_flag_given(a) {
                return Err(err!(
                    "`recall add -` reads the whole item as JSON from standard input; {flag} cannot be given with it"
                ));
            }
            (read_stdin_object()?, false)
        }
        Some(other) => {
            return Err(err!(
                "unexpected argument {other:?}: give the item as flags (--source, --title, …), or `-` to read it as one JSON object from standard input"
            ))
        }
        None => (from_flags(a)?, true),
    };
    let item = Item::from_json(&value).map_err(|reason| {
        let reason = if from_flags {
            flag_reason(&reason)
        } else {
            reason
        };
        err!("{reason}; nothing was added")
    })?;
    let marks = Marks::from_json(&value);
    let options = WriteOptions {
        redact: a.redact.on(g.config.redact.enabled),
        allow: g.allow(&a.access.allow),
        kinds: known_kinds(g.config.kinds.extra.as_deref()),
        duplicates: Duplicates::skipped(a.skip_duplicates),
    };
    // The writer refuses an unknown kind too; here it is named as the user typed it.
    let name = if from_flags { "--kind" } else { "kind" };
    if let Some(unknown) = marks
        .kind
        .as_deref()
        .and_then(|k| unknown_kind(name, k, &options.kinds))
    {
        return Err(err!("{unknown}; nothing was added"));
    }
    let mut lib = library::open(path, Mode::Write, g.tokenizer.as_deref())?;
    let guard = interrupt::guard(
        "nothing was added; the library is as it was".to_string(),
        None,
    )?;
    let added = add(&mut lib, item, &marks, &options, Some(&guard))?;
    drop(guard);
    if g.json {
        output::json(&added.to_json());
    } else {
        crate::output::say!("{}", added.id);
        if !added.redacted.is_empty() {
            eprintln!("recall: redacted {}", added.redacted.summary());
        }
    }
    if let Some(id) = added.duplicate_of {
        let done = if added.written {
            format!(
                "added again as item {} (`--skip-duplicates` leaves it out)",
                added.id
            )
        } else {
            "nothing was added".to_string()
        };
        eprintln!(
            "recall: warning: item {id} is identical (same source, project, title, text and time): {done}"
        );
    }
    Ok(0)
}

/// The first item flag given, named as typed (they cannot join `-`).
fn item_flag_given(a: &AddArgs) -> Option<&'static str> {
    [
        ("--source", a.source.is_some()),
        ("--project", a.project.is_some()),
        ("--title", a.title.is_some()),
        ("--summary", a.summary.is_some()),
        ("--questions", !a.questions.is_empty()),
        ("--atoms", !a.atoms.is_empty()),
        ("--at", a.at.is_some()),
        ("--transcript-file", a.transcript_file.is_some()),
        ("--kind", a.kind.is_some()),
        ("--global", a.global),
    ]
    .into_iter()
    .find(|(_, given)| *given)
    .map(|(flag, _)| flag)
}

/// The JSON object of the import format that the flags describe. What is not given is
/// left out, so that the validation names it; the time defaults to now.
fn from_flags(a: &AddArgs) -> Result<Value> {
    let mut obj = Map::new();
    let mut put = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            obj.insert(k.to_string(), v);
        }
    };
    put("source", a.source.clone().map(Value::from));
    put("project", a.project.clone().map(Value::from));
    put("title", a.title.clone().map(Value::from));
    put("summary", a.summary.clone().map(Value::from));
    let lines = |v: &[String]| (!v.is_empty()).then(|| json!(v));
    put("questions", lines(&a.questions));
    put("atoms", lines(&a.atoms));
    let at = match &a.at {
        Some(t) => time_value(t),
        None => json!(recall_core::time::normalize(&chrono::Utc::now())),
    };
    put("occurred_at", Some(at));
    put("kind", a.kind.clone().map(Value::from));
    put("global", a.global.then_some(Value::Bool(true)));
    if let Some(path) = &a.transcript_file {
        put("transcript", Some(Value::from(read_transcript(path)?)));
    }
    Ok(Value::Object(obj))
}

/// `--at` as the import format takes it: whole Unix seconds as a number, anything else
/// as text (an error then quotes it as typed).
fn time_value(t: &str) -> Value {
    match t.trim().parse::<i64>() {
        Ok(i) => json!(i),
        Err(_) => json!(t),
    }
}

/// A transcript longer than an item may hold is refused before it is read whole.
fn read_transcript(path: &str) -> Result<String> {
    let what = format!("--transcript-file {path}");
    let fix = "give a shorter transcript; nothing was added";
    let bytes = if path == "-" {
        input::read_limited(std::io::stdin().lock(), MAX_TRANSCRIPT as u64, &what, fix)?
    } else {
        let file = std::fs::File::open(path)
            .map_err(|e| err!("--transcript-file: cannot read {path}: {e}"))?;
        input::read_limited(file, MAX_TRANSCRIPT as u64, &what, fix)?
    };
    String::from_utf8(bytes).map_err(|e| {
        err!(
            "{what}: invalid UTF-8 at byte {}; nothing was added",
            e.utf8_error().valid_up_to()
        )
    })
}

/// One JSON object from standard input (a byte-order mark dropped), and nothing after it.
fn read_stdin_object() -> Result<Value> {
    let stdin = std::io::stdin().lock();
    if stdin.is_terminal() {
        return Err(err!(
            "`recall add -` reads one JSON object from standard input: pipe it in, or give the item as flags"
        ));
    }
    let bytes = input::read_limited(
        stdin,
        input::ITEM_JSON,
        "standard input",
        "no valid item is that long; nothing was added",
    )?;
    let text = input::text(bytes, "standard input").map_err(|e| err!("{e}; nothing was added"))?;
    if text.trim().is_empty() {
        return Err(err!(
            "standard input is empty: give one JSON object in the import format; nothing was added"
        ));
    }
    let mut values = serde_json::Deserializer::from_str(&text).into_iter::<Value>();
    let value = match values.next() {
        Some(Ok(v)) => v,
        Some(Err(e)) => return Err(err!("standard input: invalid JSON: {e}; nothing was added")),
        None => {
            return Err(err!(
                "standard input holds no JSON value; nothing was added"
            ))
        }
    };
    match values.next() {
        None => Ok(value),
        Some(Ok(_)) => Err(err!(
            "standard input holds more than one JSON value: `recall add -` takes one item (`recall import -` takes JSON Lines); nothing was added"
        )),
        Some(Err(e)) => Err(err!("standard input: invalid JSON after the item: {e}; nothing was added")),
    }
}

/// A reason of `Item::from_json` with the field named by its flag (`title is missing`
/// becomes `--title is missing`).
fn flag_reason(reason: &str) -> String {
    const FLAGS: [(&str, &str); 10] = [
        ("source", "--source"),
        ("project", "--project"),
        ("title", "--title"),
        ("summary", "--summary"),
        ("questions", "--questions"),
        ("atoms", "--atoms"),
        ("occurred_at", "--at"),
        ("transcript", "--transcript-file"),
        ("kind", "--kind"),
        ("global", "--global"),
    ];
    for (field, flag) in FLAGS {
        if let Some(rest) = reason.strip_prefix(field) {
            if rest.starts_with(' ') {
                return format!("{flag}{rest}");
            }
        }
    }
    reason.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_name_the_flag() {
        assert_eq!(flag_reason("title is missing"), "--title is missing");
        assert_eq!(
            flag_reason("occurred_at \"x\" is not an ISO-8601 time"),
            "--at \"x\" is not an ISO-8601 time"
        );
        assert_eq!(
            flag_reason("transcript is 5 bytes, more than the 4 allowed"),
            "--transcript-file is 5 bytes, more than the 4 allowed"
        );
        assert_eq!(
            flag_reason("expected a JSON object"),
            "expected a JSON object"
        );
    }

    #[test]
    fn times_keep_their_type() {
        assert_eq!(time_value("1700000000"), json!(1_700_000_000));
        assert_eq!(time_value("-86400"), json!(-86_400));
        assert_eq!(time_value("1.5"), json!("1.5"));
        assert_eq!(time_value("2025-03-04"), json!("2025-03-04"));
        assert_eq!(time_value("nan"), json!("nan"));
    }
}
