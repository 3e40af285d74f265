//! The optional summariser (docs/capture.md#a-summariser): a command speaking JSON Lines,
//! as the judge and the embedder do, that reads a segment's redacted text and answers
//! its title, summary, questions and atoms. Whatever it fails to give, the literal item
//! keeps.
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{json, Value};

use crate::line_process::{Event, Process, CANCELLED, SUMMARIZER};

/// What the summariser answered for one segment; a field it left out is None.
#[derive(Debug, Default, PartialEq)]
pub struct Summary {
    pub title: Option<String>,
    pub summary: Option<String>,
    pub questions: Option<Vec<String>>,
    pub atoms: Option<Vec<String>>,
    /// Its kind of memory (`item::KINDS`, and the configuration's), checked by the run.
    pub kind: Option<String>,
}

/// What one segment is sent with.
pub struct Request<'a> {
    pub agent: &'a str,
    pub session: &'a str,
    pub segment: u32,
    pub project: Option<&'a str>,
    /// The segment's transcript, redacted.
    pub text: &'a str,
}

#[derive(Deserialize)]
struct Answer {
    id: u64,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    title: Option<Value>,
    #[serde(default)]
    summary: Option<Value>,
    #[serde(default)]
    questions: Option<Value>,
    #[serde(default)]
    atoms: Option<Value>,
    #[serde(default)]
    kind: Option<Value>,
}

pub struct Summarizer {
    process: Process,
    timeout: Duration,
}

/// The longest answer line: the indexed fields of an item, and room around them.
const ANSWER_LINE: u64 = 4 * 1024 * 1024;

impl Summarizer {
    /// The summariser kept from the last segment, or a new one.
    pub fn start(command: &str, timeout_ms: i64) -> Result<Summarizer, String> {
        let process = SUMMARIZER.take(command)?;
        process.expect_lines_of(ANSWER_LINE);
        Ok(Summarizer {
            process,
            timeout: Duration::from_millis(u64::try_from(timeout_ms).unwrap_or(1)),
        })
    }

    /// The summariser's answer for one segment, within the timeout. On an error the
    /// summariser is dropped (killed): the next segment starts another.
    pub fn summarize(mut self, request: &Request) -> Result<Summary, String> {
        let id = self.process.next_request_id();
        self.process.send(
            json!({
                "id": id,
                "agent": request.agent,
                "session": request.session,
                "segment": request.segment,
                "project": request.project,
                "text": request.text,
            })
            .to_string(),
        )?;
        let deadline = Instant::now() + self.timeout;
        let line = loop {
            match self.process.next(deadline) {
                None => {
                    return Err(format!(
                        "the summariser gave no answer within {} ms (capture.summarize_timeout_ms)",
                        self.timeout.as_millis()
                    ))
                }
                Some(Event::Closed) => return Err(self.process.ended()),
                Some(Event::Cancelled) => return Err(CANCELLED.to_string()),
                Some(Event::Line(l)) if l.trim().is_empty() => continue,
                Some(Event::Line(l)) => break l,
            }
        };
        let summary = parse(&line, id)?;
        SUMMARIZER.give_back(self.process);
        Ok(summary)
    }
}

/// One answer line, checked: the request's id, and each field given a text (questions
/// and atoms: a text or a list of texts).
pub fn parse(line: &str, id: u64) -> Result<Summary, String> {
    let bad = |why: &str| {
        format!(
            "the summariser's answer {:?} {why}",
            crate::line_process::shown(line)
        )
    };
    let a: Answer = serde_json::from_str(line).map_err(|e| {
        bad(&format!(
            "is not {{\"id\", \"title\", \"summary\", …}} JSON ({e})"
        ))
    })?;
    if a.id != id {
        return Err(bad(&format!("answers request {}, not {id}", a.id)));
    }
    if let Some(e) = a.error {
        return Err(format!("the summariser failed: {}", crate::text::field(&e)));
    }
    let text = |name: &str, v: Option<Value>| match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(bad(&format!("gives {name} that is not a text"))),
    };
    let list = |name: &str, v: Option<Value>| match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(
            s.lines()
                .map(str::to_string)
                .filter(|l| !l.trim().is_empty())
                .collect(),
        )),
        Some(Value::Array(items)) => items
            .into_iter()
            .map(|i| match i {
                Value::String(s) => Ok(s),
                _ => Err(bad(&format!("gives {name} that are not texts"))),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(_) => Err(bad(&format!("gives {name} that are not a list of texts"))),
    };
    let summary = Summary {
        title: text("a title", a.title)?,
        summary: text("a summary", a.summary)?,
        questions: list("questions", a.questions)?,
        atoms: list("atoms", a.atoms)?,
        kind: text("a kind", a.kind)?,
    };
    if summary == Summary::default() {
        return Err(bad(
            "gives none of title, summary, questions, atoms and kind",
        ));
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_read_and_refused() {
        let s = parse(
            r#"{"id":3,"title":"Fix the build","questions":["why?","how?"],"atoms":"a\nb","x":1}"#,
            3,
        )
        .unwrap();
        assert_eq!(s.title.as_deref(), Some("Fix the build"));
        assert_eq!(s.summary, None);
        assert_eq!(s.questions, Some(vec!["why?".into(), "how?".into()]));
        assert_eq!(s.atoms, Some(vec!["a".into(), "b".into()]));
        for (line, says) in [
            (r#"{"id":2,"title":"t"}"#, "answers request 2, not 3"),
            (r#"{"id":3}"#, "gives none of"),
            (r#"{"id":3,"kind":["note"]}"#, "a kind that is not a text"),
            (r#"{"id":3,"title":7}"#, "a title that is not a text"),
            (r#"{"id":3,"atoms":[1]}"#, "atoms that are not texts"),
            (
                r#"{"id":3,"error":"no model"}"#,
                "the summariser failed: no model",
            ),
            ("garbage", "is not {"),
        ] {
            let e = parse(line, 3).unwrap_err();
            assert!(e.contains(says), "{line}: {e}");
        }
    }
}
