//! LoCoMo-format conversations into a library plus evaluation cases: one item per turn
//! (title: the text, summary: who said it), one project per conversation, the time of
//! its session; one case per question with evidence, scoped to the conversation.
use std::collections::HashMap;
use std::path::Path;

use chrono::NaiveDateTime;
use serde_json::{json, Value};

use crate::error::{err, Context, Result};
use crate::interrupt;
use crate::item::Item;
use crate::items::options::{Duplicates, WriteOptions};
use crate::items::writer::{self, ItemWriter};
use crate::library::Library;

/// LoCoMo's category of adversarial questions.
const ADVERSARIAL: i64 = 5;

/// LoCoMo session times read like `1:56 pm on 8 May, 2023`.
pub fn parse_session_time(text: &str) -> Option<String> {
    let t = text.trim().replace("  ", " ");
    for format in [
        "%I:%M %p on %d %B, %Y",
        "%I:%M %p on %d %b, %Y",
        "%H:%M on %d %B, %Y",
    ] {
        if let Ok(dt) = NaiveDateTime::parse_from_str(&t, format) {
            return Some(recall_core::time::normalize(&dt.and_utc()));
        }
    }
    recall_core::time::parse_datetime(&t).map(|dt| recall_core::time::normalize(&dt))
}

pub struct Converted {
    pub items: Vec<Item>,
    pub cases: Vec<Value>,
    pub skipped_questions: usize,
}

/// Imports the LoCoMo JSON into `lib` and writes its cases to `cases_path`, in one
/// transaction: the cases name the items by id, so both are kept or neither.
pub fn import(
    lib: &mut Library,
    doc: &Value,
    cases_path: &Path,
    unit: Unit,
    guard: &interrupt::Guard,
) -> Result<Converted> {
    let tx = crate::library::turn::immediate(&lib.conn).context("starting the import")?;
    // The cases name items by id: new ones, above every id ever used (read inside the
    // transaction, so that no other writer takes them meanwhile).
    let first_id = writer::ids_used(&tx).context("reading the next id")? + 1;
    let converted = convert(doc, first_id, unit)?;
    store(&tx, &converted.items)?;
    let lines: String = converted.cases.iter().map(|c| format!("{c}\n")).collect();
    std::fs::write(cases_path, lines)
        .map_err(|e| err!("cannot write {}: {e}", cases_path.display()))?;
    guard
        .commit(|| tx.commit())
        .context("committing the import")?;
    Ok(converted)
}

/// Writes a benchmark's items in the transaction `tx`. The cases are judged against
/// these items' text: it is stored as the file gives it, not redacted, and under no
/// access globs.
pub fn store(tx: &rusqlite::Transaction, items: &[Item]) -> Result<()> {
    let options = WriteOptions {
        redact: false,
        allow: None,
        kinds: crate::item::known_kinds(None),
        duplicates: Duplicates::AddAgain,
    };
    let mut writer = ItemWriter::new(tx, &options).context("preparing the import")?;
    for item in items {
        writer
            .write(&writer.prepare(item.clone()))
            .context("writing an item")?
            .map_err(|refusal| err!("{refusal}; nothing was imported"))?;
    }
    Ok(())
}

/// What an item of the library holds: a turn (the default), or a whole session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Turn,
    Session,
}

/// The most a session item's title holds, in bytes, within the title's limit; the rest
/// of the session is its summary.
const SESSION_TITLE: usize = 4000;

/// A session's text cut in two at a space: the title's part, within [`SESSION_TITLE`]
/// bytes, and the rest.
fn split_title(text: &str) -> (String, String) {
    if text.len() <= SESSION_TITLE {
        return (text.to_string(), String::new());
    }
    let mut cut = SESSION_TITLE;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let cut = text[..cut].rfind(' ').filter(|p| *p > 0).unwrap_or(cut);
    (
        text[..cut].trim().to_string(),
        text[cut..].trim().to_string(),
    )
}

/// Converts the LoCoMo JSON (a list of samples) with item ids starting at `first_id`,
/// one item per turn or per session.
pub fn convert(doc: &Value, first_id: i64, unit: Unit) -> Result<Converted> {
    let samples = doc
        .as_array()
        .ok_or_else(|| err!("a LoCoMo file is a JSON array of samples"))?;
    let mut items = Vec::new();
    let mut cases = Vec::new();
    let mut skipped = 0;
    let mut next_id = first_id;
    for (n, sample) in samples.iter().enumerate() {
        let project = sample["sample_id"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| format!("conversation-{}", n + 1));
        let conv = sample["conversation"]
            .as_object()
            .ok_or_else(|| err!("sample {project}: no conversation object"))?;
        let mut sessions: Vec<(u32, &Vec<Value>)> = conv
            .iter()
            .filter_map(|(k, v)| {
                let n = k.strip_prefix("session_")?.parse::<u32>().ok()?;
                Some((n, v.as_array()?))
            })
            .collect();
        sessions.sort_by_key(|(n, _)| *n);
        let mut by_dia: HashMap<String, i64> = HashMap::new();
        let mut last_time = String::new();
        // Each session's first and last item: its turns get consecutive ids.
        let mut ranges = serde_json::Map::new();
        for (session, turns) in sessions {
            let first = next_id;
            let key = format!("session_{session}_date_time");
            let when = conv
                .get(&key)
                .and_then(|v| v.as_str())
                .and_then(parse_session_time)
                .ok_or_else(|| err!("sample {project}: {key} is missing or unreadable"))?;
            let base = recall_core::time::parse_datetime(&when)
                .ok_or_else(|| err!("sample {project}: bad time {when}"))?;
            // A session item: its turns as `speaker: text`, at the session's time.
            let mut said: Vec<(String, String)> = Vec::new();
            for (i, turn) in turns.iter().enumerate() {
                let text = turn["text"].as_str().unwrap_or("").trim();
                let dia = turn["dia_id"].as_str().unwrap_or("");
                if text.is_empty() || dia.is_empty() {
                    continue;
                }
                let speaker = turn["speaker"].as_str().unwrap_or("someone");
                if unit == Unit::Session {
                    said.push((
                        format!("{speaker}: {text}"),
                        format!("{dia} {speaker}: {text}"),
                    ));
                    by_dia.insert(dia.to_string(), next_id);
                    continue;
                }
                // Turns of a session keep their order: one second apart.
                let at = base + chrono::Duration::seconds(i as i64);
                last_time = recall_core::time::normalize(&at);
                let title: String = text.chars().take(1000).collect();
                items.push(Item {
                    id: Some(next_id),
                    source: "locomo".into(),
                    project: Some(project.clone()),
                    title,
                    summary: format!("{speaker} said"),
                    questions: String::new(),
                    atoms: String::new(),
                    occurred_at: last_time.clone(),
                    transcript: Some(format!("{dia} {speaker}: {text}")),
                    embedding: None,
                });
                by_dia.insert(dia.to_string(), next_id);
                next_id += 1;
            }
            if !said.is_empty() {
                let text: Vec<&str> = said.iter().map(|(t, _)| t.as_str()).collect();
                let (title, summary) = split_title(&text.join(" "));
                let lines: Vec<&str> = said.iter().map(|(_, l)| l.as_str()).collect();
                last_time = when.clone();
                items.push(Item {
                    id: Some(next_id),
                    source: "locomo".into(),
                    project: Some(project.clone()),
                    title,
                    summary,
                    questions: String::new(),
                    atoms: String::new(),
                    occurred_at: when.clone(),
                    transcript: Some(lines.join("\n")),
                    embedding: None,
                });
                next_id += 1;
            }
            if next_id > first {
                ranges.insert(format!("session_{session}"), json!([first, next_id - 1]));
            }
        }
        for (q, qa) in sample["qa"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[])
            .iter()
            .enumerate()
        {
            let question = qa["question"].as_str().unwrap_or("").trim();
            let mut expect: Vec<i64> = Vec::new();
            // Two evidence turns of one session are one session item, expected once.
            for d in qa["evidence"].as_array().map(Vec::as_slice).unwrap_or(&[]) {
                if let Some(id) = d.as_str().and_then(|d| by_dia.get(d.trim())) {
                    if !expect.contains(id) {
                        expect.push(*id);
                    }
                }
            }
            if question.is_empty() || expect.is_empty() {
                skipped += 1;
                continue;
            }
            let category = qa["category"]
                .as_i64()
                .map(|c| format!("category-{c}"))
                .unwrap_or_else(|| "category-unknown".into());
            let mut tags = vec!["locomo".to_string(), category];
            // Category 5 asks about what was never said: the session level reports it
            // apart (`sessions::APART`), as LoCoMo's peers do.
            if qa["category"].as_i64() == Some(ADVERSARIAL) {
                tags.push("adversarial".into());
            }
            cases.push(json!({
                "id": format!("{project}/q{}", q + 1),
                "tags": tags,
                "query": question,
                "project": project,
                "now": last_time,
                "expect": expect,
                "sessions": ranges,
            }));
        }
    }
    Ok(Converted {
        items,
        cases,
        skipped_questions: skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_times() {
        assert_eq!(
            parse_session_time("1:56 pm on 8 May, 2023").as_deref(),
            Some("2023-05-08T13:56:00Z")
        );
        assert_eq!(
            parse_session_time("10:37 am on 27 June, 2023").as_deref(),
            Some("2023-06-27T10:37:00Z")
        );
        assert_eq!(
            parse_session_time("2023-06-27").as_deref(),
            Some("2023-06-27T00:00:00Z")
        );
        assert_eq!(parse_session_time("sometime"), None);
    }

    #[test]
    fn a_long_session_is_cut_at_a_space() {
        let text = "word ".repeat(1000);
        let (title, summary) = split_title(&text);
        assert!(title.len() <= SESSION_TITLE && title.ends_with("word"));
        assert_eq!(format!("{title} {summary}"), text.trim());
        assert_eq!(split_title("short"), ("short".to_string(), String::new()));
        // Multi-byte text is cut on a character.
        let (t, rest) = split_title(&"é".repeat(3000));
        assert!(t.len() <= SESSION_TITLE && !rest.is_empty());
    }

    #[test]
    fn converts_turns_and_questions() {
        let doc = json!([{
            "sample_id": "conv-1",
            "conversation": {
                "speaker_a": "Ana", "speaker_b": "Ben",
                "session_1_date_time": "1:56 pm on 8 May, 2023",
                "session_1": [
                    {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a cat named Miso."},
                    {"speaker": "Ben", "dia_id": "D1:2", "text": "Lovely! I started pottery."}
                ],
                "session_2_date_time": "9:00 am on 1 June, 2023",
                "session_2": [{"speaker": "Ana", "dia_id": "D2:1", "text": "Miso broke a vase."}]
            },
            "qa": [
                {"question": "What is the name of Ana's cat?", "answer": "Miso", "evidence": ["D1:1"], "category": 1},
                {"question": "What happened later?", "answer": "x", "evidence": ["D2:1", "D1:1"], "category": 2},
                {"question": "Unanswerable?", "answer": "no", "evidence": [], "category": 5}
            ]
        }]);
        let c = convert(&doc, 10, Unit::Turn).unwrap();
        assert_eq!(c.items.len(), 3);
        assert_eq!(c.items[0].id, Some(10));
        assert_eq!(c.items[1].occurred_at, "2023-05-08T13:56:01Z");
        assert_eq!(c.items[2].occurred_at, "2023-06-01T09:00:00Z");
        assert_eq!(c.items[1].summary, "Ben said");
        assert_eq!(c.cases.len(), 2);
        assert_eq!(c.skipped_questions, 1);
        assert_eq!(c.cases[1]["expect"], json!([12, 10]));
        assert_eq!(c.cases[0]["tags"], json!(["locomo", "category-1"]));
        assert_eq!(c.cases[0]["project"], "conv-1");
        assert_eq!(
            c.cases[1]["sessions"],
            json!({"session_1": [10, 11], "session_2": [12, 12]})
        );
        // One item per session: the turns said in order, the evidence by session.
        let s = convert(&doc, 10, Unit::Session).unwrap();
        assert_eq!(s.items.len(), 2);
        assert_eq!(
            s.items[0].title,
            "Ana: I adopted a cat named Miso. Ben: Lovely! I started pottery."
        );
        assert_eq!(s.items[0].occurred_at, "2023-05-08T13:56:00Z");
        assert_eq!(
            s.items[1].transcript.as_deref(),
            Some("D2:1 Ana: Miso broke a vase.")
        );
        assert_eq!(s.cases[0]["expect"], json!([10]));
        assert_eq!(s.cases[1]["expect"], json!([11, 10]));
        assert_eq!(
            s.cases[1]["sessions"],
            json!({"session_1": [10, 10], "session_2": [11, 11]})
        );
    }
}
