//! The stop list, read once from `stopwords.txt` (one folded word per line).
use std::collections::HashSet;
use std::sync::OnceLock;

const SOURCE: &str = include_str!("stopwords.txt");

fn words() -> &'static (Vec<&'static str>, HashSet<&'static str>) {
    static LIST: OnceLock<(Vec<&'static str>, HashSet<&'static str>)> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut seen = HashSet::new();
        let mut ordered = Vec::new();
        for line in SOURCE.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if seen.insert(line) {
                ordered.push(line);
            }
        }
        (ordered, seen)
    })
}

/// Whether `folded` (already lowercase, accents stripped) is a stop word.
pub fn is_stopword(folded: &str) -> bool {
    words().1.contains(folded)
}

/// The stop list in file order, without duplicates.
pub fn stopwords() -> &'static [&'static str] {
    &words().0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fold::fold;

    #[test]
    fn list_is_folded_and_unique() {
        for w in stopwords() {
            assert_eq!(fold(w), *w, "stop word {w:?} must be written folded");
            assert!(!w.contains(char::is_whitespace), "{w:?} has whitespace");
        }
        let unique: HashSet<_> = stopwords().iter().collect();
        assert_eq!(unique.len(), stopwords().len());
    }

    #[test]
    fn spec_words_are_listed() {
        for w in [
            "the", "and", "for", "with", "this", "that", "what", "when", "where", "who", "why",
            "how", "did", "does", "was", "were", "are", "please", "help", "fix", "want", "need",
            "can", "could", "would", "make", "para", "por", "que", "con", "los", "las", "una",
            "del", "cuando", "donde", "quiero", "puedes", "ayuda", "arregla", "favor",
        ] {
            assert!(is_stopword(w), "{w} should be a stop word");
        }
        for w in ["sunrise", "melanie", "analytics", "migration", "banner"] {
            assert!(!is_stopword(w), "{w} should not be a stop word");
        }
    }
}
