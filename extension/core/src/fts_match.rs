//! Safe FTS5 MATCH construction from free text (`recall_match`, `recall_terms`; docs/functions.md).
//!
//! Every term ends up inside an FTS5 string ("..."), the one context in which FTS5 reads
//! no operator, so nothing a user types can change the meaning of the query.
use std::collections::HashSet;

use crate::fold::{fold, is_combining_mark};
use crate::stopwords::is_stopword;

/// The minimum term length of the trigram tokenizer, the default.
pub const DEFAULT_MIN_CHARS: usize = 3;
/// At most this many terms reach FTS5.
pub const MAX_TERMS: usize = 64;

/// Quotation marks (Unicode's Quotation_Mark characters). Each language gives them its
/// own roles: German „…“ closes with the mark English opens with, Swedish writes ”…”,
/// Danish »…« reverses French «…». So any of them is trimmed from either end of a word.
const QUOTES: &[char] = &[
    '"', '\'', '«', '»', '‘', '’', '‚', '‛', '“', '”', '„', '‟', '‹', '›', '⹂', '「', '」', '『',
    '』', '〝', '〞', '〟', '﹁', '﹂', '﹃', '﹄', '＂', '＇', '｢', '｣',
];
/// Opening brackets (ASCII, mathematical, CJK, full-width, small and vertical forms,
/// Tibetan, Ogham) and the inverted marks that open Spanish sentences.
const OPENING: &[char] = &[
    '(', '[', '{', '<', '¿', '¡', '⟨', '⟪', '⟦', '〈', '〈', '《', '【', '〔', '〖', '〘', '〚',
    '（', '［', '｛', '｟', '＜', '﹙', '﹛', '﹝', '︵', '︷', '︹', '︻', '︽', '︿', '⦅', '⁅',
    '⸨', '༺', '༼', '᚛',
];
/// Closing brackets, the partners of `OPENING`, and the punctuation that ends a word in a
/// sentence: ASCII, full-width and half-width, ideographic, Arabic, Indic, Armenian,
/// Ethiopic, Myanmar and Khmer, the ellipsis and the doubled marks.
const CLOSING: &[char] = &[
    ')', ']', '}', '>', '⟩', '⟫', '⟧', '〉', '〉', '》', '】', '〕', '〗', '〙', '〛', '）', '］',
    '｝', '｠', '＞', '﹚', '﹜', '﹞', '︶', '︸', '︺', '︼', '︾', '﹀', '⦆', '⁆', '⸩', '༻',
    '༽', '᚜', '?', '!', '.', ',', ';', ':', '？', '！', '，', '。', '：', '；', '．', '、', '｡',
    '､', '…', '‼', '⁇', '⁈', '⁉', '؟', '،', '؛', '۔', '।', '॥', '։', '።', '፣', '፤', '፧', '။', '၊',
    '។', '៕',
];

/// A word without the quotes, brackets and punctuation around it; inner characters stay.
fn trim_word(word: &str) -> &str {
    word.trim_start_matches(|c| QUOTES.contains(&c) || OPENING.contains(&c))
        .trim_end_matches(|c| QUOTES.contains(&c) || CLOSING.contains(&c))
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Term {
    text: String,
    phrase: bool,
}

/// NUL ends a C string, and FTS5 reads its query as one: inside a term it would cut the
/// query short and leave a string unterminated. It separates words like whitespace.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == '\0'
}

/// The minimum term length a tokenizer spec implies: 3 for trigram, 1 for any other.
pub fn min_chars_for_tokenizer(spec: &str) -> usize {
    if is_trigram(spec) {
        3
    } else {
        1
    }
}

/// Whether `spec` names FTS5's trigram tokenizer (its first word, quoted or not).
pub fn is_trigram(spec: &str) -> bool {
    spec.split(|c: char| c.is_whitespace())
        .find(|w| !w.is_empty())
        .unwrap_or("")
        .trim_matches(|c| matches!(c, '"' | '\'' | '`' | '[' | ']'))
        .eq_ignore_ascii_case("trigram")
}

/// Whether `spec` names sqlite-recall's own tokenizer (`tokenize = 'recall'`).
fn is_recall_tokenizer(spec: &str) -> bool {
    spec.split_whitespace()
        .next()
        .map(|w| w.trim_matches(|c| matches!(c, '"' | '\'' | '`' | '[' | ']')))
        .is_some_and(|w| w.eq_ignore_ascii_case("recall"))
}

/// Steps 1 and 2: words and quoted phrases, edge punctuation stripped from words.
fn split(text: &str) -> Vec<Term> {
    let chars: Vec<char> = text.chars().collect();
    let mut terms = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if is_separator(c) {
            i += 1;
            continue;
        }
        if c == '"' {
            match chars[i + 1..].iter().position(|&c| c == '"') {
                Some(offset) => {
                    let end = i + 1 + offset;
                    let inner: String = chars[i + 1..end].iter().collect();
                    let phrase = inner
                        .split(is_separator)
                        .filter(|w| !w.is_empty())
                        .collect::<Vec<_>>()
                        .join(" ");
                    terms.push(Term {
                        text: phrase,
                        phrase: true,
                    });
                    i = end + 1;
                }
                // No closing partner: drop the quote, read the rest as words.
                None => i += 1,
            }
            continue;
        }
        let start = i;
        while i < chars.len() && !is_separator(chars[i]) {
            i += 1;
        }
        let word: String = chars[start..i].iter().collect();
        terms.push(Term {
            text: trim_word(&word).to_string(),
            phrase: false,
        });
    }
    terms
}

/// How `recall_match` reads a text: the shortest term kept, whether stop words are
/// dropped while another term remains, and whether words are folded to their stems (for
/// a trigram index, whose substring matching lets a stem find every inflection).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchRules {
    pub min_chars: usize,
    pub drop_stopwords: bool,
    pub stems: bool,
}

impl MatchRules {
    /// The rules for a library's tokenizer: trigram keeps terms of 3 characters and
    /// folds words to stems; any other keeps every term and every word as written.
    pub fn for_tokenizer(spec: &str, drop_stopwords: bool) -> MatchRules {
        MatchRules {
            min_chars: min_chars_for_tokenizer(spec),
            drop_stopwords,
            stems: is_trigram(spec),
        }
    }
}

/// Drops the stop words among `terms` while another term remains.
fn drop_stopwords(terms: &mut Vec<Term>) {
    let is_stop = |t: &Term| !t.phrase && is_stopword(&fold(&t.text));
    if terms.iter().any(|t| !is_stop(t)) {
        terms.retain(|t| !is_stop(t));
    }
}

/// The terms `recall_match` searches for, unquoted, in order (the steps of docs/functions.md).
pub fn match_terms(text: &str, min_chars: usize, drop: bool) -> Vec<String> {
    match_terms_with(
        text,
        MatchRules {
            min_chars,
            drop_stopwords: drop,
            stems: false,
        },
    )
}

/// `match_terms` under `rules`. With stems, each word (not a quoted phrase) stands as its
/// stem (`stem::substring_stem`), which matches a superset of the word's rows: stop words
/// are judged on the word as written and again on the stem ("where" is no "wher").
pub fn match_terms_with(text: &str, rules: MatchRules) -> Vec<String> {
    let min_chars = rules.min_chars.max(1);
    let long_enough = |t: &Term| t.text.chars().count() >= min_chars;
    let mut terms: Vec<Term> = split(text).into_iter().filter(long_enough).collect();
    if rules.drop_stopwords {
        drop_stopwords(&mut terms);
    }
    if rules.stems {
        for t in terms.iter_mut().filter(|t| !t.phrase) {
            if let Some(stem) = crate::stem::substring_stem(&t.text) {
                t.text = stem;
            }
        }
        if rules.drop_stopwords {
            drop_stopwords(&mut terms);
        }
        terms.retain(long_enough);
    }
    let mut seen = HashSet::new();
    terms
        .into_iter()
        .filter(|t| seen.insert(t.text.to_lowercase()))
        .take(MAX_TERMS)
        .map(|t| t.text)
        .collect()
}

/// Quotes one term as an FTS5 string.
pub fn quote(term: &str) -> String {
    let mut out = String::with_capacity(term.len() + 2);
    out.push('"');
    for c in term.chars() {
        if c == '"' {
            out.push('"');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// Joins terms as `"a" OR "b"`; no terms gives `""`, which matches nothing.
pub fn to_match<S: AsRef<str>>(terms: &[S]) -> String {
    if terms.is_empty() {
        return "\"\"".to_string();
    }
    terms
        .iter()
        .map(|t| quote(t.as_ref()))
        .collect::<Vec<_>>()
        .join(" OR ")
}

/// An FTS5 column filter that narrows a query to rows whose `column` holds `value`:
/// ` AND column : "value"`, to append to a match expression. Empty where the tokenizer
/// would find no token in the value (under 3 characters after folding for trigram; no
/// letter or digit for the others), since FTS5 matches nothing for an empty phrase. It narrows by tokens,
/// not exactly: pair it with an exact comparison.
pub fn column_filter(column: &str, value: &str, tokenizer: &str) -> String {
    let searchable = if is_recall_tokenizer(tokenizer) {
        crate::tokenize::has_token(value)
    } else if min_chars_for_tokenizer(tokenizer) == 3 {
        // Counted as FTS5 counts them, after folding: trigram with remove_diacritics drops
        // a decomposed accent, and a value of three characters of which it keeps two
        // would match no row at all.
        fold(value).chars().count() >= 3
    } else {
        // unicode61 ends a token at a combining mark even where Unicode counts the mark
        // alphabetic (Indic vowel signs): a value of marks alone holds no token.
        value
            .chars()
            .any(|c| c.is_alphanumeric() && !is_combining_mark(c))
    };
    if !searchable || value.contains('\0') {
        return String::new();
    }
    format!(" AND {column} : {}", quote(value))
}

/// Whether `name` can stand as a column name in an FTS5 query without quoting.
pub fn is_plain_column(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `recall_match`: free text to an FTS5 query in which nothing acts as an operator.
pub fn build_match(text: &str, min_chars: usize, drop_stopwords: bool) -> String {
    to_match(&match_terms(text, min_chars, drop_stopwords))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(text: &str) -> String {
        build_match(text, DEFAULT_MIN_CHARS, false)
    }

    fn t(text: &str, min: usize) -> Vec<String> {
        match_terms(text, min, false)
    }

    #[test]
    fn spec_examples() {
        assert_eq!(
            m(r#"analytics shop "consent banner""#),
            r#""analytics" OR "shop" OR "consent banner""#
        );
        assert_eq!(
            m("When did Melanie paint a sunrise?"),
            r#""When" OR "did" OR "Melanie" OR "paint" OR "sunrise""#
        );
        assert_eq!(
            build_match("When did Melanie paint a sunrise?", 3, true),
            r#""Melanie" OR "paint" OR "sunrise""#
        );
        assert_eq!(
            m("NEAR(a b) AND c* -x ^y col:z OR"),
            r#""NEAR(a" OR "AND" OR "col:z""#
        );
        assert_eq!(
            t("NEAR(a b) AND c* -x ^y col:z OR", 1),
            ["NEAR(a", "b", "AND", "c*", "-x", "^y", "col:z", "OR"]
        );
    }

    #[test]
    fn nothing_left_is_the_empty_string_query() {
        assert_eq!(m(""), r#""""#);
        assert_eq!(m("a an of"), r#""""#);
        assert_eq!(m("   \t\n "), r#""""#);
        assert_eq!(m(r#""" "?!""#), r#""""#);
    }

    #[test]
    fn unmatched_quote_is_dropped() {
        assert_eq!(t(r#""consent banner"#, 1), ["consent", "banner"]);
        assert_eq!(t(r#"abc "def ghi"#, 1), ["abc", "def", "ghi"]);
    }

    #[test]
    fn quote_inside_word_is_kept_and_doubled() {
        assert_eq!(t(r#"foo"bar"#, 1), [r#"foo"bar"#]);
        assert_eq!(m(r#"foo"bar"#), r#""foo""bar""#);
        // The phrase opener finds the next quote even inside a later word.
        assert_eq!(t(r#""abc de"fgh"#, 1), ["abc de", "fgh"]);
    }

    #[test]
    fn phrase_whitespace_collapses_and_trims() {
        assert_eq!(t("\"  consent \t\n banner  \"", 1), ["consent banner"]);
        assert_eq!(t("\"a\u{00a0}\u{2003}b\"", 1), ["a b"]);
    }

    #[test]
    fn unicode_whitespace_separates_words() {
        assert_eq!(
            t("foo\u{00a0}bar\u{3000}baz\u{2028}qux", 1),
            ["foo", "bar", "baz", "qux"]
        );
    }

    #[test]
    fn nul_separates_words() {
        assert_eq!(t("abc\0def", 1), ["abc", "def"]);
        assert_eq!(t("\"ab\0cd\"", 1), ["ab cd"]);
    }

    #[test]
    fn edge_punctuation_is_stripped_repeatedly() {
        assert_eq!(t("(¿sunrise?!).", 1), ["sunrise"]);
        assert_eq!(
            t("«hola» “quoted” ‘single’ 'x' [y] {z} <w>", 1),
            ["hola", "quoted", "single", "x", "y", "z", "w"]
        );
        assert_eq!(t("end. end, end; end:", 1), ["end"]);
    }

    #[test]
    fn quotes_of_every_language_are_trimmed_from_either_end() {
        assert_eq!(
            t("„Hallo“ ‚Gruß‘ »Welt« ”Hej” ›x‹ ‹y› ⹂z“", 1),
            ["Hallo", "Gruß", "Welt", "Hej", "x", "y", "z"]
        );
        assert_eq!(
            t("「東京都」 『本』 〝引用〟 ＂全角＂ ＇単＇ ｢半｣ ﹁縦﹂", 1),
            ["東京都", "本", "引用", "全角", "単", "半", "縦"]
        );
    }

    #[test]
    fn brackets_and_end_punctuation_of_every_script() {
        assert_eq!(
            t(
                "〈甲〉 《乙》 【丙】 （丁） ［戊］ ｛己｝ ⟨a⟩ ﹙b﹚ ︵c︶ 〔d〕 ＜e＞",
                1
            ),
            ["甲", "乙", "丙", "丁", "戊", "己", "a", "b", "c", "d", "e"]
        );
        assert_eq!(
            t(
                "本当？ はい！ 东京， 完了。 注意： 以上； 次、 هل؟ यह। wait… what‼",
                1
            ),
            [
                "本当", "はい", "东京", "完了", "注意", "以上", "次", "هل", "यह", "wait", "what"
            ]
        );
        // Only the edges: inner marks stay, and brackets keep their direction.
        assert_eq!(t("„a“b“ )x( 東京。大阪", 1), ["a“b", ")x(", "東京。大阪"]);
    }

    #[test]
    fn inner_and_other_edge_characters_stay() {
        assert_eq!(
            t("foo-bar test:consent node.js it's c++ C# -v .env $HOME", 1),
            [
                "foo-bar",
                "test:consent",
                "node.js",
                "it's",
                "c++",
                "C#",
                "-v",
                ".env",
                "$HOME"
            ]
        );
    }

    #[test]
    fn phrases_keep_their_punctuation() {
        assert_eq!(t("\"sunrise?\"", 1), ["sunrise?"]);
    }

    #[test]
    fn min_chars_counts_characters_not_bytes() {
        // "été" is 3 characters and 5 bytes; "éé" 2 characters and 4 bytes.
        assert_eq!(t("été éé 東京都 東京", 3), ["été", "東京都"]);
        assert_eq!(t("ab abc", 2), ["ab", "abc"]);
        assert_eq!(t("a ab", 1), ["a", "ab"]);
        // A phrase counts its characters, inner space included.
        assert_eq!(t("\"a b\" \"ab\"", 3), ["a b"]);
        // 0 behaves like 1: empty terms never survive.
        assert_eq!(t("a \"\"", 0), ["a"]);
    }

    #[test]
    fn dedupe_is_case_insensitive_keeping_first_spelling() {
        assert_eq!(t("Foo foo FOO bar Bar", 1), ["Foo", "bar"]);
        assert_eq!(t("ÉTÉ été", 1), ["ÉTÉ"]);
        assert_eq!(
            t("\"Consent Banner\" \"consent banner\"", 1),
            ["Consent Banner"]
        );
    }

    #[test]
    fn at_most_64_terms_in_order() {
        let text: String = (0..100).map(|i| format!("w{i:03} ")).collect();
        let terms = t(&text, 1);
        assert_eq!(terms.len(), 64);
        assert_eq!(terms[0], "w000");
        assert_eq!(terms[63], "w063");
        // Duplicates do not use up places.
        let text: String = (0..100).map(|i| format!("dup w{i:03} ")).collect();
        let terms = t(&text, 1);
        assert_eq!(terms.len(), 64);
        assert_eq!(terms[1], "w000");
        assert_eq!(terms[63], "w062");
    }

    #[test]
    fn stopwords_dropped_only_when_something_remains() {
        assert_eq!(match_terms("The Who", 3, true), ["The", "Who"]);
        assert_eq!(match_terms("the analytics", 3, true), ["analytics"]);
        // Stop words compare folded; quoted phrases are never dropped.
        assert_eq!(
            match_terms("CUÁNDO arreglé \"the who\"", 3, true),
            ["arreglé", "the who"]
        );
        // A remaining phrase is enough for words to be dropped.
        assert_eq!(match_terms("what \"the who\"", 3, true), ["the who"]);
        // Short words are dropped first by length, then stop words are judged.
        assert_eq!(match_terms("a the", 1, true), ["a", "the"]);
    }

    #[test]
    fn tokenizer_specs() {
        assert_eq!(min_chars_for_tokenizer("trigram remove_diacritics 1"), 3);
        assert_eq!(min_chars_for_tokenizer("trigram"), 3);
        assert_eq!(min_chars_for_tokenizer("'trigram' case_sensitive 0"), 3);
        assert_eq!(min_chars_for_tokenizer("unicode61 remove_diacritics 2"), 1);
        assert_eq!(min_chars_for_tokenizer("porter unicode61"), 1);
        assert_eq!(min_chars_for_tokenizer(""), 1);
    }

    #[test]
    fn column_filters() {
        assert_eq!(
            column_filter("project", "shop", "trigram"),
            r#" AND project : "shop""#
        );
        assert_eq!(column_filter("project", "ui", "trigram"), "");
        assert_eq!(
            column_filter("project", "ui", "unicode61"),
            r#" AND project : "ui""#
        );
        assert_eq!(column_filter("project", "@@@", "unicode61"), "");
        assert_eq!(
            column_filter("project", "@@@", "trigram remove_diacritics 1"),
            r#" AND project : "@@@""#
        );
        assert_eq!(
            column_filter("project", "東京", "unicode61"),
            r#" AND project : "東京""#
        );
        assert_eq!(
            column_filter("project", r#"a "b""#, "unicode61"),
            r#" AND project : "a ""b""""#
        );
        assert_eq!(column_filter("project", "a\0bc", "trigram"), "");
        // Three characters, of which FTS5's folding keeps two: no filter, since FTS5
        // would match nothing.
        assert_eq!(
            column_filter("project", "ne\u{301}", "trigram remove_diacritics 1"),
            ""
        );
        assert_eq!(
            column_filter("project", "ne\u{301}s", "trigram remove_diacritics 1"),
            " AND project : \"ne\u{301}s\""
        );
        // A Devanagari vowel sign alone is no unicode61 token.
        assert_eq!(column_filter("project", "\u{947}", "unicode61"), "");
        assert_eq!(
            column_filter("project", "डे", "unicode61"),
            " AND project : \"डे\""
        );
        assert!(is_plain_column("project") && is_plain_column("_x1"));
        assert!(!is_plain_column("1x") && !is_plain_column("a-b") && !is_plain_column(""));
    }

    #[test]
    fn trigram_rules_fold_words_to_stems() {
        let rules = |drop| MatchRules::for_tokenizer("trigram remove_diacritics 1", drop);
        assert!(rules(true).stems && rules(true).min_chars == 3);
        assert!(!MatchRules::for_tokenizer("porter unicode61", true).stems);
        assert_eq!(
            match_terms_with("When did Melanie paint sunrises?", rules(true)),
            ["melani", "paint", "sunris"]
        );
        // Stop words go before stemming ("where" is no "wher") and after it ("others"
        // is "other"); quoted phrases stay as written.
        assert_eq!(
            match_terms_with("where others went \"painted walls\"", rules(true)),
            ["went", "painted walls"]
        );
        // Without dropping, stems stand in for every word that has one.
        assert_eq!(
            match_terms_with("Where Caroline's groups", rules(false)),
            ["wher", "carolin", "group"]
        );
        // Two words with one stem give one term.
        assert_eq!(
            match_terms_with("painting painted getUsers ENOENT", rules(true)),
            ["paint", "getUsers", "ENOENT"]
        );
        // Other tokenizers, and plain lengths, keep words as written.
        assert_eq!(
            match_terms_with(
                "painting groups",
                MatchRules::for_tokenizer("unicode61", true)
            ),
            ["painting", "groups"]
        );
        assert_eq!(
            match_terms("painting groups", 3, true),
            ["painting", "groups"]
        );
    }

    #[test]
    fn quoting() {
        assert_eq!(quote(r#"a"b""c"#), r#""a""b""""c""#);
        assert_eq!(to_match(&["x", "y z"]), r#""x" OR "y z""#);
    }
}
