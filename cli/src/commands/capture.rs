//! `recall capture [PATH…]`: agents' session files become items, one per segment, each
//! file in its own transaction (docs/capture.md).
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior::Immediate};
use serde_json::json;

use super::Globals;
use crate::capture::items::{item_of, Rules};
use crate::capture::segment::segments;
use crate::capture::store::{self, Origin};
use crate::capture::{discover, read_session};
use crate::error::{Context, Result};
use crate::item::Item;
use crate::items::writer::ItemWriter;
use crate::library::{self, Access};
use crate::{err, fault, interrupt, output};

#[derive(Default, serde::Serialize)]
struct Counts {
    files: u64,
    files_unchanged: u64,
    files_not_sessions: u64,
    sessions: u64,
    segments: u64,
    added: u64,
    replaced: u64,
    unchanged: u64,
    forgotten: u64,
    skipped: BTreeMap<String, u64>,
}

pub fn run(g: &Globals, paths: &[PathBuf], dry_run: bool) -> Result<i32> {
    let rules = Rules {
        claude_source: crate::capture::Agent::Claude.name().to_string(),
        codex_source: crate::capture::Agent::Codex.name().to_string(),
        projects: g.config.projects.clone(),
        gap_seconds: g.config.capture.gap_hours * 3600.0,
    };
    let roots = if paths.is_empty() {
        discover::default_roots()
    } else {
        paths.to_vec()
    };
    let (files, problems) = discover::files(&roots);
    for p in &problems {
        eprintln!("recall: capture: {}", crate::text::field(p));
    }
    let mut lib = library::open(g.db()?, Access::Write, g.tokenizer.as_deref())?;
    let guard = interrupt::guard(
        "capture stopped; each file is captured whole or not at all".to_string(),
        None,
    )?;
    let mut c = Counts::default();
    for path in &files {
        if let Err(problem) = capture_file(&mut lib.conn, path, &rules, dry_run, &guard, &mut c)? {
            c.files_not_sessions += 1;
            eprintln!("recall: capture: {}; skipped", crate::text::field(&problem));
        }
    }
    let skipped: Vec<String> = c.skipped.iter().map(|(k, n)| format!("{k} {n}")).collect();
    if g.json {
        let mut doc = serde_json::to_value(&c).unwrap_or_default();
        doc["command"] = json!("capture");
        doc["dry_run"] = json!(dry_run);
        doc["problems"] = json!(problems.len() as u64 + c.files_not_sessions);
        output::json(&doc);
    } else {
        crate::say!(
            "{}{} files read ({} unchanged since the last capture, {} not sessions), {} sessions, {} segments: {} items added, {} replaced, {} unchanged, {} forgotten and left out; records skipped: {}",
            if dry_run { "dry run, nothing written: " } else { "" },
            c.files,
            c.files_unchanged,
            c.files_not_sessions,
            c.sessions,
            c.segments,
            c.added,
            c.replaced,
            c.unchanged,
            c.forgotten,
            if skipped.is_empty() { "none".to_string() } else { skipped.join(", ") }
        );
    }
    // As ripgrep does with what it cannot read: everything else is done, and the exit
    // code says that something was reported and skipped (docs/capture.md#bad-input).
    Ok(if problems.is_empty() && c.files_not_sessions == 0 {
        0
    } else {
        1
    })
}

fn file_stamp(path: &Path) -> Option<(i64, i64)> {
    let m = std::fs::metadata(path).ok()?;
    let mtime = m
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some((m.len() as i64, mtime.as_nanos() as i64))
}

/// Captures one file in its own transaction; the outer error is the library's, the
/// inner one names a file that is not a session.
fn capture_file(
    conn: &mut Connection,
    path: &Path,
    rules: &Rules,
    dry_run: bool,
    guard: &interrupt::Guard,
    c: &mut Counts,
) -> Result<std::result::Result<(), String>> {
    let name = path.to_string_lossy().to_string();
    let stamp = file_stamp(path);
    if let Some((size, mtime)) = stamp {
        if store::unchanged(conn, &name, size, mtime).context("reading the capture records")? {
            c.files_unchanged += 1;
            return Ok(Ok(()));
        }
    }
    let session = match read_session(path) {
        Ok(s) => s,
        Err(problem) => return Ok(Err(problem)),
    };
    c.files += 1;
    c.sessions += 1;
    for (k, n) in &session.skipped {
        *c.skipped.entry(k.clone()).or_default() += n;
    }
    let agent = session.agent.map(|a| a.name()).unwrap_or("");
    let tx = conn
        .transaction_with_behavior(Immediate)
        .context("starting the capture")?;
    {
        let mut writer = ItemWriter::new(&tx)
            .context("preparing the capture")?
            .with_vectors(crate::vectors::store::read(&tx)?);
        for (n, segment) in segments(&session.records, rules.gap_seconds) {
            let item =
                item_of(&session, segment, rules).map_err(|e| err!("{name}: segment {n}: {e}"))?;
            let Some(mut item) = item else {
                *c.skipped
                    .entry("segment without a time".into())
                    .or_default() += 1;
                continue;
            };
            c.segments += 1;
            match store::origin(&tx, agent, &session.id, n)
                .context("reading the capture records")?
            {
                Origin::Forgotten => {
                    c.forgotten += 1;
                    continue;
                }
                Origin::Item(id) => match stored(&tx, id).context("reading a captured item")? {
                    None => {
                        c.forgotten += 1;
                        continue;
                    }
                    Some(old) if same(&old, &item) => {
                        c.unchanged += 1;
                        continue;
                    }
                    Some(_) => {
                        item.id = Some(id);
                        c.replaced += 1;
                    }
                },
                Origin::New => c.added += 1,
            }
            // Capture's items are stored through the one writer of `add` and `import`,
            // so that whatever it does to an item's texts before storing them applies here.
            let id = writer
                .write(&item)
                .context(&format!("{name}: writing segment {n}"))?
                .map_err(|refusal| err!("{name}: segment {n}: {refusal}"))?;
            store::record(&tx, agent, &session.id, n, id).context("recording the capture")?;
            fault::pause_point("capture", (c.added + c.replaced) as i64);
        }
    }
    if let Some((size, mtime)) = stamp {
        store::read_at(&tx, &name, size, mtime).context("recording the capture")?;
    }
    if !dry_run {
        guard
            .commit(|| tx.commit())
            .context("committing the capture")?;
        guard.rearm();
    }
    Ok(Ok(()))
}

fn stored(conn: &Connection, id: i64) -> rusqlite::Result<Option<Item>> {
    conn.query_row(
        "select source, project, title, summary, questions, atoms, occurred_at, transcript from items where id = ?1",
        params![id],
        |r| {
            Ok(Item {
                id: Some(id),
                source: r.get(0)?,
                project: r.get(1)?,
                title: r.get(2)?,
                summary: r.get(3)?,
                questions: r.get(4)?,
                atoms: r.get(5)?,
                occurred_at: r.get(6)?,
                transcript: r.get(7)?,
                embedding: None,
            })
        },
    )
    .optional()
}

fn same(old: &Item, new: &Item) -> bool {
    (
        &old.source,
        &old.project,
        &old.title,
        &old.summary,
        &old.questions,
        &old.atoms,
        &old.occurred_at,
        &old.transcript,
    ) == (
        &new.source,
        &new.project,
        &new.title,
        &new.summary,
        &new.questions,
        &new.atoms,
        &new.occurred_at,
        &new.transcript,
    )
}
