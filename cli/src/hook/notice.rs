//! The line a session start adds after the memory block when the hook or a capture it
//! started failed since the last start that said so (`status::unmentioned_failure`):
//! each failure is mentioned once, recorded in the session state (`State::mentioned`);
//! when that record cannot be written (a locked or unwritable state), nothing is
//! mentioned, so that no failure is mentioned at every start. Looked at without a session
//! (`looking`: `recall ui`'s agent's view), the line is shown as the next start would
//! show it, and not recorded.
use std::cell::Cell;
use std::path::Path;

use crate::library::sessions::{Outcome, State};

thread_local! {
    /// Whether this thread is only looking at what the hook would print.
    static LOOKING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with the notice shown but not recorded as mentioned.
pub fn looking<T>(f: impl FnOnce() -> T) -> T {
    let before = LOOKING.with(|l| l.replace(true));
    let out = f();
    LOOKING.with(|l| l.set(before));
    out
}

/// One line naming the newest failure not mentioned before, or None; `status` is the
/// command line that runs `recall status` from the agent's shell (`reach`).
pub fn failure_notice(library: &Path, status: &str) -> Option<String> {
    let (at, line) = crate::status::unmentioned_failure(library, status)?;
    if LOOKING.with(Cell::get) {
        return Some(line);
    }
    (State::mentioned(library, &at) == Outcome::Changed).then_some(line)
}
