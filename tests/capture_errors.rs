//! Error atoms and recaps of captured sessions (docs/capture.md#error-atoms and
//! #recaps), on sessions of both agents in the shapes they write (Claude Code 1.0 and
//! 2.1, Codex 0.36, 0.63 and 0.118: `tests/capture/errors`): error lines only from calls
//! that failed, never from what a command printed from a file, a search or the history,
//! nor the agent's program's own text, bare exit codes or terminal codes; lines alike but
//! for their numbers once; the recap the last answer that reports a result, marked
//! unfinished where the session stopped mid-task.
use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::common::cli::TempLib;
use crate::common::root;

const FIXTURES: &str = "tests/capture/errors";

/// Each item's title, summary and atoms, by title.
fn captured() -> BTreeMap<String, (String, Vec<String>)> {
    let lib = TempLib::init(None);
    let dir = root().join(FIXTURES);
    let out = lib
        .run(&["--json", "capture", dir.to_str().unwrap()])
        .ok()
        .json();
    assert_eq!(out["added"].as_u64(), Some(6), "{out}");
    let conn = lib.conn();
    let mut stmt = conn
        .prepare("select title, summary, atoms from items")
        .unwrap();
    let rows = stmt
        .query_map([], |r| {
            let atoms: String = r.get(2)?;
            Ok((
                r.get::<_, String>(0)?,
                (
                    r.get::<_, String>(1)?,
                    atoms.lines().map(str::to_string).collect(),
                ),
            ))
        })
        .unwrap();
    rows.map(Result::unwrap).collect()
}

/// The commands the fixtures' sessions ran and the files they edited, read from their
/// files: the atoms that follow the error lines.
fn commands() -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut stack = vec![root().join(FIXTURES)];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            for line in std::fs::read_to_string(&path).unwrap().lines() {
                let v: Value = serde_json::from_str(line).unwrap();
                let blocks = v["message"]["content"].as_array().cloned();
                for b in blocks.unwrap_or_default() {
                    for key in ["command", "file_path"] {
                        found.extend(b["input"][key].as_str().map(str::to_string));
                    }
                }
                if let Some(args) = v["payload"]["arguments"].as_str() {
                    let args: Value = serde_json::from_str(args).unwrap();
                    let c = match &args["command"] {
                        Value::Array(words) => words.last().and_then(Value::as_str),
                        c => c.as_str().or(args["cmd"].as_str()),
                    };
                    found.extend(c.map(str::to_string));
                }
                if let Some(patch) = v["payload"]["input"].as_str() {
                    let files = patch
                        .lines()
                        .filter_map(|l| l.strip_prefix("*** Update File: "));
                    found.extend(files.map(str::to_string));
                }
            }
        }
    }
    found
}

/// The error lines of an item: its atoms before the first command or file.
fn error_lines(atoms: &[String], commands: &BTreeSet<String>) -> Vec<String> {
    atoms
        .iter()
        .take_while(|a| !commands.contains(*a))
        .cloned()
        .collect()
}

#[test]
fn error_atoms_come_only_from_calls_that_failed() {
    let items = captured();
    let commands = commands();
    let errors = |title: &str| {
        let (_, atoms) = items
            .get(title)
            .unwrap_or_else(|| panic!("no item {title:?} in {:?}", items.keys()));
        error_lines(atoms, &commands)
    };
    // Claude Code 2.1: a file shown with `sed -n`, `cat | head` and the Read tool, a
    // search that found nothing, the history and a diff, a test run that passed with
    // error words in its log, the harness's refusals: none. A failed test run gives its
    // lines, a lint with nothing to say its command and exit, a fork error repeated with
    // other pids one atom, a compiler's coloured error its text.
    assert_eq!(
        errors("The invoice export fails on empty ledgers, fix it"),
        [
            "--- FAIL: TestExportEmpty (0.00s)",
            "export_test.go:14: error: ledger is empty",
            "FAIL\tgithub.com/dev/ledger/internal/export\t0.012s",
            "`npm run lint` exited 1",
            "0 [main] bash 4120 fork: child -1 - CreateProcess failed, errno 11",
            "error[E0308]: mismatched types",
        ]
    );
    // Claude Code 1.0, whose failures carry no exit code: the shell's complaint, the
    // command that failed with nothing else to say; not the state shown by `systemctl
    // status` or `journalctl`, a log printed with `tail`, a server the program stopped at
    // its time limit, the person's interruption.
    assert_eq!(
        errors("Why does the nightly backup script stop?"),
        [
            "(eval):1: command not found: powertop",
            "`./backup.sh --dry-run` failed",
        ]
    );
    // Codex 0.36 (output and exit code as JSON): a file shown with `sed`, `grep` finding
    // nothing, `git show`, a command the person refused: none; the failed test run's
    // lines.
    assert_eq!(
        errors("The health check returns 500 since the upgrade, find out why"),
        [
            "FAIL  src/health.test.ts > health > pings the database",
            "Error: connect ECONNREFUSED 127.0.0.1:5432",
            "Test Files  1 failed (1)",
        ]
    );
    // Codex 0.63 (`Exit code: N` above the output): the build's error, not pnpm's bare
    // exit; a file numbered with `nl`, a patch that did not apply, the sandbox, a run the
    // person stopped: none; an error a pipe to `tail` would hide from the exit code.
    assert_eq!(
        errors("Make the build pass again"),
        [
            "src/app.tsx(12,7): error TS2322: Type 'string' is not assignable to type 'number'.",
            "error TS2322: Type 'string' is not assignable to type 'number'.",
        ]
    );
    // Codex 0.118 (the unified exec's header, output as content items): the crash and the
    // failed test; not the lines `rg` found nor those `cat` showed.
    assert_eq!(
        errors("Why does the nightly import crash?"),
        [
            "Traceback (most recent call last):",
            "KeyError: 'ledger_id'",
            "FAILED tests/test_load.py::test_missing_column - KeyError: 'ledger_id'",
            "1 failed, 1 passed in 0.21s",
        ]
    );
    assert!(errors("Rename the ledger_rows table to entries").is_empty());

    // Over every item: no terminal code, bare exit code or harness text, and no two
    // error lines alike but for their numbers.
    let harness = [
        "doesn't want to proceed",
        "tool_use_error",
        "File has not been read yet",
        "Request interrupted",
        "rejected by user",
        "aborted by user",
        "failed in sandbox",
        "apply_patch verification failed",
    ];
    for (title, (_, atoms)) in &items {
        let errors = error_lines(atoms, &commands);
        let mut shapes = BTreeSet::new();
        for e in &errors {
            assert!(!e.contains('\u{1b}'), "{title}: {e:?}");
            assert!(!harness.iter().any(|h| e.contains(h)), "{title}: {e:?}");
            let words: Vec<&str> = e
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty() && !w.chars().all(|c| c.is_ascii_digit()))
                .collect();
            assert!(
                !words
                    .iter()
                    .all(|w| ["Exit", "exit", "code", "status"].contains(w)),
                "{title}: a bare exit code {e:?}"
            );
            let shape: String = e
                .chars()
                .map(|c| if c.is_ascii_digit() { '#' } else { c })
                .collect();
            assert!(shapes.insert(shape), "{title}: {e:?} twice");
        }
    }
}

#[test]
fn recaps_report_results_or_say_the_work_is_unfinished() {
    let items = captured();
    let summary = |title: &str| items[title].0.clone();
    // The report, without the offer that closes it; not the last question.
    assert_eq!(
        summary("The invoice export fails on empty ledgers, fix it"),
        "Fixed: an empty ledger now exports an empty file instead of failing, and `go test ./...` passes."
    );
    // A report, then a second request the agent was still at when the session ended: the
    // report, marked unfinished, not the heading of the next step.
    assert_eq!(
        summary("Rename the ledger_rows table to entries"),
        "(unfinished) Committed `4e5f6a7`: the table is now `entries` and the queries in `store.rs` use it; the migration runs on start."
    );
    // Only an announcement of the next step: nothing was reported.
    assert_eq!(
        summary("Make the build pass again"),
        "(unfinished) The session ended before the agent reported a result."
    );
    // Findings, as the last answers of both agents.
    for (title, finding) in [
        (
            "Why does the nightly backup script stop?",
            "The timer is disabled, so the backup never starts at night; `systemctl enable --now backup.timer` turns it back on. The log also shows rsync losing its connection on the last manual run.",
        ),
        (
            "The health check returns 500 since the upgrade, find out why",
            "Found it: the upgrade moved the database to port 5433, but `DATABASE_URL` still names 5432, so `db.ping()` fails and the health check answers 500.",
        ),
        (
            "Why does the nightly import crash?",
            "The nightly import crashes because the export renamed the column `ledger_id` to `ledger`; `load()` reads the old name and raises `KeyError`. Mapping both names fixes it, and `tests/test_load.py` passes with the change.",
        ),
    ] {
        assert_eq!(summary(title), finding, "{title}");
    }
}
