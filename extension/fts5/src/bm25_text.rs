//! `recall_bm25_text(table, phrases, weight…)`: FTS5's `bm25()` of phrases that the query
//! being run need not hold, each found in the row's own text by the table's tokenizer.
//! `sql/related.sql` runs the query of its rarest words alone and ranks the rows it finds
//! by all of the prompt's words: reading the row's text is cheaper than making FTS5 seek,
//! for each of those rows, in the position lists of words most rows hold.
//!
//! A phrase is found where FTS5 would find it: the table's tokenizer (FTS5's `xTokenize`)
//! turns the phrase and each column into tokens, and the phrase is at every position where
//! its tokens follow each other (a token flagged colocated shares the position before
//! it). Each place adds its column's weight, one at a time and column by column, as FTS5
//! adds them; the row's size and the table's totals are FTS5's own; the score is
//! [`recall_core::bm25::score`]. So the score is `bm25()`'s to the bit wherever the
//! tokenizer gives a phrase the tokens it gives it in a query (`trigram`, `unicode61`,
//! `porter`, `ascii`).
use std::ffi::{c_char, c_int, c_void, CStr};

use recall_core::bm25;

use crate::bm25::{
    entry, failed, kept, totals, Aux, Ctx, Defined, Fts5ExtensionApi, Kept, SQLITE_OK,
};

/// The name SQL calls it by.
pub const NAME: &CStr = c"recall_bm25_text";

const FTS5_TOKEN_COLOCATED: c_int = 0x0001;

/// Tokens of one text: their keys, the bytes of the long ones, and where each position's
/// tokens begin (a colocated token joins the position before it).
#[derive(Default)]
struct Tokens {
    /// The bytes of the tokens longer than 7 bytes (the others are their keys).
    bytes: Vec<u8>,
    /// (start, end) in `bytes` of each token, in order (empty for a short one).
    spans: Vec<(usize, usize)>,
    /// Each token as one number ([`key`]), in order: a trigram is 3 to 12 bytes, and the
    /// text of every row is matched against every phrase.
    keys: Vec<u64>,
    /// The index in `spans` of each position's first token.
    positions: Vec<usize>,
}

/// The key of a token longer than 7 bytes: its bytes decide.
const LONG: u64 = u64::MAX;

/// A token of up to 7 bytes as one number, its length in the top byte (so that no two
/// tokens share a key); [`LONG`] for a longer one.
fn key(bytes: &[u8]) -> u64 {
    if bytes.len() > 7 {
        return LONG;
    }
    bytes
        .iter()
        .enumerate()
        .fold((bytes.len() as u64) << 56, |k, (i, &b)| {
            k | u64::from(b) << (8 * i)
        })
}

impl Tokens {
    fn clear(&mut self) {
        self.bytes.clear();
        self.spans.clear();
        self.keys.clear();
        self.positions.clear();
    }

    /// Adds a token: a new position, or one more token at the last (colocated). A short
    /// token is its key: its bytes are not kept, a trigram's every one.
    fn push(&mut self, bytes: &[u8], colocated: bool) {
        let k = key(bytes);
        let start = self.bytes.len();
        if k == LONG {
            self.bytes.extend_from_slice(bytes);
        }
        if !colocated || self.positions.is_empty() {
            self.positions.push(self.keys.len());
        }
        self.spans.push((start, self.bytes.len()));
        self.keys.push(k);
    }

    /// The indexes of the tokens at `position`.
    fn at(&self, position: usize) -> std::ops::Range<usize> {
        let first = self.positions.get(position).copied().unwrap_or(0);
        let end = self
            .positions
            .get(position + 1)
            .copied()
            .unwrap_or(self.keys.len());
        first.min(end)..end
    }
}

/// FTS5's token callback: adds the token to the `Tokens` behind `ctx`.
unsafe extern "C" fn collect(
    ctx: *mut c_void,
    flags: c_int,
    token: *const c_char,
    n: c_int,
    _start: c_int,
    _end: c_int,
) -> c_int {
    // SAFETY: `ctx` is the `Tokens` handed to xTokenize by `tokenize`, alive during it.
    let Some(tokens) = (unsafe { ctx.cast::<Tokens>().as_mut() }) else {
        return SQLITE_OK;
    };
    let bytes: &[u8] = match usize::try_from(n) {
        // SAFETY: FTS5 passes `n` readable bytes at `token` for this call.
        Ok(n) if n > 0 && !token.is_null() => unsafe {
            std::slice::from_raw_parts(token.cast::<u8>(), n)
        },
        _ => &[],
    };
    tokens.push(bytes, flags & FTS5_TOKEN_COLOCATED != 0);
    SQLITE_OK
}

/// Tokenizes `text` with the table's tokenizer into `into` (cleared first).
///
/// # Safety
/// FTS5's API and context of the current call.
unsafe fn tokenize(
    api: &Fts5ExtensionApi,
    ctx: Ctx,
    text: &[u8],
    into: &mut Tokens,
) -> Result<(), String> {
    let Some(x_tokenize) = api.x_tokenize else {
        return Err("this FTS5 lacks the extension API it needs".into());
    };
    into.clear();
    if text.is_empty() {
        return Ok(());
    }
    let len = c_int::try_from(text.len()).map_err(|_| "a text too long to tokenize")?;
    // SAFETY: the text and the collector live through the call; FTS5 calls `collect`
    // with the pointer given.
    let rc = unsafe {
        x_tokenize(
            ctx,
            text.as_ptr().cast(),
            len,
            (into as *mut Tokens).cast(),
            Some(collect),
        )
    };
    if rc != SQLITE_OK {
        return Err(failed("xTokenize", rc));
    }
    Ok(())
}

/// The bytes of the `i`-th token of `t`, a long one.
fn token(t: &Tokens, i: usize) -> &[u8] {
    let (s, e) = t.spans[i];
    &t.bytes[s..e]
}

/// Whether the `i`-th token of `a` is the `j`-th of `b`.
fn same(a: &Tokens, i: usize, b: &Tokens, j: usize) -> bool {
    let k = a.keys[i];
    k == b.keys[j] && (k != LONG || token(a, i) == token(b, j))
}

/// Where `phrase` (its tokens, one list of alternatives for each position) is in `text`:
/// how many positions start it.
fn places(phrase: &Tokens, text: &Tokens) -> usize {
    let (k, n) = (phrase.positions.len(), text.positions.len());
    if k == 0 || k > n {
        return 0;
    }
    // One token at each position on both sides (no colocated token: trigram, unicode61,
    // porter): compare them by their keys, where the first is (the bytes of a long one
    // too).
    if phrase.keys.len() == k && text.keys.len() == n {
        let (want, keys) = (&phrase.keys[..k], &text.keys[..n]);
        let long = want.contains(&LONG);
        return keys[..=n - k]
            .iter()
            .enumerate()
            .filter(|&(p, &first)| {
                first == want[0]
                    && keys[p..p + k] == *want
                    && (!long || (0..k).all(|j| same(text, p + j, phrase, j)))
            })
            .count();
    }
    (0..=n - k)
        .filter(|&p| {
            (0..k).all(|j| {
                phrase.at(j).any(|wanted| {
                    text.at(p + j)
                        .any(|token| same(text, token, phrase, wanted))
                })
            })
        })
        .count()
}

/// What one query's rows share: the phrases' tokens and idfs, the table's average size,
/// and buffers each row reuses.
struct Query {
    key: Vec<u8>,
    phrases: Vec<Tokens>,
    idfs: Vec<Option<f64>>,
    avgdl: f64,
    freqs: Vec<f64>,
    columns: c_int,
    text: Tokens,
}

impl Kept for Query {
    fn key(&self) -> &[u8] {
        &self.key
    }
}

/// The query's shared values for `phrases` (its text as given).
///
/// # Safety
/// FTS5's API and context of the current call.
unsafe fn query<'q>(
    api: &Fts5ExtensionApi,
    ctx: Ctx,
    phrases_text: &[u8],
) -> Result<&'q mut Query, String> {
    let Some(column_count) = api.x_column_count else {
        return Err("this FTS5 lacks the extension API it needs".into());
    };
    // SAFETY: FTS5's API and context of this call.
    unsafe {
        kept(api, ctx, phrases_text, || {
            let text = std::str::from_utf8(phrases_text)
                .map_err(|_| "phrases is not UTF-8".to_string())?;
            let given = bm25::parse_phrases(text)?;
            let (rows, avgdl) = totals(api, ctx)?;
            let mut phrases = Vec::with_capacity(given.len());
            for (phrase, _) in &given {
                let mut t = Tokens::default();
                tokenize(api, ctx, phrase.as_bytes(), &mut t)?;
                phrases.push(t);
            }
            Ok(Query {
                key: phrases_text.to_vec(),
                idfs: given
                    .iter()
                    .map(|(_, h)| h.map(|h| bm25::idf(h, rows)))
                    .collect(),
                phrases,
                avgdl,
                freqs: vec![0.0; given.len()],
                columns: column_count(ctx),
                text: Tokens::default(),
            })
        })
    }
}

/// What the function computes for the current row, or the message of its error.
fn row_score(
    api: &Fts5ExtensionApi,
    ctx: Ctx,
    phrases_text: &[u8],
    weights: &[f64],
) -> Result<f64, String> {
    let (Some(column_text), Some(column_size)) = (api.x_column_text, api.x_column_size) else {
        return Err("this FTS5 lacks the extension API it needs".into());
    };
    // SAFETY: FTS5's own callbacks, with its context, during the call it made.
    unsafe {
        let q = query(api, ctx, phrases_text)?;
        q.freqs.iter_mut().for_each(|f| *f = 0.0);
        for column in 0..q.columns {
            let weight = usize::try_from(column)
                .ok()
                .and_then(|c| weights.get(c))
                .copied()
                .unwrap_or(1.0);
            // A column weighing nothing adds nothing: its text is not read.
            if weight == 0.0 {
                continue;
            }
            let (mut text, mut len): (*const c_char, c_int) = (std::ptr::null(), 0);
            let rc = column_text(ctx, column, &mut text, &mut len);
            if rc != SQLITE_OK {
                return Err(failed("xColumnText", rc));
            }
            let bytes: &[u8] = match usize::try_from(len) {
                Ok(n) if n > 0 && !text.is_null() => std::slice::from_raw_parts(text.cast(), n),
                _ => &[],
            };
            let mut tokens = std::mem::take(&mut q.text);
            let outcome = tokenize(api, ctx, bytes, &mut tokens);
            if outcome.is_ok() {
                for (phrase, freq) in q.phrases.iter().zip(q.freqs.iter_mut()) {
                    // One weight for each place, added as FTS5 adds them.
                    for _ in 0..places(phrase, &tokens) {
                        *freq += weight;
                    }
                }
            }
            q.text = tokens;
            outcome?;
        }
        let mut size: c_int = 0;
        let rc = column_size(ctx, -1, &mut size);
        if rc != SQLITE_OK {
            return Err(failed("xColumnSize", rc));
        }
        Ok(bm25::score(&q.idfs, &q.freqs, f64::from(size), q.avgdl))
    }
}

struct Bm25Text;

impl Defined for Bm25Text {
    const AUX: Aux = Aux {
        name: "recall_bm25_text",
        usage: "give it the phrases and the rows holding each: recall_bm25_text(table, phrases [, weight]…)",
        null: "phrases is NULL: give a JSON array of [phrase, rows] pairs, rows a count or null",
        argument: "phrases",
        score: row_score,
    };
}

/// The function itself, for [`crate::register_bm25`].
pub const FUNCTION: crate::bm25::AuxFunction = entry::<Bm25Text>;

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(words: &[&[&str]]) -> Tokens {
        let mut t = Tokens::default();
        for alternatives in words {
            for (i, w) in alternatives.iter().enumerate() {
                t.push(w.as_bytes(), i > 0);
            }
        }
        t
    }

    #[test]
    fn a_phrase_is_found_at_each_position_its_tokens_follow_each_other() {
        let text = tokens(&[&["dep"], &["epl"], &["plo"], &["dep"], &["epl"]]);
        assert_eq!(places(&tokens(&[&["dep"], &["epl"]]), &text), 2);
        assert_eq!(places(&tokens(&[&["epl"], &["plo"]]), &text), 1);
        assert_eq!(places(&tokens(&[&["plo"], &["epl"]]), &text), 0);
        assert_eq!(places(&tokens(&[]), &text), 0);
        let long = tokens(&[&["a"], &["b"], &["c"], &["d"], &["e"], &["f"]]);
        assert_eq!(places(&long, &text), 0);
    }

    #[test]
    fn tokens_of_any_length_match_only_themselves() {
        let words = [
            "",
            "a",
            "a\0",
            "ab",
            "abc",
            "abcdefg",
            "abcdefgh",
            "abcdefgi",
            "é",
            "日本語",
        ];
        for a in words {
            for b in words {
                let (x, y) = (tokens(&[&[a]]), tokens(&[&[b]]));
                assert_eq!(same(&x, 0, &y, 0), a == b, "{a:?} {b:?}");
            }
        }
        let text = tokens(&[&["abcdefgh"], &["abcdefgi"], &["abcdefgh"]]);
        assert_eq!(places(&tokens(&[&["abcdefgh"]]), &text), 2);
        assert_eq!(places(&tokens(&[&["abcdefgi"], &["abcdefgh"]]), &text), 1);
    }

    #[test]
    fn colocated_tokens_match_at_their_position() {
        let text = tokens(&[&["deploys", "deploy"], &["failed"]]);
        assert_eq!(places(&tokens(&[&["deploy"], &["failed"]]), &text), 1);
        assert_eq!(places(&tokens(&[&["deploys"]]), &text), 1);
        assert_eq!(places(&tokens(&[&["x", "failed"]]), &text), 1);
    }
}
