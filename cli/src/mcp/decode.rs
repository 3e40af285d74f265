//! One line of standard input as a JSON-RPC message, or the error that answers it. rmcp
//! drops a line it cannot decode and its client waits forever; here every request gets
//! an answer: -32700 for text that is not JSON (or not UTF-8), -32600 for JSON that is
//! not a request, -32602 for a known method whose parameters do not fit, each with the
//! request's id when one can be read from the line (null otherwise).
use rmcp::model::{ClientRequest, JsonRpcMessage};
use rmcp::service::RxJsonRpcMessage;
use rmcp::RoleServer;
use serde_json::{json, Map, Value as Json};

use crate::serve::limits::MAX_LINE;

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
const INVALID_PARAMS: i64 = -32602;

pub enum Decoded {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// The error line that answers it.
    Answer(String),
    /// Nothing to answer: a blank line, or a notification or response that is not one.
    Nothing,
}

/// A line longer than `MAX_LINE`; `start` is what was kept of it (`MAX_LINE + 1` bytes).
pub fn too_long(start: &[u8]) -> String {
    answer(
        recover_id(start),
        INVALID_REQUEST,
        format!(
            "the message is longer than the {MAX_LINE} bytes ({} MiB) a line may hold: send \
             a smaller one (an item's transcript, for one)",
            MAX_LINE >> 20
        ),
    )
}

/// Decodes one line (without its line break).
pub fn line(bytes: &[u8]) -> Decoded {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Decoded::Nothing;
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            return Decoded::Answer(answer(
                recover_id(bytes),
                PARSE_ERROR,
                format!(
                    "parse error: the message is not UTF-8 (an invalid byte at offset {}): \
                     send JSON as UTF-8 text",
                    e.valid_up_to()
                ),
            ))
        }
    };
    let value: Json = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            let why = if has_lone_surrogate(text) {
                format!(
                    "a string holds half of a UTF-16 surrogate pair, a \\uD800 to \\uDFFF \
                     escape without its other half (as a string cut inside an emoji does), \
                     at line {} column {}: send whole characters",
                    e.line(),
                    e.column()
                )
            } else {
                format!("{e}: send one JSON-RPC message per line")
            };
            return Decoded::Answer(answer(
                recover_id(bytes),
                PARSE_ERROR,
                format!("parse error: {why}"),
            ));
        }
    };
    message(value)
}

fn message(value: Json) -> Decoded {
    let object = match value {
        Json::Object(object) => object,
        Json::Array(_) => {
            return Decoded::Answer(answer(
                Json::Null,
                INVALID_REQUEST,
                "invalid request: batches are not supported: send one message per line".into(),
            ))
        }
        other => {
            return Decoded::Answer(answer(
                Json::Null,
                INVALID_REQUEST,
                format!("invalid request: a message is a JSON object, got {other}"),
            ))
        }
    };
    let request = object.contains_key("method") && object.contains_key("id");
    let id = match object.get("id") {
        None => Json::Null,
        Some(id @ Json::String(_)) => id.clone(),
        Some(Json::Number(n)) if n.is_i64() || n.is_u64() => Json::Number(n.clone()),
        Some(other) => {
            return Decoded::Answer(answer(
                Json::Null,
                INVALID_REQUEST,
                format!("invalid request: id must be a string or an integer, got {other}"),
            ))
        }
    };
    let invalid = |why: String| {
        if request || !object.contains_key("method") && object.contains_key("id") {
            Decoded::Answer(answer(id.clone(), INVALID_REQUEST, why))
        } else {
            // A notification is never answered, even with an error.
            Decoded::Nothing
        }
    };
    if object.get("jsonrpc").and_then(Json::as_str) != Some("2.0") {
        return invalid("invalid request: jsonrpc must be \"2.0\"".into());
    }
    if let Some(method) = object.get("method") {
        if !method.is_string() {
            return invalid(format!(
                "invalid request: method must be a string, got {method}"
            ));
        }
    }
    if request {
        if let Some(why) = params_problem(&object) {
            return Decoded::Answer(answer(id, INVALID_PARAMS, why));
        }
    }
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(Json::Object(object.clone())) {
        Ok(JsonRpcMessage::Request(r)) if matches!(r.request, ClientRequest::CustomRequest(_)) => {
            let method = object.get("method").and_then(Json::as_str).unwrap_or("");
            if KNOWN.contains(&method) {
                // rmcp takes a known method whose parameters it could not read for an
                // unknown one.
                Decoded::Answer(answer(
                    id,
                    INVALID_PARAMS,
                    format!("invalid params: {method} cannot read its params"),
                ))
            } else {
                Decoded::Message(Box::new(JsonRpcMessage::Request(r)))
            }
        }
        Ok(message) => Decoded::Message(Box::new(message)),
        Err(e) => invalid(format!("invalid request: {e}")),
    }
}

/// The methods this server answers.
const KNOWN: [&str; 4] = ["initialize", "ping", "tools/list", "tools/call"];

/// What is wrong with a request's params, for the methods whose params a client fills in.
fn params_problem(object: &Map<String, Json>) -> Option<String> {
    let method = object.get("method").and_then(Json::as_str)?;
    let params = object.get("params");
    match method {
        "tools/call" => {
            let Some(Json::Object(params)) = params else {
                return Some(format!(
                    "invalid params: tools/call needs params {{\"name\", \"arguments\"}}, got {}",
                    shown(params)
                ));
            };
            match params.get("name") {
                Some(Json::String(_)) => {}
                other => {
                    return Some(format!(
                    "invalid params: tools/call's name must be the tool's name, a string, got {}",
                    shown(other)
                ))
                }
            }
            match params.get("arguments") {
                None | Some(Json::Null) | Some(Json::Object(_)) => None,
                other => Some(format!(
                    "invalid params: tools/call's arguments must be an object of the tool's \
                     arguments by name, got {}",
                    shown(other)
                )),
            }
        }
        "initialize" => {
            let typed = serde_json::from_value::<rmcp::model::InitializeRequest>(Json::Object(
                object.clone(),
            ));
            typed
                .err()
                .map(|e| format!("invalid params: initialize: {e}"))
        }
        _ => None,
    }
}

/// Whether a string of the text holds a `\u` escape of half a UTF-16 surrogate pair
/// without its other half, which serde_json (rightly) will not make a Rust string of.
fn has_lone_surrogate(text: &str) -> bool {
    let bytes = text.as_bytes();
    let unit = |i: usize| {
        let hex = bytes.get(i + 2..i + 6)?;
        let hex = std::str::from_utf8(hex).ok()?;
        (bytes.get(i + 1) == Some(&b'u'))
            .then(|| u16::from_str_radix(hex, 16).ok())
            .flatten()
    };
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        match unit(i) {
            Some(0xD800..=0xDBFF) => {
                let pair = bytes.get(i + 6) == Some(&b'\\')
                    && matches!(unit(i + 6), Some(0xDC00..=0xDFFF));
                if !pair {
                    return true;
                }
                i += 12;
            }
            Some(0xDC00..=0xDFFF) => return true,
            Some(_) => i += 6,
            // Any other escape is two characters.
            None => i += 2,
        }
    }
    false
}

/// A JSON value in a message: its kind, and short ones whole.
fn shown(value: Option<&Json>) -> String {
    match value {
        None => "none".into(),
        Some(Json::String(s)) if s.len() <= 40 => format!("the string {s:?}"),
        Some(Json::String(_)) => "a string".into(),
        Some(Json::Array(_)) => "an array".into(),
        Some(Json::Object(_)) => "an object".into(),
        Some(other) => other.to_string(),
    }
}

pub fn answer(id: Json, code: i64, message: String) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}).to_string()
}

/// The `id` of the top-level object, read from the raw bytes of a message that did not
/// decode (cut short, not UTF-8, a lone surrogate elsewhere): an integer, or a string
/// that decodes; null otherwise.
pub fn recover_id(bytes: &[u8]) -> Json {
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b'"' => {
                let end = string_end(bytes, i);
                let key = &bytes[i + 1..end.saturating_sub(1).max(i + 1)];
                let after = skip_space(bytes, end);
                if depth == 1 && key == b"id" && bytes.get(after) == Some(&b':') {
                    return id_value(bytes, skip_space(bytes, after + 1));
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Json::Null
}

/// The index just past the string starting at `start` (a quote), or the end.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

fn id_value(bytes: &[u8], start: usize) -> Json {
    let end = match bytes.get(start) {
        Some(b'"') => string_end(bytes, start),
        Some(b'-' | b'0'..=b'9') => {
            let digits = bytes[start + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            start + 1 + digits
        }
        _ => return Json::Null,
    };
    // A number must end there: `7.5` or `7e3` is no id.
    if matches!(bytes.get(end), Some(b'.' | b'e' | b'E')) {
        return Json::Null;
    }
    match serde_json::from_slice::<Json>(&bytes[start..end]) {
        Ok(id @ Json::String(_)) => id,
        Ok(Json::Number(n)) if n.is_i64() || n.is_u64() => Json::Number(n),
        _ => Json::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(line: &[u8]) -> Json {
        match super::line(line) {
            Decoded::Answer(text) => serde_json::from_str(&text).unwrap(),
            Decoded::Message(m) => panic!("decoded: {m:?}"),
            Decoded::Nothing => panic!("no answer"),
        }
    }

    #[test]
    fn ids_are_recovered_from_what_does_not_decode() {
        for (bytes, id) in [
            (
                &br#"{"jsonrpc":"2.0","id":7,"method":"x","params":{"q":"\ud83d"}}"#[..],
                json!(7),
            ),
            (
                br#"{"params":{"id":3},"id" : "ab\"c","method":"#,
                json!("ab\"c"),
            ),
            (
                br#"{"jsonrpc":"2.0","method":"m","params":{"id":5}}"#,
                Json::Null,
            ),
            (b"{\"id\":-12,\"x\":\"\xff\"}", json!(-12)),
            (br#"{"id":1.5}"#, Json::Null),
            (br#"{"id":{"a":1}}"#, Json::Null),
            (br#"[{"id":4}]"#, Json::Null),
            (b"{\"id\":9", json!(9)),
            (b"", Json::Null),
        ] {
            assert_eq!(recover_id(bytes), id, "{}", String::from_utf8_lossy(bytes));
        }
    }

    #[test]
    fn each_kind_of_bad_line_has_its_code() {
        let surrogate = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search","arguments":{"query":"\ud83d"}}}"#;
        let e = error_of(surrogate);
        assert_eq!(
            (e["id"].clone(), e["error"]["code"].clone()),
            (json!(7), json!(-32700))
        );
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .contains("surrogate"),
            "{e}"
        );
        for (text, lone) in [
            (r#""\ud83d""#, true),
            (r#""\ud83dx""#, true),
            (r#""\ud83d\u0041""#, true),
            (r#""\ude00""#, true),
            (r#""\\ud83d""#, false),
            (r#""\ud83d\ude00""#, false),
            (r#""\u00e9\n""#, false),
        ] {
            assert_eq!(has_lone_surrogate(text), lone, "{text}");
            assert_eq!(
                serde_json::from_str::<String>(text).is_err(),
                lone,
                "{text}"
            );
        }
        let e = error_of(b"{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\",\"x\":\"\xc3\"}");
        assert_eq!(
            (e["id"].clone(), e["error"]["code"].clone()),
            (json!("a"), json!(-32700))
        );
        assert_eq!(error_of(b"[1, 2")["error"]["code"], -32700);
        assert_eq!(error_of(b"[1, 2]")["error"]["code"], -32600);
        assert_eq!(error_of(b"42")["error"]["code"], -32600);
        let e = error_of(br#"{"id":3,"method":"ping"}"#);
        assert_eq!(
            (e["id"].clone(), e["error"]["code"].clone()),
            (json!(3), json!(-32600))
        );
        let e = error_of(br#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#);
        assert_eq!(
            (e["id"].clone(), e["error"]["code"].clone()),
            (Json::Null, json!(-32600))
        );
        for params in [
            r#""x""#,
            r#"{"name":"get","arguments":"x"}"#,
            r#"{"name":5}"#,
            "[]",
        ] {
            let line =
                format!(r#"{{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{params}}}"#);
            let e = error_of(line.as_bytes());
            assert_eq!(
                (e["id"].clone(), e["error"]["code"].clone()),
                (json!(4), json!(-32602)),
                "{line}"
            );
        }
        let e = error_of(br#"{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"x":1}}"#);
        assert_eq!(
            (e["id"].clone(), e["error"]["code"].clone()),
            (json!(5), json!(-32602))
        );
        let e = super::too_long(br#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"#);
        let e: Json = serde_json::from_str(&e).unwrap();
        assert_eq!(
            (e["id"].clone(), e["error"]["code"].clone()),
            (json!(11), json!(-32600))
        );
        assert!(e["error"]["message"]
            .as_str()
            .unwrap()
            .contains(&MAX_LINE.to_string()));
    }

    #[test]
    fn good_lines_and_notifications_pass() {
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get","arguments":{"id":1}}}"#;
        assert!(matches!(line(call), Decoded::Message(_)));
        assert!(matches!(line(b"  \r"), Decoded::Nothing));
        let unknown = br#"{"jsonrpc":"2.0","id":2,"method":"no/such"}"#;
        assert!(matches!(line(unknown), Decoded::Message(_)));
        // A bad notification is never answered.
        assert!(matches!(
            line(br#"{"method":"notifications/x"}"#),
            Decoded::Nothing
        ));
    }
}
