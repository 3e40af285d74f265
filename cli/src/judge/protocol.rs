//! The judge's protocol: JSON Lines on its standard input and output (docs/judge.md).
//! One request per line, each with an id of its own; the judge answers each with one line
//! carrying the same id, in any order. Anything else on a line is a broken judge.
use serde::Serialize;
use serde_json::Value as Json;

/// One request: the question and the item to rate.
#[derive(Debug, Serialize)]
pub struct Request<'a> {
    pub id: u64,
    pub question: &'a str,
    pub item: &'a Item,
}

/// What the judge sees of an item.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Item {
    pub id: i64,
    pub title: String,
    pub summary: String,
    pub questions: String,
    pub atoms: String,
    pub project: Option<String>,
    pub date: String,
}

/// One answer: the id of a request and the probability that the item helps answer the
/// question.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Answer {
    pub id: u64,
    pub probability: f64,
}

/// An answer line, or why it is not one.
pub fn parse(line: &str) -> Result<Answer, String> {
    let shown = || format!("{:?}", crate::line_process::shown(line));
    let value: Json = serde_json::from_str(line)
        .map_err(|_| format!("the judge printed {}, which is not a JSON object", shown()))?;
    let Json::Object(object) = value else {
        return Err(format!(
            "the judge printed {}, which is not a JSON object",
            shown()
        ));
    };
    let id = object
        .get("id")
        .and_then(Json::as_u64)
        .ok_or_else(|| format!("the judge's answer {} has no request id", shown()))?;
    let probability = object
        .get("probability")
        .and_then(Json::as_f64)
        .ok_or_else(|| format!("the judge's answer {} has no probability", shown()))?;
    if !(0.0..=1.0).contains(&probability) {
        return Err(format!(
            "the judge rated request {id} {probability}, outside 0 to 1"
        ));
    }
    Ok(Answer { id, probability })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_and_refusals() {
        assert_eq!(
            parse(r#"{"id": 3, "probability": 0.25, "why": "ignored"}"#),
            Ok(Answer {
                id: 3,
                probability: 0.25
            })
        );
        assert_eq!(
            parse(r#"{"id": 0, "probability": 1}"#).map(|a| a.probability),
            Ok(1.0)
        );
        assert!(parse("hello").unwrap_err().contains("not a JSON object"));
        assert!(parse("[1]").unwrap_err().contains("not a JSON object"));
        assert!(parse(r#"{"probability": 0.5}"#)
            .unwrap_err()
            .contains("no request id"));
        assert!(parse(r#"{"id": -1, "probability": 0.5}"#)
            .unwrap_err()
            .contains("no request id"));
        assert!(parse(r#"{"id": 1, "probability": "high"}"#)
            .unwrap_err()
            .contains("no probability"));
        assert_eq!(
            parse(r#"{"id": 1, "probability": 1.5}"#).unwrap_err(),
            "the judge rated request 1 1.5, outside 0 to 1"
        );
        assert!(parse(r#"{"id": 1, "probability": -0.01}"#).is_err());
        let long = "x".repeat(500);
        assert!(parse(&long).unwrap_err().len() < 200);
    }
}
