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
