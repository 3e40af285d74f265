//! The first-prompt rule: distinctive prompt words and their whole-word overlap with an
//! item (`recall_prompt_terms`, `recall_overlap`, `recall_overlap_terms`, `recall_related`;
//! docs/functions.md).
use std::collections::HashSet;

use crate::fold::folded_words;
use crate::stopwords::is_stopword;

pub const DEFAULT_MAX_PROMPT_TERMS: usize = 20;
/// Distinctive words shorter than this are ignored.
pub const MIN_PROMPT_TERM_CHARS: usize = 3;
/// `recall_related` needs at least this many shared words.
pub const RELATED_MIN_OVERLAP: usize = 2;

/// How distinctive a word is in a library of `items` items, `with_word` of which contain
/// it: `ln(items / with_word) / ln(items)`, 1 for a word in one item, 0 for a word in
/// every item. On this scale, words of total weight `w` that occur independently are
/// shared by `items^(1 - w)` items by chance, so the sum of the shared words' weights
/// tells a coincidence from a match whatever the library's size. A count below 1 reads
/// as 1 (the word is in no item the index finds, yet in the prompt) and one above
/// `items` as `items`; a library of one item or none gives 1, as rare as a word can be.
pub fn idf(with_word: i64, items: i64) -> f64 {
    if items <= 1 {
        return 1.0;
    }
    let with_word = with_word.clamp(1, items) as f64;
    let items = items as f64;
    (items / with_word).ln() / items.ln()
}

/// Folded, split on what is not a letter, a digit or a combining mark, 3+ characters, no
/// stop words, unique, in order.
pub fn prompt_terms(prompt: &str, max_terms: usize) -> Vec<String> {
    let mut seen = HashSet::new();
    folded_words(prompt)
        .filter(|w| w.chars().count() >= MIN_PROMPT_TERM_CHARS && !is_stopword(w))
        .filter(|w| seen.insert(w.clone()))
        .take(max_terms)
        .collect()
}

/// How many of the prompt's terms appear as whole folded words in title or summary.
pub fn overlap(prompt: &str, title: &str, summary: &str) -> usize {
    overlap_terms(prompt, title, summary).len()
}

/// The prompt's terms that appear as whole folded words in title or summary, in the
/// prompt's order: what `overlap` counts. (The first-prompt rule asks which words each
/// candidate shares: one call folds its title and summary once for all of them.)
pub fn overlap_terms(prompt: &str, title: &str, summary: &str) -> Vec<String> {
    let terms = prompt_terms(prompt, DEFAULT_MAX_PROMPT_TERMS);
    if terms.is_empty() {
        return terms;
    }
    let words: HashSet<String> = folded_words(title).chain(folded_words(summary)).collect();
    terms.into_iter().filter(|t| words.contains(t)).collect()
}

pub fn related(prompt: &str, title: &str, summary: &str) -> bool {
    overlap(prompt, title, summary) >= RELATED_MIN_OVERLAP
}

/// The prompt reduced to its terms, space-separated: it has the same terms, so the same
/// overlap with every item and the same relatedness, and reading it again costs nothing
/// however long the prompt was (the prompt hook passes it to `sql/related.sql`, which
/// reads its prompt once per candidate).
pub fn prompt_of_terms(prompt: &str) -> String {
    prompt_terms(prompt, DEFAULT_MAX_PROMPT_TERMS).join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_terms_rules() {
        assert_eq!(
            prompt_terms("Please help me fix the Analytics script on the shop!", 20),
            ["analytics", "script", "shop"]
        );
        // Accents stripped, split on every non-alphanumeric, unique in first order.
        assert_eq!(
            prompt_terms(
                "¿Cuándo arreglé la migración? migración-final, MIGRACION",
                20
            ),
            ["arregle", "migracion", "final"]
        );
        assert_eq!(
            prompt_terms("niño über Señal", 20),
            ["nino", "uber", "senal"]
        );
        // Two-character words are not distinctive.
        assert_eq!(prompt_terms("go to db js", 20), Vec::<String>::new());
        assert_eq!(prompt_terms("", 20), Vec::<String>::new());
    }

    #[test]
    fn marks_that_change_the_word_stay_in_terms() {
        assert_eq!(
            prompt_terms("ダウンロード ガイド 問題", 20),
            ["ダウンロード", "ガイド"]
        );
        assert_eq!(prompt_terms("डेटाबेस त्रुटि", 20), ["डेटाबेस", "त्रुटि"]);
        assert_eq!(prompt_terms("ฐานข้อมูล ล้มเหลว", 20), ["ฐานข้อมูล", "ล้มเหลว"]);
        // Voicing marks tell words apart: カイド is not ガイド.
        assert_eq!(overlap("ダウンロード ガイド", "タウンロート カイト", ""), 0);
        assert_eq!(
            overlap("ダウンロード ガイド 問題", "ダウンロード ガイド", ""),
            2
        );
    }

    #[test]
    fn prompt_terms_cap() {
        let prompt: String = (0..30).map(|i| format!("word{i} ")).collect();
        let terms = prompt_terms(&prompt, 20);
        assert_eq!(terms.len(), 20);
        assert_eq!(terms[19], "word19");
        assert_eq!(prompt_terms(&prompt, 2), ["word0", "word1"]);
        assert!(prompt_terms(&prompt, 0).is_empty());
    }

    #[test]
    fn overlap_counts_whole_folded_words() {
        let prompt = "fix the consent banner migration";
        assert_eq!(overlap(prompt, "Consent Banner", ""), 2);
        assert_eq!(overlap(prompt, "consent", "the BANNER was moved"), 2);
        // No stemming and no substrings.
        assert_eq!(overlap(prompt, "migrations of consents", ""), 0);
        assert_eq!(overlap("migración del banner", "Migracion", "banner"), 2);
        assert_eq!(overlap("", "anything", "at all"), 0);
    }

    #[test]
    fn overlap_terms_are_what_overlap_counts_in_the_prompts_order() {
        let prompt = "Banner consent: fix the consent-banner MIGRATION of the shop";
        assert_eq!(
            overlap_terms(prompt, "The migration", "a shop banner"),
            ["banner", "migration", "shop"]
        );
        assert_eq!(overlap_terms(prompt, "migrations", "consents"), [""; 0]);
        assert_eq!(overlap_terms("", "banner", "shop"), [""; 0]);
        // Counted one by one, each term gives the same words, whatever the texts.
        let texts = [
            ("Consent Banner", ""),
            ("consent", "the BANNER was moved to the shop"),
            ("", "migration-banner; shop/consent"),
            ("Migración del banner", "tienda"),
        ];
        for (title, summary) in texts {
            let one_by_one: Vec<String> = prompt_terms(prompt, DEFAULT_MAX_PROMPT_TERMS)
                .into_iter()
                .filter(|t| overlap(t, title, summary) == 1)
                .collect();
            assert_eq!(overlap_terms(prompt, title, summary), one_by_one);
            assert_eq!(overlap(prompt, title, summary), one_by_one.len());
        }
    }

    #[test]
    fn a_prompt_of_its_terms_has_the_same_terms() {
        let same = |prompt: &str| {
            let reduced = prompt_of_terms(prompt);
            assert_eq!(
                prompt_terms(&reduced, DEFAULT_MAX_PROMPT_TERMS),
                prompt_terms(prompt, DEFAULT_MAX_PROMPT_TERMS),
                "{prompt:?}"
            );
            assert_eq!(prompt_of_terms(&reduced), reduced, "{prompt:?}");
        };
        same("Please help me fix the Analytics script on the shop!");
        same("¿Cuándo arreglé la migración? İstanbul ǅemal ﬁle Straße ΣΊΣΥΦΟΣ");
        let long: String = (0..40).map(|i| format!("word{i} the ")).collect();
        same(&long);
        // Every character of the basic plane and every cased one beyond it, alone and
        // inside a Latin word: folding is idempotent.
        let chars = (0..=0x10ffffu32)
            .filter_map(char::from_u32)
            .filter(|c| u32::from(*c) <= 0xffff || c.is_uppercase() || c.is_lowercase());
        for c in chars {
            same(&format!("{c}{c}{c} x{c}yz"));
        }
    }

    #[test]
    fn idf_from_one_item_to_all() {
        assert_eq!(idf(1, 1000), 1.0);
        assert_eq!(idf(1000, 1000), 0.0);
        // A word in the square root of the library weighs a half.
        assert!((idf(100, 10_000) - 0.5).abs() < 1e-12);
        // Two such words are as rare together as one word in a single item.
        assert!((idf(100, 10_000) * 2.0 - idf(1, 10_000)).abs() < 1e-12);
        assert_eq!(idf(0, 1000), 1.0);
        assert_eq!(idf(-3, 1000), 1.0);
        assert_eq!(idf(5000, 1000), 0.0);
        assert_eq!(idf(1, 1), 1.0);
        assert_eq!(idf(0, 0), 1.0);
        assert_eq!(idf(7, -2), 1.0);
    }

    #[test]
    fn related_needs_two() {
        let prompt = "deploy the analytics script";
        assert!(!related(prompt, "analytics", ""));
        assert!(related(prompt, "analytics", "script"));
        assert!(related(prompt, "Deploy analytics", ""));
    }
}
