//! The judge's process: spawned in a process group of its own, fed by a writer thread and
//! read by reader threads, so that the search waits on one channel with one deadline and
//! a judge that stops reading or writing can never block it. A judge that fails or runs
//! past its deadline is killed with its whole group, and reaped.
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the judge's standard output gave.
pub enum Event {
    Line(String),
    /// Its standard output closed: it exited, or is about to.
    Closed,
}

/// How long a judge whose input was closed gets to exit before it is killed.
const GRACE: Duration = Duration::from_millis(500);

pub struct Process {
    child: Child,
    /// The command as configured, for messages.
    pub command: String,
    requests: Option<Sender<String>>,
    events: Receiver<Event>,
    /// The last line the judge wrote on its standard error, for messages.
    stderr: Arc<Mutex<String>>,
    reaped: bool,
    /// Request ids are unique over the process's life, so an answer is never mistaken for
    /// one to an earlier search.
    next_id: u64,
}

impl Process {
    pub fn spawn(command: &str) -> Result<Process, String> {
        let argv = shlex::split(command)
            .filter(|a| !a.is_empty())
            .ok_or_else(|| {
                format!("cannot read the judge command {command:?} (unbalanced quotes?)")
            })?;
        let mut child = Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own group: a judge that starts workers of its own is killed with them.
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot start the judge {:?}: {e}", argv[0]))?;
        let (stdin, stdout, stderr) =
            match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
                (Some(i), Some(o), Some(e)) => (i, o, e),
                _ => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err("cannot connect to the judge's standard streams".to_string());
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

    /// Queues one line for the judge's standard input.
    pub fn send(&self, line: String) -> Result<(), String> {
        self.requests
            .as_ref()
            .and_then(|r| r.send(line).ok())
            .ok_or_else(|| "the judge stopped reading its input".to_string())
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

    /// How the judge ended, after its output closed: its exit status and the last line of
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
        format!("the judge ended ({status}){said}")
    }

    /// Closes its input and lets it exit; kills it if it does not within a moment.
    pub fn finish(mut self) {
        self.requests = None;
        self.wait_for(GRACE);
    }

    /// Waits up to `grace` for the judge to exit, then kills its group; always reaps.
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

    /// Kills the judge's process group and reaps the judge.
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
