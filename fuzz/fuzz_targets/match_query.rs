//! recall_match's construction: at most 64 terms, each long enough, each quoted so that
//! its quotes pair up, `""` exactly when no term survives.
#![no_main]
use libfuzzer_sys::fuzz_target;
use recall_core::fts_match::{build_match, match_terms, MAX_TERMS};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    let min = usize::from(mode % 5);
    let drop = mode & 0x80 != 0;
    let terms = match_terms(&text, min, drop);
    assert!(terms.len() <= MAX_TERMS);
    for t in &terms {
        assert!(t.chars().count() >= min.max(1), "{t:?} shorter than {min}");
        assert!(!t.contains('\0'));
    }
    let m = build_match(&text, min, drop);
    if terms.is_empty() {
        assert_eq!(m, "\"\"");
    } else {
        // Outside strings only " OR " separators: walk the FTS5 string grammar.
        let mut chars = m.chars().peekable();
        let mut strings = 0;
        while let Some(c) = chars.next() {
            assert_eq!(c, '"', "a term must open with a quote in {m:?}");
            loop {
                match chars.next() {
                    Some('"') if chars.peek() == Some(&'"') => {
                        chars.next();
                    }
                    Some('"') => break,
                    Some(_) => {}
                    None => panic!("unterminated string in {m:?}"),
                }
            }
            strings += 1;
            if chars.peek().is_some() {
                let sep: String = chars.by_ref().take(4).collect();
                assert_eq!(sep, " OR ", "in {m:?}");
            }
        }
        assert_eq!(strings, terms.len());
    }
});
