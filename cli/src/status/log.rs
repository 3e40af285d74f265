//! The failure log beside the library (`memory.db` → `memory.db.failures`): one JSON line
//! for each failure of `recall hook` and of a capture it started, which `recall status`
//! and the session start's notice read. The hook never fails its agent, so its stderr is
//! hidden: this file is where a person learns that the memory stopped filling.
//!
//! A line is `{"at", "event", "session", "reason", "library"}`: the time (ISO-8601 UTC),
//! the hook's event (`SessionStart`, `UserPromptSubmit`, `SessionEnd` …, `hook` when the
//! payload was not read, `capture` for a detached capture), the session id when known,
//! the reason and the library's path. A reason is recall's own error message, with its
//! secrets of well-known shapes redacted, made one line and cut to `REASON_CHARS`; no item
//! text is written.
//!
//! Appending never fails nor waits: the file is opened with `O_APPEND` (each line one
//! `write`, whole even when hooks write at once), any error is ignored (a folder this
//! user cannot write keeps no log). When the file has reached `MAX_BYTES` it is renamed
//! to `memory.db.failures.1` (replacing the one before), so the log never holds more than
//! about twice `MAX_BYTES`.
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::library::sidecar;

/// The log's suffix after the library's path.
pub const SUFFIX: &str = ".failures";

/// The size at which the log is rotated.
pub const MAX_BYTES: u64 = 64 * 1024;

/// The longest reason kept, in characters.
pub const REASON_CHARS: usize = 300;

/// The event of a failure before the hook's JSON was read.
pub const HOOK: &str = "hook";

/// The event of a detached capture's failure.
pub const CAPTURE: &str = "capture";

pub fn path_of(library: &Path) -> PathBuf {
    sidecar(library, SUFFIX)
}

/// The rotated log, kept once.
pub fn rotated_of(library: &Path) -> PathBuf {
    sidecar(library, &format!("{SUFFIX}.1"))
}

/// One failure, as a line of the log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    pub at: String,
    pub event: String,
    pub session: Option<String>,
    pub reason: String,
    pub library: String,
}

/// A reason as the log keeps it: secrets redacted, one line, at most `REASON_CHARS`.
pub fn reason(message: &str) -> String {
    let (clean, _) = recall_core::redact::redact(message);
    let line = crate::text::field(&clean);
    match line.char_indices().nth(REASON_CHARS) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.into_owned(),
    }
}

/// Appends a failure to the log beside `library`; never an error, never a wait.
pub fn append(library: &Path, event: &str, session: Option<&str>, message: &str) {
    let failure = Failure {
        at: chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string(),
        event: crate::text::field(event).chars().take(64).collect(),
        session: session.map(|s| crate::text::field(s).chars().take(128).collect()),
        reason: reason(message),
        library: crate::text::field(
            &std::path::absolute(library)
                .unwrap_or_else(|_| library.to_path_buf())
                .to_string_lossy(),
        )
        .into_owned(),
    };
    append_line(library, SUFFIX, &failure);
}

/// Appends `entry` as one JSON line to the file beside `library` named by `suffix`,
/// renaming it to `SUFFIX.1` first once it has reached `MAX_BYTES`; never an error,
/// never a wait. The one rule of every log beside the library (`injections` too).
pub(crate) fn append_line<T: Serialize>(library: &Path, suffix: &str, entry: &T) {
    let Ok(mut line) = serde_json::to_string(entry) else {
        return;
    };
    line.push('\n');
    let path = sidecar(library, suffix);
    if std::fs::metadata(&path).is_ok_and(|m| m.len() >= MAX_BYTES) {
        // Two hooks may both rotate: the second moves a log of a line or two over the
        // first's `.1`, which loses old lines only.
        let _ = std::fs::rename(&path, sidecar(library, &format!("{suffix}.1")));
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path);
    if let Ok(mut file) = file {
        let _ = file.write_all(line.as_bytes());
    }
}

/// The failures of the log and its rotated part, oldest first; lines that are not a
/// failure (a torn or foreign line) are left out. At most `MAX_BYTES` of each file's end
/// is read, whatever its size.
pub fn read(library: &Path) -> std::io::Result<Vec<Failure>> {
    read_lines(library, SUFFIX)
}

/// The entries of the log beside `library` named by `suffix` and of its rotated part,
/// oldest first; lines that are not an entry (a torn or foreign line) are left out. At
/// most `MAX_BYTES` of each file's end is read, whatever its size.
pub(crate) fn read_lines<T: serde::de::DeserializeOwned>(
    library: &Path,
    suffix: &str,
) -> std::io::Result<Vec<T>> {
    let mut all = Vec::new();
    for path in [
        sidecar(library, &format!("{suffix}.1")),
        sidecar(library, suffix),
    ] {
        let text = match tail(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        all.extend(
            text.lines()
                .filter_map(|line| serde_json::from_str::<T>(line).ok()),
        );
    }
    Ok(all)
}

fn tail(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    let mut bytes = Vec::new();
    if len > MAX_BYTES {
        file.seek(SeekFrom::Start(len - MAX_BYTES))?;
    }
    file.take(MAX_BYTES).read_to_end(&mut bytes)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn library(test: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("recall-log-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("memory.db")
    }

    #[test]
    fn a_reason_is_one_line_bounded_and_without_secrets() {
        let token = "ghp_4kQ9wZ7tR2mX8vB1nL6pS3dF0gH5jK7yU2eW";
        let r = reason(&format!("push failed\nwith {token}"));
        assert!(!r.contains(token), "{r}");
        assert!(!r.contains('\n'), "{r}");
        let long = reason(&"é".repeat(1000));
        assert_eq!(long.chars().count(), REASON_CHARS + 1);
        assert!(long.ends_with('…'));
    }

    #[test]
    fn lines_are_appended_read_back_and_rotated_at_the_bound() {
        let lib = library("rotated");
        append(&lib, "SessionEnd", Some("s1"), "the library is locked");
        append(&lib, HOOK, None, "standard input is not the hook's JSON");
        let read_back = read(&lib).unwrap();
        assert_eq!(read_back.len(), 2);
        assert_eq!(read_back[0].event, "SessionEnd");
        assert_eq!(read_back[0].session.as_deref(), Some("s1"));
        assert_eq!(read_back[1].session, None);
        assert_eq!(
            read_back[1].library,
            lib.display().to_string(),
            "absolute already"
        );
        for i in 0..2000 {
            append(&lib, CAPTURE, Some("s"), &format!("failure {i}"));
        }
        let log = std::fs::metadata(path_of(&lib)).unwrap().len();
        let old = std::fs::metadata(rotated_of(&lib)).unwrap().len();
        assert!(log <= MAX_BYTES + 1024, "{log}");
        assert!(old <= MAX_BYTES + 1024, "{old}");
        let kept = read(&lib).unwrap();
        assert_eq!(kept.last().unwrap().reason, "failure 1999");
        // Nowhere to write: nothing happens, nothing fails.
        append(Path::new("/nonexistent-folder/memory.db"), HOOK, None, "x");
        assert!(read(Path::new("/nonexistent-folder/memory.db"))
            .unwrap()
            .is_empty());
    }
}
