//! The events of `[hook] capture_on` (`SessionEnd`, `Stop`, `PreCompact`): `recall
//! capture` of the session's `transcript_path`, started detached (its own session and
//! process group, standard streams on /dev/null) so that the hook returns at once and the
//! capture outlives the agent. A transcript the library holds at its size and
//! modification time is not captured again (the session state knows the captures the
//! hook started that committed; the capture itself skips any other the library holds);
//! two ends of one session never start two captures of the transcript as it is
//! (`State::claim_capture`). The detached capture records how it ended in the session
//! state (`RECALL_HOOK_SESSION` names the session); one that failed, or was killed, is
//! started again by the next hook event of any session (`retry`). A library that cannot be written (a read-only file or folder, a
//! Litestream replica) is refused, and the hook says so. Nothing is printed on stdout
//! without `--json` (Codex takes a `Stop` hook's output as JSON).
use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::json;

use super::answer::{fields, Answer};
use super::payload::Payload;
use crate::args::Cli;
use crate::error::{err, Result};
use crate::library::capture_records as store;
use crate::library::sessions::HOOK_SESSION;
use crate::library::sessions::{Claim, State};
use crate::library::{ensure_writable, replica};
use crate::settings::Globals;

/// What the hook did about the capture (`--json`'s `capture`).
enum Done {
    /// Started, with the detached process's id.
    Started(u32),
    /// A capture of this transcript as it is committed: nothing to capture.
    Captured,
    /// A capture of this transcript as it is runs already.
    Claimed,
    /// The session state was locked: left to the session's next end.
    Locked,
    /// The library cannot be written, and why.
    Refused(String),
    /// The captures of this transcript as it is failed too often: the last problem.
    GaveUp(String),
}

pub fn capture(cli: &Cli, g: &Globals, p: &Payload) -> Result<Answer> {
    let db = g.db()?;
    let transcript = match unwritten(p.transcript.as_deref()) {
        Ok(transcript) => transcript,
        Err(why) => return nothing(cli, g, p, &why),
    };
    let stamp = stamp(transcript)?;
    // Without a session id, the transcript's path stands for the session.
    let session = p.session.as_deref().unwrap_or(transcript);
    // The other sessions' failed captures first: once this one's starts, it competes
    // with what the hook still does for the processor.
    let retried = match refused(db) {
        Some(_) => Vec::new(),
        None => retry(cli, g, Some(session)),
    };
    let done = one(cli, db, session, transcript, stamp)?;
    // A library that cannot be written is no failure of the session (a replica, a
    // shared read-only copy): said in `--json` only.
    if let Done::GaveUp(why) = &done {
        super::log::note(&format!(
            "the session is not captured: its captures failed {} times: {why}",
            crate::library::sessions::ATTEMPTS
        ));
    }
    if !g.json {
        return Ok(Answer::Nothing);
    }
    let (what, pid) = match &done {
        Done::Started(pid) => ("started".to_string(), Some(*pid)),
        Done::Captured => ("captured already".to_string(), None),
        Done::Claimed => ("claimed already".to_string(), None),
        Done::Locked => ("skipped: state locked".to_string(), None),
        Done::Refused(why) => (format!("refused: {why}"), None),
        Done::GaveUp(why) => (
            format!(
                "failed {} times, not tried again until the transcript changes: {why}",
                crate::library::sessions::ATTEMPTS
            ),
            None,
        ),
    };
    Ok(Answer::Json(fields(json!({
        "transcript": transcript, "capture": what, "pid": pid, "retried": retried,
    }))))
}

/// The transcript to capture, or why there is nothing to capture: the payload names
/// none (Codex's `Stop` of a session it keeps no rollout of), or names one that was never
/// written (Claude Code's commands that start no conversation, `claude mcp list` among
/// them, end a session whose transcript does not exist), or an empty file. None of these
/// is a failure: nothing was lost. A transcript that exists and cannot be captured is one.
fn unwritten(transcript: Option<&str>) -> std::result::Result<&str, String> {
    let Some(transcript) = transcript else {
        return Err("the hook's JSON names no transcript".to_string());
    };
    match std::fs::metadata(transcript) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(format!("the transcript {transcript} was never written"))
        }
        Ok(meta) if meta.is_file() && meta.len() == 0 => {
            Err(format!("the transcript {transcript} is empty"))
        }
        _ => Ok(transcript),
    }
}

/// A capture event with nothing to capture: one line on stderr, which the agents keep
/// in their debug logs, and not the failure log, so that no session start reports it.
/// Other sessions' failed captures are started again, as at every event.
fn nothing(cli: &Cli, g: &Globals, p: &Payload, why: &str) -> Result<Answer> {
    eprintln!(
        "recall: hook: {}",
        crate::text::field(&format!("{}: nothing to capture: {why}", p.name))
    );
    let retried = match refused(g.db()?) {
        Some(_) => Vec::new(),
        None => retry(cli, g, p.session.as_deref()),
    };
    if !g.json {
        return Ok(Answer::Nothing);
    }
    Ok(Answer::Json(fields(json!({
        "transcript": p.transcript, "capture": format!("nothing to capture: {why}"),
        "pid": null, "retried": retried,
    }))))
}

/// Why the library cannot be written, if it cannot.
fn refused(db: &Path) -> Option<String> {
    if replica::of(db).is_some() {
        return Some(format!(
            "{} is a Litestream replica, read-only here: capture into its primary, which Litestream copies here",
            db.display()
        ));
    }
    ensure_writable(db).err().map(|e| e.message)
}

/// Captures one session's transcript as it is, unless a capture of it committed or
/// runs, or it cannot be.
fn one(cli: &Cli, db: &Path, session: &str, transcript: &str, stamp: (i64, i64)) -> Result<Done> {
    // The library must be there; that it is one, of this recall's schema and tokenizer,
    // and whether it holds the transcript as it is, the detached capture checks (and a
    // problem is logged for the next start): the agent waits for none of it.
    crate::library::ensure_present(db)?;
    if let Some(why) = refused(db) {
        return Ok(Done::Refused(why));
    }
    Ok(
        match State::claim_capture(db, session, transcript, stamp, || {
            spawn(cli, db, transcript, session)
        })? {
            Claim::Started(pid) => Done::Started(pid),
            Claim::Captured => Done::Captured,
            Claim::Running => Done::Claimed,
            Claim::GaveUp(problem) => Done::GaveUp(problem),
            Claim::Locked => {
                super::log::note(&format!(
                    "the session state {} stayed locked by other hooks; no capture started (the session's next end starts it)",
                    crate::library::sessions::path_of(db).display()
                ));
                Done::Locked
            }
        },
    )
}

/// Starts again the captures of other sessions that failed or were killed (at most
/// `state::RETRIES_AN_EVENT`); the sessions started. Never an error: a hook event is
/// not failed by another session's capture.
pub fn retry(cli: &Cli, g: &Globals, except: Option<&str>) -> Vec<String> {
    let Ok(db) = g.db() else {
        return Vec::new();
    };
    let mut started = Vec::new();
    for (session, transcript) in State::due(db, except) {
        let Ok(stamp) = stamp(&transcript) else {
            // The transcript is gone or no longer one: nothing left to capture.
            State::capture_ended(db, &session, None, None);
            continue;
        };
        if let Ok(Done::Started(_)) = one(cli, db, &session, &transcript, stamp) {
            started.push(session);
        }
    }
    started
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

/// The global options a recall this hook starts is given again, each with its value:
/// every one that takes a value (`args::global_value_options`) and was set, `--db` as the
/// library this hook uses.
pub(crate) fn passed_on(cli: &Cli, db: &Path) -> Vec<(String, OsString)> {
    crate::args::global_value_options()
        .into_iter()
        .filter_map(|option| {
            let value: Option<OsString> = match option.as_str() {
                "--db" => Some(db.into()),
                "--config" => cli.config.clone().map(Into::into),
                "--tokenizer" => cli.tokenizer.clone().map(Into::into),
                // One not named here is not passed on: `crate::tests` fails for it.
                _ => None,
            };
            value.map(|v| (option, v))
        })
        .collect()
}

/// Starts `recall capture TRANSCRIPT` on the same library and configuration, detached.
fn spawn(cli: &Cli, db: &Path, transcript: &str, session: &str) -> Result<u32> {
    let exe = std::env::current_exe().map_err(|e| err!("cannot find the recall program ({e})"))?;
    let mut cmd = Command::new(exe);
    for (option, value) in passed_on(cli, db) {
        cmd.arg(option).arg(value);
    }
    cmd.arg("capture")
        .arg(transcript)
        .env(HOOK_SESSION, session)
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
