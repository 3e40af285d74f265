//! `recall mcp --http` on raw TCP connections from loopback (127.0.0.1 and other 127/8
//! addresses, each a peer of its own): connections beyond the caps are refused while
//! calls go on, an idle or half-sent header is cut, a slow body is cut, a token that only
//! reads sends small bodies and one that writes large ones within a budget, a foreign
//! `Origin` or two `Host` headers are refused, and a body that is not a JSON-RPC message
//! gets the stdio server's JSON-RPC error.
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, TcpStream};
use std::os::fd::FromRawFd;
use std::os::unix::process::CommandExt;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::cli::{Ran, TempLib};
use crate::common::mcp::Server as StdioServer;
use crate::common::root;
use crate::common::serving::{log_lines, Flood, Serving};

const TOKEN: &str = "default-0123456789abcdef";
const READER: &str = "reader-0123456789abcdef";
const WRITER: &str = "writer-0123456789abcdef";
/// How long a test waits for an answer before it calls the server hung: a bound on a
/// failure, not a measure of speed.
const HUNG: Duration = Duration::from_secs(20);

/// The body limits as docs/team.md states them: a read-only token's is six bytes for
/// each of a 64 KiB query's and 1 MiB; a writer's, a stdio line's.
const READ_BODY: usize = 6 * 64 * 1024 + 1024 * 1024;
const WRITE_BODY: usize = 221_609_984;

struct Http {
    // Held for its drop, which stops the server.
    _server: Serving,
    port: u16,
    log: Arc<Mutex<Vec<String>>>,
}

/// `recall --db LIB [--config CONFIG] mcp --http 127.0.0.1:0 ARGS` with the token
/// `TOKEN`, its timeouts made `timeout_ms` by the test hook, under a limit of `files` open
/// files when given.
fn start(
    lib: &TempLib,
    config: Option<&str>,
    args: &[&str],
    timeout_ms: Option<u64>,
    files: Option<u64>,
) -> Http {
    let mut command = lib.command();
    if let Some(config) = config {
        command.args(["--config", config]);
    }
    command
        .args(["mcp", "--http", "127.0.0.1:0"])
        .args(args)
        .env("RECALL_MCP_TOKEN", TOKEN)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(ms) = timeout_ms {
        command.env("RECALL_TEST_HTTP_TIMEOUT_MS", ms.to_string());
    }
    if let Some(n) = files {
        // SAFETY: setrlimit only, between fork and exec.
        unsafe {
            command.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: n,
                    rlim_max: n,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let mut child = command.spawn().expect("start recall mcp --http");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut first = String::new();
    stderr.read_line(&mut first).expect("the first line");
    let port = first
        .trim()
        .strip_prefix("recall mcp: serving on http://127.0.0.1:")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("first line: {first:?}"));
    let log = log_lines(stderr);
    Http {
        _server: Serving::new(child, HUNG),
        port,
        log,
    }
}

impl Http {
    /// The log's lines that hold `needle`, once there are `at_least` of them (or the
    /// wait is over).
    fn logged(&self, needle: &str, at_least: usize) -> Vec<String> {
        let deadline = Instant::now() + HUNG;
        loop {
            let found: Vec<String> = self
                .log
                .lock()
                .unwrap()
                .iter()
                .filter(|l| l.contains(needle))
                .cloned()
                .collect();
            if found.len() >= at_least || Instant::now() > deadline {
                return found;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// A connection from `from` (a 127/8 address).
    fn connect(&self, from: Ipv4Addr) -> TcpStream {
        connect_from(from, self.port)
    }

    /// One request on a connection of its own from 127.0.0.2: (status, headers, body).
    fn post(&self, headers: &[(&str, &str)], body: &[u8]) -> (u16, String, String) {
        let stream = self.connect(Ipv4Addr::new(127, 0, 0, 2));
        exchange(stream, request(self.port, headers, body))
    }
}

/// A TCP connection to 127.0.0.1:port whose own address is `from`.
fn connect_from(from: Ipv4Addr, port: u16) -> TcpStream {
    connect_with(from, port, None)
}

/// The same, with a receive buffer of `buffer` bytes when given.
fn connect_with(from: Ipv4Addr, port: u16, buffer: Option<i32>) -> TcpStream {
    let sockaddr = |ip: Ipv4Addr, port: u16| libc::sockaddr_in {
        sin_family: libc::AF_INET as libc::sa_family_t,
        sin_port: port.to_be(),
        sin_addr: libc::in_addr {
            s_addr: u32::from(ip).to_be(),
        },
        sin_zero: [0; 8],
    };
    let len = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
    // SAFETY: a socket made, bound and connected here, owned by the TcpStream after.
    let stream = unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
        assert!(fd >= 0, "socket: {}", std::io::Error::last_os_error());
        let stream = TcpStream::from_raw_fd(fd);
        if let Some(size) = buffer {
            let set = libc::setsockopt(
                fd,
                libc::SOL_SOCKET,
                libc::SO_RCVBUF,
                &size as *const i32 as *const libc::c_void,
                std::mem::size_of::<i32>() as libc::socklen_t,
            );
            assert_eq!(set, 0, "SO_RCVBUF: {}", std::io::Error::last_os_error());
        }
        let local = sockaddr(from, 0);
        let bound = libc::bind(fd, &local as *const _ as *const libc::sockaddr, len);
        assert_eq!(bound, 0, "bind {from}: {}", std::io::Error::last_os_error());
        let remote = sockaddr(Ipv4Addr::LOCALHOST, port);
        let connected = libc::connect(fd, &remote as *const _ as *const libc::sockaddr, len);
        assert_eq!(connected, 0, "connect: {}", std::io::Error::last_os_error());
        stream
    };
    stream.set_read_timeout(Some(HUNG)).expect("timeout");
    stream
}

/// A POST to /mcp with a Host, the MCP content headers and a length, then the headers
/// given.
fn request(port: u16, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
        body.len()
    );
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: 127.0.0.1:{port}\r\n"));
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

fn bearer(token: &str) -> (&'static str, String) {
    ("Authorization", format!("Bearer {token}"))
}

/// One response read by its length: (status, headers, body). The connection stays open.
/// Sends `bytes` on `stream` and reads the answer. Written from a thread: the server may
/// answer a body over its limit, and close, before it has read it all.
fn exchange(mut stream: TcpStream, bytes: Vec<u8>) -> (u16, String, String) {
    let mut w = stream
        .try_clone()
        .expect("a second handle on the connection");
    let sender = std::thread::spawn(move || {
        let _ = w.write_all(&bytes);
    });
    let answer = response(&mut stream);
    drop(stream);
    let _ = sender.join();
    answer
}

fn response(stream: &mut TcpStream) -> (u16, String, String) {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            other => panic!(
                "the response ended ({other:?}) after {:?}",
                String::from_utf8_lossy(&head)
            ),
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{head}"));
    let length: usize = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse().ok())?
        })
        .unwrap_or_else(|| panic!("no length: {head}"));
    let mut body = vec![0; length];
    stream.read_exact(&mut body).expect("the body");
    (status, head, String::from_utf8_lossy(&body).into_owned())
}

/// Whether the server closed the connection within `wait`: end of input or a reset,
/// not a timeout. What it wrote before is skipped.
fn closed_within(stream: &mut TcpStream, wait: Duration) -> bool {
    stream.set_read_timeout(Some(wait)).expect("timeout");
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false
            }
            Err(_) => return true,
        }
    }
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;

/// The server answers an initialize as itself.
fn initialized(answer: (u16, String, String)) {
    let (status, head, body) = answer;
    assert_eq!(status, 200, "{head}{body}");
    let v: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(v["result"]["serverInfo"]["name"], "recall", "{body}");
}

fn sample_library() -> TempLib {
    let lib = TempLib::init(None);
    let sample = root().join("examples/sample.jsonl");
    lib.run(&["import", sample.to_str().expect("path")]).ok();
    lib
}

/// This process's own limit of open files raised, for the test's many connections.
fn room_for_connections() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit on this process's own limit.
    unsafe {
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
        limit.rlim_cur = limit.rlim_max.min(8192);
        libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
    }
}

#[test]
fn connections_past_the_caps_are_refused_and_calls_go_on() {
    room_for_connections();
    let lib = sample_library();
    // Under 256 open files: 256 - 64 kept for the rest, 192 connections, 48 per peer.
    let (total, per_peer) = (192, 48);
    let http = start(&lib, None, &[], Some(60_000), Some(256));
    let one = Ipv4Addr::new(127, 0, 0, 1);
    // Half-sent headers from one peer, more than its share: each newcomer takes the
    // place of its oldest, which is closed; none is refused.
    let mut idle = Vec::new();
    for _ in 0..300 {
        let mut s = http.connect(one);
        s.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            .expect("send");
        idle.push(s);
    }
    let made_room = http.logged("closed the connection of 127.0.0.1:", 300 - per_peer);
    assert_eq!(made_room.len(), 300 - per_peer, "{:?}", made_room.first());
    assert!(
        made_room
            .iter()
            .all(|l| l.contains("it had shown no token")),
        "{}",
        made_room[0]
    );
    assert!(http.logged("refused 503", 0).is_empty());
    for (i, s) in idle.iter_mut().enumerate().take(300 - per_peer) {
        assert!(closed_within(s, HUNG), "the oldest are closed: {i}");
    }
    // A call from another peer, on a connection it keeps: trusted from then on.
    let init = request(
        http.port,
        &[("Authorization", &format!("Bearer {TOKEN}"))],
        INITIALIZE.as_bytes(),
    );
    let trusted = |peer: u8| {
        let mut s = http.connect(Ipv4Addr::new(127, 0, 0, peer));
        s.write_all(&init).expect("send");
        initialized(response(&mut s));
        s
    };
    let mut kept = trusted(2);
    // Fill the caps with trusted connections from more peers: the waiting ones of
    // 127.0.0.1 make room for them, oldest first, until none is left.
    let mut held = Vec::new();
    for (peer, n) in [
        (3, per_peer),
        (4, per_peer),
        (5, per_peer),
        (7, total - 3 * per_peer - 1),
    ] {
        for _ in 0..n {
            held.push(trusted(peer));
        }
    }
    assert_eq!(
        http.logged("closed the connection of 127.0.0.1:", 300)
            .len(),
        300,
        "every half-sent one made room"
    );
    // Every place trusted: a newcomer is refused, its peer's share or the total full.
    let mut late = http.connect(Ipv4Addr::new(127, 0, 0, 6));
    assert!(
        closed_within(&mut late, HUNG),
        "a connection past the total is closed"
    );
    let full = http.logged("refused 503 from 127.0.0.6:", 1);
    assert!(
        full.len() == 1 && full[0].contains(&format!("holds {total} connections, its most")),
        "{full:?}"
    );
    let mut fourth = http.connect(Ipv4Addr::new(127, 0, 0, 3));
    assert!(closed_within(&mut fourth, HUNG));
    let share = http.logged("refused 503 from 127.0.0.3:", 1);
    assert!(
        share.len() == 1 && share[0].contains(&format!("127.0.0.3 holds {per_peer} connections")),
        "{share:?}"
    );
    // The connections held go on serving.
    kept.write_all(&init).expect("send");
    initialized(response(&mut kept));
    for s in held.iter_mut().step_by(37) {
        s.write_all(&init).expect("send");
        initialized(response(s));
    }
}

/// A flood of connections that show no token, from the one address every local process
/// has (127.0.0.1), reopened as fast as the server closes them, leaves room for every
/// client with a token: each call made during the flood is answered.
#[test]
fn a_flood_without_a_token_leaves_room_for_clients_with_one() {
    let lib = sample_library();
    let http = start(&lib, None, &[], None, None);
    let flood = Flood::start(
        http.port,
        100,
        3_000,
        b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n",
    );
    // The flood has filled 127.0.0.1's share (64) before the first call.
    let deadline = Instant::now() + HUNG;
    while flood.closed() < 36 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(flood.closed() >= 36, "the flood reached the cap");
    // From the flood's own address, as another local process would call.
    let auth = format!("Bearer {TOKEN}");
    for i in 0..20 {
        let stream = http.connect(Ipv4Addr::LOCALHOST);
        let init = request(
            http.port,
            &[("Authorization", &auth)],
            INITIALIZE.as_bytes(),
        );
        let (status, _, body) = exchange(stream, init);
        assert_eq!(status, 200, "call {i} during the flood: {body}");
    }
    assert!(http.logged("refused 503", 0).is_empty());
    drop(flood);
}

#[test]
fn idle_and_half_sent_headers_are_closed() {
    let lib = sample_library();
    let http = start(&lib, None, &[], Some(500), None);
    let one = Ipv4Addr::new(127, 0, 0, 1);
    let mut waiting = Vec::new();
    for i in 0..12 {
        let mut s = http.connect(one);
        match i % 3 {
            0 => {}
            1 => s
                .write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .expect("send"),
            _ => s
                .write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ")
                .expect("send"),
        }
        waiting.push(s);
    }
    // Answered while they wait, on a connection left open after.
    let mut after = http.connect(Ipv4Addr::new(127, 0, 0, 2));
    after
        .write_all(&request(
            http.port,
            &[("Authorization", &format!("Bearer {TOKEN}"))],
            INITIALIZE.as_bytes(),
        ))
        .expect("send");
    initialized(response(&mut after));
    let started = Instant::now();
    for (i, s) in waiting.iter_mut().enumerate() {
        assert!(
            closed_within(s, Duration::from_secs(10)),
            "connection {i} still open"
        );
    }
    assert!(
        closed_within(&mut after, Duration::from_secs(10)),
        "the idle kept-alive connection"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    initialized(http.post(
        &[("Authorization", &format!("Bearer {TOKEN}"))],
        INITIALIZE.as_bytes(),
    ));
}

#[test]
fn a_slow_body_is_cut() {
    let lib = sample_library();
    let http = start(&lib, None, &[], Some(1000), None);
    let auth = format!("Bearer {TOKEN}");
    // A body that stops.
    let mut s = http.connect(Ipv4Addr::new(127, 0, 0, 1));
    let mut whole = request(
        http.port,
        &[("Authorization", &auth)],
        INITIALIZE.as_bytes(),
    );
    whole.truncate(whole.len() - 40);
    s.write_all(&whole).expect("send");
    let (status, head, body) = response(&mut s);
    assert_eq!(status, 408, "{head}{body}");
    assert!(
        body.starts_with("recall: ")
            && body.contains("too slowly")
            && body.matches('\n').count() == 1,
        "{body}"
    );
    assert!(closed_within(&mut s, HUNG));
    // A trickle, a byte each 100 ms (no pause longer than the 1 s gap), 40 at most.
    let mut s = http.connect(Ipv4Addr::new(127, 0, 0, 1));
    let mut writer = s.try_clone().expect("clone");
    let head = request(http.port, &[("Authorization", &auth)], &[]);
    let head = String::from_utf8(head)
        .unwrap()
        .replace("Content-Length: 0", "Content-Length: 100000");
    writer.write_all(head.as_bytes()).expect("send");
    let trickle = std::thread::spawn(move || {
        let mut sent = 0;
        for _ in 0..40 {
            if writer.write_all(b" ").is_err() {
                break;
            }
            sent += 1;
            std::thread::sleep(Duration::from_millis(100));
        }
        sent
    });
    let (status, _, body) = response(&mut s);
    assert_eq!(status, 408, "{body}");
    let sent = trickle.join().expect("trickle");
    assert!(sent < 40, "cut while it trickled: {sent} bytes sent");
    let cut = http.logged("refused 408", 2);
    assert_eq!(cut.len(), 2, "{cut:?}");
    initialized(http.post(&[("Authorization", &auth)], INITIALIZE.as_bytes()));
}

#[test]
fn an_answer_left_unread_is_cut() {
    let lib = sample_library();
    let http = start(&lib, None, &["--allow-writes"], Some(1000), None);
    let auth = format!("Bearer {TOKEN}");
    let headers = [("Authorization", auth.as_str())];
    // An item whose answer is tens of MiB: 3 MiB of control characters, each six bytes
    // written as JSON.
    let add = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "add",
        "arguments": {"source": "agent-http", "title": "Unread", "occurred_at": "2025-01-02",
        "transcript": "\u{1}".repeat(3 << 20)}}});
    let (status, _, body) = http.post(&headers, add.to_string().as_bytes());
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).expect("JSON");
    let id = answer["result"]["structuredContent"]["id"]
        .as_i64()
        .expect("id");
    // Asked for by a client that does not read (a receive buffer of 4 KiB): closed, and
    // logged; what the client then reads ends before the answer's length.
    let mut s = connect_with(Ipv4Addr::new(127, 0, 0, 1), http.port, Some(4096));
    let get = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get",
        "arguments": {"id": id, "transcript": true}}});
    s.write_all(&request(http.port, &headers, get.to_string().as_bytes()))
        .expect("send");
    let closed = http.logged("closed the connection of 127.0.0.1:", 1);
    assert!(
        closed.len() == 1 && closed[0].ends_with("the client left its answer unread for 1000 ms"),
        "{closed:?}"
    );
    let mut got = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
    }
    let text = String::from_utf8_lossy(&got[..got.len().min(4096)]).into_owned();
    let (head, _) = text.split_once("\r\n\r\n").expect("a head was sent");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length: "))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{head}"));
    assert!(length > 18 << 20, "{length}");
    assert!(
        got.len() < head.len() + 4 + length,
        "the whole answer came: {} bytes",
        got.len()
    );
    assert!(http.logged("", 0).iter().all(|l| !l.contains("panicked")));
    initialized(http.post(&headers, INITIALIZE.as_bytes()));
}

/// A ping of `size` bytes.
fn ping(size: usize) -> Vec<u8> {
    let head = br#"{"jsonrpc":"2.0","id":9,"method":"ping","params":{"_meta":{"pad":""#;
    let tail = br#""}}}"#;
    let mut body = head.to_vec();
    body.resize(size - tail.len(), b'x');
    body.extend_from_slice(tail);
    body
}

/// A configuration with a token that reads and one that writes.
fn token_config(lib: &TempLib) -> String {
    let mut text = String::new();
    for (name, secret, rest) in [
        ("reader", READER, ""),
        ("writer", WRITER, "writes = true\n"),
    ] {
        let path = lib.path(&format!("{name}.token"));
        std::fs::write(&path, format!("{secret}\n")).expect("token file");
        text += &format!(
            "[tokens.{name}]\nfile = {:?}\n{rest}",
            path.to_str().unwrap()
        );
    }
    let config = lib.path("tokens.toml");
    std::fs::write(&config, text).expect("config");
    config.to_str().unwrap().to_string()
}

#[test]
fn only_a_token_that_writes_sends_large_bodies() {
    let lib = sample_library();
    let config = token_config(&lib);
    let http = start(&lib, Some(&config), &["--allow-writes"], Some(3000), None);
    let (reader, writer) = (bearer(READER), bearer(WRITER));
    let reader = [(reader.0, reader.1.as_str())];
    let writer = [(writer.0, writer.1.as_str())];
    // The reader: up to its limit, not a byte more, by length or in chunks.
    let (status, _, body) = http.post(&reader, &ping(READ_BODY));
    assert_eq!(status, 200, "{body}");
    let (status, _, body) = http.post(&reader, &ping(READ_BODY + 1));
    assert_eq!(status, 413, "{body}");
    assert!(
        body.contains(&format!(
            "longer than the {READ_BODY} bytes a call of a token that only reads"
        )),
        "{body}"
    );
    let s = http.connect(Ipv4Addr::new(127, 0, 0, 1));
    let mut chunked = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {READER}\r\n\
         Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         Transfer-Encoding: chunked\r\n\r\n"
    )
    .into_bytes();
    for piece in ping(READ_BODY + 1).chunks(64 * 1024) {
        chunked.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
        chunked.extend_from_slice(piece);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let (status, _, body) = exchange(s, chunked);
    assert_eq!(status, 413, "{body}");
    // The writer: an item of 3 MiB is added.
    let transcript: String = (0..3 << 20)
        .map(|i| (b'a' + (i % 26) as u8) as char)
        .collect();
    let add = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "add",
        "arguments": {"source": "agent-http", "title": "Three mebibytes", "occurred_at": "2025-01-02", "transcript": transcript}}});
    let (status, _, body) = http.post(&writer, add.to_string().as_bytes());
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).expect("JSON");
    let id = answer["result"]["structuredContent"]["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("{body}"));
    let got = lib
        .run(&["--json", "get", &id.to_string(), "--transcript"])
        .ok()
        .json();
    assert_eq!(got["item"]["transcript"], json!(transcript));
    // One body holds the whole budget of large ones (its declared length, the most a
    // writer may send) while it is sent at 640 KiB/s: a second large body waits, then is
    // told to come back; once the first is cut, it is served.
    let mut holder = http.connect(Ipv4Addr::new(127, 0, 0, 3));
    let head = String::from_utf8(request(http.port, &writer, &[]))
        .unwrap()
        .replace(
            "Content-Length: 0",
            &format!("Content-Length: {WRITE_BODY}"),
        );
    holder.write_all(head.as_bytes()).expect("send");
    let mut w = holder.try_clone().unwrap();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stopping = stop.clone();
    let feeder = std::thread::spawn(move || {
        let block = vec![b' '; 64 * 1024];
        for _ in 0..300 {
            if stopping.load(std::sync::atomic::Ordering::Relaxed) || w.write_all(&block).is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let (status, head, body) = http.post(&writer, &ping(2 << 20));
    assert_eq!(status, 503, "{body}");
    assert!(
        head.to_ascii_lowercase().contains("retry-after: 1") && body.contains("send it again"),
        "{head}{body}"
    );
    assert!(
        started.elapsed() >= Duration::from_millis(2900),
        "it waited the budget's wait"
    );
    // The holder stops: cut after the gap, its budget given back.
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = feeder.join();
    let (status, _, body) = response(&mut holder);
    assert_eq!(status, 408, "{body}");
    let (status, _, body) = http.post(&writer, &ping(2 << 20));
    assert_eq!(status, 200, "{body}");
    // Past a writer's limit: refused before a byte is read.
    let mut s = http.connect(Ipv4Addr::new(127, 0, 0, 1));
    let head = String::from_utf8(request(http.port, &writer, &[]))
        .unwrap()
        .replace(
            "Content-Length: 0",
            &format!("Content-Length: {}", WRITE_BODY + 1),
        );
    s.write_all(head.as_bytes()).expect("send");
    let (status, _, body) = response(&mut s);
    assert_eq!(status, 413, "{body}");
    assert!(
        body.contains(&format!("longer than the {WRITE_BODY} bytes (211 MiB)")),
        "{body}"
    );
}

/// An initialize with `TOKEN` and the headers given.
fn call(http: &Http, extra: &[(&str, &str)]) -> (u16, String, String) {
    let auth = format!("Bearer {TOKEN}");
    let mut headers = vec![("Authorization", auth.as_str())];
    headers.extend_from_slice(extra);
    http.post(&headers, INITIALIZE.as_bytes())
}

fn refused_origin(answer: (u16, String, String), origin: &str) {
    let (status, _, body) = answer;
    assert_eq!(status, 403, "{origin}: {body}");
    assert!(
        body.starts_with("recall: the Origin")
            && body.contains("--allow-origin")
            && body.matches('\n').count() == 1,
        "{body}"
    );
}

#[test]
fn a_foreign_origin_is_refused() {
    let lib = sample_library();
    let http = start(&lib, None, &[], None, None);
    let port = http.port.to_string();
    // None (not a browser), or the server's own.
    initialized(call(&http, &[]));
    for own in [
        format!("http://127.0.0.1:{port}"),
        format!("http://localhost:{port}"),
    ] {
        initialized(call(&http, &[("Origin", &own)]));
    }
    // A loopback name the server does not listen on (127.0.0.1 here) is another
    // server's page.
    let foreign = [
        format!("http://[::1]:{port}"),
        format!("http://127.0.0.2:{port}"),
        "http://evil.example".to_string(),
        format!("http://evil.example:{port}"),
        "http://localhost:1".into(),
        format!("https://127.0.0.1:{port}"),
        "https://app.example".into(),
        "null".into(),
        "not an origin".into(),
    ];
    for origin in &foreign {
        refused_origin(call(&http, &[("Origin", origin)]), origin);
    }
    // Without a token too: the Origin is checked first.
    refused_origin(
        http.post(&[("Origin", "http://evil.example")], INITIALIZE.as_bytes()),
        "no token",
    );
    assert_eq!(http.logged("refused 403", 10).len(), 10);
    drop(http);
    // --allow-origin: that one too.
    let http = start(
        &lib,
        None,
        &["--allow-origin", "https://app.example"],
        None,
        None,
    );
    for origin in [
        "https://app.example",
        "https://app.example:443",
        "HTTPS://APP.EXAMPLE",
    ] {
        initialized(call(&http, &[("Origin", origin)]));
    }
    for origin in [
        "http://app.example",
        "https://app.example:8443",
        "http://evil.example",
    ] {
        refused_origin(call(&http, &[("Origin", origin)]), origin);
    }
    drop(http);
    // --public: any Host, and no origin but those named.
    let http = start(&lib, None, &["--public"], None, None);
    initialized(call(&http, &[("Host", "memory.example")]));
    let own = format!("http://localhost:{}", http.port);
    refused_origin(call(&http, &[("Origin", &own)]), &own);
    // An origin that is not one: refused at start.
    let ran = lib
        .command()
        .args([
            "mcp",
            "--http",
            "127.0.0.1:0",
            "--allow-origin",
            "app.example",
        ])
        .env("RECALL_MCP_TOKEN", TOKEN)
        .output()
        .expect("run");
    Ran::from(ran).fails_with("--allow-origin app.example: not an origin");
}

#[test]
fn two_host_headers_are_refused() {
    let lib = sample_library();
    let http = start(&lib, None, &[], None, None);
    let host = format!("127.0.0.1:{}", http.port);
    // Two Host headers, in either order, alike or not; two of the other headers the
    // server reads (the request already has one of each).
    for twice in [
        vec![("Host", host.as_str()), ("Host", "attacker.example")],
        vec![("Host", "attacker.example"), ("Host", host.as_str())],
        vec![("Host", host.as_str()), ("Host", host.as_str())],
        vec![("Authorization", "Bearer nothing-of-the-kind-0123")],
        vec![("Content-Type", "text/plain")],
        vec![
            ("Origin", "http://evil.example"),
            ("Origin", "http://evil.example"),
        ],
        vec![
            ("Mcp-Protocol-Version", "2025-06-18"),
            ("Mcp-Protocol-Version", "2025-03-26"),
        ],
    ] {
        let (status, _, body) = call(&http, &twice);
        assert_eq!(status, 400, "{twice:?}: {body}");
        assert!(
            body.starts_with("recall: the request has 2 ") && body.contains("headers: send one"),
            "{body}"
        );
    }
    assert_eq!(http.logged("refused 400", 7).len(), 7);
    // One of each: served.
    initialized(call(&http, &[("Mcp-Protocol-Version", "2025-06-18")]));
}

#[test]
fn a_host_is_a_host_and_an_optional_port() {
    let lib = sample_library();
    let http = start(&lib, None, &[], None, None);
    let port = http.port;
    // RFC 9110: uri-host [":" port]; a user name, a path, a space: none is a Host, and a
    // user name before a loopback name never passes for it.
    for host in [
        format!("evil.com@localhost:{port}"),
        format!("user:pw@127.0.0.1:{port}"),
        format!("127.0.0.1:{port}/mcp"),
        format!("local host:{port}"),
        format!("[::1:{port}"),
        format!("127.0.0.1:{port}:1"),
    ] {
        let (status, _, body) = call(&http, &[("Host", &host)]);
        assert_eq!(status, 400, "Host {host}: {body}");
        assert!(body.contains("not a host and an optional port"), "{body}");
    }
    for host in [
        format!("127.0.0.1:{port}"),
        "localhost".into(),
        format!("[::1]:{port}"),
    ] {
        initialized(call(&http, &[("Host", &host)]));
    }
    drop(http);
    // Under --public too: any name, but a name.
    let http = start(&lib, None, &["--public"], None, None);
    let (status, _, body) = call(&http, &[("Host", "evil.com@memory.example")]);
    assert_eq!(status, 400, "{body}");
    initialized(call(&http, &[("Host", "memory.example:443")]));
}

#[test]
fn a_body_that_is_not_a_message_gets_the_stdio_answer() {
    let lib = sample_library();
    let http = start(&lib, None, &[], None, None);
    let mut stdio = StdioServer::start(&lib, &[]);
    let auth = format!("Bearer {TOKEN}");
    let call = |id: i64, arguments: &str| {
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"search","arguments":{arguments}}}}}"#).into_bytes()
    };
    let cases: Vec<(Vec<u8>, i64)> = vec![
        (
            br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"#.to_vec(),
            -32700,
        ),
        (b"this is not JSON".to_vec(), -32700),
        (call(3, r#"{"query":"tail \ude00 only"}"#), -32700),
        (
            call(6, "{\"query\":\"caf\u{e9}\"}")
                .into_iter()
                .map(|b| if b == 0xc3 { 0xff } else { b })
                .collect(),
            -32700,
        ),
        (call(8, r#""not an object""#), -32602),
        (
            br#"{"jsonrpc":"2.0","id":12,"method":"tools/call"}"#.to_vec(),
            -32602,
        ),
        (br#"{"id":13,"method":"tools/list"}"#.to_vec(), -32600),
        (
            br#"[{"jsonrpc":"2.0","id":14,"method":"tools/list"}]"#.to_vec(),
            -32600,
        ),
    ];
    for (body, code) in cases {
        let (status, head, got) = http.post(&[("Authorization", &auth)], &body);
        let shown = String::from_utf8_lossy(&body);
        assert_eq!(status, 400, "{shown}: {head}{got}");
        assert!(
            head.to_ascii_lowercase()
                .contains("content-type: application/json"),
            "{head}"
        );
        let got: Value =
            serde_json::from_str(&got).unwrap_or_else(|e| panic!("{shown}: {e}: {got}"));
        assert_eq!(got["error"]["code"], code, "{shown}: {got}");
        // Word for word what the stdio server answers the same line.
        stdio.send_raw(&body);
        let expected = stdio.answer(&got["id"]);
        assert_eq!(got, expected, "{shown}");
    }
    for (body, code, words) in [
        (&b""[..], -32700, "empty"),
        (b"  \n", -32700, "empty"),
        (b"{}", -32600, "not a JSON-RPC"),
    ] {
        let (status, _, got) = http.post(&[("Authorization", &auth)], body);
        let got: Value = serde_json::from_str(&got).expect("JSON");
        assert_eq!(
            (status, got["error"]["code"].as_i64()),
            (400, Some(code)),
            "{got}"
        );
        assert!(
            got["error"]["message"].as_str().unwrap().contains(words),
            "{got}"
        );
        assert_eq!(got["id"], Value::Null);
    }
    // The server goes on serving.
    initialized(http.post(&[("Authorization", &auth)], INITIALIZE.as_bytes()));
}
