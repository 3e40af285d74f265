//! `recall mcp` and its helpers (the judge, the embedder): a helper dies with the server
//! however the server ends, a cancelled call stops its helper's work, and a slow call
//! holds up no other.
use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::cli::TempLib;
use crate::common::mcp::{Server, HUNG};
use crate::common::{root, vectors, SYSTEM_PYTHON};

fn sample_library() -> TempLib {
    let lib = TempLib::init(None);
    let sample = root().join("examples/sample.jsonl");
    lib.run(&["import", sample.to_str().expect("path")]).ok();
    lib
}

/// A configuration whose judge reads each request and never answers (its child too
/// sleeps), within a timeout far past the test's.
fn hanging_judge(lib: &TempLib) -> String {
    let script = root().join("tests/judge/fake_judge.py");
    let command = format!("{SYSTEM_PYTHON} '{}' --mode hang", script.display());
    let path = lib.path("hang.toml");
    std::fs::write(
        &path,
        format!("[judge]\ncommand = {command:?}\ntimeout_ms = 600000\n"),
    )
    .expect("config");
    path.display().to_string()
}

/// A configuration whose embedder waits 1000 s before each answer, on a library with
/// vectors (embedded by a prompt one).
fn sleeping_embedder(lib: &TempLib) -> String {
    lib.run(&["embed", "--embed-cmd", &vectors::fake("")]).ok();
    let path = lib.path("sleep.toml");
    std::fs::write(
        &path,
        format!(
            "[vectors]\ncommand = {:?}\ntimeout_ms = 600000\n",
            vectors::fake("--sleep 1000")
        ),
    )
    .expect("config");
    path.display().to_string()
}

/// The pids whose parent is `parent`.
fn children_of(parent: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        // pid (comm) state ppid …: comm may hold spaces, so read after its ')'.
        let ppid = stat
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(parent) {
            found.push(pid);
        }
    }
    found
}

/// The server's helper, once it has started (the first child running Python).
fn helper_of(server: &Server) -> u32 {
    let until = Instant::now() + HUNG;
    loop {
        let helpers: Vec<u32> = children_of(server.child.id())
            .into_iter()
            .filter(|pid| {
                std::fs::read_to_string(format!("/proc/{pid}/cmdline"))
                    .is_ok_and(|c| c.contains("python"))
            })
            .collect();
        if let Some(pid) = helpers.first() {
            return *pid;
        }
        assert!(Instant::now() < until, "no helper started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether the process is gone (or dead, waiting to be reaped).
fn gone(pid: u32) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let state = stat
        .rsplit(')')
        .next()
        .and_then(|s| s.split_whitespace().next())
        .map(str::to_string);
    matches!(state.as_deref(), None | Some("Z") | Some("X"))
}

/// Waits for the process to go (a bound on a failure, not a measure of speed).
fn assert_gone(pid: u32, after: &str) {
    let until = Instant::now() + HUNG;
    while !gone(pid) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(gone(pid), "helper {pid} outlived {after}");
}

fn configured(lib: &TempLib, config: &str) -> Server {
    Server::start_with(lib.command().args(["--config", config, "mcp"]))
}

fn search_call(server: &mut Server, id: i64) {
    server.call(id, "search", json!({"query": "database is locked"}));
}

/// How a server can end while a call waits on its helper.
#[derive(Clone, Copy, Debug)]
enum End {
    StdinClosed,
    /// Standard input and output both closed: the client process is gone.
    ClientGone,
    Signal(i32),
}

fn end(server: &mut Server, how: End) {
    match how {
        End::StdinClosed => server.close_stdin(),
        End::ClientGone => {
            server.close_stdin();
            drop(server.child.stdout.take());
        }
        End::Signal(signal) => {
            let pid = i32::try_from(server.child.id()).expect("pid");
            // SAFETY: the pid is our unreaped child's.
            unsafe {
                libc::kill(pid, signal);
            }
        }
    }
}

#[test]
fn helpers_die_with_the_server_however_it_ends() {
    let lib = sample_library();
    let judge = hanging_judge(&lib);
    let embedder = sleeping_embedder(&lib);
    for config in [&judge, &embedder] {
        for how in [
            End::StdinClosed,
            End::ClientGone,
            End::Signal(libc::SIGTERM),
            End::Signal(libc::SIGINT),
            End::Signal(libc::SIGHUP),
            End::Signal(libc::SIGKILL),
        ] {
            let mut server = configured(&lib, config);
            search_call(&mut server, 2);
            let helper = helper_of(&server);
            end(&mut server, how);
            server.wait();
            assert_gone(helper, &format!("the server ({how:?}, {config})"));
        }
    }
}

#[test]
fn a_cancelled_call_stops_its_helper_and_the_server_goes_on() {
    let lib = sample_library();
    for config in [hanging_judge(&lib), sleeping_embedder(&lib)] {
        let mut server = configured(&lib, &config);
        search_call(&mut server, 2);
        let helper = helper_of(&server);
        server.send(
            &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": 2, "reason": "the user moved on"}}),
        );
        assert_gone(helper, "the cancelled call");
        server.call(3, "get", json!({"id": 14}));
        assert_eq!(
            server.result(3),
            lib.run(&["--json", "get", "14"]).ok().json()
        );
        let (code, stderr) = server.finish();
        assert_eq!(code, 0, "{stderr}");
    }
}

#[test]
fn a_slow_call_holds_up_no_other() {
    let lib = sample_library();
    let config = hanging_judge(&lib);
    let mut server = configured(&lib, &config);
    search_call(&mut server, 2);
    let helper = helper_of(&server);
    // Reads answer while the search waits on its judge.
    for (id, tool, arguments) in [
        (3, "get", json!({"id": 14})),
        (4, "timeline", json!({"limit": 3})),
        (5, "later", json!({"id": 14})),
    ] {
        server.call(id, tool, arguments);
        server.result(id);
    }
    let early = server.drain(Duration::ZERO);
    assert!(
        early.iter().all(|m| m["id"] != json!(2)),
        "the search was answered, though its judge never answers: {early:?}"
    );
    assert!(!gone(helper), "the judge stopped early");
    end(&mut server, End::StdinClosed);
    server.wait();
    assert_gone(helper, "the server");
}
