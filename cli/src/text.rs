//! Text crossing the program's edges: a byte-order mark on input files, and control
//! characters on their way to a terminal.
use std::borrow::Cow;

/// Drops the UTF-8 byte-order mark some editors put at the start of a file.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Whether a character must not reach a reader raw: C0 and C1 controls and DEL (escape
/// sequences, carriage returns, fake line breaks), Unicode's line and paragraph
/// separators (a line break to many readers, so a stored title could draw a line of its
/// own), and the invisible format characters (bidirectional overrides that make text
/// display in another order than it is stored, zero-width characters that hide inside a
/// look-alike of a mark). A zero-width joiner or non-joiner between two characters
/// beyond ASCII is kept: scripts and emoji sequences need them there, and no mark of
/// recall's is written in such characters.
fn is_unsafe(c: char, before: Option<char>, after: Option<char>) -> bool {
    use unicode_general_category::{get_general_category, GeneralCategory as G};
    if c.is_control() {
        return true;
    }
    match get_general_category(c) {
        G::LineSeparator | G::ParagraphSeparator => true,
        G::Format => {
            let joins = matches!(c, '\u{200c}' | '\u{200d}');
            let beyond_ascii = |n: Option<char>| n.is_some_and(|n| !n.is_ascii());
            !(joins && beyond_ascii(before) && beyond_ascii(after))
        }
        _ => false,
    }
}

/// Each character with whether it is unsafe where it stands.
fn marked(text: &str) -> impl Iterator<Item = (char, bool)> + '_ {
    let chars: Vec<char> = text.chars().collect();
    (0..chars.len()).map(move |i| {
        let before = i.checked_sub(1).map(|j| chars[j]);
        let after = chars.get(i + 1).copied();
        (chars[i], is_unsafe(chars[i], before, after))
    })
}

/// One field of a one-line listing: every control character escaped (`\n`, `\u{1b}`),
/// so a title cannot fake a result line or drive the terminal.
pub fn field(text: &str) -> Cow<'_, str> {
    if text.is_ascii() && !text.bytes().any(|b| b.is_ascii_control()) {
        return Cow::Borrowed(text);
    }
    if !marked(text).any(|(_, unsafe_)| unsafe_) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        marked(text)
            .map(|(c, unsafe_)| escape_char(c, unsafe_))
            .collect(),
    )
}

/// A block of lines (a summary, a transcript): line breaks and tabs are kept, every
/// other control character is escaped.
pub fn block(text: &str) -> Cow<'_, str> {
    let kept = |c: char| c == '\n' || c == '\t';
    if !marked(text).any(|(c, unsafe_)| unsafe_ && !kept(c)) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        marked(text)
            .map(|(c, unsafe_)| escape_char(c, unsafe_ && !kept(c)))
            .collect(),
    )
}

fn escape_char(c: char, unsafe_: bool) -> String {
    match c {
        _ if !unsafe_ => c.to_string(),
        '\n' => "\\n".to_string(),
        '\r' => "\\r".to_string(),
        '\t' => "\\t".to_string(),
        c => format!("\\u{{{:x}}}", u32::from(c)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped() {
        assert_eq!(field("plain — ünïcode 東京"), "plain — ünïcode 東京");
        assert_eq!(field("a\nb\rc\td"), "a\\nb\\rc\\td");
        assert_eq!(field("\u{1b}[2J\u{7}"), "\\u{1b}[2J\\u{7}");
        assert_eq!(field("\u{9b}31m \u{7f}"), "\\u{9b}31m \\u{7f}");
        assert_eq!(field("abc\u{202e}txt"), "abc\\u{202e}txt");
        assert_eq!(
            block("one\n\ttwo\u{1b}]0;x\u{7}"),
            "one\n\ttwo\\u{1b}]0;x\\u{7}"
        );
    }

    #[test]
    fn line_breaks_of_unicode_and_invisible_formats_are_escaped() {
        // Line and paragraph separators: a line of its own to many readers.
        assert_eq!(
            field("fix\u{2028}- [999] Decision: drop"),
            "fix\\u{2028}- [999] Decision: drop"
        );
        assert_eq!(field("a\u{2029}b\u{85}c"), "a\\u{2029}b\\u{85}c");
        // Zero-width and other invisible formats, inside a look-alike of a mark.
        assert_eq!(
            field("</recall\u{200b}-memory>"),
            "</recall\\u{200b}-memory>"
        );
        assert_eq!(
            field("x\u{2060}y\u{feff}z\u{ad}"),
            "x\\u{2060}y\\u{feff}z\\u{ad}"
        );
        assert_eq!(field("</re\u{200d}call>"), "</re\\u{200d}call>");
        assert_eq!(field("\u{200d}start"), "\\u{200d}start");
        // Joiners between characters beyond ASCII stay: Persian words, emoji sequences.
        assert_eq!(field("می\u{200c}خواهم"), "می\u{200c}خواهم");
        assert_eq!(field("👩\u{200d}💻 fix"), "👩\u{200d}💻 fix");
        // A block keeps its own line breaks and tabs, never Unicode's.
        assert_eq!(block("one\n\ttwo\u{2028}three"), "one\n\ttwo\\u{2028}three");
    }

    #[test]
    fn bom() {
        assert_eq!(without_bom("\u{feff}{}"), "{}");
        assert_eq!(without_bom("{}\u{feff}"), "{}\u{feff}");
    }
}
