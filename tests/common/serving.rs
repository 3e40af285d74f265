//! A server the test started (`recall ui`, `recall mcp --http`): stopped as a client
//! stops it when the test ends, and its log read as it comes.
use std::io::{BufRead, BufReader, Read};
use std::process::Child;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A child process sent SIGTERM when dropped, then killed if it has not ended within
/// `within` (a hung server must not outlive its test).
pub struct Serving {
    pub child: Child,
    within: Duration,
}

impl Serving {
    pub fn new(child: Child, within: Duration) -> Serving {
        Serving { child, within }
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        // SAFETY: a signal to the child this test started.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let deadline = Instant::now() + self.within;
        while self.child.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The lines of `from` (a server's stderr), gathered by a thread until it closes.
pub fn log_lines<R: Read + Send + 'static>(from: BufReader<R>) -> Arc<Mutex<Vec<String>>> {
    let log = Arc::new(Mutex::new(Vec::new()));
    let lines = log.clone();
    std::thread::spawn(move || {
        for line in from.lines() {
            let Ok(line) = line else { return };
            lines.lock().unwrap().push(line);
        }
    });
    log
}
