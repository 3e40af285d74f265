//! The MCP tools are one table (`cli/src/serve/table.rs`): every tool in it is listed (in
//! its order, the writes only with `--allow-writes`, hinted as reading or writing by its
//! entry), served, and classified (a write refused by a server that only reads, a read
//! not), and no name outside it is a tool.
use serde_json::{json, Value};

use recall_cli::serve::table::{Access, TOOLS};

use crate::common::cli::TempLib;
use crate::common::mcp::Server;

/// The names and the `readOnlyHint` of the tools a server lists.
fn listed(server: &mut Server) -> Vec<(String, Value)> {
    server.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let answer = server.answer(&json!(1));
    answer["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("no tools in {answer}"))
        .iter()
        .map(|t| {
            (
                t["name"].as_str().expect("a name").to_string(),
                t["annotations"]["readOnlyHint"].clone(),
            )
        })
        .collect()
}

/// The text of a call's failure, whether a tool error or the protocol's error; None when
/// it answered.
fn failure(server: &mut Server, id: i64, tool: &str, arguments: Value) -> Option<String> {
    server.call(id, tool, arguments);
    let answer = server.answer(&json!(id));
    if let Some(message) = answer["error"]["message"].as_str() {
        return Some(message.to_string());
    }
    let result = &answer["result"];
    (result["isError"] == json!(true)).then(|| {
        result["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("no text in {answer}"))
            .to_string()
    })
}

#[test]
fn every_tool_of_the_table_is_listed_served_and_classified_and_no_other() {
    let lib = TempLib::init(None);
    let all: Vec<&str> = TOOLS.iter().map(|t| t.name).collect();
    let reads: Vec<&str> = TOOLS
        .iter()
        .filter(|t| t.access == Access::Read)
        .map(|t| t.name)
        .collect();
    assert!(reads.len() >= 2 && reads.len() < all.len(), "{all:?}");

    // Listed: in the table's order, each hinted by its entry.
    let mut writer = Server::start(&lib, &["--allow-writes"]);
    let hinted: Vec<(String, Value)> = TOOLS
        .iter()
        .map(|t| (t.name.to_string(), json!(t.access == Access::Read)))
        .collect();
    assert_eq!(listed(&mut writer), hinted);
    let mut reader = Server::start(&lib, &[]);
    let names: Vec<String> = listed(&mut reader).into_iter().map(|t| t.0).collect();
    assert_eq!(names, reads);

    // Served: each answers a call, with the library's answer or its own refusal of the
    // arguments, never as a tool the server does not know.
    let mut id = 10;
    for tool in &all {
        id += 1;
        let failed = failure(&mut writer, id, tool, json!({"id": 1, "ids": [1]}));
        assert!(
            !failed.as_deref().unwrap_or("").contains("unknown tool"),
            "{tool}: {failed:?}"
        );
    }

    // Classified: a server that only reads refuses each write by its entry, and no read.
    for t in TOOLS {
        id += 1;
        let failed = failure(&mut reader, id, t.name, json!({"id": 1}));
        let refused = format!(
            "{} writes to the library, and this server only reads: start it with `recall mcp --allow-writes`",
            t.name
        );
        assert_eq!(
            failed.as_deref() == Some(refused.as_str()),
            t.access == Access::Write,
            "{}: {failed:?}",
            t.name
        );
    }

    // No other: the page's actions that are no tool, a tool's name in other letters or
    // with a space, none at all.
    let others = [
        "item",
        "transcript",
        "agent",
        "status",
        "kinds",
        "promote",
        "demote",
        "kind",
        "Search",
        "GET",
        "get ",
        " forget",
        "",
    ];
    for (server, known) in [
        (&mut writer, all.join(", ")),
        (&mut reader, reads.join(", ")),
    ] {
        for name in others {
            id += 1;
            let failed = failure(server, id, name, json!({}));
            assert_eq!(
                failed,
                Some(format!("unknown tool {name:?} (known: {known})")),
                "{name:?}"
            );
        }
    }
    for server in [writer, reader] {
        let (code, stderr) = server.finish();
        assert_eq!(code, 0, "{stderr}");
    }
}
