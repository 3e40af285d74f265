//! Query-side folding for the trigram tokenizer: a trigram index matches substrings, so
//! a word's stem ("paint" of "painting") matches every inflection of it ("paints",
//! "painted", "painter"). `substring_stem` gives that stem for an English word, or
//! nothing where the word is better left alone: identifiers (camelCase, snake_case,
//! digits), acronyms, words outside ASCII (accents, other scripts), short words.
//!
//! Conservative by design: one suffix comes off, the stem keeps at least
//! `MIN_STEM` letters (a shorter one matches inside too many unrelated words), and the
//! suffixes are the inflections and a few derivations of English.

/// The fewest letters a stem keeps.
pub const MIN_STEM: usize = 4;

/// Suffixes, longest first; the first whose removal leaves `MIN_STEM` letters is taken.
/// `ies`/`ied` lose the `i` too ("activities" → "activit", which "activity" holds).
const SUFFIXES: &[&str] = &[
    "ations", "ation", "ments", "ment", "ings", "ions", "ies", "ied", "ing", "ion", "ers", "est",
    "es", "ed", "er", "ly", "s", "e", "y",
];

/// Whether `word` is plain English-like text: ASCII letters, all lowercase or
/// capitalised (not an acronym, not camelCase).
fn is_plain_word(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic()) && chars.all(|c| c.is_ascii_lowercase())
}

/// A possessive's owner: "Caroline's" → "Caroline". Either apostrophe.
pub fn strip_possessive(word: &str) -> Option<&str> {
    ["'s", "’s", "'S", "’S"]
        .iter()
        .find_map(|s| word.strip_suffix(s))
        .filter(|w| !w.is_empty())
}

/// The stem of `word` for substring matching, lowercase, or None (see the module).
pub fn substring_stem(word: &str) -> Option<String> {
    let owner = strip_possessive(word);
    let word = owner.unwrap_or(word);
    if !is_plain_word(word) {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    // A possessive's owner is the word either way ("John's" → "john").
    let unchanged = owner.map(|_| lower.clone());
    // "ss" (class, glass), "us" (bus, focus), "is" (analysis) are no plural endings.
    if lower.ends_with("ss") || lower.ends_with("us") || lower.ends_with("is") {
        return unchanged;
    }
    for suffix in SUFFIXES {
        let Some(stem) = lower.strip_suffix(suffix) else {
            continue;
        };
        // A doubled final consonant belongs to the suffix ("swimming", "planned").
        let stem = undouble(stem);
        if stem.len() >= MIN_STEM {
            return Some(stem.to_string());
        }
    }
    unchanged
}

/// "swimm" → "swim"; "fall" and "pass" keep theirs (l and s double in the word itself).
fn undouble(stem: &str) -> &str {
    let b = stem.as_bytes();
    let n = b.len();
    if n >= 2 && b[n - 1] == b[n - 2] && !b"aeioulsz".contains(&b[n - 1]) {
        &stem[..n - 1]
    } else {
        stem
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(w: &str) -> Option<String> {
        substring_stem(w)
    }

    fn some(w: &str) -> Option<String> {
        Some(w.to_string())
    }

    #[test]
    fn inflections_lose_their_suffix() {
        // Each stem is the word less the suffix listed first in SUFFIXES that it ends with.
        assert_eq!(s("painting"), some("paint"));
        assert_eq!(s("painted"), some("paint"));
        assert_eq!(s("painters"), some("paint"));
        assert_eq!(s("groups"), some("group"));
        // "box" would be too short: the plain "s" comes off instead.
        assert_eq!(s("boxes"), some("boxe"));
        assert_eq!(s("glasses"), some("glass"));
        assert_eq!(s("activities"), some("activit"));
        assert_eq!(s("studied"), some("stud"));
        assert_eq!(s("education"), some("educ"));
        assert_eq!(s("adoption"), some("adopt"));
        assert_eq!(s("excitement"), some("excite"));
        assert_eq!(s("recently"), some("recent"));
        assert_eq!(s("dance"), some("danc"));
        // "ly" is listed before "y": "fami", which "families" holds too.
        assert_eq!(s("family"), some("fami"));
    }

    #[test]
    fn a_doubled_consonant_goes_with_the_suffix() {
        assert_eq!(s("swimming"), some("swim"));
        assert_eq!(s("planned"), some("plan"));
        // l, s and z double in the word itself.
        assert_eq!(s("falling"), some("fall"));
        assert_eq!(s("passed"), some("pass"));
    }

    #[test]
    fn a_suffix_that_would_leave_too_short_a_stem_is_passed_over() {
        // "creation" less "ation" is "cre": "ion" is next, leaving "creat".
        assert_eq!(s("creation"), some("creat"));
        // "tries": "ies" leaves "tr", "es" "tri", "s" "trie".
        assert_eq!(s("tries"), some("trie"));
        // Nothing leaves four letters: the word stays.
        assert_eq!(s("kids"), None);
        assert_eq!(s("going"), None);
        assert_eq!(s("paint"), None);
    }

    #[test]
    fn words_that_only_look_inflected_stay() {
        // A word ending in "ss", "us" or "is" is no plural; "-ness" words end in "ss" too.
        for w in ["class", "focus", "analysis", "happiness"] {
            assert_eq!(s(w), None, "{w}");
        }
    }

    #[test]
    fn possessives_give_their_owner() {
        assert_eq!(s("Caroline's"), some("carolin"));
        assert_eq!(s("Melanie’s"), some("melani"));
        assert_eq!(s("John's"), some("john"));
        assert_eq!(s("boss's"), some("boss"));
        assert_eq!(strip_possessive("'s"), None);
        assert_eq!(strip_possessive("it's"), Some("it"));
    }

    #[test]
    fn identifiers_acronyms_and_other_scripts_stay() {
        for w in [
            "getUsers",
            "parse_errors",
            "ENOENT",
            "LGBTQ",
            "NaN",
            "utf8",
            "v2",
            "x86_64",
            "résumés",
            "東京都",
            "node.js",
            "-flags",
            "don't",
        ] {
            assert_eq!(s(w), None, "{w}");
        }
        // Capitalised words are plain: the first word of a sentence, a name.
        assert_eq!(s("Swimming"), some("swim"));
    }
}
