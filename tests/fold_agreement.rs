//! `recall_core::fold` against FTS5's own folding, measured on every Unicode scalar value
//! (U+0000 to U+10FFFF without the surrogates: 1,112,064 code points) in rusqlite's
//! bundled SQLite. All of them, because the folding applies to any character and FTS5's
//! folding tables cover code points the standard library's tables may not.
//!
//! FTS5 is asked, not re-implemented: every code point is indexed in FTS5 tables with
//! `unicode61 remove_diacritics 2` and `trigram remove_diacritics 1`, and its folded form
//! is read back through an `fts5vocab` instance table.
//!
//! What must agree exactly: every code point FTS5 folds at all (case or accent), and
//! every accent removal either side makes. What may differ, and is counted: case pairs
//! FTS5's tables do not know (both forms stay unchanged in FTS5, so the pair is newer than
//! its Unicode data), and three code points that SQLite's text handling changes before
//! any folding (NUL, U+FFFE, U+FFFF).
use std::collections::BTreeMap;

use recall_core::fold::{fold, folded_words};
use recall_core::prompt::prompt_terms;
use rusqlite::Connection;

/// Code points per indexed document: enough to keep the row count low, small enough to
/// keep documents short.
const BLOCK: u32 = 1024;

/// What unicode61 does with a character between two ASCII letters.
#[derive(Debug, Clone, PartialEq)]
enum Word {
    /// It ends the token: `a` and `b` are two tokens.
    Separator,
    /// It stays inside the token, folded to this (`None`: removed).
    Token(Option<char>),
}

struct Fts5Folding {
    unicode61: BTreeMap<u32, Word>,
    trigram: BTreeMap<u32, Option<char>>,
}

fn scalars() -> impl Iterator<Item = char> {
    (0..=0x10FFFFu32).filter_map(char::from_u32)
}

/// The terms of each document of an FTS5 table, in token order.
fn terms_by_doc(conn: &Connection, vocab: &str) -> BTreeMap<i64, Vec<String>> {
    let mut stmt = conn
        .prepare(&format!(
            "select doc, term from {vocab} order by doc, offset"
        ))
        .expect("vocabulary query");
    let mut out: BTreeMap<i64, Vec<String>> = BTreeMap::new();
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
        .expect("vocabulary rows");
    for row in rows {
        let (doc, term) = row.expect("vocabulary row");
        out.entry(doc).or_default().push(term);
    }
    out
}

fn one_char(s: &str, context: &str) -> Option<char> {
    let mut chars = s.chars();
    let c = chars.next();
    assert!(
        chars.next().is_none(),
        "{context}: FTS5 folded one character into several: {s:?}"
    );
    c
}

/// FTS5's folding of every code point, measured once for all the tests of this file.
fn fts5_folding() -> &'static Fts5Folding {
    static MEASURED: std::sync::OnceLock<Fts5Folding> = std::sync::OnceLock::new();
    MEASURED.get_or_init(measure)
}

fn measure() -> Fts5Folding {
    let _turn = crate::common::heavy();
    let conn = Connection::open_in_memory().expect("in-memory database");
    conn.execute_batch(
        "create virtual table words using fts5(body, tokenize = 'unicode61 remove_diacritics 2');
         create virtual table grams using fts5(body, tokenize = 'trigram remove_diacritics 1');
         create virtual table words_v using fts5vocab(words, instance);
         create virtual table grams_v using fts5vocab(grams, instance);",
    )
    .expect("FTS5 tables");
    let blocks: BTreeMap<u32, Vec<char>> = scalars().fold(BTreeMap::new(), |mut m, c| {
        m.entry(u32::from(c) / BLOCK)
            .or_insert_with(Vec::new)
            .push(c);
        m
    });
    // Trigram has no separators, so its characters are framed by a marker that nothing
    // else folds to (a wrong guess fails the piece count below); block 0, which holds
    // U+0001, takes a marker from outside it.
    let marker = |block: u32| if block == 0 { '\u{4e00}' } else { '\u{1}' };
    {
        let tx = conn.unchecked_transaction().expect("transaction");
        let mut words = tx
            .prepare("insert into words(rowid, body) values (?1, ?2)")
            .expect("insert");
        let mut grams = tx
            .prepare("insert into grams(rowid, body) values (?1, ?2)")
            .expect("insert");
        for (block, chars) in &blocks {
            let body: String = chars.iter().map(|c| format!("a{c}b ")).collect();
            words.execute((block, body)).expect("insert words");
            let m = marker(*block);
            let body: String = chars.iter().flat_map(|&c| [m, c]).chain([m]).collect();
            grams.execute((block, body)).expect("insert grams");
        }
        drop((words, grams));
        tx.commit().expect("commit");
    }

    let mut unicode61 = BTreeMap::new();
    let word_terms = terms_by_doc(&conn, "words_v");
    for (block, chars) in &blocks {
        let terms = word_terms.get(&i64::from(*block)).expect("block indexed");
        let mut terms = terms.iter();
        for &c in chars {
            let context = format!("unicode61, U+{:04X}", u32::from(c));
            let first = terms
                .next()
                .unwrap_or_else(|| panic!("{context}: no token"));
            let word = if first == "a" {
                assert_eq!(terms.next().map(String::as_str), Some("b"), "{context}");
                Word::Separator
            } else {
                let inner = first
                    .strip_prefix('a')
                    .and_then(|t| t.strip_suffix('b'))
                    .unwrap_or_else(|| panic!("{context}: token {first:?}"));
                Word::Token(one_char(inner, &context))
            };
            unicode61.insert(u32::from(c), word);
        }
        assert!(
            terms.next().is_none(),
            "unicode61 block {block}: extra tokens"
        );
    }

    let mut trigram = BTreeMap::new();
    let gram_terms = terms_by_doc(&conn, "grams_v");
    for (block, chars) in &blocks {
        let grams = gram_terms.get(&i64::from(*block)).expect("block indexed");
        // Consecutive trigrams overlap by two characters: the folded text is the first
        // character of each, then the last two of the last one.
        let mut folded: Vec<char> = grams.iter().filter_map(|g| g.chars().next()).collect();
        folded.extend(
            grams
                .last()
                .map(|g| g.chars().skip(1))
                .into_iter()
                .flatten(),
        );
        let m = marker(*block);
        let pieces: Vec<String> = folded
            .split(|&x| x == m)
            .map(|p| p.iter().collect())
            .collect();
        // [m, c1, m, c2, …, m] splits into an empty first and last piece around them.
        assert_eq!(pieces.len(), chars.len() + 2, "trigram block {block}");
        for (&c, piece) in chars.iter().zip(&pieces[1..]) {
            let context = format!("trigram, U+{:04X}", u32::from(c));
            trigram.insert(u32::from(c), one_char(piece, &context));
        }
    }
    Fts5Folding { unicode61, trigram }
}

fn hex(s: &str) -> String {
    s.chars()
        .map(|c| format!("U+{:04X}", u32::from(c)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Consecutive code points as `U+1C90–U+1CBF` ranges, for the report.
fn ranges(cps: &[char]) -> String {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for &c in cps {
        let cp = u32::from(c);
        match out.last_mut() {
            Some((_, end)) if *end + 1 == cp => *end = cp,
            _ => out.push((cp, cp)),
        }
    }
    out.iter()
        .map(|&(a, b)| {
            if a == b {
                format!("U+{a:04X}")
            } else {
                format!("U+{a:04X}–U+{b:04X}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[test]
fn folding_agrees_with_fts5_on_every_code_point() {
    let fts = fts5_folding();
    let mut compared = 0;
    let mut equal = 0;
    let mut sqlite_input = Vec::new();
    let mut newer_case_pairs = Vec::new();
    let mut disagreements = Vec::new();
    let mut separators_in_our_words = Vec::new();
    let (mut fts_removed, mut ours_removed) = (Vec::new(), Vec::new());
    let (mut fts_unaccented, mut ours_unaccented) = (Vec::new(), Vec::new());
    for c in scalars() {
        compared += 1;
        let cp = u32::from(c);
        let tri = fts.trigram[&cp];
        // Both tokenizers fold with the same function: where unicode61 keeps the
        // character in a token, it must fold it as trigram does.
        match &fts.unicode61[&cp] {
            Word::Token(folded) => assert_eq!(*folded, tri, "U+{cp:04X}: unicode61 vs trigram"),
            Word::Separator => {
                if recall_core::fold::is_word_char(c) {
                    separators_in_our_words.push(c);
                }
            }
        }
        let ours = fold(&c.to_string());
        let theirs: String = tri.into_iter().collect();
        // Accent removal, on both sides: a character gone, or a non-ASCII letter become
        // an ASCII one.
        if theirs.is_empty() && c != '\0' {
            fts_removed.push(c);
        }
        if ours.is_empty() {
            ours_removed.push(c);
        }
        if !c.is_ascii() && theirs.is_ascii() && !theirs.is_empty() {
            fts_unaccented.push(c);
        }
        if !c.is_ascii() && ours.is_ascii() && !ours.is_empty() {
            ours_unaccented.push(c);
        }
        if ours == theirs {
            equal += 1;
            continue;
        }
        let single = |s: &str| {
            let mut it = s.chars();
            it.next().filter(|_| it.next().is_none())
        };
        match (c, tri, single(&ours)) {
            // FTS5's trigram loop skips code 0 like a removed accent; SQLite reads the
            // noncharacters U+FFFE and U+FFFF as U+FFFD before any tokenizer sees them.
            ('\0', None, Some('\0')) => sqlite_input.push(c),
            ('\u{FFFE}' | '\u{FFFF}', Some('\u{FFFD}'), Some(o)) if o == c => sqlite_input.push(c),
            // A case pair FTS5 does not know: FTS5 leaves both forms as they are, and
            // ours is the same letter (same uppercase), not an accent removal.
            (_, Some(t), Some(o))
                if t == c
                    && fts.trigram[&u32::from(o)] == Some(o)
                    && o.to_uppercase().eq(c.to_uppercase())
                    && !o.is_ascii() =>
            {
                newer_case_pairs.push(c)
            }
            _ => disagreements.push(format!(
                "U+{cp:04X} {c:?}: FTS5 {}, ours {}",
                hex(&theirs),
                hex(&ours)
            )),
        }
    }
    eprintln!(
        "fold vs FTS5 (SQLite {}): {compared} code points, {equal} equal; \
         removed alone: FTS5 {}, ours {}; folded to an ASCII letter: FTS5 {}, ours {}",
        rusqlite::version(),
        fts_removed.len(),
        ours_removed.len(),
        fts_unaccented.len(),
        ours_unaccented.len(),
    );
    eprintln!(
        "  changed by SQLite's text handling before folding: {} ({})",
        sqlite_input.len(),
        ranges(&sqlite_input)
    );
    eprintln!(
        "  case pairs FTS5's tables do not know (we fold them, FTS5 keeps them): {} ({})",
        newer_case_pairs.len(),
        ranges(&newer_case_pairs)
    );
    eprintln!(
        "  word characters of ours that unicode61 reads as separators (tokenizing, not \
         folding; report only): {}",
        separators_in_our_words.len()
    );
    assert!(
        disagreements.is_empty(),
        "{} code points fold differently:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    assert_eq!(fts_removed, ours_removed, "accents removed on their own");
    assert_eq!(fts_unaccented, ours_unaccented, "letters folded to ASCII");
    assert_eq!(sqlite_input, ['\0', '\u{FFFE}', '\u{FFFF}']);
    // The measurement itself: FTS5 removed its 25 Latin accents and unaccented about 500
    // letters (upper and lower case), so an empty comparison cannot pass.
    assert!(fts_removed.len() >= 25 && fts_unaccented.len() >= 400);
    assert!(equal > 1_100_000, "{equal}");
}

/// `recall_column_filter` narrows a search only where FTS5 finds a token in the value,
/// since an empty phrase matches no row: checked on every code point.
#[test]
fn column_filters_appear_only_where_fts5_finds_a_token() {
    use recall_core::fts_match::column_filter;
    let fts = fts5_folding();
    let mut trigram_wrong = Vec::new();
    let mut unicode61_gaps = Vec::new();
    for c in scalars() {
        let cp = u32::from(c);
        // Three of the character: trigram keeps it unless its folding removes it.
        let three: String = [c; 3].iter().collect();
        let filtered = !column_filter("p", &three, "trigram remove_diacritics 1").is_empty();
        let kept = fts.trigram[&cp].is_some();
        if filtered != kept && c != '\0' {
            trigram_wrong.push(c);
        }
        let filtered = !column_filter("p", &c.to_string(), "unicode61").is_empty();
        if filtered && !matches!(fts.unicode61[&cp], Word::Token(Some(_))) {
            unicode61_gaps.push(c);
        }
    }
    eprintln!(
        "column filter: trigram disagrees on {}; unicode61 filters a separator for {} ({})",
        trigram_wrong.len(),
        unicode61_gaps.len(),
        ranges(&unicode61_gaps)
    );
    assert!(trigram_wrong.is_empty(), "{}", ranges(&trigram_wrong));
    // What remains are letters by Unicode's Alphabetic property that FTS5's category table
    // calls symbols (circled Latin letters) or once called marks; no combining mark.
    assert!(
        unicode61_gaps
            .iter()
            .all(|&c| !recall_core::fold::is_combining_mark(c)),
        "{}",
        ranges(&unicode61_gaps)
    );
}

/// Titles in scripts whose marks are letters: every prompt term of a title must be found
/// by FTS5 in that title, under both tokenizers, and relate the title to itself.
#[test]
fn prompt_terms_find_their_titles_in_fts5() {
    let titles = [
        "ダウンロード ガイド",
        "डेटाबेस माइग्रेशन",
        "ฐานข้อมูล สำรอง",
        "Αθήνα ΟΔΟΣ",
        "Ёлка праздник",
        "Migración Übersicht Ǖnico",
        "Tiếng Việt",
    ];
    let conn = Connection::open_in_memory().expect("in-memory database");
    sqlite_recall_rusqlite::register(&conn).expect("functions");
    conn.execute_batch(
        "create virtual table words using fts5(title, tokenize = 'unicode61 remove_diacritics 2');
         create virtual table grams using fts5(title, tokenize = 'trigram remove_diacritics 1');",
    )
    .expect("FTS5 tables");
    for (i, title) in titles.iter().enumerate() {
        for table in ["words", "grams"] {
            conn.execute(
                &format!("insert into {table}(rowid, title) values (?1, ?2)"),
                (i as i64, title),
            )
            .expect("insert");
        }
    }
    for (i, title) in titles.iter().enumerate() {
        let terms = prompt_terms(title, 20);
        assert!(terms.len() >= 2, "{title}: {terms:?}");
        // Folding keeps words whole: the terms are the title's own words, folded.
        assert_eq!(terms, folded_words(title).collect::<Vec<_>>(), "{title}");
        for term in &terms {
            for table in ["words", "grams"] {
                let found: Vec<i64> = conn
                    .prepare(&format!(
                        "select rowid from {table} where {table} match recall_match(?1, 1)"
                    ))
                    .and_then(|mut s| {
                        s.query_map([term], |r| r.get(0))?
                            .collect::<rusqlite::Result<_>>()
                    })
                    .expect("match");
                assert!(
                    found.contains(&(i as i64)),
                    "{table}: term {term:?} of {title:?} finds {found:?}"
                );
            }
        }
        let related: i64 = conn
            .query_row("select recall_related(?1, ?1)", [title], |r| r.get(0))
            .expect("related");
        assert_eq!(related, 1, "{title}");
    }
}
