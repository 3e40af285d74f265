//! Copies of one conversation are one item. A Claude Code session resumed (`claude -r`,
//! `--continue`, a session forked or sent to the background) is written to a new file
//! that opens with copies of the earlier session's records: the same `uuid`s and times
//! (under the new session's id, or, in versions 1.0, the earlier one's). Those records are
//! the earlier session's, whose own file holds them: they are left out of the later
//! file, which keeps only what was said after the resume. Of two files holding the same
//! records, the earlier is the one whose first record is older, then whose last record
//! is, then whose name sorts first. The earlier file is looked for beside the later
//! one (the same project folder), among the files written to since the later one's first
//! record (docs/capture.md#copies).
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, SystemTime};

use super::Session;

/// How `skipped` counts the records left out as copies.
pub const COPIED: &str = "records copied from an earlier session";

/// The times of a file's first and last records, as written: which of two files holding
/// the same records is the earlier.
struct Times {
    first: String,
    last: String,
}

/// The files of each folder met and what each holds, read once a capture.
#[derive(Default)]
pub struct Copies {
    folders: HashMap<PathBuf, Folder>,
    times: HashMap<PathBuf, Rc<Times>>,
}

/// One folder's files, read from the latest written as far back as a session asks, and
/// the files that hold each record uuid met, so that a session's earlier files are found
/// without looking through every file beside it.
struct Folder {
    /// The folder's `*.jsonl` files and their modification times, the latest first.
    files: Vec<(PathBuf, SystemTime)>,
    /// How many of `files`, from the first, `holders` has read.
    read: usize,
    holders: HashMap<String, Holders>,
}

/// The files (places in `Folder::files`) that hold a record uuid: nearly always one.
enum Holders {
    One(usize),
    Many(Vec<usize>),
}

impl Holders {
    fn add(&mut self, file: usize) {
        match self {
            Holders::One(f) if *f == file => {}
            Holders::One(f) => *self = Holders::Many(vec![*f, file]),
            Holders::Many(files) if files.contains(&file) => {}
            Holders::Many(files) => files.push(file),
        }
    }

    fn files(&self) -> &[usize] {
        match self {
            Holders::One(f) => std::slice::from_ref(f),
            Holders::Many(files) => files,
        }
    }
}

impl Folder {
    fn of(dir: &Path) -> Folder {
        let mut files = listing(dir);
        files.sort_by_key(|f| std::cmp::Reverse(f.1));
        Folder {
            files,
            read: 0,
            holders: HashMap::new(),
        }
    }

    /// Reads the files written at or after `since` not read yet; their times go into
    /// `times`.
    fn read_since(&mut self, since: SystemTime, times: &mut HashMap<PathBuf, Rc<Times>>) {
        while let Some((path, written)) = self.files.get(self.read) {
            if *written < since {
                break;
            }
            let text = std::fs::read_to_string(path).unwrap_or_default();
            for uuid in uuids_in(&text) {
                match self.holders.get_mut(&uuid) {
                    Some(h) => h.add(self.read),
                    None => {
                        self.holders.insert(uuid, Holders::One(self.read));
                    }
                }
            }
            times
                .entry(path.clone())
                .or_insert_with(|| Rc::new(times_in(&text)));
            self.read += 1;
        }
    }

    /// Whether file `file` holds the record `uuid`.
    fn holds(&self, file: usize, uuid: &str) -> bool {
        self.holders
            .get(uuid)
            .is_some_and(|h| h.files().contains(&file))
    }
}

impl Copies {
    /// Leaves out of `session`, read from `path`, the records it opens with that an
    /// earlier file beside it holds; gives them back (what a resumed file goes on from).
    pub fn drop_copied(&mut self, path: &Path, session: &mut Session) -> Vec<super::Record> {
        // Only a transcript whose records carry uuids (Claude Code's) opens with copies;
        // a sub-agent's (`PARENT/ID`) is no resume.
        if session.uuids.is_empty() || session.id.contains('/') {
            return Vec::new();
        }
        let mut ordered: Vec<(usize, String)> =
            session.uuids.iter().map(|(u, i)| (*i, u.clone())).collect();
        ordered.sort();
        let Some((_, first)) = ordered.first().cloned() else {
            return Vec::new();
        };
        let Some(dir) = path.parent() else {
            return Vec::new();
        };
        // The files that may hold the records it opens with: written to at or after its
        // first record's time (a file holding a record was written after it).
        let since = session
            .records
            .iter()
            .find_map(|r| r.at)
            .and_then(|t| u64::try_from(t.timestamp()).ok())
            .map(|s| SystemTime::UNIX_EPOCH + Duration::from_secs(s.saturating_sub(60)))
            .unwrap_or(SystemTime::UNIX_EPOCH);
        let folder = self
            .folders
            .entry(dir.to_path_buf())
            .or_insert_with(|| Folder::of(dir));
        folder.read_since(since, &mut self.times);
        let mine = self
            .times
            .entry(path.to_path_buf())
            .or_insert_with(|| {
                Rc::new(times_in(&std::fs::read_to_string(path).unwrap_or_default()))
            })
            .clone();
        let key = |t: &Times, p: &Path| (t.first.clone(), t.last.clone(), p.to_path_buf());
        let mut cut = 0;
        let holders = folder.holders.get(&first).map_or(&[][..], Holders::files);
        for &other in holders {
            let (other_path, written) = &folder.files[other];
            if other_path == path || *written < since {
                continue;
            }
            let Some(theirs) = self.times.get(other_path) else {
                continue;
            };
            if key(theirs, other_path) >= key(&mine, path) {
                continue;
            }
            let shared = ordered
                .iter()
                .take_while(|(_, u)| folder.holds(other, u))
                .count();
            let end = ordered
                .get(shared)
                .map_or(session.records.len(), |(i, _)| *i);
            cut = cut.max(end);
        }
        if cut == 0 {
            return Vec::new();
        }
        let copied: Vec<super::Record> = session.records.drain(..cut).collect();
        session.uuids.retain(|_, i| *i >= cut);
        for i in session.uuids.values_mut() {
            *i -= cut;
        }
        *session.skipped.entry(COPIED.to_string()).or_default() += cut as u64;
        copied
    }
}

/// The times of the first and last records of a transcript's text.
fn times_in(text: &str) -> Times {
    let times = values_of(text, "\"timestamp\"");
    Times {
        first: times.first().cloned().unwrap_or_default(),
        last: times.last().cloned().unwrap_or_default(),
    }
}

/// The `*.jsonl` files of `dir` with their modification times, sorted by path.
pub fn listing(dir: &Path) -> Vec<(PathBuf, SystemTime)> {
    let mut out: Vec<(PathBuf, SystemTime)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .filter_map(|p| {
            let m = std::fs::metadata(&p).ok().filter(|m| m.is_file())?;
            Some((p, m.modified().ok()?))
        })
        .collect();
    out.sort();
    out
}

/// Every record uuid a transcript's text names (`"uuid":"…"`, spaces allowed), in order.
pub fn uuids_in(text: &str) -> Vec<String> {
    values_of(text, "\"uuid\"")
}

/// Every string value of `key` (quoted) in `text`, in order.
fn values_of(text: &str, key: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(key) {
        rest = &rest[at + key.len()..];
        let Some(value) = rest.trim_start().strip_prefix(':') else {
            continue;
        };
        let Some(value) = value.trim_start().strip_prefix('"') else {
            continue;
        };
        if let Some(end) = value.find('"') {
            out.push(value[..end].to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::Agent;
    use crate::capture::{Event, Record};

    fn session(uuids: &[&str]) -> Session {
        let mut s = Session {
            agent: Some(Agent::Claude),
            id: "new".into(),
            ..Session::default()
        };
        for (i, u) in uuids.iter().enumerate() {
            s.uuids.insert(u.to_string(), i);
            s.records.push(Record {
                at: None,
                event: Event::Prompt(format!("p{i}")),
                sidechain: false,
            });
        }
        s
    }

    #[test]
    fn the_records_an_earlier_file_holds_are_left_out() {
        assert_eq!(
            uuids_in("{\"uuid\":\"a\",\"x\":1}\n{\"uuid\": \"b\"}\n{\"parentUuid\":\"c\"}"),
            vec!["a", "b"]
        );
        let dir = std::env::temp_dir().join(format!("recall-copies-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let old = dir.join("old.jsonl");
        let new = dir.join("new.jsonl");
        // The same first record; the earlier file ended first.
        std::fs::write(&old, "{\"uuid\":\"a\",\"timestamp\":\"2026-01-01T10:00:00Z\"}\n{\"uuid\":\"b\",\"timestamp\":\"2026-01-01T10:05:00Z\"}\n").unwrap();
        std::fs::write(&new, "{\"uuid\":\"a\",\"timestamp\":\"2026-01-01T10:00:00Z\"}\n{\"uuid\":\"b\",\"timestamp\":\"2026-01-01T10:05:00Z\"}\n{\"uuid\":\"c\",\"timestamp\":\"2026-01-02T09:00:00Z\"}\n{\"uuid\":\"d\",\"timestamp\":\"2026-01-02T09:01:00Z\"}\n").unwrap();
        let mut s = session(&["a", "b", "c", "d"]);
        Copies::default().drop_copied(&new, &mut s);
        assert_eq!(s.records.len(), 2);
        assert_eq!(s.uuids.get("c"), Some(&0));
        assert_eq!(s.skipped.get(COPIED), Some(&2));
        // The earlier file keeps its own records: the later one holds them, not earlier.
        let mut o = session(&["a", "b"]);
        o.id = "old".into();
        Copies::default().drop_copied(&old, &mut o);
        assert_eq!(o.records.len(), 2);
        // A file whose first record no earlier file holds keeps everything.
        let mut fresh = session(&["x", "a"]);
        fresh.id = "fresh".into();
        Copies::default().drop_copied(&new, &mut fresh);
        assert_eq!(fresh.records.len(), 2);
    }

    /// One capture's index of a folder is read as far back as each session asks, and a
    /// file already in it counts only when written since the session's first record.
    #[test]
    fn a_folder_is_read_back_as_far_as_each_session_asks() {
        let dir = std::env::temp_dir().join(format!("recall-copies-back-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let at = |t: &str| t.parse::<chrono::DateTime<chrono::Utc>>().unwrap();
        let write = |name: &str, records: &[(&str, &str)], written: &str| {
            let path = dir.join(name);
            let text: String = records
                .iter()
                .map(|(u, t)| format!("{{\"uuid\":\"{u}\",\"timestamp\":\"{t}\"}}\n"))
                .collect();
            std::fs::write(&path, text).unwrap();
            let when = SystemTime::UNIX_EPOCH
                + Duration::from_secs(at(written).timestamp().try_into().unwrap());
            std::fs::File::options()
                .write(true)
                .open(&path)
                .unwrap()
                .set_modified(when)
                .unwrap();
            path
        };
        let (t1, t2, t3) = (
            "2020-01-01T10:00:00Z",
            "2020-01-01T10:05:00Z",
            "2020-01-02T09:00:00Z",
        );
        write("old.jsonl", &[("a", t1), ("b", t2)], "2020-01-01T11:00:00Z");
        let new = write(
            "new.jsonl",
            &[("a", t1), ("b", t2), ("c", t3)],
            "2020-01-02T12:00:00Z",
        );
        let (r1, r2, r3) = (
            "2026-03-01T10:00:00Z",
            "2026-03-01T10:01:00Z",
            "2026-03-01T12:00:00Z",
        );
        write(
            "recent.jsonl",
            &[("x", r1), ("y", r2)],
            "2026-03-01T11:00:00Z",
        );
        let recent2 = write(
            "recent2.jsonl",
            &[("x", r1), ("y", r2), ("z", r3)],
            "2026-03-01T13:00:00Z",
        );
        let opening = |uuids: &[&str], first: &str| {
            let mut s = session(uuids);
            s.records[0].at = Some(at(first));
            s
        };
        let mut copies = Copies::default();
        // Only the files written since 2026 are read for the first session asked of.
        let mut s = opening(&["x", "y", "z"], r1);
        copies.drop_copied(&recent2, &mut s);
        assert_eq!((s.records.len(), s.skipped.get(COPIED)), (1, Some(&2)));
        assert_eq!(copies.folders[&dir].read, 2);
        // A session of 2020 has the folder read back to its time: its copies are found.
        let mut s = opening(&["a", "b", "c"], t1);
        copies.drop_copied(&new, &mut s);
        assert_eq!((s.records.len(), s.skipped.get(COPIED)), (1, Some(&2)));
        assert_eq!(copies.folders[&dir].read, 4);
        // The earlier file, read already, was written before this session's first
        // record: it holds no copy of it.
        let mut s = opening(&["a", "b", "c"], t3);
        copies.drop_copied(&new, &mut s);
        assert_eq!((s.records.len(), s.skipped.get(COPIED)), (3, None));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
