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
//! `porter`, `ascii`). Under a trigram tokenizer the text is not tokenized: the phrase is
//! found in the text folded as the tokenizer folds each character, which is where its
//! trigrams are ([`crate::trigram_text`]).
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::Arc;

use recall_core::bm25;

use crate::bm25::{
    entry, failed, kept, totals, Aux, Ctx, Defined, Fts5ExtensionApi, Kept, SQLITE_OK,
};
use crate::trigram_text::{
    is_trigram, three, with_learned, Folded, Folds, Key, Probe, Trigram, FINGERPRINT,
};

/// The name SQL calls it by.
pub const NAME: &CStr = c"recall_bm25_text";

const FTS5_TOKEN_COLOCATED: c_int = 0x0001;

/// Tokens of one text: their keys, the bytes of the long ones, and, once a colocated
/// token has come, where each position's tokens begin (it joins the position before it).
/// Until then each token is a position: the tokens of trigram, unicode61 and porter.
#[derive(Default)]
struct Tokens {
    /// Each token as one number ([`key`]), in order: a trigram is 3 to 12 bytes, and the
    /// text of every row is matched against every phrase.
    keys: Vec<u64>,
    /// The bytes of the tokens longer than 7 bytes (the others are their keys).
    bytes: Vec<u8>,
    /// (index in `keys`, start and end in `bytes`) of each long token, in order.
    long: Vec<(usize, usize, usize)>,
    /// The index in `keys` of each position's first token, once a token is colocated.
    positions: Option<Vec<usize>>,
}

/// The top byte of the key of a token longer than 7 bytes (a short one's is its length).
const LONG: u64 = 0xFF << 56;

/// Whether `key` is a long token's: two long tokens of one key are the same only if their
/// bytes are.
fn is_long(key: u64) -> bool {
    key & LONG == LONG
}

/// A token of up to 7 bytes as one number, its length in the top byte (so that no two
/// tokens share a key); for a longer one, [`LONG`] and a hash of its bytes (FNV-1a), so
/// that tokens of three characters of Chinese, 9 bytes each, are told apart by their keys
/// as those of English are, and their bytes compared only where the keys are equal.
fn key(bytes: &[u8]) -> u64 {
    if bytes.len() > 7 {
        let hash = bytes.iter().fold(0xCBF2_9CE4_8422_2325_u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
        });
        return LONG | (hash & !LONG);
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
        self.keys.clear();
        self.bytes.clear();
        self.long.clear();
        self.positions = None;
    }

    /// Adds a token: a new position, or one more token at the last (colocated). A short
    /// token is its key: its bytes are not kept, a trigram's every one.
    fn push(&mut self, bytes: &[u8], colocated: bool) {
        let k = key(bytes);
        let i = self.keys.len();
        if is_long(k) {
            let start = self.bytes.len();
            self.bytes.extend_from_slice(bytes);
            self.long.push((i, start, self.bytes.len()));
        }
        match &mut self.positions {
            Some(positions) if !colocated || i == 0 => positions.push(i),
            Some(_) => {}
            None if colocated && i > 0 => self.positions = Some((0..i).collect()),
            None => {}
        }
        self.keys.push(k);
    }

    /// Whether each position is one token.
    fn simple(&self) -> bool {
        self.positions.is_none()
    }

    /// How many positions.
    fn len(&self) -> usize {
        self.positions.as_ref().map_or(self.keys.len(), Vec::len)
    }

    /// The indexes of the tokens at `position`.
    fn at(&self, position: usize) -> std::ops::Range<usize> {
        let Some(positions) = &self.positions else {
            return position.min(self.keys.len())..(position + 1).min(self.keys.len());
        };
        let first = positions.get(position).copied().unwrap_or(0);
        let end = positions
            .get(position + 1)
            .copied()
            .unwrap_or(self.keys.len());
        first.min(end)..end
    }
}

/// The bytes of a token FTS5 hands a callback.
///
/// # Safety
/// `token` holds `n` readable bytes for the call, or is null.
unsafe fn token_bytes<'t>(token: *const c_char, n: c_int) -> &'t [u8] {
    match usize::try_from(n) {
        // SAFETY: FTS5 passes `n` readable bytes at `token` for this call.
        Ok(n) if n > 0 && !token.is_null() => unsafe {
            std::slice::from_raw_parts(token.cast::<u8>(), n)
        },
        _ => &[],
    }
}

/// What a text's tokens are gathered into, one token at a time.
trait Gather {
    fn add(&mut self, token: &[u8], colocated: bool);
}

impl Gather for Tokens {
    fn add(&mut self, token: &[u8], colocated: bool) {
        self.push(token, colocated);
    }
}

/// FTS5's token callback: adds the token to the `T` behind `ctx`.
unsafe extern "C" fn collect<T: Gather>(
    ctx: *mut c_void,
    flags: c_int,
    token: *const c_char,
    n: c_int,
    _start: c_int,
    _end: c_int,
) -> c_int {
    // SAFETY: `ctx` is the `T` handed to xTokenize with this callback, alive during it.
    let Some(into) = (unsafe { ctx.cast::<T>().as_mut() }) else {
        return SQLITE_OK;
    };
    // SAFETY: FTS5's token and its length, for this call.
    into.add(
        unsafe { token_bytes(token, n) },
        flags & FTS5_TOKEN_COLOCATED != 0,
    );
    SQLITE_OK
}

/// Tokenizes `text` with the table's tokenizer into `into` (cleared first).
///
/// # Safety
/// FTS5's API and context of the current call; a NUL right after `text`, as SQLite's own
/// texts have (the trigram tokenizer of SQLite 3.45 and 3.46 reads past the length it is
/// given, to a NUL).
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
            Some(collect::<Tokens>),
        )
    };
    if rc != SQLITE_OK {
        return Err(failed("xTokenize", rc));
    }
    Ok(())
}

/// The bytes of the `i`-th token of `t`, a long one (none for a short one).
fn token(t: &Tokens, i: usize) -> &[u8] {
    match t.long.binary_search_by_key(&i, |&(at, _, _)| at) {
        Ok(found) => {
            let (_, s, e) = t.long[found];
            &t.bytes[s..e]
        }
        Err(_) => &[],
    }
}

/// Whether the `i`-th token of `a` is the `j`-th of `b`.
fn same(a: &Tokens, i: usize, b: &Tokens, j: usize) -> bool {
    let k = a.keys[i];
    k == b.keys[j] && (!is_long(k) || token(a, i) == token(b, j))
}

/// Where `phrase` (its tokens, one list of alternatives for each position) is in `text`:
/// how many positions start it. [`Firsts`] finds the phrases of one token at each
/// position in a text of one token at each position; this, the others.
fn places(phrase: &Tokens, text: &Tokens) -> usize {
    let (k, n) = (phrase.len(), text.len());
    if k == 0 || k > n {
        return 0;
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

/// The phrases of one token at each position (trigram, unicode61, porter), looked for
/// all at once: each position of the text is one look in a table of their first tokens,
/// where looking for each phrase in turn would read the whole text once a phrase (a row's
/// text is thousands of trigrams, a prompt twenty words).
struct Firsts {
    /// A bit for each first token's [`slot`].
    slots: [u64; 64],
    /// (first key, phrase) of each phrase of one token at each position, by key.
    keys: Vec<(u64, usize)>,
    /// The other phrases (with colocated tokens), or the empty ones, found by [`places`].
    others: Vec<usize>,
}

/// Where a key falls among [`Firsts::slots`]' 4,096 bits.
fn slot(key: u64) -> usize {
    // (The top 12 bits of a multiplicative hash: keys differ in their low bytes.)
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize
}

impl Firsts {
    fn new(phrases: &[Tokens]) -> Self {
        let mut firsts = Firsts {
            slots: [0; 64],
            keys: Vec::new(),
            others: Vec::new(),
        };
        for (i, phrase) in phrases.iter().enumerate() {
            match phrase.keys.first() {
                Some(&k) if phrase.simple() => {
                    firsts.slots[slot(k) / 64] |= 1 << (slot(k) % 64);
                    firsts.keys.push((k, i));
                }
                _ => firsts.others.push(i),
            }
        }
        firsts.keys.sort_unstable();
        firsts
    }

    /// Adds to `counts[i]` the places of phrase `i` in `text`: what [`places`] gives each.
    fn count(&self, phrases: &[Tokens], text: &Tokens, counts: &mut [usize]) {
        let n = text.len();
        if !text.simple() {
            // A text with colocated tokens: each phrase alone.
            for (phrase, count) in phrases.iter().zip(counts.iter_mut()) {
                *count += places(phrase, text);
            }
            return;
        }
        for &i in &self.others {
            if let (Some(phrase), Some(count)) = (phrases.get(i), counts.get_mut(i)) {
                *count += places(phrase, text);
            }
        }
        let keys = &text.keys[..n];
        for (p, &k) in keys.iter().enumerate() {
            let s = slot(k);
            if self.slots[s / 64] & (1 << (s % 64)) == 0 {
                continue;
            }
            let from = self.keys.partition_point(|&(key, _)| key < k);
            for &(_, i) in self.keys[from..].iter().take_while(|&&(key, _)| key == k) {
                let want = &phrases[i].keys;
                let found = keys
                    .get(p..p + want.len())
                    .is_some_and(|at| at == want.as_slice())
                    && (!want.iter().any(|&k| is_long(k))
                        || (0..want.len()).all(|j| same(text, p + j, &phrases[i], j)));
                if found {
                    counts[i] += 1;
                }
            }
        }
    }
}

/// What one query's rows share: the phrases and their idfs, the table's average size,
/// and buffers each row reuses.
struct Query {
    key: Vec<u8>,
    /// Each phrase's text, as given.
    texts: Vec<String>,
    /// The phrases' tokens, made the first time a row's text is tokenized.
    tokenized: Option<Tokenized>,
    /// Under a trigram tokenizer, the phrases folded (see [`crate::trigram_text`]).
    folding: Option<Folding>,
    idfs: Vec<Option<f64>>,
    avgdl: f64,
    freqs: Vec<f64>,
    /// Each phrase's places in the column being read.
    counts: Vec<usize>,
    columns: c_int,
    text: Tokens,
}

/// The phrases as the tokenizer gives them, to find in a text it tokenized.
struct Tokenized {
    phrases: Vec<Tokens>,
    firsts: Firsts,
}

/// The phrases folded as the table's trigram tokenizer folds them, which tokenizer that
/// is (its folds are kept for all rows, see [`crate::trigram_text::with_learned`]), and
/// buffers.
struct Folding {
    key: Key,
    phrases: Arc<Vec<Folded>>,
    /// Each column read, folded.
    folded: Vec<Vec<u8>>,
}

impl Kept for Query {
    fn key(&self) -> &[u8] {
        &self.key
    }
}

/// The tokens of a short text the table's tokenizer gives, for [`crate::trigram_text`].
#[derive(Default)]
struct Probed {
    tokens: Vec<Trigram>,
    /// A token colocated, or not three characters: not a trigram tokenizer's.
    odd: bool,
}

impl Gather for Probed {
    fn add(&mut self, token: &[u8], colocated: bool) {
        match std::str::from_utf8(token).ok().and_then(three) {
            Some(t) if !colocated => self.tokens.push(t),
            _ => self.odd = true,
        }
    }
}

/// The tokens the table's tokenizer gives `text` (no NUL in it), or `None`.
///
/// # Safety
/// FTS5's API and context of the current call.
unsafe fn probe(api: &Fts5ExtensionApi, ctx: Ctx, text: &str) -> Option<Vec<Trigram>> {
    let x_tokenize = api.x_tokenize?;
    let bytes = nul_terminated(text.as_bytes());
    let len = c_int::try_from(text.len()).ok()?;
    let mut probed = Probed::default();
    // SAFETY: the text and the collector live through the call.
    let rc = unsafe {
        x_tokenize(
            ctx,
            bytes.as_ptr().cast(),
            len,
            (&mut probed as *mut Probed).cast(),
            Some(collect::<Probed>),
        )
    };
    (rc == SQLITE_OK && !probed.odd).then_some(probed.tokens)
}

/// The phrases folded, where the table's tokenizer is a trigram tokenizer and folds each
/// of their characters one way (every ASCII character's fold learned first).
///
/// # Safety
/// FTS5's API and context of the current call.
unsafe fn folding(api: &Fts5ExtensionApi, ctx: Ctx, texts: &[String]) -> Option<Folding> {
    if texts.iter().any(|t| t.contains('\0')) {
        return None;
    }
    // SAFETY: FTS5's API and context of this call.
    let mut probe = |text: &str| unsafe { probe(api, ctx, text) };
    // (A tokenizer of words gives tokens that are not three characters: `None`.)
    let key = Key {
        api: std::ptr::from_ref(api) as usize,
        fingerprint: probe(FINGERPRINT)?,
    };
    let first = |probe: &mut Probe| {
        let mut folds = Folds::default();
        (is_trigram(probe) && folds.learn_ascii(probe)).then_some(folds)
    };
    let joined = texts.join("\0");
    let phrases = with_learned(&key, &mut probe, first, |learned, probe| {
        if let Some((of, phrases)) = &learned.phrases {
            if *of == joined {
                return Some(Arc::clone(phrases));
            }
        }
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        let mut folded = Vec::new();
        let chars = learned.folds.fold_learning(&texts, &mut folded, probe)?;
        let phrases: Vec<Folded> = folded
            .iter()
            .zip(chars)
            .map(|(bytes, chars)| Folded::new(bytes, chars))
            .collect();
        let phrases = Arc::new(phrases);
        learned.phrases = Some((joined, Arc::clone(&phrases)));
        Some(phrases)
    })?;
    Some(Folding {
        key,
        phrases,
        folded: Vec::new(),
    })
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
            let texts: Vec<String> = given.iter().map(|(p, _)| p.to_string()).collect();
            Ok(Query {
                key: phrases_text.to_vec(),
                idfs: given
                    .iter()
                    .map(|(_, h)| h.map(|h| bm25::idf(h, rows)))
                    .collect(),
                tokenized: None,
                folding: folding(api, ctx, &texts),
                texts,
                avgdl,
                freqs: vec![0.0; given.len()],
                counts: vec![0; given.len()],
                columns: column_count(ctx),
                text: Tokens::default(),
            })
        })
    }
}

/// The phrases' tokens, made in `slot` the first time they are needed.
///
/// # Safety
/// FTS5's API and context of the current call.
unsafe fn tokenized<'t>(
    slot: &'t mut Option<Tokenized>,
    texts: &[String],
    api: &Fts5ExtensionApi,
    ctx: Ctx,
) -> Result<&'t Tokenized, String> {
    if slot.is_none() {
        let mut phrases = Vec::with_capacity(texts.len());
        for phrase in texts {
            let mut t = Tokens::default();
            let text = nul_terminated(phrase.as_bytes());
            // SAFETY: FTS5's API and context of this call.
            unsafe { tokenize(api, ctx, &text[..phrase.len()], &mut t) }?;
            phrases.push(t);
        }
        *slot = Some(Tokenized {
            firsts: Firsts::new(&phrases),
            phrases,
        });
    }
    slot.as_ref().ok_or_else(|| "no phrases".to_string())
}

/// `text` with a NUL after it, as `tokenize` needs.
fn nul_terminated(text: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(text.len() + 1);
    bytes.extend_from_slice(text);
    bytes.push(0);
    bytes
}

/// Adds `weight` to each phrase's frequency once for each of its places in a column,
/// one at a time, as FTS5 adds them.
fn add_places(freqs: &mut [f64], places: impl IntoIterator<Item = usize>, weight: f64) {
    for (count, freq) in places.into_iter().zip(freqs.iter_mut()) {
        for _ in 0..count {
            *freq += weight;
        }
    }
}

/// Adds each place of each phrase in `texts` (each with its column's weight) to
/// `freqs`, from the texts folded, and gives the positions they hold; `None` where a
/// text is not one the folding reads (a NUL in it, bytes that are not UTF-8, a character
/// the tokenizer treats other than a trigram tokenizer would), `freqs` untouched.
///
/// # Safety
/// FTS5's API and context of the current call.
unsafe fn folded_row(
    api: &Fts5ExtensionApi,
    ctx: Ctx,
    f: &mut Folding,
    texts: &[(f64, &[u8])],
    freqs: &mut [f64],
) -> Option<usize> {
    let mut valid = Vec::with_capacity(texts.len());
    for &(_, bytes) in texts {
        if memchr::memchr(0, bytes).is_some() {
            return None;
        }
        valid.push(std::str::from_utf8(bytes).ok()?);
    }
    // SAFETY: FTS5's API and context of this call.
    let mut probe = |text: &str| unsafe { probe(api, ctx, text) };
    let folded = &mut f.folded;
    let chars = with_learned(
        &f.key,
        &mut probe,
        |_| None,
        |learned, probe| learned.folds.fold_learning(&valid, folded, probe),
    )?;
    for (&(weight, _), text) in texts.iter().zip(&f.folded) {
        let places = f.phrases.iter().map(|phrase| phrase.places(text));
        add_places(freqs, places, weight);
    }
    let positions = chars.iter().map(|c| c.saturating_sub(2)).sum();
    Some(positions)
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
        // The texts of the columns read, with their weights; the columns left unread.
        let mut read = Vec::new();
        let mut unread = Vec::new();
        for column in 0..q.columns {
            let weight = usize::try_from(column)
                .ok()
                .and_then(|c| weights.get(c))
                .copied()
                .unwrap_or(1.0);
            // A column weighing nothing adds nothing: its text is not read.
            if weight == 0.0 {
                unread.push(column);
                continue;
            }
            read.push((weight, text_of(column_text, ctx, column)?));
        }
        let folded = match q.folding.as_mut() {
            Some(f) => folded_row(api, ctx, f, &read, &mut q.freqs),
            None => None,
        };
        let mut positions = match folded {
            Some(positions) => positions,
            None => {
                let t = tokenized(&mut q.tokenized, &q.texts, api, ctx)?;
                let mut positions = 0usize;
                for &(weight, bytes) in &read {
                    let mut tokens = std::mem::take(&mut q.text);
                    let outcome = tokenize(api, ctx, bytes, &mut tokens);
                    positions += tokens.len();
                    if outcome.is_ok() {
                        q.counts.iter_mut().for_each(|c| *c = 0);
                        t.firsts.count(&t.phrases, &tokens, &mut q.counts);
                        add_places(&mut q.freqs, q.counts.iter().copied(), weight);
                    }
                    q.text = tokens;
                    outcome?;
                }
                positions
            }
        };
        let mut size: c_int = 0;
        let rc = column_size(ctx, -1, &mut size);
        if rc != SQLITE_OK {
            return Err(failed("xColumnSize", rc));
        }
        let mut size = f64::from(size);
        // Some versions of FTS5 (SQLite 3.40's; not 3.51's or 3.54's) give a row found by
        // its rowid alone, with no MATCH (the pool's `join items_fts as f on f.rowid =
        // …`), a size of 0, its sizes unread: the row's size is then counted here as FTS5
        // counts it, the positions of every column.
        if size == 0.0 && positions > 0 {
            for column in unread {
                let bytes = text_of(column_text, ctx, column)?;
                let mut tokens = std::mem::take(&mut q.text);
                let outcome = tokenize(api, ctx, bytes, &mut tokens);
                positions += tokens.len();
                q.text = tokens;
                outcome?;
            }
            size = positions as f64;
        }
        Ok(bm25::score(&q.idfs, &q.freqs, size, q.avgdl))
    }
}

type ColumnText = unsafe extern "C" fn(Ctx, c_int, *mut *const c_char, *mut c_int) -> c_int;

/// The text of `column` in the current row.
///
/// # Safety
/// FTS5's callback and context of the current call; the text lives until the row changes.
unsafe fn text_of<'r>(
    column_text: ColumnText,
    ctx: Ctx,
    column: c_int,
) -> Result<&'r [u8], String> {
    let (mut text, mut len): (*const c_char, c_int) = (std::ptr::null(), 0);
    // SAFETY: as the function says.
    let rc = unsafe { column_text(ctx, column, &mut text, &mut len) };
    if rc != SQLITE_OK {
        return Err(failed("xColumnText", rc));
    }
    Ok(match usize::try_from(len) {
        // SAFETY: FTS5 gives `len` readable bytes at `text`, until the row changes.
        Ok(n) if n > 0 && !text.is_null() => unsafe { std::slice::from_raw_parts(text.cast(), n) },
        _ => &[],
    })
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
    fn long_tokens_of_one_key_are_told_apart_by_their_bytes() {
        // Two long tokens whose hashes collide (made so here: no pair is known).
        let mut text = tokens(&[&["abcdefgh"], &["abcdefgi"], &["abcdefgh"]]);
        text.keys[1] = text.keys[0];
        assert!(!same(&text, 0, &text, 1));
        assert!(same(&text, 0, &text, 2));
        let phrase = tokens(&[&["abcdefgh"]]);
        assert_eq!(places(&phrase, &text), 2);
        let mut counts = vec![0];
        Firsts::new(std::slice::from_ref(&phrase)).count(
            std::slice::from_ref(&phrase),
            &text,
            &mut counts,
        );
        assert_eq!(counts, [2]);
        assert!(is_long(key("abcdefgh".as_bytes())) && !is_long(key("abcdefg".as_bytes())));
    }

    #[test]
    fn colocated_tokens_match_at_their_position() {
        let text = tokens(&[&["deploys", "deploy"], &["failed"]]);
        assert_eq!(places(&tokens(&[&["deploy"], &["failed"]]), &text), 1);
        assert_eq!(places(&tokens(&[&["deploys"]]), &text), 1);
        assert_eq!(places(&tokens(&[&["x", "failed"]]), &text), 1);
    }

    #[test]
    fn every_phrase_found_at_once_is_found_where_it_is_found_by_hand() {
        // Texts and phrases as positions of alternative tokens, drawn from a few tokens,
        // short and long, so that phrases recur, overlap and share first tokens; with and
        // without colocated tokens. Found by hand: at each position p, each of the
        // phrase's positions j holds a token that text position p + j holds.
        const POOL: [&str; 8] = [
            "ab", "abc", "bcd", "cde", "x", "abcdefgh", "abcdefgi", "é日",
        ];
        type Text = Vec<Vec<&'static str>>;
        struct Rng(u64);
        impl Rng {
            fn below(&mut self, n: usize) -> usize {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                (self.0 % n as u64) as usize
            }
            fn text(&mut self, len: usize, colocate: bool) -> Text {
                (0..len)
                    .map(|p| {
                        let mut at = vec![POOL[self.below(POOL.len())]];
                        if colocate && p % 3 == 1 {
                            at.push(POOL[self.below(POOL.len())]);
                        }
                        at
                    })
                    .collect()
            }
        }
        fn by_hand(phrase: &Text, text: &Text) -> usize {
            if phrase.is_empty() || phrase.len() > text.len() {
                return 0;
            }
            (0..=text.len() - phrase.len())
                .filter(|&p| {
                    phrase
                        .iter()
                        .enumerate()
                        .all(|(j, want)| want.iter().any(|w| text[p + j].contains(w)))
                })
                .count()
        }
        fn of(text: &Text) -> Tokens {
            let at: Vec<&[&str]> = text.iter().map(Vec::as_slice).collect();
            tokens(&at)
        }
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut found = 0;
        for case in 0..3000 {
            let len = rng.below(40);
            let text = rng.text(len, case % 5 == 0);
            let phrases: Vec<Text> = (0..rng.below(6) + 1)
                .map(|i| {
                    let len = rng.below(4);
                    rng.text(len, case % 7 == 0 && i == 0)
                })
                .collect();
            let tokenized: Vec<Tokens> = phrases.iter().map(of).collect();
            let mut counts = vec![0; phrases.len()];
            Firsts::new(&tokenized).count(&tokenized, &of(&text), &mut counts);
            let expected: Vec<usize> = phrases.iter().map(|p| by_hand(p, &text)).collect();
            assert_eq!(counts, expected, "case {case}: {phrases:?} in {text:?}");
            found += expected.iter().sum::<usize>();
        }
        // (The cases find phrases: not only texts without them.)
        assert!(found > 3000, "{found}");
    }
}
