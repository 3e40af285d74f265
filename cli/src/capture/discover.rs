//! The session files to read: each PATH (a file, or a folder searched recursively for
//! `*.jsonl`), else the agents' default places. A folder that cannot be read, a symbolic
//! link that loops and a path that is not a regular file are reported, one line each,
//! and skipped; everything else is still found.
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::lines::{not_regular, unreadable};

/// The default places: each agent's folders of session files (Claude Code's projects,
/// Codex's sessions and the sessions it archived), those that exist.
pub fn default_roots() -> Vec<PathBuf> {
    crate::agents::Agent::ALL
        .iter()
        .flat_map(|a| a.session_folders())
        .filter(|r| r.exists())
        .collect()
}

/// The files under `roots`, sorted, and one line per problem met.
pub fn files(roots: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>) {
    let mut found = BTreeSet::new();
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for root in roots {
        match std::fs::metadata(root) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => problems.push(format!(
                "{}: no such file or folder; check the path; skipped",
                root.display()
            )),
            Err(e) => problems.push(format!("{}; skipped", unreadable(root, "read", &e))),
            Ok(m) if m.is_dir() => walk(root, &mut seen, &mut found, &mut problems),
            Ok(m) if m.is_file() => {
                found.insert(root.clone());
            }
            Ok(m) => problems.push(format!("{}; skipped", not_regular(root, &m))),
        }
    }
    (found.into_iter().collect(), problems)
}

fn walk(
    dir: &Path,
    seen: &mut BTreeSet<PathBuf>,
    found: &mut BTreeSet<PathBuf>,
    problems: &mut Vec<String>,
) {
    // A folder reached again through a link is a loop (or a second way to the same files).
    let real = match std::fs::canonicalize(dir) {
        Ok(r) => r,
        Err(e) => return problems.push(format!("{}; skipped", unreadable(dir, "read", &e))),
    };
    if !seen.insert(real) {
        return problems.push(format!(
            "{}: a symbolic link back to a folder already searched; its files are read once; skipped",
            dir.display()
        ));
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => return problems.push(format!("{}; skipped", unreadable(dir, "read", &e))),
    };
    let mut paths = Vec::new();
    for entry in entries {
        match entry {
            Ok(e) => paths.push(e.path()),
            Err(e) => return problems.push(format!("{}; skipped", unreadable(dir, "read", &e))),
        }
    }
    paths.sort();
    for path in paths {
        let session_name = path.extension().is_some_and(|e| e == "jsonl");
        match std::fs::metadata(&path) {
            // A link to nothing, or an entry gone since the listing: only a session
            // file's name makes it worth a line.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !session_name => {}
            Err(e) => problems.push(format!("{}; skipped", unreadable(&path, "read", &e))),
            Ok(m) if m.is_dir() => walk(&path, seen, found, problems),
            Ok(m) if session_name => {
                if m.is_file() {
                    found.insert(path);
                } else {
                    problems.push(format!("{}; skipped", not_regular(&path, &m)));
                }
            }
            Ok(_) => {}
        }
    }
}
