//! Printing: JSON for machines, short text for people. A closed pipe (`recall … | head`)
//! ends the program quietly, as ripgrep does, instead of panicking.
use std::io::Write;

use serde::Serialize;

/// Prints one line on stdout.
pub fn line(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{text}") {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("recall: cannot write the output: {e}");
        std::process::exit(crate::error::EXIT_ERROR);
    }
}

/// Prints `value` as one JSON document.
pub fn json<T: Serialize>(value: &T) {
    match serde_json::to_string_pretty(value) {
        Ok(text) => line(&text),
        Err(e) => eprintln!("recall: cannot print JSON: {e}"),
    }
}

/// `println!` through [`line`].
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => { $crate::output::line(&format!($($arg)*)) };
}
