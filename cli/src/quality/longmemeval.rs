//! LongMemEval (the S and M files): per question a haystack of chat sessions, each with
//! its id and date, and the ids of the sessions that hold the evidence. Each question's
//! haystack becomes a library of its own, made with the defaults: one item per turn (a
//! turn longer than [`PIECE`] characters one item per piece, cut at a space), title the
//! text, summary who said it, at the session's date (its turns one second apart); the
//! question is searched as `recall search` would, at the question's date, and its answer
//! ranked by session ([`sessions`]).
use std::path::{Path, PathBuf};

use chrono::NaiveDateTime;
use serde_json::{json, Value};

use super::sessions::{self, SessionOutcome};
use super::{answer, Case, Variant};
use crate::error::{err, Context, Result};
use crate::item::Item;
use crate::settings::Globals;
use crate::{input, library, tokenizer};

/// The longest item a turn gives, in characters, as `import-locomo` cuts a turn's title.
pub const PIECE: usize = 1000;
/// The suffix of an abstention question's id: tagged `abstention`, reported apart.
const ABSTENTION: &str = "_abs";

pub struct Question {
    pub id: String,
    pub kind: String,
    pub question: String,
    /// The question's date, in the library's form: the reference time of recency.
    pub date: String,
    pub sessions: Vec<Session>,
    pub evidence: Vec<String>,
}

pub struct Session {
    pub id: String,
    /// In the library's form.
    pub date: String,
    /// (role, text) in order.
    pub turns: Vec<(String, String)>,
}

impl Question {
    pub fn tags(&self) -> Vec<String> {
        let mut tags = vec!["longmemeval".to_string(), self.kind.clone()];
        if self.id.ends_with(ABSTENTION) {
            tags.push("abstention".into());
        }
        tags
    }
}

/// LongMemEval's dates read like `2023/05/20 (Sat) 02:21`; the day's name is left
/// unread (the date says it); an ISO date is taken too.
fn date(text: &str) -> Option<String> {
    let t = text.trim();
    let without_day = match (t.find('('), t.find(')')) {
        (Some(open), Some(close)) if open < close => {
            format!("{} {}", t[..open].trim(), t[close + 1..].trim())
        }
        _ => t.to_string(),
    };
    if let Ok(dt) = NaiveDateTime::parse_from_str(&without_day, "%Y/%m/%d %H:%M") {
        return Some(recall_core::time::normalize(&dt.and_utc()));
    }
    recall_core::time::parse_datetime(t).map(|dt| recall_core::time::normalize(&dt))
}

/// Reads the file one question at a time (an M file holds gigabytes) and hands each to
/// `f`, with its index; how many there were. A malformed question stops the reading with
/// one error line naming it (its index and id) and the field, with what is expected.
pub fn each(path: &Path, mut f: impl FnMut(usize, Question) -> Result<()>) -> Result<usize> {
    use serde::de::{Deserializer, Error as _, SeqAccess, Visitor};
    use std::io::BufRead;
    let what = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| err!("cannot read {what}: {e}"))?;
    let mut reader = std::io::BufReader::new(file);
    // A byte-order mark at the start is dropped, as every JSON input's is.
    let start = reader
        .fill_buf()
        .map_err(|e| err!("cannot read {what}: {e}"))?;
    if start.starts_with(b"\xEF\xBB\xBF") {
        reader.consume(3);
    }
    let count = std::rc::Rc::new(Count::default());
    let reader = PerQuestion {
        inner: reader,
        count: count.clone(),
        limit: question_limit(),
    };
    // The callback's own error, kept whole: serde would add a line and column to it.
    let mut failed: Option<crate::error::Error> = None;
    struct Questions<'a, F> {
        f: &'a mut F,
        what: &'a str,
        failed: &'a mut Option<crate::error::Error>,
        count: &'a Count,
    }
    impl<'de, F: FnMut(usize, Question) -> Result<()>> Visitor<'de> for Questions<'_, F> {
        type Value = usize;
        fn expecting(&self, out: &mut std::fmt::Formatter) -> std::fmt::Result {
            out.write_str(
                "a JSON array of questions, as longmemeval_s.json and longmemeval_m.json are",
            )
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<usize, A::Error> {
            let mut i = 0;
            loop {
                let v = match seq.next_element::<Value>() {
                    Ok(Some(v)) => v,
                    Ok(None) => break,
                    Err(e) => {
                        if self.count.over.get() {
                            *self.failed = Some(err!(
                                "{}: question [{i}] is over {} (one of LongMemEval is a few MiB): is this a LongMemEval file?",
                                self.what,
                                input::size(question_limit())
                            ));
                        }
                        return Err(e);
                    }
                };
                self.count.bytes.set(0);
                let done = question(&v)
                    .map_err(|e| err!("{}: question [{i}]{e}", self.what))
                    .and_then(|q| (self.f)(i, q));
                if let Err(e) = done {
                    *self.failed = Some(e);
                    return Err(A::Error::custom("stopped"));
                }
                i += 1;
            }
            Ok(i)
        }
    }
    let mut de = serde_json::Deserializer::from_reader(reader);
    let read = de
        .deserialize_seq(Questions {
            f: &mut f,
            what: &what,
            failed: &mut failed,
            count: &count,
        })
        .and_then(|n| de.end().map(|()| n));
    match (read, failed) {
        (_, Some(e)) => Err(e),
        (Err(e), None) => Err(err!("{what}: {e}")),
        (Ok(0), None) => Err(err!("{what} holds no questions")),
        (Ok(n), None) => Ok(n),
    }
}

/// The file, read with a limit on one question ([`input::BENCHMARK_QUESTION`]): the
/// count starts again at each question, so that a question that never ends (a pipe, a
/// broken file) costs bounded memory and ends in one error line.
struct PerQuestion<R> {
    inner: R,
    count: std::rc::Rc<Count>,
    limit: u64,
}

/// The bytes read since the last question began, and whether they went over the limit.
#[derive(Default)]
struct Count {
    bytes: std::cell::Cell<u64>,
    over: std::cell::Cell<bool>,
}

impl<R: std::io::Read> std::io::Read for PerQuestion<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let read = self.count.bytes.get() + n as u64;
        self.count.bytes.set(read);
        if read > self.limit {
            self.count.over.set(true);
            return Err(std::io::Error::other("over the limit of one question"));
        }
        Ok(n)
    }
}

/// The limit on one question; with the `test-hooks` feature,
/// `RECALL_TEST_QUESTION_LIMIT=N` bytes, for the test of it.
fn question_limit() -> u64 {
    #[cfg(feature = "test-hooks")]
    if let Some(n) = std::env::var("RECALL_TEST_QUESTION_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        return n;
    }
    input::BENCHMARK_QUESTION
}

/// One question, or what is wrong with it (after its index: its id, then the field).
fn question(q: &Value) -> std::result::Result<Question, String> {
    let obj = q
        .as_object()
        .ok_or(": a question is an object with question_id, question, haystack_sessions…")?;
    let id = obj
        .get("question_id")
        .and_then(Value::as_str)
        .ok_or(": question_id is missing or not text")?
        .to_string();
    let at = |e: String| format!(" ({id:?}): {e}");
    let text = |field: &str| -> std::result::Result<String, String> {
        obj.get(field)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| at(format!("{field} is missing or not text")))
    };
    let texts = |field: &str| -> std::result::Result<Vec<String>, String> {
        let list = obj
            .get(field)
            .and_then(Value::as_array)
            .ok_or_else(|| at(format!("{field} is missing or not a list")))?;
        list.iter()
            .enumerate()
            .map(|(j, v)| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| at(format!("{field}[{j}] is not text")))
            })
            .collect()
    };
    let kind = text("question_type")?;
    let question = text("question")?;
    let asked = text("question_date")?;
    let date_of = |field: &str, v: &str| {
        date(v).ok_or_else(|| {
            at(format!(
                "{field} {v:?} is not a date like \"2023/05/20 (Sat) 02:21\""
            ))
        })
    };
    let asked = date_of("question_date", &asked)?;
    let ids = texts("haystack_session_ids")?;
    let dates = texts("haystack_dates")?;
    let evidence = texts("answer_session_ids")?;
    let haystack = obj
        .get("haystack_sessions")
        .and_then(Value::as_array)
        .ok_or_else(|| at("haystack_sessions is missing or not a list".into()))?;
    if ids.len() != haystack.len() || dates.len() != haystack.len() {
        return Err(at(format!(
            "haystack_session_ids ({}), haystack_dates ({}) and haystack_sessions ({}) must be as long as each other: one id and one date per session",
            ids.len(),
            dates.len(),
            haystack.len()
        )));
    }
    let mut sessions = Vec::new();
    for (j, ((sid, day), turns)) in ids.iter().zip(&dates).zip(haystack).enumerate() {
        let turns = turns
            .as_array()
            .ok_or_else(|| at(format!("haystack_sessions[{j}] is not a list of turns")))?;
        let turns = turns
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let field = |name: &str| t.get(name).and_then(Value::as_str);
                match (field("role"), field("content")) {
                    (Some(role), Some(content)) => Ok((role.to_string(), content.to_string())),
                    _ => Err(at(format!(
                        "haystack_sessions[{j}][{k}]: each turn is {{\"role\": \"user\" or \"assistant\", \"content\": TEXT}}"
                    ))),
                }
            })
            .collect::<std::result::Result<Vec<_>, String>>()?;
        sessions.push(Session {
            id: sid.clone(),
            date: date_of(&format!("haystack_dates[{j}]"), day)?,
            turns,
        });
    }
    Ok(Question {
        id,
        kind,
        question,
        date: asked,
        sessions,
        evidence,
    })
}

/// A turn's text in pieces of at most [`PIECE`] characters, each cut after the last
/// space within it when there is one.
pub fn pieces(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest: Vec<char> = text.trim().chars().collect();
    while rest.len() > PIECE {
        let cut = rest[..PIECE]
            .iter()
            .rposition(|c| c.is_whitespace())
            .filter(|p| *p > 0)
            .map_or(PIECE, |p| p + 1);
        let piece: String = rest[..cut].iter().collect();
        out.push(piece.trim().to_string());
        rest.drain(..cut);
    }
    let last: String = rest.iter().collect();
    if !last.trim().is_empty() {
        out.push(last.trim().to_string());
    }
    out
}

/// The question's items, ids from 1, and the session (its index) of each.
pub fn items(q: &Question) -> Result<(Vec<Item>, Vec<usize>)> {
    let mut items = Vec::new();
    let mut session_of = Vec::new();
    for (s, session) in q.sessions.iter().enumerate() {
        let base = recall_core::time::parse_datetime(&session.date)
            .ok_or_else(|| err!("question {}: bad time {}", q.id, session.date))?;
        let mut second = 0;
        for (role, text) in &session.turns {
            for piece in pieces(text) {
                let at = base + chrono::Duration::seconds(second);
                second += 1;
                items.push(Item {
                    id: Some(items.len() as i64 + 1),
                    source: "longmemeval".into(),
                    project: None,
                    title: piece,
                    summary: format!("{role} said"),
                    questions: String::new(),
                    atoms: String::new(),
                    occurred_at: recall_core::time::normalize(&at),
                    transcript: None,
                    embedding: None,
                });
                session_of.push(s);
            }
        }
    }
    Ok((items, session_of))
}

/// A folder of its own for the libraries of one run, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Scratch> {
        let dir = std::env::temp_dir().join(format!("recall-longmemeval-{}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| err!("cannot make the folder {}: {e}", dir.display()))?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Every question under every column, the file read twice: checked whole first, so that
/// a malformed question stops nothing half done. Per column, each question's session
/// outcome, in the file's order.
pub fn run(g: &Globals, path: &Path, variants: &[Variant]) -> Result<Vec<Vec<SessionOutcome>>> {
    each(path, |_, _| Ok(()))?;
    let scratch = Scratch::new()?;
    let mut columns: Vec<Vec<SessionOutcome>> = variants.iter().map(|_| Vec::new()).collect();
    each(path, |n, q| {
        let dir = scratch.0.join(format!("q{n}"));
        std::fs::create_dir_all(&dir)
            .map_err(|e| err!("cannot make the folder {}: {e}", dir.display()))?;
        let asked = ask(g, &dir.join("library.db"), &q, variants);
        let _ = std::fs::remove_dir_all(&dir);
        for (outcome, column) in asked?.into_iter().zip(columns.iter_mut()) {
            column.push(outcome);
        }
        Ok(())
    })?;
    Ok(columns)
}

/// One question: its haystack made a library at `path`, its question asked under each
/// column.
fn ask(
    g: &Globals,
    path: &Path,
    q: &Question,
    variants: &[Variant],
) -> Result<Vec<SessionOutcome>> {
    let lib = library::create(path, tokenizer::DEFAULT)?;
    let (items, session_of) = items(q)?;
    let tx = crate::library::turn::immediate(&lib.conn).context("starting the import")?;
    super::locomo::store(&tx, &items)?;
    tx.commit().context("committing the import")?;
    let case: Case = serde_json::from_value(json!({
        "id": q.id, "query": q.question, "now": q.date, "expect": [],
    }))
    .map_err(|e| err!("question {}: {e}", q.id))?;
    let of = |id: i64| {
        let index = usize::try_from(id - 1).ok()?;
        let s = *session_of.get(index)?;
        Some(q.sessions[s].id.as_str())
    };
    variants
        .iter()
        .map(|v| {
            let (ids, _) = answer(g, &lib, &case, &v.ranking)?;
            Ok(SessionOutcome {
                id: q.id.clone(),
                tags: q.tags(),
                ranked: sessions::rank(&ids, of),
                evidence: q.evidence.clone(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_of_the_file() {
        assert_eq!(
            date("2023/05/20 (Sat) 02:21").as_deref(),
            Some("2023-05-20T02:21:00Z")
        );
        assert_eq!(
            date("2023-05-20T02:21:00Z").as_deref(),
            Some("2023-05-20T02:21:00Z")
        );
        // The day's name is not checked against the date.
        assert_eq!(
            date("2023/05/02 (Mon) 10:00").as_deref(),
            Some("2023-05-02T10:00:00Z")
        );
        assert_eq!(date("2023/05/20 (Sat)"), None);
        assert_eq!(date("last Tuesday"), None);
    }

    #[test]
    fn long_turns_are_cut_at_a_space() {
        let word = "abcdefghi ";
        let text = word.repeat(250); // 2,500 characters
        let p = pieces(&text);
        assert_eq!(p.len(), 3);
        assert!(p.iter().all(|x| x.chars().count() <= PIECE));
        assert_eq!(p.join(" "), text.trim());
        // No space at all: cut at the bound.
        let solid = "x".repeat(PIECE + 5);
        assert_eq!(
            pieces(&solid).iter().map(String::len).collect::<Vec<_>>(),
            vec![PIECE, 5]
        );
        assert_eq!(pieces("  short  "), vec!["short"]);
        assert!(pieces("   ").is_empty());
    }
}
