//! What the hook tells of itself: a problem or a note as one line on stderr, each also
//! appended to the failure log beside the library (`status::log`), and each context
//! given to the agent appended to the injection log (`status::injections`). Both logs
//! need to know what the hook has seen so far (`Seen`): the handlers only say what
//! happened.
use std::path::PathBuf;
use std::sync::Mutex;

use crate::text::field;

/// What the logs need to know of this hook, as it learns it: the library it was given
/// (then the one it opened), the event's name and the session.
#[derive(Clone, Default)]
struct Seen {
    library: Option<PathBuf>,
    event: Option<String>,
    session: Option<String>,
}

static SEEN: Mutex<Seen> = Mutex::new(Seen {
    library: None,
    event: None,
    session: None,
});

fn seen() -> Seen {
    SEEN.lock().map(|s| s.clone()).unwrap_or_default()
}

/// The library the hook was given (`--db`), or the one it opened; None keeps the one
/// seen before.
pub fn library(db: Option<PathBuf>) {
    if let Ok(mut seen) = SEEN.lock() {
        seen.library = db.or(seen.library.take());
    }
}

/// The event (by the name the agent sent) and its session.
pub fn event(name: &str, session: Option<String>) {
    if let Ok(mut seen) = SEEN.lock() {
        seen.event = Some(name.to_string());
        seen.session = session;
    }
}

/// Appends a problem to the failure log beside the library the hook was given (`--db`,
/// else `RECALL_DB`); without a library, nothing is logged.
fn log(message: &str) {
    let Seen {
        library,
        event,
        session,
    } = seen();
    let library = library.or_else(|| {
        std::env::var_os("RECALL_DB")
            .filter(|v| !v.is_empty())
            .map(Into::into)
    });
    if let Some(library) = library {
        let event = event.unwrap_or_else(|| crate::status::log::HOOK.to_string());
        crate::status::log::append(&library, &event, session.as_deref(), message);
    }
}

/// A problem, as one line that says what the agent goes on `without`, and logged.
pub fn say(without: &str, message: &str) {
    eprintln!("recall: hook: {}; {without}", field(message));
    log(message);
}

/// A note of something skipped (a locked state, a capture given up), as one line, and
/// logged.
pub fn note(message: &str) {
    eprintln!("recall: hook: {}", field(message));
    log(message);
}

/// Records a context given to the agent (`chars` characters, listing `items`) in the
/// injection log beside the library the hook opened; none, nothing is logged.
pub fn injected(chars: usize, items: &[i64], took: std::time::Duration) {
    let Seen {
        library,
        event,
        session,
    } = seen();
    if let (Some(library), Some(event)) = (library, event) {
        crate::status::injections::append(
            &library,
            &event,
            session.as_deref(),
            chars,
            items,
            u64::try_from(took.as_millis()).unwrap_or(u64::MAX),
        );
    }
}
