//! SIGINT, SIGTERM and SIGHUP to `recall mcp`: idle, it stops with one line and 128 +
//! the signal; during a write, before its commit, the write is abandoned and the library
//! left as it was.
use serde_json::json;

use crate::common::cli::{titled, TempLib};
use crate::common::mcp::Server;

const SIGNALS: [(i32, &str); 3] = [
    (libc::SIGINT, "SIGINT"),
    (libc::SIGTERM, "SIGTERM"),
    (libc::SIGHUP, "SIGHUP"),
];

fn library() -> TempLib {
    library_of("Pelican notes")
}

/// Two items, the first titled `first`.
fn library_of(first: &str) -> TempLib {
    let lib = TempLib::init(None);
    lib.import(&format!(
        "{}\n{}\n",
        titled(first).line(),
        titled("Walrus notes").line()
    ))
    .ok();
    lib
}

#[test]
fn an_idle_server_stops_with_one_line_and_the_signals_code() {
    let lib = library();
    for (signal, name) in SIGNALS {
        let mut server = Server::start(&lib, &["--allow-writes"]);
        server.call(1, "get", json!({"id": 1}));
        server.result(1);
        server.signal(signal);
        let (code, stderr) = server.wait();
        assert_eq!(code, 128 + signal, "{name}: {stderr}");
        assert_eq!(
            stderr,
            format!("recall: interrupted by {name}: the server stopped\n"),
            "{name}"
        );
    }
}

#[test]
fn a_write_cut_before_its_commit_changes_nothing() {
    let lib = library();
    let add = json!({"source": "agent-test", "title": "Otter", "occurred_at": "2025-01-01"});
    for (point, tool, arguments) in [
        ("add:1", "add", add),
        ("forget:1", "forget", json!({"ids": [1]})),
    ] {
        for (signal, name) in SIGNALS {
            lib.checkpoint();
            let before = lib.snapshot();
            let mut server = Server::start_with(
                lib.command()
                    .env("RECALL_TEST_PAUSE_AT", point)
                    .args(["mcp", "--allow-writes"]),
            );
            server.call(1, tool, arguments.clone());
            server.paused();
            server.signal(signal);
            let (code, stderr) = server.wait();
            assert_eq!(code, 128 + signal, "{tool} {name}: {stderr}");
            let lines: Vec<&str> = stderr.lines().collect();
            assert_eq!(
                lines,
                [format!(
                    "recall: interrupted by {name}: the server stopped; the {tool} call in progress was abandoned before its commit: nothing was written"
                )],
                "{tool} {name}"
            );
            assert_eq!(lib.snapshot(), before, "{tool} {name} changed the library");
        }
    }
}

#[test]
fn a_write_signalled_after_its_commit_completes_then_the_server_stops() {
    // The forget's rows are deleted and committed; the signal comes during its wipe,
    // which runs to the end: no copy of the forgotten text is left, and the line says so.
    for (signal, name) in SIGNALS {
        let lib = library_of("Pelican quokkasecret notes");
        let mut server = Server::start_with(
            lib.command()
                .env("RECALL_TEST_PAUSE_AT", "forget_wipe:1:2")
                .args(["mcp", "--allow-writes"]),
        );
        server.call(1, "forget", json!({"ids": [1]}));
        server.paused();
        server.signal(signal);
        let answer = server.result(1);
        assert_eq!(answer["ids"], json!([1]), "{name}: {answer}");
        assert_eq!(answer["wiped"], json!(true), "{name}: {answer}");
        let (code, stderr) = server.wait();
        assert_eq!(code, 128 + signal, "{name}: {stderr}");
        assert_eq!(
            stderr.lines().collect::<Vec<_>>(),
            [format!(
                "recall: interrupted by {name}: the server stopped; the forget call in progress completed (its items forgotten and wiped)"
            )],
            "{name}"
        );
        for bytes in lib.files().into_iter().flatten() {
            assert!(
                !bytes.windows(12).any(|w| w == b"quokkasecret"),
                "{name}: the forgotten text is still in the file"
            );
        }
        lib.run(&["check"]).ok();
    }
}
