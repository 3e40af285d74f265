//! `recall_core::runs` against FTS5: under each folding of the trigram tokenizer, the
//! items FTS5 finds a word in are exactly the items of the runs FTS5 finds it in, each
//! run indexed alone with the same tokenizer (docs/performance.md#the-table-of-runs).
//! Texts are drawn from characters each folding treats its own way: capitals, accents
//! composed and combining, marks and modifier symbols alone, joiners, ligatures, other
//! scripts, numbers of letters, characters past the BMP, a NUL (which FTS5 skips); words
//! are drawn from the texts themselves, folded as a prompt's words are, so that most are
//! found.

use std::collections::HashSet;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use recall_core::fold::{fold, is_word_char};
use recall_core::runs::runs;
use rusqlite::Connection;

use crate::common::pieces::PIECES;

const TOKENIZERS: [&str; 3] = [
    "trigram",
    "trigram remove_diacritics 1",
    "trigram case_sensitive 1",
];

/// Besides the common pieces: a no-break space, modifier symbols alone (spacing
/// accents), joiners, a dotted capital I, a titlecase digraph, a Roman numeral, a
/// circled letter, an underscore, a digit, a ligature, Devanagari with its vowel signs.
const MORE: [&str; 14] = [
    "\u{a0}",
    "¨",
    "´",
    "ˆ",
    "\u{200D}",
    "\u{200B}",
    "İ",
    "ǅ",
    "Ⅻ",
    "ⓐ",
    "_",
    "1",
    "ﬁ",
    "डेटा",
];

fn piece(rng: &mut StdRng) -> &'static str {
    let i = rng.random_range(0..PIECES.len() + MORE.len());
    PIECES
        .get(i)
        .copied()
        .unwrap_or_else(|| MORE[i - PIECES.len()])
}

fn ids(conn: &Connection, sql: &str, phrase: &str) -> Vec<i64> {
    let mut stmt = conn.prepare(sql).expect("prepare");
    let rows = stmt
        .query_map([phrase], |r| r.get(0))
        .expect("query")
        .collect::<Result<Vec<i64>, _>>();
    rows.expect("rows")
}

#[test]
fn a_word_is_found_in_a_text_where_it_is_found_in_one_of_its_runs() {
    let mut rng = StdRng::seed_from_u64(55);
    for tokenizer in TOKENIZERS {
        let conn = Connection::open_in_memory().expect("open");
        conn.execute_batch(&format!(
            "create virtual table texts using fts5(text, tokenize = '{tokenizer}');
             create virtual table runs using fts5(run, item unindexed, tokenize = '{tokenizer}');"
        ))
        .expect("tables");
        let mut texts = Vec::new();
        for id in 1..=300i64 {
            let pieces = rng.random_range(1..12);
            let text: String = (0..pieces).map(|_| piece(&mut rng)).collect();
            conn.execute(
                "insert into texts(rowid, text) values (?1, ?2)",
                rusqlite::params![id, text],
            )
            .expect("text");
            let mut seen = HashSet::new();
            for run in runs(&text).filter(|run| seen.insert(*run)) {
                conn.execute(
                    "insert into runs(run, item) values (?1, ?2)",
                    rusqlite::params![run, id],
                )
                .expect("run");
            }
            texts.push(text);
        }
        let (mut checked, mut found) = (0, 0);
        while checked < 600 {
            let source = &texts[rng.random_range(0..texts.len())];
            // A prompt's word is folded; under case_sensitive, FTS5 folds nothing.
            let chars: Vec<char> = if tokenizer.contains("case_sensitive") {
                source.chars().collect()
            } else {
                fold(source).chars().collect()
            };
            if chars.is_empty() {
                continue;
            }
            let start = rng.random_range(0..chars.len());
            let end = (start + rng.random_range(3..9)).min(chars.len());
            let word: String = chars[start..end].iter().collect();
            if word.chars().count() < 3 || !word.chars().all(is_word_char) {
                continue;
            }
            let phrase = format!("\"{word}\"");
            let in_texts = ids(
                &conn,
                "select rowid from texts where texts match ?1 order by rowid",
                &phrase,
            );
            let in_runs = ids(
                &conn,
                "select distinct item from runs where runs match ?1 order by item",
                &phrase,
            );
            assert_eq!(
                in_texts, in_runs,
                "{tokenizer}: {word:?} is in the texts {in_texts:?} but in the runs of {in_runs:?}"
            );
            checked += 1;
            found += usize::from(!in_texts.is_empty());
        }
        // The words are drawn from the texts: most are found, so the lists compared hold
        // items, not only nothing.
        assert!(
            found >= 500,
            "{tokenizer}: only {found} of {checked} words found"
        );
    }
}
