//! Every input `recall` reads has a limit: `/dev/zero`, a pipe that never ends and a FIFO
//! fed forever, given to each reading path, end in one error line naming the input and
//! its limit, with a bounded peak memory and the library unchanged. And every JSON, JSON
//! Lines or TOML input may start with a UTF-8 byte-order mark.
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::json;

use crate::common::cli::{recall_bin, TempLib};

const MIB: u64 = 1024 * 1024;
/// The limits of docs/cli.md#input-limits, as the errors name them.
const TRANSCRIPT: u64 = 32 * MIB;
const ITEM_JSON: u64 = 211 * MIB;
const PROMPT: u64 = 16 * MIB;
/// The hook's whole JSON: a tool's response rides along (its prompt is `PROMPT`).
const HOOK_PAYLOAD: u64 = 256 * MIB;
const DATASET: u64 = 64 * MIB;
const CONFIG: u64 = MIB;
const SQL_SCRIPT: u64 = 16 * MIB;
/// What a run may hold beyond the input it read: the binary, SQLite, the allocator.
const OVERHEAD: u64 = 64 * MIB;

/// Where standard input comes from.
#[derive(Clone, Copy, Debug)]
enum Feed {
    Zero,
    Yes,
    Nothing,
}

#[derive(Debug)]
struct Bounded {
    /// The exit code, or minus the signal that ended it.
    code: i32,
    stdout: String,
    stderr: String,
    /// Peak resident memory, in bytes (wait4's ru_maxrss).
    peak: u64,
}

fn yes() -> Child {
    Command::new("yes")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start yes")
}

fn stop(mut child: Child) {
    // It may have ended already on its broken pipe.
    let _ = child.kill();
    let _ = child.wait();
}

/// Starts a command in an address space of `ceiling` bytes and, when it ends, writes its
/// exit code (minus the signal) and its peak resident memory in bytes to a file. A small
/// Python process forks it, so that the peak is the command's own: a child the test
/// process starts directly inherits the test's own resident memory as its first peak.
pub const MEASURE: &str = r#"
import os, resource, sys
report, ceiling, argv = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
pid = os.fork()
if pid == 0:
    try:
        resource.setrlimit(resource.RLIMIT_AS, (ceiling, ceiling))
        os.execv(argv[0], argv)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
with open(report, "w") as f:
    f.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss * 1024}")
"#;

/// Runs `recall --db LIB args…` with `feed` on standard input, in an address space of
/// `limit` + 512 MiB: a reader without a limit aborts there, quickly, instead of taking
/// the machine's memory. Returns its output and peak memory.
fn bounded(lib: &TempLib, args: &[&str], feed: Feed, limit: u64) -> Bounded {
    let report = lib.path("peak");
    let mut cmd = Command::new("/usr/bin/python3");
    cmd.arg("-c")
        .arg(MEASURE)
        .arg(&report)
        .arg((limit + 512 * MIB).to_string())
        .arg(recall_bin())
        .arg("--db")
        .arg(&lib.db)
        .args(args)
        .env_remove("RECALL_DB")
        .env_remove("RECALL_CONFIG")
        .env_remove("RECALL_TOKENIZER")
        .env_remove("RECALL_TEST_PAUSE_AT");
    let mut feeder = None;
    match feed {
        Feed::Zero => {
            cmd.stdin(std::fs::File::open("/dev/zero").expect("/dev/zero"));
        }
        Feed::Yes => {
            let mut y = yes();
            cmd.stdin(Stdio::from(y.stdout.take().expect("yes stdout")));
            feeder = Some(y);
        }
        Feed::Nothing => {
            cmd.stdin(Stdio::null());
        }
    }
    let out = cmd.output().expect("run recall");
    if let Some(y) = feeder {
        stop(y);
    }
    assert!(
        out.status.success(),
        "the measuring process failed: {out:?}"
    );
    let report = std::fs::read_to_string(&report).expect("the measured run's report");
    let (code, peak) = report.split_once(' ').expect("code and peak");
    Bounded {
        code: code.parse().expect("exit code"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        peak: peak.parse().expect("peak"),
    }
}

/// One error line naming the limit, the expected exit code, and a peak memory of the
/// limit plus the program's own.
fn refused(run: &Bounded, what: &str, limit: u64, code: i32) {
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(run.code, code, "{what}: {run:?}");
    assert_eq!(lines.len(), 1, "{what}: one error line: {run:?}");
    let size = format!("is longer than {} MiB, its limit: ", limit / MIB);
    assert!(
        lines[0].starts_with("recall: ") && lines[0].contains(&size),
        "{what}: {:?} lacks {size:?}",
        lines[0]
    );
    assert!(run.stdout.is_empty(), "{what}: {run:?}");
    assert!(
        run.peak < limit + OVERHEAD,
        "{what}: peak memory {} MiB for a limit of {} MiB",
        run.peak / MIB,
        limit / MIB
    );
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().expect("path")).expect("c path");
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

/// A FIFO at `path` that `yes` writes into for as long as someone reads it.
fn endless_fifo(path: &Path) -> Child {
    mkfifo(path);
    Command::new("sh")
        .arg("-c")
        .arg("exec yes > \"$0\"")
        .arg(path)
        .stderr(Stdio::null())
        .spawn()
        .expect("start the FIFO's writer")
}

#[test]
fn standard_input_is_read_with_a_limit_on_every_path() {
    let lib = TempLib::init(None);
    lib.import(r#"{"source":"s","title":"deploy failed","occurred_at":"2024-01-01"}"#)
        .ok();
    let before = lib.files();
    // The hook never fails the prompt: its one line comes with exit 0.
    let cases: [(&[&str], u64, i32); 7] = [
        (&["add", "-"], ITEM_JSON, 2),
        (
            &[
                "add",
                "--source",
                "s",
                "--title",
                "t",
                "--transcript-file",
                "-",
            ],
            TRANSCRIPT,
            2,
        ),
        (&["import", "-"], ITEM_JSON, 2),
        (&["search", "-"], PROMPT, 2),
        (&["related", "-"], PROMPT, 2),
        (&["hook"], HOOK_PAYLOAD, 0),
        (&["--json", "hook"], HOOK_PAYLOAD, 0),
    ];
    for (args, limit, code) in cases {
        for feed in [Feed::Zero, Feed::Yes] {
            // JSON Lines from `yes` fail at their first line, before any limit.
            if args == ["import", "-"] && matches!(feed, Feed::Yes) {
                let run = bounded(&lib, args, feed, limit);
                assert_eq!(run.code, 2, "{run:?}");
                assert!(
                    run.stderr.contains("stdin: line 1: invalid JSON"),
                    "{run:?}"
                );
                continue;
            }
            let run = bounded(&lib, args, feed, limit);
            refused(&run, &format!("{args:?} < {feed:?}"), limit, code);
        }
    }
    assert_eq!(lib.files(), before, "the library changed");
}

#[test]
fn files_devices_and_fifos_are_read_with_a_limit() {
    let lib = TempLib::init(None);
    let before = lib.files();
    let cases_out = lib.path("cases.jsonl");
    let cases_out = cases_out.to_str().expect("path");
    let runs: [(&[&str], u64); 6] = [
        (
            &[
                "add",
                "--source",
                "s",
                "--title",
                "t",
                "--transcript-file",
                "/dev/zero",
            ],
            TRANSCRIPT,
        ),
        (&["import", "/dev/zero"], ITEM_JSON),
        (&["eval", "/dev/zero"], DATASET),
        (
            &["import-locomo", "/dev/zero", "--cases", cases_out],
            DATASET,
        ),
        (&["--config", "/dev/zero", "search", "deploy"], CONFIG),
        (&["sql", "--file", "/dev/zero"], SQL_SCRIPT),
    ];
    for (args, limit) in runs {
        let run = bounded(&lib, args, Feed::Nothing, limit);
        refused(&run, &format!("{args:?}"), limit, 2);
    }
    assert!(
        !Path::new(cases_out).exists(),
        "import-locomo wrote its cases"
    );
    // A FIFO that a writer feeds forever, as each kind of file argument.
    let fifo_cases: [(&str, u64); 4] = [
        ("--transcript-file", TRANSCRIPT),
        ("--config", CONFIG),
        ("--file", SQL_SCRIPT),
        ("eval", DATASET),
    ];
    for (i, (flag, limit)) in fifo_cases.into_iter().enumerate() {
        let fifo = lib.path(&format!("fifo{i}"));
        let writer = endless_fifo(&fifo);
        let fifo = fifo.to_str().expect("path");
        let args: Vec<&str> = match flag {
            "--transcript-file" => vec!["add", "--source", "s", "--title", "t", flag, fifo],
            "--config" => vec![flag, fifo, "search", "deploy"],
            "--file" => vec!["sql", flag, fifo],
            _ => vec!["eval", fifo],
        };
        let run = bounded(&lib, &args, Feed::Nothing, limit);
        stop(writer);
        refused(&run, &format!("{args:?} (a FIFO)"), limit, 2);
    }
    assert_eq!(lib.files(), before, "the library changed");
}

#[test]
fn an_item_below_the_limit_is_read_whole() {
    // A transcript of exactly the limit is read (and stored), one byte more is refused.
    let lib = TempLib::init(None);
    let file = lib.path("t.txt");
    std::fs::write(&file, "x".repeat(TRANSCRIPT as usize)).expect("write");
    let file = file.to_str().expect("path");
    let args = [
        "add",
        "--source",
        "s",
        "--title",
        "t",
        "--transcript-file",
        file,
    ];
    let run = bounded(&lib, &args, Feed::Nothing, TRANSCRIPT);
    assert_eq!((run.code, run.stdout.trim()), (0, "1"), "{run:?}");
    assert_eq!(
        lib.count("select length(transcript) from items where id = 1"),
        TRANSCRIPT as i64
    );
    std::fs::write(file, "x".repeat(TRANSCRIPT as usize + 1)).expect("write");
    let run = bounded(&lib, &args, Feed::Nothing, TRANSCRIPT);
    refused(&run, "a transcript one byte over", TRANSCRIPT, 2);
}

#[test]
fn every_json_and_toml_input_may_start_with_a_byte_order_mark() {
    let bom = "\u{feff}";
    let lib = TempLib::init(None);
    let item =
        json!({"source": "s", "title": "deploy failed on friday", "occurred_at": "2024-01-01"});
    let jsonl = lib.path("items.jsonl");
    std::fs::write(&jsonl, format!("{bom}{item}\n")).expect("write");
    lib.run(&["import", jsonl.to_str().expect("path")]).ok();
    lib.run_stdin(&["import", "-"], &format!("{bom}{item}\n"))
        .ok();
    lib.run_stdin(&["add", "-"], &format!("{bom}{item}")).ok();
    assert_eq!(lib.count("select count(*) from items"), 3);
    let config = lib.path("c.toml");
    std::fs::write(&config, format!("{bom}[search]\nrecency_weight = 0.25\n")).expect("write");
    let config = config.to_str().expect("path");
    let out = lib
        .run(&["--json", "--config", config, "search", "deploy"])
        .ok();
    assert_eq!(out.json()["settings"]["recency_weight"], 0.25);
    let sample = crate::common::root().join("examples/sample.jsonl");
    lib.run(&["import", sample.to_str().expect("path")]).ok();
    let hook_json = json!({"prompt": "the importer fails with database is locked again"});
    let plain = lib.run_stdin(&["hook"], &hook_json.to_string()).ok();
    assert!(plain.stdout.contains("- ["), "{plain:?}");
    let marked = lib.run_stdin(&["hook"], &format!("{bom}{hook_json}")).ok();
    assert!(marked.stderr.is_empty(), "{marked:?}");
    assert_eq!(marked.stdout, plain.stdout);
    let cases = lib.path("cases.jsonl");
    std::fs::write(
        &cases,
        format!("{bom}{}\n", json!({"query": "deploy", "expect": [1]})),
    )
    .expect("write");
    lib.run(&["eval", cases.to_str().expect("path")]).ok();
    let locomo = lib.path("locomo.json");
    let doc = json!([{"sample_id": "c", "conversation": {
        "session_1_date_time": "9:00 am on 1 March, 2023",
        "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "The kitten shelter needs volunteers."}]},
        "qa": [{"question": "Who needs volunteers?", "evidence": ["D1:1"], "category": 1}]}]);
    std::fs::write(&locomo, format!("{bom}{doc}")).expect("write");
    let cases_out = lib.path("locomo_cases.jsonl");
    lib.run(&[
        "import-locomo",
        locomo.to_str().expect("path"),
        "--cases",
        cases_out.to_str().expect("path"),
    ])
    .ok();
    assert_eq!(
        lib.count("select count(*) from items where project = 'c'"),
        1
    );
}
