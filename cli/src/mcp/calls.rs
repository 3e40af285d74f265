//! The log of `recall mcp --http`: one line on standard error per tool call (the time,
//! the token's name, the tool, how long it took, the outcome) and per refused request.
//! A call's arguments, which hold what a client searched for, and its error message
//! (which may quote them) are written only with `--log-arguments`.
use std::time::Duration;

use serde_json::{Map, Value as Json};

pub enum Outcome {
    Ok,
    /// A tool error, with its message.
    Error(String),
    /// The client went away, or cancelled, before the answer.
    Cancelled,
}

/// The line of one call.
pub fn log(
    token: &str,
    tool: &str,
    took: Duration,
    outcome: &Outcome,
    arguments: Option<Option<Map<String, Json>>>,
) {
    eprintln!("{}", line(&now(), token, tool, took, outcome, arguments));
}

/// The line of a request refused before any call (401, 403, 413).
pub fn refused(status: u16, peer: &std::net::SocketAddr, reason: &str) {
    eprintln!(
        "recall mcp: {} refused {status} from {peer}: {reason}",
        now()
    );
}

/// The line of a connection the server closed mid-answer.
pub fn closed(peer: &std::net::SocketAddr, reason: &str) {
    eprintln!(
        "recall mcp: {} closed the connection of {peer}: {reason}",
        now()
    );
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

fn line(
    at: &str,
    token: &str,
    tool: &str,
    took: Duration,
    outcome: &Outcome,
    arguments: Option<Option<Map<String, Json>>>,
) -> String {
    let full = arguments.is_some();
    let outcome = match outcome {
        Outcome::Ok => "ok".to_string(),
        Outcome::Cancelled => "cancelled".to_string(),
        Outcome::Error(message) if full => format!("error: {}", message.replace('\n', " ")),
        Outcome::Error(_) => "error".to_string(),
    };
    let mut line = format!(
        "recall mcp: {at} token={token} tool={tool} ms={} {outcome}",
        took.as_millis()
    );
    if let Some(arguments) = arguments {
        let arguments = Json::Object(arguments.unwrap_or_default());
        line.push_str(&format!(" arguments={arguments}"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_holds_the_arguments_and_message_only_when_asked() {
        let mut args = Map::new();
        args.insert("query".into(), Json::from("secret plans"));
        let took = Duration::from_millis(12);
        let error = Outcome::Error("no item 7 in\nlib.db".into());
        let plain = line("T", "ci", "get", took, &error, None);
        assert_eq!(plain, "recall mcp: T token=ci tool=get ms=12 error");
        let full = line("T", "ci", "search", took, &error, Some(Some(args)));
        assert_eq!(
            full,
            "recall mcp: T token=ci tool=search ms=12 error: no item 7 in lib.db arguments={\"query\":\"secret plans\"}"
        );
        assert_eq!(
            line("T", "me", "search", took, &Outcome::Cancelled, None),
            "recall mcp: T token=me tool=search ms=12 cancelled"
        );
    }
}
