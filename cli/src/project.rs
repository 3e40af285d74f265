//! A session's project, from its working folder, the same wherever capture runs: the
//! longest configured folder prefix (`[projects]` in the configuration, checked by
//! `crate::config::projects`); else the repository holding the folder, a git worktree
//! belonging to the repository it was made from; else the folder's own name.
//!
//! A working folder is read as the agent wrote it, a Linux or macOS path (`/home/me/shop`)
//! or a Windows one (`C:\Users\me\shop`, `\\server\share\shop`), whatever system capture
//! runs on. Only an absolute folder of this system's own kind is looked up on disk (its
//! `.git`); a relative one is never resolved against the folder capture runs in.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The project of the working folder `cwd`; none when it names no folder, or a home or
/// system folder (`/home/NAME`, `C:\Users\NAME`, `C:\Windows\System32`, `/root`,
/// `/tmp`), which is where a person is, not what they work on.
pub fn project_of(cwd: &str, prefixes: &BTreeMap<String, String>) -> Option<String> {
    let folder = Folder::parse(cwd);
    if let Some(name) = mapped(&folder, prefixes) {
        return Some(name);
    }
    if folder.no_project() {
        return None;
    }
    match repository(&folder) {
        Some(Repository::Checkout(top)) => {
            let top_folder = Folder::parse(&top.to_string_lossy());
            // A home kept in git (dotfiles) is no project: the folder's own name is.
            if top_folder.no_project() {
                return folder.name();
            }
            mapped(&top_folder, prefixes).or_else(|| top_folder.name())
        }
        Some(Repository::Named(name)) => Some(name),
        None => folder.name(),
    }
}

/// Whether `cwd` is a folder of this system that is here, so that its repository is
/// read from git.
pub fn is_here(cwd: &str) -> bool {
    let folder = Folder::parse(cwd);
    folder.native() && Path::new(cwd.trim()).is_dir()
}

/// The folders holding `cwd` that may be a project, outermost first: neither a root nor
/// a home or system folder, nor one holding one; `cwd` itself last. Written as the agent
/// wrote `cwd`, with `/` between parts (`\` for a Windows folder).
pub fn project_folders(cwd: &str) -> Vec<String> {
    let folder = Folder::parse(cwd);
    if !folder.absolute {
        return Vec::new();
    }
    let mut out = Vec::new();
    for n in 1..=folder.parts.len() {
        let f = Folder {
            parts: folder.parts[..n].to_vec(),
            ..folder.clone()
        };
        let home_or_above = f.no_project()
            || Folder {
                parts: [f.parts.clone(), vec!["x".into()]].concat(),
                ..folder.clone()
            }
            .no_project();
        if !home_or_above {
            out.push(f.written());
        }
    }
    out
}

/// Whether `text` is an absolute folder of either kind: `/…`, `C:\…` or `C:/…`, `\\server\share…`.
pub fn is_absolute_folder(text: &str) -> bool {
    Folder::parse(text).absolute
}

/// A file as items name it: its path relative to the top folder of the checkout holding
/// it (the nearest folder up with a `.git`, a worktree's own), so that another clone of
/// the same repository names it alike; a file in no checkout keeps its absolute path. A
/// relative `file` is read against `cwd` (how Codex's patches name files); without a
/// `cwd` it is taken as relative to its checkout already. The checkout is looked up on
/// disk for this system's own kind of path only; the file itself need not exist.
pub fn file_in_checkout(file: &str, cwd: Option<&str>) -> String {
    let f = Folder::parse(file);
    let whole = match (f.absolute, cwd.map(Folder::parse)) {
        (true, _) => f,
        (false, Some(mut c)) if c.absolute => {
            c.parts.extend(f.parts);
            c
        }
        (false, _) => return normal(&f.parts).join("/"),
    };
    let parts = normal(&whole.parts);
    if whole.native() {
        let sep = std::path::MAIN_SEPARATOR_STR;
        for top in (1..parts.len()).rev() {
            let dir = match whole.windows {
                true => format!("{}\\{}", whole.root, parts[..top].join(sep)),
                false => format!("/{}", parts[..top].join(sep)),
            };
            if Path::new(&dir).join(".git").exists() {
                return parts[top..].join("/");
            }
        }
    }
    match (whole.windows, whole.root.contains('\\')) {
        (true, false) => format!("{}\\{}", whole.root, parts.join("\\")),
        (true, true) => format!("\\\\{}\\{}", whole.root, parts.join("\\")),
        (false, _) => format!("/{}", parts.join("/")),
    }
}

/// The parts with each `..` taking back the part before it.
fn normal(parts: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in parts {
        match p.as_str() {
            ".." if out.last().is_some_and(|l| l != "..") => {
                out.pop();
            }
            _ => out.push(p.clone()),
        }
    }
    out
}

#[derive(Debug, Clone, PartialEq)]
struct Folder {
    windows: bool,
    absolute: bool,
    /// The drive (`c:`) or the server and share of a Windows folder, lower-cased.
    root: String,
    parts: Vec<String>,
}

impl Folder {
    fn parse(text: &str) -> Folder {
        let text = text.trim();
        // `\\?\C:\…` is a Windows folder written for long paths.
        let text = text
            .strip_prefix(r"\\?\UNC\")
            .map(|rest| format!(r"\\{rest}"))
            .unwrap_or_else(|| text.strip_prefix(r"\\?\").unwrap_or(text).to_string());
        let b = text.as_bytes();
        let drive = b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':';
        let unc = text.starts_with(r"\\") || (text.starts_with("//") && text.contains('\\'));
        let windows = drive || unc || (!text.starts_with('/') && text.contains('\\'));
        let split = |s: &str| -> Vec<String> {
            s.split(|c| c == '/' || (windows && c == '\\'))
                .filter(|p| !p.is_empty() && *p != ".")
                .map(str::to_string)
                .collect()
        };
        if drive {
            let rest = &text[2..];
            return Folder {
                windows: true,
                absolute: rest.starts_with(['\\', '/']),
                root: text[..2].to_ascii_lowercase(),
                parts: split(rest),
            };
        }
        if unc {
            let mut parts = split(&text);
            let share: Vec<String> = parts.drain(..parts.len().min(2)).collect();
            return Folder {
                windows: true,
                absolute: share.len() == 2,
                root: share.join("\\").to_lowercase(),
                parts,
            };
        }
        Folder {
            windows,
            absolute: text.starts_with('/'),
            root: String::new(),
            parts: split(&text),
        }
    }

    /// Whether `self` is `other` or a folder inside it; Windows folders compare without
    /// regard to case, as Windows does.
    fn within(&self, other: &Folder) -> bool {
        let same = |a: &str, b: &str| {
            if self.windows {
                a.to_lowercase() == b.to_lowercase()
            } else {
                a == b
            }
        };
        self.windows == other.windows
            && self.absolute == other.absolute
            && self.root == other.root
            && other.parts.len() <= self.parts.len()
            && other.parts.iter().zip(&self.parts).all(|(a, b)| same(a, b))
    }

    /// The folder's own name; a bare repository's without its `.git`.
    fn name(&self) -> Option<String> {
        let last = self.parts.iter().rev().find(|p| *p != "..")?;
        let name = match last.strip_suffix(".git") {
            Some(stem) if !stem.is_empty() => stem,
            _ => last.as_str(),
        };
        Some(name.to_string())
    }

    /// Whether the folder is a root, a home or a system folder: where a person or the
    /// system is, never a project (`/`, `/home`, `/home/NAME`, `/Users/NAME`, `/root`,
    /// `/tmp`, `C:\`, `C:\Users\NAME`, `C:\Windows\System32`).
    fn no_project(&self) -> bool {
        if !self.absolute {
            return false;
        }
        let p: Vec<String> = self.parts.iter().map(|p| p.to_lowercase()).collect();
        let p: Vec<&str> = p.iter().map(String::as_str).collect();
        // WSL reaches the Windows drives under `/mnt/c`.
        let p: &[&str] = match p.as_slice() {
            ["mnt", drive, rest @ ..] if drive.len() == 1 => rest,
            whole => whole,
        };
        matches!(
            p,
            [] | ["home"
                | "users"
                | "root"
                | "tmp"
                | "temp"
                | "var"
                | "private"
                | "windows"
                | "opt"]
                | ["home" | "users", _]
                | ["private", "tmp" | "var"]
                | ["var", "tmp" | "folders"]
                | ["windows", "system32" | "syswow64"]
        )
    }

    /// The folder as the agent would write it.
    fn written(&self) -> String {
        match (self.windows, self.root.contains('\\')) {
            (true, false) => format!("{}\\{}", self.root, self.parts.join("\\")),
            (true, true) => format!("\\\\{}\\{}", self.root, self.parts.join("\\")),
            (false, _) => format!("/{}", self.parts.join("/")),
        }
    }

    /// A folder of this system's kind, absolute: one that can be looked up here.
    fn native(&self) -> bool {
        self.absolute && self.windows == cfg!(windows)
    }
}

/// The name of the longest configured folder holding `folder`.
fn mapped(folder: &Folder, prefixes: &BTreeMap<String, String>) -> Option<String> {
    prefixes
        .iter()
        .map(|(prefix, name)| (Folder::parse(prefix), name))
        .filter(|(prefix, _)| folder.within(prefix))
        .max_by_key(|(prefix, _)| prefix.parts.len())
        .map(|(_, name)| name.clone())
}

enum Repository {
    /// The top folder of the repository's main checkout, found on disk.
    Checkout(PathBuf),
    /// The repository's name, read from where the agent keeps its worktrees.
    Named(String),
}

fn repository(folder: &Folder) -> Option<Repository> {
    if folder.native() {
        // The folder as written, not re-joined: this system's own kind of path.
        let parts = folder.parts.join(std::path::MAIN_SEPARATOR_STR);
        let path = if folder.windows {
            PathBuf::from(format!("{}\\{parts}", folder.root))
        } else {
            PathBuf::from(format!("/{parts}"))
        };
        for dir in path.ancestors() {
            let dotgit = dir.join(".git");
            match std::fs::metadata(&dotgit) {
                Ok(m) if m.is_dir() => return Some(Repository::Checkout(dir.to_path_buf())),
                Ok(m) if m.is_file() => {
                    return Some(Repository::Checkout(
                        main_checkout(dir, &dotgit).unwrap_or_else(|| dir.to_path_buf()),
                    ))
                }
                _ => {}
            }
        }
    }
    worktree_owner(&folder.parts).map(Repository::Named)
}

/// The main checkout of a git worktree: its `.git` file reads `gitdir: <repository's git
/// folder>/worktrees/<name>`, whose `commondir` names the repository's git folder. A
/// `.git` file without `commondir` (a submodule) is a checkout of its own: None.
fn main_checkout(dir: &Path, dotgit: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(dotgit).ok()?;
    let gitdir = text.lines().find_map(|l| l.strip_prefix("gitdir:"))?.trim();
    let gitdir = dir.join(gitdir);
    let common = std::fs::read_to_string(gitdir.join("commondir")).ok()?;
    let common = gitdir.join(common.trim());
    let common = std::fs::canonicalize(&common).unwrap_or(common);
    if common.file_name().is_some_and(|n| n == ".git") {
        common.parent().map(Path::to_path_buf)
    } else {
        // A bare repository: the git folder is the repository.
        Some(common)
    }
}

/// The repository of a worktree kept where the agents and the usual tools keep them,
/// read from the folder's path alone (the folder need not exist here): where each agent
/// keeps them (`Agent::worktree_owner`: `.claude-worktrees/<repo>/<name>`,
/// `<repo>/.claude/worktrees/<name>`, `.codex/worktrees/<id>/<repo>`), and
/// `<repo>-worktrees/<name>`.
fn worktree_owner(parts: &[String]) -> Option<String> {
    let at = |i: usize| parts.get(i).map(String::as_str);
    (0..parts.len()).rev().find_map(|i| {
        crate::agents::Agent::worktree_owner(parts, i).or_else(|| {
            at(i)?
                .strip_suffix("-worktrees")
                .filter(|repo| !repo.is_empty() && at(i + 1).is_some())
                .map(str::to_string)
        })
    })
}

/// The checkout holding `dir`: the nearest folder up, `dir` itself included, with a
/// `.git` (a folder, or the file of a worktree); None outside any.
pub fn checkout_of(dir: &Path) -> Option<&Path> {
    dir.ancestors().find(|d| d.join(".git").exists())
}

/// The files among an item's atoms (capture writes there the files a session wrote or
/// edited, one a line, after its errors and commands): the lines that are a path. Each
/// named from its checkout's top folder when it is one here, else from the project's
/// folder in the path (`/home/a/shop/src/tax.rs` in project shop: `src/tax.rs`).
/// A name without a folder (`inventory.py`, as Codex's patches name a file at the
/// checkout's top) is a file only where `top`, the working folder's checkout, holds it:
/// alone, such a line could as well be a version or a host name.
pub fn item_files(
    atoms: &str,
    project: Option<&str>,
    top: Option<&std::path::Path>,
) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    for line in atoms.lines().map(str::trim) {
        // Absolute (Claude Code's tools), or relative to the working folder with a
        // folder and an extension (Codex's patches: `src/tax.rs`).
        let relative_file = || {
            line.contains('/')
                && line
                    .rsplit('/')
                    .next()
                    .and_then(|name| name.rsplit_once('.'))
                    .is_some_and(|(stem, ext)| {
                        !stem.is_empty()
                            && !ext.is_empty()
                            && ext.chars().all(|c| c.is_ascii_alphanumeric())
                    })
        };
        let top_file = || {
            !line.contains(['/', '\\'])
                && line.rsplit_once('.').is_some_and(|(stem, ext)| {
                    !stem.is_empty() && ext.starts_with(|c: char| c.is_ascii_alphabetic())
                })
                && top.is_some_and(|t| t.join(line).is_file())
        };
        let path_like = !line.is_empty()
            && !line.contains(char::is_whitespace)
            && !line.contains("://")
            && (crate::project::is_absolute_folder(line) || relative_file() || top_file());
        if !path_like {
            continue;
        }
        let mut name = crate::project::file_in_checkout(line, None);
        if crate::project::is_absolute_folder(&name) {
            if let Some(p) = project.filter(|p| !p.is_empty()) {
                for sep in ['/', '\\'] {
                    let marker = format!("{sep}{p}{sep}");
                    if let Some(at) = name.rfind(&marker) {
                        name = name[at + marker.len()..].to_string();
                        break;
                    }
                }
            }
        }
        if !files.contains(&name) {
            files.push(name);
        }
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_and_system_folders_are_no_project() {
        let none = BTreeMap::new();
        for folder in [
            "/home/dev",
            "/home/dev/",
            "/Users/Mischa",
            r"C:\Users\Mischa",
            "c:/users/mischa",
            r"C:\Windows\System32",
            "/root",
            "/tmp",
            "/",
            r"C:\",
            "/mnt/c/Users/mischa",
        ] {
            assert_eq!(project_of(folder, &none), None, "{folder}");
        }
        for (folder, name) in [
            ("/home/dev/shop", "shop"),
            (r"C:\Users\Mischa\Documents\M-Claude", "M-Claude"),
            ("/tmp/scratch-repo", "scratch-repo"),
            ("/srv/app", "app"),
        ] {
            assert_eq!(project_of(folder, &none).as_deref(), Some(name), "{folder}");
        }
        assert_eq!(
            project_folders("/home/dev/shop/api"),
            vec!["/home/dev/shop", "/home/dev/shop/api"]
        );
        assert_eq!(
            project_folders(r"C:\Users\me\shop"),
            vec![r"c:\Users\me\shop"]
        );
        assert!(project_folders("/home/dev").is_empty());
    }

    #[test]
    fn mapping_then_git_then_folder() {
        let dir = std::env::temp_dir().join(format!("recall-project-{}", std::process::id()));
        let inner = dir.join("shop").join("src").join("api");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::create_dir_all(dir.join("shop").join(".git")).unwrap();
        let none = BTreeMap::new();
        assert_eq!(
            project_of(inner.to_str().unwrap(), &none),
            Some("shop".into())
        );
        assert_eq!(project_of("/nowhere/at/all", &none), Some("all".into()));
        let map: BTreeMap<String, String> = [
            (dir.to_string_lossy().to_string(), "outer".to_string()),
            (
                dir.join("shop/src").to_string_lossy().to_string(),
                "inner".to_string(),
            ),
            // A prefix of the text but not of the path's folders does not apply.
            (
                dir.join("sh").to_string_lossy().to_string(),
                "wrong".to_string(),
            ),
        ]
        .into_iter()
        .collect();
        assert_eq!(
            project_of(inner.to_str().unwrap(), &map),
            Some("inner".into())
        );
        assert_eq!(
            project_of(dir.join("shop").to_str().unwrap(), &map),
            Some("outer".into())
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_is_named_from_its_checkout_s_top() {
        let dir = std::env::temp_dir().join(format!("recall-file-{}", std::process::id()));
        let clone = dir.join("b").join("shop2");
        std::fs::create_dir_all(clone.join("src").join("billing")).unwrap();
        std::fs::create_dir_all(clone.join(".git")).unwrap();
        let top = clone.to_str().unwrap();
        let tax = format!("{top}/src/billing/tax.rs");
        assert_eq!(file_in_checkout(&tax, None), "src/billing/tax.rs");
        // A file not written yet, a relative path read against the working folder, `..`.
        let new = format!("{top}/src/new/mod.rs");
        assert_eq!(file_in_checkout(&new, Some("/elsewhere")), "src/new/mod.rs");
        assert_eq!(
            file_in_checkout("billing/../billing/tax.rs", Some(&format!("{top}/src"))),
            "src/billing/tax.rs"
        );
        // Outside any checkout: the absolute path; relative without a folder: as given.
        let outside = dir.join("notes.md");
        assert_eq!(
            file_in_checkout(outside.to_str().unwrap(), None),
            outside.to_str().unwrap()
        );
        assert_eq!(file_in_checkout("./src/a.rs", None), "src/a.rs");
        // Another system's path is never looked up here.
        assert_eq!(
            file_in_checkout(r"C:\work\shop\src\a.rs", None),
            r"c:\work\shop\src\a.rs"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn folders_of_both_kinds() {
        let f = Folder::parse(r"C:\Users\Mischa\Documents\M-Claude\");
        assert!(f.windows && f.absolute);
        assert_eq!(f.root, "c:");
        assert_eq!(f.parts, vec!["Users", "Mischa", "Documents", "M-Claude"]);
        let f = Folder::parse("c:/work/viewer");
        assert!(f.windows && f.absolute);
        assert_eq!(f.parts, vec!["work", "viewer"]);
        let f = Folder::parse(r"\\nas\team\shop\api");
        assert!(f.windows && f.absolute);
        assert_eq!(f.root, r"nas\team");
        assert_eq!(f.parts, vec!["shop", "api"]);
        let f = Folder::parse(r"\\?\C:\very\long");
        assert_eq!((f.root.as_str(), f.parts.len()), ("c:", 2));
        let f = Folder::parse("/home/dev/shop/");
        assert!(!f.windows && f.absolute);
        assert_eq!(f.parts, vec!["home", "dev", "shop"]);
        // A drive without a separator is relative to that drive's current folder.
        assert!(!Folder::parse("C:shop").absolute);
        assert!(!Folder::parse("./shop").absolute);
        for yes in ["/x", r"C:\x", "d:/x", r"\\server\share"] {
            assert!(is_absolute_folder(yes), "{yes}");
        }
        for no in ["x", r"x\y", "C:x", r"\\server", ""] {
            assert!(!is_absolute_folder(no), "{no}");
        }
    }

    #[test]
    fn worktrees_by_where_they_are_kept() {
        let parts = |s: &str| Folder::parse(s).parts;
        for (folder, repo) in [
            (
                r"C:\Users\Mischa\.claude-worktrees\M-Claude\unruffled-mcclintock",
                Some("M-Claude"),
            ),
            (
                "/Users/a/.claude-worktrees/shop/brave-turing/src",
                Some("shop"),
            ),
            ("/home/a/src/shop/.claude/worktrees/fix-tax", Some("shop")),
            ("/home/a/.codex/worktrees/3f1a/billing", Some("billing")),
            ("/home/a/.codex/worktrees/3f1a/billing/api", Some("billing")),
            (
                "/home/a/code/spotter-worktrees/spotter-dov",
                Some("spotter"),
            ),
            // The folder of worktrees itself, and one named so by chance, are not.
            ("/home/a/code/spotter-worktrees", None),
            ("/home/a/code/-worktrees/x", None),
            ("/home/a/.claude/worktrees", None),
            ("/home/a/shop", None),
        ] {
            assert_eq!(worktree_owner(&parts(folder)).as_deref(), repo, "{folder}");
        }
    }
}
