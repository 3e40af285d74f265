//! Common-term pruning (optional): FTS5 scores every row that matches, so the commonest
//! query words dominate the cost while adding almost nothing to the ranking (FTS5 floors
//! the IDF of a word in half the rows or more). With a share set, query words present in
//! more than that share of items are dropped while a rarer word remains, and at most 12
//! of the rarest are kept. Quoted phrases are never dropped.
//!
//! Document frequencies come from an fts5vocab table over the index (created in the
//! connection's temp schema, so read-only libraries work): exact for word tokenizers;
//! for trigram, the smallest count among the word's trigrams, an upper bound.
use rusqlite::{Connection, OptionalExtension};

use crate::error::{Context, Result};
use crate::library::fts_records;

pub const MAX_KEPT: usize = 12;

/// A term and the share of items it appears in (an estimate for trigram).
#[derive(Debug, Clone, serde::Serialize)]
pub struct TermShare {
    pub term: String,
    pub share: f64,
}

/// FTS5's row count, from the index's own statistics record (no table scan).
fn row_count(conn: &Connection) -> Result<i64> {
    let block: Option<Vec<u8>> = conn
        .query_row("select block from items_fts_data where id = 1", [], |r| {
            r.get(0)
        })
        .optional()
        .context("reading the index statistics")?;
    if let Some(n) = block.as_deref().and_then(fts_records::rows) {
        return Ok(n as i64);
    }
    conn.query_row("select count(*) from items_fts_docsize", [], |r| r.get(0))
        .context("counting indexed rows")
}

/// The tokens the index holds for a term, approximately as its tokenizer makes them.
fn index_tokens(term: &str, tokenizer: &str) -> Vec<String> {
    let strip =
        tokenizer.contains("remove_diacritics") && !tokenizer.contains("remove_diacritics 0");
    let text = if strip || !tokenizer.starts_with("trigram") {
        recall_core::fold::fold(term)
    } else {
        term.to_lowercase()
    };
    if tokenizer.starts_with("trigram") {
        let chars: Vec<char> = text.chars().collect();
        chars.windows(3).map(|w| w.iter().collect()).collect()
    } else {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect()
    }
}

fn doc_freq(conn: &Connection, term: &str, tokenizer: &str) -> Result<i64> {
    let mut stmt = conn
        .prepare_cached("select doc from temp.recall_vocab where term = ?1")
        .context("reading term statistics")?;
    let mut least = i64::MAX;
    for token in index_tokens(term, tokenizer) {
        let n: i64 = stmt
            .query_row([&token], |r| r.get(0))
            .optional()
            .context("reading term statistics")?
            .unwrap_or(0);
        least = least.min(n);
    }
    Ok(if least == i64::MAX { 0 } else { least })
}

/// Splits terms into (kept, pruned) for a share threshold.
pub fn prune(
    conn: &Connection,
    terms: &[String],
    tokenizer: &str,
    share: f64,
) -> Result<(Vec<String>, Vec<TermShare>)> {
    if terms.len() < 2 {
        return Ok((terms.to_vec(), Vec::new()));
    }
    conn.execute_batch("create virtual table if not exists temp.recall_vocab using fts5vocab(main, items_fts, row)")
        .context("opening the term statistics")?;
    let total = row_count(conn)?.max(1) as f64;
    let mut scored: Vec<(usize, &String, f64)> = Vec::with_capacity(terms.len());
    for (i, t) in terms.iter().enumerate() {
        scored.push((i, t, doc_freq(conn, t, tokenizer)? as f64 / total));
    }
    let phrase = |t: &str| t.contains(' ');
    let rarest = scored.iter().map(|s| s.2).fold(f64::INFINITY, f64::min);
    let mut kept: Vec<(usize, &String, f64)> = Vec::new();
    let mut pruned = Vec::new();
    for s in &scored {
        // A common word goes when something rarer stays.
        if !phrase(s.1) && s.2 > share && s.2 > rarest {
            pruned.push(TermShare {
                term: s.1.clone(),
                share: s.2,
            });
        } else {
            kept.push(*s);
        }
    }
    if kept.len() > MAX_KEPT {
        kept.sort_by(|a, b| a.2.total_cmp(&b.2).then(a.0.cmp(&b.0)));
        for s in kept.drain(MAX_KEPT..) {
            pruned.push(TermShare {
                term: s.1.clone(),
                share: s.2,
            });
        }
        kept.sort_by_key(|s| s.0);
    }
    Ok((kept.into_iter().map(|s| s.1.clone()).collect(), pruned))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_like_the_index() {
        assert_eq!(
            index_tokens("Café", "trigram remove_diacritics 1"),
            ["caf", "afe"]
        );
        assert_eq!(index_tokens("Café", "trigram"), ["caf", "afé"]);
        assert_eq!(
            index_tokens("node.js", "unicode61 remove_diacritics 2"),
            ["node", "js"]
        );
        assert!(index_tokens("ab", "trigram").is_empty());
    }
}
