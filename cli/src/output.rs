//! Printing: JSON for machines, short text for people. Text never carries a control
//! character to the terminal (see `text`); JSON is exact. A closed pipe
//! (`recall … | head`) ends the program quietly, as ripgrep does, instead of panicking.
use std::io::Write;

use serde::Serialize;

fn write_out(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{text}") {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("recall: cannot write the output: {e}");
        std::process::exit(crate::error::EXIT_ERROR);
    }
}

/// Prints text for people on stdout. Line breaks and tabs stay; any other control
/// character is escaped. Fields of one-line listings go through `text::field` first.
pub fn line(text: &str) {
    write_out(&crate::text::block(text));
}

/// Prints `value` as one JSON document, exactly.
pub fn json<T: Serialize>(value: &T) {
    match serde_json::to_string_pretty(value) {
        Ok(text) => write_out(&text),
        Err(e) => eprintln!("recall: cannot print JSON: {e}"),
    }
}

/// `println!` through [`line`].
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => { $crate::output::line(&format!($($arg)*)) };
}
