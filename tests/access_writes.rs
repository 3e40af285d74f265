//! One write rule on every route: a caller bound by access globs writes only to a source
//! they allow — `recall add`, `recall import`, the MCP `add` tool, each under `--allow`
//! and under the configuration's `[access] allow` — and a refused write leaves the
//! library byte for byte as it was, telling nothing of the forbidden source's items.

use serde_json::json;

use crate::common::cli::{titled, TempLib};
use crate::common::mcp::Server;

fn library() -> TempLib {
    TempLib::with_items(
        None,
        &[titled("salary negotiation notes")
            .source("human-notes")
            .project("app")
            .at("2025-02-01T09:00:00Z")
            .line()],
    )
}

const REFUSAL: &str = "source \"human-notes\" is not one the access globs (agent-*) allow";

#[test]
fn no_route_writes_to_a_source_the_globs_forbid() {
    let lib = library();
    lib.checkpoint();
    let before = lib.files();
    let config = lib.path("recall.toml");
    std::fs::write(&config, "[access]\nallow = [\"agent-*\"]\n").expect("write config");
    let config = config.to_str().expect("utf-8 path").to_string();
    let add = [
        "add",
        "--source",
        "human-notes",
        "--title",
        "written by an agent",
        "--at",
        "2025-02-02",
    ];
    // An identical item is there: --skip-duplicates must not name it either.
    let duplicate = [
        "add",
        "--source",
        "human-notes",
        "--project",
        "app",
        "--title",
        "salary negotiation notes",
        "--at",
        "2025-02-01T09:00:00Z",
        "--skip-duplicates",
    ];
    for args in [&add[..], &duplicate[..]] {
        let mut flagged = args.to_vec();
        flagged.extend(["--allow", "agent-*"]);
        let mut configured = vec!["--config", config.as_str()];
        configured.extend_from_slice(args);
        for run in [flagged, configured] {
            let out = lib.run(&run).fails_with(REFUSAL);
            assert!(!out.stderr.contains("duplicate"), "{}", out.stderr);
            assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
        }
    }
    let line = titled("imported by an agent")
        .source("human-notes")
        .at("2025-02-03T00:00:00Z")
        .line();
    lib.run_stdin(&["import", "-", "--allow", "agent-*"], &line)
        .fails_with(REFUSAL);
    lib.run_stdin(&["--config", &config, "import", "-"], &line)
        .fails_with(REFUSAL);
    let mut server = Server::start(&lib, &["--allow-writes", "--allow", "agent-*"]);
    let refused = server
        .tool(
            "add",
            json!({"source": "human-notes", "title": "by the server", "occurred_at": "2025-02-04"}),
        )
        .expect_err("the server refuses the source");
    assert!(refused.contains(REFUSAL), "{refused}");
    drop(server);
    lib.checkpoint();
    assert!(lib.files() == before, "a refused write changed the library");
    // A source the globs allow is written, on each route.
    lib.run(&[
        "add",
        "--source",
        "agent-a",
        "--title",
        "allowed",
        "--at",
        "2025-02-05",
        "--allow",
        "agent-*",
    ])
    .ok();
    assert_eq!(
        lib.count("select count(*) from items where source = 'agent-a'"),
        1
    );
}
