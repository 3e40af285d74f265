//! A shell command's memory: before it runs (`PreToolUse` of Claude Code's `Bash`,
//! Codex's shell), the earlier sessions that ran the same command and how it went; after
//! it failed (Claude Code's `PostToolUseFailure`; Codex's `PostToolUse` whose output
//! reads as a failure), the earlier sessions that met the same error line and whether one
//! after it got the command working. Same means the same under `masked` (one rule for
//! both sides). Once a session for each command and each error, as a file's memory is;
//! silent where nothing is known; never a decision on the tool.
//!
//! Commands and error lines are an item's atoms (`capture::items::atoms`): the keys of
//! the atom lines read through the rule (`library::atom_keys`) find the items holding a
//! line, newest first or from a time on, in one indexed lookup (`Holders`), and only as
//! many items are read as are shown. How a command went is read from the item's
//! transcript: the result of the call that ran it.
use rusqlite::types::Value;
use serde_json::json;

use super::answer::{fields, item_line, Answer};
use super::payload::{Event, Payload};
use crate::args::HookArgs;
use crate::capture::{errors, shell};
use crate::error::Result;
use crate::library::atom_keys::{self, Kind};
use crate::library::sessions::State;
use crate::library::sql_file::{self, queries};
use crate::masked;
use crate::project::project_of;
use crate::query::changed::{self, Here};
use crate::query::rows::Listed;
use crate::settings::{sources_param, Globals};
use crate::text::field;

/// At most this many lines (one an item) in a block.
pub const SHOWN: usize = 3;
/// The newest candidates the full-text query hands to the exact check.
const CANDIDATES: i64 = 200;
/// After a failure, how many of the later sessions that ran the command are read for
/// one where it worked (each a read of its transcript).
const FIX_LOOKS: usize = 10;

/// An earlier item with an atom line that is the same under the rule.
#[derive(Clone)]
struct Found {
    item: Listed,
    atoms: String,
}

/// How a command went in an item's session.
#[derive(Debug, Clone, PartialEq)]
enum Went {
    /// It failed, with this error line (None: no line says why).
    Failed(Option<String>),
    Worked,
    Unknown,
}

pub fn answer(g: &Globals, a: &HookArgs, p: &Payload) -> Result<Answer> {
    let Some(command) = p.command.as_deref() else {
        return Ok(Answer::Nothing);
    };
    let Some(key) = masked::command(command) else {
        return Ok(Answer::Nothing);
    };
    let exit = |t: &str| errors::claude_exit(t).or_else(|| errors::codex_exit(t));
    let failure = match p.event {
        Event::BeforeTool => None,
        // Claude Code's failure opens with `Exit code N`; a failure is one whatever it
        // says.
        Event::Failure => p
            .said
            .as_deref()
            .and_then(|t| error_line(command, t, exit(t).or(Some(1)))),
        // Codex 0.169 reports no exit code to the hook: a line of its output that reads
        // as an error report tells.
        _ => p
            .said
            .as_deref()
            .and_then(|t| error_line(command, t, exit(t))),
    }
    // A report's opening alone ("Traceback (most recent call last):", the rest of the
    // output cut) is every Python failure's: no error to look up.
    .filter(|line| !is_opener(line));
    if p.event != Event::BeforeTool && failure.is_none() {
        return Ok(Answer::Nothing);
    }
    // A command that only shows files, searches them or the history (`cat`, `grep`,
    // `git log`) going well says nothing of the work: not told before it runs, as it
    // gives no error atom after (capture's own reading of a command line).
    if p.event == Event::BeforeTool && shell::shape(command).view {
        return Ok(Answer::Nothing);
    }
    // Once a session for each command before it runs, and for each error after a
    // failure, by the rule of a file's memory: the session state records it before the
    // library is read. Its name holds a NUL, which no file's does.
    if let Some(session) = &p.session {
        let told = match &failure {
            None => format!("\0command\0{key}"),
            Some(line) => format!("\0error\0{}", masked::error(line)),
        };
        let unseen = State::files_unseen(g.db()?, session, std::slice::from_ref(&told));
        if unseen.is_ok_and(|new| new.is_empty()) {
            return Ok(Answer::Nothing);
        }
    }
    let project = a.project.clone().or_else(|| {
        p.cwd
            .as_deref()
            .and_then(|cwd| project_of(cwd, &g.config.projects))
    });
    let sources = sources_param(&g.allow(&a.access.allow));
    let lib = g.open_for_query()?;
    let holders = Holders::of(&lib, project.as_deref(), sources.as_deref())?;
    let (heading, lines, mut shown) = match &failure {
        None => {
            let found = holders.newest(Kind::Command, &key, SHOWN)?;
            // Only the items shown are read: the session it worked in, after one where
            // it failed, is a newer one, shown above it.
            let went: Vec<Went> = found
                .iter()
                .take(SHOWN)
                .map(|f| went(&lib, f.item.id, &key))
                .collect::<Result<_>>()?;
            let mut lines = Vec::new();
            let mut shown = Vec::new();
            for (i, f) in found.iter().enumerate().take(SHOWN) {
                let how = match &went[i] {
                    Went::Failed(line) => {
                        let why = line
                            .as_deref()
                            .map(|l| format!(": {}", field(l)))
                            .unwrap_or_default();
                        // The first later session it worked in (found is newest first).
                        let fixed = (0..i).rev().find(|&j| went[j] == Went::Worked);
                        let fixed = fixed
                            .map(|j| format!("; it worked in [{}]", found[j].item.id))
                            .unwrap_or_default();
                        format!("failed{why}{fixed}")
                    }
                    Went::Worked => "ran without an error".to_string(),
                    Went::Unknown => "ran it".to_string(),
                };
                lines.push(how);
                shown.push(f.item.clone());
            }
            let heading = format!(
                "Earlier sessions in the recall memory that ran this command ({}), newest first",
                field(&key)
            );
            (heading, lines, shown)
        }
        Some(line) => {
            let error = masked::error(line);
            let met = holders.newest(Kind::Error, &error, SHOWN)?;
            let mut lines = Vec::new();
            let mut shown = Vec::new();
            let mut known: std::collections::HashMap<i64, Went> = Default::default();
            for f in &met {
                // Whether a later session got the command working: the nearest sessions
                // after it that ran the command, oldest first.
                let mut fixed = None;
                for l in holders.after(Kind::Command, &key, &f.item, FIX_LOOKS)? {
                    let how = match known.get(&l.item.id) {
                        Some(how) => how.clone(),
                        None => went(&lib, l.item.id, &key)?,
                    };
                    known.insert(l.item.id, how.clone());
                    if how == Went::Worked {
                        fixed = Some(l.item.id);
                        break;
                    }
                }
                let ran_it = holds(Kind::Command, &key, &f.atoms);
                let how = match (fixed, ran_it) {
                    (Some(id), _) => format!("seen before; fixed in [{id}], where the command ran without an error"),
                    (None, true) => "seen before, running this command; no later session is known to have got it working".to_string(),
                    (None, false) => "seen before, from another command".to_string(),
                };
                lines.push(how);
                shown.push(f.item.clone());
            }
            let heading = format!(
                "Earlier sessions in the recall memory that met this error ({}), newest first",
                field(&error)
            );
            (heading, lines, shown)
        }
    };
    // Still true? Their files changed since, as seen from the working folder.
    let here = Here::at(p.cwd.as_deref(), &g.config.projects);
    changed::mark(&lib, here.as_ref(), &mut shown, &g.allow(&a.access.allow))?;
    if g.json {
        let results: Vec<serde_json::Value> = shown
            .iter()
            .zip(&lines)
            .map(|(item, how)| json!({ "item": item, "went": how }))
            .collect();
        return Ok(Answer::Json(fields(json!({
            "project": project, "shell": key, "error": failure, "results": results,
        }))));
    }
    if shown.is_empty() {
        return Ok(Answer::Nothing);
    }
    let lines: Vec<String> = shown
        .iter()
        .zip(&lines)
        .map(|(item, how)| {
            format!(
                "{} — {how}\n",
                item_line(item, project.is_none()).trim_end()
            )
        })
        .collect();
    let reach = super::reach::Reach::of(g, p);
    let heading = format!("{heading} ({} shows one in full):", reach.get());
    let (text, kept) = crate::memory_block::block_within(
        &heading,
        &lines,
        crate::memory_block::MAX_CONTEXT,
        &format!("`{}` finds more", reach.command("search WORDS")),
    );
    Ok(Answer::Context {
        text,
        lines: lines[..kept].to_vec(),
    })
}

/// Where the earlier items holding a line are found: the keys of the items' atom lines
/// (`library::atom_keys`, one indexed lookup), or, while an item's keys are not made yet
/// (an item written by another program since recall last wrote), the full-text query of
/// the line's plain words, as before the keys. Either way an item counts only where one
/// of its atom lines is the line under the rule (two lines may share a key, and words are
/// in many lines), and only of `project` (with the global items) and allowed `sources`.
struct Holders<'l> {
    lib: &'l crate::library::Library,
    keys: bool,
    project: Option<&'l str>,
    sources: Option<&'l str>,
    /// The full-text path's last answer: after a failure it is asked for the same
    /// command once for each session shown.
    by_words_last: std::cell::RefCell<Option<(Kind, String, Vec<Found>)>>,
}

impl<'l> Holders<'l> {
    fn of(
        lib: &'l crate::library::Library,
        project: Option<&'l str>,
        sources: Option<&'l str>,
    ) -> Result<Self> {
        let keys = !atom_keys::any_pending(&lib.conn)?;
        Ok(Holders {
            lib,
            keys,
            project,
            sources,
            by_words_last: Default::default(),
        })
    }

    /// At most `want` items holding the line, newest first.
    fn newest(&self, kind: Kind, masked: &str, want: usize) -> Result<Vec<Found>> {
        if !telling(masked) {
            return Ok(Vec::new());
        }
        if !self.keys {
            let mut all = self.by_words(kind, masked)?;
            all.truncate(want);
            return Ok(all);
        }
        let params = vec![
            (":key", Value::Integer(atom_keys::key(kind, masked))),
            (":candidates", Value::Integer(CANDIDATES)),
        ];
        self.read_keyed(kind, masked, queries::ATOM_KEYS_NEWEST, params, want)
    }

    /// At most `want` items holding the line after `from` (by time, then id), oldest
    /// first.
    fn after(&self, kind: Kind, masked: &str, from: &Listed, want: usize) -> Result<Vec<Found>> {
        if !telling(masked) {
            return Ok(Vec::new());
        }
        if !self.keys {
            let all = self.by_words(kind, masked)?;
            let bound = (from.date.as_str(), from.id);
            let later = all
                .into_iter()
                .rev()
                .filter(|f| (f.item.date.as_str(), f.item.id) > bound);
            return Ok(later.take(want).collect());
        }
        let params = vec![
            (":key", Value::Integer(atom_keys::key(kind, masked))),
            (":date", Value::Text(from.date.clone())),
            (":id", Value::Integer(from.id)),
            (":candidates", Value::Integer(CANDIDATES)),
        ];
        self.read_keyed(kind, masked, queries::ATOM_KEYS_AFTER, params, want)
    }

    /// The items of the ids `ids` lists, read one by one in its order until `want` are of
    /// the scope and hold the line: no more rows are read than are shown.
    fn read_keyed(
        &self,
        kind: Kind,
        masked: &str,
        ids: sql_file::Query,
        params: sql_file::Params,
        want: usize,
    ) -> Result<Vec<Found>> {
        let ids = sql_file::read(&self.lib.conn, ids, &params, |c| c.int("id"))?;
        let mut out = Vec::new();
        for id in ids.into_iter().flatten() {
            if out.len() >= want {
                break;
            }
            let params = vec![
                (":id", Value::Integer(id)),
                (":project", sql_file::text(self.project)),
                (":sources", sql_file::text(self.sources)),
            ];
            let rows = sql_file::read(&self.lib.conn, queries::ATOM_KEY_ITEM, &params, found)?;
            out.extend(rows.into_iter().filter(|f| holds(kind, masked, &f.atoms)));
        }
        Ok(out)
    }

    /// The items, newest first, among the newest `CANDIDATES` whose atoms hold every
    /// plain word of the line, that hold the line.
    fn by_words(&self, kind: Kind, masked: &str) -> Result<Vec<Found>> {
        if let Some((k, m, found)) = self.by_words_last.borrow().as_ref() {
            if *k == kind && m == masked {
                return Ok(found.clone());
            }
        }
        let words = masked::plain_words(masked);
        let phrases: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
        let params = vec![
            (
                ":match",
                Value::Text(format!("{{atoms}} : ({})", phrases.join(" AND "))),
            ),
            (":candidates", Value::Integer(CANDIDATES)),
            (":project", sql_file::text(self.project)),
            (":sources", sql_file::text(self.sources)),
        ];
        let rows = sql_file::read(&self.lib.conn, queries::COMMAND_CANDIDATES, &params, found)?;
        let held: Vec<Found> = rows
            .into_iter()
            .filter(|f| holds(kind, masked, &f.atoms))
            .collect();
        *self.by_words_last.borrow_mut() = Some((kind, masked.to_string(), held.clone()));
        Ok(held)
    }
}

/// Whether a line tells one run from another: a command or an error line of no plain
/// word (`ls -la`, `cd ..`) is never matched, whichever way its holders are found.
fn telling(masked: &str) -> bool {
    !masked::plain_words(masked).is_empty()
}

/// A row of the hook's item queries.
fn found(c: &sql_file::Cells) -> rusqlite::Result<Found> {
    Ok(Found {
        item: Listed::read(c)?,
        atoms: c.text("atoms")?.unwrap_or_default(),
    })
}

/// Whether one of `atoms`' lines is `masked` read as `kind`.
fn holds(kind: Kind, masked: &str, atoms: &str) -> bool {
    atoms.lines().any(|atom| match kind {
        Kind::Command => masked::command(atom).as_deref() == Some(masked),
        Kind::Error => masked::error(atom) == masked,
    })
}

/// How the command went in the item's session: the result of its last call that ran it,
/// as the transcript holds it (`capture::items::transcript`: `agent ran TOOL: INPUT`,
/// then `output: …` or `error: …`, results in the order of their calls).
fn went(lib: &crate::library::Library, id: i64, key: &str) -> Result<Went> {
    let transcript: Option<String> = lib
        .conn
        .prepare_cached("select transcript from items where id = ?1")
        .and_then(|mut s| s.query_row([id], |r| r.get(0)))
        .map_err(|e| crate::error::Error::sqlite("reading an earlier session", &e))?;
    // An item written without its transcript (`recall add`, an import) does not tell.
    let Some(transcript) = transcript else {
        return Ok(Went::Unknown);
    };
    // The calls waiting for their results: the command of each that ran this one.
    let mut pending: std::collections::VecDeque<Option<String>> = Default::default();
    // The result being read: its call's command (where it ran this one), whether the
    // transcript marks it an error, its text so far.
    let mut result: Option<(Option<String>, bool, String)> = None;
    let mut last = Went::Unknown;
    let finish = |r: Option<(Option<String>, bool, String)>, last: &mut Went| {
        if let Some((Some(command), error, text)) = r {
            let exit = errors::claude_exit(&text).or_else(|| errors::codex_exit(&text));
            *last = match error || exit.is_some_and(|c| c != 0) {
                true => Went::Failed(error_line(&command, &text, exit.or(Some(1)))),
                false => Went::Worked,
            };
        }
    };
    const OTHERS: &[&str] = &[
        "person: ",
        "note: ",
        "agent: ",
        "recap: ",
        "summary: ",
        "(the conversation",
    ];
    for line in transcript.lines() {
        let line = line.strip_prefix("(sub-agent) ").unwrap_or(line);
        if let Some(input) = line.strip_prefix("agent ran ") {
            finish(result.take(), &mut last);
            let input = input.split_once(": ").map(|(_, i)| i).unwrap_or("");
            pending.push_back(called(input).filter(|c| masked::command(c).as_deref() == Some(key)));
        } else if let Some((error, text)) = line
            .strip_prefix("output: ")
            .map(|t| (false, t))
            .or_else(|| line.strip_prefix("error: ").map(|t| (true, t)))
        {
            finish(result.take(), &mut last);
            let ours = pending.pop_front().flatten();
            result = Some((ours, error, text.to_string()));
        } else if OTHERS.iter().any(|s| line.starts_with(s)) {
            finish(result.take(), &mut last);
        } else if let Some((_, _, text)) = result.as_mut() {
            text.push('\n');
            text.push_str(line);
        }
    }
    finish(result.take(), &mut last);
    Ok(last)
}

/// The command a call's input in a transcript runs: a JSON object's `command` or `cmd`
/// (Claude Code's `Bash`), else the input itself (Codex's `exec_command`).
fn called(input: &str) -> Option<String> {
    let command = match serde_json::from_str::<serde_json::Value>(input) {
        Ok(v) if v.is_object() => v
            .get("command")
            .or_else(|| v.get("cmd"))?
            .as_str()?
            .to_string(),
        _ => input.to_string(),
    };
    Some(command)
}

/// How an error report of Python opens, which every Python failure shares: the line
/// after it tells.
const OPENERS: &[&str] = &["Traceback (most recent call last)"];

/// The error line a failed command's result says it failed with: of the lines capture
/// keeps of it as error atoms (`capture::errors::command_error_lines`, so that the hook
/// and the atoms read a result alike), the first that is more than a report's opening.
/// A command that only shows files or searches them (`cat`, `grep`) fails by what it
/// was asked, not by an error of the project: none, as capture keeps none.
fn error_line(command: &str, text: &str, exit: Option<i64>) -> Option<String> {
    let lines = errors::command_error_lines(command, text, exit);
    lines
        .iter()
        .find(|l| !is_opener(l))
        .or(lines.first())
        .cloned()
}

/// Whether a line is only the opening every report of its kind shares.
fn is_opener(line: &str) -> bool {
    OPENERS.iter().any(|o| line.starts_with(o))
}
