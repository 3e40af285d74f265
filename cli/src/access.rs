//! Access globs: the sources a caller may read, as SQLite `GLOB` patterns.

/// Refuses a pattern that would not mean what it seems to: empty, or a bracket negated
/// with `!` (shell style), which SQLite's GLOB reads as the character `!` — `[!a]*`
/// would *allow* sources starting with `a`. SQLite negates with `^`.
pub fn check_glob(name: &str, glob: &str) -> Result<(), String> {
    if glob.is_empty() {
        return Err(format!(
            "{name} has an empty pattern: give a glob such as 'agent-*'"
        ));
    }
    let mut chars = glob.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '[' {
            continue;
        }
        if chars.peek() == Some(&'!') {
            return Err(format!(
                "{name} {glob:?}: SQLite GLOB negates a bracket with ^, not ! ([!a] would match '!' or 'a'): write [^…]"
            ));
        }
        // Inside a bracket, a leading ^ and then a leading ] are members, not syntax.
        if chars.peek() == Some(&'^') {
            chars.next();
        }
        if chars.peek() == Some(&']') {
            chars.next();
        }
        for c in chars.by_ref() {
            if c == ']' {
                break;
            }
        }
    }
    Ok(())
}

/// Whether a caller bound by `allow` (`Globals::allow`: None is every source) may read
/// items of `source`: the rule of `recall_source_allowed`, whose matching is SQLite's
/// GLOB written once in `recall_core::glob`.
pub fn allowed(allow: &Option<Vec<String>>, source: &str) -> bool {
    allow
        .as_ref()
        .is_none_or(|globs| globs.iter().any(|g| recall_core::glob::glob(g, source)))
}

/// `--allow` as clap reads it.
pub fn parse_allow_flag(glob: &str) -> Result<String, String> {
    check_glob("--allow", glob).map(|()| glob.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bang_brackets_are_refused_carets_kept() {
        assert!(check_glob("g", "[!a]*").is_err());
        assert!(check_glob("g", "x[!ab]").is_err());
        assert!(check_glob("g", "").is_err());
        for ok in [
            "agent-*", "[^a]*", "[]!]*", "[[!]x", "[^]!]", "a!b", "[a-z]!",
        ] {
            assert_eq!(check_glob("g", ok), Ok(()), "{ok}");
        }
    }
}
