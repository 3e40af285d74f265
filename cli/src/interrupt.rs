//! Ctrl-C, `kill` and a closed terminal while a command writes. Before the commit, a
//! signal ends the process at once with one line saying that nothing changed, and the
//! exit code 128 + the signal (130 for SIGINT, 143 for SIGTERM): SQLite discards an
//! uncommitted transaction at whatever moment it is cut (the crash tests kill writes at
//! every point), so stopping is safe even while a statement runs or input is awaited.
//! Once the commit has begun the command finishes and reports what it did.
use std::sync::atomic::{AtomicU8, Ordering};
use std::thread::JoinHandle;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::{Handle, Signals};

use crate::error::{err, Result};

const WRITING: u8 = 1;
const COMMITTING: u8 = 2;
const STOPPED: u8 = 3;

static STATE: AtomicU8 = AtomicU8::new(0);

/// A write past the file-size limit (`ulimit -f`) would kill the process with SIGXFSZ
/// and no word; ignored, the write fails with an error SQLite rolls back and reports.
pub fn ignore_file_size_limit_signal() {
    // SAFETY: setting a signal's disposition to SIG_IGN is async-signal-safe and has
    // no preconditions.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// Watches the signals while a write runs; see the module comment.
pub struct Guard {
    handle: Handle,
    thread: Option<JoinHandle<()>>,
}

/// Starts watching. `message` says what an interruption leaves (e.g. "nothing was
/// imported"); `on_stop` removes what the command created, if anything.
pub fn guard(message: String, on_stop: Option<Box<dyn FnOnce() + Send>>) -> Result<Guard> {
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])
        .map_err(|e| err!("cannot watch for interruptions: {e}"))?;
    let handle = signals.handle();
    STATE.store(WRITING, Ordering::SeqCst);
    let thread = std::thread::spawn(move || {
        let mut on_stop = on_stop;
        for signal in signals.forever() {
            if STATE
                .compare_exchange(WRITING, STOPPED, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                if let Some(f) = on_stop.take() {
                    f();
                }
                eprintln!("recall: interrupted: {message}");
                std::process::exit(128 + signal);
            }
        }
    });
    Ok(Guard {
        handle,
        thread: Some(thread),
    })
}

impl Guard {
    /// Runs the commit unless a signal came first; after it starts, signals wait.
    pub fn commit<T>(&self, commit: impl FnOnce() -> T) -> T {
        if STATE
            .compare_exchange(WRITING, COMMITTING, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            // The watcher is ending the process: never commit behind its message.
            loop {
                std::thread::park();
            }
        }
        commit()
    }

    /// After a commit, watches again: for a command that writes in several transactions
    /// (`recall embed`), each one committed is kept, and a signal ends the next. A
    /// guard dropped and made again would not do: dropping one leaves the signals it
    /// watched ignored.
    pub fn rearm(&self) {
        let _ = STATE.compare_exchange(COMMITTING, WRITING, Ordering::SeqCst, Ordering::SeqCst);
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        // A command that failed before its commit returns here with its own error.
        let _ = STATE.compare_exchange(WRITING, COMMITTING, Ordering::SeqCst, Ordering::SeqCst);
        self.handle.close();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
