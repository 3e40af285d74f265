//! Kinds (decision, bugfix, …) and global items: through import, `add` and the MCP `add`
//! tool; shown in every listing; `--kind` on search, timeline, later and related; global
//! items under a project filter and under `--allow`; `promote` and `demote`; `--scope
//! all`; and the migration of a library at the schema before them.
use serde_json::{json, Value};

use crate::common::cli::{ids, TempLib};
use crate::common::damage::assert_clean;
use crate::common::mcp::Server;
use crate::common::{extension_path, latest_version, root, shell_ok};

const NOW: &str = "2025-06-01T00:00:00Z";

/// (source, project, title, time, kind, global) of the fixtures, ids 1, 2, … in order.
#[allow(clippy::type_complexity)]
const ITEMS: [(&str, Option<&str>, &str, &str, Option<&str>, bool); 8] = [
    (
        "agent",
        Some("shop"),
        "Decide to drop the analytics script",
        "2025-01-01",
        Some("decision"),
        false,
    ),
    (
        "agent",
        Some("shop"),
        "Fix the analytics script loading twice",
        "2025-01-02",
        Some("bugfix"),
        false,
    ),
    (
        "agent",
        Some("api"),
        "Use bun, not npm, for every script",
        "2025-01-03",
        Some("decision"),
        true,
    ),
    (
        "human",
        Some("api"),
        "Analytics script gotcha: consent banner order",
        "2025-01-04",
        Some("gotcha"),
        false,
    ),
    (
        "secret",
        Some("infra"),
        "Analytics script secret rule everywhere",
        "2025-01-05",
        Some("decision"),
        true,
    ),
    (
        "agent",
        Some("shop"),
        "Analytics script notes",
        "2025-01-06",
        None,
        false,
    ),
    (
        "agent",
        None,
        "Global analytics script checklist",
        "2025-01-07",
        Some("note"),
        true,
    ),
    (
        "agent",
        Some("shop"),
        "Decide again: keep the analytics script",
        "2025-01-08",
        Some("decision"),
        false,
    ),
];

fn lines() -> String {
    ITEMS
        .iter()
        .map(|(source, project, title, at, kind, global)| {
            let mut v = json!({"source": source, "project": project, "title": title,
                               "summary": "the analytics script of the shop", "occurred_at": at});
            if let Some(k) = kind {
                v["kind"] = json!(k);
            }
            if *global {
                v["global"] = json!(true);
            }
            v.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn library(tokenizer: Option<&str>) -> TempLib {
    let lib = TempLib::init(tokenizer);
    lib.import(&lines()).ok();
    lib
}

/// The fixtures' ids that pass a filter, sorted.
fn where_(
    keep: impl Fn(&(&str, Option<&str>, &str, &str, Option<&str>, bool)) -> bool,
) -> Vec<i64> {
    ITEMS
        .iter()
        .enumerate()
        .filter(|(_, item)| keep(item))
        .map(|(i, _)| i as i64 + 1)
        .collect()
}

fn sorted(mut v: Vec<i64>) -> Vec<i64> {
    v.sort_unstable();
    v
}

#[test]
fn kinds_and_marks_are_stored_and_shown() {
    let lib = library(None);
    let stored: Vec<(Option<String>, i64)> = {
        let conn = lib.conn();
        let mut stmt = conn
            .prepare("select kind, global from items order by id")
            .unwrap();
        let rows = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        rows
    };
    let want: Vec<(Option<String>, i64)> = ITEMS
        .iter()
        .map(|i| (i.4.map(str::to_string), i64::from(i.5)))
        .collect();
    assert_eq!(stored, want);
    // Every listing and get show them.
    let get = lib.json(&["get", "3"]);
    assert_eq!(
        (&get["item"]["kind"], &get["item"]["global"]),
        (&json!("decision"), &json!(true))
    );
    let timeline = lib.json(&["timeline"]);
    for row in timeline["results"].as_array().unwrap() {
        let i = ITEMS[row["id"].as_u64().unwrap() as usize - 1];
        assert_eq!(row["kind"], json!(i.4), "{row}");
        assert_eq!(row["global"], json!(i.5), "{row}");
    }
    for args in [
        vec!["search", "analytics script", "--now", NOW],
        vec!["later", "1"],
        vec![
            "related",
            "the analytics script consent banner order again",
            "--now",
            NOW,
        ],
    ] {
        let answer = lib.json(&args);
        assert!(!ids(&answer).is_empty(), "{args:?}");
        for row in answer["results"].as_array().unwrap() {
            let i = ITEMS[row["id"].as_u64().unwrap() as usize - 1];
            assert_eq!(
                (&row["kind"], &row["global"]),
                (&json!(i.4), &json!(i.5)),
                "{args:?}"
            );
        }
    }
    let text = lib.run(&["timeline", "--project", "api"]).ok().stdout;
    assert!(
        text.contains(
            "[3] 2025-01-03 Use bun, not npm, for every script (api, agent; decision, global)"
        ),
        "{text}"
    );
    assert!(text.contains("(api, human; gotcha)"), "{text}");
}

#[test]
fn kind_filters_on_every_query() {
    let lib = library(None);
    let decisions = where_(|i| i.4 == Some("decision"));
    assert_eq!(
        sorted(ids(&lib.json(&["timeline", "--kind", "decision"]))),
        decisions
    );
    let two = where_(|i| matches!(i.4, Some("decision" | "gotcha")));
    assert_eq!(
        sorted(ids(
            &lib.json(&["timeline", "--kind", "decision", "--kind", "gotcha"])
        )),
        two
    );
    // Search: the filtered answer is the unfiltered one's items of that kind, and every
    // such item the words match.
    let all = ids(&lib.json(&["search", "analytics script", "--now", NOW, "--limit", "50"]));
    let only = ids(&lib.json(&[
        "search",
        "analytics script",
        "--now",
        NOW,
        "--limit",
        "50",
        "--kind",
        "decision",
    ]));
    let want: Vec<i64> = all
        .iter()
        .copied()
        .filter(|id| decisions.contains(id))
        .collect();
    assert_eq!(only, want);
    assert_eq!(sorted(only), decisions);
    // Later: newer items on the subject, of that kind only (was the decision reversed?).
    let later = ids(&lib.json(&["later", "1", "--kind", "decision"]));
    assert!(later.contains(&8), "{later:?}");
    assert!(later.iter().all(|id| decisions.contains(id)), "{later:?}");
    let related = lib.json(&[
        "related",
        "the analytics script consent banner order again",
        "--now",
        NOW,
        "--kind",
        "gotcha",
    ]);
    assert!(ids(&related).iter().all(|id| *id == 4), "{related}");
    assert_eq!(related["settings"]["kind"], json!(["gotcha"]));
    // An unknown kind is named, with the known ones.
    lib.run(&["search", "x", "--kind", "desicion"])
        .fails_with("--kind \"desicion\" is not a known kind (known: decision, bugfix, feature, discovery, gotcha, note)");
}

#[test]
fn kinds_through_import_add_and_the_configuration() {
    let lib = TempLib::init(None);
    let added = lib
        .run(&[
            "add",
            "--source",
            "me",
            "--title",
            "Pin pg to 16",
            "--kind",
            "decision",
            "--global",
        ])
        .ok();
    let id = added.stdout.trim().to_string();
    let item = lib.json(&["get", &id])["item"].clone();
    assert_eq!(
        (&item["kind"], &item["global"]),
        (&json!("decision"), &json!(true))
    );
    let piped = lib
        .run_stdin(
            &["--json", "add", "-"],
            r#"{"source": "me", "title": "t", "occurred_at": "2025-01-01", "kind": "gotcha"}"#,
        )
        .ok()
        .json();
    let item = lib.json(&["get", &piped["id"].to_string()])["item"].clone();
    assert_eq!(
        (&item["kind"], &item["global"]),
        (&json!("gotcha"), &json!(false))
    );
    // Refusals: one line, nothing written.
    let before = lib.snapshot();
    lib.run(&[
        "add", "--source", "me", "--title", "t", "--kind", "incident",
    ])
    .fails_with("--kind \"incident\" is not a known kind");
    lib.run(&[
        "add",
        "--source",
        "me",
        "--title",
        "t",
        "--kind",
        "Big Decision",
    ])
    .fails_with("--kind \"Big Decision\" is not a kind");
    lib.import("{\"source\": \"me\", \"title\": \"a\", \"occurred_at\": \"2025-01-01\"}\n{\"source\": \"me\", \"title\": \"b\", \"occurred_at\": \"2025-01-01\", \"kind\": \"incident\"}")
        .fails_with("line 2: kind \"incident\" is not a known kind");
    lib.import("{\"source\": \"me\", \"title\": \"a\", \"occurred_at\": \"2025-01-01\", \"global\": \"yes\"}")
        .fails_with("line 1: global must be true or false, got a string");
    lib.import(
        "{\"source\": \"me\", \"title\": \"a\", \"occurred_at\": \"2025-01-01\", \"kind\": 3}",
    )
    .fails_with("line 1: kind must be a string or null, got a number");
    assert_eq!(lib.snapshot(), before);
    // The configuration adds kinds.
    let config = lib.path("kinds.toml");
    std::fs::write(&config, "[kinds]\nextra = [\"incident\", \"runbook\"]\n").unwrap();
    let config = config.to_str().unwrap();
    lib.run(&[
        "--config", config, "add", "--source", "me", "--title", "outage", "--kind", "incident",
    ])
    .ok();
    assert_eq!(
        ids(&lib.json(&["--config", config, "timeline", "--kind", "incident"])).len(),
        1
    );
    std::fs::write(lib.path("bad.toml"), "[kinds]\nextra = [\"Not A Kind\"]\n").unwrap();
    lib.run(&[
        "--config",
        lib.path("bad.toml").to_str().unwrap(),
        "timeline",
    ])
    .fails_with("kinds.extra \"Not A Kind\" is not a kind");
    // A replaced item takes the line's marks: without them it has none.
    let line = format!("{{\"id\": {id}, \"source\": \"me\", \"title\": \"Pin pg to 17\", \"occurred_at\": \"2025-01-01\"}}");
    lib.import(&line).ok();
    let item = lib.json(&["get", &id])["item"].clone();
    assert_eq!(
        (&item["kind"], &item["global"]),
        (&json!(null), &json!(false))
    );
}

#[test]
fn global_items_under_a_project_filter() {
    let lib = library(None);
    // Timeline: the project's items and every global one.
    let shop = sorted(ids(&lib.json(&["timeline", "--project", "shop"])));
    assert_eq!(shop, where_(|i| i.1 == Some("shop") || i.5));
    // Under --allow, a global item of a forbidden source stays hidden.
    let allowed = sorted(ids(&lib.json(&[
        "timeline",
        "--project",
        "shop",
        "--allow",
        "agent",
    ])));
    assert_eq!(
        allowed,
        where_(|i| (i.1 == Some("shop") || i.5) && i.0 == "agent")
    );
    // Search: the same set among the items the words match.
    for tokenizer_lib in [&lib, &library(Some("unicode61 remove_diacritics 2"))] {
        let found = sorted(ids(&tokenizer_lib.json(&[
            "search",
            "analytics script",
            "--project",
            "shop",
            "--now",
            NOW,
            "--limit",
            "50",
        ])));
        assert_eq!(found, where_(|i| i.1 == Some("shop") || i.5));
        let allowed = sorted(ids(&tokenizer_lib.json(&[
            "search",
            "analytics script",
            "--project",
            "shop",
            "--now",
            NOW,
            "--limit",
            "50",
            "--allow",
            "agent",
        ])));
        assert_eq!(
            allowed,
            where_(|i| (i.1 == Some("shop") || i.5) && i.0 == "agent")
        );
    }
    // --scope all drops the project filter.
    let everywhere = sorted(ids(&lib.json(&[
        "search",
        "analytics script",
        "--project",
        "shop",
        "--scope",
        "all",
        "--now",
        NOW,
        "--limit",
        "50",
    ])));
    assert_eq!(everywhere, where_(|_| true));
    let timeline_all = lib.json(&["timeline", "--project", "shop", "--scope", "all"]);
    assert_eq!(sorted(ids(&timeline_all)), where_(|_| true));
    assert_eq!(timeline_all["settings"]["filters"], json!({"scope": "all"}));
    // Related (the session start): a global rule of another project comes along.
    let related = lib.json(&[
        "related",
        "which package manager for every script: bun or npm",
        "--project",
        "shop",
        "--now",
        NOW,
        "--rule",
        "jezero",
    ]);
    assert!(ids(&related).contains(&3), "{related}");
    let own = lib.json(&[
        "related",
        "which package manager for every script: bun or npm",
        "--project",
        "infra",
        "--now",
        NOW,
        "--rule",
        "jezero",
        "--allow",
        "human",
    ]);
    assert!(!ids(&own).contains(&3), "{own}");
}

#[test]
fn promote_and_demote() {
    let lib = library(None);
    let in_shop = |lib: &TempLib| sorted(ids(&lib.json(&["timeline", "--project", "shop"])));
    assert!(!in_shop(&lib).contains(&4));
    let promoted = lib.run(&["--json", "promote", "4"]).ok().json();
    assert_eq!(
        promoted,
        json!({"command": "promote", "ids": [4], "global": true, "missing": []})
    );
    assert!(in_shop(&lib).contains(&4));
    // The index is not touched: still found by its words, and check is clean.
    assert_eq!(
        lib.count("select count(*) from items_fts where items_fts match 'consent'"),
        1
    );
    assert_clean(&lib);
    lib.run(&["demote", "4", "3"]).ok();
    let shop = in_shop(&lib);
    assert!(!shop.contains(&4) && !shop.contains(&3), "{shop:?}");
    // A forbidden or missing id is reported and left alone; the others are marked.
    let ran = lib.run(&["--json", "promote", "5", "404", "6", "--allow", "agent"]);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert_eq!(ran.json()["missing"], json!([5, 404]));
    assert_eq!(lib.count("select global from items where id = 6"), 1);
    assert!(ran.stderr.contains("no item 5, 404"), "{}", ran.stderr);
    let text = lib.run(&["demote", "6"]).ok().stdout;
    assert_eq!(text.trim(), "6 of their own project only");
}

#[test]
fn the_mcp_tools_take_kinds_marks_and_scope() {
    let lib = library(None);
    let mut server = Server::start(&lib, &["--allow-writes"]);
    let added = server
        .tool(
            "add",
            json!({"source": "agent", "project": "web", "title": "Always run lint before a commit",
                   "occurred_at": "2025-02-01", "kind": "gotcha", "global": true}),
        )
        .expect("add");
    let id = added["id"].as_i64().unwrap();
    let got = server.tool("get", json!({"id": id})).unwrap();
    assert_eq!(
        (&got["item"]["kind"], &got["item"]["global"]),
        (&json!("gotcha"), &json!(true))
    );
    let refused = server
        .tool("add", json!({"source": "agent", "title": "t", "occurred_at": "2025-02-01", "kind": "incident"}))
        .unwrap_err();
    assert!(
        refused.contains("kind \"incident\" is not a known kind"),
        "{refused}"
    );
    for (tool, arguments, argv) in [
        (
            "timeline",
            json!({"project": "shop", "kind": ["decision", "gotcha"]}),
            vec![
                "timeline",
                "--project",
                "shop",
                "--kind",
                "decision",
                "--kind",
                "gotcha",
            ],
        ),
        (
            "timeline",
            json!({"project": "shop", "scope": "all"}),
            vec!["timeline", "--project", "shop", "--scope", "all"],
        ),
        (
            "timeline",
            json!({"around": 2, "before": 1, "after": 2, "kind": ["decision"]}),
            vec![
                "timeline", "--around", "2", "--before", "1", "--after", "2", "--kind", "decision",
            ],
        ),
        (
            "search",
            json!({"query": "analytics script", "project": "shop", "kind": ["decision"], "now": NOW}),
            vec![
                "search",
                "analytics script",
                "--project",
                "shop",
                "--kind",
                "decision",
                "--now",
                NOW,
            ],
        ),
        (
            "later",
            json!({"id": 1, "kind": ["decision"]}),
            vec!["later", "1", "--kind", "decision"],
        ),
        (
            "related",
            json!({"prompt": "which package manager for every script: bun or npm", "project": "shop", "now": NOW, "kind": ["decision"]}),
            vec![
                "related",
                "which package manager for every script: bun or npm",
                "--project",
                "shop",
                "--now",
                NOW,
                "--kind",
                "decision",
            ],
        ),
    ] {
        let got = server.tool(tool, arguments.clone()).expect(tool);
        assert_eq!(got, lib.json(&argv), "{tool} {arguments}");
    }
    let around_refused = server
        .tool("timeline", json!({"around": 2, "project": "shop"}))
        .unwrap_err();
    assert!(
        around_refused.contains("around cannot be given with project"),
        "{around_refused}"
    );
    let bad_scope = server
        .tool("search", json!({"query": "x", "scope": "everywhere"}))
        .unwrap_err();
    assert_eq!(
        bad_scope,
        "scope must be project or all, got \"everywhere\""
    );
    let (code, stderr) = server.finish();
    assert_eq!(code, 0, "{stderr}");
}

/// A library made at the schema before kinds (what today's main makes) moves to them
/// with `recall migrate`: its items and ids kept, without kind and not global, `check`
/// clean, and the new fields work at once.
#[test]
fn a_library_of_the_schema_before_migrates() {
    let before = latest_version() - 1;
    let lib = TempLib::init_at_version(before as u32);
    lib.import_at_v1(
        &[
            json!({"source": "a", "project": "shop", "title": "old one", "occurred_at": "2024-01-01T00:00:00Z"}),
            json!({"source": "a", "project": "api", "title": "old two", "occurred_at": "2024-01-02T00:00:00Z"}),
        ]
        .iter()
        .map(Value::to_string)
        .collect::<Vec<_>>()
        .join("\n"),
    );
    // Reads of the older schema are refused until it is migrated, naming the fix.
    lib.run(&["timeline"]).fails_with("recall migrate");
    lib.run(&["migrate"]).ok();
    assert_eq!(lib.count("pragma user_version"), latest_version());
    assert_clean(&lib);
    let rows = lib.json(&["timeline"]);
    assert_eq!(ids(&rows), [2, 1]);
    for row in rows["results"].as_array().unwrap() {
        assert_eq!(
            (&row["kind"], &row["global"]),
            (&json!(null), &json!(false))
        );
    }
    lib.run(&["promote", "2"]).ok();
    assert_eq!(
        sorted(ids(&lib.json(&["timeline", "--project", "shop"]))),
        [1, 2]
    );
    lib.run(&["add", "--source", "a", "--title", "new", "--kind", "note"])
        .ok();
    assert_eq!(ids(&lib.json(&["timeline", "--kind", "note"])), [3]);
    assert_clean(&lib);
}

/// The query files take kinds and let global items through in the sqlite3 shell as the
/// CLI does.
#[test]
fn the_files_run_in_the_shell() {
    let tokenizer = "unicode61 remove_diacritics 2";
    let lib = library(Some(tokenizer));
    let run = |file: &str, params: &[(&str, &str)]| -> Vec<i64> {
        let mut script = format!(".load {}\n.mode list\n", extension_path().display());
        for (k, v) in params {
            // The shell reads backslash escapes inside double quotes.
            let v = v.replace('"', "\\\"");
            script.push_str(&format!(".parameter set {k} \"'{v}'\"\n"));
        }
        script.push_str(&format!(
            ".read {}\n",
            root().join("sql").join(file).display()
        ));
        shell_ok(&[lib.db.as_os_str()], &script)
            .lines()
            .map(|l| l.split('|').next().unwrap().parse().expect("id"))
            .collect()
    };
    assert_eq!(
        run(
            "timeline.sql",
            &[(":project", "shop"), (":kinds", "[\"decision\"]")]
        ),
        ids(&lib.json(&["timeline", "--project", "shop", "--kind", "decision"]))
    );
    assert_eq!(
        run(
            "search.sql",
            &[
                (":query", "analytics script"),
                (":project", "shop"),
                (":tokenizer", tokenizer),
                (":now", NOW)
            ]
        ),
        ids(&lib.json(&[
            "search",
            "analytics script",
            "--project",
            "shop",
            "--now",
            NOW
        ]))
    );
    assert_eq!(
        run(
            "later.sql",
            &[
                (":item_id", "1"),
                (":tokenizer", tokenizer),
                (":kinds", "[\"decision\"]")
            ]
        ),
        ids(&lib.json(&["later", "1", "--kind", "decision"]))
    );
}

/// The prompt hook's list (a session's start) includes a global rule of another project
/// under its project, marked so.
#[test]
fn the_hook_marks_global_items() {
    let lib = library(None);
    let prompt = json!({"prompt": "which package manager for every script: bun or npm?",
                        "hook_event_name": "UserPromptSubmit"})
    .to_string();
    let out = lib
        .run_stdin(&["hook", "--project", "shop", "--rule", "jezero"], &prompt)
        .ok()
        .stdout;
    assert!(
        out.contains(
            "- [3] 2025-01-03 Use bun, not npm, for every script (project api, decision, global)"
        ),
        "{out}"
    );
}

/// `recall eval` cases may filter by kind, as `--kind` does: a case's answer is the
/// search's with that filter.
#[test]
fn eval_cases_filter_by_kind() {
    let lib = library(None);
    let decisions = where_(|i| i.4 == Some("decision"));
    let bugfix = where_(|i| i.4 == Some("bugfix"));
    let file = lib.path("cases.jsonl");
    let cases = [
        json!({"id": "kind", "query": "analytics script", "kind": "decision", "now": NOW,
               "expect": decisions, "must_not": bugfix}),
        json!({"id": "kinds", "query": "analytics script", "kind": ["bugfix", "gotcha"], "now": NOW,
               "expect": [2, 4], "must_not": decisions}),
        json!({"id": "any", "query": "analytics script", "now": NOW, "must_not": bugfix}),
    ];
    let text: Vec<String> = cases.iter().map(Value::to_string).collect();
    std::fs::write(&file, text.join("\n")).unwrap();
    let out = lib.json(&["eval", file.to_str().unwrap()]);
    let summary = &out["variants"][0]["summary"];
    assert_eq!(summary["recall_at_10"], json!(1.0), "{out}");
    // Only the case without a kind shows the bugfix.
    assert_eq!(summary["must_not_violations"], json!(1), "{out}");
    std::fs::write(
        &file,
        json!({"query": "x", "kind": "Big", "expect": []}).to_string(),
    )
    .unwrap();
    lib.run(&["eval", file.to_str().unwrap()])
        .fails_with("line 1: kind \"Big\" is not a kind");
}
