//! The events of `[hook] capture_on` (`SessionEnd`, `Stop`, `PreCompact`): `recall
//! capture` of the session's `transcript_path`, started detached (its own session and
//! process group, standard streams on /dev/null) so that the hook returns at once and the
//! capture outlives the agent. Two ends of one session never hand the same transcript to
//! capture twice: each claims the file at its size and modification time in the session
//! state first, and a transcript the library already holds at that size and time is not
//! captured again. Nothing is printed on stdout (Codex takes a `Stop` hook's output as
//! JSON).
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::json;

use super::payload::Payload;
use super::state::{Outcome, State};
use crate::args::Cli;
use crate::err;
use crate::error::Result;
use crate::library::capture_records as store;
use crate::library::ensure_writable;
use crate::settings::Globals;

/// What the hook did about the capture (`--json`'s `capture`).
enum Done {
    /// Started, with the detached process's id.
    Started(u32),
    /// The library holds this transcript as it is: nothing to capture.
    Captured,
    /// Another end of the session handed this transcript to capture already.
    Claimed,
    /// The session state was locked: left to the session's next end.
    Locked,
    /// A read-only library: nothing can be captured into it.
    ReadOnly,
}

pub fn capture(cli: &Cli, g: &Globals, p: &Payload) -> Result<String> {
    let db = g.db()?;
    let transcript = p
        .transcript
        .as_deref()
        .ok_or_else(|| err!("the hook's JSON has no \"transcript_path\" to capture"))?;
    let stamp = stamp(transcript)?;
    let done = decide(g, db, p, transcript, stamp)?;
    let done = match done {
        None => Done::Started(spawn(cli, db, transcript)?),
        Some(d) => d,
    };
    if !g.json {
        return Ok(String::new());
    }
    let (what, pid) = match done {
        Done::Started(pid) => ("started", Some(pid)),
        Done::Captured => ("captured already", None),
        Done::Claimed => ("claimed already", None),
        Done::Locked => ("skipped: state locked", None),
        Done::ReadOnly => ("skipped: read-only library", None),
    };
    let doc = json!({
        "command": "hook", "event": event_name(p), "transcript": transcript,
        "capture": what, "pid": pid,
    });
    Ok(format!(
        "{}\n",
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    ))
}

fn event_name(p: &Payload) -> String {
    match &p.event {
        super::payload::Event::Other(name) => name.clone(),
        other => format!("{other:?}"),
    }
}

/// None: capture it; else why not.
fn decide(
    g: &Globals,
    db: &Path,
    p: &Payload,
    transcript: &str,
    stamp: (i64, i64),
) -> Result<Option<Done>> {
    // The library must be there, a library, and of this recall's schema.
    let lib = super::super::open_for_query(g)?;
    if ensure_writable(db).is_err() {
        return Ok(Some(Done::ReadOnly));
    }
    let held = store::unchanged(
        &lib.conn,
        &store::file_key(Path::new(transcript)),
        stamp.0,
        stamp.1,
    )
    .map_err(|e| crate::error::Error::sqlite("reading the capture records", &e))?;
    if held {
        return Ok(Some(Done::Captured));
    }
    // Without a session id, the transcript's path stands for the session.
    let session = p.session.as_deref().unwrap_or(transcript);
    Ok(match State::claim_capture(db, session, transcript, stamp) {
        Outcome::Changed | Outcome::NoState => None,
        Outcome::Unchanged => Some(Done::Claimed),
        Outcome::Locked => {
            super::note(&format!(
                "the session state {} is locked by another hook, which is capturing this session; nothing started",
                super::state::path_of(db).display()
            ));
            Some(Done::Locked)
        }
    })
}

/// The transcript's size and modification time, as `capture` records them; refused when
/// it is no file of JSON Lines.
fn stamp(transcript: &str) -> Result<(i64, i64)> {
    let meta = std::fs::metadata(transcript)
        .map_err(|e| err!("the transcript {transcript} cannot be read ({e})"))?;
    if !meta.is_file() {
        return Err(err!("the transcript {transcript} is not a file"));
    }
    if !starts_like_json_lines(transcript) {
        return Err(err!(
            "{transcript} is not a session transcript (JSON Lines)"
        ));
    }
    Ok(store::stamp(&meta).unwrap_or((meta.len() as i64, 0)))
}

/// Whether the file's first character that is not white space opens a JSON object.
fn starts_like_json_lines(path: &str) -> bool {
    use std::io::Read;
    let mut head = [0u8; 512];
    let Ok(n) = std::fs::File::open(path).and_then(|mut f| f.read(&mut head)) else {
        return false;
    };
    let head = head[..n]
        .strip_prefix(b"\xef\xbb\xbf")
        .unwrap_or(&head[..n]);
    head.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// Starts `recall capture TRANSCRIPT` on the same library and configuration, detached.
fn spawn(cli: &Cli, db: &Path, transcript: &str) -> Result<u32> {
    let exe = std::env::current_exe().map_err(|e| err!("cannot find the recall program ({e})"))?;
    let mut cmd = Command::new(exe);
    cmd.arg("--db").arg(db);
    if let Some(config) = &cli.config {
        cmd.arg("--config").arg(config);
    }
    if let Some(tokenizer) = &cli.tokenizer {
        cmd.arg("--tokenizer").arg(tokenizer);
    }
    cmd.arg("capture")
        .arg(transcript)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: setsid is async-signal-safe and touches no memory of the parent.
        unsafe {
            cmd.pre_exec(|| {
                libc::setsid();
                Ok(())
            });
        }
    }
    let child = cmd
        .spawn()
        .map_err(|e| err!("cannot start `recall capture` ({e})"))?;
    Ok(child.id())
}
