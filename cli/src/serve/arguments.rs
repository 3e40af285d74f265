//! A call's arguments checked against the tool's input schema before anything reads them,
//! so that each mistake is one line naming the argument (serde's own messages do not):
//! unknown names, missing required ones, wrong JSON types, and text longer than the
//! server reads.
use serde_json::{Map, Value as Json};

use crate::error::{err, Result};
use crate::item::MAX_TITLE;

/// The longest query or prompt, in bytes of UTF-8: a question, not a document. The
/// command line reads longer ones from standard input; a server shared by agents stays
/// responsive instead.
pub const MAX_QUERY: usize = 64 * 1024;
/// The most entries of a list argument (forget's ids): more is a batch job, for the
/// command line.
pub const MAX_LIST: usize = 10_000;

/// The checked arguments, as one JSON object (none given is an empty one).
pub fn check(schema: &Map<String, Json>, arguments: Option<&Map<String, Json>>) -> Result<Json> {
    let empty = Map::new();
    let arguments = arguments.unwrap_or(&empty);
    let properties = schema
        .get("properties")
        .and_then(Json::as_object)
        .unwrap_or(&empty);
    let known = |name: &str| properties.contains_key(name);
    if let Some(name) = arguments.keys().find(|name| !known(name)) {
        let known: Vec<&str> = properties.keys().map(String::as_str).collect();
        return Err(err!(
            "unknown argument {name:?} (known: {})",
            known.join(", ")
        ));
    }
    let required = schema.get("required").and_then(Json::as_array);
    for name in required.into_iter().flatten().filter_map(Json::as_str) {
        if arguments.get(name).is_none_or(Json::is_null) {
            return Err(err!("{name} is missing"));
        }
    }
    let mut checked = arguments.clone();
    for (name, value) in checked.iter_mut() {
        if let Some(property) = properties.get(name) {
            check_value(name, property, value)?;
            integral(property, value);
        }
    }
    Ok(Json::Object(checked))
}

fn check_value(name: &str, property: &Json, value: &Json) -> Result<()> {
    let types: Vec<&str> = match property.get("type") {
        Some(Json::String(t)) => vec![t.as_str()],
        Some(Json::Array(ts)) => ts.iter().filter_map(Json::as_str).collect(),
        _ => return Ok(()),
    };
    if !types.iter().any(|t| is_of(t, value)) {
        let out_of_range = value.as_u64().map(|n| n.to_string()).or_else(|| {
            value
                .as_f64()
                .filter(|f| f.is_finite() && f.fract() == 0.0)
                .map(plain)
        });
        if let (true, Some(n)) = (types.contains(&"integer"), out_of_range) {
            return Err(err!(
                "{name} must be an integer from {} to {}, got {n}",
                i64::MIN,
                i64::MAX
            ));
        }
        let expected: Vec<&str> = types
            .iter()
            .filter(|t| **t != "null")
            .map(|t| article(t))
            .collect();
        return Err(err!(
            "{name} must be {}, got {}",
            expected.join(" or "),
            type_name(value)
        ));
    }
    if let Json::String(text) = value {
        let max = match name {
            "query" | "prompt" => MAX_QUERY,
            // No stored project, source or time is longer than a title may be.
            _ => MAX_TITLE,
        };
        if text.len() > max {
            return Err(err!(
                "{name} is {} bytes, more than the {max} allowed",
                text.len()
            ));
        }
    }
    if let (Json::Array(items), Some(item_schema)) = (value, property.get("items")) {
        if items.len() > MAX_LIST {
            return Err(err!(
                "{name} has {} entries, more than the {MAX_LIST} allowed: give them in batches",
                items.len()
            ));
        }
        for item in items {
            check_value(name, item_schema, item)?;
        }
    }
    Ok(())
}

/// JSON Schema's integer is any number without a fraction: 5.0 is 5, as a client's
/// encoder may write it. Such a number becomes the integer the command reads.
fn integral(property: &Json, value: &mut Json) {
    let integer = |p: &Json| match p.get("type") {
        Some(Json::String(t)) => t == "integer",
        Some(Json::Array(ts)) => ts.iter().any(|t| t == "integer"),
        _ => false,
    };
    if !integer(property) {
        if let (Json::Array(items), Some(item)) = (&mut *value, property.get("items")) {
            for v in items {
                integral(item, v);
            }
        }
        return;
    }
    if let Some(n) = whole(value) {
        *value = Json::from(n);
    }
}

/// The number as an i64 when it has no fraction and fits.
fn whole(value: &Json) -> Option<i64> {
    if let Some(n) = value.as_i64() {
        return Some(n);
    }
    let f = value.as_f64().filter(|_| !value.is_u64())?;
    // i64::MAX as f64 is 2^63, just out of range: the bound is exclusive.
    (f.fract() == 0.0 && f >= -(2f64.powi(63)) && f < 2f64.powi(63)).then_some(f as i64)
}

/// A whole number as a client writes it, in digits (2^64 is 18446744073709551616, which
/// a float holds exactly); past 21 digits in scientific notation, by the one rule of
/// numbers in messages (never 300 digits).
fn plain(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e21 {
        format!("{f:.0}")
    } else {
        recall_core::value::shown_real(f)
    }
}

fn is_of(json_type: &str, value: &Json) -> bool {
    match json_type {
        "string" => value.is_string(),
        "integer" => whole(value).is_some(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "null" => value.is_null(),
        _ => false,
    }
}

fn article(json_type: &str) -> &'static str {
    match json_type {
        "string" => "a string",
        "integer" => "an integer",
        "number" => "a number",
        "boolean" => "true or false",
        "array" => "an array",
        "object" => "an object",
        _ => "another type",
    }
}

fn type_name(value: &Json) -> String {
    match value {
        Json::Null => "null".to_string(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => match n.as_f64() {
            // serde_json writes a large float as 1.8446744073709552e19; the client wrote
            // digits.
            Some(f) if !n.is_i64() && !n.is_u64() && f.is_finite() && f.fract() == 0.0 => {
                format!("the number {}", plain(f))
            }
            _ => format!("the number {n}"),
        },
        Json::String(_) => "a string".to_string(),
        Json::Array(_) => "an array".to_string(),
        Json::Object(_) => "an object".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Map<String, Json> {
        let Json::Object(schema) = json!({
            "type": "object",
            "properties": {
                "query": { "type": "string" },
                "limit": { "type": ["integer", "null"] },
                "weight": { "type": ["number", "null"] },
                "explain": { "type": "boolean" },
                "project": { "type": ["string", "null"] },
                "ids": { "type": "array", "items": { "type": "integer" } },
            },
            "required": ["query"],
        }) else {
            unreachable!()
        };
        schema
    }

    fn checked(arguments: Json) -> std::result::Result<Json, String> {
        check(&schema(), arguments.as_object()).map_err(|e| e.message)
    }

    #[test]
    fn each_mistake_names_the_argument() {
        assert_eq!(checked(json!({})).unwrap_err(), "query is missing");
        assert_eq!(
            checked(json!({ "query": null })).unwrap_err(),
            "query is missing"
        );
        assert_eq!(
            checked(json!({ "query": 5 })).unwrap_err(),
            "query must be a string, got the number 5"
        );
        assert_eq!(
            checked(json!({ "query": "x", "limit": "5" })).unwrap_err(),
            "limit must be an integer, got a string"
        );
        assert_eq!(
            checked(json!({ "query": "x", "limit": 2.5 })).unwrap_err(),
            "limit must be an integer, got the number 2.5"
        );
        assert_eq!(
            checked(json!({ "query": "x", "limit": u64::MAX })).unwrap_err(),
            "limit must be an integer from -9223372036854775808 to 9223372036854775807, got 18446744073709551615"
        );
        assert_eq!(
            checked(json!({ "query": "x", "explain": "yes" })).unwrap_err(),
            "explain must be true or false, got a string"
        );
        assert_eq!(
            checked(json!({ "query": "x", "colour": 1 })).unwrap_err(),
            "unknown argument \"colour\" (known: explain, ids, limit, project, query, weight)"
        );
        let long = "a".repeat(MAX_QUERY + 1);
        assert_eq!(
            checked(json!({ "query": long })).unwrap_err(),
            format!(
                "query is {} bytes, more than the {MAX_QUERY} allowed",
                MAX_QUERY + 1
            )
        );
        assert_eq!(
            checked(json!({ "query": "x", "ids": [1, "2"] })).unwrap_err(),
            "ids must be an integer, got a string"
        );
        let ids = vec![1; MAX_LIST + 1];
        assert_eq!(
            checked(json!({ "query": "x", "ids": ids })).unwrap_err(),
            "ids has 10001 entries, more than the 10000 allowed: give them in batches"
        );
        let project = "p".repeat(MAX_TITLE + 1);
        assert!(checked(json!({ "query": "x", "project": project }))
            .unwrap_err()
            .starts_with("project is 4097 bytes"));
    }

    #[test]
    fn huge_numbers_are_shown_in_digits() {
        let range = "an integer from -9223372036854775808 to 9223372036854775807";
        // 2^64 and -2^64 as a JavaScript client sends them: floats.
        assert_eq!(
            checked(json!({ "query": "x", "limit": 18446744073709551616.0 })).unwrap_err(),
            format!("limit must be {range}, got 18446744073709551616")
        );
        assert_eq!(
            checked(json!({ "query": "x", "limit": -18446744073709551616.0 })).unwrap_err(),
            format!("limit must be {range}, got -18446744073709551616")
        );
        assert_eq!(
            checked(json!({ "query": "x", "explain": 18446744073709551616.0 })).unwrap_err(),
            "explain must be true or false, got the number 18446744073709551616"
        );
        // Past twenty characters, scientific notation rather than 301 digits.
        assert_eq!(
            checked(json!({ "query": "x", "limit": 1e300 })).unwrap_err(),
            format!("limit must be {range}, got 1e300")
        );
    }

    #[test]
    fn integral_floats_are_integers() {
        for (given, want) in [
            (json!(5.0), json!(5)),
            (json!(-3.0), json!(-3)),
            (json!(0.0), json!(0)),
            (json!(1e18), json!(1_000_000_000_000_000_000_i64)),
        ] {
            let got = checked(json!({ "query": "x", "limit": given, "ids": [given] }));
            assert_eq!(
                got.unwrap(),
                json!({ "query": "x", "limit": want, "ids": [want] })
            );
        }
        for bad in [json!(5.5), json!(1e19), json!(-1e19), json!(1e300)] {
            let got = checked(json!({ "query": "x", "limit": bad })).unwrap_err();
            assert!(got.starts_with("limit must be an integer"), "{got}");
        }
    }

    #[test]
    fn good_arguments_pass_whole() {
        let args = json!({ "query": "x", "limit": 3, "weight": 1, "project": null });
        assert_eq!(checked(args.clone()).unwrap(), args);
        assert_eq!(check(&Map::new(), None).unwrap(), json!({}));
    }
}
