//! The `recall` tokenizer on any bytes: it never panics, every token is non-empty and at
//! most MAX_TOKEN_BYTES, its offsets lie on character boundaries of valid UTF-8 inside
//! the input in non-decreasing start order, the first token is never colocated, and a
//! consumer that stops early stops the tokenizer.
#![no_main]
use libfuzzer_sys::fuzz_target;
use recall_core::tokenize::{tokenize_bytes, Mode, MAX_TOKEN_BYTES};
use std::ops::ControlFlow;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, input)) = data.split_first() else { return };
    let mode = if flags & 1 == 0 { Mode::Document } else { Mode::Query };
    let stop_after = usize::from(flags >> 1);
    let mut count = 0usize;
    let mut last_start = 0usize;
    let flow = tokenize_bytes(input, mode, &mut |t| {
        assert!(!t.text.is_empty(), "empty token");
        assert!(t.text.len() <= MAX_TOKEN_BYTES, "token of {} bytes", t.text.len());
        assert!(t.start < t.end && t.end <= input.len(), "offsets {}..{}", t.start, t.end);
        assert!(std::str::from_utf8(&input[t.start..t.end]).is_ok(), "offsets split a character");
        assert!(t.start >= last_start, "start went back");
        assert!(count > 0 || !t.colocated, "first token colocated");
        last_start = t.start;
        count += 1;
        if stop_after > 0 && count == stop_after {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!(flow.is_break(), stop_after > 0 && count == stop_after);
});
