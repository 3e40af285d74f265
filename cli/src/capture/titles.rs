//! Which session a Claude Code `summary` record titles. Claude Code writes, at the top of
//! a new transcript, summaries of *earlier* sessions: each names, by `leafUuid`, the
//! last message of the conversation it summarises. A summary titles only the segment
//! holding that message, in whichever file it is; the file it is written in gets nothing
//! from it. Summaries of other files are found in the files beside it (the same project
//! folder), where Claude Code writes them, at the top of each: a capture reads those
//! heads once a folder (docs/capture.md#titles).
use std::collections::HashMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{noise, Event, Record, Session};

/// How many lines of a file's head are read for its summaries, at most: Claude Code
/// writes them before the conversation.
const HEAD_LINES: usize = 400;

/// The summaries of the files of each folder met, by the `leafUuid` they name.
#[derive(Default)]
pub struct Index {
    folders: HashMap<PathBuf, HashMap<String, String>>,
}

impl Index {
    /// Gives `session`, read from `path`, the summaries the files beside it hold of
    /// its records (its own file's are given as it is read, `own`).
    pub fn title(&mut self, path: &Path, session: &mut Session) {
        if session.uuids.is_empty() {
            return;
        }
        let Some(dir) = path.parent() else { return };
        let beside = self.folder(dir);
        for (leaf, text) in beside {
            if let Some(at) = session.uuids.get(leaf) {
                if !session.titled.iter().any(|(i, t)| i == at && t == text) {
                    session.titled.push((*at, text.clone()));
                }
            }
        }
        session.titled.sort_by_key(|(i, _)| *i);
    }

    /// The summaries written in the files of `dir`, read once.
    fn folder(&mut self, dir: &Path) -> &HashMap<String, String> {
        self.folders
            .entry(dir.to_path_buf())
            .or_insert_with(|| summaries_in(dir))
    }
}

/// The summaries of `session`'s own file that name one of its records, at that record.
pub fn own(session: &mut Session) {
    let mut titled: Vec<(usize, String)> = session
        .summaries
        .iter()
        .filter_map(|(leaf, text)| Some((*session.uuids.get(leaf.as_ref()?)?, text.clone())))
        .collect();
    titled.sort_by_key(|(i, _)| *i);
    session.titled = titled;
}

/// The title a summary gives `segment` of `session`: the last summary naming one of
/// its records.
pub fn of_segment(session: &Session, segment: &[super::Record]) -> Option<String> {
    let start = super::redact::offset(&session.records, segment);
    let end = start + segment.len();
    session
        .titled
        .iter()
        .rev()
        .find(|(i, t)| (start..end).contains(i) && !t.trim().is_empty() && !noise::program_text(t))
        .map(|(_, t)| t.trim().to_string())
}

/// The title the person's requests give a segment: the first request the agent took up
/// (answered or acted on before the next prompt) that is more than small talk ("hello",
/// then the task); else the first request. A prompt never answered is no title.
pub fn request_title(segment: &[Record], only_sidechain: bool) -> Option<String> {
    let own: Vec<&Record> = segment
        .iter()
        .filter(|r| !r.sidechain || only_sidechain)
        .collect();
    let mut requests: Vec<(&str, bool)> = Vec::new();
    for (i, r) in own.iter().enumerate() {
        let Event::Prompt(t) = &r.event else { continue };
        let t = t.trim();
        if !noise::is_request(t) {
            continue;
        }
        // Prompts sent in a row are answered together; an interruption or an API error
        // ends what a prompt got.
        let taken_up = own[i + 1..]
            .iter()
            .take_while(|r| !matches!(&r.event, Event::Note(n) if noise::cut_off(n)))
            .any(|r| match &r.event {
                Event::Answer(a) => !a.trim().is_empty(),
                Event::ToolCall { .. } => true,
                _ => false,
            });
        requests.push((t, taken_up));
    }
    // A request that names no work of its own ("run it", "aaa") gives way to one that
    // does, later in the segment.
    let pick = requests
        .iter()
        .find(|(t, up)| *up && !noise::small_talk(t) && !noise::slight(t))
        .or_else(|| requests.iter().find(|(t, up)| *up && !noise::small_talk(t)))
        .or_else(|| requests.iter().find(|(t, _)| !noise::small_talk(t)))
        .or(requests.first())?;
    Some(noise::title_line(pick.0))
}

/// The request a segment goes on from when its person only replied ("continue", "继续",
/// "2"): the last request naming work before it in its session, else the one of the
/// conversation a resumed file goes on from (`Session::continues`).
pub fn continued_from(session: &Session, segment: &[Record]) -> Option<String> {
    let start = super::redact::offset(&session.records, segment);
    session
        .records
        .get(..start)?
        .iter()
        .rev()
        .filter(|r| !r.sidechain)
        .find_map(|r| match &r.event {
            Event::Prompt(t)
                if noise::is_request(t) && !noise::small_talk(t) && !noise::slight(t) =>
            {
                Some(noise::title_line(t))
            }
            _ => None,
        })
        .or_else(|| session.continues.clone())
}

/// Whether a segment in which no tool was called holds no work: nothing answered its
/// requests, or what answered short one-line requests was only what the agent is (its
/// model, its maker), which is how a question about itself reads in any language, or a
/// word or two (a connection check answered "OK").
pub fn without_work(segment: &[Record], requests: &[&str], only_sidechain: bool) -> bool {
    let answers: Vec<&str> = segment
        .iter()
        .filter(|r| !r.sidechain || only_sidechain)
        .filter_map(|r| match &r.event {
            Event::Answer(t) if !t.trim().is_empty() => Some(t.as_str()),
            _ => None,
        })
        .collect();
    if answers.is_empty() {
        return true;
    }
    let short = |t: &&str| !t.trim().contains('\n') && t.trim().chars().count() <= 60;
    // With no tool called, an answer that is only an acknowledgment or a greeting
    // ("OK", "pong") is a check that the agent answers, not work; a short sentence
    // ("Centered.") or a fact ("7.5.1.") may be what was asked for.
    let curt = |a: &&str| {
        let t = a.trim();
        t.chars().count() <= CURT_ANSWER
            && (noise::go_on(t)
                || noise::small_talk(t)
                || t.trim_end_matches(['.', '!']).eq_ignore_ascii_case("pong"))
    };
    !requests.is_empty()
        && requests.iter().all(short)
        && (answers.iter().all(|a| noise::about_itself(a)) || answers.iter().all(curt))
}

/// The longest answer, in characters, that is only an acknowledgment (`OK`).
const CURT_ANSWER: usize = 12;

/// The summaries at the head of each `*.jsonl` file of `dir`, by `leafUuid`; where two
/// files summarise the same conversation, the newer file's summary.
fn summaries_in(dir: &Path) -> HashMap<String, String> {
    let mut files = super::copies::listing(dir);
    // Oldest first, so that a newer file's summary of the same conversation wins.
    files.sort_by(|(pa, ta), (pb, tb)| ta.cmp(tb).then_with(|| pa.cmp(pb)));
    let mut out = HashMap::new();
    for (file, _) in files {
        for (leaf, text) in head_summaries(&file) {
            out.insert(leaf, text);
        }
    }
    out
}

/// The `summary` records that open a file (before its first record of another kind,
/// snapshots aside).
pub fn head_summaries(path: &Path) -> Vec<(String, String)> {
    let Ok(file) = std::fs::File::open(path) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for line in std::io::BufReader::new(file).lines().take(HEAD_LINES) {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let Ok(v) = serde_json::from_str::<Value>(&line) else {
            break;
        };
        match v.get("type").and_then(Value::as_str) {
            Some("summary") => {
                let leaf = v.get("leafUuid").and_then(Value::as_str);
                let text = v.get("summary").and_then(Value::as_str);
                if let (Some(leaf), Some(text)) = (leaf, text) {
                    if !text.trim().is_empty() {
                        out.push((leaf.to_string(), text.to_string()));
                    }
                }
            }
            Some("file-history-snapshot") => {}
            _ => break,
        }
    }
    out
}

/// The files beside `path` that hold a record with one of `leaves` as its uuid, other
/// than `path` itself: the sessions the summaries of `path` title.
pub fn owners(path: &Path, leaves: &[&str]) -> Vec<PathBuf> {
    let Some(dir) = path.parent() else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let other = entry.path();
        if other == path || other.extension().is_none_or(|e| e != "jsonl") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&other) else {
            continue;
        };
        if super::copies::uuids_in(&text)
            .iter()
            .any(|u| leaves.contains(&u.as_str()))
        {
            found.push(other);
        }
    }
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_titles_the_session_holding_its_leaf() {
        let dir = std::env::temp_dir().join(format!("recall-titles-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let old = dir.join("old.jsonl");
        let new = dir.join("new.jsonl");
        std::fs::write(&old, "{\"type\":\"user\",\"uuid\":\"a1\"}\n").unwrap();
        std::fs::write(
            &new,
            "{\"type\":\"summary\",\"summary\":\"Old work\",\"leafUuid\":\"a1\"}\n{\"type\":\"summary\",\"summary\":\"Nobody's\",\"leafUuid\":\"zz\"}\n{\"type\":\"user\",\"uuid\":\"b1\"}\n",
        )
        .unwrap();
        let mut index = Index::default();
        // The new file holds the summary but not its leaf: no title from it.
        let mut s = Session {
            summaries: vec![
                (Some("a1".into()), "Old work".into()),
                (Some("zz".into()), "Nobody's".into()),
            ],
            ..Session::default()
        };
        s.uuids.insert("b1".into(), 0);
        own(&mut s);
        index.title(&new, &mut s);
        assert!(s.titled.is_empty(), "{:?}", s.titled);
        // The old file holds the leaf: the summary written beside it titles it.
        let mut o = Session::default();
        o.uuids.insert("a1".into(), 3);
        own(&mut o);
        assert!(o.titled.is_empty());
        index.title(&old, &mut o);
        assert_eq!(o.titled, vec![(3, "Old work".to_string())]);
        assert_eq!(owners(&new, &["a1"]), vec![old]);
        assert!(owners(&new, &["zz"]).is_empty());
    }
}
