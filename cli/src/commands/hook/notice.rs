//! The line a session start adds after the memory block when the hook or a capture it
//! started failed since the last start that said so (`status::unmentioned_failure`):
//! each failure is mentioned once, recorded in the session state (`State::mentioned`);
//! when that record cannot be written (a locked or unwritable state), nothing is
//! mentioned, so that no failure is mentioned at every start.
use std::path::Path;

use super::state::{Outcome, State};

/// One line naming the newest failure not mentioned before, or None.
pub fn failure_notice(library: &Path) -> Option<String> {
    let (at, line) = crate::status::unmentioned_failure(library)?;
    (State::mentioned(library, &at) == Outcome::Changed).then_some(line)
}
