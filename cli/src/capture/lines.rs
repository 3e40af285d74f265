//! A session file's lines as JSON values, read tolerantly: a line too long, not JSON or
//! not UTF-8 is counted and left out, never fatal, and a last line cut short (a session
//! still being written) is left out.
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use serde_json::Value;

/// The longest line read: a record longer than this is skipped (without holding it),
/// so that a gigabyte on one line costs no memory.
pub const MAX_LINE: usize = 64 * 1024 * 1024;

pub struct Lines {
    /// Each JSON object with its line number.
    pub values: Vec<(u64, Value)>,
    pub skipped: BTreeMap<String, u64>,
}

pub fn read(path: &Path) -> Result<Lines, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if file.metadata().map(|m| !m.is_file()).unwrap_or(true) {
        return Err(format!("{}: not a regular file", path.display()));
    }
    read_from(file, MAX_LINE).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn read_from(input: impl Read, max_line: usize) -> std::io::Result<Lines> {
    let mut reader = BufReader::new(input);
    let mut out = Lines {
        values: Vec::new(),
        skipped: BTreeMap::new(),
    };
    let mut n = 0u64;
    loop {
        let (line, complete, too_long) = next_line(&mut reader, max_line)?;
        if line.is_empty() && !complete && !too_long {
            break;
        }
        n += 1;
        let mut skip = |kind: &str| *out.skipped.entry(kind.to_string()).or_default() += 1;
        if too_long {
            skip("line too long");
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        if std::str::from_utf8(&line).is_err() {
            skip("bytes not UTF-8 (replaced)");
        }
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(v @ Value::Object(_)) => out.values.push((n, v)),
            Ok(_) => skip("line not an object"),
            Err(_) if !complete => skip("last line cut short"),
            Err(_) => skip("line not JSON"),
        }
    }
    Ok(out)
}

/// The next line without its newline, whether it ended with one, and whether it was
/// longer than `max` (then its bytes are dropped).
fn next_line(reader: &mut impl BufRead, max: usize) -> std::io::Result<(Vec<u8>, bool, bool)> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok((line, false, too_long));
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !too_long && line.len() + chunk.len() > max {
            too_long = true;
            line = Vec::new();
        }
        if !too_long {
            line.extend_from_slice(chunk);
        }
        let used = done.unwrap_or(buf.len());
        reader.consume(used);
        if done.is_some() {
            return Ok((line, true, too_long));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerant_lines() {
        let input = b"{\"a\":1}\nnot json\n[1]\n\n{\"b\":\"\xff\"}\n{\"long\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}\n{\"c\":";
        let lines = read_from(&input[..], 24).unwrap();
        let numbers: Vec<u64> = lines.values.iter().map(|(n, _)| *n).collect();
        assert_eq!(numbers, vec![1, 5]);
        assert_eq!(lines.values[1].1["b"], "\u{fffd}");
        let expected: BTreeMap<String, u64> = [
            ("bytes not UTF-8 (replaced)", 1),
            ("last line cut short", 1),
            ("line not JSON", 1),
            ("line not an object", 1),
            ("line too long", 1),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), *v))
        .collect();
        assert_eq!(lines.skipped, expected);
    }
}
