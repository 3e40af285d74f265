//! Folding (case and Latin accents, the way FTS5's `remove_diacritics` folds) and the word
//! splitting that prompt terms and overlap share.
//!
//! Prompt terms become FTS5 queries and overlap re-checks what FTS5 found, so a term must
//! fold exactly as FTS5 folds the indexed text (`unicode61 remove_diacritics 2` and
//! `trigram remove_diacritics 1` use the same folding). Stripping any combining mark after
//! NFD, as this module once did, also stripped kana voicing marks, Indic vowel signs and
//! Thai tone marks, which FTS5 keeps: the terms then matched nothing FTS5 had indexed.
//! `tests/fold_agreement.rs` compares this folding with FTS5's on every code point.
use std::sync::OnceLock;

/// General category Mark (Mn, Mc, Me), which word splitting keeps inside words.
pub use unicode_normalization::char::is_combining_mark;
use unicode_normalization::char::{compose, decompose_canonical};

/// The one block that holds every mark able to compose with an ASCII letter (a unit test
/// checks every mark of Unicode), so the composition test runs on 112 code points only.
const DIACRITICS_BLOCK: std::ops::RangeInclusive<u32> = 0x300..=0x36F;

/// The longest canonical decomposition in Unicode has four characters.
const MAX_DECOMPOSITION: usize = 4;

/// Folds text for comparison: case folded, accents on Latin letters removed, every other
/// character as it is (no normalisation, as in FTS5). Character by character, so the fold
/// of a text is the concatenation of the folds of its characters:
/// `Canción` -> `cancion`, `ΟΔΟΣ` -> `οδοσ`, `ダウンロード` and `डेटाबेस` unchanged.
pub fn fold(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        push_folded(c, &mut out);
    }
    out
}

/// Appends the fold of one character to `out`: nothing for a Latin accent on its own, one
/// character or more otherwise. The fold of a text is the concatenation of these, so a
/// caller can fold a slice into a buffer it reuses (the tokenizer does, per token).
pub fn push_folded(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
    } else {
        case_fold(c, |l| {
            if let Some(kept) = remove_accent(l) {
                out.push(kept);
            }
        });
    }
}

/// Simple case folding built from the standard library's case mappings: the lowercase of
/// the uppercase when both are one character, so that variant forms meet their letter
/// (`ς` `σ` `Σ`, `ſ` `s`, `µ` `μ`) as Unicode's CaseFolding.txt, and so FTS5, has them;
/// otherwise the lowercase (`İ` -> `i` + U+0307, whose dot `remove_accent` then drops).
fn case_fold(c: char, mut emit: impl FnMut(char)) {
    // The Turkish dotless ı has no case folding in Unicode: through its uppercase I it
    // would merge with i, a different Turkish letter, which FTS5 keeps apart.
    if c != 'ı' {
        let mut upper = c.to_uppercase();
        if let (Some(u), None) = (upper.next(), upper.next()) {
            let mut lower = u.to_lowercase();
            if let (Some(l), None) = (lower.next(), lower.next()) {
                emit(l);
                return;
            }
        }
    }
    c.to_lowercase().for_each(emit);
}

/// Whether `m` is an accent of Latin letters: a combining mark that composes with some
/// ASCII letter into one precomposed letter (U+0301 with `e` is `é`). These are the marks
/// FTS5 removes on their own; vowel signs, voicing, tone and Greek or Cyrillic marks are
/// not among them.
pub fn is_latin_diacritic(m: char) -> bool {
    static SET: OnceLock<u128> = OnceLock::new();
    let cp = u32::from(m);
    if !DIACRITICS_BLOCK.contains(&cp) {
        return false;
    }
    let set = SET.get_or_init(|| {
        DIACRITICS_BLOCK
            .filter_map(char::from_u32)
            .filter(|&m| {
                ('a'..='z')
                    .chain('A'..='Z')
                    .any(|l| compose(l, m).is_some())
            })
            .fold(0u128, |set, m| {
                set | 1 << (u32::from(m) - DIACRITICS_BLOCK.start())
            })
    });
    set & (1 << (cp - DIACRITICS_BLOCK.start())) != 0
}

/// The ASCII letter under a precomposed Latin letter, when its canonical decomposition is
/// that letter followed by Latin accents only (`ǖ` = u + ¨ + ¯ -> `u`).
///
/// A letter of more than one accent is reached through intermediate letters (`ǖ` through
/// `ü`), and each must come before the next in code point order: FTS5 builds its table in
/// one pass in that order and maps a letter through its base only when the base is mapped
/// already. So `ǡ` (U+01E1, through `ȧ` U+0227) keeps its marks in FTS5, and here.
pub fn latin_base(c: char) -> Option<char> {
    let mut parts = ['\0'; MAX_DECOMPOSITION];
    let mut len = 0;
    let mut overflow = false;
    decompose_canonical(c, |d| {
        match parts.get_mut(len) {
            Some(slot) => *slot = d,
            None => overflow = true,
        }
        len += 1;
    });
    if overflow || len < 2 {
        return None;
    }
    let (base, marks) = parts[..len].split_first()?;
    if !base.is_ascii_alphabetic() || !marks.iter().all(|&m| is_latin_diacritic(m)) {
        return None;
    }
    let mut link = *base;
    for &m in &marks[..marks.len() - 1] {
        let next = compose(link, m)?;
        if next <= link {
            return None;
        }
        link = next;
    }
    (c > link).then(|| base.to_ascii_lowercase())
}

/// A case-folded character without its Latin accents: `None` for a Latin accent on its
/// own (text in NFD: `e` + U+0301), the base letter for a precomposed Latin letter, else
/// the character itself.
fn remove_accent(c: char) -> Option<char> {
    if is_latin_diacritic(c) {
        None
    } else {
        Some(latin_base(c).unwrap_or(c))
    }
}

/// Whether `c` belongs to a word: letters, digits, and combining marks, since vowel signs,
/// viramas and tone marks (Devanagari, Thai) are parts of their words.
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

/// The folded words of `text`: split on every character that is not a letter, a digit or
/// a combining mark.
pub fn folded_words(text: &str) -> impl Iterator<Item = String> {
    let folded = fold(text);
    folded
        .split(|c: char| !is_word_char(c))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect::<Vec<_>>()
        .into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_case_and_latin_accents() {
        assert_eq!(fold("Canción"), "cancion");
        assert_eq!(fold("ÑANDÚ über"), "nandu uber");
        assert_eq!(fold("Crème Brûlée"), "creme brulee");
        assert_eq!(fold("plain ascii"), "plain ascii");
        assert_eq!(fold(""), "");
        // Letters without a canonical decomposition are kept as they are.
        assert_eq!(fold("Øre ß 東京 Łódź"), "øre ß 東京 łodz");
        // Vietnamese: two accents on one letter.
        assert_eq!(fold("Tiếng Việt ǖ"), "tieng viet u");
        // Decomposed (NFD) text loses the same accents.
        assert_eq!(fold("Cancio\u{301}n"), "cancion");
    }

    #[test]
    fn keeps_marks_that_change_the_word() {
        // Kana voicing marks, Devanagari vowel signs, Thai tone and vowel marks.
        assert_eq!(fold("ダウンロード ガイド"), "ダウンロード ガイド");
        assert_eq!(fold("डेटाबेस"), "डेटाबेस");
        assert_eq!(fold("ฐานข้อมูล"), "ฐานข้อมูล");
        // Decomposed kana keep the combining voicing mark too.
        assert_eq!(fold("\u{30bf}\u{3099}"), "\u{30bf}\u{3099}");
        // FTS5 keeps the accents of Greek and Cyrillic letters, so folding does too.
        assert_eq!(fold("Αθήνα"), "αθήνα");
        assert_eq!(fold("Ёлка Й"), "ёлка й");
    }

    #[test]
    fn case_folding_meets_variant_forms() {
        assert_eq!(fold("ΟΔΟΣ οδος"), "οδοσ οδοσ");
        assert_eq!(fold("µ ſ ϐ"), "μ s β");
        // Turkish: İ loses its dot like any Latin accent; ı stays a letter of its own.
        assert_eq!(fold("İstanbul ılık"), "istanbul ılık");
        assert_eq!(fold("ǅ"), "ǆ");
    }

    #[test]
    fn latin_diacritics_are_the_marks_that_compose_with_ascii_letters() {
        for m in [
            '\u{300}', '\u{301}', '\u{308}', '\u{327}', '\u{31b}', '\u{331}',
        ] {
            assert!(is_latin_diacritic(m), "{m:?}");
        }
        // Singletons that canonically decompose to U+0300/U+0301 compose with nothing.
        for m in [
            '\u{305}', '\u{340}', '\u{341}', '\u{3099}', '\u{947}', '\u{e49}', 'e',
        ] {
            assert!(!is_latin_diacritic(m), "{m:?}");
        }
        // The block restriction loses nothing: no mark outside it composes with ASCII.
        for m in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            if is_combining_mark(m) && !DIACRITICS_BLOCK.contains(&u32::from(m)) {
                assert!(
                    ('a'..='z')
                        .chain('A'..='Z')
                        .all(|l| compose(l, m).is_none()),
                    "U+{:04X} composes with an ASCII letter",
                    u32::from(m)
                );
            }
        }
    }

    /// Folding twice changes nothing, on every code point: prompt terms are folded words
    /// and must stay what they are when folded again (stop words, overlap).
    #[test]
    fn folding_is_idempotent() {
        let mut buf = [0u8; 4];
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let once = fold(c.encode_utf8(&mut buf));
            assert_eq!(fold(&once), once, "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn latin_bases() {
        assert_eq!(latin_base('é'), Some('e'));
        assert_eq!(latin_base('Ǖ'), Some('u'));
        assert_eq!(latin_base('ṩ'), Some('s'));
        // The intermediate letter ȧ (U+0227) comes after ǡ (U+01E1).
        assert_eq!(latin_base('ǡ'), None);
        assert_eq!(latin_base('ά'), None);
        assert_eq!(latin_base('a'), None);
        assert_eq!(latin_base('東'), None);
    }

    #[test]
    fn splits_on_what_is_not_a_letter_digit_or_mark() {
        let words: Vec<_> = folded_words("node.js, it's foo-bar_baz 2024!").collect();
        assert_eq!(
            words,
            ["node", "js", "it", "s", "foo", "bar", "baz", "2024"]
        );
        assert_eq!(folded_words("  ...  ").count(), 0);
        // Thai tone marks and Devanagari vowel signs stay inside their words.
        let words: Vec<_> = folded_words("ฐานข้อมูล, डेटाबेस!").collect();
        assert_eq!(words, ["ฐานข้อมูล", "डेटाबेस"]);
    }
}
