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

/// Connections that never show a token: each sends half a request header to the
/// server on `port` (127.0.0.1) and waits; whenever the server closes one, another is
/// opened in its place, as a local process flooding the server would. Bounded: at most
/// `most_opened` connections in all, and it stops when dropped. Counts how many the
/// server closed.
pub struct Flood {
    stop: Arc<std::sync::atomic::AtomicBool>,
    closed: Arc<std::sync::atomic::AtomicUsize>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Flood {
    pub fn start(port: u16, at_once: usize, most_opened: usize, half: &'static [u8]) -> Flood {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        let stop = Arc::new(AtomicBool::new(false));
        let closed = Arc::new(AtomicUsize::new(0));
        let (stop2, closed2) = (stop.clone(), closed.clone());
        let open = move || -> Option<std::net::TcpStream> {
            use std::io::Write;
            let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
            s.set_nonblocking(true).ok()?;
            let _ = s.write_all(half);
            Some(s)
        };
        let mut held: Vec<std::net::TcpStream> = (0..at_once).filter_map(|_| open()).collect();
        let thread = std::thread::spawn(move || {
            let mut opened = held.len();
            let deadline = Instant::now() + Duration::from_secs(60);
            while !stop2.load(Ordering::Relaxed) && Instant::now() < deadline {
                let mut buf = [0u8; 512];
                held.retain_mut(|s| match s.read(&mut buf) {
                    // Closed by the server (or refused with an answer and closed).
                    Ok(_) => {
                        closed2.fetch_add(1, Ordering::Relaxed);
                        false
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => true,
                    Err(_) => {
                        closed2.fetch_add(1, Ordering::Relaxed);
                        false
                    }
                });
                while held.len() < at_once && opened < most_opened {
                    opened += 1;
                    if let Some(s) = open() {
                        held.push(s);
                    }
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        Flood {
            stop,
            closed,
            thread: Some(thread),
        }
    }

    /// How many of its connections the server has closed so far.
    pub fn closed(&self) -> usize {
        self.closed.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Drop for Flood {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
