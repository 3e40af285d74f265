//! `recall capture` on bad input: folders it may not read, symbolic links that loop or
//! lead nowhere, folders named like session files, FIFOs, a file gone between the
//! listing and the reading, a gigabyte on one line, bytes that are not UTF-8. Each is one
//! line on stderr naming the path and what to do, the exit code 1, nothing half-written,
//! and everything else captured exactly as a capture of the good files alone. And a
//! Codex session over several days, interrupted once, cut short at its end.
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use recall_cli::capture::{read_session, Event};

use crate::capture_read::{fixture, CLAUDE, CODEX, CODEX_LEGACY};
use crate::common::cli::{recall_bin, TempLib};

pub const CODEX_DAYS: &str =
    "codex/2025/10/01/rollout-2025-10-01T09-00-00-0199c0de-0000-7000-8000-000000000004.jsonl";

const MIB: u64 = 1024 * 1024;

/// Every stored field of every item, without its id, sorted: what two libraries that
/// captured the same sessions must hold alike.
fn item_rows(lib: &TempLib) -> Vec<String> {
    let conn = lib.conn();
    let mut stmt = conn
        .prepare(
            "select json_array(source, project, title, summary, questions, atoms, occurred_at, transcript) from items",
        )
        .unwrap();
    let mut rows: Vec<String> = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    rows.sort();
    rows
}

fn copy(from: &str, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(fixture(from), to).unwrap();
}

/// A fixture's file name: a Claude Code session's id is read from it.
fn base(rel: &str) -> &str {
    rel.rsplit('/').next().unwrap()
}

/// A library that captured `files` (copies of fixtures) and nothing else.
fn reference(files: &[&str]) -> TempLib {
    let lib = TempLib::init(None);
    let dir = lib.path("good");
    for f in files {
        copy(f, &dir.join(base(f)));
    }
    lib.run(&["capture", dir.to_str().unwrap()]).ok();
    lib
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Gives the tree to uid 65534, who runs capture when the tests run as root (root reads
/// every folder whatever its mode).
fn give_away(path: &Path) {
    std::os::unix::fs::lchown(path, Some(65534), Some(65534)).unwrap();
    if std::fs::symlink_metadata(path).unwrap().is_dir() {
        for e in std::fs::read_dir(path).unwrap() {
            give_away(&e.unwrap().path());
        }
    }
}

/// Waits for a run, failing the test (and killing it) if it takes more than a minute:
/// a capture that opens a FIFO without a writer would wait forever.
fn finish(mut child: Child) -> (i32, String, String) {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut out = String::new();
            let mut err = String::new();
            child
                .stdout
                .take()
                .unwrap()
                .read_to_string(&mut out)
                .unwrap();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            return (status.code().unwrap_or(-1), out, err);
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("capture still running after a minute: it waits on something");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn bad_paths_are_reported_one_line_each_and_the_rest_captured() {
    let lib = TempLib::init(None);
    let s = lib.path("sessions");
    copy(CLAUDE, &s.join("ok").join(base(CLAUDE)));
    copy(CODEX, &s.join("ok").join(base(CODEX)));
    // A folder named like a session file is a folder: searched.
    copy(CODEX_DAYS, &s.join("folder.jsonl").join(base(CODEX_DAYS)));
    // A folder capture may not read, holding a session.
    copy(CODEX_LEGACY, &s.join("locked/legacy.jsonl"));
    std::os::unix::fs::symlink(&s, s.join("loop")).unwrap();
    std::os::unix::fs::symlink("self.jsonl", s.join("self.jsonl")).unwrap();
    std::os::unix::fs::symlink("nowhere.jsonl", s.join("dangling.jsonl")).unwrap();
    // A FIFO no one writes: opening it for reading would wait forever.
    mkfifo(&s.join("pipe.jsonl"));
    // The library before, and a FIFO named as a PATH too.
    let fifo_arg = lib.path("named.jsonl");
    mkfifo(&fifo_arg);
    let mut cmd = lib.command();
    if is_root() {
        give_away(lib.dir.path());
        std::os::unix::fs::chown(s.join("locked"), Some(0), Some(0)).unwrap();
        cmd.uid(65534).gid(65534);
    }
    std::fs::set_permissions(s.join("locked"), std::fs::Permissions::from_mode(0o000)).unwrap();
    let before_files = lib.count("select count(*) from capture_files");
    assert_eq!(before_files, 0);
    let child = cmd
        .args(["--json", "capture"])
        .arg(&s)
        .arg(&fifo_arg)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (code, stdout, stderr) = finish(child);
    std::fs::set_permissions(s.join("locked"), std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(code, 1, "something skipped: exit 1; {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    let expect = [
        (
            s.join("dangling.jsonl"),
            "a symbolic link to nothing; remove or correct the link",
        ),
        (
            s.join("locked"),
            "cannot be read: permission denied; give this user read access to it, or leave it out",
        ),
        (
            s.join("loop"),
            "a symbolic link back to a folder already searched",
        ),
        (
            s.join("pipe.jsonl"),
            "not a regular file (a named pipe), never read",
        ),
        (
            s.join("self.jsonl"),
            "a symbolic link that loops (it leads back to itself); remove or correct the link",
        ),
        (
            fifo_arg.clone(),
            "not a regular file (a named pipe), never read",
        ),
    ];
    assert_eq!(lines.len(), expect.len(), "one line each: {stderr}");
    for (line, (path, what)) in lines.iter().zip(&expect) {
        let head = format!("recall: capture: {}: {what}", path.display());
        assert!(line.starts_with(&head), "{line:?} is not {head:?}…");
        assert!(line.ends_with("; skipped"), "{line}");
    }
    let out: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(out["problems"], 6, "{out}");
    assert_eq!(out["files"], 3, "{out}");
    // Everything else, exactly as a library that captured the good files alone.
    let good = reference(&[CLAUDE, CODEX, CODEX_DAYS]);
    assert_eq!(item_rows(&lib), item_rows(&good));
    assert_eq!(lib.count("select count(*) from capture_files"), 3);
    lib.run(&["check"]).ok();
}

/// A path that became a FIFO after the listing is refused at once, never waited on.
#[test]
fn a_fifo_is_never_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("late.jsonl");
    mkfifo(&fifo);
    let (tx, rx) = std::sync::mpsc::channel();
    let path = fifo.clone();
    std::thread::spawn(move || {
        let _ = tx.send(read_session(&path).map(|_| ()));
    });
    let got = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("reading a FIFO without a writer waited");
    let e = got.unwrap_err();
    assert_eq!(
        e,
        format!(
            "{}: not a regular file (a named pipe), never read; copy it to a regular file to capture it",
            fifo.display()
        )
    );
}

/// A file removed while capture runs (after the listing, before its turn) is one line;
/// the files before and after it are captured.
#[test]
fn a_file_gone_between_listing_and_reading() {
    let lib = TempLib::init(None);
    let s = lib.path("sessions");
    copy(CODEX_LEGACY, &s.join("1.jsonl"));
    copy(CODEX_DAYS, &s.join("2.jsonl"));
    copy(CODEX, &s.join("3.jsonl"));
    // Each item written pauses two seconds: the test removes the second file while the
    // first is being captured.
    let mut child = lib
        .command()
        .args(["capture"])
        .arg(&s)
        .env("RECALL_TEST_PAUSE_AT", "capture:1:2")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let mut seen = String::new();
    let mut buf = [0u8; 256];
    while !seen.contains("recall: paused at capture") {
        let n = stderr.read(&mut buf).unwrap();
        assert!(n > 0, "no pause point (built without test hooks?): {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    std::fs::remove_file(s.join("2.jsonl")).unwrap();
    stderr.read_to_string(&mut seen).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1), "{seen}");
    let problems: Vec<&str> = seen
        .lines()
        .filter(|l| !l.starts_with("recall: paused at"))
        .collect();
    assert_eq!(
        problems,
        vec![format!(
            "recall: capture: {}: gone since it was listed (removed or renamed while capture ran); run capture again to read what replaced it; skipped",
            s.join("2.jsonl").display()
        )]
    );
    let good = reference(&[CODEX_LEGACY, CODEX]);
    assert_eq!(item_rows(&lib), item_rows(&good));
    lib.run(&["check"]).ok();
}

/// A session with a gigabyte on one line (a sparse file: a command's endless output):
/// that line is skipped and counted, the rest captured, and the memory stays bounded by
/// the longest line read, not the line.
#[test]
fn a_gigabyte_line_is_skipped_in_bounded_memory() {
    use std::io::{Seek, SeekFrom, Write};
    let lib = TempLib::init(None);
    let path = lib.path("huge.jsonl");
    let mut f = std::fs::File::create(&path).unwrap();
    let head = [
        r#"{"timestamp":"2025-03-01T10:00:00Z","type":"session_meta","payload":{"id":"huge-line","cwd":"/home/dev/logs"}}"#,
        r#"{"timestamp":"2025-03-01T10:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"print the whole log"}]}}"#,
    ];
    writeln!(f, "{}", head.join("\n")).unwrap();
    f.write_all(br#"{"timestamp":"2025-03-01T10:00:02Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":""#)
        .unwrap();
    f.seek(SeekFrom::Current(1 << 30)).unwrap();
    f.write_all(b"\"}}\n").unwrap();
    writeln!(
        f,
        r#"{{"timestamp":"2025-03-01T10:00:03Z","type":"response_item","payload":{{"type":"message","role":"assistant","content":[{{"type":"output_text","text":"The log is too long to show."}}]}}}}"#
    )
    .unwrap();
    drop(f);
    assert!(std::fs::metadata(&path).unwrap().len() > 1 << 30);
    let max_line = recall_cli::capture::lines::MAX_LINE as u64;
    let report = lib.path("peak");
    let out = Command::new("/usr/bin/python3")
        .arg("-c")
        .arg(crate::inputs::MEASURE)
        .arg(&report)
        .arg((max_line + 512 * MIB).to_string())
        .arg(recall_bin())
        .args(["--db", lib.db.to_str().unwrap(), "--json", "capture"])
        .arg(&path)
        .env_remove("RECALL_TEST_PAUSE_AT")
        .output()
        .unwrap();
    let report = std::fs::read_to_string(&report).unwrap();
    let (code, peak) = report.split_once(' ').unwrap();
    let peak: u64 = peak.parse().unwrap();
    assert_eq!(code, "0", "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["skipped"]["line too long"], 1, "{json}");
    assert_eq!(json["added"], 1, "{json}");
    let (title, summary): (String, String) = lib
        .conn()
        .query_row("select title, summary from items", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!(title, "print the whole log");
    assert_eq!(summary, "The log is too long to show.");
    // The binary, SQLite and the allocator beside the one line held.
    assert!(
        peak < max_line + 64 * MIB,
        "peak memory {} MiB for lines of at most {} MiB",
        peak / MIB,
        max_line / MIB
    );
    eprintln!("a 1 GiB line: peak memory {} MiB", peak / MIB);
}

/// A Codex rollout over three days: one segment a day (gaps over two hours), the
/// interruption never a question, the bytes that are not UTF-8 replaced and counted,
/// unknown records counted, the last line cut short skipped; end to end, stored as
/// valid text with each segment's last message's time.
#[test]
fn a_codex_session_over_several_days() {
    let s = read_session(&fixture(CODEX_DAYS)).unwrap();
    assert_eq!(s.id, "0199c0de-0000-7000-8000-000000000004");
    let skipped: Vec<(&str, u64)> = s.skipped.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(
        skipped,
        vec![
            ("bytes not UTF-8 (replaced)", 1),
            ("last line cut short", 1),
            ("response_item:image_generation_call", 1),
        ]
    );
    assert_eq!(s.program_records.get("future_record"), Some(&1));
    let prompts: Vec<&str> = s
        .records
        .iter()
        .filter_map(|r| match &r.event {
            Event::Prompt(t) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        prompts,
        vec![
            "Why do the invoice totals drift by a cent?",
            "Look at src/money.py instead: we round each line, not the total",
            "Same drift in refunds: caf\u{fffd} receipts too",
            "Add a regression test for both",
        ]
    );
    assert!(s
        .records
        .iter()
        .any(|r| matches!(&r.event, Event::Note(t) if t.starts_with("<turn_aborted>"))));

    let lib = TempLib::init(None);
    let out = lib
        .run(&["--json", "capture", fixture(CODEX_DAYS).to_str().unwrap()])
        .ok()
        .json();
    assert_eq!(out["segments"], 3, "{out}");
    assert_eq!(out["skipped"]["bytes not UTF-8 (replaced)"], 1, "{out}");
    let conn = lib.conn();
    let mut stmt = conn
        .prepare("select occurred_at, title, questions from items order by occurred_at")
        .unwrap();
    let rows: Vec<(String, String, String)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let dates: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
    assert_eq!(
        dates,
        vec![
            "2025-10-01T09:02:00Z",
            "2025-10-02T14:00:30Z",
            "2025-10-04T08:05:00Z"
        ]
    );
    assert_eq!(rows[0].1, prompts[0]);
    assert_eq!(rows[0].2, prompts[..2].join("\n"));
    assert_eq!(rows[1].1, prompts[2]);
    assert_eq!(rows[2].1, prompts[3]);
    // Stored as text, valid UTF-8: `check` reads every row.
    let bad: i64 = conn
        .query_row(
            "select count(*) from items where typeof(title) != 'text' or title != cast(cast(title as blob) as text)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(bad, 0);
    lib.run(&["check"]).ok();
}

/// The agents' places read by one rule: an empty `CLAUDE_CONFIG_DIR` or `CODEX_HOME` is
/// unset (the folders under HOME are read, not `./projects`), and a relative `HOME` is no
/// home: capture finds no default place under the working folder, setup writes nothing
/// there and says why.
#[test]
fn empty_agent_variables_are_unset_and_a_relative_home_is_none() {
    let lib = TempLib::init(None);
    let home = lib.path("home");
    let sessions = crate::common::root().join("examples/sessions");
    // Claude Code's files under HOME, a decoy in the working folder.
    let projects = home.join(".claude/projects");
    std::fs::create_dir_all(&projects).unwrap();
    copy_dir(&sessions.join("claude/projects"), &projects);
    let cwd = lib.path("cwd");
    std::fs::create_dir_all(cwd.join("projects")).unwrap();
    copy_dir(&sessions.join("codex"), &cwd.join("projects"));
    let run = |envs: &[(&str, &str)], args: &[&str]| {
        let mut c = lib.command();
        c.current_dir(&cwd).args(args);
        for (k, v) in envs {
            c.env(k, v);
        }
        crate::common::cli::Ran::from(c.output().expect("run"))
    };
    let home_s = home.to_str().unwrap();
    let out = run(
        &[
            ("HOME", home_s),
            ("CLAUDE_CONFIG_DIR", ""),
            ("CODEX_HOME", ""),
        ],
        &["--json", "capture", "--dry-run"],
    );
    assert_eq!(out.code, 0, "{out:?}");
    let files = out.json()["files"].as_i64().unwrap_or(-1);
    assert_eq!(
        files, 2,
        "the two Claude Code files under HOME: {}",
        out.stdout
    );
    // A relative HOME: no default place at all, and setup refuses, writing nothing.
    std::fs::create_dir_all(cwd.join("rel/.claude/projects")).unwrap();
    copy_dir(
        &sessions.join("claude/projects"),
        &cwd.join("rel/.claude/projects"),
    );
    let out = run(&[("HOME", "rel")], &["--json", "capture", "--dry-run"]);
    assert_eq!(out.json()["files"].as_i64(), Some(0), "{}", out.stdout);
    let before = std::fs::read_dir(cwd.join("rel/.claude")).unwrap().count();
    run(&[("HOME", "rel")], &["setup", "claude-code"])
        .fails_with("HOME is not set to an absolute folder");
    assert_eq!(
        std::fs::read_dir(cwd.join("rel/.claude")).unwrap().count(),
        before
    );
    assert!(!cwd.join("rel/.claude.json").exists());
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
