//! The injection log beside the library (`memory.db` → `memory.db.injections`): one JSON
//! line for each block of context `recall hook` gave an agent, so that a person can see
//! what the hook injected, when, and at what size (`recall status`, the review page).
//!
//! A line is `{"at", "event", "session", "chars", "items", "ms"}`: the time (ISO-8601
//! UTC), the hook's event, the session id when known, the characters of the context the
//! agent was given (as the agents count them: UTF-16 code units, JavaScript's string
//! length, which Claude Code's 10,000-character limit counts), the ids of the items the
//! block lists, and the hook's milliseconds from its start to its output. No item text.
//!
//! It follows the failure log's rules (`log::append_line`): appended with `O_APPEND`,
//! never an error nor a wait, renamed to `memory.db.injections.1` at `log::MAX_BYTES`.
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::log;
use crate::library::sidecar;

/// The log's suffix after the library's path.
pub const SUFFIX: &str = ".injections";

/// How many injections `Status` keeps, the newest first: `recall status` prints the
/// first few (`SHOWN_IN_TEXT`), the review page lists them all.
pub const LATEST: usize = 20;

/// How many of them `recall status` prints as text.
pub const SHOWN_IN_TEXT: usize = 3;

pub fn path_of(library: &Path) -> PathBuf {
    sidecar(library, SUFFIX)
}

/// One block the hook gave an agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Injection {
    pub at: String,
    pub event: String,
    pub session: Option<String>,
    pub chars: usize,
    pub items: Vec<i64>,
    pub ms: u64,
}

/// Appends an injection to the log beside `library`; never an error, never a wait.
pub fn append(
    library: &Path,
    event: &str,
    session: Option<&str>,
    chars: usize,
    items: &[i64],
    ms: u64,
) {
    let entry = Injection {
        at: chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string(),
        event: crate::text::field(event).chars().take(64).collect(),
        session: session.map(|s| crate::text::field(s).chars().take(128).collect()),
        chars,
        items: items.to_vec(),
        ms,
    };
    log::append_line(library, SUFFIX, &entry);
}

/// The injections of the log and its rotated part, oldest first.
pub fn read(library: &Path) -> std::io::Result<Vec<Injection>> {
    log::read_lines(library, SUFFIX)
}

/// What the log holds, as `recall status` shows it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Injections {
    /// The blocks the log holds (the current file and its rotated part), their
    /// characters and their items, in all.
    pub blocks: usize,
    pub chars: usize,
    pub items: usize,
    /// The same by event, in the order each event first appears.
    pub by_event: Vec<EventTotal>,
    /// The largest block and the slowest event.
    pub max_chars: usize,
    pub max_ms: u64,
    /// The newest `LATEST`, the newest first.
    pub latest: Vec<Injection>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventTotal {
    pub event: String,
    pub blocks: usize,
    pub chars: usize,
}

/// The totals and the newest entries of `all` (oldest first).
pub fn totals(all: &[Injection]) -> Injections {
    let mut by_event: Vec<EventTotal> = Vec::new();
    for i in all {
        match by_event.iter_mut().find(|e| e.event == i.event) {
            Some(e) => {
                e.blocks += 1;
                e.chars += i.chars;
            }
            None => by_event.push(EventTotal {
                event: i.event.clone(),
                blocks: 1,
                chars: i.chars,
            }),
        }
    }
    Injections {
        blocks: all.len(),
        chars: all.iter().map(|i| i.chars).sum(),
        items: all.iter().map(|i| i.items.len()).sum(),
        by_event,
        max_chars: all.iter().map(|i| i.chars).max().unwrap_or(0),
        max_ms: all.iter().map(|i| i.ms).max().unwrap_or(0),
        latest: all.iter().rev().take(LATEST).cloned().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn library(test: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("recall-injections-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("memory.db")
    }

    #[test]
    fn injections_are_read_back_totalled_and_bounded() {
        let lib = library("bounded");
        append(&lib, "SessionStart", Some("s1"), 1200, &[5, 4], 31);
        append(&lib, "PostToolUse", Some("s1"), 300, &[4], 12);
        append(&lib, "SessionStart", None, 700, &[], 9);
        let all = read(&lib).unwrap();
        assert_eq!(all.len(), 3);
        assert_eq!(all[0].items, vec![5, 4]);
        assert_eq!(all[2].session, None);
        let t = totals(&all);
        assert_eq!((t.blocks, t.chars, t.items), (3, 2200, 3));
        assert_eq!((t.max_chars, t.max_ms), (1200, 31));
        assert_eq!(
            t.by_event,
            vec![
                EventTotal {
                    event: "SessionStart".into(),
                    blocks: 2,
                    chars: 1900
                },
                EventTotal {
                    event: "PostToolUse".into(),
                    blocks: 1,
                    chars: 300
                },
            ]
        );
        assert_eq!(t.latest[0].chars, 700, "the newest first");
        for i in 0..3000 {
            append(&lib, "UserPromptSubmit", Some("s"), i, &[1, 2, 3], 5);
        }
        let now = std::fs::metadata(path_of(&lib)).unwrap().len();
        let old = std::fs::metadata(sidecar(&lib, ".injections.1"))
            .unwrap()
            .len();
        assert!(now <= log::MAX_BYTES + 1024, "{now}");
        assert!(old <= log::MAX_BYTES + 1024, "{old}");
        let kept = read(&lib).unwrap();
        assert_eq!(kept.last().unwrap().chars, 2999);
        assert_eq!(totals(&kept).latest.len(), LATEST);
        // Nowhere to write: nothing happens, nothing fails.
        append(
            Path::new("/nonexistent-folder/memory.db"),
            "x",
            None,
            1,
            &[],
            1,
        );
        assert!(read(Path::new("/nonexistent-folder/memory.db"))
            .unwrap()
            .is_empty());
    }
}
