//! Where the values of a JSON text are, byte by byte, and a container's text rebuilt from
//! its own bytes with some items dropped, replaced or added: setup edits the agents'
//! files in place, so that every byte outside recall's entries stays as it was (numbers,
//! escapes, line endings, duplicate keys, layout), which no parse-and-print can promise.
//!
//! The text is checked by serde_json first (its message names line and column); the
//! scanner then only finds spans, one level of a container at a time, so that a large
//! file (Claude Code's `.claude.json`) costs one pass and no tree.

/// A UTF-8 byte order mark, kept as it is in front of the text.
const BOM: &str = "\u{feff}";

/// A file's text split into its byte order mark (or "") and the JSON after it.
pub fn split_bom(text: &str) -> (&str, &str) {
    match text.strip_prefix(BOM) {
        Some(rest) => (BOM, rest),
        None => ("", text),
    }
}

/// Checks that `text` is one JSON value (duplicate keys and any escapes allowed, as
/// JavaScript's JSON.parse allows them); the error has serde_json's line and column.
pub fn validate(text: &str) -> Result<(), String> {
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .map(|_| ())
        .map_err(|e| format!("not valid JSON: {e}"))
}

/// One item of a container: an array's element, or an object's member (its key decoded).
pub struct Item {
    /// Where the item starts: its key for a member, its value for an element.
    pub start: usize,
    pub key: Option<String>,
    pub value: usize,
    pub end: usize,
}

/// An object or array: its brackets' offsets and its items in the text's order
/// (duplicate keys included).
pub struct Container {
    pub open: usize,
    pub close: usize,
    pub items: Vec<Item>,
}

impl Container {
    /// The last member named `key`: the one JavaScript's JSON.parse, and so the agents,
    /// read.
    pub fn last(&self, key: &str) -> Option<usize> {
        self.items
            .iter()
            .rposition(|i| i.key.as_deref() == Some(key))
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
        i += 1;
    }
    i
}

fn broken(at: usize) -> String {
    format!("not valid JSON near byte {at}")
}

/// The end of the string whose opening quote is at `i`.
fn string_end(b: &[u8], mut i: usize) -> Result<usize, String> {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Ok(i + 1),
            _ => i += 1,
        }
    }
    Err(broken(i))
}

/// The end of the value starting at `i` (no whitespace before it).
pub fn value_end(b: &[u8], i: usize) -> Result<usize, String> {
    match b.get(i) {
        Some(b'"') => string_end(b, i),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b'"' => {
                        j = string_end(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Ok(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            Err(broken(j))
        }
        Some(_) => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
            {
                j += 1;
            }
            match j > i {
                true => Ok(j),
                false => Err(broken(i)),
            }
        }
        None => Err(broken(i)),
    }
}

/// The first value of `text` (after whitespace): its start and end.
pub fn root(text: &str) -> Result<(usize, usize), String> {
    let b = text.as_bytes();
    let start = skip_ws(b, 0);
    Ok((start, value_end(b, start)?))
}

/// The items of the container whose bracket is at `open`; None when the value there is
/// not a container of that kind (`{` for an object, `[` for an array).
pub fn container(text: &str, open: usize, object: bool) -> Result<Option<Container>, String> {
    let b = text.as_bytes();
    let (opening, closing) = if object { (b'{', b'}') } else { (b'[', b']') };
    if b.get(open) != Some(&opening) {
        return Ok(None);
    }
    let mut items = Vec::new();
    let mut i = skip_ws(b, open + 1);
    if b.get(i) == Some(&closing) {
        return Ok(Some(Container {
            open,
            close: i,
            items,
        }));
    }
    loop {
        let start = i;
        let (key, value) = if object {
            let key_end = string_end(b, i)?;
            // A key that does not decode (a lone surrogate) names nothing setup looks for.
            let key = serde_json::from_str::<String>(&text[i..key_end]).ok();
            let colon = skip_ws(b, key_end);
            if b.get(colon) != Some(&b':') {
                return Err(broken(colon));
            }
            (Some(key.unwrap_or_default()), skip_ws(b, colon + 1))
        } else {
            (None, i)
        };
        let end = value_end(b, value)?;
        items.push(Item {
            start,
            key,
            value,
            end,
        });
        let next = skip_ws(b, end);
        match b.get(next) {
            Some(b',') => i = skip_ws(b, next + 1),
            Some(c) if *c == closing => {
                return Ok(Some(Container {
                    open,
                    close: next,
                    items,
                }))
            }
            _ => return Err(broken(next)),
        }
    }
}

/// How a file is laid out: its indentation unit and its line ending, or compact (all on
/// one line, as `JSON.stringify(v)` writes it).
pub struct Layout {
    pub unit: String,
    pub newline: &'static str,
    pub compact: bool,
}

impl Layout {
    /// The indentation of the first indented line (two spaces, as Node's
    /// `JSON.stringify(v, null, 2)` writes, when there is none), and CRLF when the
    /// first line ends so.
    pub fn of(text: &str) -> Layout {
        let unit = text
            .lines()
            .skip(1)
            .map(|l| {
                l.chars()
                    .take_while(|c| *c == ' ' || *c == '\t')
                    .collect::<String>()
            })
            .find(|i| !i.is_empty())
            .unwrap_or_else(|| "  ".into());
        let newline = match text.find('\n') {
            Some(n) if n > 0 && text.as_bytes()[n - 1] == b'\r' => "\r\n",
            _ => "\n",
        };
        let compact = !text.trim().is_empty() && !text.trim_end().contains('\n');
        Layout {
            unit,
            newline,
            compact,
        }
    }

    /// The indentation of the line holding byte `at`.
    pub fn line_indent(text: &str, at: usize) -> &str {
        let line = text[..at].rfind('\n').map_or(0, |n| n + 1);
        let rest = &text[line..];
        let width = rest.len() - rest.trim_start_matches([' ', '\t']).len();
        &rest[..width.min(at - line)]
    }

    /// `value` printed as Node prints it (one item a line, `"key": value`), its inner
    /// lines indented from `base`, the indentation of the line it starts on.
    pub fn print<T: serde::Serialize>(&self, value: &T, base: &str) -> String {
        if self.compact {
            // serde_json's compact form is JSON.stringify's: no space after `:` or `,`.
            return serde_json::to_string(value).unwrap_or_default();
        }
        let mut out = Vec::new();
        let formatter = serde_json::ser::PrettyFormatter::with_indent(self.unit.as_bytes());
        let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
        // Writing strings, numbers and maps into memory cannot fail.
        let _ = value.serialize(&mut serializer);
        String::from_utf8_lossy(&out).replace('\n', &format!("{}{base}", self.newline))
    }

    /// A member `"key": value` printed at indentation `base`.
    pub fn member<T: serde::Serialize>(&self, key: &str, value: &T, base: &str) -> String {
        let colon = if self.compact { ":" } else { ": " };
        format!(
            "{}{colon}{}",
            self.print(&key, base),
            self.print(value, base)
        )
    }
}

/// What becomes of an item when its container is rebuilt.
pub enum Act {
    Keep,
    Drop,
    /// The item's value replaced by this text (its key and colon kept as they are).
    Value(String),
}

/// The container's new text (brackets included): its items kept, dropped or given a new
/// value as `acts` says, then `added` (items' texts, printed at the items' indentation)
/// after them. Every kept item keeps the separator before it and the container its
/// whitespace before the closing bracket, so that dropping what was added gives back
/// the bytes there were. An empty container is written `{}` / `[]`, as Node writes it.
pub fn rebuild(text: &str, c: &Container, acts: &[Act], added: &[String], lay: &Layout) -> String {
    let items = &c.items;
    let n = items.len();
    let base = format!("{}{}", Layout::line_indent(text, c.open), lay.unit);
    let own = |i: usize| -> String {
        match &acts[i] {
            Act::Value(v) => format!("{}{v}", &text[items[i].start..items[i].value]),
            _ => text[items[i].start..items[i].end].to_string(),
        }
    };
    let sep_before = |i: usize| &text[items[i - 1].end..items[i].start];
    let (lead, tail, between) = match n {
        0 if lay.compact => (String::new(), String::new(), ",".to_string()),
        0 => (
            format!("{}{base}", lay.newline),
            format!("{}{}", lay.newline, Layout::line_indent(text, c.open)),
            format!(",{}{base}", lay.newline),
        ),
        _ => (
            text[c.open + 1..items[0].start].to_string(),
            text[items[n - 1].end..c.close].to_string(),
            match n {
                1 => format!(",{}", &text[c.open + 1..items[0].start]),
                _ => sep_before(n - 1).to_string(),
            },
        ),
    };
    let mut out = text[c.open..c.open + 1].to_string();
    let mut first = true;
    for i in (0..n).filter(|i| !matches!(acts[*i], Act::Drop)) {
        out.push_str(if first { &lead } else { sep_before(i) });
        out.push_str(&own(i));
        first = false;
    }
    for a in added {
        out.push_str(if first { &lead } else { &between });
        out.push_str(a);
        first = false;
    }
    if !first {
        out.push_str(&tail);
    }
    out.push_str(&text[c.close..c.close + 1]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(text: &str) -> Vec<(Option<String>, String)> {
        let (start, _) = root(text).unwrap();
        let c = container(text, start, true).unwrap().unwrap();
        c.items
            .iter()
            .map(|i| (i.key.clone(), text[i.value..i.end].to_string()))
            .collect()
    }

    #[test]
    fn members_are_found_with_duplicates_escapes_and_raw_numbers() {
        let text = "{\r\n  \"a\": 1.0,\r\n  \"\\u0061\": [1e21, {\"x\": \"}\\\"]\"}],\r\n  \"n\": -0\r\n}\r\n";
        assert_eq!(
            items(text),
            [
                (Some("a".into()), "1.0".into()),
                (Some("a".into()), "[1e21, {\"x\": \"}\\\"]\"}]".into()),
                (Some("n".into()), "-0".into()),
            ]
        );
        let lay = Layout::of(text);
        assert_eq!((lay.unit.as_str(), lay.newline), ("  ", "\r\n"));
    }

    #[test]
    fn dropping_what_was_added_gives_the_bytes_back() {
        let lay = Layout::of("");
        for text in [
            "{}",
            "{\n  \"a\": 1\n}",
            "{\"a\":1,\"b\":2}",
            "[\n    1,\n    2\n]",
        ] {
            let object = text.starts_with('{');
            let c = container(text, 0, object).unwrap().unwrap();
            let keep: Vec<Act> = c.items.iter().map(|_| Act::Keep).collect();
            let new = if object { "\"z\": true" } else { "true" };
            let grown = rebuild(text, &c, &keep, &[new.into()], &lay);
            let g = container(&grown, 0, object).unwrap().unwrap();
            let mut acts: Vec<Act> = g.items.iter().map(|_| Act::Keep).collect();
            if let Some(last) = acts.last_mut() {
                *last = Act::Drop;
            }
            assert_eq!(rebuild(&grown, &g, &acts, &[], &lay), text, "{grown}");
        }
    }
}
