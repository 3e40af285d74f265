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

/// What each row of a pool can score at most, for `recall_bm25_bounds`: the rows are those
/// of the phrases that `select`; each row's bound is the [`part_bound`] of every phrase
/// whose rows are given and hold it, and of every phrase whose rows are not given (it may
/// hold those). Returned as a JSON array of `[rowid, bound]`, highest bound first (then
/// by rowid): the rows a query need not score, once the best it has scored do better than
/// the next one's bound can.
///
/// `phrases` is a JSON array with, for each phrase, `[hits, rowids, selects]`: the rows
/// holding it (of `rows`), their rowids (an array, or null where they are not listed), and
/// whether its rows are in the pool (true or false, 1 or 0). `among`, where given, is a
/// JSON array of the rowids the pool may hold (of a project, say).
pub fn bounds(rows: i64, phrases: &str, among: Option<&str>) -> Result<String, String> {
    const SHAPE: &str =
        "phrases must be a JSON array of [hits, rowids, selects]: hits a count, rowids an array of integers or null, selects true or false";
    let value: serde_json::Value =
        serde_json::from_str(phrases).map_err(|e| format!("{SHAPE}: {e}"))?;
    let list = value.as_array().ok_or(SHAPE)?;
    let mut parsed: Vec<(f64, Option<Vec<i64>>, bool)> = Vec::with_capacity(list.len());
    for phrase in list {
        let Some([hits, ids, selects]) = phrase.as_array().map(Vec::as_slice) else {
            return Err(format!("{SHAPE}, got {phrase}"));
        };
        let hits = match hits.as_i64() {
            Some(h) if (0..=rows).contains(&h) => h,
            _ => {
                return Err(format!(
                    "{SHAPE}: hits must be a count from 0 to rows ({rows}), got {hits}"
                ))
            }
        };
        let ids = match ids {
            serde_json::Value::Null => None,
            serde_json::Value::Array(ids) => Some(
                ids.iter()
                    .map(|id| {
                        id.as_i64()
                            .ok_or_else(|| format!("{SHAPE}, got rowid {id}"))
                    })
                    .collect::<Result<Vec<i64>, String>>()?,
            ),
            other => return Err(format!("{SHAPE}, got rowids {other}")),
        };
        let selects = match selects {
            serde_json::Value::Bool(b) => *b,
            n if n.as_i64() == Some(1) => true,
            n if n.as_i64() == Some(0) => false,
            other => return Err(format!("{SHAPE}, got selects {other}")),
        };
        parsed.push((part_bound(hits, rows), ids, selects));
    }
    // Every row of the pool: the rows of the phrases that select, each once.
    let mut pool: Vec<i64> = parsed
        .iter()
        .filter(|(_, _, selects)| *selects)
        .flat_map(|(_, ids, _)| ids.iter().flatten().copied())
        .collect();
    pool.sort_unstable();
    pool.dedup();
    if let Some(among) = among {
        let mut among: Vec<i64> = serde_json::from_str(among)
            .map_err(|e| format!("among must be a JSON array of rowids: {e}"))?;
        crate::lists::keep_in(&mut pool, &mut among);
    }
    // What the phrases whose rows are not given add to every row; then each listed
    // phrase, to the rows it holds (once each, were a rowid listed twice).
    let unlisted: f64 = parsed
        .iter()
        .filter(|(_, ids, _)| ids.is_none())
        .map(|(bound, _, _)| bound)
        .sum();
    let mut bound = vec![unlisted; pool.len()];
    for (part, ids, _) in &parsed {
        let Some(ids) = ids else { continue };
        let mut held: Vec<usize> = ids
            .iter()
            .filter_map(|id| pool.binary_search(id).ok())
            .collect();
        held.sort_unstable();
        held.dedup();
        for i in held {
            bound[i] += part;
        }
    }
    let mut order: Vec<(i64, f64)> = pool.into_iter().zip(bound).collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    serde_json::to_string(&order).map_err(|e| e.to_string())
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

    #[test]
    fn each_row_is_bounded_by_the_phrases_it_may_hold() {
        // Phrases a (selects, rows 1 3 5), b (selects, rows 3 4), c (listed, not selecting:
        // rows 5 9), d (not listed: every row may hold it).
        let (a, b, c, d) = (
            part_bound(3, 100),
            part_bound(2, 100),
            part_bound(2, 100),
            part_bound(40, 100),
        );
        let phrases =
            "[[3, [1, 3, 5], true], [2, [4, 3], 1], [2, [5, 9, 9], false], [40, null, 0]]";
        let got = bounds(100, phrases, None).unwrap();
        let got: Vec<(i64, f64)> = serde_json::from_str(&got).unwrap();
        let mut want = vec![(1, d + a), (3, d + a + b), (4, d + b), (5, d + a + c)];
        want.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
        assert_eq!(got.len(), want.len());
        for ((id, bound), (want_id, want_bound)) in got.iter().zip(&want) {
            assert_eq!(id, want_id);
            assert!(
                (bound - want_bound).abs() < 1e-9,
                "{id}: {bound} {want_bound}"
            );
        }
        // Among some rows only (9 is in no phrase that selects).
        let among: Vec<(i64, f64)> =
            serde_json::from_str(&bounds(100, phrases, Some("[9, 4, 5]")).unwrap()).unwrap();
        assert_eq!(among, [(5, d + a + c), (4, d + b)]);
        assert!(bounds(100, phrases, Some("[1.5]"))
            .unwrap_err()
            .starts_with("among must be"));
        // No row holds a phrase that selects: an empty pool.
        assert_eq!(
            bounds(10, "[[0, [], true], [3, null, false]]", None).unwrap(),
            "[]"
        );
        for bad in [
            "{}",
            "[[1, [1]]]",
            "[[101, [], true]]",
            "[[1, [\"x\"], true]]",
            "[[1, 2, true]]",
            "[[1, [], 2]]",
        ] {
            assert!(
                bounds(100, bad, None)
                    .unwrap_err()
                    .starts_with("phrases must be"),
                "{bad}"
            );
        }
    }
}
