//! Prompt terms are folded, word characters (letters, digits, marks), 3+ characters, unique, not stop words, at most
//! max; overlap never exceeds their number.
#![no_main]
use libfuzzer_sys::fuzz_target;
use recall_core::fold::fold;
use recall_core::prompt::{overlap, prompt_terms};
use recall_core::stopwords::is_stopword;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (prompt, title) = text.split_at(text.char_indices().nth(text.chars().count() / 2).map_or(0, |(i, _)| i));
    let max = data.first().map_or(20, |b| usize::from(*b % 25));
    let terms = prompt_terms(prompt, max);
    assert!(terms.len() <= max);
    let mut seen = std::collections::HashSet::new();
    for t in &terms {
        assert_eq!(&fold(t), t);
        assert!(t.chars().count() >= 3 && t.chars().all(recall_core::fold::is_word_char), "{t:?}");
        assert!(!is_stopword(t));
        assert!(seen.insert(t.clone()), "duplicate {t:?}");
    }
    let n = overlap(prompt, title, prompt);
    assert!(n <= prompt_terms(prompt, 20).len());
    // A prompt overlaps itself in every term.
    assert_eq!(overlap(prompt, prompt, ""), prompt_terms(prompt, 20).len());
});
