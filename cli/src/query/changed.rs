//! Still true? The files of an item (the lines of its atoms that are paths, where capture
//! writes the files a session wrote or edited) that changed after the item's date
//! (`occurred_at`, the session's last record), as seen from a working folder: every
//! surface that shows an item names them (`changed_since`), and `recall search --fresh`
//! leaves such items out.
//!
//! Changed, in the working folder's git checkout: a commit touching the file after the
//! item's date (its committer date), or an uncommitted change to it made after that date
//! (the file's modification time; a file deleted and not committed has changed). Without
//! git (no checkout, or no `git` to run): the file's modification time after the date.
//! git is asked twice for all the paths of all the items at once: one `git log --since`
//! over their union, one `git status` of them. Only files that resolve in the working
//! folder's checkout can be checked: an absolute path inside it, or a path relative to
//! its top for an item of the working folder's own project (another project's
//! `src/main.rs` is another file). Other files are unknown, never changed.
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::answer::Answer;
use super::rows::{AroundRow, FileRow, ItemRow, LaterRow, Listed, RelatedRow, SearchRow};
use crate::error::Result;
use crate::library::Library;

/// The working folder items are checked from.
#[derive(Debug, Clone)]
pub struct Here {
    /// The top folder of its checkout, else the folder itself.
    base: PathBuf,
    /// Whether `base` is a git checkout's top.
    checkout: bool,
    /// Its project, by the rule of capture and the hook.
    project: Option<String>,
}

impl Here {
    pub fn of(folder: &Path, projects: &BTreeMap<String, String>) -> Here {
        let top = crate::project::checkout_of(folder);
        Here {
            base: top.unwrap_or(folder).to_path_buf(),
            checkout: top.is_some(),
            project: folder
                .to_str()
                .and_then(|f| crate::project::project_of(f, projects)),
        }
    }

    /// The process's own working folder (a command's, the MCP server's, the page's);
    /// None where it cannot be read.
    pub fn current(projects: &BTreeMap<String, String>) -> Option<Here> {
        std::env::current_dir()
            .ok()
            .map(|folder| Here::of(&folder, projects))
    }

    /// The hook's working folder, from its payload's `cwd`, where it is a folder here.
    pub fn at(cwd: Option<&str>, projects: &BTreeMap<String, String>) -> Option<Here> {
        let cwd = cwd.filter(|c| crate::project::is_here(c))?;
        Some(Here::of(Path::new(cwd.trim()), projects))
    }

    /// The path of an item's file relative to `base`, where it can be checked here.
    fn relative(&self, name: &str, project: Option<&str>) -> Option<String> {
        if crate::project::is_absolute_folder(name) {
            let rel = Path::new(name).strip_prefix(&self.base).ok()?;
            return rel.to_str().filter(|r| !r.is_empty()).map(str::to_string);
        }
        let ours = project.is_some_and(|p| self.project.as_deref() == Some(p));
        (ours && !name.starts_with("..")).then(|| name.to_string())
    }
}

/// What the check needs of an item.
pub struct Dated<'a> {
    pub id: i64,
    pub project: Option<&'a str>,
    pub date: &'a str,
    pub atoms: &'a str,
}

/// The files of each item that changed after its date, by id (items with none left
/// out), each named from its checkout's top as the item names it, in the order of its
/// atoms.
pub fn changed(here: &Here, items: &[Dated]) -> HashMap<i64, Vec<String>> {
    let top = here.checkout.then_some(here.base.as_path());
    let mut wanted: Vec<(i64, i64, Vec<String>)> = Vec::new();
    for item in items {
        let Some(at) = seconds(item.date) else {
            continue;
        };
        let mut files: Vec<String> = Vec::new();
        // Absolute lines inside this checkout, then the names the item gives its files.
        let absolute =
            item.atoms.lines().map(str::trim).filter(|l| {
                crate::project::is_absolute_folder(l) && !l.contains(char::is_whitespace)
            });
        let named = crate::project::item_files(item.atoms, item.project, top);
        for rel in absolute
            .filter_map(|l| here.relative(l, None))
            .chain(named.iter().filter_map(|n| here.relative(n, item.project)))
        {
            if !files.contains(&rel) {
                files.push(rel);
            }
        }
        if !files.is_empty() {
            wanted.push((item.id, at, files));
        }
    }
    let Some(since) = wanted.iter().map(|(_, at, _)| *at).min() else {
        return HashMap::new();
    };
    let paths: BTreeSet<&str> = wanted
        .iter()
        .flat_map(|(_, _, files)| files.iter().map(String::as_str))
        .collect();
    let paths: Vec<&str> = paths.into_iter().collect();
    let times = match here.checkout {
        true => git_times(&here.base, since, &paths),
        false => None,
    }
    .unwrap_or_else(|| modified_times(&here.base, &paths));
    wanted
        .into_iter()
        .filter_map(|(id, at, files)| {
            let changed: Vec<String> = files
                .into_iter()
                .filter(|f| times.get(f.as_str()).is_some_and(|t| *t > at))
                .collect();
            (!changed.is_empty()).then_some((id, changed))
        })
        .collect()
}

/// An item's date in seconds since the epoch.
fn seconds(date: &str) -> Option<i64> {
    chrono::DateTime::parse_from_rfc3339(date)
        .ok()
        .map(|d| d.timestamp())
}

/// How long the history is read: a long history since an old item is cut there (the
/// newest commits come first, so what was read stands; the files not reached by then
/// count as unchanged), so that a session start stays fast in any repository.
pub const GIT_LOG_DEADLINE: std::time::Duration = std::time::Duration::from_millis(200);

/// `git ARGS -- PATHS` in the checkout `top`, its output piped.
fn git(top: &Path, args: &[&str], paths: &[&str]) -> Command {
    let mut command = Command::new("git");
    command
        .arg("-C")
        .arg(top)
        // Never the index lock a person's git may want; names as they are, not quoted;
        // a path is a path, not a pattern.
        .args([
            "--no-optional-locks",
            "-c",
            "core.quotepath=off",
            "--literal-pathspecs",
        ])
        .args(args)
        .arg("--")
        .args(paths)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    command
}

/// The time each path last changed by git: its newest commit since `since` (committer
/// date), or where it has uncommitted changes, the later of that and its modification
/// time (now, for a file deleted). None where git cannot say (no git, not a checkout).
/// The log and the status run at once.
fn git_times(top: &Path, since: i64, paths: &[&str]) -> Option<HashMap<String, i64>> {
    let since = format!("--since=@{since}");
    let log = git(
        top,
        &[
            "log",
            "--no-renames",
            "--name-only",
            "--format=@%ct",
            &since,
        ],
        paths,
    )
    .spawn()
    .ok();
    let status = git(
        top,
        &[
            "status",
            "--porcelain=v1",
            "-z",
            "--untracked-files=all",
            "--no-renames",
        ],
        paths,
    )
    .output();
    let logged = log.map(read_log).unwrap_or_default();
    let status = status.ok().filter(|o| o.status.success())?;
    let mut times: HashMap<String, i64> = HashMap::new();
    let mut at = None;
    for line in logged.lines() {
        match line.strip_prefix('@') {
            Some(t) => at = t.trim().parse::<i64>().ok(),
            None if !line.is_empty() => {
                if let Some(t) = at {
                    let e = times.entry(line.to_string()).or_insert(t);
                    *e = (*e).max(t);
                }
            }
            None => {}
        }
    }
    for entry in status.stdout.split(|b| *b == 0) {
        let Some(path) = entry.get(3..).and_then(|p| std::str::from_utf8(p).ok()) else {
            continue;
        };
        let t = match std::fs::symlink_metadata(top.join(path)) {
            Ok(m) => modified(&m),
            Err(_) => Some(i64::MAX),
        };
        if let Some(t) = t {
            let e = times.entry(path.to_string()).or_insert(t);
            *e = (*e).max(t);
        }
    }
    Some(times)
}

/// The whole lines `git log` wrote within `GIT_LOG_DEADLINE`; past it, the process is
/// killed. A repository without a commit writes nothing (its log fails).
fn read_log(mut child: std::process::Child) -> String {
    use std::io::BufRead;
    let Some(out) = child.stdout.take() else {
        let _ = child.kill();
        let _ = child.wait();
        return String::new();
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines() {
            let Ok(line) = line else { return };
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    let deadline = std::time::Instant::now() + GIT_LOG_DEADLINE;
    let mut text = String::new();
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => {
                text.push_str(&line);
                text.push('\n');
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                let _ = child.kill();
                break;
            }
        }
    }
    let _ = child.wait();
    text
}

/// The modification time of each path under `base` that exists.
fn modified_times(base: &Path, paths: &[&str]) -> HashMap<String, i64> {
    paths
        .iter()
        .filter_map(|p| {
            let m = std::fs::metadata(base.join(p)).ok()?;
            Some((p.to_string(), modified(&m)?))
        })
        .collect()
}

fn modified(m: &std::fs::Metadata) -> Option<i64> {
    let t = m.modified().ok()?;
    Some(chrono::DateTime::<chrono::Utc>::from(t).timestamp())
}

/// A row that lists an item.
pub trait Marked {
    fn item(&mut self) -> &mut Listed;
}

impl Marked for Listed {
    fn item(&mut self) -> &mut Listed {
        self
    }
}

macro_rules! marked {
    ($($row:ty),*) => {$(
        impl Marked for $row {
            fn item(&mut self) -> &mut Listed {
                &mut self.item
            }
        }
    )*};
}
marked!(SearchRow, FileRow, RelatedRow, LaterRow, AroundRow);

/// Sets `changed_since` of each row, as seen from `here`: the rows' items read once
/// (their atoms, `sql/get.sql`), git asked once for all their files.
pub fn mark<R: Marked>(
    lib: &Library,
    here: Option<&Here>,
    rows: &mut [R],
    allow: &Option<Vec<String>>,
) -> Result<()> {
    let Some(here) = here else {
        return Ok(());
    };
    if rows.is_empty() {
        return Ok(());
    }
    let mut ids: Vec<i64> = rows.iter_mut().map(|r| r.item().id).collect();
    ids.dedup();
    let mut full = Vec::new();
    for chunk in ids.chunks(super::MAX_IDS) {
        full.extend(super::get_many(lib, chunk, false, allow)?.items);
    }
    mark_items(Some(here), &mut full);
    for row in rows {
        let item = row.item();
        if let Some(whole) = full.iter().find(|f| f.id == item.id) {
            item.changed_since = whole.changed_since.clone();
        }
    }
    Ok(())
}

/// Sets `changed_since` of each item, as seen from `here`.
pub fn mark_items(here: Option<&Here>, items: &mut [ItemRow]) {
    let Some(here) = here else {
        return;
    };
    let dated: Vec<Dated> = items
        .iter()
        .map(|i| Dated {
            id: i.id,
            project: i.project.as_deref(),
            date: &i.occurred_at,
            atoms: &i.atoms,
        })
        .collect();
    let mut changed = changed(here, &dated);
    for item in items {
        item.changed_since = changed.remove(&item.id).unwrap_or_default();
    }
}

/// With `--fresh`, how many more results a search asks for than it shows, so that the
/// items left out leave room for fresh ones.
const FRESH_ASKED: i64 = 3;

/// A search's `--fresh` (the command's flag, the MCP tool's and the page's `fresh`): the
/// limit asked for, then the answer marked and, when on, its changed items left out.
pub struct Fresh {
    on: bool,
    limit: i64,
}

impl Fresh {
    /// Raises `limit` to what is asked for when `on` (`FRESH_ASKED` times, at most the
    /// largest limit), keeping the one shown.
    pub fn ask(on: bool, limit: &mut i64) -> Fresh {
        let fresh = Fresh { on, limit: *limit };
        if on {
            *limit = limit
                .saturating_mul(FRESH_ASKED)
                .min(recall_core::defaults::LIST_MAX_LIMIT);
        }
        fresh
    }

    /// Marks the answer's results (`mark`); when on, keeps those whose files did not
    /// change, at most the limit shown, and shows the settings as asked (`limit`,
    /// `"fresh": true`).
    pub fn apply<R: Marked>(
        &self,
        lib: &Library,
        here: Option<&Here>,
        answer: &mut Answer<R>,
        allow: &Option<Vec<String>>,
    ) -> Result<()> {
        mark(lib, here, &mut answer.results, allow)?;
        if self.on {
            answer
                .results
                .retain_mut(|r| r.item().changed_since.is_empty());
            answer
                .results
                .truncate(usize::try_from(self.limit).unwrap_or(0));
            if let Some(shown) = answer.settings.as_object_mut() {
                shown.insert("limit".into(), self.limit.into());
                shown.insert("fresh".into(), true.into());
            }
        }
        Ok(())
    }
}
