//! The page's secrets: the access token of the printed URL, and a token for each page
//! served, which its writes must show (CSRF). Each is 32 bytes from the system's random
//! source, written as hex, compared in a time that depends on the length only.
use std::collections::VecDeque;
use std::io::Read;
use std::sync::Mutex;

use crate::error::{err, Result};

/// How many pages' tokens are kept: a page older than the last this many loads must be
/// reloaded before it writes.
const PAGES_KEPT: usize = 64;

/// 32 random bytes as 64 hex digits.
pub fn random() -> Result<String> {
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| {
            err!("cannot read random bytes from /dev/urandom for the page's token: {e}")
        })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Equal bytes, in a time that depends on the lengths only.
pub fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// The tokens of the pages served, newest last.
#[derive(Default)]
pub struct Pages {
    issued: Mutex<VecDeque<String>>,
}

impl Pages {
    /// A new page's token.
    pub fn issue(&self) -> Result<String> {
        let token = random()?;
        let mut issued = self.issued.lock().unwrap_or_else(|p| p.into_inner());
        if issued.len() >= PAGES_KEPT {
            issued.pop_front();
        }
        issued.push_back(token.clone());
        Ok(token)
    }

    /// Whether `given` is the token of a page served.
    pub fn known(&self, given: &[u8]) -> bool {
        let issued = self.issued.lock().unwrap_or_else(|p| p.into_inner());
        // Every one compared, so the time says nothing of which.
        issued
            .iter()
            .fold(false, |found, t| same(t.as_bytes(), given) | found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_pages_known() {
        let a = random().unwrap();
        assert_eq!(a.len(), 64);
        assert_ne!(a, random().unwrap());
        let pages = Pages::default();
        let first = pages.issue().unwrap();
        assert!(pages.known(first.as_bytes()));
        assert!(!pages.known(b""));
        assert!(!pages.known(a.as_bytes()));
        for _ in 0..PAGES_KEPT {
            pages.issue().unwrap();
        }
        assert!(!pages.known(first.as_bytes()), "the oldest page is dropped");
    }
}
