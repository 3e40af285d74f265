//! FTS5's `bm25()`, computed from the number of rows holding each phrase given by the
//! caller instead of counted by FTS5 at the start of every query (one pass over the
//! index per phrase). `sql/related.sql` counts those rows once for its rule, and its
//! quick pool ranks rows by the phrases of a query it does not run; with the counts
//! FTS5 would make, the score is FTS5's to the bit: the same constants, the same
//! operations in the same order (`ext/fts5/fts5_aux.c`).

/// BM25's `k1` and `b`, as FTS5 fixes them.
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// The inverse document frequency FTS5 gives a phrase in `hits` of `rows` rows: never
/// below 1e-6 (a phrase in half the rows or more).
pub fn idf(hits: i64, rows: i64) -> f64 {
    let idf = ((rows - hits) as f64 + 0.5) / (hits as f64 + 0.5);
    let idf = idf.ln();
    if idf <= 0.0 {
        1e-6
    } else {
        idf
    }
}

/// A phrase's part of a row's score can never reach `(k1 + 1) * idf`, whatever its
/// frequency and the row's length: what bounds the rows a quick pool leaves out.
pub fn part_bound(hits: i64, rows: i64) -> f64 {
    (K1 + 1.0) * idf(hits, rows)
}

/// The score of one row (negative: better first in ascending order, as FTS5's):
/// `freqs[i]` is phrase i's instances in the row, each counted at its column's weight;
/// `idfs[i]` its idf, or `None` for a phrase that adds nothing; `tokens` the row's size
/// in tokens and `avgdl` the table's average.
pub fn score(idfs: &[Option<f64>], freqs: &[f64], tokens: f64, avgdl: f64) -> f64 {
    let mut score = 0.0;
    for (idf, freq) in idfs.iter().zip(freqs) {
        if let Some(idf) = idf {
            score += idf * ((freq * (K1 + 1.0)) / (freq + K1 * (1.0 - B + B * tokens / avgdl)));
        }
    }
    -score
}

/// The counts argument: a JSON array with, for each phrase of the query in its order,
/// the rows holding it or null.
pub fn parse_hits(text: &str) -> Result<Vec<Option<i64>>, String> {
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| format!("hits must be a JSON array of row counts or nulls: {e}"))?;
    let list = value
        .as_array()
        .ok_or("hits must be a JSON array of row counts or nulls, one for each phrase")?;
    list.iter()
        .map(|v| match v {
            serde_json::Value::Null => Ok(None),
            v => match v.as_i64() {
                Some(n) if n >= 0 => Ok(Some(n)),
                _ => Err(format!(
                    "hits must hold row counts (integers >= 0) or nulls, got {v}"
                )),
            },
        })
        .collect()
}

/// The phrases argument of `recall_bm25_text`: a JSON array with, for each phrase of the
/// score in its order, `[text, rows]`: the phrase as the query would give it, and the rows
/// holding it (null: it adds nothing).
pub fn parse_phrases(text: &str) -> Result<Vec<(String, Option<i64>)>, String> {
    const SHAPE: &str =
        "phrases must be a JSON array of [phrase, rows] pairs, rows a count or null";
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("{SHAPE}: {e}"))?;
    let list = value.as_array().ok_or(SHAPE)?;
    list.iter()
        .map(|pair| match pair.as_array().map(Vec::as_slice) {
            Some([serde_json::Value::String(phrase), serde_json::Value::Null]) => {
                Ok((phrase.clone(), None))
            }
            Some([serde_json::Value::String(phrase), rows]) => match rows.as_i64() {
                Some(n) if n >= 0 => Ok((phrase.clone(), Some(n))),
                _ => Err(format!(
                    "{SHAPE}: rows must be an integer >= 0 or null, got {rows}"
                )),
            },
            _ => Err(format!("{SHAPE}, got {pair}")),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idf_is_fts5s() {
        // ln((N - n + 0.5) / (n + 0.5)), floored at 1e-6.
        assert_eq!(idf(1, 100), (99.5f64 / 1.5).ln());
        assert_eq!(idf(50, 100), 1e-6);
        assert_eq!(idf(90, 100), 1e-6);
        assert_eq!(idf(0, 10), (10.5f64 / 0.5).ln());
    }

    #[test]
    fn a_phrase_without_idf_adds_nothing_and_parts_stay_below_their_bound() {
        let with = score(&[Some(2.0), Some(0.5)], &[3.0, 1.0], 10.0, 12.0);
        let without = score(&[Some(2.0), None], &[3.0, 1.0], 10.0, 12.0);
        assert!(with < without && without < 0.0);
        for freq in [0.5, 1.0, 10.0, 1e9] {
            for tokens in [0.0, 1.0, 1e6] {
                let part = -score(&[Some(idf(3, 1000))], &[freq], tokens, 40.0);
                assert!(part < part_bound(3, 1000), "{freq} {tokens}");
            }
        }
    }

    #[test]
    fn hits_are_counts_or_nulls() {
        assert_eq!(
            parse_hits("[3, null, 0]").unwrap(),
            [Some(3), None, Some(0)]
        );
        assert!(parse_hits("[-1]").unwrap_err().contains(">= 0"));
        assert!(parse_hits("[1.5]").is_err());
        assert!(parse_hits("{}").is_err());
        assert!(parse_hits("nope").is_err());
    }
}
