//! A phrase found in a text the way a trigram tokenizer finds it, without tokenizing the
//! text: under a tokenizer that makes a token of every three characters, each character
//! folded alone (FTS5's `trigram`, with `case_sensitive` or `remove_diacritics` or
//! neither), a phrase is at a position of a text exactly where the text's folded
//! characters from there are the phrase's folded characters (the phrase's tokens are then
//! the text's tokens from there, one after the other). So a row's text is folded, and
//! each phrase looked for in it as bytes (`memchr::memmem`), where FTS5's tokenizer hands
//! over each trigram of the text through a callback: scoring a row from its text took
//! half the time (docs/performance.md).
//!
//! Nothing of FTS5's folding is written here: how the tokenizer folds each character is
//! learned from the tokenizer itself ([`Folds::learn`]), by tokenizing the characters a
//! text holds between known ones. A character may fold to another (`É` to `e` or `é`),
//! stay as it is, or be dropped (FTS5 3.45 and later drop the marks `remove_diacritics`
//! removes: the trigram after them joins the characters on either side). A text the
//! tokenizer reads other than character by character (a NUL, which some versions stop
//! at; bytes that are not UTF-8) is left to the tokenizer. What is learned is kept on
//! the thread for the tokenizer that taught it, told from the others by the tokens it
//! gives [`FINGERPRINT`] ([`with_learned`]): FTS5 drops a query's own data at each row a
//! join asks it for by rowid, and the characters of a row are mostly those of the rows
//! before it.
use std::sync::Arc;

use memchr::memmem::Finder;

/// What the tokenizer makes of one character.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Fold {
    /// It stands in the tokens as this character.
    To(char),
    /// It is in no token: the characters around it are next to each other.
    Dropped,
}

/// A token of three characters.
pub(crate) type Trigram = [char; 3];

/// The tokens the tokenizer gives a text; `None` where it failed, or gave a token that is
/// not three characters or is colocated (no trigram tokenizer does).
pub(crate) type Probe<'p> = dyn FnMut(&str) -> Option<Vec<Trigram>> + 'p;

/// The three characters of a token, if it is three.
pub(crate) fn three(token: &str) -> Option<Trigram> {
    let mut it = token.chars();
    let t = [it.next()?, it.next()?, it.next()?];
    it.next().is_none().then_some(t)
}

/// Whether the tokenizer makes a token of every three characters: `abcd` is `abc`,
/// `bcd`, and `ab` is nothing. (A tokenizer of words gives `abcd`, not three characters.)
pub(crate) fn is_trigram(probe: &mut Probe) -> bool {
    probe("abcd").is_some_and(|t| t == [['a', 'b', 'c'], ['b', 'c', 'd']])
        && probe("ab").is_some_and(|t| t.is_empty())
}

/// How the table's tokenizer folds the characters met so far: ASCII, and the rest of the
/// Basic Multilingual Plane (made when first needed), each in a table by its code point
/// (a text of Chinese is thousands of characters, each looked up); the others sorted.
pub(crate) struct Folds {
    ascii: [Option<Fold>; 128],
    /// For each code point up to U+FFFF: 0 not learned, 1 dropped, else its fold's code
    /// point plus 2.
    bmp: Vec<u32>,
    astral: Vec<(char, Fold)>,
}

impl Default for Folds {
    fn default() -> Self {
        Folds {
            ascii: [None; 128],
            bmp: Vec::new(),
            astral: Vec::new(),
        }
    }
}

/// The size of [`Folds::bmp`].
const BMP: usize = 0x1_0000;

impl Folds {
    /// How `c` folds, if learned.
    pub(crate) fn of(&self, c: char) -> Option<Fold> {
        let i = c as usize;
        if let Some(&fold) = self.ascii.get(i) {
            return fold;
        }
        if i < BMP {
            return match self.bmp.get(i).copied().unwrap_or(0) {
                0 => None,
                1 => Some(Fold::Dropped),
                v => char::from_u32(v - 2).map(Fold::To),
            };
        }
        self.astral
            .binary_search_by_key(&c, |&(k, _)| k)
            .ok()
            .map(|i| self.astral[i].1)
    }

    fn set(&mut self, c: char, fold: Fold) {
        let i = c as usize;
        if let Some(slot) = self.ascii.get_mut(i) {
            *slot = Some(fold);
        } else if i < BMP {
            if self.bmp.is_empty() {
                self.bmp = vec![0; BMP];
            }
            if let Some(slot) = self.bmp.get_mut(i) {
                *slot = match fold {
                    Fold::Dropped => 1,
                    Fold::To(f) => u32::from(f) + 2,
                };
            }
        } else if let Err(at) = self.astral.binary_search_by_key(&c, |&(k, _)| k) {
            self.astral.insert(at, (c, fold));
        }
    }

    /// How many characters past the BMP are learned.
    pub(crate) fn astral(&self) -> usize {
        self.astral.len()
    }

    /// Forgets the characters past the BMP.
    pub(crate) fn forget_astral(&mut self) {
        self.astral.clear();
    }

    /// Learns every ASCII character but NUL: the characters of most texts.
    pub(crate) fn learn_ascii(&mut self, probe: &mut Probe) -> bool {
        let ascii: Vec<char> = (1..128u8).map(char::from).collect();
        self.learn(&ascii, probe)
    }

    /// Learns how the tokenizer folds each of `chars`: all at once, each between two
    /// `a`s (`a c₁ a c₂ a …`: the trigram of each is `a`, it, `a`); where a character is
    /// dropped that reading is off, and each is then read alone, between `xy` and `wz`:
    /// three trigrams where it stands, two where it is dropped. False where the tokens
    /// are neither: the tokenizer is not one this reading knows.
    pub(crate) fn learn(&mut self, chars: &[char], probe: &mut Probe) -> bool {
        if chars.is_empty() {
            return true;
        }
        if chars.contains(&'\0') {
            return false;
        }
        let mut learned = Vec::with_capacity(chars.len());
        let mut text = String::with_capacity(2 * chars.len() + 1);
        text.push('a');
        for &c in chars {
            text.push(c);
            text.push('a');
        }
        if let Some(folds) = probe(&text).and_then(|t| between_as(&t, chars.len())) {
            learned.extend(chars.iter().zip(folds).map(|(&c, f)| (c, Fold::To(f))));
        } else {
            for &c in chars {
                match probe(&format!("xy{c}wz")).and_then(|t| alone(&t)) {
                    Some(fold) => learned.push((c, fold)),
                    None => return false,
                }
            }
        }
        for (c, fold) in learned {
            self.set(c, fold);
        }
        true
    }

    /// Each of `texts` folded into its buffer of `into`, the characters first met learned
    /// from `probe` and the texts folded again: how many characters each holds folded.
    /// `None` where one cannot be learned.
    pub(crate) fn fold_learning(
        &mut self,
        texts: &[&str],
        into: &mut Vec<Vec<u8>>,
        probe: &mut Probe,
    ) -> Option<Vec<usize>> {
        into.resize_with(texts.len(), Vec::new);
        let mut unknown = Vec::new();
        let mut fold_all = |folds: &Folds, unknown: &mut Vec<char>| -> Vec<usize> {
            unknown.clear();
            let outs = into.iter_mut();
            texts
                .iter()
                .zip(outs)
                .map(|(text, out)| folds.fold_into(text, out, unknown))
                .collect()
        };
        let chars = fold_all(self, &mut unknown);
        if unknown.is_empty() {
            return Some(chars);
        }
        if !self.learn(&unknown, probe) {
            return None;
        }
        let chars = fold_all(self, &mut unknown);
        unknown.is_empty().then_some(chars)
    }

    /// `text` folded into `out` (cleared first), and how many characters it holds
    /// folded. A character not learned yet is left out, and added to `unknown` (once):
    /// the text is to be folded again once it is learned.
    pub(crate) fn fold_into(
        &self,
        text: &str,
        out: &mut Vec<u8>,
        unknown: &mut Vec<char>,
    ) -> usize {
        out.clear();
        out.reserve(text.len());
        // Each ASCII byte folded to one, looked up in a table: most of a text's bytes.
        let mut bytes_of = [NOT_ONE_BYTE; 128];
        for (b, fold) in bytes_of.iter_mut().zip(&self.ascii) {
            if let Some(Fold::To(f)) = fold {
                if f.is_ascii() {
                    *b = *f as u8;
                }
            }
        }
        let all_one_byte = bytes_of[1..].iter().all(|&b| b != NOT_ONE_BYTE);
        let mut chars = 0;
        let mut rest = text;
        while !rest.is_empty() {
            // A run of ASCII, folded at once where every ASCII character folds to one.
            let run = rest.bytes().position(|b| b >= 0x80).unwrap_or(rest.len());
            let (ascii, after) = rest.split_at(run);
            if all_one_byte && !ascii.as_bytes().contains(&0) {
                out.extend(ascii.bytes().map(|b| bytes_of[usize::from(b)]));
                chars += ascii.len();
            } else {
                for c in ascii.chars() {
                    chars += self.push(c, out, unknown);
                }
            }
            let Some(c) = after.chars().next() else {
                break;
            };
            chars += self.push(c, out, unknown);
            rest = after.get(c.len_utf8()..).unwrap_or("");
        }
        chars
    }

    /// Adds the fold of `c` to `out`: how many characters that is (0 or 1); one not
    /// learned is added to `unknown` instead.
    fn push(&self, c: char, out: &mut Vec<u8>, unknown: &mut Vec<char>) -> usize {
        match self.of(c) {
            Some(Fold::To(f)) => {
                out.extend_from_slice(f.encode_utf8(&mut [0; 4]).as_bytes());
                1
            }
            Some(Fold::Dropped) => 0,
            None => {
                if !unknown.contains(&c) {
                    unknown.push(c);
                }
                0
            }
        }
    }
}

/// In the table of ASCII bytes' folds: not folded to one ASCII byte.
const NOT_ONE_BYTE: u8 = 0xFF;

/// The folds of `n` characters from the tokens of `a c₁ a c₂ a … cₙ a`: the even tokens
/// are `a cᵢ a`, the odd ones `cᵢ a cᵢ₊₁`, every `a` the same. `None` if they are not.
fn between_as(tokens: &[Trigram], n: usize) -> Option<Vec<char>> {
    if tokens.len() != 2 * n - 1 {
        return None;
    }
    let a = tokens.first()?[0];
    let mut folds = Vec::with_capacity(n);
    for pair in tokens.chunks(2) {
        let [x, c, z] = pair[0];
        if x != a || z != a {
            return None;
        }
        folds.push(c);
    }
    for (i, odd) in tokens.iter().enumerate().skip(1).step_by(2) {
        if *odd != [folds[i / 2], a, folds[i / 2 + 1]] {
            return None;
        }
    }
    Some(folds)
}

/// The fold of `c` from the tokens of `xy c wz`: `xyC`, `yCw`, `Cwz` where it stands as
/// `C`; `xyw`, `ywz` where it is dropped.
fn alone(tokens: &[Trigram]) -> Option<Fold> {
    match tokens {
        [[_, y, c], [y2, c2, w], [c3, w2, _]] if y == y2 && c == c2 && c == c3 && w == w2 => {
            Some(Fold::To(*c))
        }
        [[_, y, w], [y2, w2, _]] if y == y2 && w == w2 => Some(Fold::Dropped),
        _ => None,
    }
}

/// Capitals of two scripts, with an accent composed and one combining: the tokens a
/// tokenizer gives them tell its folding apart from that of each other tokenizer of FTS5
/// (`trigram` folds case, and with `remove_diacritics` accents, dropping the combining
/// ones; `case_sensitive 1` neither), so that the folds learned for one are those of the
/// tokenizer that gives the same tokens (see [`with_learned`]). Short, as it is
/// tokenized for each row.
pub(crate) const FINGERPRINT: &str = "xAÉ\u{301}İΣz";

/// Which folds are learned for: the SQLite (the address of its FTS5 extension API) and
/// the tokens its tokenizer gives [`FINGERPRINT`].
#[derive(PartialEq, Eq, Clone)]
pub(crate) struct Key {
    pub(crate) api: usize,
    pub(crate) fingerprint: Vec<Trigram>,
}

/// How many tokenizers' folds are kept at once.
const KEPT: usize = 8;

/// Characters past the BMP kept for one tokenizer before they are learned anew.
const MOST_CHARS: usize = 1 << 16;

/// What is learned for one tokenizer: its folds, and the phrases of the last query
/// folded (their texts joined by NULs, which no phrase holds), which the rows of a query
/// share.
pub(crate) struct Learned {
    pub(crate) folds: Folds,
    pub(crate) phrases: Option<(String, Arc<Vec<Folded>>)>,
}

thread_local! {
    /// What is learned so far for each tokenizer met on this thread: a row's text is
    /// scored alone (FTS5 drops a query's own data at each rowid it is asked for), and
    /// its characters are those of the rows before it.
    static LEARNED: std::cell::RefCell<Vec<(Key, Learned)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// `with` given what is learned for `key` and `probe`; where nothing is, the folds
/// `first` makes (`None`: not a tokenizer folds are learned for). `None` where they are
/// in use on this thread already (a tokenizer that scores rows while it tokenizes).
pub(crate) fn with_learned<R>(
    key: &Key,
    probe: &mut Probe,
    first: impl FnOnce(&mut Probe) -> Option<Folds>,
    with: impl FnOnce(&mut Learned, &mut Probe) -> Option<R>,
) -> Option<R> {
    LEARNED.with(|learned| {
        let mut learned = learned.try_borrow_mut().ok()?;
        let at = match learned.iter().position(|(k, _)| k == key) {
            Some(at) => at,
            None => {
                let folds = first(probe)?;
                if learned.len() >= KEPT {
                    learned.remove(0);
                }
                let new = Learned {
                    folds,
                    phrases: None,
                };
                learned.push((key.clone(), new));
                learned.len() - 1
            }
        };
        let learned = &mut learned.get_mut(at)?.1;
        if learned.folds.astral() > MOST_CHARS {
            learned.folds.forget_astral();
        }
        with(learned, probe)
    })
}

/// A phrase folded: its bytes, found where it has three characters or more (a shorter
/// one is no token, and found nowhere, as FTS5 finds it).
pub(crate) struct Folded {
    finder: Option<Finder<'static>>,
}

impl Folded {
    pub(crate) fn new(bytes: &[u8], chars: usize) -> Self {
        Folded {
            finder: (chars >= 3).then(|| Finder::new(bytes).into_owned()),
        }
    }

    /// How many positions of the folded `text` start the phrase (one place may overlap
    /// the next, as `aaa` twice in `aaaa`). Both are UTF-8, so a place found is at the
    /// start of a character.
    pub(crate) fn places(&self, text: &[u8]) -> usize {
        let Some(finder) = &self.finder else {
            return 0;
        };
        let (mut n, mut at) = (0, 0);
        while let Some(i) = text.get(at..).and_then(|rest| finder.find(rest)) {
            n += 1;
            at += i + 1;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A trigram tokenizer written out: each character folded by `fold` (None: dropped),
    /// a token of every three in a row.
    fn trigram(fold: fn(char) -> Option<char>) -> impl FnMut(&str) -> Option<Vec<Trigram>> {
        move |text: &str| {
            let chars: Vec<char> = text.chars().filter_map(fold).collect();
            Some(chars.windows(3).map(|w| [w[0], w[1], w[2]]).collect())
        }
    }

    fn lower(c: char) -> Option<char> {
        c.to_lowercase().next()
    }

    /// Lower case, `é` as `e`, and the combining acute accent dropped.
    fn plain(c: char) -> Option<char> {
        match c {
            '\u{301}' => None,
            'é' | 'É' => Some('e'),
            c => lower(c),
        }
    }

    /// A tokenizer of words: a word of three characters is a token of three.
    fn words(text: &str) -> Option<Vec<Trigram>> {
        text.split(' ').map(three).collect()
    }

    /// The places of `phrase` in `text` by their tokens, as FTS5 finds a phrase.
    fn by_tokens(tokenize: &mut Probe, phrase: &str, text: &str) -> usize {
        let (p, t) = (tokenize(phrase).unwrap(), tokenize(text).unwrap());
        if p.is_empty() || p.len() > t.len() {
            return 0;
        }
        t.windows(p.len()).filter(|w| *w == p.as_slice()).count()
    }

    fn by_folding(tokenize: &mut Probe, phrase: &str, text: &str) -> usize {
        let mut folds = Folds::default();
        assert!(folds.learn_ascii(tokenize));
        let (mut p, mut t, mut unknown) = (Vec::new(), Vec::new(), Vec::new());
        folds.fold_into(phrase, &mut p, &mut unknown);
        folds.fold_into(text, &mut t, &mut unknown);
        assert!(folds.learn(&unknown, tokenize), "{unknown:?}");
        unknown.clear();
        let chars = folds.fold_into(phrase, &mut p, &mut unknown);
        folds.fold_into(text, &mut t, &mut unknown);
        assert!(unknown.is_empty());
        Folded::new(&p, chars).places(&t)
    }

    #[test]
    fn a_trigram_tokenizer_is_told_from_a_tokenizer_of_words() {
        assert!(is_trigram(&mut trigram(lower)));
        assert!(is_trigram(&mut trigram(Some)));
        assert!(!is_trigram(&mut words));
        assert!(!is_trigram(&mut |_: &str| None));
    }

    #[test]
    fn folds_are_learned_all_at_once_or_one_by_one_where_one_is_dropped() {
        let mut folds = Folds::default();
        assert!(folds.learn(&['A', 'é', 'a', '日'], &mut trigram(plain)));
        assert_eq!(folds.of('A'), Some(Fold::To('a')));
        assert_eq!(folds.of('é'), Some(Fold::To('e')));
        assert_eq!(folds.of('日'), Some(Fold::To('日')));
        assert_eq!(folds.of('b'), None);
        let mut folds = Folds::default();
        assert!(folds.learn(&['X', '\u{301}', 'É'], &mut trigram(plain)));
        assert_eq!(folds.of('\u{301}'), Some(Fold::Dropped));
        assert_eq!(folds.of('X'), Some(Fold::To('x')));
        assert_eq!(folds.of('É'), Some(Fold::To('e')));
        // Tokens of words are not read as folds; nor is a NUL learned.
        assert!(!Folds::default().learn(&['a', 'b'], &mut words));
        assert!(!Folds::default().learn(&['\0'], &mut trigram(Some)));
    }

    #[test]
    fn a_phrase_is_found_where_its_tokens_are() {
        // Texts and phrases drawn from a few characters, so that phrases recur, overlap,
        // fold together and span a dropped mark; each counted by the tokens of both.
        const POOL: [char; 10] = ['a', 'A', 'b', 'é', 'É', 'e', '\u{301}', ' ', '日', '😀'];
        let mut state = 0x2545_F491_4F6C_DD1D_u64;
        let mut below = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut found = 0;
        for case in 0..4000 {
            let text: String = (0..below(30)).map(|_| POOL[below(POOL.len())]).collect();
            // Half of the phrases are drawn from the text: those are found.
            let phrase: String = if case % 2 == 0 && !text.is_empty() {
                let chars: Vec<char> = text.chars().collect();
                let from = below(chars.len());
                chars[from..chars.len().min(from + below(6))]
                    .iter()
                    .collect()
            } else {
                (0..below(6)).map(|_| POOL[below(POOL.len())]).collect()
            };
            for fold in [plain as fn(char) -> Option<char>, lower, Some] {
                let expected = by_tokens(&mut trigram(fold), &phrase, &text);
                let got = by_folding(&mut trigram(fold), &phrase, &text);
                assert_eq!(got, expected, "case {case}: {phrase:?} in {text:?}");
                found += expected;
            }
        }
        assert!(found > 2000, "{found}");
    }

    #[test]
    fn places_overlap() {
        let f = Folded::new(b"aaa", 3);
        assert_eq!(f.places(b"aaaa"), 2);
        assert_eq!(f.places(b"aa"), 0);
        assert_eq!(Folded::new(b"ab", 2).places(b"abab"), 0);
    }
}
