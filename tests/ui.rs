//! `recall ui` on raw HTTP requests that break each of its rules: the page and the API
//! without the token of the printed URL or with a wrong one (401), a `Host` that is not
//! a loopback name (403: DNS rebinding), a foreign `Origin` (403), two `Host` headers
//! (400), a write without its page's token or with a made-up one (403, the library
//! unchanged byte for byte), a body that is not JSON (400) or not declared JSON (415), an
//! unknown action (404), a GET of the API (405). And what passes: the page with its
//! policy headers, an item holding markup answered as JSON only, a forget through the
//! page's token leaving none of the item's bytes in the file, `--allow` binding the
//! page's writes, and `--public`, which answers any `Host` but still wants the token.
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::cli::TempLib;
use crate::common::serving::{log_lines, Flood, Serving};

/// How long a test waits for an answer before it calls the server hung: a bound on a
/// failure, not a measure of speed.
const HUNG: Duration = Duration::from_secs(20);
/// The body limit docs/ui.md states: a reading token's of `recall mcp --http`.
const READ_BODY: usize = 1_441_792;

/// A running `recall ui`: its port, the token of its URL, its log.
struct Ui {
    server: Serving,
    port: u16,
    token: String,
    first_log: String,
    log: Arc<Mutex<Vec<String>>>,
}

/// `recall --db LIB ui ARGS`, read up to its URL.
fn start(lib: &TempLib, args: &[&str]) -> Ui {
    start_in(lib, None, args)
}

/// The same, run in `dir` when given.
fn start_in(lib: &TempLib, dir: Option<&std::path::Path>, args: &[&str]) -> Ui {
    let mut command = lib.command();
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let mut child = command
        .arg("ui")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start recall ui");
    let mut url = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut url)
        .expect("the URL");
    let rest = url
        .trim()
        .strip_prefix("http://127.0.0.1:")
        .unwrap_or_else(|| panic!("the first line is not the URL: {url:?}"));
    let (port, token) = rest
        .split_once("/?token=")
        .unwrap_or_else(|| panic!("no token in the URL: {url:?}"));
    assert_eq!(token.len(), 64, "a 32-byte token as hex: {url:?}");
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()), "{url:?}");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut first_log = String::new();
    stderr
        .read_line(&mut first_log)
        .expect("the first log line");
    let log = log_lines(stderr);
    Ui {
        server: Serving::new(child, HUNG),
        port: port.parse().expect("the port"),
        token: token.to_string(),
        first_log,
        log,
    }
}

/// An answer: status, headers (lower-case names), body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.body))
    }
}

impl Ui {
    /// One request on a connection of its own; a `Host` of 127.0.0.1:PORT unless one is
    /// given.
    fn send(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Answer {
        let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            head.push_str(&format!("Host: 127.0.0.1:{}\r\n", self.port));
        }
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        if method == "POST" {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        head.push_str(body);
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        stream.set_read_timeout(Some(HUNG)).expect("timeout");
        stream.write_all(head.as_bytes()).expect("send");
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).expect("the answer");
        let raw = String::from_utf8_lossy(&raw).into_owned();
        let (head, body) = raw
            .split_once("\r\n\r\n")
            .unwrap_or_else(|| panic!("no header end: {raw:?}"));
        let mut lines = head.lines();
        let status = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{head}"));
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        Answer {
            status,
            headers,
            body: body.to_string(),
        }
    }

    /// The page, with the token of the URL.
    fn page(&self) -> Answer {
        self.send("GET", &format!("/?token={}", self.token), &[], "")
    }

    /// The page token the page holds.
    fn page_token(&self) -> String {
        let page = self.page();
        assert_eq!(page.status, 200, "{}", page.body);
        let marker = "<meta name=\"recall-page\" content=\"";
        let at = page.body.find(marker).expect("the page token's meta") + marker.len();
        page.body[at..at + 64].to_string()
    }

    /// POST /api/ACTION with the access token, the page token when given, and `extra`.
    fn api(
        &self,
        action: &str,
        page: Option<&str>,
        extra: &[(&str, &str)],
        body: &Value,
    ) -> Answer {
        let mut headers = vec![
            ("Content-Type", "application/json"),
            ("X-Recall-Token", self.token.as_str()),
        ];
        if let Some(page) = page {
            headers.push(("X-Recall-Page", page));
        }
        headers.extend_from_slice(extra);
        self.send(
            "POST",
            &format!("/api/{action}"),
            &headers,
            &body.to_string(),
        )
    }

    fn logged(&self, needle: &str) -> bool {
        let deadline = Instant::now() + HUNG;
        while Instant::now() < deadline {
            if self.log.lock().unwrap().iter().any(|l| l.contains(needle)) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }
}

/// A library of three items: a plain one, one holding markup, one holding a canary.
fn library() -> TempLib {
    let lib = TempLib::init(None);
    let items = [
        json!({"source": "human-notes", "project": "api", "title": "Pool size of the importer",
               "summary": "The importer's pool is 8 connections.", "occurred_at": "2025-01-02T10:00:00Z"}),
        json!({"source": "agent-claude", "project": "web",
               "title": "Markup <script>alert(1)</script> <img src=x onerror=alert(2)>",
               "summary": "</script><b>bold</b> & \"quoted\"", "occurred_at": "2025-01-03T10:00:00Z",
               "transcript": "user: <iframe src=//evil.example></iframe>"}),
        json!({"source": "agent-claude", "project": "api", "title": "Rotate the staging key",
               "summary": "Key uicanary-7781-secret rotated.", "occurred_at": "2025-01-04T10:00:00Z",
               "transcript": "user: rotate uicanary-7781-secret"}),
    ];
    let jsonl: String = items.iter().map(|i| format!("{i}\n")).collect();
    lib.import(&jsonl).ok();
    lib
}

fn global_of(lib: &TempLib, id: i64) -> bool {
    lib.json(&["get", &id.to_string()])["item"]["global"] == json!(true)
}

#[test]
fn the_page_and_the_api_want_the_token_of_the_printed_url() {
    let lib = library();
    let ui = start(&lib, &[]);
    assert!(
        ui.first_log
            .contains(&format!("serving on http://127.0.0.1:{}/", ui.port)),
        "{}",
        ui.first_log
    );
    assert!(!ui.first_log.contains(&ui.token), "the log holds no token");
    let page = ui.page();
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let csp = page.header("content-security-policy").expect("a policy");
    assert!(
        csp.contains("default-src 'none'") && csp.contains("script-src 'self'"),
        "{csp}"
    );
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
    // Nothing from another origin: no address in the page, its script or its style.
    for path in ["/app.js", "/app.css"] {
        let asset = ui.send("GET", path, &[], "");
        assert_eq!(asset.status, 200, "{path}");
        assert!(
            !asset.body.contains("http://") && !asset.body.contains("https://"),
            "{path}"
        );
    }
    assert!(!page.body.contains("http://") && !page.body.contains("https://"));

    // No token, a wrong one, one cut short, one a byte longer.
    // The token with its last digit changed.
    let last = if ui.token.ends_with('0') { '1' } else { '0' };
    let wrong = format!("{}{last}", &ui.token[..63]);
    let longer = format!("{}0", ui.token);
    for query in [
        "".to_string(),
        "?token=".into(),
        format!("?token={wrong}"),
        format!("?token={}", &ui.token[..32]),
        format!("?token={longer}"),
    ] {
        let answer = ui.send("GET", &format!("/{query}"), &[], "");
        assert_eq!(answer.status, 401, "GET /{query}: {}", answer.body);
        assert!(
            answer.body.starts_with("recall: ") && answer.body.lines().count() == 1,
            "{}",
            answer.body
        );
        assert!(!answer.body.contains("<meta"), "no page without the token");
    }
    let search = json!({"query": "importer"});
    let ok = ui.api("search", None, &[], &search);
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(
        ok.json()["results"][0]["title"],
        "Pool size of the importer"
    );
    for token in [None, Some(""), Some(wrong.as_str()), Some(longer.as_str())] {
        let mut headers = vec![("Content-Type", "application/json")];
        if let Some(t) = token {
            headers.push(("X-Recall-Token", t));
        }
        let answer = ui.send("POST", "/api/search", &headers, &search.to_string());
        assert_eq!(answer.status, 401, "{token:?}: {}", answer.body);
        assert!(!answer.body.contains("importer"), "{}", answer.body);
    }
    // The token of the URL is not taken from the API's query string.
    let by_query = ui.send(
        "POST",
        &format!("/api/search?token={}", ui.token),
        &[("Content-Type", "application/json")],
        &search.to_string(),
    );
    assert_eq!(by_query.status, 401, "{}", by_query.body);
    assert!(ui.logged("POST /api/search 401"));
    assert!(ui.logged("GET / 200"));
    let log = ui.log.lock().unwrap().clone();
    assert!(
        !log.iter()
            .any(|l| l.contains(&ui.token) || l.contains("importer")),
        "the log holds neither a token nor what was searched: {log:?}"
    );
}

/// A flood of connections that show no token, from 127.0.0.1 as every local process,
/// reopened as fast as the page closes them, leaves room for the page and its API: each
/// request with the token is answered; and a connection past the caps is answered 503
/// with a status line, not closed without a word.
#[test]
fn a_flood_without_a_token_leaves_room_for_the_page() {
    let lib = library();
    let ui = start(&lib, &[]);
    let flood = Flood::start(
        ui.port,
        100,
        3_000,
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n",
    );
    let deadline = Instant::now() + HUNG;
    while flood.closed() < 36 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(flood.closed() >= 36, "the flood reached the cap");
    let search = json!({"query": "importer"});
    for i in 0..20 {
        let page = ui.send("GET", &format!("/?token={}", ui.token), &[], "");
        assert_eq!(page.status, 200, "page {i} during the flood: {}", page.body);
        let api = ui.api("search", None, &[], &search);
        assert_eq!(api.status, 200, "search {i} during the flood: {}", api.body);
    }
    drop(flood);
    assert!(ui.logged("it had shown no token"));
    // Trusted connections (the page loaded with the token, kept alive) fill the
    // peer's share, 64 of 256; the next is answered 503 with a status line.
    let head = format!(
        "HEAD /?token={} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        ui.token
    );
    let answered = |s: &mut std::net::TcpStream| -> String {
        s.set_read_timeout(Some(HUNG)).expect("timeout");
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        while !got.windows(4).any(|w| w == b"\r\n\r\n") {
            match s.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
        String::from_utf8_lossy(&got).into_owned()
    };
    let mut held = Vec::new();
    for i in 0..64 {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", ui.port)).expect("connect");
        s.write_all(head.as_bytes()).expect("send");
        let got = answered(&mut s);
        assert!(got.starts_with("HTTP/1.1 200"), "{i}: {got}");
        held.push(s);
    }
    let mut late = std::net::TcpStream::connect(("127.0.0.1", ui.port)).expect("connect");
    let got = answered(&mut late);
    assert!(got.starts_with("HTTP/1.1 503"), "{got}");
    assert!(ui.logged("refused 503 from 127.0.0.1:"));
}

#[test]
fn a_foreign_host_or_origin_is_refused() {
    let lib = library();
    let ui = start(&lib, &[]);
    let port = ui.port;
    let search = json!({"query": "importer"});
    // DNS rebinding: a page of evil.example whose name now points at 127.0.0.1 sends its
    // own name as Host, with the right port, and would need no token to load a page.
    for host in [
        format!("evil.example:{port}"),
        "evil.example".into(),
        format!("127.0.0.1.evil.example:{port}"),
    ] {
        let page = ui.send(
            "GET",
            &format!("/?token={}", ui.token),
            &[("Host", &host)],
            "",
        );
        assert_eq!(page.status, 403, "Host {host}: {}", page.body);
        assert!(!page.body.contains("<meta"), "Host {host}");
        let api = ui.api("search", None, &[("Host", &host)], &search);
        assert_eq!(api.status, 403, "Host {host}: {}", api.body);
        assert!(!api.body.contains("importer"));
    }
    for host in [
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
    ] {
        assert_eq!(
            ui.api("search", None, &[("Host", &host)], &search).status,
            200,
            "Host {host}"
        );
    }
    // Two Host headers: which one counts would depend on who reads.
    let two = ui.send(
        "GET",
        &format!("/?token={}", ui.token),
        &[
            ("Host", &format!("127.0.0.1:{port}")),
            ("Host", "evil.example"),
        ],
        "",
    );
    assert_eq!(two.status, 400, "{}", two.body);
    // A Host is a host and an optional port (RFC 9110): a user name before a loopback
    // name, a path, a space, are refused before anything else, on the page and the API.
    for host in [
        format!("evil.com@localhost:{port}"),
        format!("user:pw@127.0.0.1:{port}"),
        format!("localhost:{port}/x"),
        format!("local host:{port}"),
        format!("[::1:{port}"),
        format!("localhost:{port}:1"),
    ] {
        let page = ui.send(
            "GET",
            &format!("/?token={}", ui.token),
            &[("Host", &host)],
            "",
        );
        assert_eq!(page.status, 400, "Host {host}: {}", page.body);
        assert!(
            page.body.contains("not a host and an optional port"),
            "{}",
            page.body
        );
        let api = ui.api("search", None, &[("Host", &host)], &search);
        assert_eq!(api.status, 400, "Host {host}: {}", api.body);
    }
    // Two access tokens, or two page tokens: one of each, or none.
    for name in ["X-Recall-Token", "X-Recall-Page"] {
        let twice = ui.send(
            "POST",
            "/api/search",
            &[
                ("Content-Type", "application/json"),
                ("X-Recall-Token", &ui.token),
                (name, "0000"),
                (name, "1111"),
            ],
            &search.to_string(),
        );
        assert_eq!(twice.status, 400, "{name}: {}", twice.body);
        let n = if name == "X-Recall-Token" { 3 } else { 2 };
        let told = format!("{n} {} headers", name.to_ascii_lowercase());
        assert!(twice.body.contains(&told), "{}", twice.body);
    }
    // Another site's page, this host on another port, or a loopback name this server
    // does not listen on (it listens on 127.0.0.1: a page of [::1] is another server's),
    // calling with the token.
    for origin in [
        format!("http://[::1]:{port}"),
        format!("http://127.0.0.2:{port}"),
        "http://evil.example".to_string(),
        format!("http://evil.example:{port}"),
        format!("http://127.0.0.1:{}", port.wrapping_add(1)),
        format!("https://127.0.0.1:{port}"),
        "null".into(),
    ] {
        let api = ui.api("search", None, &[("Origin", &origin)], &search);
        assert_eq!(api.status, 403, "Origin {origin}: {}", api.body);
        assert!(!api.body.contains("importer"));
    }
    for origin in [
        format!("http://127.0.0.1:{port}"),
        format!("http://localhost:{port}"),
    ] {
        let api = ui.api("search", None, &[("Origin", &origin)], &search);
        assert_eq!(
            api.status, 200,
            "the page's own Origin {origin}: {}",
            api.body
        );
    }
}

#[test]
fn a_write_needs_the_token_of_a_page_served() {
    let lib = library();
    let ui = start(&lib, &[]);
    lib.checkpoint();
    let before = lib.files();
    let promote = json!({"ids": [1]});
    let page = ui.page_token();
    let made_up = "0".repeat(64);
    for (page_token, why) in [
        (None, "no page token"),
        (Some(made_up.as_str()), "a made-up one"),
        (Some(ui.token.as_str()), "the access token"),
        (Some(""), "an empty one"),
    ] {
        for (action, body) in [
            ("promote", promote.clone()),
            ("demote", promote.clone()),
            ("kind", json!({"ids": [1], "kind": "decision"})),
            ("forget", json!({"ids": [3]})),
        ] {
            let answer = ui.api(action, page_token, &[], &body);
            assert_eq!(answer.status, 403, "{action} with {why}: {}", answer.body);
        }
    }
    assert_eq!(lib.files(), before, "no refused write changed a byte");
    assert!(!global_of(&lib, 1));
    // Without the access token, the page token alone is not enough.
    let alone = ui.send(
        "POST",
        "/api/promote",
        &[
            ("Content-Type", "application/json"),
            ("X-Recall-Page", &page),
        ],
        &promote.to_string(),
    );
    assert_eq!(alone.status, 401, "{}", alone.body);
    assert!(!global_of(&lib, 1));
    // With both, from the page's own origin: written, as recall promote writes.
    let origin = format!("http://127.0.0.1:{}", ui.port);
    let done = ui.api("promote", Some(&page), &[("Origin", &origin)], &promote);
    assert_eq!(done.status, 200, "{}", done.body);
    assert_eq!(done.json()["ids"], json!([1]));
    assert!(global_of(&lib, 1));
    let kind = ui.api(
        "kind",
        Some(&page),
        &[],
        &json!({"ids": [1], "kind": "decision"}),
    );
    assert_eq!(kind.status, 200, "{}", kind.body);
    assert_eq!(lib.json(&["get", "1"])["item"]["kind"], "decision");
    let bad_kind = ui.api(
        "kind",
        Some(&page),
        &[],
        &json!({"ids": [1], "kind": "nonsense"}),
    );
    assert_eq!(bad_kind.status, 400, "{}", bad_kind.body);
    assert!(bad_kind.json()["error"]
        .as_str()
        .unwrap_or("")
        .contains("not a known kind"));
    // Reads need no page token: a page's reads and writes are told apart by the action.
    assert_eq!(ui.api("status", None, &[], &json!({})).status, 200);
}

#[test]
fn bad_requests_get_their_status_and_one_line() {
    let lib = library();
    let ui = start(&lib, &[]);
    let token = ui.token.clone();
    let not_json = ui.send(
        "POST",
        "/api/search",
        &[
            ("Content-Type", "application/json"),
            ("X-Recall-Token", &token),
        ],
        "{not json",
    );
    assert_eq!(not_json.status, 400, "{}", not_json.body);
    assert!(not_json.json()["error"]
        .as_str()
        .unwrap_or("")
        .starts_with("the body is not JSON"));
    let array = ui.send(
        "POST",
        "/api/search",
        &[
            ("Content-Type", "application/json"),
            ("X-Recall-Token", &token),
        ],
        "[1]",
    );
    assert_eq!(array.status, 400, "{}", array.body);
    // A setting of the wrong type, or out of its range, is one line that names it.
    for (body, told) in [
        (
            json!({ "query": "importer", "weight": "0.5" }),
            "bad arguments: invalid type: string \"0.5\", expected f64",
        ),
        (
            json!({ "query": "importer", "pool": 20.5 }),
            "bad arguments: invalid type: floating point `20.5`, expected i64",
        ),
        (
            json!({ "query": "importer", "weight": 2 }),
            "--weight must be from 0 to 1, got 2",
        ),
    ] {
        let answer = ui.send(
            "POST",
            "/api/search",
            &[
                ("Content-Type", "application/json"),
                ("X-Recall-Token", &token),
            ],
            &body.to_string(),
        );
        assert_eq!(answer.status, 400, "{body}: {}", answer.body);
        assert_eq!(answer.json()["error"], told, "{body}");
    }
    // A form post (what a page of another site can send without asking) is refused.
    let form = ui.send(
        "POST",
        "/api/search",
        &[("Content-Type", "text/plain"), ("X-Recall-Token", &token)],
        "{\"query\": \"importer\"}",
    );
    assert_eq!(form.status, 415, "{}", form.body);
    let unknown = ui.api("drop", None, &[], &json!({}));
    assert_eq!(unknown.status, 404, "{}", unknown.body);
    // Without the token, not even which actions there are.
    let unknown = ui.send(
        "POST",
        "/api/drop",
        &[("Content-Type", "application/json")],
        "{}",
    );
    assert_eq!(unknown.status, 401, "{}", unknown.body);
    // A body longer than the limit, refused by its declared length before it is read.
    let mut stream = TcpStream::connect(("127.0.0.1", ui.port)).expect("connect");
    stream.set_read_timeout(Some(HUNG)).expect("timeout");
    let head = format!(
        "POST /api/search HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nX-Recall-Token: {token}\r\nContent-Length: {}\r\n\r\n{{",
        ui.port,
        READ_BODY + 1
    );
    stream.write_all(head.as_bytes()).expect("send");
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 413 "), "{answer}");
    let get = ui.send("GET", "/api/search", &[("X-Recall-Token", &token)], "");
    assert_eq!(get.status, 405, "{}", get.body);
    let nowhere = ui.send("GET", "/etc/passwd", &[], "");
    assert_eq!(nowhere.status, 404, "{}", nowhere.body);
    let unknown_field = ui.api(
        "search",
        None,
        &[],
        &json!({"query": "x", "sql": "drop table items"}),
    );
    assert_eq!(unknown_field.status, 400, "{}", unknown_field.body);
    let missing = ui.api("item", None, &[], &json!({"id": 999}));
    assert_eq!(missing.status, 400, "{}", missing.body);
    assert!(
        missing.json()["error"]
            .as_str()
            .unwrap_or("")
            .contains("999"),
        "{}",
        missing.body
    );
    // The server goes on.
    assert_eq!(
        ui.api("search", None, &[], &json!({"query": "importer"}))
            .status,
        200
    );
}

#[test]
fn stored_markup_is_answered_as_json_only() {
    let lib = library();
    let ui = start(&lib, &[]);
    let item = ui.api("item", None, &[], &json!({"id": 2}));
    assert_eq!(item.status, 200, "{}", item.body);
    assert_eq!(item.header("content-type"), Some("application/json"));
    assert_eq!(item.header("x-content-type-options"), Some("nosniff"));
    assert!(item
        .header("content-security-policy")
        .is_some_and(|c| c.contains("default-src 'none'")));
    let doc = item.json();
    // Every field as recall get gives it; the transcript only its length, sent by
    // `transcript` a page at a time.
    let stored = lib.json(&["get", "2"]);
    let mut expected = stored["item"].clone();
    let whole = lib.json(&["get", "2", "--transcript"])["item"]["transcript"]
        .as_str()
        .unwrap_or("")
        .chars()
        .count();
    expected["transcript_chars"] = json!(whole);
    assert_eq!(doc["get"]["item"], expected);
    assert_eq!(
        doc["get"]["item"]["title"],
        "Markup <script>alert(1)</script> <img src=x onerror=alert(2)>"
    );
    // The page itself holds no stored text: it is the same for every library.
    let page = ui.page();
    assert!(
        !page.body.contains("alert(") && !page.body.contains("Markup"),
        "{}",
        page.body
    );
    // The listing's line is the CLI's, markup and all, as text.
    let found = ui.api("search", None, &[], &json!({"query": "markup"}));
    let line = found.json()["lines"][0]["line"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let printed = lib.run(&["search", "markup"]).ok().stdout;
    assert_eq!(format!("{line}\n"), printed);
}

#[test]
fn forget_through_the_page_leaves_nothing_of_the_item_in_the_file() {
    let lib = library();
    let ui = start(&lib, &[]);
    lib.checkpoint();
    let bytes = |lib: &TempLib| {
        lib.files()
            .into_iter()
            .flatten()
            .flatten()
            .collect::<Vec<u8>>()
    };
    let canary = b"uicanary-7781-secret";
    let holds = |data: &[u8]| data.windows(canary.len()).any(|w| w == canary);
    assert!(holds(&bytes(&lib)), "the canary is in the file before");
    let page = ui.page_token();
    // The confirmation: a dry run naming what goes, changing nothing.
    let before = lib.files();
    let dry = ui.api(
        "forget",
        Some(&page),
        &[],
        &json!({"ids": [3], "dry_run": true}),
    );
    assert_eq!(dry.status, 200, "{}", dry.body);
    assert_eq!(dry.json()["items"][0]["title"], "Rotate the staging key");
    assert_eq!(lib.files(), before, "a dry run changes no byte");
    // A forget names its items: no filter-wide forget from the page.
    let everything = ui.api("forget", Some(&page), &[], &json!({"project": "api"}));
    assert_eq!(everything.status, 400, "{}", everything.body);
    assert_eq!(lib.count("select count(*) from items"), 3);
    let done = ui.api("forget", Some(&page), &[], &json!({"ids": [3]}));
    assert_eq!(done.status, 200, "{}", done.body);
    assert_eq!(done.json()["ids"], json!([3]));
    assert!(!holds(&bytes(&lib)), "none of the canary's bytes are left");
    lib.run(&["check"]).ok();
    assert_eq!(lib.count("select count(*) from items"), 2);
}

#[test]
fn access_globs_bind_the_page() {
    let lib = library();
    let ui = start(&lib, &["--allow", "agent-*"]);
    let page = ui.page_token();
    // Item 1 is human-notes: not readable, not changeable, answered as a missing one.
    let get = ui.api("item", None, &[], &json!({"id": 1}));
    assert_eq!(get.status, 400, "{}", get.body);
    let found = ui.api("search", None, &[], &json!({"query": "importer"}));
    assert_eq!(found.json()["results"], json!([]), "{}", found.body);
    let promote = ui.api("promote", Some(&page), &[], &json!({"ids": [1]}));
    assert_eq!(promote.status, 200, "{}", promote.body);
    assert_eq!(promote.json()["missing"], json!([1]));
    assert!(!global_of(&lib, 1));
    let forget = ui.api("forget", Some(&page), &[], &json!({"ids": [1]}));
    assert_eq!(forget.json()["ids"], json!([]), "{}", forget.body);
    assert_eq!(lib.count("select count(*) from items where id = 1"), 1);
    // An allowed one is.
    let promote = ui.api("promote", Some(&page), &[], &json!({"ids": [2]}));
    assert_eq!(promote.json()["ids"], json!([2]), "{}", promote.body);
    assert!(global_of(&lib, 2));
    // The status panel counts and names only the allowed items, as `recall status
    // --allow` does: no human-notes, no count of its item.
    let status = ui.api("status", None, &[], &json!({}));
    assert_eq!(status.status, 200, "{}", status.body);
    let doc = status.json();
    let text = doc["text"].as_str().unwrap_or("");
    assert!(!text.contains("human-notes"), "{text}");
    assert_eq!(doc["status"]["facts"]["items"], 2, "{}", status.body);
    let cli = lib.run(&["status", "--allow", "agent-*"]).stdout;
    let same = |t: &str| -> Vec<String> {
        // The last write's time moves with the page's own reads of the library: compared
        // apart from it.
        t.lines()
            .map(|l| l.split(", last written").next().unwrap_or(l).to_string())
            .collect()
    };
    assert_eq!(same(text), same(&cli));
    let unbound = lib.run(&["status"]).stdout;
    assert!(unbound.contains("human-notes"), "{unbound}");
}

#[test]
fn public_answers_any_host_but_still_wants_the_token() {
    let lib = library();
    let ui = start(&lib, &["--public"]);
    assert!(ui.first_log.contains("every address"), "{}", ui.first_log);
    let port = ui.port;
    let host = format!("recall.example:{port}");
    let search = json!({"query": "importer"});
    let page = ui.send(
        "GET",
        &format!("/?token={}", ui.token),
        &[("Host", &host)],
        "",
    );
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!(ui.send("GET", "/", &[("Host", &host)], "").status, 401);
    let no_token = ui.send(
        "POST",
        "/api/search",
        &[("Host", &host), ("Content-Type", "application/json")],
        &search.to_string(),
    );
    assert_eq!(no_token.status, 401, "{}", no_token.body);
    // The page's own origin is its Host's; another is refused.
    for (origin, status) in [
        (format!("http://{host}"), 200),
        (format!("https://{host}"), 200),
        ("http://evil.example".to_string(), 403),
        (format!("http://evil.example:{port}"), 403),
    ] {
        let answer = ui.api(
            "search",
            None,
            &[("Host", &host), ("Origin", &origin)],
            &search,
        );
        assert_eq!(answer.status, status, "Origin {origin}: {}", answer.body);
    }
}

#[test]
fn a_port_in_use_is_one_line_and_exit_2() {
    let lib = library();
    let ui = start(&lib, &[]);
    let second = lib.run(&["ui", "--port", &ui.port.to_string()]);
    assert_eq!(second.code, 2, "{second:?}");
    assert!(
        second
            .stderr
            .starts_with("recall: cannot listen on 127.0.0.1:"),
        "{}",
        second.stderr
    );
    assert_eq!(second.stderr.lines().count(), 1, "{}", second.stderr);
    let missing = TempLib::new().run(&["ui"]);
    assert_eq!(missing.code, 2, "{missing:?}");
    assert_eq!(missing.stderr.lines().count(), 1, "{}", missing.stderr);
}

#[test]
fn sigterm_stops_it_with_one_line_and_128_plus_the_signal() {
    let lib = library();
    let mut ui = start(&lib, &[]);
    assert_eq!(ui.api("status", None, &[], &json!({})).status, 200);
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(ui.server.child.id() as i32, libc::SIGTERM) };
    let deadline = Instant::now() + HUNG;
    let status = loop {
        if let Some(status) = ui.server.child.try_wait().expect("wait") {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "recall ui did not stop on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(143));
    assert!(ui.logged("recall: interrupted by SIGTERM: the server stopped"));
}

/// The agent's view's command, run as printed in dash (Debian's sh) and bash, prints
/// what the page shows, whatever the prompt holds: newlines, backslashes (`\n` in the
/// payload's JSON, which dash's `echo` would turn into a line break), quotes, `%`, `$`
/// and backquotes.
#[test]
fn the_agents_view_command_runs_as_printed_in_posix_shells() {
    let lib = library();
    let ui = start(&lib, &[]);
    let prompts = [
        "pool size\nof the importer",
        "path C:\\temp\\new and \\t tab \\0 nul \\c stop",
        "it's \"quoted\" 100% $HOME `id` $(id) \\\\ twice",
        "ünïcode 東京 pool\ttab",
    ];
    let recall = crate::common::cli::recall_bin();
    let dir = recall.parent().expect("the binary's folder").to_path_buf();
    let path = format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for prompt in prompts {
        let ask = json!({"project": "api", "prompt": prompt, "file": "src/pool.rs"});
        let answer = ui.api("agent", None, &[], &ask);
        assert_eq!(answer.status, 200, "{}", answer.body);
        for block in answer.json()["blocks"]
            .as_array()
            .cloned()
            .unwrap_or_default()
        {
            let shell = block["shell"].as_str().unwrap_or("");
            let printed = block["printed"].as_str().unwrap_or("");
            for sh in ["/bin/dash", "/bin/bash"] {
                let out = std::process::Command::new(sh)
                    .args(["-c", shell])
                    .env("RECALL_DB", &lib.db)
                    .env("PATH", &path)
                    .output()
                    .expect("run the shell");
                assert!(out.status.success(), "{sh}: {shell}: {out:?}");
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout),
                    printed,
                    "{sh} ran {shell}"
                );
            }
        }
    }
}

#[test]
fn the_agents_view_is_what_recall_hook_prints_and_leaves_the_notice_for_the_next_start() {
    let lib = library();
    // A failed hook: the next session start says so, once.
    let failed = lib.run_stdin(&["hook"], "not json");
    assert_eq!(failed.code, 0, "{failed:?}");
    let ui = start(&lib, &[]);
    let ask = json!({"project": "api", "prompt": "what pool size does the importer use", "file": "src/pool.rs"});
    let first = ui.api("agent", None, &[], &ask);
    assert_eq!(first.status, 200, "{}", first.body);
    let blocks = first.json()["blocks"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let events: Vec<&str> = blocks.iter().filter_map(|b| b["event"].as_str()).collect();
    assert_eq!(events, ["SessionStart", "UserPromptSubmit", "PostToolUse"]);
    let start_text = blocks[0]["printed"].as_str().unwrap_or("").to_string();
    assert!(
        start_text.contains("Pool size of the importer"),
        "{start_text}"
    );
    assert!(
        start_text.contains(&format!(
            "run `{} status`",
            crate::hook_reach::shell_line(&lib)
        )),
        "the notice: {start_text}"
    );
    // Looking again shows it again: the page spent nothing.
    let again = ui.api("agent", None, &[], &ask);
    assert_eq!(again.json()["blocks"], json!(blocks));
    for block in &blocks {
        let payload = block["payload"].as_str().unwrap_or("");
        assert!(!payload.contains("session_id"), "{payload}");
        let printed = lib
            .run_stdin(&["hook", "--project", "api"], payload)
            .ok()
            .stdout;
        assert_eq!(
            block["printed"].as_str(),
            Some(printed.as_str()),
            "{payload}"
        );
        assert_eq!(
            block["command"], "recall hook --project api",
            "the command shown runs the same"
        );
    }
    let prompt = blocks[1]["printed"].as_str().unwrap_or("");
    assert!(
        prompt.contains("[1] 2025-01-02 Pool size of the importer"),
        "{prompt}"
    );
    // The hook itself spent the notice: the next start has none, nor has the page.
    let next = lib
        .run_stdin(
            &["hook", "--project", "api"],
            blocks[0]["payload"].as_str().unwrap_or(""),
        )
        .ok()
        .stdout;
    assert!(!next.contains(" status`"), "{next}");
    let after = ui.api("agent", None, &[], &ask);
    assert_eq!(
        after.json()["blocks"][0]["printed"].as_str(),
        Some(next.as_str())
    );
    // A project-less view: no start block text (the hook prints nothing), as the hook.
    let nothing = ui.api("agent", None, &[], &json!({}));
    assert_eq!(nothing.json()["blocks"][0]["printed"], "");
    assert_eq!(
        lib.run_stdin(
            &["hook"],
            r#"{"hook_event_name":"SessionStart","source":"startup"}"#
        )
        .ok()
        .stdout,
        ""
    );
}

#[test]
fn a_replica_is_read_and_its_writes_refused_in_one_line() {
    let lib = library();
    let mut marker = lib.db.as_os_str().to_owned();
    marker.push("-txid");
    std::fs::write(&marker, "0000000000000003\n").expect("the replica's marker");
    let ui = start(&lib, &[]);
    assert!(
        ui.first_log.starts_with("recall ui: the page only reads:")
            && ui.first_log.contains("replica"),
        "{}",
        ui.first_log
    );
    let kinds = ui.api("kinds", None, &[], &json!({}));
    assert!(kinds.json()["read_only"].is_string(), "{}", kinds.body);
    let found = ui.api("search", None, &[], &json!({"query": "importer"}));
    assert_eq!(found.status, 200, "{}", found.body);
    let before = lib.files();
    let page = ui.page_token();
    let refused = ui.api("promote", Some(&page), &[], &json!({"ids": [1]}));
    assert_eq!(refused.status, 400, "{}", refused.body);
    let message = refused.json()["error"].as_str().unwrap_or("").to_string();
    assert!(
        message.contains("only reads") && message.contains("nothing was written"),
        "{message}"
    );
    assert_eq!(lib.files(), before);
    assert!(!global_of(&lib, 1));
}

/// An item's transcript is sent only when asked, a page of at most 262,144 characters
/// at a time (a 32 MiB transcript no longer costs the server its size several times
/// over at each look): the pages make the stored text whole, at any offset and with
/// characters of any width; bad offsets and limits are one line; a forbidden item's
/// transcript is a missing item's.
#[test]
fn a_transcript_is_sent_a_page_at_a_time() {
    let lib = library();
    let long: String = (0..70_000).map(|i| format!("{i}: é東😀\n")).collect();
    let total = long.chars().count();
    let added = lib.run_stdin(
        &[
            "--json",
            "add",
            "--source",
            "agent-claude",
            "--title",
            "long one",
            "--transcript-file",
            "-",
        ],
        &long,
    );
    let id = added.ok().json()["id"].as_i64().expect("an id");
    let stored = lib.json(&["get", &id.to_string(), "--transcript"])["item"]["transcript"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert_eq!(stored.chars().count(), total);
    let ui = start(&lib, &[]);
    let item = ui.api("item", None, &[], &json!({"id": id}));
    assert_eq!(item.status, 200, "{}", item.body);
    assert!(
        item.body.len() < 64 * 1024,
        "the item answer holds no transcript: {} bytes",
        item.body.len()
    );
    assert!(item.json()["get"]["item"].get("transcript").is_none());
    assert_eq!(item.json()["get"]["item"]["transcript_chars"], total);
    // Default pages, from the start: whole, in order.
    let mut text = String::new();
    let mut offset = json!(0);
    let mut pages = 0;
    while let Some(at) = offset.as_i64() {
        let page = ui.api("transcript", None, &[], &json!({"id": id, "offset": at}));
        assert_eq!(page.status, 200, "{}", page.body);
        let doc = page.json();
        let part = doc["text"].as_str().unwrap_or("");
        assert!(part.chars().count() <= 262_144);
        assert_eq!(doc["total"], total);
        text.push_str(part);
        offset = doc["next"].clone();
        pages += 1;
    }
    assert_eq!(text, stored);
    assert_eq!(pages, total.div_ceil(262_144));
    // Any offset and limit: the characters there, counted as characters.
    let chars: Vec<char> = stored.chars().collect();
    for (at, limit) in [
        (1usize, 5usize),
        (7, 1),
        (total - 3, 10),
        (total, 5),
        (total + 9, 5),
    ] {
        let page = ui.api(
            "transcript",
            None,
            &[],
            &json!({"id": id, "offset": at, "limit": limit}),
        );
        assert_eq!(page.status, 200, "{}", page.body);
        let want: String = chars.iter().skip(at).take(limit).collect();
        assert_eq!(page.json()["text"], want, "at {at}, {limit}");
        let next = (at + limit < total).then_some(at + limit);
        assert_eq!(page.json()["next"], json!(next), "at {at}, {limit}");
    }
    for bad in [
        json!({"id": id, "offset": -1}),
        json!({"id": id, "limit": 0}),
        json!({"id": id, "limit": 262_145}),
        json!({"id": id, "offset": "x"}),
        json!({"id": id, "more": 1}),
    ] {
        let page = ui.api("transcript", None, &[], &bad);
        assert_eq!(page.status, 400, "{bad}: {}", page.body);
        assert!(
            page.json()["error"]
                .as_str()
                .unwrap_or("")
                .starts_with("bad arguments"),
            "{bad}: {}",
            page.body
        );
    }
    let none = ui.api("transcript", None, &[], &json!({"id": 9999}));
    assert_eq!(none.status, 400, "{}", none.body);
    assert!(none.body.contains("no item 9999"), "{}", none.body);
    // No transcript stored: its length is 0, the page empty.
    let bare = ui.api("transcript", None, &[], &json!({"id": 1}));
    assert_eq!(
        (bare.json()["total"].clone(), bare.json()["next"].clone()),
        (json!(0), Value::Null)
    );
    drop(ui);
    // Under access globs, an item of another source answers as a missing one.
    let ui = start(&lib, &["--allow", "agent-codex"]);
    let hidden = ui.api("transcript", None, &[], &json!({"id": id}));
    assert_eq!(hidden.status, 400, "{}", hidden.body);
    assert!(
        hidden.body.contains(&format!("no item {id}")),
        "{}",
        hidden.body
    );
}

/// Class: still true? The page, run in a checkout, names each item's files changed
/// since: the search's results and lines, and an item opened.
#[test]
fn the_page_names_the_files_changed_since() {
    use crate::changed_since::{expected_of, marks, repository};
    let (lib, top, expected) = repository();
    let ui = start_in(&lib, Some(&top), &[]);
    let answer = ui.api(
        "search",
        None,
        &[],
        &json!({"query": "zqstale", "limit": 50}),
    );
    assert_eq!(answer.status, 200, "{}", answer.body);
    let doc = answer.json();
    let got = marks(&doc["results"]);
    assert_eq!(got.len(), expected.len());
    assert_eq!(got, expected_of(&expected, &got));
    for (line, (_, changed)) in doc["lines"].as_array().unwrap().iter().zip(&got) {
        let line = line["line"].as_str().unwrap();
        let mark = match changed.is_empty() {
            true => String::new(),
            false => format!(" (changed since: {})", changed.join(", ")),
        };
        assert!(line.ends_with(&format!("){mark}")), "{line}");
    }
    let item = ui.api("item", None, &[], &json!({"id": 10})).json();
    assert_eq!(
        item["get"]["item"]["changed_since"],
        json!(["src/b.rs", "src/a.rs"])
    );
}
