//! Every input the command reads (standard input, files, devices, pipes) is read with a
//! limit: at most the limit plus one byte, so that `/dev/zero` or a pipe that never ends
//! costs a bounded amount of memory and ends in one error line instead of exhausting
//! the machine. The limits are named here, once; docs/cli.md lists them.
use std::io::{BufRead, Read};
use std::path::Path;

use crate::error::{err, Result};
use crate::item::{MAX_DIMENSIONS, MAX_INDEXED, MAX_TITLE, MAX_TRANSCRIPT};

const MIB: u64 = 1024 * 1024;

/// The longest JSON text one valid item can be: `recall import`'s line, `recall add -`.
/// Every text field at its limit, each byte escaped as `\u00XX` (six bytes: what a
/// writer escaping every non-ASCII or control character can produce), plus an
/// embedding of the most dimensions at 48 bytes a number, plus the keys; rounded up to
/// whole MiB.
pub const ITEM_JSON: u64 = (6 * (MAX_TRANSCRIPT + 3 * MAX_INDEXED + 3 * MAX_TITLE + 64) as u64
    + 48 * MAX_DIMENSIONS as u64)
    .div_ceil(MIB)
    * MIB;
/// A query or prompt read from standard input (`search -`, `related -`), and the prompt
/// of `recall hook`'s JSON.
pub const PROMPT: u64 = 16 * MIB;
/// The whole JSON of `recall hook`: a tool's response rides along in `PostToolUse` (a
/// file read or written whole, a command's output), which the hook skips unread.
pub const HOOK_PAYLOAD: u64 = 256 * MIB;
/// A labeled cases file of `recall eval` and a LoCoMo dataset.
pub const DATASET: u64 = 64 * MIB;
/// One question of a LongMemEval file, with the space before it: the file is read one
/// question at a time (an M file is gigabytes, a question a few MiB).
pub const BENCHMARK_QUESTION: u64 = 256 * MIB;
/// The configuration file.
pub const CONFIG: u64 = MIB;
/// The script of `recall sql --file`.
pub const SQL_SCRIPT: u64 = 16 * MIB;
/// A file holding a bearer token of `recall mcp --http`.
pub const TOKEN_FILE: u64 = 4096;

/// A size as the error lines name it: whole MiB, else bytes.
pub fn size(bytes: u64) -> String {
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}

fn too_long(what: &str, limit: u64, fix: &str) -> crate::error::Error {
    err!("{what} is longer than {}, its limit: {fix}", size(limit))
}

/// Reads all of `reader` if it holds at most `limit` bytes; else an error naming `what`
/// and its limit, then `fix` (what to do).
pub fn read_limited(reader: impl Read, limit: u64, what: &str, fix: &str) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| err!("cannot read {what}: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(too_long(what, limit, fix));
    }
    Ok(bytes)
}

/// A file (or device, or pipe) by path, read as [`read_limited`] reads.
pub fn read_file_limited(path: &Path, limit: u64, what: &str, fix: &str) -> Result<Vec<u8>> {
    let file = std::fs::File::open(path).map_err(|e| err!("cannot read {what}: {e}"))?;
    read_limited(file, limit, what, fix)
}

/// UTF-8 text from bytes read: a byte-order mark at the start dropped, and invalid UTF-8
/// named by the byte where it starts.
pub fn text(bytes: Vec<u8>, what: &str) -> Result<String> {
    let mut text = String::from_utf8(bytes).map_err(|e| {
        err!(
            "{what}: invalid UTF-8 at byte {}",
            e.utf8_error().valid_up_to()
        )
    })?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

/// One line of a reader, without its `\n`, read no further than `limit` bytes and the
/// one more that tells a long line apart: a reader that never breaks a line costs no
/// more than that.
pub enum BoundedLine {
    Line(Vec<u8>),
    /// Longer than the limit; what follows of it is left unread.
    TooLong,
    End,
}

/// Reads the next [`BoundedLine`].
pub fn read_line(reader: &mut impl BufRead, limit: u64) -> std::io::Result<BoundedLine> {
    let mut line = Vec::new();
    // The limit, its line break, and one byte more to tell a long line apart.
    let read = reader
        .take(limit.saturating_add(2))
        .read_until(b'\n', &mut line)?;
    if read == 0 {
        return Ok(BoundedLine::End);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    if line.len() as u64 > limit {
        return Ok(BoundedLine::TooLong);
    }
    Ok(BoundedLine::Line(line))
}

/// Lines of at most `limit` bytes each (the line break not counted), from a reader that
/// may never end or never break a line. Each line comes without its `\n`.
pub struct Lines<R> {
    reader: R,
    limit: u64,
    number: usize,
}

impl<R: BufRead> Lines<R> {
    pub fn new(reader: R, limit: u64) -> Lines<R> {
        Lines {
            reader,
            limit,
            number: 0,
        }
    }

    /// The next line and its number (from 1), or None at the end. `what` names the
    /// input in errors (`stdin: line 3`), `fix` says what to do about a long line.
    pub fn next_line(&mut self, what: &str, fix: &str) -> Result<Option<(usize, Vec<u8>)>> {
        self.number += 1;
        let n = self.number;
        match read_line(&mut self.reader, self.limit)
            .map_err(|e| err!("{what}: line {n}: cannot read: {e}"))?
        {
            BoundedLine::Line(line) => Ok(Some((n, line))),
            BoundedLine::TooLong => Err(too_long(&format!("{what}: line {n}"), self.limit, fix)),
            BoundedLine::End => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_up_to_the_limit_and_refuses_one_byte_more() {
        let five = read_limited(&b"12345"[..], 5, "x", "fix").expect("at the limit");
        assert_eq!(five, b"12345");
        let e = read_limited(&b"123456"[..], 5, "the thing", "make it shorter")
            .expect_err("over the limit");
        assert_eq!(
            e.message,
            "the thing is longer than 5 bytes, its limit: make it shorter"
        );
        // A reader that never ends is read only to the limit and one byte.
        let e = read_limited(std::io::repeat(b'y'), 2 * MIB, "stdin", "fix").expect_err("endless");
        assert!(e.message.contains("longer than 2 MiB"), "{}", e.message);
    }

    #[test]
    fn text_drops_a_byte_order_mark_and_names_bad_utf8() {
        assert_eq!(text(b"\xef\xbb\xbf{}".to_vec(), "x").expect("bom"), "{}");
        assert_eq!(
            text(b"{}\xef\xbb\xbf".to_vec(), "x").expect("inner"),
            "{}\u{feff}"
        );
        let e = text(b"ab\xffc".to_vec(), "the file").expect_err("bad");
        assert_eq!(e.message, "the file: invalid UTF-8 at byte 2");
    }

    #[test]
    fn lines_are_bounded_each() {
        let mut lines = Lines::new(&b"abc\n\nabcd\nab"[..], 3);
        let next = |l: &mut Lines<&[u8]>| l.next_line("in", "fix");
        assert_eq!(next(&mut lines).expect("1"), Some((1, b"abc".to_vec())));
        assert_eq!(next(&mut lines).expect("2"), Some((2, Vec::new())));
        let e = next(&mut lines).expect_err("3 is too long");
        assert_eq!(
            e.message,
            "in: line 3 is longer than 3 bytes, its limit: fix"
        );
        let mut lines = Lines::new(&b"ab\nab"[..], 3);
        assert_eq!(next(&mut lines).expect("1"), Some((1, b"ab".to_vec())));
        assert_eq!(next(&mut lines).expect("2"), Some((2, b"ab".to_vec())));
        assert_eq!(next(&mut lines).expect("end"), None);
        // A line that never ends is refused once it passes the limit.
        let mut endless = Lines::new(std::io::BufReader::new(std::io::repeat(0)), MIB);
        let e = endless.next_line("stdin", "fix").expect_err("endless");
        assert!(
            e.message.starts_with("stdin: line 1 is longer than 1 MiB"),
            "{}",
            e.message
        );
    }
}
