//! `get ID…`: several items in one call, in the order given, a missing or forbidden id
//! reported without failing the others, `--transcript` on each; `sql/get.sql` with
//! `:ids` in the sqlite3 shell; and the MCP `get` tool's `ids`.
use serde_json::{json, Value};

use crate::common::cli::TempLib;
use crate::common::mcp::Server;
use crate::common::{extension_path, root, shell_ok};

fn library(tokenizer: Option<&str>) -> TempLib {
    let lib = TempLib::init(tokenizer);
    let lines: Vec<String> = (1..=6)
        .map(|i| {
            json!({"source": if i == 4 { "secret" } else { "agent" }, "project": "p",
                   "title": format!("title {i}"), "summary": format!("summary {i}"),
                   "occurred_at": format!("2025-01-0{i}"),
                   "transcript": if i % 2 == 0 { Some(format!("transcript {i}")) } else { None }})
            .to_string()
        })
        .collect();
    lib.import(&lines.join("\n")).ok();
    lib
}

fn item_ids(answer: &Value) -> Vec<i64> {
    answer["items"]
        .as_array()
        .unwrap_or_else(|| panic!("no items in {answer}"))
        .iter()
        .map(|i| i["id"].as_i64().unwrap())
        .collect()
}

#[test]
fn several_ids_in_the_order_given() {
    let lib = library(None);
    let ran = lib.run(&["--json", "get", "5", "2", "6", "2"]).ok();
    let answer = ran.json();
    assert_eq!(item_ids(&answer), [5, 2, 6]);
    assert_eq!(answer["missing"], json!([]));
    assert_eq!(answer["command"], "get");
    // Each item exactly as `get ID` gives it alone.
    for item in answer["items"].as_array().unwrap() {
        let id = item["id"].to_string();
        assert_eq!(&lib.json(&["get", &id])["item"], item);
    }
    assert!(answer["items"][0].get("transcript").is_none());
    // --transcript applies to each.
    let with = lib.json(&["get", "2", "4", "6", "--transcript"]);
    let transcripts: Vec<&Value> = with["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| &i["transcript"])
        .collect();
    assert_eq!(
        transcripts,
        [
            &json!("transcript 2"),
            &json!("transcript 4"),
            &json!("transcript 6")
        ]
    );
}

#[test]
fn missing_and_forbidden_ids_do_not_fail_the_others() {
    let lib = library(None);
    let ran = lib.run(&["--json", "get", "3", "404", "4", "1", "--allow", "agent"]);
    // The others are shown; the exit status says some were not.
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    let answer = ran.json();
    assert_eq!(item_ids(&answer), [3, 1]);
    // A forbidden item is reported exactly as a missing one.
    assert_eq!(answer["missing"], json!([404, 4]));
    assert_eq!(
        ran.stderr.trim(),
        format!(
            "recall: warning: no item 404, 4 in {} (or none you may read)",
            lib.db.display()
        )
    );
    // Text: the items one after another, each under a rule naming it.
    let text = lib.run(&["get", "3", "404", "1"]);
    assert_eq!(text.code, 1);
    let rules: Vec<&str> = text
        .stdout
        .lines()
        .filter(|l| l.starts_with("--- item"))
        .collect();
    assert_eq!(
        rules,
        ["--- item 3 (1 of 2) ---", "--- item 1 (2 of 2) ---"]
    );
    assert!(text
        .stdout
        .contains("[3] 2025-01-03T00:00:00Z title 3 (p, agent)"));
    assert!(
        text.stdout.contains("summary:\n  summary 1"),
        "{}",
        text.stdout
    );
    // One id stays as it was: one item, or an error.
    lib.run(&["get", "404"]).fails_with("no item 404");
    lib.run(&["get", "4", "--allow", "agent"])
        .fails_with("no item 4");
    let one = lib.json(&["get", "3"]);
    assert_eq!(one["item"]["id"], 3);
    assert!(one.get("items").is_none());
    // More than a listing's worth is refused, reading nothing.
    let many: Vec<String> = (1..=51).map(|i| i.to_string()).collect();
    let mut args = vec!["get"];
    args.extend(many.iter().map(String::as_str));
    lib.run(&args)
        .fails_with("51 ids in one get, more than the 50 allowed");
}

#[test]
fn the_file_takes_ids_in_the_shell() {
    let lib = library(Some("unicode61 remove_diacritics 2"));
    let script = format!(
        ".load {}\n.mode list\n.parameter set :ids \"'[6, 404, 1, 4, 6]'\"\n.parameter set :sources \"'[\\\"agent\\\"]'\"\n.read {}\n",
        extension_path().display(),
        root().join("sql/get.sql").display()
    );
    let out = shell_ok(&[lib.db.as_os_str()], &script);
    let firsts: Vec<&str> = out.lines().map(|l| l.split('|').next().unwrap()).collect();
    assert_eq!(firsts, ["6", "1"], "{out}");
    // :id alone, as before.
    let script = format!(
        ".load {}\n.mode list\n.parameter set :id 2\n.read {}\n",
        extension_path().display(),
        root().join("sql/get.sql").display()
    );
    let out = shell_ok(&[lib.db.as_os_str()], &script);
    assert!(out.starts_with("2|agent|p|title 2|"), "{out}");
}

#[test]
fn the_mcp_tool_takes_ids() {
    let lib = library(None);
    let mut server = Server::start(&lib, &["--allow", "agent"]);
    let got = server
        .tool("get", json!({"ids": [5, 4, 404, 2], "transcript": true}))
        .expect("get ids");
    let cli = lib
        .run(&[
            "--json",
            "get",
            "5",
            "4",
            "404",
            "2",
            "--transcript",
            "--allow",
            "agent",
        ])
        .json();
    assert_eq!(got, cli);
    assert_eq!(item_ids(&got), [5, 2]);
    assert_eq!(got["missing"], json!([4, 404]));
    // One id as before; an unknown one alone is an error, as the command's.
    assert_eq!(
        server.tool("get", json!({"id": 5})).unwrap(),
        lib.json(&["get", "5"])
    );
    assert!(server
        .tool("get", json!({"id": 404}))
        .unwrap_err()
        .contains("no item 404"));
    for (arguments, message) in [
        (
            json!({}),
            "id is missing: give id (one item) or ids (several)",
        ),
        (
            json!({"id": 1, "ids": [2]}),
            "give id (one item) or ids (several), not both",
        ),
        (json!({"ids": []}), "ids is empty"),
        (json!({"ids": ["1"]}), "ids must be an integer"),
    ] {
        let refused = server.tool("get", arguments.clone()).unwrap_err();
        assert!(refused.contains(message), "{arguments}: {refused}");
    }
    let (code, stderr) = server.finish();
    assert_eq!(code, 0, "{stderr}");
}
