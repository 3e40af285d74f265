//! What `recall mcp --http` and `recall ui` let one connection hold: how many connections there are (in
//! all and per peer), how long a request's header and body may take (and a client may
//! leave its answer unread), and how many bytes a request body may have and be buffered
//! at once. Each bound is a constant, with its
//! reason: they keep the server answering its clients while others misbehave, and none of
//! them is one a well-behaved client comes near.
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use http_body_util::BodyExt;
use hyper::body::Incoming;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use super::arguments::MAX_QUERY;
use crate::item::{MAX_INDEXED, MAX_TITLE, MAX_TRANSCRIPT};
use crate::vectors::store::MAX_DIMENSIONS;

/// The longest message read, in bytes (an MCP line on stdio, a writer's body over HTTP):
/// room for the largest item `add` takes, every byte of its text written as a six-byte
/// `\u` escape (what a JSON encoder does with control characters), its vector's numbers
/// at 32 bytes each, and 1 MiB for the envelope.
pub const MAX_LINE: usize =
    6 * (MAX_TRANSCRIPT + 3 * MAX_INDEXED + 4 * MAX_TITLE) + 32 * MAX_DIMENSIONS + (1 << 20);

/// The most connections open at once. An agent's client keeps one or two; more than this
/// is a crowd the server's two writers and one judge could not serve quickly anyway. It
/// is lowered to leave `FD_RESERVE` descriptors free under the process's limit.
pub const MAX_CONNECTIONS: usize = 256;
/// Descriptors kept for the library (its database, WAL and shared memory), the listener,
/// the runtime and the helpers' pipes, whatever the connections take.
pub const FD_RESERVE: usize = 64;
/// One peer (an IPv4 address, an IPv6 /64) holds at most this share of the connections,
/// so that one client's leak or flood leaves room for the others. Behind a reverse proxy
/// every connection is the proxy's: its own limits apply first.
pub const PEER_SHARE: usize = 4;

/// A request's header (and an idle connection's next one) must arrive within this: a
/// client's header is one write, and a pooled connection idle longer is reopened.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest pause between two pieces of a body, and the longest a client may leave an
/// answer unread once the connection's buffers are full.
pub const BODY_GAP: Duration = Duration::from_secs(10);
/// A body must arrive at `MIN_RATE` bytes a second on average after this grace: a slow
/// link sends 211 MiB in minutes, a trickle of a byte now and then is cut.
pub const BODY_GRACE: Duration = Duration::from_secs(10);
pub const MIN_RATE: u64 = 64 * 1024;
/// How long a large body waits for the budget of large bodies (`LARGE_IN_FLIGHT`) before
/// it is refused with 503: long enough for one write of the largest item to be read.
pub const BUDGET_WAIT: Duration = Duration::from_secs(30);

/// The longest body of a token that only reads: a query or prompt of `MAX_QUERY` bytes,
/// each written as a six-byte `\u` escape, and 1 MiB for the rest of the call.
pub const MAX_READ_BODY: usize = 6 * MAX_QUERY + (1 << 20);
/// The longest body of a token that writes: what one stdio line holds (the largest item
/// `add` takes).
pub const MAX_WRITE_BODY: usize = MAX_LINE;
/// The bytes of bodies longer than `MAX_READ_BODY` read or being served at once: one of
/// the largest, or several smaller. Each costs about twice its size while it is decoded
/// (docs/team.md has the figures); read-only bodies are bounded by their count and
/// `MAX_READ_BODY`.
pub const LARGE_IN_FLIGHT: usize = MAX_LINE;

/// The time bounds, as the server uses them.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    pub header: Duration,
    pub body_gap: Duration,
    pub body_grace: Duration,
    pub budget_wait: Duration,
}

impl Timeouts {
    /// The constants; with the `test-hooks` feature, `RECALL_TEST_HTTP_TIMEOUT_MS=N`
    /// makes each of them N milliseconds, so that a test of a timeout ends soon.
    pub fn get() -> Timeouts {
        let standard = Timeouts {
            header: HEADER_TIMEOUT,
            body_gap: BODY_GAP,
            body_grace: BODY_GRACE,
            budget_wait: BUDGET_WAIT,
        };
        #[cfg(feature = "test-hooks")]
        if let Some(ms) = std::env::var("RECALL_TEST_HTTP_TIMEOUT_MS")
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
        {
            let d = Duration::from_millis(ms);
            return Timeouts {
                header: d,
                body_gap: d,
                body_grace: d,
                budget_wait: d,
            };
        }
        standard
    }
}

/// The next connection: one that fails before it is taken (out of descriptors, reset)
/// is passed over after a pause, so that a server keeps serving.
pub async fn accept(
    listener: &tokio::net::TcpListener,
) -> (tokio::net::TcpStream, std::net::SocketAddr) {
    loop {
        match listener.accept().await {
            Ok(accepted) => return accepted,
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

/// Serves one connection with HTTP/1: one whose header does not come within
/// `timeouts.header` (a half-sent one, an idle one between requests), or whose client
/// leaves its answer unread for `timeouts.body_gap` (`left_unread`), is closed.
pub async fn serve<S, B>(
    stream: tokio::net::TcpStream,
    timeouts: Timeouts,
    service: S,
) -> Result<(), hyper::Error>
where
    S: hyper::service::Service<
        hyper::Request<Incoming>,
        Response = hyper::Response<B>,
        Error = std::convert::Infallible,
    >,
    S::Future: Send + 'static,
    B: hyper::body::Body + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let stream = Stalling::new(stream, timeouts.body_gap);
    hyper::server::conn::http1::Builder::new()
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(timeouts.header)
        .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
        .await
}

/// How a server logs what its accept loop decides alone.
pub struct Log {
    /// A connection refused at accept (503), with why.
    pub refused: fn(&std::net::SocketAddr, &str),
    /// A connection closed mid-answer, with why.
    pub closed: fn(&std::net::SocketAddr, &str),
}

/// Accepts and serves connections until the process is stopped, for `recall mcp --http`
/// and `recall ui` alike: each gets a place in `slots` (or a 503 written without waiting,
/// and the close), the service `make` builds for it with its peer and its `Trust`, and is
/// closed when it is made room for (`Slots`).
pub async fn run<F, S, B>(listener: tokio::net::TcpListener, timeouts: Timeouts, log: Log, make: F)
where
    F: Fn(std::net::SocketAddr, Trust) -> S,
    S: hyper::service::Service<
            hyper::Request<Incoming>,
            Response = hyper::Response<B>,
            Error = std::convert::Infallible,
        > + Send
        + 'static,
    S::Future: Send + 'static,
    B: hyper::body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let slots = Slots::new();
    loop {
        let (stream, peer) = accept(&listener).await;
        let slot = match slots.take(peer.ip()) {
            Ok(slot) => slot,
            Err(reason) => {
                (log.refused)(&peer, &reason);
                // Best effort, without waiting: the connection is closed either way.
                let _ = stream.try_write(unavailable(&reason).as_bytes());
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = make(peer, slot.trust());
        let closed = log.closed;
        tokio::spawn(async move {
            tokio::select! {
                served = serve(stream, timeouts, service) => {
                    if let Err(e) = served {
                        if left_unread(&e) {
                            let reason = format!(
                                "the client left its answer unread for {} ms",
                                timeouts.body_gap.as_millis()
                            );
                            closed(&peer, &reason);
                        }
                    }
                }
                () = slot.evicted.notified() => {
                    closed(&peer, "it had shown no token when a newcomer needed its place");
                }
            }
            drop(slot);
        });
    }
}

/// The whole answer of a connection refused at accept: 503, the reason, and the close.
fn unavailable(reason: &str) -> String {
    let text = format!("recall: {reason}");
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{text}\n",
        text.len() + 1
    )
}

/// The connections open, in all and per peer, and which of them have yet to show a
/// token. A connection is *waiting* from its accept until a request on it passes the
/// token check (`Trust::trusted`), *trusted* from then on. When a newcomer finds the caps
/// full, the oldest waiting connection (of its peer, when the peer's share is full) is
/// closed to make room: connections that never show a token — half-sent, idle, a flood
/// of them from one address, as every local process is 127.0.0.1 — cannot keep out a
/// client that has one. Only trusted connections fill the caps for good (then 503).
#[derive(Debug)]
pub struct Slots {
    open: Mutex<Open>,
    pub total: usize,
    pub per_peer: usize,
}

#[derive(Debug, Default)]
struct Open {
    count: usize,
    per_peer: HashMap<IpAddr, usize>,
    /// The waiting connections by age (their number, given in order), with their peer
    /// and the signal that closes them.
    waiting: std::collections::BTreeMap<u64, (IpAddr, Arc<tokio::sync::Notify>)>,
    /// The connections closed to make room whose task has not ended yet: their place is
    /// already given back.
    evicted: std::collections::HashSet<u64>,
    next: u64,
}

/// One connection's place, given back when it closes (or when it is closed to make room).
#[derive(Debug)]
pub struct Slot {
    slots: Arc<Slots>,
    peer: IpAddr,
    number: u64,
    /// Notified when the connection is closed to make room.
    pub evicted: Arc<tokio::sync::Notify>,
}

/// What a request handler marks its connection trusted with (a clone per request).
#[derive(Debug, Clone)]
pub struct Trust {
    slots: Arc<Slots>,
    number: u64,
}

impl Trust {
    /// The connection showed a valid token: it is no longer closed to make room.
    pub fn trusted(&self) {
        self.slots.lock().waiting.remove(&self.number);
    }
}

impl Slots {
    /// The caps under this process's limit of open files.
    pub fn new() -> Arc<Slots> {
        Arc::new(Slots::with_total(caps(descriptor_limit())))
    }

    fn with_total(total: usize) -> Slots {
        Slots {
            open: Mutex::new(Open::default()),
            total,
            per_peer: (total / PEER_SHARE).max(1),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a connection of `peer` (the oldest waiting connection closed to make
    /// room, where the caps are full), or why there is none.
    pub fn take(self: &Arc<Slots>, peer: IpAddr) -> Result<Slot, String> {
        let peer = peer_of(peer);
        let mut open = self.lock();
        let peer_full = open.per_peer.get(&peer).copied().unwrap_or(0) >= self.per_peer;
        let total_full = open.count >= self.total;
        if peer_full || total_full {
            let victim = open
                .waiting
                .iter()
                .find(|(_, (p, _))| !peer_full || *p == peer)
                .map(|(n, _)| *n);
            let Some(victim) = victim else {
                return Err(if peer_full {
                    format!(
                        "{peer} holds {} connections, the most one peer may: close idle ones",
                        self.per_peer
                    )
                } else {
                    format!(
                        "the server holds {} connections, its most: try again soon",
                        self.total
                    )
                });
            };
            if let Some((p, signal)) = open.waiting.remove(&victim) {
                signal.notify_one();
                open.evicted.insert(victim);
                release(&mut open, p);
            }
        }
        open.count += 1;
        *open.per_peer.entry(peer).or_insert(0) += 1;
        let number = open.next;
        open.next += 1;
        let evicted = Arc::new(tokio::sync::Notify::new());
        open.waiting.insert(number, (peer, evicted.clone()));
        Ok(Slot {
            slots: self.clone(),
            peer,
            number,
            evicted,
        })
    }
}

impl Slot {
    pub fn trust(&self) -> Trust {
        Trust {
            slots: self.slots.clone(),
            number: self.number,
        }
    }
}

/// One connection of `peer` fewer.
fn release(open: &mut Open, peer: IpAddr) {
    open.count = open.count.saturating_sub(1);
    if let Some(n) = open.per_peer.get_mut(&peer) {
        *n -= 1;
        if *n == 0 {
            open.per_peer.remove(&peer);
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.slots.lock();
        // A connection closed to make room gave its place back then.
        if !open.evicted.remove(&self.number) {
            open.waiting.remove(&self.number);
            release(&mut open, self.peer);
        }
    }
}

/// The total cap under a limit of `fds` open files.
fn caps(fds: libc::rlim_t) -> usize {
    let room = usize::try_from(fds).unwrap_or(usize::MAX);
    room.saturating_sub(FD_RESERVE).clamp(1, MAX_CONNECTIONS)
}

/// The soft limit of open files.
fn descriptor_limit() -> libc::rlim_t {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given, nothing else.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0
        || limit.rlim_cur == libc::RLIM_INFINITY
    {
        return libc::rlim_t::MAX;
    }
    limit.rlim_cur
}

/// The peer a connection counts against: an IPv4 address (also when written as IPv6), or
/// the /64 of an IPv6 one (what one host is usually given).
fn peer_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut s = v6.segments();
                s[4..].fill(0);
                IpAddr::V6(s.into())
            }
        },
    }
}

/// The bytes of large bodies in flight (`LARGE_IN_FLIGHT`).
pub struct Budget(Arc<Semaphore>);

/// A body's share of the budget, given back when its request has been answered.
pub struct Reserved(#[allow(dead_code)] OwnedSemaphorePermit);

impl Budget {
    pub fn new() -> Budget {
        Budget(Arc::new(Semaphore::new(LARGE_IN_FLIGHT)))
    }

    /// `bytes` of the budget, waiting up to `wait` for them.
    async fn reserve(&self, bytes: usize, wait: Duration) -> Option<Reserved> {
        let n = u32::try_from(bytes.min(LARGE_IN_FLIGHT)).ok()?;
        tokio::time::timeout(wait, self.0.clone().acquire_many_owned(n))
            .await
            .ok()?
            .ok()
            .map(Reserved)
    }
}

/// A connection whose writes fail once one has waited `wait` for the client to read.
pub struct Stalling<T> {
    inner: T,
    wait: Duration,
    since: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<T> Stalling<T> {
    pub fn new(inner: T, wait: Duration) -> Stalling<T> {
        Stalling {
            inner,
            wait,
            since: None,
        }
    }

    /// After a write that could not go on: pending until the wait is over, then an error.
    fn stalled<R>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<R>> {
        let wait = self.wait;
        let timer = self
            .since
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(wait)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => {
                Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, LeftUnread)))
            }
            Poll::Pending => Poll::Pending,
        }
    }

    fn moved<R>(
        &mut self,
        result: Poll<io::Result<R>>,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<R>> {
        match result {
            Poll::Ready(r) => {
                self.since = None;
                Poll::Ready(r)
            }
            Poll::Pending => self.stalled(cx),
        }
    }
}

/// The error of a write that waited too long.
#[derive(Debug)]
pub struct LeftUnread;

impl std::fmt::Display for LeftUnread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the client did not read its answer")
    }
}

impl std::error::Error for LeftUnread {}

/// Whether a connection ended because its client left the answer unread.
pub fn left_unread(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(e) = cause {
        if e.downcast_ref::<io::Error>()
            .and_then(|io| io.get_ref())
            .is_some_and(|inner| inner.is::<LeftUnread>())
        {
            return true;
        }
        cause = e.source();
    }
    false
}

impl<T: AsyncRead + Unpin> AsyncRead for Stalling<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Stalling<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.moved(result, cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.moved(result, cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let result = Pin::new(&mut self.inner).poll_flush(cx);
        self.moved(result, cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let result = Pin::new(&mut self.inner).poll_shutdown(cx);
        self.moved(result, cx)
    }
}

/// Why a body was not read whole.
#[derive(Debug)]
pub enum Unread {
    /// Longer than the limit.
    TooLarge,
    /// A pause longer than the gap, or slower than the rate after the grace.
    Slow,
    /// No room in the budget of large bodies within the wait.
    Busy,
    /// The connection failed.
    Failed(String),
}

/// Reads a request body: at most `limit` bytes (a declared length above it is refused
/// before a byte is read), within the time bounds, a body longer than `MAX_READ_BODY`
/// only with its share of the budget.
pub async fn read_body(
    mut body: Incoming,
    declared: Option<u64>,
    limit: usize,
    budget: &Budget,
    timeouts: &Timeouts,
) -> Result<(Bytes, Option<Reserved>), Unread> {
    let mut reserved = None;
    let mut collected = BytesMut::new();
    if let Some(n) = declared {
        if n > limit as u64 {
            return Err(Unread::TooLarge);
        }
        let n = n as usize;
        if n > MAX_READ_BODY {
            reserved = Some(
                budget
                    .reserve(n, timeouts.budget_wait)
                    .await
                    .ok_or(Unread::Busy)?,
            );
        }
        collected.reserve(n);
    }
    let mut started = Instant::now();
    loop {
        // The later of the grace and what the rate allows for what came, no later than
        // the gap from now.
        let earned = Duration::from_millis(collected.len() as u64 * 1000 / MIN_RATE);
        let deadline =
            (started + timeouts.body_grace + earned).min(Instant::now() + timeouts.body_gap);
        let frame = match tokio::time::timeout_at(deadline, body.frame()).await {
            Err(_) => return Err(Unread::Slow),
            Ok(None) => break,
            Ok(Some(Err(e))) => return Err(Unread::Failed(e.to_string())),
            Ok(Some(Ok(frame))) => frame,
        };
        let Ok(data) = frame.into_data() else {
            continue;
        };
        let after = collected.len() + data.len();
        if after > limit {
            return Err(Unread::TooLarge);
        }
        if after > MAX_READ_BODY && reserved.is_none() {
            // Sent without a length: the whole allowance, so that no two bodies each
            // hold part of the budget waiting for the rest. The wait is not the body's.
            let waited = Instant::now();
            reserved = Some(
                budget
                    .reserve(limit, timeouts.budget_wait)
                    .await
                    .ok_or(Unread::Busy)?,
            );
            started += waited.elapsed();
        }
        collected.extend_from_slice(&data);
    }
    Ok((collected.freeze(), reserved))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_leave_descriptors_and_share_among_peers() {
        assert_eq!(caps(256), 256 - FD_RESERVE);
        assert_eq!(caps(1 << 20), MAX_CONNECTIONS);
        assert_eq!(caps(u64::MAX), MAX_CONNECTIONS);
        assert_eq!(caps(10), 1);
        // Trusted connections (a token shown) fill the caps: per peer, then in all.
        let slots = Arc::new(Slots::with_total(5));
        assert_eq!(slots.per_peer, 1);
        let slots = Arc::new(Slots {
            per_peer: 2,
            ..Slots::with_total(5)
        });
        let trusted = |ip: IpAddr| {
            let slot = slots.take(ip).unwrap();
            slot.trust().trusted();
            slot
        };
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let a6: IpAddr = "::ffff:10.0.0.1".parse().unwrap();
        let b: IpAddr = "2001:db8::1".parse().unwrap();
        let b2: IpAddr = "2001:db8::ffff:2".parse().unwrap();
        let c: IpAddr = "2001:db8:0:1::1".parse().unwrap();
        let first = trusted(a);
        let _second = trusted(a6);
        assert!(slots.take(a).unwrap_err().contains("the most one peer may"));
        let _b = trusted(b);
        let _b2 = trusted(b2);
        assert!(slots.take(b).unwrap_err().contains("one peer"), "one /64");
        let _c = trusted(c);
        assert!(slots
            .take("10.0.0.9".parse().unwrap())
            .unwrap_err()
            .contains("its most"));
        drop(first);
        let again = slots.take(a).unwrap();
        drop(again);
        drop(_second);
        assert!(!slots.lock().per_peer.contains_key(&a), "emptied");
    }

    #[test]
    fn waiting_connections_make_room_oldest_first() {
        let slots = Arc::new(Slots {
            per_peer: 3,
            ..Slots::with_total(4)
        });
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        // A peer's share full of waiting connections: its newcomer closes its oldest.
        let w1 = slots.take(a).unwrap();
        let w2 = slots.take(a).unwrap();
        let w3 = slots.take(a).unwrap();
        let n1 = slots.take(a).unwrap();
        assert!(is_notified(&w1.evicted) && !is_notified(&w2.evicted));
        assert_eq!(slots.lock().per_peer[&a], 3);
        // The total full: another peer's newcomer closes the oldest waiting of any peer.
        let ob = slots.take(b).unwrap();
        assert!(!is_notified(&w2.evicted), "room was left");
        let ob2 = slots.take(b).unwrap();
        assert!(is_notified(&w2.evicted) && !is_notified(&w3.evicted));
        assert_eq!(slots.lock().count, 4);
        // A trusted connection is never closed to make room.
        for slot in [&n1, &ob, &ob2] {
            slot.trust().trusted();
        }
        let n2 = slots.take(a).unwrap();
        assert!(is_notified(&w3.evicted) && !is_notified(&n1.evicted));
        n2.trust().trusted();
        // Now every connection is trusted: refused, with nothing closed.
        assert!(slots.take(a).unwrap_err().contains("its most"));
        assert!(slots.take(b).unwrap_err().contains("its most"));
        assert!(!is_notified(&n1.evicted) && !is_notified(&ob.evicted));
        // The closed ones' tasks end later: their places were given back already.
        drop((w1, w2, w3));
        assert_eq!(slots.lock().count, 4);
        drop((n1, n2, ob, ob2));
        let open = slots.lock();
        assert_eq!(
            (open.count, open.per_peer.len(), open.waiting.len()),
            (0, 0, 0)
        );
        assert!(open.evicted.is_empty());
    }

    fn is_notified(signal: &tokio::sync::Notify) -> bool {
        let notified = signal.notified();
        tokio::pin!(notified);
        // A stored permit completes the future at its first poll.
        let waker = std::task::Waker::noop();
        let mut cx = Context::from_waker(waker);
        let ready = notified.as_mut().poll(&mut cx).is_ready();
        if ready {
            // Put the permit back for the next look.
            signal.notify_one();
        }
        ready
    }
}
