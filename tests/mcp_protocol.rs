//! `recall mcp` on raw JSON-RPC lines no SDK sends: every request is answered, with the
//! request's id when the line holds one, and the server goes on serving.
use std::io::Write;

use serde_json::{json, Value};

use crate::common::cli::TempLib;
use crate::common::mcp::Server;
use crate::common::{doc_table, root};

fn sample_library() -> TempLib {
    let lib = TempLib::init(None);
    let sample = root().join("examples/sample.jsonl");
    lib.run(&["import", sample.to_str().expect("path")]).ok();
    lib
}

/// The server still answers a good call, as the command does.
fn still_serving(server: &mut Server, lib: &TempLib, id: i64) {
    server.call(id, "get", json!({"id": 14}));
    let got = server.result(id);
    assert_eq!(got, lib.run(&["--json", "get", "14"]).ok().json());
}

#[test]
fn every_undecodable_request_is_answered_with_its_id() {
    let lib = sample_library();
    let mut server = Server::start(&lib, &[]);
    let call = |id: i64, arguments: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"search","arguments":{arguments}}}}}"#
        )
        .into_bytes()
    };
    // (line, id to answer, code, words the message holds)
    let cases: Vec<(Vec<u8>, Value, i64, &str)> = vec![
        // A JavaScript string cut inside an emoji.
        (call(2, r#"{"query":"\ud83d"}"#), json!(2), -32700, "surrogate"),
        (call(3, r#"{"query":"tail \ude00 only"}"#), json!(3), -32700, "surrogate"),
        (call(4, r#"{"query":"\ud83d\u0041"}"#), json!(4), -32700, "surrogate"),
        (
            br#"{"jsonrpc":"2.0","id":"five","method":"tools/call","params":{"name":"search","arguments":{"query":"ok"}},"x":"\udbff"}"#.to_vec(),
            json!("five"),
            -32700,
            "surrogate",
        ),
        (call(6, "{\"query\":\"caf\u{e9}\"}").into_iter().map(|b| if b == 0xc3 { 0xff } else { b }).collect(), json!(6), -32700, "not UTF-8"),
        (br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"#.to_vec(), json!(7), -32700, "parse error"),
        (b"this is not JSON".to_vec(), Value::Null, -32700, "parse error"),
        (call(8, r#""not an object""#), json!(8), -32602, "arguments must be an object"),
        (call(9, "[1, 2]"), json!(9), -32602, "arguments must be an object"),
        (call(10, "7"), json!(10), -32602, "arguments must be an object"),
        (br#"{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":5}}"#.to_vec(), json!(11), -32602, "name"),
        (br#"{"jsonrpc":"2.0","id":12,"method":"tools/call"}"#.to_vec(), json!(12), -32602, "needs params"),
        (br#"{"id":13,"method":"tools/list"}"#.to_vec(), json!(13), -32600, "jsonrpc"),
        (br#"{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}"#.to_vec(), Value::Null, -32600, "id must be"),
        (br#"[{"jsonrpc":"2.0","id":14,"method":"tools/list"}]"#.to_vec(), Value::Null, -32600, "batches"),
    ];
    for (line, id, code, words) in cases {
        server.send_raw(&line);
        let (got_code, message) = server.error(&id);
        let shown = String::from_utf8_lossy(&line);
        assert_eq!(got_code, code, "{shown}: {message}");
        assert!(message.contains(words), "{shown}: {message}");
        assert!(!message.contains('\n'), "{message}");
        still_serving(&mut server, &lib, 100);
    }
    // An unknown method is the protocol's own error, as before.
    server.send(&json!({"jsonrpc": "2.0", "id": 15, "method": "no/such"}));
    assert_eq!(server.error(&json!(15)).0, -32601);
    // Notifications, good or bad, are never answered; the next request is.
    server.send_raw(br#"{"jsonrpc":"2.0","method":"notifications/whatever","params":"\ud83d"}"#);
    server.send_raw(br#"{"method":"notifications/initialized"}"#);
    still_serving(&mut server, &lib, 101);
    let (code, stderr) = server.finish();
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn an_item_of_17_mib_is_added_and_a_line_past_the_limit_answered() {
    let lib = sample_library();
    let mut server = Server::start(&lib, &["--allow-writes"]);
    // Within the 32 MiB an item's transcript may hold, past rmcp's own 16 MiB.
    let transcript: String = (0..17 * 1024 * 1024)
        .map(|i| (b'a' + (i % 26) as u8) as char)
        .collect();
    server.call(
        1,
        "add",
        json!({"source": "agent-test", "title": "Seventeen mebibytes",
        "occurred_at": "2025-01-02", "transcript": transcript}),
    );
    let added = server.result(1);
    let id = added["id"].as_i64().expect("id");
    server.call(2, "get", json!({"id": id, "transcript": true}));
    assert_eq!(server.result(2)["item"]["transcript"], json!(transcript));
    // Control characters are escaped six bytes each: a 32 MiB transcript of them fits.
    let controls = "\u{1}".repeat(32 * 1024 * 1024);
    server.call(
        3,
        "add",
        json!({"source": "agent-test", "title": "Control characters",
        "occurred_at": "2025-01-02", "transcript": controls}),
    );
    assert_eq!(server.result(3)["added"], json!(true));
    let items = lib.count("select count(*) from items");

    // A line past the limit, written as it is read: it is answered, with its id, and
    // the next request too.
    let limit = limit_of(&mut server);
    let head = br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"add","arguments":{"source":"agent-test","title":"Too long","occurred_at":"2025-01-02","transcript":""#;
    let stdin = server.stdin();
    stdin.write_all(head).expect("write");
    let chunk = vec![b'x'; 1 << 20];
    let mut written = head.len();
    while written <= limit {
        stdin.write_all(&chunk).expect("write");
        written += chunk.len();
    }
    stdin.write_all(b"\"}}}\n").expect("write");
    let (code, message) = server.error(&json!(4));
    assert_eq!(code, -32600, "{message}");
    assert!(message.contains(&limit.to_string()), "{message}");
    assert_eq!(lib.count("select count(*) from items"), items);
    still_serving(&mut server, &lib, 5);
}

/// The limit on a line, as the docs state it (in bytes, in the MCP section).
fn limit_of(_server: &mut Server) -> usize {
    let docs = std::fs::read_to_string(root().join("docs/cli.md")).expect("docs/cli.md");
    let section = docs
        .split("## The MCP server (`recall mcp`)")
        .nth(1)
        .expect("the MCP section");
    let section = section.split_whitespace().collect::<Vec<_>>().join(" ");
    let words = section
        .split("a line may hold at most ")
        .nth(1)
        .expect("the docs state the limit on a line");
    let number: String = words
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    number.parse().expect("a number of bytes")
}

#[test]
fn an_unknown_tool_names_only_the_tools_this_server_lists() {
    let lib = sample_library();
    for (args, known) in [
        (&[][..], "search, later, related, timeline, get)"),
        (
            &["--allow-writes"][..],
            "search, later, related, timeline, get, add, forget)",
        ),
    ] {
        let mut server = Server::start(&lib, args);
        server.call(1, "nonsense", json!({}));
        let (code, message) = server.error(&json!(1));
        assert_eq!(code, -32602, "{message}");
        assert!(message.ends_with(&format!("(known: {known}")), "{message}");
        // An integral float is an integer, as JSON Schema has it.
        server.call(2, "timeline", json!({"limit": 2.0}));
        assert_eq!(
            server.result(2)["results"].as_array().map(Vec::len),
            Some(2)
        );
    }
}

/// The tools table of docs/cli.md: tool name → (arguments named, the required ones).
fn documented_tools() -> Vec<(String, Vec<String>, Vec<String>)> {
    let names = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    doc_table("docs/cli.md", "## The MCP server", "| `")
        .into_iter()
        .map(|cells| {
            let tool = names(&cells[0]).remove(0);
            // Before a colon, the arguments; after it, prose.
            let arguments = cells[1].split(": ").next().unwrap_or_default();
            let required = arguments
                .split("**")
                .skip(1)
                .step_by(2)
                .flat_map(names)
                .collect();
            (tool, names(arguments), required)
        })
        .collect()
}

#[test]
fn the_docs_name_every_argument_of_every_tool() {
    let lib = TempLib::init(None);
    let mut server = Server::start(&lib, &["--allow-writes"]);
    server.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let listed = server.answer(&json!(1));
    let tools = listed["result"]["tools"].as_array().expect("tools").clone();
    let documented = documented_tools();
    let mut seen: Vec<&str> = documented.iter().map(|(t, _, _)| t.as_str()).collect();
    seen.sort_unstable();
    let mut offered: Vec<&str> = tools
        .iter()
        .map(|t| t["name"].as_str().expect("name"))
        .collect();
    offered.sort_unstable();
    assert_eq!(
        seen, offered,
        "the docs' table lists the tools the server offers"
    );
    for tool in &tools {
        let name = tool["name"].as_str().expect("name");
        let schema = &tool["inputSchema"];
        let mut properties: Vec<String> = schema["properties"]
            .as_object()
            .expect("properties")
            .keys()
            .cloned()
            .collect();
        let mut required: Vec<String> = schema["required"]
            .as_array()
            .map(|r| {
                r.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let (_, mut named, mut bold) = documented
            .iter()
            .find(|(t, _, _)| t == name)
            .cloned()
            .expect("documented");
        for list in [&mut properties, &mut required, &mut named, &mut bold] {
            list.sort();
        }
        assert_eq!(named, properties, "{name}: the docs' arguments");
        assert_eq!(bold, required, "{name}: the docs' required arguments");
    }
}
