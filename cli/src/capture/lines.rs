//! A session file's lines as JSON values, read tolerantly: a line too long or not JSON
//! is counted and left out, never fatal, and a last line cut short (a session still
//! being written) is left out. Bytes that are not UTF-8 and escapes of lone UTF-16
//! surrogates (what a writer leaves when it cuts a string inside an emoji) are replaced
//! by U+FFFD, counted, and the record kept.
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

/// Reads the file at `path`; an error is one line naming it and what to do.
pub fn read(path: &Path) -> Result<Lines, String> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // A file may become a FIFO between the listing and now: opened without waiting, a
    // FIFO with no writer cannot hold the capture up, and is refused below.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options
        .open(path)
        .map_err(|e| unreadable(path, "opened", &e))?;
    let meta = file.metadata().map_err(|e| unreadable(path, "read", &e))?;
    if !meta.is_file() {
        return Err(not_regular(path, &meta));
    }
    read_from(file, MAX_LINE).map_err(|e| unreadable(path, "read", &e))
}

/// The one line for a file or folder that could not be opened or read, with what to do.
pub fn unreadable(path: &Path, doing: &str, e: &std::io::Error) -> String {
    let link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let path = path.display();
    match e.kind() {
        std::io::ErrorKind::NotFound if link => {
            format!("{path}: a symbolic link to nothing; remove or correct the link")
        }
        std::io::ErrorKind::NotFound => format!(
            "{path}: gone since it was listed (removed or renamed while capture ran); run capture again to read what replaced it"
        ),
        std::io::ErrorKind::PermissionDenied => format!(
            "{path}: cannot be {doing}: permission denied; give this user read access to it, or leave it out"
        ),
        _ if e.raw_os_error() == Some(libc::ELOOP) => format!(
            "{path}: a symbolic link that loops (it leads back to itself); remove or correct the link"
        ),
        _ => format!("{path}: cannot be {doing} ({e}); check the file system, then run capture again"),
    }
}

/// The one line for a path that is neither a regular file nor a folder.
pub fn not_regular(path: &Path, meta: &std::fs::Metadata) -> String {
    if meta.is_dir() {
        return format!(
            "{}: not a regular file but a folder; give it as a PATH to search it",
            path.display()
        );
    }
    format!(
        "{}: not a regular file ({}), never read; copy it to a regular file to capture it",
        path.display(),
        kind_of(meta)
    )
}

fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a named pipe";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    "neither a file nor a folder"
}

pub fn read_from(input: impl Read, max_line: usize) -> std::io::Result<Lines> {
    // Session files run to megabytes: large reads, fewer calls.
    let mut reader = BufReader::with_capacity(256 * 1024, input);
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
        // Only a line with bytes to replace is copied.
        if matches!(text, std::borrow::Cow::Owned(_)) {
            skip("bytes not UTF-8 (replaced)");
        }
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let parsed = match serde_json::from_str::<Value>(text) {
            Err(_) if complete => match mend_surrogates(text) {
                // Only a line that does not parse is searched for lone surrogates.
                Some(mended) => serde_json::from_str::<Value>(&mended).inspect(|_| {
                    skip("lone surrogate escapes (replaced)");
                }),
                None => serde_json::from_str::<Value>(text),
            },
            parsed => parsed,
        };
        match parsed {
            Ok(v @ Value::Object(_)) => out.values.push((n, v)),
            Ok(_) => skip("line not an object"),
            Err(_) if !complete => skip("last line cut short"),
            Err(_) => skip("line not JSON"),
        }
    }
    Ok(out)
}

/// The text with each `\u` escape of a lone UTF-16 surrogate written as `\ufffd`: a
/// high surrogate not followed by the escape of a low one, a low surrogate not after a
/// high one (so a reversed pair is two lone ones). None when it has none. JSON holds
/// escapes only inside strings, keys included, so the escapes are read wherever they are.
fn mend_surrogates(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let unit = |at: usize| -> Option<u32> {
        if b.get(at) != Some(&b'\\') || b.get(at + 1) != Some(&b'u') {
            return None;
        }
        let hex = std::str::from_utf8(b.get(at + 2..at + 6)?).ok()?;
        u32::from_str_radix(hex, 16).ok()
    };
    let high = |u: u32| (0xD800..=0xDBFF).contains(&u);
    let low = |u: u32| (0xDC00..=0xDFFF).contains(&u);
    let mut out = Vec::with_capacity(b.len());
    let mut mended = false;
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        match unit(i) {
            Some(u) if high(u) && unit(i + 6).is_some_and(low) => {
                out.extend_from_slice(&b[i..i + 12]);
                i += 12;
            }
            Some(u) if high(u) || low(u) => {
                out.extend_from_slice(b"\\ufffd");
                mended = true;
                i += 6;
            }
            // Any other escape, `\\` included, is two bytes kept as they are (a `\u`
            // escape's hex digits are then copied as plain bytes).
            _ => {
                out.extend_from_slice(&b[i..(i + 2).min(b.len())]);
                i += 2;
            }
        }
    }
    // Only ASCII escapes were changed: the text is still UTF-8.
    mended.then(|| String::from_utf8(out).ok()).flatten()
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

    #[test]
    fn lone_surrogates_are_replaced_and_the_record_kept() {
        // Each line fails to parse as it is; each is kept with U+FFFD for the lone half.
        let cases: &[(&str, &str, &str)] = &[
            // A high surrogate cut at the end of a string.
            (r#"{"t":"ok \ud83d"}"#, "t", "ok \u{fffd}"),
            // A high surrogate followed by text, not by a low one.
            (r#"{"t":"a\ud83db"}"#, "t", "a\u{fffd}b"),
            // A lone low surrogate.
            (r#"{"t":"\ude00 x"}"#, "t", "\u{fffd} x"),
            // A reversed pair: two lone halves.
            (r#"{"t":"\ude00\ud83d"}"#, "t", "\u{fffd}\u{fffd}"),
            // A high one followed by another escape that is not a low one.
            (r#"{"t":"\ud83d\n"}"#, "t", "\u{fffd}\n"),
            // Inside a key, upper-case hex.
            (r#"{"k\uD83D":"v"}"#, "k\u{fffd}", "v"),
            // A whole pair beside a lone half keeps its character.
            (r#"{"t":"\ud83d\ude00\ud83d"}"#, "t", "\u{1f600}\u{fffd}"),
        ];
        for (line, key, want) in cases {
            assert!(serde_json::from_str::<Value>(line).is_err(), "{line}");
            let input = format!("{line}\n");
            let lines = read_from(input.as_bytes(), 1024).unwrap();
            assert_eq!(lines.values.len(), 1, "{line}");
            assert_eq!(lines.values[0].1[*key], *want, "{line}");
            assert_eq!(
                lines.skipped.get("lone surrogate escapes (replaced)"),
                Some(&1),
                "{line}"
            );
        }
        // An escaped backslash before "u" is no escape: left alone, nothing counted.
        let plain = "{\"t\":\"\\\\ud83d\"}\n";
        let lines = read_from(plain.as_bytes(), 1024).unwrap();
        assert_eq!(lines.values[0].1["t"], "\\ud83d");
        assert!(lines.skipped.is_empty());
        assert_eq!(mend_surrogates(r#"{"t":"\\ud83d \ud83d\ude00"}"#), None);
        // A line broken otherwise stays not JSON.
        let broken = "{\"t\":\"\\ud83d\" x}\n";
        let lines = read_from(broken.as_bytes(), 1024).unwrap();
        assert!(lines.values.is_empty());
        assert_eq!(lines.skipped.get("line not JSON"), Some(&1));
    }
}
