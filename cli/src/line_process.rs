//! A helper process that answers JSON lines (the judge, the embedder): spawned in a
//! process group of its own, fed by a writer thread and read by reader threads, so that
//! the caller waits on one channel with one deadline and a helper that stops reading or
//! writing can never block it. One that fails or runs past its deadline is killed with
//! its whole group, and reaped.
//!
//! A helper never outlives recall: on Linux the kernel kills it when recall dies, however
//! it dies (`PR_SET_PDEATHSIG`, set in the child before it runs the helper); `stop_all`
//! ends every one on an orderly stop; and a call that is cancelled (`Cancel`) wakes
//! from its wait at once, and kills the helper it was using.
use std::cell::RefCell;
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use crate::input::BoundedLine;

/// What the helper's standard output gave.
pub enum Event {
    Line(String),
    /// Its standard output closed: it exited, or is about to.
    Closed,
    /// The call it serves was cancelled, or recall is stopping: the caller gives up
    /// and kills it.
    Cancelled,
}

/// Why a cancelled call's helper work ended, for messages.
pub const CANCELLED: &str = "the call was cancelled";

/// The longest answer line of a helper unless its caller expects longer ones: a judge's
/// answer is a few dozen bytes.
pub const ANSWER_LINE: u64 = 1024 * 1024;

/// One line of a helper's answers, read no further than `limit` bytes and one more
/// (`input::read_line`); None at the end.
fn read_answer(reader: &mut impl BufRead, limit: u64) -> std::io::Result<Option<String>> {
    let line = match crate::input::read_line(reader, limit)? {
        BoundedLine::Line(line) => line,
        BoundedLine::TooLong => {
            return Err(std::io::Error::other(format!(
                "an answer line longer than {}, its limit",
                crate::input::size(limit)
            )))
        }
        BoundedLine::End => return Ok(None),
    };
    String::from_utf8(line)
        .map(Some)
        .map_err(|_| std::io::Error::other("an answer line that is not UTF-8"))
}

/// The longest piece of a helper's answer line quoted in a message: a helper printing a
/// novel is named, not quoted whole.
const SHOWN: usize = 80;

/// A helper's answer line as messages quote it: its first characters, `…` when cut.
pub fn shown(line: &str) -> String {
    let mut s: String = line.chars().take(SHOWN).collect();
    if line.chars().count() > SHOWN {
        s.push('…');
    }
    s
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
    /// Another way into `events`, for a cancellation to wake the caller.
    wake: Sender<Event>,
    /// The last line the helper wrote on its standard error, for messages.
    stderr: Arc<Mutex<String>>,
    /// The longest answer line read whole; a longer one ends the helper's answers.
    line_limit: Arc<AtomicU64>,
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
        if STOPPING.load(Ordering::SeqCst) {
            return Err(format!("recall is stopping: {role} was not started"));
        }
        let mut program = Command::new(&argv[0]);
        program
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own group: a helper that starts workers of its own is killed with them.
            .process_group(0);
        die_with_parent(&mut program);
        let mut live = LIVE.lock().unwrap_or_else(|p| p.into_inner());
        let mut child =
            spawn(program).map_err(|e| format!("cannot start {role} {:?}: {e}", argv[0]))?;
        if let Ok(pid) = i32::try_from(child.id()) {
            live.insert(pid);
        }
        drop(live);
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
        let line_limit = Arc::new(AtomicU64::new(ANSWER_LINE));
        let limit_in = line_limit.clone();
        let (events_in, events) = mpsc::channel();
        let wake = events_in.clone();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                match read_answer(&mut reader, limit_in.load(Ordering::SeqCst)) {
                    Ok(Some(l)) => {
                        if events_in.send(Event::Line(l)).is_err() {
                            return;
                        }
                    }
                    Ok(None) => break,
                    // Not UTF-8, too long, or the pipe failed: nothing more to read.
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
            wake,
            stderr: last,
            line_limit,
            reaped: false,
            next_id: 1,
        })
    }

    /// The longest answer line the next requests may get (a batch of vectors is long);
    /// a helper that writes a longer one is taken for broken, never read whole.
    pub fn expect_lines_of(&self, bytes: u64) {
        self.line_limit
            .store(bytes.max(ANSWER_LINE), Ordering::SeqCst);
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

    /// The next event, or None when the deadline passed first; `Event::Cancelled` as
    /// soon as the call this thread runs is cancelled.
    pub fn next(&self, deadline: Instant) -> Option<Event> {
        loop {
            if cancelled() {
                return Some(Event::Cancelled);
            }
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(wait) {
                // A wake-up meant for a call that had already ended.
                Ok(Event::Cancelled) => continue,
                Ok(event) => return Some(event),
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => return Some(Event::Closed),
            }
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
            let mut live = LIVE.lock().unwrap_or_else(|p| p.into_inner());
            let waited = self.child.try_wait();
            if let Ok(Some(_)) = waited {
                self.reaped = true;
                if let Ok(pid) = i32::try_from(self.child.id()) {
                    live.remove(&pid);
                }
            }
            drop(live);
            match waited {
                Ok(Some(status)) => return status.to_string(),
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
        let mut live = LIVE.lock().unwrap_or_else(|p| p.into_inner());
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: the group is the unreaped child's own (process_group(0)), so its id
            // cannot have been reused.
            unsafe {
                libc::killpg(pid, libc::SIGKILL);
            }
            live.remove(&pid);
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

/// The judge and the embedder kept between searches, and capture's summariser between
/// segments, one of each.
pub static JUDGE: Slot = Slot::new("the judge");
pub static EMBEDDER: Slot = Slot::new("the embedder");
pub static SUMMARIZER: Slot = Slot::new("the summariser");

/// From now on a helper that answered well is kept for the next search.
pub fn keep_alive() {
    KEEP.store(true, Ordering::SeqCst);
}

/// Stops every helper: the calls using one are cancelled (they kill theirs), the kept
/// ones end, and no new one starts. For an orderly stop.
pub fn stop_all() {
    STOPPING.store(true, Ordering::SeqCst);
    let scopes: Vec<Arc<Cancel>> = SCOPES
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .iter()
        .filter_map(Weak::upgrade)
        .collect();
    for scope in scopes {
        scope.cancel();
    }
    shutdown();
}

/// Kills every helper's group at once, for a process about to exit that cannot wait
/// for the calls using them.
pub fn kill_all() {
    STOPPING.store(true, Ordering::SeqCst);
    let live = LIVE.lock().unwrap_or_else(|p| p.into_inner());
    for pid in live.iter() {
        // SAFETY: a pid is in LIVE only while its child is unreaped (it is removed under
        // this lock before the reaping), so the group is still the helper's.
        unsafe {
            libc::killpg(*pid, libc::SIGKILL);
        }
    }
}

/// Ends the kept helpers (closing their input, then killing any that lingers).
pub fn shutdown() {
    KEEP.store(false, Ordering::SeqCst);
    for slot in [&JUDGE, &EMBEDDER, &SUMMARIZER] {
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
        let process = kept
            .map(Ok)
            .unwrap_or_else(|| Process::spawn(command, self.role))?;
        CURRENT.with(|current| match &*current.borrow() {
            Some(scope) => scope.watch(&process),
            None => Ok(()),
        })?;
        Ok(process)
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

/// The helpers' pids (each its group's) that are not reaped yet.
static LIVE: std::sync::LazyLock<Mutex<HashSet<i32>>> =
    std::sync::LazyLock::new(|| Mutex::new(HashSet::new()));
/// Set once recall stops: no helper starts after it.
static STOPPING: AtomicBool = AtomicBool::new(false);
/// The calls running now, for `stop_all`.
static SCOPES: Mutex<Vec<Weak<Cancel>>> = Mutex::new(Vec::new());

thread_local! {
    static CURRENT: RefCell<Option<Arc<Cancel>>> = const { RefCell::new(None) };
}

/// The cancellation of one call: its helpers' waits end when it is cancelled.
#[derive(Default)]
pub struct Cancel {
    cancelled: AtomicBool,
    wakers: Mutex<Vec<Sender<Event>>>,
}

impl Cancel {
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        for waker in self
            .wakers
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .drain(..)
        {
            let _ = waker.send(Event::Cancelled);
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    fn watch(&self, process: &Process) -> Result<(), String> {
        let mut wakers = self.wakers.lock().unwrap_or_else(|p| p.into_inner());
        // Checked under the lock `cancel` takes: either it sees this waker, or this
        // sees its flag.
        if self.is_cancelled() {
            return Err(CANCELLED.to_string());
        }
        wakers.push(process.wake.clone());
        Ok(())
    }
}

/// Runs `f` (a call) on this thread under `cancel`.
pub fn within<T>(cancel: &Arc<Cancel>, f: impl FnOnce() -> T) -> T {
    {
        let mut scopes = SCOPES.lock().unwrap_or_else(|p| p.into_inner());
        scopes.retain(|s| s.strong_count() > 0);
        scopes.push(Arc::downgrade(cancel));
    }
    if STOPPING.load(Ordering::SeqCst) {
        cancel.cancel();
    }
    CURRENT.with(|current| *current.borrow_mut() = Some(cancel.clone()));
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            CURRENT.with(|current| *current.borrow_mut() = None);
        }
    }
    let _reset = Reset;
    f()
}

/// Whether the call this thread runs was cancelled.
pub fn cancelled() -> bool {
    CURRENT.with(|current| current.borrow().as_ref().is_some_and(|c| c.is_cancelled()))
}

/// On Linux, the helper is killed when the thread that started it ends, so every helper
/// is started by one thread that lives as long as recall (`spawn`), and recall's death
/// kills it. The check of the parent closes the race with a parent that died first.
fn die_with_parent(command: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        let parent = libc::pid_t::try_from(std::process::id()).unwrap_or(0);
        // SAFETY: prctl and getppid are async-signal-safe, and the closure allocates
        // nothing, as a child between fork and exec requires.
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                    return Err(std::io::Error::last_os_error());
                }
                if libc::getppid() != parent {
                    return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = command;
}

type SpawnRequest = (Command, Sender<std::io::Result<Child>>);

/// Starts `command` on the thread that starts every helper.
fn spawn(command: Command) -> std::io::Result<Child> {
    static SPAWNER: OnceLock<Mutex<Sender<SpawnRequest>>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (requests, incoming) = mpsc::channel::<SpawnRequest>();
        let started = std::thread::Builder::new()
            .name("recall-helpers".into())
            .spawn(move || {
                for (mut command, answer) in incoming {
                    let _ = answer.send(command.spawn());
                }
            });
        if let Err(e) = started {
            // Without the thread, requests fail with this below.
            eprintln!("recall: cannot start the thread that starts helpers: {e}");
        }
        Mutex::new(requests)
    });
    let (answer, result) = mpsc::channel();
    let gone = || std::io::Error::other("the thread that starts helpers is gone");
    spawner
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .send((command, answer))
        .map_err(|_| gone())?;
    result.recv().map_err(|_| gone())?
}
