//! Each MCP tool takes exactly its command's options: a flag added to a command without
//! its tool's argument (or an argument without its flag) fails here, unless it is one of
//! the exceptions below, each with its reason.
use std::collections::BTreeSet;

use clap::CommandFactory;
use serde_json::json;

use recall_cli::args::Cli;
use recall_cli::item::FIELDS;

use crate::common::cli::TempLib;
use crate::common::mcp::Server;

/// (tool, option or field, why the tool does not take it); `*` is every tool whose
/// command has the option. The global options (`--db`, `--config`, `--json`, …) are the
/// server's command line's, and no command's own.
const NOT_TAKEN: &[(&str, &str, &str)] = &[
    (
        "*",
        "allow",
        "the server's access globs bind every tool: a client cannot widen them",
    ),
    (
        "*",
        "show_sql",
        "a shell replay is for a person at a shell; `explain` carries it as `sql`",
    ),
    (
        "search",
        "judge_cmd",
        "the server's configuration chooses the judge",
    ),
    (
        "search",
        "context_column_weight",
        "the server's configuration weighs the neighbours' titles in the index",
    ),
    (
        "search",
        "no_judge",
        "the server's configuration chooses the judge",
    ),
    (
        "search",
        "embed_cmd",
        "the server's configuration chooses the embedder",
    ),
    (
        "search",
        "no_vectors",
        "the server's configuration chooses the embedder",
    ),
    (
        "search",
        "fusion",
        "the server's configuration chooses the fusion, with the embedder",
    ),
    (
        "related",
        "rule",
        "the server's configuration chooses the rule",
    ),
    (
        "related",
        "min_weight",
        "the server's configuration chooses the rule",
    ),
    (
        "related",
        "min_joint_weight",
        "the server's configuration chooses the rule",
    ),
    (
        "related",
        "sample",
        "the server's configuration chooses how the rule counts",
    ),
    (
        "add",
        "embedding",
        "a model holds no vector of the library's embedder; `recall embed` gives one",
    ),
    (
        "forget",
        "finish",
        "each write of the server finishes a wipe left pending",
    ),
];

/// (tool, argument, why the tool takes it though its command has no such option).
const ALSO_TAKEN: &[(&str, &str, &str)] = &[(
    "get",
    "ids",
    "the command's ID… as a list, beside id: one id answers one item or an error, ids a list \
     with the missing ones named",
)];

/// The tools' input properties, as a client lists them.
fn listed() -> Vec<(String, BTreeSet<String>)> {
    let lib = TempLib::init(None);
    let mut server = Server::start(&lib, &["--allow-writes"]);
    server.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let listed = server.answer(&json!(1));
    let tools = listed["result"]["tools"].as_array().expect("tools").clone();
    let (code, stderr) = server.finish();
    assert_eq!(code, 0, "{stderr}");
    tools
        .iter()
        .map(|tool| {
            let properties = tool["inputSchema"]["properties"]
                .as_object()
                .expect("properties")
                .keys()
                .cloned()
                .collect();
            (tool["name"].as_str().expect("name").to_string(), properties)
        })
        .collect()
}

/// A command's options and positionals, named as a tool's arguments are (`half_life` is
/// `--half-life`).
fn options(command: &str) -> BTreeSet<String> {
    let cli = Cli::command();
    let sub = cli
        .find_subcommand(command)
        .unwrap_or_else(|| panic!("no command {command}"));
    sub.get_arguments()
        .map(|arg| match arg.get_long() {
            Some(long) => long.replace('-', "_"),
            None => arg.get_id().to_string(),
        })
        .collect()
}

/// What the tool should take: its command's options (for add, the item's fields), less
/// the exceptions.
fn expected(tool: &str) -> BTreeSet<String> {
    let mut all: BTreeSet<String> = match tool {
        "add" => FIELDS.iter().map(|f| f.to_string()).collect(),
        command => options(command),
    };
    for (_, name, _) in ALSO_TAKEN.iter().filter(|(t, _, _)| *t == tool) {
        assert!(
            all.insert(name.to_string()),
            "{tool}: {name} is its command's own option, no exception"
        );
    }
    let left_out = |name: &str| {
        NOT_TAKEN
            .iter()
            .any(|(t, n, _)| *n == name && (*t == tool || *t == "*"))
    };
    for (_, name, _) in NOT_TAKEN.iter().filter(|(t, _, _)| *t == tool) {
        assert!(
            all.contains(*name),
            "{tool}: the exception {name} names nothing its command has"
        );
    }
    all.into_iter().filter(|name| !left_out(name)).collect()
}

#[test]
fn each_tool_takes_its_commands_options() {
    let tools = listed();
    let names: Vec<&str> = tools.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        ["search", "later", "related", "timeline", "get", "add", "forget"]
    );
    let mut wrong = Vec::new();
    for (tool, properties) in &tools {
        let expected = expected(tool);
        let missing: Vec<&String> = expected.difference(properties).collect();
        let extra: Vec<&String> = properties.difference(&expected).collect();
        if !missing.is_empty() || !extra.is_empty() {
            wrong.push(format!(
                "{tool}: the tool lacks {missing:?}, and has {extra:?} that its command does not"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{}\n(an option needs its tool's argument, in cli/src/serve/tools.rs, or a reason in \
         NOT_TAKEN)",
        wrong.join("\n")
    );
}
