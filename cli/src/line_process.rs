//! A helper process that answers JSON lines (the judge, the embedder): spawned in a
//! process group of its own, fed by a writer thread and read by reader threads, so that
//! the caller waits on one channel with one deadline and a helper that stops reading or
//! writing can never block it. One that fails or runs past its deadline is killed with
//! its whole group, and reaped.
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the helper's standard output gave.
pub enum Event {
    Line(String),
    /// Its standard output closed: it exited, or is about to.
    Closed,
}

/// How long a helper whose input was closed gets to exit before it is killed.
const GRACE: Duration = Duration::from_millis(500);

pub struct Process {
    child: Child,
    /// The command as configured, for messages.
    pub command: String,
    /// What it is, for messages: "the judge", "the embedder".
    role: &'static str,
    requests: Option<Sender<String>>,
    events: Receiver<Event>,
    /// The last line the helper wrote on its standard error, for messages.
    stderr: Arc<Mutex<String>>,
    reaped: bool,
    /// Request ids are unique over the process's life, so an answer is never mistaken for
    /// one to an earlier search.
    next_id: u64,
}

impl Process {
    /// Starts `command` (split like a shell's words); `role` names it in messages.
    pub fn spawn(command: &str, role: &'static str) -> Result<Process, String> {
        let argv = shlex::split(command)
            .filter(|a| !a.is_empty())
            .ok_or_else(|| {
                format!("cannot split {role}'s command {command:?} into words (an unclosed quote?)")
            })?;
        let mut child = Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own group: a helper that starts workers of its own is killed with them.
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot start {role} {:?}: {e}", argv[0]))?;
        let (stdin, stdout, stderr) =
            match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
                (Some(i), Some(o), Some(e)) => (i, o, e),
                _ => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!("cannot connect to {role}'s standard streams"));
                }
            };
        let (requests, to_write) = mpsc::channel::<String>();
        std::thread::spawn(move || write_all(stdin, to_write));
        let (events_in, events) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if events_in.send(Event::Line(l)).is_err() {
                            return;
                        }
                    }
                    // Not UTF-8, or the pipe failed: either way nothing more to read.
                    Err(e) => {
                        let _ = events_in.send(Event::Line(format!("\u{fffd}{e}")));
                        break;
                    }
                }
            }
            let _ = events_in.send(Event::Closed);
        });
        let last = Arc::new(Mutex::new(String::new()));
        let last_in = last.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr)
                .lines()
                .map_while(std::result::Result::ok)
            {
                if !line.trim().is_empty() {
                    *last_in.lock().unwrap_or_else(|p| p.into_inner()) = line;
                }
            }
        });
        Ok(Process {
            child,
            command: command.to_string(),
            role,
            requests: Some(requests),
            events,
            stderr: last,
            reaped: false,
            next_id: 1,
        })
    }

    pub fn next_request_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id - 1
    }

    /// Queues one line for the helper's standard input.
    pub fn send(&self, line: String) -> Result<(), String> {
        self.requests
            .as_ref()
            .and_then(|r| r.send(line).ok())
            .ok_or_else(|| format!("{} stopped reading its input", self.role))
    }

    /// The next event, or None when the deadline passed first.
    pub fn next(&self, deadline: Instant) -> Option<Event> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(wait) {
            Ok(event) => Some(event),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Event::Closed),
        }
    }

    /// How the helper ended, after its output closed: its exit status and the last line of
    /// its standard error.
    pub fn ended(&mut self) -> String {
        self.requests = None;
        let status = self.wait_for(GRACE);
        let last = self
            .stderr
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let said = if last.is_empty() {
            String::new()
        } else {
            format!(": {}", crate::text::field(&last))
        };
        format!("{} ended ({status}){said}", self.role)
    }

    /// Closes its input and lets it exit; kills it if it does not within a moment.
    pub fn finish(mut self) {
        self.requests = None;
        self.wait_for(GRACE);
    }

    /// Waits up to `grace` for the helper to exit, then kills its group; always reaps.
    fn wait_for(&mut self, grace: Duration) -> String {
        let until = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.reaped = true;
                    return status.to_string();
                }
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => {
                    self.kill();
                    return "killed: it did not exit".to_string();
                }
            }
        }
    }

    /// Kills the helper's process group and reaps the helper.
    pub fn kill(&mut self) {
        self.requests = None;
        if self.reaped {
            return;
        }
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: the group is the unreaped child's own (process_group(0)), so its id
            // cannot have been reused.
            unsafe {
                libc::killpg(pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.reaped = true;
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

fn write_all(mut stdin: ChildStdin, lines: Receiver<String>) {
    for line in lines {
        if stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .is_err()
        {
            return;
        }
    }
}

/// A helper's command line as configured: words, the first one the program.
pub fn check_command(c: &str, role: &str) -> Result<String, String> {
    match shlex::split(c) {
        Some(words) if !words.is_empty() && !words[0].is_empty() => Ok(c.to_string()),
        Some(_) => Err(format!(
            "the command is empty: give {role}'s program and its arguments"
        )),
        None => Err(format!(
            "cannot split {c:?} into words (an unclosed quote?)"
        )),
    }
}

/// Whether helpers outlive one search (`recall eval`, `recall mcp`), to pay their start
/// once.
static KEEP: AtomicBool = AtomicBool::new(false);

/// The judge and the embedder kept between searches, one of each.
pub static JUDGE: Slot = Slot::new("the judge");
pub static EMBEDDER: Slot = Slot::new("the embedder");

/// From now on a helper that answered well is kept for the next search.
pub fn keep_alive() {
    KEEP.store(true, Ordering::SeqCst);
}

/// Ends the kept helpers (closing their input, then killing any that lingers).
pub fn shutdown() {
    KEEP.store(false, Ordering::SeqCst);
    for slot in [&JUDGE, &EMBEDDER] {
        if let Some(p) = slot.kept.lock().unwrap_or_else(|p| p.into_inner()).take() {
            p.finish();
        }
    }
}

/// A place for one kept helper of a role.
pub struct Slot {
    role: &'static str,
    kept: Mutex<Option<Process>>,
}

impl Slot {
    const fn new(role: &'static str) -> Slot {
        Slot {
            role,
            kept: Mutex::new(None),
        }
    }

    /// The kept helper if it runs `command`, else a new one.
    pub fn take(&self, command: &str) -> Result<Process, String> {
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(other) = kept.take_if(|p| p.command != command) {
            other.finish();
        }
        kept.map(Ok)
            .unwrap_or_else(|| Process::spawn(command, self.role))
    }

    /// Gives back a helper that answered well: kept when helpers are kept, else ended.
    pub fn give_back(&self, process: Process) {
        if KEEP.load(Ordering::SeqCst) {
            let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(old) = kept.replace(process) {
                old.finish();
            }
        } else {
            process.finish();
        }
    }
}
