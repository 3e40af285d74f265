//! The embedder: a process that turns texts into vectors, JSON Lines on its standard
//! input and output (docs/vectors.md). One request at a time, a batch of texts in each;
//! the answer names the model and gives one vector per text, in order.
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::json;

use crate::line_process::{self, Event, Process, CANCELLED, EMBEDDER};

/// What one request gave back.
#[derive(Debug, Clone, PartialEq)]
pub struct Embedded {
    pub model: String,
    pub vectors: Vec<Vec<f32>>,
}

/// Other fields an embedder adds (usage, timings) are ignored.
#[derive(Deserialize)]
struct Answer {
    id: u64,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    vectors: Option<Vec<Vec<f64>>>,
    #[serde(default)]
    error: Option<String>,
}

/// Why an embedding failed.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The embedder answered, but not with vectors for these texts: an error of its own
    /// (a text too long for its model, one with no words) or a vector with no direction.
    /// It can still embed other texts.
    Refused(String),
    /// No usable answer (garbage, the wrong request, too late, gone): not to be used
    /// again.
    Broken(String),
}

impl Failure {
    pub fn message(self) -> String {
        match self {
            Failure::Refused(m) | Failure::Broken(m) => m,
        }
    }
}

pub struct Embedder {
    process: Process,
    timeout: Duration,
}

impl Embedder {
    /// The kept embedder of this command, or a new one.
    pub fn start(command: &str, timeout_ms: i64) -> Result<Embedder, String> {
        Ok(Embedder {
            process: EMBEDDER.take(command)?,
            timeout: Duration::from_millis(u64::try_from(timeout_ms).unwrap_or(1)),
        })
    }

    /// The vectors of `texts`, within the timeout. After `Failure::Broken` the embedder
    /// is not to be used again: it is killed when dropped.
    pub fn embed(&mut self, texts: &[String]) -> Result<Embedded, Failure> {
        let id = self.process.next_request_id();
        // Each vector at most MAX_DIMENSIONS numbers, each at most 32 bytes as JSON
        // writes a float (`-1.2345678901234567e-308, `), around the texts' own envelope.
        self.process.expect_lines_of(
            (texts.len() as u64)
                .saturating_mul(super::store::MAX_DIMENSIONS as u64 * 32 + 64)
                .saturating_add(line_process::ANSWER_LINE),
        );
        self.process
            .send(json!({"id": id, "texts": texts}).to_string())
            .map_err(Failure::Broken)?;
        let deadline = Instant::now() + self.timeout;
        let line = loop {
            match self.process.next(deadline) {
                None => {
                    return Err(Failure::Broken(format!(
                        "the embedder gave no answer within {} ms (vectors.timeout_ms)",
                        self.timeout.as_millis()
                    )))
                }
                Some(Event::Closed) => return Err(Failure::Broken(self.process.ended())),
                Some(Event::Cancelled) => return Err(Failure::Broken(CANCELLED.to_string())),
                Some(Event::Line(l)) if l.trim().is_empty() => continue,
                Some(Event::Line(l)) => break l,
            }
        };
        parse(&line, id, texts.len())
    }

    /// Keeps a healthy embedder for the next search where embedders are kept.
    pub fn done(self) {
        EMBEDDER.give_back(self.process);
    }
}

/// One answer line, checked: the request's id, a model, one vector per text, all of one
/// length, every number finite.
pub fn parse(line: &str, id: u64, texts: usize) -> Result<Embedded, Failure> {
    use Failure::{Broken, Refused};
    let bad = |why: &str| {
        format!(
            "the embedder's answer {:?} {why}",
            line_process::shown(line)
        )
    };
    let a: Answer = serde_json::from_str(line).map_err(|e| {
        Broken(bad(&format!(
            "is not {{\"id\", \"model\", \"vectors\"}} JSON ({e})"
        )))
    })?;
    if a.id != id {
        return Err(Broken(bad(&format!("answers request {}, not {id}", a.id))));
    }
    if let Some(e) = a.error {
        return Err(Refused(format!(
            "the embedder failed: {}",
            crate::text::field(&e)
        )));
    }
    let model = a
        .model
        .filter(|m| !m.trim().is_empty())
        .ok_or_else(|| Broken(bad("names no model")))?;
    let vectors = a.vectors.ok_or_else(|| Broken(bad("has no vectors")))?;
    if vectors.len() != texts {
        return Err(Broken(bad(&format!(
            "has {} vectors for {texts} texts",
            vectors.len()
        ))));
    }
    let dims = vectors.first().map_or(0, Vec::len);
    if texts > 0 && dims == 0 {
        return Err(Broken(bad("has an empty vector")));
    }
    if dims > super::store::MAX_DIMENSIONS {
        return Err(Broken(format!(
            "the embedder gives vectors of {dims} numbers, more than the {} sqlite-vec stores: use a model of fewer dimensions",
            super::store::MAX_DIMENSIONS
        )));
    }
    let mut out = Vec::with_capacity(vectors.len());
    for v in vectors {
        if v.len() != dims {
            return Err(Broken(bad(&format!(
                "has vectors of {dims} and of {} numbers",
                v.len()
            ))));
        }
        // f32 is what vec0 stores; a number beyond it is not a coordinate.
        let v: Vec<f32> = v.into_iter().map(|x| x as f32).collect();
        if v.iter().any(|x| !x.is_finite()) {
            return Err(Refused(bad("has a number that is not finite in float32")));
        }
        if v.iter().all(|x| *x == 0.0) {
            return Err(Refused(bad(
                "has a vector of zeros, which has no direction",
            )));
        }
        out.push(v);
    }
    Ok(Embedded {
        model,
        vectors: out,
    })
}

/// A vector as sqlite-vec reads it: a JSON array of numbers.
pub fn to_json(v: &[f32]) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "[]".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_checked() {
        let ok = parse(r#"{"id":3,"model":"m","vectors":[[1,0],[0.5,2]]}"#, 3, 2);
        assert_eq!(
            ok,
            Ok(Embedded {
                model: "m".into(),
                vectors: vec![vec![1.0, 0.0], vec![0.5, 2.0]]
            })
        );
        for (line, why) in [
            (
                r#"{"id":2,"model":"m","vectors":[[1]]}"#,
                "answers request 2, not 3",
            ),
            (r#"{"id":3,"vectors":[[1]]}"#, "names no model"),
            (r#"{"id":3,"model":"m"}"#, "has no vectors"),
            (
                r#"{"id":3,"model":"m","vectors":[[1],[1]]}"#,
                "has 2 vectors for 1 texts",
            ),
            (
                r#"{"id":3,"model":"m","vectors":[[]]}"#,
                "has an empty vector",
            ),
            (
                r#"{"id":3,"model":"m","vectors":[[0,0]]}"#,
                "vector of zeros",
            ),
            (r#"{"id":3,"model":"m","vectors":[[1e300]]}"#, "not finite"),
            (
                r#"not json"#,
                "is not {\"id\", \"model\", \"vectors\"} JSON",
            ),
            (
                r#"{"id":3,"error":"out of memory"}"#,
                "the embedder failed: out of memory",
            ),
        ] {
            let got = parse(line, 3, 1).unwrap_err();
            // What the embedder answered for these texts, and no more.
            let refused = ["out of memory", "not finite", "vector of zeros"]
                .iter()
                .any(|w| why.contains(w));
            assert_eq!(
                matches!(got, Failure::Refused(_)),
                refused,
                "{line}: {got:?}"
            );
            let got = got.message();
            assert!(got.contains(why), "{line}: {got}");
        }
        let two = parse(r#"{"id":3,"model":"m","vectors":[[1,2],[1]]}"#, 3, 2)
            .unwrap_err()
            .message();
        assert!(two.contains("vectors of 2 and of 1 numbers"), "{two}");
    }
}
