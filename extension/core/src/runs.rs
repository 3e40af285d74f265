//! The runs of a text: its longest stretches of the characters a prompt's word is made of
//! (`fold::is_word_char`: letters, digits, combining marks), and of NULs. A prompt's word
//! holds only such characters; FTS5's trigram tokenizer folds no other character into one
//! of them, and of the characters it drops from its trigrams (combining marks under
//! `remove_diacritics`, and NUL, which it skips) none is outside a run. So wherever it
//! finds a word in a column (a stretch of the column's folded characters), the word lies
//! inside one run. The items holding a word are those holding a run that holds it, and a
//! table of the runs, each with its items, lists a word without walking the positions of
//! its trigrams in the whole index (migration 0009; docs/performance.md#the-table-of-runs).
//! `tests/runs.rs` checks that against FTS5 under each folding of the trigram tokenizer.
use crate::fold::is_word_char;

/// The runs of `text`, in order, as they are written (not folded: whatever folds them,
/// folds them as it folds the text they come from).
pub fn runs(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !in_run(c))
        .filter(|run| !run.is_empty())
}

/// A character of a run: one of a word's, or a NUL, which FTS5's trigram tokenizer skips
/// (`ab\0cd` holds `abcd` for it), so that a run must not end there.
fn in_run(c: char) -> bool {
    is_word_char(c) || c == '\0'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_where_no_word_can_go() {
        let all: Vec<&str> = runs("Deploy failed: user_id=42 (café)!").collect();
        assert_eq!(all, ["Deploy", "failed", "user", "id", "42", "café"]);
        assert_eq!(runs("").count(), 0);
        assert_eq!(runs(" -- ").count(), 0);
    }

    #[test]
    fn marks_stay_in_their_run() {
        // A combining accent, a Devanagari vowel sign and virama, a Japanese voicing mark:
        // each is part of its word, so no run ends at it.
        let all: Vec<&str> = runs("e\u{301}cole डेटाबेस ガイド").collect();
        assert_eq!(all, ["e\u{301}cole", "डेटाबेस", "ガイド"]);
    }

    #[test]
    fn a_nul_does_not_end_a_run() {
        let all: Vec<&str> = runs("ab\0cd ef").collect();
        assert_eq!(all, ["ab\0cd", "ef"]);
    }

    #[test]
    fn other_scripts_and_numbers() {
        let all: Vec<&str> = runs("東京・大阪 ΟΔΟΣ Ⅻ 😀x").collect();
        assert_eq!(all, ["東京", "大阪", "ΟΔΟΣ", "Ⅻ", "x"]);
    }
}
