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
        // The file itself, not the list read from it (which drops repeats): a word
        // written twice is a slip in the file.
        let mut seen = HashSet::new();
        for line in SOURCE.lines().map(str::trim) {
            if !line.is_empty() && !line.starts_with('#') {
                assert!(
                    seen.insert(line),
                    "{line:?} is written twice in stopwords.txt"
                );
            }
        }
        assert_eq!(seen.len(), stopwords().len());
    }

    #[test]
    fn documented_words_are_listed() {
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
