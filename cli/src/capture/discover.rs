//! The session files to read: each PATH (a file, or a folder searched recursively for
//! `*.jsonl`), else the agents' default places. A folder that cannot be read, a symbolic
//! link that loops and a file that is not a regular one are reported and skipped.
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The default places: Claude Code's projects and Codex's sessions.
pub fn default_roots() -> Vec<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let claude = std::env::var_os("CLAUDE_CONFIG_DIR")
        .map(PathBuf::from)
        .or_else(|| home.as_ref().map(|h| h.join(".claude")));
    let codex = std::env::var_os("CODEX_HOME")
        .map(PathBuf::from)
        .or_else(|| home.as_ref().map(|h| h.join(".codex")));
    let mut roots = Vec::new();
    roots.extend(claude.map(|c| c.join("projects")));
    roots.extend(codex.map(|c| c.join("sessions")));
    roots.into_iter().filter(|r| r.exists()).collect()
}

/// The files under `roots`, sorted, and one line per problem met.
pub fn files(roots: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>) {
    let mut found = BTreeSet::new();
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for root in roots {
        match std::fs::metadata(root) {
            Err(e) => problems.push(format!("{}: {e}", root.display())),
            Ok(m) if m.is_dir() => walk(root, &mut seen, &mut found, &mut problems),
            Ok(m) if m.is_file() => {
                found.insert(root.clone());
            }
            Ok(_) => problems.push(format!(
                "{}: not a regular file or a folder; skipped",
                root.display()
            )),
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
        Err(e) => return problems.push(format!("{}: {e}; skipped", dir.display())),
    };
    if !seen.insert(real) {
        return problems.push(format!(
            "{}: a symbolic link back to a folder already searched; skipped",
            dir.display()
        ));
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            return problems.push(format!("{}: cannot be read ({e}); skipped", dir.display()))
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        match std::fs::metadata(&path) {
            Err(e) => problems.push(format!("{}: {e}; skipped", path.display())),
            Ok(m) if m.is_dir() => walk(&path, seen, found, problems),
            Ok(m) if path.extension().is_some_and(|e| e == "jsonl") => {
                if m.is_file() {
                    found.insert(path);
                } else {
                    problems.push(format!(
                        "{}: not a regular file (a pipe or a device); skipped",
                        path.display()
                    ));
                }
            }
            Ok(_) => {}
        }
    }
}
