//! Text crossing the program's edges: a byte-order mark on input files, and control
//! characters on their way to a terminal.
use std::borrow::Cow;

/// Drops the UTF-8 byte-order mark some editors put at the start of a file.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Whether a character must not reach a terminal raw: C0 and C1 controls and DEL
/// (escape sequences, carriage returns, fake line breaks) and the bidirectional
/// overrides that make text display in another order than it is stored.
fn is_unsafe(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// One field of a one-line listing: every control character escaped (`\n`, `\u{1b}`),
/// so a title cannot fake a result line or drive the terminal.
pub fn field(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().map(escape_char).collect())
}

/// A block of lines (a summary, a transcript): line breaks and tabs are kept, every
/// other control character is escaped.
pub fn block(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| is_unsafe(c) && c != '\n' && c != '\t') {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| match c {
                '\n' | '\t' => c.to_string(),
                c => escape_char(c),
            })
            .collect(),
    )
}

fn escape_char(c: char) -> String {
    match c {
        '\n' => "\\n".to_string(),
        '\r' => "\\r".to_string(),
        '\t' => "\\t".to_string(),
        c if is_unsafe(c) => format!("\\u{{{:x}}}", u32::from(c)),
        c => c.to_string(),
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
    fn bom() {
        assert_eq!(without_bom("\u{feff}{}"), "{}");
        assert_eq!(without_bom("{}\u{feff}"), "{}\u{feff}");
    }
}
