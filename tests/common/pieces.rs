//! Pieces of text that tokenizers and folds each treat their own way, from which the
//! property tests draw their texts: words in several cases and accents (composed and
//! combining), marks alone, the Kelvin sign, other scripts, a character past the BMP,
//! separators, a NUL.
pub const PIECES: [&str; 22] = [
    "ecole",
    "École",
    "ÉCOLE",
    "e\u{301}cole",
    "straße",
    "STRASSE",
    "Kelvin",
    "\u{212A}elvin",
    "日本語",
    "の",
    "😀",
    "ωmega",
    "ΩMEGA",
    "cafe\u{301}",
    "café",
    "\u{308}",
    " ",
    " ",
    "-",
    "a",
    "deploy",
    "\0",
];
