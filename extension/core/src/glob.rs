//! SQLite's `GLOB` (case-sensitive `*`, `?`, `[…]` with `^` and ranges), so that access
//! rules (`recall_source_allowed`) mean in Rust exactly what they mean in SQL. The tests
//! compare it with SQLite's own `glob()` on generated patterns.

#[derive(Debug, Clone, PartialEq)]
enum Token {
    /// `*`: any run of characters, the empty one too.
    Star,
    /// `?`: exactly one character.
    One,
    /// `[…]`: one character in (or, inverted, not in) the set.
    Set {
        invert: bool,
        chars: Vec<char>,
        ranges: Vec<(char, char)>,
    },
    Char(char),
    /// A `[` without its `]`: SQLite matches nothing once it reaches it.
    Broken,
}

/// Text up to its first NUL: SQLite reads both sides of GLOB as C strings.
fn c_string(s: &str) -> &str {
    s.split('\0').next().unwrap_or("")
}

fn tokens(pattern: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = c_string(pattern).chars().peekable();
    while let Some(c) = chars.next() {
        out.push(match c {
            '*' => Token::Star,
            '?' => Token::One,
            '[' => {
                let mut invert = false;
                let mut set = Vec::new();
                let mut ranges = Vec::new();
                if chars.peek() == Some(&'^') {
                    invert = true;
                    chars.next();
                }
                // A `]` first is a member, not the end.
                if chars.peek() == Some(&']') {
                    set.push(']');
                    chars.next();
                }
                let mut prior: Option<char> = None;
                let mut closed = false;
                while let Some(c) = chars.next() {
                    if c == ']' {
                        closed = true;
                        break;
                    }
                    match (c, prior, chars.peek()) {
                        // `a-z`: a range when a character stands on each side.
                        ('-', Some(low), Some(&high)) if high != ']' => {
                            chars.next();
                            ranges.push((low, high));
                            prior = None;
                        }
                        _ => {
                            set.push(c);
                            prior = Some(c);
                        }
                    }
                }
                if closed {
                    Token::Set {
                        invert,
                        chars: set,
                        ranges,
                    }
                } else {
                    Token::Broken
                }
            }
            c => Token::Char(c),
        });
    }
    out
}

fn matches_one(token: &Token, c: char) -> bool {
    match token {
        Token::One => true,
        Token::Char(t) => *t == c,
        Token::Set {
            invert,
            chars,
            ranges,
        } => {
            let seen = chars.contains(&c) || ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c));
            seen != *invert
        }
        Token::Star | Token::Broken => false,
    }
}

/// Whether `text` matches the GLOB `pattern`, as SQLite's `text GLOB pattern` answers.
pub fn glob(pattern: &str, text: &str) -> bool {
    let pattern = tokens(pattern);
    let text: Vec<char> = c_string(text).chars().collect();
    // Greedy matching with one backtrack point, the last star: every other token
    // matches exactly one character, so this finds a match whenever one exists.
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pattern.get(p) {
            Some(Token::Star) => {
                star = Some((p, t));
                p += 1;
            }
            Some(token) if matches_one(token, text[t]) => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|t| *t == Token::Star)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_glob_rules() {
        assert!(glob("agent-*", "agent-claude"));
        assert!(!glob("agent-*", "Agent-claude"));
        assert!(glob("a?c", "abc") && !glob("a?c", "ac"));
        assert!(glob("[^a]*", "human") && !glob("[^a]*", "agent"));
        // `!` is an ordinary member: [!a] is '!' or 'a'.
        assert!(glob("[!a]*", "agent") && glob("[!a]*", "!x") && !glob("[!a]*", "human"));
        assert!(glob("[]]", "]") && glob("[^]]", "x") && !glob("[^]]", "]"));
        assert!(glob("[a-c]", "b") && !glob("[a-c]", "d") && glob("[a-]", "-"));
        assert!(!glob("[ab", "a"), "an unclosed set matches nothing");
        assert!(glob("*", "") && glob("", "") && !glob("", "x"));
        assert!(glob("é*", "école") && glob("?", "東"));
        assert!(glob("*a*b*c", "xxaxxbxxc") && !glob("*a*b*c", "xxaxxcxxb"));
    }
}
