//! Text cut to a length: the fields of items, their atoms, the commands named in them.

/// At most `max` characters, with an ellipsis when cut.
pub fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((end, _)) => {
            let kept: String = text[..end].chars().take(max.saturating_sub(1)).collect();
            format!("{kept}…")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_are_bounded() {
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abc", 3), "abc");
        assert_eq!(cut("ééééé", 3).chars().count(), 3);
    }
}
