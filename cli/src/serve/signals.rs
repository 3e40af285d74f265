//! SIGINT, SIGTERM and SIGHUP to `recall mcp`, as the command line takes them
//! (`crate::interrupt`): idle or reading, the server stops at once, its helpers killed,
//! with one line on stderr and the exit code 128 + the signal. During a write, before its
//! commit, the write is abandoned (SQLite discards an uncommitted transaction however it
//! is cut) and nothing changed; once its commit has begun, the call completes first, its
//! answer is written to the client, and the line says what it did and what is left to run.
use std::sync::Mutex;

use serde_json::Value as Json;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::error::{err, Result};
use crate::line_process;

enum Phase {
    Idle,
    /// A write call runs, not yet committing.
    Writing(&'static str),
    /// Its commit has begun: it runs to the end. `stop` is a signal that came since.
    Committed {
        stop: Option<i32>,
    },
}

static PHASE: Mutex<Phase> = Mutex::new(Phase::Idle);

/// A stop that waits for the answer to the request of this id to be written.
struct AfterAnswer {
    request: Json,
    signal: i32,
    what: String,
}

static AFTER_ANSWER: Mutex<Option<AfterAnswer>> = Mutex::new(None);

/// How long a stop waits for its call's answer to be written (a client that reads
/// nothing more must not keep the server alive).
const ANSWER_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

fn phase() -> std::sync::MutexGuard<'static, Phase> {
    PHASE.lock().unwrap_or_else(|p| p.into_inner())
}

fn name(signal: i32) -> &'static str {
    match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        _ => "SIGHUP",
    }
}

/// Ends the process: helpers first, then the line.
fn stop(signal: i32, what: &str) -> ! {
    line_process::kill_all();
    eprintln!("recall: interrupted by {}: {what}", name(signal));
    std::process::exit(128 + signal);
}

/// Starts watching the signals, for the server's life.
pub fn watch() -> Result<()> {
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])
        .map_err(|e| err!("cannot watch for interruptions: {e}"))?;
    std::thread::Builder::new()
        .name("recall-signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                // Held until the exit: a commit waiting for it never begins.
                let mut now = phase();
                match &mut *now {
                    Phase::Idle => stop(signal, "the server stopped"),
                    Phase::Writing(tool) => stop(
                        signal,
                        &format!(
                            "the server stopped; the {tool} call in progress was abandoned before its commit: nothing was written"
                        ),
                    ),
                    Phase::Committed { stop } => *stop = Some(signal),
                }
            }
        })
        .map_err(|e| err!("cannot watch for interruptions: {e}"))?;
    Ok(())
}

/// Runs a write call under the watch; `request` is the id of the request it answers, and
/// `done` what its answer says it did (a line's "the TOOL call in progress …").
pub fn writing(
    tool: &'static str,
    done: fn(&Json) -> String,
    request: Json,
    call: impl FnOnce() -> Result<Json>,
) -> Result<Json> {
    *phase() = Phase::Writing(tool);
    let result = call();
    let before = std::mem::replace(&mut *phase(), Phase::Idle);
    if let Phase::Committed { stop: Some(signal) } = before {
        let what = match &result {
            Ok(answer) => format!("the {tool} call in progress {}", done(answer)),
            Err(e) => format!(
                "the {tool} call in progress failed after its commit: {}",
                e.message
            ),
        };
        *AFTER_ANSWER.lock().unwrap_or_else(|p| p.into_inner()) = Some(AfterAnswer {
            request,
            signal,
            what: format!("the server stopped; {what}"),
        });
        std::thread::spawn(move || {
            std::thread::sleep(ANSWER_WAIT);
            stop_after_answer();
        });
    }
    result
}

/// Called by the transport after it wrote a line: the answer a stop waited for ends the
/// server.
pub fn written(line: &str) {
    let waiting = AFTER_ANSWER.lock().unwrap_or_else(|p| p.into_inner());
    let Some(after) = waiting.as_ref() else {
        return;
    };
    let answers = serde_json::from_str::<Json>(line)
        .ok()
        .is_some_and(|m| m.get("id") == Some(&after.request) && m.get("method").is_none());
    drop(waiting);
    if answers {
        stop_after_answer();
    }
}

fn stop_after_answer() {
    let taken = AFTER_ANSWER
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take();
    if let Some(after) = taken {
        stop(after.signal, &after.what);
    }
}

/// Called by SQLite as a commit begins, on the write connection: from now on a signal
/// waits for the call's end. Returns false: the commit goes ahead.
pub fn committing() -> bool {
    let mut now = phase();
    if let Phase::Writing(_) = *now {
        *now = Phase::Committed { stop: None };
    }
    false
}
