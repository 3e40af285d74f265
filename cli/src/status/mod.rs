//! `recall status`: one typed `Status` of a library and of what fills it: the library's
//! facts, each agent's last capture (the library's capture records), the captures that
//! failed (the hook's session state, `sessions`), the hook's failures (the failure log
//! beside the library, `log`), what the hook injected (`injections`), a pending wipe, the vectors' freshness, and what needs
//! attention, each with what to do. Reads only: the library is opened read-only (a
//! read-only file and a Litestream replica work), the files beside it are read, never
//! written.
pub mod injections;
pub mod log;
mod screen;
pub mod sessions;

use std::path::Path;

use serde::Serialize;

use crate::library::sql_file::{self, int, queries, text};
use crate::library::{self, replica, wipe, Mode};
use crate::vectors::store;
pub use log::Failure;
pub use sessions::FailedCapture;

/// How many of the hook's failures `Status` lists, the newest first.
pub const FAILURES_SHOWN: usize = 5;

/// How many projects `Status` lists, those with the most items first.
pub const PROJECTS_SHOWN: i64 = 5;

/// A name and its items: a source, a project (None: the items of no project).
#[derive(Debug, Clone, Serialize)]
pub struct Count {
    pub name: Option<String>,
    pub items: i64,
}

/// What the library holds and is.
#[derive(Debug, Clone, Serialize)]
pub struct Facts {
    pub items: i64,
    pub sources: Vec<Count>,
    /// The `PROJECTS_SHOWN` projects with the most items (the items of no project as
    /// one of them, named None).
    pub projects: Vec<Count>,
    /// How many there are, counted as `projects` counts them.
    pub projects_total: i64,
    /// The files `recall capture` has read.
    pub capture_files: i64,
    /// The file and its write-ahead log, in bytes.
    pub size_bytes: u64,
    pub schema_version: u32,
    pub tokenizer: String,
    /// When the file or its log was last written (ISO-8601 UTC).
    pub last_write: Option<String>,
    /// What Litestream says, when the library is a replica it keeps current.
    pub replica: Option<String>,
}

/// An agent's captures, from the library's capture records.
#[derive(Debug, Clone, Serialize)]
pub struct AgentCaptures {
    pub agent: String,
    pub sessions: i64,
    /// The items its captures made that the library still holds.
    pub items: i64,
    /// The last capture: the newest imported_at of those items (ISO-8601 UTC).
    pub last_at: Option<String>,
    /// That item's session, and how many items the session has.
    pub last_session: Option<String>,
    pub last_session_items: i64,
}

/// The library's vectors (`recall embed`).
#[derive(Debug, Clone, Serialize)]
pub struct Vectors {
    pub model: String,
    pub dimensions: usize,
    pub vectors: i64,
    /// Items without a vector.
    pub missing: i64,
    /// Items whose vector is older than their text or their neighbours' titles.
    pub stale: i64,
}

/// recall's hooks in one of an agent's folders, and whether the agent trusts them (the
/// agents that run only trusted hooks: Codex).
#[derive(Debug, Clone, Serialize)]
pub struct HookTrust {
    #[serde(skip)]
    pub agent: crate::agents::Agent,
    pub folder: String,
    #[serde(flatten)]
    pub trust: crate::setup::Trust,
}

/// Something that needs a person: what, and what to do.
#[derive(Debug, Clone, Serialize)]
pub struct Attention {
    pub what: String,
    pub todo: String,
}

/// Whether the library is there and opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Opened {
    Yes,
    Missing,
    Refused,
}

#[derive(Debug, Clone, Serialize)]
pub struct Status {
    pub library: String,
    pub opened: Opened,
    /// Why the library does not open.
    pub problem: Option<String>,
    pub facts: Option<Facts>,
    pub captures: Vec<AgentCaptures>,
    /// The sessions whose last capture the hook started failed, the newest first.
    pub failed_captures: Vec<FailedCapture>,
    /// When a capture last committed: the later of the session state's record and the
    /// newest captured item (ISO-8601 UTC).
    pub last_success: Option<String>,
    /// The hook's failures, the newest first, at most `FAILURES_SHOWN`.
    pub hook_failures: Vec<Failure>,
    /// All the failures the log holds, and those after `last_success`.
    pub hook_failures_total: usize,
    pub hook_failures_since_success: usize,
    /// What the hook gave the agents (the injection log beside the library).
    pub injections: injections::Injections,
    /// When a forget's wipe was left pending, and why the last try did not finish.
    pub wipe_pending: Option<String>,
    pub wipe_unfinished: Option<String>,
    pub vectors: Option<Vectors>,
    /// Whether the agent trusts recall's hooks, by folder (the user's, the project's),
    /// where recall's hooks are wired (read from the files, `agents::codex::setup::offline_trust`);
    /// named in the JSON for Codex, the agent that needs it.
    #[serde(rename = "codex_hooks")]
    pub hook_trust: Vec<HookTrust>,
    /// What could not be read beside the library (the log, the session state).
    pub notes: Vec<String>,
    pub attention: Vec<Attention>,
    /// No attention needed: `recall status` exits 0, else 1.
    pub healthy: bool,
}

/// The status of the library at `path`; `tokenizer` is the configured one, checked as
/// every command checks it.
pub fn read(path: &Path, tokenizer: Option<&str>, allow: Option<&Vec<String>>) -> Status {
    let shown = path.display().to_string();
    let mut s = Status {
        library: shown.clone(),
        opened: Opened::Yes,
        problem: None,
        facts: None,
        captures: Vec::new(),
        failed_captures: Vec::new(),
        last_success: None,
        hook_failures: Vec::new(),
        hook_failures_total: 0,
        hook_failures_since_success: 0,
        injections: injections::Injections::default(),
        wipe_pending: None,
        wipe_unfinished: None,
        vectors: None,
        hook_trust: Vec::new(),
        notes: Vec::new(),
        attention: Vec::new(),
        healthy: true,
    };
    let mut attention = Vec::new();
    if !path.exists() {
        s.opened = Opened::Missing;
        s.problem = Some(format!("no library at {shown}"));
        attention.push(Attention {
            what: format!("there is no library at {shown}"),
            todo: format!(
                "create one with `recall --db {shown} init`, or point --db (RECALL_DB, and the hook's settings) at the library"
            ),
        });
    } else {
        match library::open(path, Mode::Read, tokenizer) {
            Ok(lib) => {
                let sources = allow.map(|globs| serde_json::json!(globs).to_string());
                if let Err(e) = read_library(&lib, sources, &mut s) {
                    s.notes.push(e.message);
                }
            }
            Err(e) => {
                s.opened = Opened::Refused;
                s.problem = Some(e.message.clone());
                attention.push(Attention {
                    what: format!("the library does not open: {}", e.message),
                    todo: "do what the message says; `recall check` reports on the library in full"
                        .to_string(),
                });
            }
        }
    }
    let state = sessions::read(path).unwrap_or_else(|why| {
        s.notes.push(why);
        sessions::Sessions::default()
    });
    s.failed_captures = state.failed;
    let newest_item = s.captures.iter().filter_map(|c| c.last_at.clone()).max();
    s.last_success = [state.captured_at, newest_item].into_iter().flatten().max();
    let failures = log::read(path).unwrap_or_else(|e| {
        s.notes.push(format!(
            "the failure log {} cannot be read ({e})",
            log::path_of(path).display()
        ));
        Vec::new()
    });
    s.hook_failures_total = failures.len();
    let injected = injections::read(path).unwrap_or_else(|e| {
        s.notes.push(format!(
            "the injection log {} cannot be read ({e})",
            injections::path_of(path).display()
        ));
        Vec::new()
    });
    s.injections = injections::totals(&injected);
    let recent: Vec<&Failure> = failures
        .iter()
        .filter(|f| s.last_success.as_ref().is_none_or(|ok| f.at > *ok))
        .collect();
    s.hook_failures_since_success = recent.len();
    s.hook_failures = failures
        .iter()
        .rev()
        .take(FAILURES_SHOWN)
        .cloned()
        .collect();
    if let Some(newest) = recent.last() {
        attention.push(Attention {
            what: format!(
                "the session hook or a capture it started failed {} since the last capture that committed ({}); the newest at {}: {}: {}",
                times(recent.len()),
                s.last_success.as_deref().unwrap_or("none"),
                newest.at,
                newest.event,
                newest.reason
            ),
            todo: "fix what the reason names, then end a session (or run `recall capture`): these stay listed until a capture commits".to_string(),
        });
    }
    for f in &s.failed_captures {
        let transcript = f.transcript.as_deref().unwrap_or("TRANSCRIPT");
        attention.push(Attention {
            what: format!(
                "the capture of session {} failed{} after {} attempts: {}",
                f.session,
                f.failed_at
                    .as_deref()
                    .map(|t| format!(" at {t}"))
                    .unwrap_or_default(),
                f.attempts,
                f.problem
            ),
            todo: format!(
                "fix what the reason names, then run `recall --db {shown} capture {transcript}` (the hook also tries again at its next events, a few times)"
            ),
        });
    }
    if let Some(since) = &s.wipe_pending {
        attention.push(Attention {
            what: format!(
                "a forget's wipe is pending since {since}: the file may still hold copies of forgotten items{}",
                s.wipe_unfinished
                    .as_deref()
                    .map(|w| format!(" (last try: {w})"))
                    .unwrap_or_default()
            ),
            todo: match s.facts.as_ref().and_then(|f| f.replica.as_ref()) {
                Some(_) => format!("{} on the primary", wipe::FINISH),
                None => wipe::FINISH.to_string(),
            },
        });
    }
    if let Some(v) = &s.vectors {
        if v.missing + v.stale > 0 {
            attention.push(Attention {
                what: format!(
                    "{} items have no vector and {} an outdated one: the vector channel does not see them as they are",
                    v.missing, v.stale
                ),
                todo: "run `recall embed`".to_string(),
            });
        }
    }
    s.hook_trust = hook_trust();
    for c in s.hook_trust.iter().filter(|c| !c.trust.runs()) {
        attention.push(Attention {
            what: format!(
                "{} does not run recall's hooks in {}: {}",
                c.agent.title(),
                c.folder,
                c.trust.state()
            ),
            todo: crate::setup::agent_part(c.agent)
                .hook_trust
                .map(|t| t.by_hand)
                .unwrap_or_default()
                .to_string(),
        });
    }
    s.healthy = attention.is_empty();
    s.attention = attention;
    s
}

/// recall's hooks in the folders of each agent that runs only trusted hooks, where
/// wired.
fn hook_trust() -> Vec<HookTrust> {
    let mut out = Vec::new();
    for &agent in crate::agents::Agent::ALL {
        let Some(t) = crate::setup::agent_part(agent).hook_trust else {
            continue;
        };
        for (dir, trust) in (t.offline)() {
            out.push(HookTrust {
                agent,
                folder: dir.display().to_string(),
                trust,
            });
        }
    }
    out
}

fn read_library(
    lib: &library::Library,
    globs: Option<String>,
    s: &mut Status,
) -> crate::error::Result<()> {
    let conn = &lib.conn;
    let rows = sql_file::read(
        conn,
        queries::STATUS_ITEMS,
        &vec![
            (":top", int(Some(PROJECTS_SHOWN))),
            (":sources", text(globs.as_deref())),
        ],
        |c| {
            Ok((
                c.text("grouping")?.unwrap_or_default(),
                c.text("name")?,
                c.int("items")?.unwrap_or(0),
            ))
        },
    )?;
    let of = |group: &str| -> Vec<Count> {
        rows.iter()
            .filter(|(g, ..)| g == group)
            .map(|(_, name, items)| Count {
                name: name.clone(),
                items: *items,
            })
            .collect()
    };
    let one = |group: &str| of(group).first().map_or(0, |c| c.items);
    let mut sources = of("source");
    sources.sort_by(|a, b| b.items.cmp(&a.items).then(a.name.cmp(&b.name)));
    let mut projects = of("project");
    projects.sort_by(|a, b| b.items.cmp(&a.items).then(a.name.cmp(&b.name)));
    let files = [lib.path.clone(), library::sidecar(&lib.path, "-wal")];
    let metas: Vec<std::fs::Metadata> = files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .collect();
    let last_write = metas
        .iter()
        .filter_map(|m| m.modified().ok())
        .max()
        .map(|t| {
            chrono::DateTime::<chrono::Utc>::from(t)
                .format("%Y-%m-%dT%H:%M:%SZ")
                .to_string()
        });
    s.facts = Some(Facts {
        items: one("total"),
        sources,
        projects,
        projects_total: one("projects"),
        capture_files: one("capture_files"),
        size_bytes: metas.iter().map(|m| m.len()).sum(),
        schema_version: lib.schema_version,
        tokenizer: lib.tokenizer.clone(),
        last_write,
        replica: replica::of(&lib.path).map(|r| r.describe(std::time::SystemTime::now())),
    });
    let by_sources = vec![(":sources", text(globs.as_deref()))];
    s.captures = sql_file::read(conn, queries::STATUS_CAPTURES, &by_sources, |c| {
        Ok(AgentCaptures {
            agent: c.text("agent")?.unwrap_or_default(),
            sessions: c.int("sessions")?.unwrap_or(0),
            items: c.int("items")?.unwrap_or(0),
            last_at: c.text("last_at")?,
            last_session: c.text("last_session")?,
            last_session_items: c.int("last_session_items")?.unwrap_or(0),
        })
    })?;
    s.wipe_pending = wipe::pending(conn);
    s.wipe_unfinished = s
        .wipe_pending
        .as_ref()
        .and_then(|_| wipe::why_unfinished(conn));
    if let Some(record) = store::read(conn)? {
        let query = match store::contexts_exist(conn) {
            Ok(true) => queries::STATUS_VECTORS,
            _ => queries::STATUS_VECTORS_WITHOUT_CONTEXTS,
        };
        let counts = sql_file::read(conn, query, &by_sources, |c| {
            Ok((
                c.int("vectors")?.unwrap_or(0),
                c.int("missing")?.unwrap_or(0),
                c.int("stale")?.unwrap_or(0),
            ))
        })?;
        let (vectors, missing, stale) = counts.first().copied().unwrap_or_default();
        s.vectors = Some(Vectors {
            model: record.model,
            dimensions: record.dimensions,
            vectors,
            missing,
            stale,
        });
    }
    Ok(())
}

/// The newest failure (of the hook, or of a capture it started) that no session start
/// has mentioned and that no capture has since made good, as the one line a session
/// start shows, with the failure's time to record as mentioned; `status` is the command
/// that runs `recall status` where the line is read.
pub fn unmentioned_failure(library: &Path, status: &str) -> Option<(String, String)> {
    let state = sessions::read(library).ok()?;
    let seen = [state.mentioned.clone(), state.captured_at.clone()]
        .into_iter()
        .flatten()
        .max();
    let newer = |at: &str| seen.as_deref().is_none_or(|s| at > s);
    let hook = log::read(library)
        .ok()
        .and_then(|all| all.into_iter().rev().find(|f| f.event != log::CAPTURE))
        .filter(|f| newer(&f.at))
        .map(|f| {
            let line = format!(
                "recall: the session hook failed at {} ({}: {}); run `{status}`",
                f.at,
                f.event,
                short(&f.reason)
            );
            (f.at, line)
        });
    let capture = state
        .failed
        .into_iter()
        .filter_map(|f| Some((f.failed_at.clone()?, f)))
        .filter(|(at, _)| newer(at))
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(at, f)| {
            let line = format!(
                "recall: the last capture failed at {at} ({}); run `{status}`",
                short(&f.problem)
            );
            (at, line)
        });
    [hook, capture]
        .into_iter()
        .flatten()
        .max_by(|a, b| a.0.cmp(&b.0))
}

fn times(n: usize) -> String {
    match n {
        1 => "once".to_string(),
        n => format!("{n} times"),
    }
}

/// A reason as a session start shows it: its first 160 characters.
fn short(reason: &str) -> String {
    match reason.char_indices().nth(160) {
        Some((cut, _)) => format!("{}…", &reason[..cut]),
        None => reason.to_string(),
    }
}
