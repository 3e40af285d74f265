//! How a search term stands where a text holds it: as a whole word, starting a longer
//! word (a stem meeting its inflections: `lock` in `locked`), or only inside another word
//! (`lock` in `clock`), which a trigram index also matches since it matches substrings.
//! `recall search --explain` shows it for each term and field of each hit
//! (docs/queries.md#why-a-hit-matched).
//!
//! FTS5 decides whether a field holds a term; this module only places the term in the
//! text, folded as the tokenizer folds it (case, and Latin accents where it removes
//! them), and reads the characters on either side.
use crate::fold::{is_latin_diacritic, is_word_char, push_folded};

/// Where a term stands in a text, from the weakest to the strongest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Standing {
    /// Inside another word, not at its start: `lock` in `clock` or `padlock`.
    Inside,
    /// At the start of a longer word: `lock` in `locked`, `databas` in `database`.
    Start,
    /// A whole word, a word boundary on both sides.
    Word,
}

impl Standing {
    pub fn as_str(self) -> &'static str {
        match self {
            Standing::Inside => "inside",
            Standing::Start => "start",
            Standing::Word => "word",
        }
    }
}

/// The best place of a term in a text: how it stands there, and the text's words that
/// hold it, as written (`clock` for `lock`; `Café` for `cafe`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    pub standing: Standing,
    pub words: String,
}

/// Whether a tokenizer spec removes Latin accents before it matches: `unicode61` (and
/// `porter` over it) unless `remove_diacritics 0`; `trigram` only with
/// `remove_diacritics 1` or `2`; `ascii` never; `recall` always.
pub fn removes_diacritics(spec: &str) -> bool {
    let words = spec_words(spec);
    let option = option(&words, "remove_diacritics");
    match words.first().map(String::as_str) {
        Some("trigram") => option.is_some_and(|v| v != "0"),
        Some("ascii") => false,
        _ => option.is_none_or(|v| v != "0"),
    }
}

/// The words of a tokenizer spec, unquoted and lowercased.
fn spec_words(spec: &str) -> Vec<String> {
    spec.split_whitespace()
        .map(|w| {
            w.trim_matches(|c| matches!(c, '"' | '\'' | '`' | '[' | ']'))
                .to_ascii_lowercase()
        })
        .collect()
}

/// The value after `name` among a spec's words.
fn option<'w>(words: &'w [String], name: &str) -> Option<&'w str> {
    words
        .iter()
        .position(|w| w == name)
        .and_then(|i| words.get(i + 1))
        .map(String::as_str)
}

/// Whether a tokenizer spec folds text as [`crate::fold::fold`] does, case and Latin
/// accents alike: it removes accents ([`removes_diacritics`]) and is not
/// `case_sensitive 1`. Then a word it finds in no item is in no item's folded text either.
pub fn folds_as_fold(spec: &str) -> bool {
    let case_sensitive = option(&spec_words(spec), "case_sensitive").is_some_and(|v| v != "0");
    removes_diacritics(spec) && !case_sensitive
}

/// Folds one character as the tokenizer does: case always; Latin accents when
/// `remove_diacritics`.
fn push_char(c: char, remove_diacritics: bool, out: &mut String) {
    if remove_diacritics {
        push_folded(c, out);
    } else if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
    } else {
        out.extend(c.to_lowercase());
    }
}

/// Whether `c` joins the characters next to it into one word.
fn joins(c: char) -> bool {
    is_word_char(c) && !crate::tokenize::is_cjk(c)
}

/// Whether the edge between `a` and `b` (either may be the text's end) is a word
/// boundary: it is unless both are parts of words. Chinese, Japanese and Korean
/// characters are words of their own here, as the `recall` tokenizer reads them: those
/// texts put no space between words.
fn is_boundary(a: Option<char>, b: Option<char>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => !(joins(a) && joins(b)),
        _ => true,
    }
}

/// The best place of `term` in `text` (a whole word before the start of a word before
/// inside one; the first of equals), or `None` where the folded text does not hold the
/// folded term. Terms of more than one word (phrases) are placed the same way.
pub fn place(text: &str, term: &str, remove_diacritics: bool) -> Option<Occurrence> {
    let chars: Vec<char> = text.chars().collect();
    // The folded text, and for each of its bytes the character of `text` it comes from.
    let mut folded = String::with_capacity(text.len());
    let mut origin: Vec<usize> = Vec::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        push_char(c, remove_diacritics, &mut folded);
        origin.resize(folded.len(), i);
    }
    let mut needle = String::with_capacity(term.len());
    for c in term.chars() {
        push_char(c, remove_diacritics, &mut needle);
    }
    if needle.is_empty() {
        return None;
    }
    // A character folding to nothing (a Latin accent on its own, when removed) belongs
    // to the letter before it: it is skipped when reading what stands on either side.
    let vanishes = |c: char| remove_diacritics && is_latin_diacritic(c);
    let first = needle.chars().next();
    let last = needle.chars().next_back();
    let mut best: Option<(Standing, usize, usize)> = None;
    // Every place, overlapping ones too (`aba` twice in `ababa`).
    let mut from = 0;
    while let Some(found) = folded[from..].find(needle.as_str()) {
        let at = from + found;
        from = at + folded[at..].chars().next().map_or(1, char::len_utf8);
        let start = origin[at];
        let end = origin[at + needle.len() - 1] + 1;
        let mut after = end;
        while after < chars.len() && vanishes(chars[after]) {
            after += 1;
        }
        let before = chars[..start].iter().rev().copied().find(|&c| !vanishes(c));
        let opens = is_boundary(before, first);
        let closes = is_boundary(last, chars.get(after).copied());
        let standing = match (opens, closes) {
            (true, true) => Standing::Word,
            (true, false) => Standing::Start,
            (false, _) => Standing::Inside,
        };
        if best.is_none_or(|(b, _, _)| standing > b) {
            best = Some((standing, start, after));
        }
        if standing == Standing::Word {
            break;
        }
    }
    let (standing, start, end) = best?;
    // The whole words around the place, as the text writes them (accents are parts of
    // words).
    let mut from = start;
    while from > 0 && joins(chars[from - 1]) && joins(chars[from]) {
        from -= 1;
    }
    let mut to = end;
    while to < chars.len() && joins(chars[to]) && joins(chars[to - 1]) {
        to += 1;
    }
    Some(Occurrence {
        standing,
        words: chars[from..to].iter().collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, term: &str) -> Option<(Standing, String)> {
        place(text, term, true).map(|o| (o.standing, o.words))
    }

    fn w(s: Standing, words: &str) -> Option<(Standing, String)> {
        Some((s, words.to_string()))
    }

    #[test]
    fn whole_word_start_and_inside() {
        assert_eq!(at("the clock drifts", "lock"), w(Standing::Inside, "clock"));
        assert_eq!(at("a padlock", "lock"), w(Standing::Inside, "padlock"));
        assert_eq!(at("database locked", "lock"), w(Standing::Start, "locked"));
        assert_eq!(at("the lock.", "lock"), w(Standing::Word, "lock"));
        assert_eq!(at("Lock", "lock"), w(Standing::Word, "Lock"));
        assert_eq!(at("nothing here", "lock"), None);
    }

    #[test]
    fn the_best_place_wins_and_the_first_of_equals() {
        assert_eq!(
            at("clock blocks locked lock", "lock"),
            w(Standing::Word, "lock")
        );
        assert_eq!(at("clock locked", "lock"), w(Standing::Start, "locked"));
        assert_eq!(at("clock padlock", "lock"), w(Standing::Inside, "clock"));
        // Places may overlap: the whole `a-a` of `xa-a-a` overlaps the first place.
        assert_eq!(at("xa-a-a", "a-a"), w(Standing::Word, "a-a"));
        assert_eq!(at("xlololo", "lolo"), w(Standing::Inside, "xlololo"));
    }

    #[test]
    fn accents_fold_as_the_tokenizer_folds_them() {
        assert_eq!(at("Un Café crème", "cafe"), w(Standing::Word, "Café"));
        assert_eq!(at("CAFÉ", "café"), w(Standing::Word, "CAFÉ"));
        // Decomposed: the accent after the e belongs to it.
        assert_eq!(
            at("cafe\u{301} noir", "cafe"),
            w(Standing::Word, "cafe\u{301}")
        );
        assert_eq!(
            at("decafe\u{301}", "cafe"),
            w(Standing::Inside, "decafe\u{301}")
        );
        // Without diacritics removed, the accented word does not hold the plain one.
        assert_eq!(place("Café", "cafe", false), None);
        assert_eq!(
            place("CAFÉ", "café", false).map(|o| o.standing),
            Some(Standing::Word)
        );
    }

    #[test]
    fn edges_that_are_not_word_characters_need_no_boundary() {
        assert_eq!(at("use c++17 here", "c++"), w(Standing::Word, "c++"));
        assert_eq!(at("see test_dns_plan", "dns"), w(Standing::Word, "dns"));
        assert_eq!(
            at("fix \"database is locked\" errors", "database is locked"),
            w(Standing::Word, "database is locked")
        );
        assert_eq!(at("the databases is lockedown", "database is locked"), None);
        assert_eq!(
            at("database is lockedown", "database is locked"),
            w(Standing::Start, "database is lockedown")
        );
    }

    #[test]
    fn cjk_characters_are_words_of_their_own() {
        assert_eq!(at("東京都に住む", "東京"), w(Standing::Word, "東京"));
    }

    proptest::proptest! {
        /// A place exists exactly where the folded text holds the folded term, and its
        /// words hold the term; a `word` place is one of the text's words when the term
        /// is a single word.
        #[test]
        fn a_place_is_where_the_folded_text_holds_the_term(
            text in "[aAbé\u{301} .-]{0,12}",
            term in "[abé][aAbé\u{301}]{0,3}",
        ) {
            let found = place(&text, &term, true);
            let folded = crate::fold::fold(&text);
            let needle = crate::fold::fold(&term);
            proptest::prop_assert_eq!(found.is_some(), folded.contains(&needle));
            if let Some(o) = found {
                proptest::prop_assert!(crate::fold::fold(&o.words).contains(&needle));
                if o.standing == Standing::Word {
                    proptest::prop_assert!(crate::fold::folded_words(&text).any(|w| w == needle));
                }
            }
        }
    }

    #[test]
    fn tokenizers_that_fold_as_fold() {
        assert!(folds_as_fold("trigram remove_diacritics 1"));
        assert!(folds_as_fold(
            "trigram remove_diacritics 1 case_sensitive 0"
        ));
        assert!(!folds_as_fold(
            "trigram remove_diacritics 1 case_sensitive 1"
        ));
        assert!(!folds_as_fold("trigram"));
        assert!(folds_as_fold("unicode61"));
        assert!(folds_as_fold("recall"));
        assert!(!folds_as_fold("ascii"));
        assert!(!folds_as_fold("unicode61 remove_diacritics 0"));
    }

    #[test]
    fn tokenizers_that_remove_diacritics() {
        assert!(removes_diacritics("trigram remove_diacritics 1"));
        assert!(!removes_diacritics("trigram"));
        assert!(!removes_diacritics("trigram remove_diacritics 0"));
        assert!(removes_diacritics("unicode61"));
        assert!(removes_diacritics("unicode61 remove_diacritics 2"));
        assert!(!removes_diacritics("unicode61 remove_diacritics 0"));
        assert!(removes_diacritics("porter unicode61 remove_diacritics 2"));
        assert!(!removes_diacritics("ascii"));
        assert!(removes_diacritics("recall"));
        assert!(removes_diacritics("'trigram' 'remove_diacritics' '2'"));
    }
}
