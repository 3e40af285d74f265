//! `recall hook` at a session's first prompt: it prints the items `recall related` finds for
//! the prompt of the hook's JSON, nothing when none is related, and never fails the prompt
//! (any problem: one line on stderr, exit 0). A session's life: tests/hook_sessions.rs.
use serde_json::{json, Value};

use std::process::Command;

use crate::common::cli::{ids, recall_bin, Ran, TempLib};
use crate::common::{pipe, root};

fn sample() -> TempLib {
    let lib = TempLib::init(None);
    let sample = root().join("examples/sample.jsonl");
    lib.run(&["import", sample.to_str().unwrap()]).ok();
    lib
}

/// The JSON Claude Code's UserPromptSubmit hook sends, for the first prompt of a new
/// session each time (later prompts are answered by nothing: tests/hook_sessions.rs),
/// from a folder of no project (`/tmp`), where the first prompt looks in every project.
fn hook_input(prompt: &str) -> String {
    hook_input_in(prompt, "/tmp")
}

/// The same, from the working folder `cwd`.
fn hook_input_in(prompt: &str, cwd: &str) -> String {
    static SESSIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = SESSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    json!({
        "session_id": format!("5f1c-{n}"), "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
        "hook_event_name": "UserPromptSubmit", "prompt": prompt,
    })
    .to_string()
}

fn hook(lib: &TempLib, args: &[&str], input: &str) -> Ran {
    let mut full = vec!["hook"];
    full.extend_from_slice(args);
    lib.run_stdin(&full, input)
}

/// The ids of the hook's item lines (`- [ID] …`), after its heading.
fn listed(out: &Ran) -> Vec<i64> {
    let (inner, after) = crate::common::memory_block(&out.stdout);
    assert_eq!(after, "", "nothing after the block");
    let mut lines = inner.iter().map(String::as_str);
    let heading = lines.next().unwrap_or("");
    assert!(
        heading.starts_with("Earlier items from the recall memory")
            && heading.ends_with(" get ID` shows one in full):"),
        "{heading}"
    );
    lines
        .map(|l| {
            l.strip_prefix("- [")
                .and_then(|rest| rest.split_once(']'))
                .and_then(|(id, _)| id.parse().ok())
                .unwrap_or_else(|| panic!("not an item line: {l:?}"))
        })
        .collect()
}

/// Asserts the hook said nothing on stdout, one `recall: hook:` line on stderr naming
/// `needle`, and exit 0.
fn quiet_problem(out: &Ran, needle: &str) {
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{out:?}");
    assert!(
        lines[0].starts_with("recall: hook: ") && lines[0].contains(needle),
        "{:?} lacks {needle:?}",
        lines[0]
    );
}

#[test]
fn related_items_are_printed_as_related_finds_them() {
    let lib = sample();
    for (prompt, project) in [
        ("the importer fails with database is locked again", None),
        ("When did we decide to remove the analytics script?", None),
        ("ECONNREFUSED on port 5432 when the api starts", None),
        (
            "the importer fails with database is locked again",
            Some("api"),
        ),
    ] {
        let mut args = vec![];
        if let Some(p) = project {
            args.extend(["--project", p]);
        }
        let out = hook(&lib, &args, &hook_input(prompt));
        assert_eq!(out.code, 0, "{out:?}");
        assert!(out.stderr.is_empty(), "{}", out.stderr);
        let mut related_args = vec!["related", prompt];
        related_args.extend(&args);
        let expected = lib.json(&related_args);
        let expected_ids = ids(&expected);
        assert!(
            !expected_ids.is_empty(),
            "{prompt}: related finds something"
        );
        assert_eq!(listed(&out), expected_ids, "{prompt} {project:?}");
        // Each line: id, date, title and project of the item.
        let (inner, _) = crate::common::memory_block(&out.stdout);
        for (line, row) in inner
            .iter()
            .skip(1)
            .zip(expected["results"].as_array().unwrap())
        {
            let date = &row["date"].as_str().unwrap()[..10];
            let mut want = format!(
                "- [{}] {date} {}",
                row["id"],
                row["title"].as_str().unwrap()
            );
            if let Some(p) = row["project"].as_str() {
                want.push_str(&format!(" (project {p})"));
            }
            assert_eq!(*line, want);
        }
    }
}

#[test]
fn unrelated_and_one_word_prompts_print_nothing() {
    let lib = sample();
    for prompt in ["zebra xylophone quandary", "analytics", "", "the and of"] {
        assert_eq!(ids(&lib.json(&["related", prompt])), Vec::<i64>::new());
        let out = hook(&lib, &[], &hook_input(prompt));
        assert_eq!(out.code, 0, "{out:?}");
        assert!(out.stdout.is_empty(), "{prompt:?}: {}", out.stdout);
        assert!(out.stderr.is_empty(), "{prompt:?}: {}", out.stderr);
    }
}

#[test]
fn problems_never_fail_the_prompt() {
    let lib = sample();
    quiet_problem(&hook(&lib, &[], "not json"), "not the hook's JSON");
    quiet_problem(&hook(&lib, &[], ""), "not the hook's JSON");
    quiet_problem(
        &hook(&lib, &[], "{\"session_id\": \"x\"}"),
        "no \"prompt\" field",
    );
    quiet_problem(&hook(&lib, &[], "{\"prompt\": 42}"), "not text");
    quiet_problem(&hook(&lib, &[], "[1, 2]"), "no \"prompt\" field");
    let input = hook_input("the importer fails with database is locked again");
    // Usage errors in the agent's settings.
    quiet_problem(&hook(&lib, &["--bogus"], &input), "--bogus");
    quiet_problem(&hook(&lib, &["--allow", "[!x]"], &input), "[!");
    // A missing library, or none named.
    quiet_problem(&hook(&TempLib::new(), &[], &input), "no library at");
    let out = pipe(
        Command::new(recall_bin())
            .arg("hook")
            .env_remove("RECALL_DB")
            .env_remove("RECALL_CONFIG"),
        &input,
    );
    let out = Ran {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    quiet_problem(&out, "no library given");
    // An unreadable or invalid configuration, a tokenizer that is not the library's.
    let bad = lib.path("bad.toml");
    std::fs::write(&bad, "[search]\nrecency_weight = 7\n").unwrap();
    let bad = bad.to_str().unwrap();
    quiet_problem(
        &lib.run_stdin(&["--config", bad, "hook"], &input),
        "recency_weight",
    );
    quiet_problem(
        &lib.run_stdin(&["--config", "/nonexistent/recall.toml", "hook"], &input),
        "/nonexistent/recall.toml",
    );
    quiet_problem(
        &lib.run_stdin(&["--tokenizer", "unicode61", "hook"], &input),
        "differs from the library's",
    );
    // The same session's prompt, once the library is there, is its first and gets its
    // items: the failed ones did not count.
    assert!(!listed(&hook(&lib, &[], &input)).is_empty());
    assert_eq!(hook(&lib, &[], &input).stdout, "");
}

#[test]
fn a_huge_prompt_is_answered_like_related() {
    let lib = sample();
    // 2 MB of pasted log around the words that matter.
    let prompt = format!(
        "{} the importer fails with database is locked again {}",
        "lorem ipsum dolor sit amet ".repeat(40_000),
        "0123456789abcdef\n".repeat(60_000)
    );
    assert!(prompt.len() > 2_000_000);
    let out = hook(&lib, &[], &hook_input(&prompt));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    let expected = lib
        .run_stdin(&["--json", "related", "-"], &prompt)
        .ok()
        .json();
    assert_eq!(listed(&out), ids(&expected));
}

#[test]
fn json_lists_the_results() {
    let lib = sample();
    let prompt = "the importer fails with database is locked again";
    let out = lib
        .run_stdin(&["--json", "hook"], &hook_input(prompt))
        .ok()
        .json();
    assert_eq!(out["command"], "hook");
    let expected: Value = lib.json(&["related", prompt]);
    assert_eq!(ids(&out), ids(&expected));
}

/// The hook judges by the rule of `recall related`: the configuration's, or its flags'.
#[test]
fn the_hook_follows_the_rule_of_related() {
    let lib = sample();
    // Two words of 51 routine deploy items: Jezero's rule keeps them, idf does not.
    let prompt = "Deploy the new version to production and keep an eye on the logs";
    let jezero = ids(&lib.json(&["related", prompt, "--rule", "jezero"]));
    assert_eq!(jezero.len(), 3);
    assert_eq!(ids(&lib.json(&["related", prompt])), Vec::<i64>::new());
    let out = hook(&lib, &[], &hook_input(prompt));
    assert_eq!((out.code, out.stdout.as_str()), (0, ""), "{out:?}");
    assert_eq!(
        listed(&hook(&lib, &["--rule", "jezero"], &hook_input(prompt))),
        jezero
    );
    let config = lib.path("recall.toml");
    std::fs::write(&config, "[related]\nrule = \"jezero\"\n").unwrap();
    let config = config.to_str().unwrap();
    let out = lib.run_stdin(&["--config", config, "hook"], &hook_input(prompt));
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    assert_eq!(listed(&out), jezero);
    // A weight out of range is a problem the prompt goes on without.
    quiet_problem(
        &hook(&lib, &["--min-weight", "99"], &hook_input(prompt)),
        "--min-weight must be from 0 to 20, got 99",
    );
}

/// The first prompt's items are the working folder's project's and the global ones, as
/// `related --project P` finds them: the folder's name, the repository holding a
/// subfolder, a `[projects]` mapping; `--project` wins over the folder; a home or system
/// folder maps to no project, and every project is searched.
#[test]
fn the_first_prompt_looks_in_the_working_folders_project() {
    let lib = sample();
    // A global item of another project: shown in every project.
    lib.import(
        r#"{"source": "human", "project": "docs-site", "title": "database is locked: the importer needs busy_timeout", "kind": "gotcha", "global": true, "occurred_at": "2024-06-01"}"#,
    )
    .ok();
    // The same trouble met in several projects.
    for (n, project) in ["shop", "infra", "mobile-app", "api"].iter().enumerate() {
        lib.import(&format!(
            r#"{{"source": "human", "project": "{project}", "title": "The importer fails: database is locked while {project} syncs", "occurred_at": "2024-0{}-02"}}"#,
            n + 2
        ))
        .ok();
    }
    let checkout = lib.path("repos/api");
    std::fs::create_dir_all(checkout.join(".git")).unwrap();
    std::fs::create_dir_all(checkout.join("src/handlers")).unwrap();
    let mapped = lib.path("srv/code");
    std::fs::create_dir_all(&mapped).unwrap();
    let config = lib.path("projects.toml");
    std::fs::write(
        &config,
        format!("[projects]\n{:?} = \"infra\"\n", mapped.to_str().unwrap()),
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let handlers = checkout.join("src/handlers");
    let prompt = "the importer fails with database is locked again";
    let everywhere = ids(&lib.json(&["related", prompt]));
    let projects_of = |found: &[i64]| -> Vec<Option<String>> {
        let conn = lib.conn();
        found
            .iter()
            .map(|id| {
                conn.query_row("select project from items where id = ?", [id], |r| r.get(0))
                    .unwrap()
            })
            .collect()
    };
    // Unscoped, the prompt finds items of several projects: the scoping has work to do.
    let mut seen = projects_of(&everywhere);
    seen.sort();
    seen.dedup();
    assert!(seen.len() >= 3, "{seen:?}");
    // (working folder, global flags, the hook's flags, the project it looks in)
    for (cwd, global, flags, project) in [
        ("/work/shop", vec![], vec![], Some("shop")),
        ("/work/api", vec![], vec![], Some("api")),
        (handlers.to_str().unwrap(), vec![], vec![], Some("api")),
        (
            mapped.to_str().unwrap(),
            vec!["--config", config],
            vec![],
            Some("infra"),
        ),
        (
            "/work/shop",
            vec![],
            vec!["--project", "mobile-app"],
            Some("mobile-app"),
        ),
        ("/home/dana", vec![], vec![], None),
        ("C:\\Users\\dana", vec![], vec![], None),
        ("/tmp", vec![], vec![], None),
    ] {
        let out = lib.run_stdin(
            &[global.as_slice(), &["hook"], flags.as_slice()].concat(),
            &hook_input_in(prompt, cwd),
        );
        assert_eq!(out.code, 0, "{cwd}: {out:?}");
        let mut related = global.clone();
        related.extend(["related", prompt]);
        if let Some(p) = project {
            related.extend(["--project", p]);
        }
        let want = ids(&lib.json(&related));
        assert!(!want.is_empty(), "{cwd}: related finds something");
        assert_eq!(listed(&out), want, "{cwd} {flags:?}");
        match project {
            Some(p) => {
                assert_ne!(want, everywhere, "{cwd}: scoped");
                for (id, of) in want.iter().zip(projects_of(&want)) {
                    let global = lib.count(&format!(
                        "select count(*) from items where id = {id} and global"
                    ));
                    assert!(
                        of.as_deref() == Some(p) || of.is_none() || global == 1,
                        "{cwd}: [{id}] of {of:?} shown in {p}"
                    );
                }
            }
            None => assert_eq!(want, everywhere, "{cwd}: every project"),
        }
    }
}
