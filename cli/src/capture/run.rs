//! One capture: the files read in order, each in its own transaction, each segment's item
//! made literally, redacted, summarised if asked, and written only when it differs from
//! what the segment gave last time (docs/capture.md#again-and-again).
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use recall_core::redact::Counts as Redacted;
use rusqlite::Connection;
use sha2::{Digest, Sha256};

use super::items::{item_of, left_out, with_summary, Rules};
use super::read_session;
use super::segment::segments;
use super::summarize::{Request, Summarizer};
use crate::error::{err, Context, Result};
use crate::item::{unknown_kind, Item, Marks};
use crate::items::options::WriteOptions;
use crate::items::writer::ItemWriter;
use crate::library::capture_records::{self as store, Origin};
use crate::library::turn;
use crate::{fault, interrupt};

/// How a capture runs.
pub struct Options {
    pub rules: Rules,
    pub dry_run: bool,
    /// Read every file, even one unchanged since the last capture.
    pub reread: bool,
    /// The summariser's command line and its timeout per segment, when there is one.
    pub summarizer: Option<(String, i64)>,
    /// How the items are written (`WriteOptions::capture`): whether they are redacted,
    /// and the kinds an item may have (a summariser's must be one).
    pub write: WriteOptions,
}

/// What a capture did.
#[derive(Debug, Default, serde::Serialize)]
pub struct Counts {
    pub files: u64,
    pub files_unchanged: u64,
    pub files_not_sessions: u64,
    /// Files the agent wrote that hold no conversation (empty, or only its snapshots
    /// and summaries): skipped, never a problem.
    pub files_without_conversation: u64,
    pub sessions: u64,
    pub segments: u64,
    pub added: u64,
    pub replaced: u64,
    pub unchanged: u64,
    pub forgotten: u64,
    /// Items an earlier capture made of what the rules now leave out (a helper call, a
    /// segment without work), removed; those a person marked are kept.
    pub removed: u64,
    pub skipped: BTreeMap<String, u64>,
    /// Records of types no reader knows that hold no message, by type: the agents' own
    /// bookkeeping, counted here and not listed as skipped.
    pub program_records: BTreeMap<String, u64>,
    #[serde(serialize_with = "redacted_json")]
    pub redacted: Redacted,
    pub summarized: u64,
    pub summarize_failed: u64,
    /// The first reason a summary failed, for the report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summarize_problem: Option<String>,
}

fn redacted_json<S: serde::Serializer>(r: &Redacted, s: S) -> std::result::Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&crate::items::writer::counts_json(r), s)
}

/// Captures `files` in order; `problem` hears each file that is not a session, `done`
/// the bytes of each file finished.
pub fn capture(
    conn: &mut Connection,
    files: &[PathBuf],
    options: &Options,
    problem: &mut dyn FnMut(&str),
    done: &mut dyn FnMut(u64),
) -> Result<Counts> {
    let guard = interrupt::guard(
        "capture stopped; each file is captured whole or not at all: the files it kept stay, and the next capture reads the others again"
            .to_string(),
        None,
    )?;
    if options.summarizer.is_some() {
        crate::line_process::keep_alive();
    }
    let conn: &Connection = conn;
    tune(conn).context("preparing the capture")?;
    let mut c = Counts::default();
    let mut seen = Seen::default();
    let mut batch = None;
    for path in files {
        one(
            conn, path, options, false, &mut seen, &mut c, &guard, &mut batch, problem, done,
        )?;
    }
    // The sessions captured before that the summaries of new files title, not read in
    // this run (their files unchanged, or not given): read again, so that they take
    // their titles. One never captured takes it when it is.
    let mut owners = Vec::new();
    for p in std::mem::take(&mut seen.owners) {
        if !seen.read.contains(&p)
            && store::known(conn, &store::file_key(&p)).context("reading the capture records")?
        {
            owners.push(p);
        }
    }
    for path in &owners {
        one(
            conn,
            path,
            options,
            true,
            &mut seen,
            &mut c,
            &guard,
            &mut batch,
            problem,
            &mut |_| {},
        )?;
    }
    if let Some(b) = batch {
        b.commit(&guard)?;
    }
    crate::line_process::shutdown();
    Ok(c)
}

/// The capture's connection, for a commit a file (docs/performance.md#capture).
fn tune(conn: &Connection) -> rusqlite::Result<()> {
    // A commit that a power cut takes back loses nothing: the file's record goes with
    // its items, and the next capture reads it again. So the log is not synced at each
    // file's commit (WAL keeps the library whole either way), only at checkpoints.
    conn.pragma_update(None, "synchronous", "normal")?;
    // A checkpoint waits for the disk twice (the log, then the library). At SQLite's
    // 1,000 pages, with some 30 pages a small file's commit, it came every 30 or so
    // files, and those waits took longer than the commits between them. Every 8,192
    // pages (32 MiB), and the log cut back to 4 MiB once a checkpoint has emptied it,
    // so that it does not stay that large beside a program that keeps the library open.
    conn.pragma_update(None, "wal_autocheckpoint", 8192)?;
    conn.pragma_update(None, "journal_size_limit", 4 << 20)?;
    // A write's statement journal (what undoes one statement of a transaction) goes
    // to a temporary file past 64 KiB, which an item's index updates pass: a file made,
    // written and closed for every file captured. It stays in memory (one item's pages).
    conn.pragma_update(None, "temp_store", "memory")?;
    Ok(())
}

/// How long the files written in one transaction may keep it open: other recall writers
/// get in as soon as they wait (`Batch::due`); programs that are not recall, within
/// their busy timeout, after this at most.
const BATCH_MS: u128 = 200;

/// The files written since the capture's last commit, in one transaction: a commit a file
/// cost more than the file's own writing (FTS5's segment of its terms, the log's frames
/// of every page it touched), so files share one while no other writer waits
/// (docs/capture.md#again-and-again).
struct Batch<'c> {
    tx: turn::WriteTx<'c>,
    began: std::time::Instant,
}

impl<'c> Batch<'c> {
    fn begin(conn: &'c Connection) -> Result<Batch<'c>> {
        Ok(Batch {
            tx: turn::immediate(conn).context("starting the capture")?,
            began: std::time::Instant::now(),
        })
    }

    /// Whether to commit now: another recall writer waits for the turn, or the
    /// transaction has been open long enough.
    fn due(&self) -> bool {
        self.tx.waited_for() || self.began.elapsed().as_millis() >= BATCH_MS
    }

    /// Commits when due (`due`); else the next file goes on in it, from `slot`.
    fn go_on(self, slot: &mut Option<Batch<'c>>, guard: &interrupt::Guard) -> Result<()> {
        if self.due() {
            self.commit(guard)
        } else {
            *slot = Some(self);
            Ok(())
        }
    }

    fn commit(self, guard: &interrupt::Guard) -> Result<()> {
        guard
            .commit(|| self.tx.commit())
            .context("committing the capture")?;
        guard.rearm();
        Ok(())
    }
}

/// What a capture has met so far, across its files.
#[derive(Default)]
struct Seen {
    titles: super::titles::Index,
    copies: super::copies::Copies,
    /// The files read (not those left unchanged).
    read: std::collections::BTreeSet<PathBuf>,
    /// Files that summaries of the files read title.
    owners: std::collections::BTreeSet<PathBuf>,
}

/// Reads and writes one file (again, with `reread`).
#[allow(clippy::too_many_arguments)]
fn one<'c>(
    conn: &'c Connection,
    path: &Path,
    options: &Options,
    reread: bool,
    seen: &mut Seen,
    c: &mut Counts,
    guard: &interrupt::Guard,
    batch: &mut Option<Batch<'c>>,
    problem: &mut dyn FnMut(&str),
    done: &mut dyn FnMut(u64),
) -> Result<()> {
    // Files left unchanged keep no waiting writer out either.
    if let Some(open) = batch.take() {
        open.go_on(batch, guard)?;
    }
    let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    // Read (and parsed) before the write lock is taken, when no transaction is open.
    let mut session = match read_file(conn, path, options, reread, c)? {
        Read::Session(s) => s,
        Read::Unchanged => {
            done(bytes);
            return Ok(());
        }
        Read::NotSession(p) => {
            c.files_not_sessions += 1;
            problem(&p);
            done(bytes);
            return Ok(());
        }
    };
    seen.read.insert(path.to_path_buf());
    let copied = seen.copies.drop_copied(path, &mut session.read);
    // What a resumed file goes on from: the title of a continuation that names no work.
    session.read.continues =
        super::titles::request_title(&copied, false).filter(|t| !super::noise::slight(t));
    super::titles::own(&mut session.read);
    seen.titles.title(path, &mut session.read);
    if let (Some(agent), Some(cwd)) = (session.read.agent, session.read.cwd.as_deref()) {
        session.read.project_folder = (super::agent_part(agent).project_folder)(path, cwd);
    }
    // A file new to the library may summarise sessions already captured.
    let foreign: Vec<&str> = session
        .read
        .summaries
        .iter()
        .filter_map(|(leaf, _)| leaf.as_deref())
        .filter(|leaf| !session.read.uuids.contains_key(*leaf))
        .collect();
    if !foreign.is_empty()
        && !reread
        && !store::known(conn, &session.name).context("reading the capture records")?
    {
        seen.owners.extend(super::titles::owners(path, &foreign));
    }
    // Each file whole in the writer's turn, with the files before it since the last
    // commit: another recall writer waits for at most the file being written. A file
    // that fails takes its transaction's files with it; the next capture reads them
    // again. A dry run writes each file alone and keeps none.
    let open = match batch.take() {
        Some(b) => b,
        None => Batch::begin(conn)?,
    };
    capture_session(&open.tx, *session, options, c)?;
    if !options.dry_run {
        open.go_on(batch, guard)?;
    }
    done(bytes);
    Ok(())
}

/// A file before it is written.
enum Read {
    Session(Box<FileRead>),
    /// Read at this size and time before: not read again.
    Unchanged,
    /// Not a session file, and why.
    NotSession(String),
}

/// What a segment's item is made from: its literal item (redacted) and the summariser
/// that would rewrite it. The same digest means the same item: the segment is not
/// written, nor summarised, again.
fn digest(item: &Item, summarizer: Option<&str>) -> String {
    let mut h = Sha256::new();
    for field in [
        item.source.as_str(),
        item.project.as_deref().unwrap_or("\u{0}none"),
        &item.title,
        &item.summary,
        &item.questions,
        &item.atoms,
        &item.occurred_at,
        item.transcript.as_deref().unwrap_or(""),
        summarizer.unwrap_or(""),
    ] {
        h.update((field.len() as u64).to_le_bytes());
        h.update(field.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads one file, unless it was read at this size and time before.
fn read_file(
    conn: &Connection,
    path: &Path,
    options: &Options,
    reread: bool,
    c: &mut Counts,
) -> Result<Read> {
    let name = store::file_key(path);
    let stamp = std::fs::metadata(path).ok().and_then(|m| store::stamp(&m));
    if let (Some((size, mtime)), false) = (stamp, options.reread || reread) {
        if store::unchanged(conn, &name, size, mtime).context("reading the capture records")? {
            c.files_unchanged += 1;
            return Ok(Read::Unchanged);
        }
    }
    Ok(match read_session(path) {
        Ok(s) => Read::Session(Box::new(FileRead {
            name,
            stamp,
            read: s,
        })),
        Err(problem) => Read::NotSession(problem),
    })
}

/// A session file as read: its recorded name, size and time, and what it holds.
struct FileRead {
    name: String,
    stamp: Option<(i64, i64)>,
    read: super::Session,
}

/// Writes one session's segments in the caller's transaction.
fn capture_session(
    tx: &Connection,
    session: FileRead,
    options: &Options,
    c: &mut Counts,
) -> Result<()> {
    let FileRead {
        name,
        stamp,
        read: mut session,
    } = session;
    let mut writer = ItemWriter::new(tx, &options.write)
        .context("preparing the capture")?
        .with_vectors(crate::vectors::store::read(tx)?);
    // The records are redacted under the writer's switch before they are cut into items
    // (`capture::redact`); per record, so that only the segments written count theirs.
    let found_in: Vec<Redacted> =
        writer.redact_before(|| super::redact::records(&mut session.records));
    c.files += 1;
    for (k, n) in &session.skipped {
        *c.skipped.entry(k.clone()).or_default() += n;
    }
    for (k, n) in &session.program_records {
        *c.program_records.entry(k.clone()).or_default() += n;
    }
    if session.has_conversation() {
        c.sessions += 1;
    } else {
        c.files_without_conversation += 1;
    }
    let agent = session.agent.unwrap_or_default().name();
    {
        for (n, segment) in segments(&session.records, options.rules.gap_seconds) {
            if let Some(why) = left_out(&session, segment) {
                *c.skipped.entry(why.into()).or_default() += 1;
                // What an earlier capture made of it goes, unless a person marked it.
                if let Origin::Item { id, .. } = store::origin(tx, agent, &session.id, n)
                    .context("reading the capture records")?
                {
                    if store::drop_unmarked(tx, agent, &session.id, n, id)
                        .context("removing an item that is no work")?
                    {
                        crate::vectors::store::forget(tx, &[id])?;
                        c.removed += 1;
                    }
                }
                continue;
            }
            let item = item_of(&session, segment, &options.rules)
                .map_err(|e| err!("{name}: segment {n}: {e}"))?;
            let Some(item) = item else {
                *c.skipped
                    .entry("segment without a time".into())
                    .or_default() += 1;
                continue;
            };
            c.segments += 1;
            // Prepared by the writer, as every item is, before anything sees it: the
            // digest, the summariser, the write. The secrets of its records and its own
            // are counted when it is written.
            let found = super::redact::in_segment(&found_in, &session.records, segment);
            let literal = writer.prepare(item).made_from(&found);
            let command = options.summarizer.as_ref().map(|(cmd, _)| cmd.as_str());
            let digest = digest(&literal, command);
            let id = match store::origin(tx, agent, &session.id, n)
                .context("reading the capture records")?
            {
                Origin::Forgotten => {
                    c.forgotten += 1;
                    continue;
                }
                Origin::Item { id, digest: old } if old.as_deref() == Some(digest.as_str()) => {
                    if store::exists(tx, id).context("reading a captured item")? {
                        c.unchanged += 1;
                    } else {
                        // Deleted by another program than `forget`: as forgotten.
                        c.forgotten += 1;
                    }
                    continue;
                }
                Origin::Item { id, .. } => {
                    if !store::exists(tx, id).context("reading a captured item")? {
                        c.forgotten += 1;
                        continue;
                    }
                    c.replaced += 1;
                    Some(id)
                }
                Origin::New => {
                    c.added += 1;
                    None
                }
            };
            let (item, kind) = match &options.summarizer {
                Some((cmd, timeout)) => {
                    let who = (agent, session.id.as_str(), n);
                    let kinds = &options.write.kinds;
                    writer.remade(literal, |literal| {
                        summarized(literal, cmd, *timeout, who, kinds, c)
                    })
                }
                None => (literal, None),
            };
            let item = item.with_id(id);
            // Capture's items are stored through the one writer of `add` and `import`. A
            // summariser's kind is given to a new item only: a replaced one keeps its
            // marks, which a person may have changed (`recall promote`, an import).
            let written = match kind {
                Some(kind) if id.is_none() => writer.write_marked(
                    &item,
                    &Marks {
                        kind: Some(kind),
                        global: false,
                    },
                ),
                _ => writer.write(&item),
            };
            let id = written
                .context(&format!("{name}: writing segment {n}"))?
                .map_err(|refusal| err!("{name}: segment {n}: {refusal}"))?;
            store::record(tx, agent, &session.id, n, id, &digest)
                .context("recording the capture")?;
            fault::pause_point("capture", (c.added + c.replaced) as i64);
        }
        c.redacted.merge(writer.redacted());
    }
    if let Some((size, mtime)) = stamp {
        store::read_at(tx, &name, size, mtime).context("recording the capture")?;
    }
    Ok(())
}

/// The item as the summariser writes it, and the kind it gives; the literal one when
/// the summariser fails (a kind the library does not know is a failure), counted.
fn summarized(
    literal: Item,
    command: &str,
    timeout_ms: i64,
    (agent, session, segment): (&str, &str, u32),
    kinds: &[String],
    c: &mut Counts,
) -> (Item, Option<String>) {
    let request = Request {
        agent,
        session,
        segment,
        project: literal.project.as_deref(),
        text: literal.transcript.as_deref().unwrap_or(""),
    };
    let answer = Summarizer::start(command, timeout_ms)
        .and_then(|s| s.summarize(&request))
        .and_then(|mut summary| {
            let kind = summary.kind.take();
            if let Some(unknown) = kind
                .as_deref()
                .and_then(|k| unknown_kind("the summariser's kind", k, kinds))
            {
                return Err(unknown);
            }
            with_summary(&literal, summary).map(|item| (item, kind))
        });
    match answer {
        Ok(done) => {
            c.summarized += 1;
            done
        }
        Err(problem) => {
            c.summarize_failed += 1;
            c.summarize_problem.get_or_insert(problem);
            (literal, None)
        }
    }
}
