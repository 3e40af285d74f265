//! The `recall` tokenizer: words split into the parts of identifiers, folded like
//! `recall_fold`, plurals met with their singulars, and Chinese, Japanese and Korean text
//! cut into characters and overlapping pairs. Pure: the FTS5 adapters hand it the text
//! and pass on what it emits ([`tokenize`], [`tokenize_bytes`]). The rules in prose, with
//! their limits, are in docs/tokenizer.md.
//!
//! # How FTS5 reads what this emits
//!
//! FTS5 gives each token a position, one more than the token before, except a token
//! flagged *colocated* (`FTS5_TOKEN_COLOCATED`, [`Token::colocated`]), which shares the
//! position of the token before it. In a document, every token of a position is indexed
//! there. In a query, a colocated token would become an alternative for its position:
//! a phrase matches where, position by position, the document holds one of that
//! position's alternatives. Each alternative is one token, so a query cannot say "these
//! three positions, or this one"; that decides what each side emits.
//!
//! - **Identifiers.** `getUserName`, `get_user_name`, `os.path.join`, `src/importer.rs`
//!   give their parts at consecutive positions (`get user name`), in documents and in
//!   queries alike: a query `getUserName` is the phrase "get user name", which finds all
//!   the spellings that split the same way, words in prose included, and `user` alone
//!   finds any of them. A document also holds the parts joined (`getusername`),
//!   colocated with the first part: the one spelling a query cannot split, a run of
//!   lowercase letters, finds the identifier through it. Queries hold no joined form:
//!   as an alternative of the first position it would add nothing, since the document
//!   holding it holds the parts too.
//! - **CJK.** A run of Han, kana or Hangul gives one position per character, holding
//!   that character; in a document the pair it starts with the next character is
//!   colocated there. A query of one character is that character; a query of `n ≥ 2`
//!   characters is the `n - 1` pairs at positions `0 … n - 2` and its last character at
//!   `n - 1`. So `用户` is the pair `用户` and the character `户`, found where
//!   the document holds that pair and then `户`: exactly where `用户` occurs, at any place
//!   in a longer run (`用户名`, `使用用户`). A phrase continues after the run exactly as
//!   the document does (`用户 login`), and pairs keep the lists FTS5 reads short.
//! - **Highlights.** `highlight()` and `snippet()` read the offsets of the first token of
//!   each position and skip colocated ones, and they copy the text between offsets
//!   assuming each first token starts at or after the end of the one before. So the
//!   first token of a position is always exactly one part or one character, in order,
//!   never overlapping: a match marks exactly the text it matched. (A match through the
//!   joined form of an identifier marks its first part, the text of that position.)

mod plural;
#[cfg(test)]
mod tests;

use std::ops::ControlFlow;

use unicode_script::{Script, UnicodeScript};

use crate::fold::{is_combining_mark, push_folded};

/// The shortest term that can match: one character (a letter, a digit, or one CJK
/// character) is a token. `recall_match` needs to drop nothing for this tokenizer.
pub const MIN_TERM_CHARS: usize = 1;

/// The longest token text, in bytes: a longer word or identifier is cut at the last
/// character boundary within it, in documents and queries alike, so they still meet;
/// its offsets still span the whole word. Far above any real word (a SHA-256 in hex is
/// 64), and it keeps a megabyte run of letters from becoming a megabyte term.
pub const MAX_TOKEN_BYTES: usize = 256;

/// What the text being tokenized is, which decides the colocated tokens (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Indexed text, and the text `highlight()` and `snippet()` re-read
    /// (`FTS5_TOKENIZE_DOCUMENT`, `FTS5_TOKENIZE_AUX`): the two must give the same
    /// positions.
    Document,
    /// A query string (`FTS5_TOKENIZE_QUERY`, with or without `FTS5_TOKENIZE_PREFIX`).
    Query,
}

/// One token: its folded text and the byte range of the input it stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'t> {
    /// The term: folded, at most [`MAX_TOKEN_BYTES`], never empty.
    pub text: &'t str,
    /// Byte offset of its first byte in the input.
    pub start: usize,
    /// Byte offset just past its last byte; `input[start..end]` is the text it stands
    /// for, on character boundaries.
    pub end: usize,
    /// Whether it shares the position of the token before it (`FTS5_TOKEN_COLOCATED`).
    /// The first token is never colocated.
    pub colocated: bool,
}

/// The callback that receives each token; `ControlFlow::Break` stops the tokenizer (an
/// FTS5 callback that failed).
pub type Emit<'e> = dyn FnMut(Token<'_>) -> ControlFlow<()> + 'e;

/// Tokenizes `input`, calling `emit` for each token in order. Runs in time linear in the
/// input and allocates only two buffers that grow to [`MAX_TOKEN_BYTES`]; never panics.
/// Returns `Break` when `emit` did.
pub fn tokenize(input: &str, mode: Mode, emit: &mut Emit<'_>) -> ControlFlow<()> {
    Tokenizer::new(mode, emit).run(input, 0)
}

/// [`tokenize`] for bytes that may not be UTF-8, as FTS5 hands them over: each invalid
/// sequence separates words (like a U+FFFD would), and offsets count bytes of `input`
/// itself, so they stay exact around the invalid ones.
pub fn tokenize_bytes(input: &[u8], mode: Mode, emit: &mut Emit<'_>) -> ControlFlow<()> {
    let mut tokenizer = Tokenizer::new(mode, emit);
    let mut offset = 0;
    for chunk in input.utf8_chunks() {
        tokenizer.run(chunk.valid(), offset)?;
        offset += chunk.valid().len() + chunk.invalid().len();
    }
    ControlFlow::Continue(())
}

/// Whether a query of `text` holds any token: a column filter of a text without one would
/// be an empty phrase, which FTS5 matches with nothing.
pub fn has_token(text: &str) -> bool {
    tokenize(text, Mode::Query, &mut |_| ControlFlow::Break(())).is_break()
}

/// Characters that join words into one identifier when one of them, or two (`::`, `__`),
/// stands between two word characters: `snake_case`, `kebab-case`, `os.path.join`,
/// `src/importer.rs`, `C:\Users`, `std::io`. A lone `:` does not join (`key:value`,
/// `host:5432` are two words).
const JOINERS: &[char] = &['_', '-', '.', '/', '\\', ':'];

/// What a character is to the tokenizer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// A letter or digit outside the CJK scripts.
    Word,
    /// A letter or digit of Han, Hiragana, Katakana or Hangul (with their extensions:
    /// the prolonged sound mark, iteration marks, half-width kana).
    Cjk,
    /// A combining mark: part of the character before it (an accent, a vowel sign, a
    /// kana voicing mark).
    Mark,
    Joiner,
    /// Anything else: spaces, punctuation, symbols, controls, NUL.
    Separator,
}

fn class(c: char) -> Class {
    if c.is_ascii() {
        return if c.is_ascii_alphanumeric() {
            Class::Word
        } else if JOINERS.contains(&c) {
            Class::Joiner
        } else {
            Class::Separator
        };
    }
    if is_combining_mark(c) {
        Class::Mark
    } else if c.is_alphanumeric() {
        if is_cjk(c) {
            Class::Cjk
        } else {
            Class::Word
        }
    } else {
        Class::Separator
    }
}

/// Script extensions, not scripts, so that the marks the CJK scripts share with each
/// other (the prolonged sound mark `ー`, the iteration mark `々`) count as theirs.
pub(crate) fn is_cjk(c: char) -> bool {
    let scripts = c.script_extension();
    [
        Script::Han,
        Script::Hiragana,
        Script::Katakana,
        Script::Hangul,
    ]
    .into_iter()
    .any(|s| scripts.contains_script(s))
}

/// The case of a base character, which decides where identifiers split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Upper,
    Lower,
    /// A letter without case (Thai, Arabic, Devanagari).
    Uncased,
    Digit,
}

/// Whether `c` is a combining mark, without a table look-up for ASCII.
fn is_mark(c: char) -> bool {
    !c.is_ascii() && is_combining_mark(c)
}

fn kind(c: char) -> Kind {
    if c.is_ascii() {
        return match c {
            'A'..='Z' => Kind::Upper,
            'a'..='z' => Kind::Lower,
            _ => Kind::Digit,
        };
    }
    if !c.is_alphabetic() {
        Kind::Digit
    } else if c.is_lowercase() {
        Kind::Lower
    } else if c.is_uppercase() || c.to_lowercase().next() != Some(c) {
        // Title-case letters (ǅ) start a word like capitals.
        Kind::Upper
    } else {
        Kind::Uncased
    }
}

/// The character at byte `i` of `text` (a char boundary), with its length.
fn char_at(text: &str, i: usize) -> Option<(char, usize)> {
    let c = text.get(i..)?.chars().next()?;
    Some((c, c.len_utf8()))
}

/// One part of an identifier: a byte range of the text, all digits or all letters.
#[derive(Debug, Clone, Copy)]
struct Part {
    start: usize,
    end: usize,
    digits: bool,
    /// Written as capitals and a final lowercase `s` (`IDs`, `URLs`, `APIs`): a plural
    /// of an acronym, whose `s` goes.
    acronym_plural: bool,
}

/// The parts of one identifier (`text[pos..end]`, which holds word characters, marks and
/// the joiners between them): split at joiners, at a lowercase letter followed by a
/// capital (`getUser`), before the last capital of a run followed by two lowercase
/// letters or more (`HTTPServer` -> `HTTP` `Server`, while `URLs` and `IPv4` keep their
/// capitals together), and between letters and digits (`utf8`, `v2`).
#[derive(Debug, Clone, Copy)]
struct Parts<'a> {
    text: &'a str,
    pos: usize,
    end: usize,
}

impl Parts<'_> {
    /// Whether two lowercase letters follow byte `i` (marks skipped): the capital before
    /// `i` then starts a word.
    fn lowercase_pair_at(&self, mut i: usize) -> bool {
        let mut found = 0;
        while i < self.end && found < 2 {
            let Some((c, len)) = char_at(self.text, i) else {
                return false;
            };
            if !is_mark(c) {
                if class(c) != Class::Word || kind(c) != Kind::Lower {
                    return false;
                }
                found += 1;
            }
            i += len;
        }
        found == 2
    }
}

impl Iterator for Parts<'_> {
    type Item = Part;

    fn next(&mut self) -> Option<Part> {
        while let Some((c, len)) = char_at(self.text, self.pos).filter(|_| self.pos < self.end) {
            if class(c) != Class::Joiner {
                break;
            }
            self.pos += len;
        }
        if self.pos >= self.end {
            return None;
        }
        let start = self.pos;
        let mut prev: Option<Kind> = None;
        let mut leading_capitals = 0usize;
        let mut letters = 0usize;
        let mut last = '\0';
        while self.pos < self.end {
            let Some((c, len)) = char_at(self.text, self.pos) else {
                break;
            };
            if class(c) == Class::Joiner {
                break;
            }
            if is_mark(c) {
                self.pos += len;
                continue;
            }
            let k = kind(c);
            if let Some(p) = prev {
                let boundary = match (p, k) {
                    (Kind::Digit, Kind::Digit) => false,
                    (Kind::Digit, _) | (_, Kind::Digit) => true,
                    (Kind::Lower | Kind::Uncased, Kind::Upper) => true,
                    (Kind::Upper, Kind::Upper) => self.lowercase_pair_at(self.pos + len),
                    _ => false,
                };
                if boundary {
                    break;
                }
            }
            if k == Kind::Upper && leading_capitals == letters {
                leading_capitals += 1;
            }
            if k != Kind::Digit {
                letters += 1;
            }
            last = c;
            prev = Some(k);
            self.pos += len;
        }
        Some(Part {
            start,
            end: self.pos,
            digits: prev == Some(Kind::Digit),
            acronym_plural: leading_capitals >= 2 && letters == leading_capitals + 1 && last == 's',
        })
    }
}

/// Appends the fold of `text` to `out` without passing `MAX_TOKEN_BYTES`; returns whether
/// it had to stop short.
fn fold_capped(text: &str, out: &mut String) -> bool {
    for c in text.chars() {
        let before = out.len();
        push_folded(c, out);
        if out.len() > MAX_TOKEN_BYTES {
            out.truncate(before);
            return true;
        }
    }
    false
}

/// The plural rule applies to words of the letters a to z after folding (English,
/// Spanish without its accents): other scripts and letters form plurals their own ways.
fn apply_plural(word: &mut String, cut: bool) {
    if !cut && !word.is_empty() && word.bytes().all(|b| b.is_ascii_lowercase()) {
        plural::singular(word);
    }
}

struct Tokenizer<'e, 'f> {
    mode: Mode,
    emit: &'e mut Emit<'f>,
    /// The text of the token being emitted.
    buf: String,
    /// The joined form of an identifier, built while `buf` holds its first part.
    joined: String,
}

/// Calls the callback; a free function so that the token can borrow a buffer of the
/// tokenizer while the callback, another field, is borrowed mutably.
fn send(
    emit: &mut Emit<'_>,
    text: &str,
    start: usize,
    end: usize,
    colocated: bool,
) -> ControlFlow<()> {
    if text.is_empty() {
        return ControlFlow::Continue(());
    }
    emit(Token {
        text,
        start,
        end,
        colocated,
    })
}

impl<'e, 'f> Tokenizer<'e, 'f> {
    fn new(mode: Mode, emit: &'e mut Emit<'f>) -> Self {
        Tokenizer {
            mode,
            emit,
            buf: String::new(),
            joined: String::new(),
        }
    }

    /// Tokenizes `text`, whose offsets are reported from `base`.
    fn run(&mut self, text: &str, base: usize) -> ControlFlow<()> {
        let mut i = 0;
        while let Some((c, len)) = char_at(text, i) {
            match class(c) {
                Class::Separator | Class::Joiner => i += len,
                Class::Cjk => {
                    let end = Self::cjk_run_end(text, i);
                    self.cjk_run(text, i, end, base)?;
                    i = end;
                }
                Class::Word | Class::Mark => {
                    let end = Self::identifier_end(text, i);
                    self.identifier(text, i, end, base)?;
                    i = end;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The end of the identifier that starts at `i`: word characters and marks, and
    /// joiners between word characters (one, or two as in `::`; a lone `:` does not).
    fn identifier_end(text: &str, mut i: usize) -> usize {
        loop {
            while let Some((c, len)) = char_at(text, i) {
                if !matches!(class(c), Class::Word | Class::Mark) {
                    break;
                }
                i += len;
            }
            // A joiner run of one or two characters, followed by a word character.
            let mut j = i;
            let mut count = 0;
            let mut lone_colon = false;
            while let Some((c, len)) = char_at(text, j) {
                if class(c) != Class::Joiner || count == 2 {
                    break;
                }
                lone_colon = count == 0 && c == ':';
                count += 1;
                j += len;
            }
            let joins = count > 0 && !(count == 1 && lone_colon);
            match char_at(text, j) {
                Some((c, _)) if joins && class(c) == Class::Word => i = j,
                _ => return i,
            }
        }
    }

    /// The end of the CJK run that starts at `i`, marks included.
    fn cjk_run_end(text: &str, mut i: usize) -> usize {
        while let Some((c, len)) = char_at(text, i) {
            if !matches!(class(c), Class::Cjk | Class::Mark) {
                break;
            }
            i += len;
        }
        i
    }

    /// One identifier: its parts, each folded (and its plural met), at consecutive
    /// positions; in a document, each run of two or more letter parts also joined, after
    /// its first part.
    fn identifier(&mut self, text: &str, start: usize, end: usize, base: usize) -> ControlFlow<()> {
        let mut parts = Parts {
            text,
            pos: start,
            end,
        };
        let mut in_letter_run = false;
        while let Some(part) = parts.next() {
            self.buf.clear();
            let cut = fold_capped(&text[part.start..part.end], &mut self.buf);
            if part.acronym_plural && !cut && self.buf.ends_with('s') {
                self.buf.pop();
            }
            if !part.digits {
                apply_plural(&mut self.buf, cut);
            }
            if self.buf.is_empty() {
                // Only accents, which folding removes: no token, and no break in a run.
                continue;
            }
            send(
                self.emit,
                &self.buf,
                base + part.start,
                base + part.end,
                false,
            )?;
            if part.digits {
                in_letter_run = false;
                continue;
            }
            if !in_letter_run && self.mode == Mode::Document {
                if let Some(joined_end) = self.join_letter_run(text, part, parts) {
                    if self.joined != self.buf {
                        send(
                            self.emit,
                            &self.joined,
                            base + part.start,
                            base + joined_end,
                            true,
                        )?;
                    }
                }
            }
            in_letter_run = true;
        }
        ControlFlow::Continue(())
    }

    /// Folds the run of letter parts that starts with `first` (and goes on in `rest`)
    /// into `self.joined`, with the plural rule applied to the whole; returns the run's
    /// end when it has two parts or more. The run ends at a digit part: a query word
    /// splits at digits, so a joined form across them could never be asked for.
    fn join_letter_run(&mut self, text: &str, first: Part, rest: Parts<'_>) -> Option<usize> {
        self.joined.clear();
        let mut cut = fold_capped(&text[first.start..first.end], &mut self.joined);
        let mut count = 1;
        let mut end = first.end;
        for part in rest {
            if part.digits {
                break;
            }
            let before = self.joined.len();
            if !cut {
                cut = fold_capped(&text[part.start..part.end], &mut self.joined);
            }
            // Parts of accents alone fold to nothing and do not count.
            if self.joined.len() > before || cut {
                count += 1;
                end = part.end;
            }
        }
        apply_plural(&mut self.joined, cut);
        (count >= 2).then_some(end)
    }

    /// One CJK run: characters (a base character and its marks) at consecutive
    /// positions, and pairs (module docs).
    fn cjk_run(&mut self, text: &str, start: usize, end: usize, base: usize) -> ControlFlow<()> {
        let mut prev: Option<(usize, usize)> = None;
        let mut i = start;
        while i < end {
            let unit_start = i;
            if let Some((_, len)) = char_at(text, i) {
                i += len;
            }
            while let Some((c, len)) = char_at(text, i).filter(|_| i < end) {
                if !is_mark(c) {
                    break;
                }
                i += len;
            }
            let unit = (unit_start, i);
            if let Some(p) = prev {
                self.cjk_pair(text, p, unit, base)?;
            }
            prev = Some(unit);
        }
        match prev {
            Some((s, e)) => {
                self.buf.clear();
                fold_capped(&text[s..e], &mut self.buf);
                send(self.emit, &self.buf, base + s, base + e, false)
            }
            None => ControlFlow::Continue(()),
        }
    }

    /// A character `a` followed by `b` in a run: in a document `a`, then the pair
    /// colocated; in a query the pair alone.
    fn cjk_pair(
        &mut self,
        text: &str,
        a: (usize, usize),
        b: (usize, usize),
        base: usize,
    ) -> ControlFlow<()> {
        self.buf.clear();
        fold_capped(&text[a.0..a.1], &mut self.buf);
        if self.mode == Mode::Document {
            send(self.emit, &self.buf, base + a.0, base + a.1, false)?;
        }
        fold_capped(&text[b.0..b.1], &mut self.buf);
        send(
            self.emit,
            &self.buf,
            base + a.0,
            base + b.1,
            self.mode == Mode::Document,
        )
    }
}
