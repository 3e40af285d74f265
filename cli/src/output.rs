//! Printing: JSON for machines, short text for people.
use serde::Serialize;

/// Prints `value` as one JSON document.
pub fn json<T: Serialize>(value: &T) {
    match serde_json::to_string_pretty(value) {
        Ok(text) => println!("{text}"),
        Err(e) => eprintln!("recall: cannot print JSON: {e}"),
    }
}
