//! Folding (lowercase, accents stripped) and the word splitting that prompt terms and
//! overlap share.
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// Lowercase with accents stripped: `Canción` -> `cancion`, `ÑANDÚ` -> `nandu`.
pub fn fold(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    text.to_lowercase()
        .nfd()
        .filter(|c| !is_combining_mark(*c))
        .nfc()
        .collect()
}

/// The folded words of `text`: split on every character that is not a letter or a digit.
pub fn folded_words(text: &str) -> impl Iterator<Item = String> {
    let folded = fold(text);
    folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect::<Vec<_>>()
        .into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_case_and_accents() {
        assert_eq!(fold("Canción"), "cancion");
        assert_eq!(fold("ÑANDÚ über"), "nandu uber");
        assert_eq!(fold("Crème Brûlée"), "creme brulee");
        assert_eq!(fold("plain ascii"), "plain ascii");
        assert_eq!(fold(""), "");
        // Letters without a decomposition are kept as they are.
        assert_eq!(fold("Øre ß 東京"), "øre ß 東京");
    }

    #[test]
    fn splits_on_non_alphanumerics() {
        let words: Vec<_> = folded_words("node.js, it's foo-bar_baz 2024!").collect();
        assert_eq!(
            words,
            ["node", "js", "it", "s", "foo", "bar", "baz", "2024"]
        );
        assert_eq!(folded_words("  ...  ").count(), 0);
    }
}
