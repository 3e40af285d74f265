//! How an error message shows a value it names: one short line, whatever the value.

/// Text as a message shows it: at most 60 characters (then `…`), escaped, so one line.
pub fn shown_text(t: &str) -> String {
    const MAX: usize = 60;
    let mut cut: String = t.chars().take(MAX).collect();
    let longer = t.chars().nth(MAX).is_some();
    cut = cut.escape_debug().to_string();
    if longer {
        cut.push('…');
    }
    cut
}

/// A real number as a message shows it: as written when that is short (`2.5`, `-3`,
/// `1000000000000000`), else in scientific notation (`-1e308`, `5e-324`), since the plain
/// form of a large or tiny f64 runs to hundreds of digits.
pub fn shown_real(x: f64) -> String {
    const MAX_PLAIN: usize = 20;
    let plain = x.to_string();
    if plain.len() <= MAX_PLAIN || !x.is_finite() {
        plain
    } else {
        format!("{x:e}")
    }
}
