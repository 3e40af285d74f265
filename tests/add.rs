//! `recall add`: every field from flags, one JSON object on stdin, duplicates, and every
//! validation error (one line, exit 2, the library's files unchanged byte for byte).
use std::process::Stdio;

use serde_json::{json, Value};

use crate::common::cli::{generated_items, signal_at_pause, Ran, TempLib};

/// `recall --json get ID --transcript`: the stored item.
fn stored(lib: &TempLib, id: i64) -> Value {
    lib.json(&["get", &id.to_string(), "--transcript"])["item"].clone()
}

fn id_of(out: &Ran) -> i64 {
    out.stdout
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("stdout is not an id: {:?}", out.stdout))
}

#[test]
fn every_field_comes_from_flags() {
    let lib = TempLib::init(None);
    lib.import(&generated_items(20)).ok();
    let transcript = lib.path("session.txt");
    std::fs::write(&transcript, "user: why?\nagent: because\n").unwrap();
    let out = lib
        .run(&[
            "add",
            "--source",
            "agent-claude",
            "--project",
            "shop",
            "--title",
            "Remove the quokka analytics script",
            "--summary",
            "It slowed the checkout page.",
            "--questions",
            "Why was it removed?",
            "--questions",
            "When?",
            "--atoms",
            "src/quokka.js",
            "--atoms",
            "TypeError: quokka is undefined",
            "--at",
            "2024-05-01T12:00:00+02:00",
            "--transcript-file",
            transcript.to_str().unwrap(),
        ])
        .ok();
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    let id = id_of(&out);
    assert_eq!(id, 21, "the next id after 20 imported items");
    let item = stored(&lib, id);
    assert_eq!(item["source"], "agent-claude");
    assert_eq!(item["project"], "shop");
    assert_eq!(item["title"], "Remove the quokka analytics script");
    assert_eq!(item["summary"], "It slowed the checkout page.");
    assert_eq!(item["questions"], "Why was it removed?\nWhen?");
    assert_eq!(
        item["atoms"],
        "src/quokka.js\nTypeError: quokka is undefined"
    );
    assert_eq!(item["occurred_at"], "2024-05-01T10:00:00Z");
    assert_eq!(item["transcript"], "user: why?\nagent: because\n");
    // Indexed like an imported item: search finds it by a word of each indexed field.
    for word in ["quokka", "checkout", "removed", "TypeError"] {
        let found = lib.json(&["search", word]);
        assert_eq!(found["results"][0]["id"], id, "{word}: {found}");
    }
    // Unix seconds, and the JSON answer.
    let out = lib
        .run(&[
            "--json",
            "add",
            "--source",
            "s",
            "--title",
            "epoch",
            "--at",
            "1700000000",
        ])
        .ok()
        .json();
    assert_eq!(
        out,
        json!({"command": "add", "id": 22, "duplicate_of": null, "added": true, "redacted": {}})
    );
    assert_eq!(stored(&lib, 22)["occurred_at"], "2023-11-14T22:13:20Z");
    assert!(stored(&lib, 22).get("transcript").is_none());
}

#[test]
fn without_at_the_time_is_now() {
    let lib = TempLib::init(None);
    let before = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string();
    let id = id_of(&lib.run(&["add", "--source", "s", "--title", "now"]).ok());
    let after = chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string();
    let at = stored(&lib, id)["occurred_at"]
        .as_str()
        .expect("time")
        .to_string();
    assert!(before <= at && at <= after, "{before} <= {at} <= {after}");
}

#[test]
fn stdin_takes_one_object_of_the_import_format() {
    let item = json!({
        "source": "agent-codex", "project": "api", "title": "Pin the wombat driver",
        "summary": "v2 broke pooling", "questions": ["Which version?"], "atoms": "wombat==1.9",
        "occurred_at": "2025-02-03", "transcript": "long talk",
    });
    // The same line through `add -` and through `import -` stores the same item.
    let added = TempLib::init(None);
    let out = added
        .run_stdin(&["--json", "add", "-"], &format!("\u{feff}{item}\n"))
        .ok();
    assert_eq!(out.json()["id"], 1);
    let imported = TempLib::init(None);
    imported.import(&item.to_string()).ok();
    let strip = |mut v: Value| {
        v.as_object_mut().expect("object").remove("imported_at");
        v
    };
    assert_eq!(strip(stored(&added, 1)), strip(stored(&imported, 1)));
    // An id replaces that item, as in import: the old words leave the index.
    let replacement = json!({
        "id": 1, "source": "agent-codex", "title": "Pin the numbat driver",
        "occurred_at": "2025-02-04",
    });
    let out = added
        .run_stdin(&["add", "-"], &replacement.to_string())
        .ok();
    assert_eq!(id_of(&out), 1);
    assert_eq!(added.count("select count(*) from items"), 1);
    assert_eq!(stored(&added, 1)["title"], "Pin the numbat driver");
    assert!(added.matching("wombat").is_empty());
    assert_eq!(added.matching("numbat"), vec![1]);
}

#[test]
fn duplicates_warn_or_are_left_out() {
    let lib = TempLib::init(None);
    let args = [
        "add",
        "--source",
        "s",
        "--title",
        "same",
        "--at",
        "2025-01-01",
    ];
    let first = id_of(&lib.run(&args).ok());
    let again = lib.run(&args).ok();
    assert_eq!(id_of(&again), first + 1);
    assert_eq!(again.stderr.lines().count(), 1, "{}", again.stderr);
    assert!(
        again
            .stderr
            .starts_with(&format!("recall: warning: item {first} is identical"))
            && again.stderr.contains("added again"),
        "{}",
        again.stderr
    );
    let mut skip = vec!["--json"];
    skip.extend(args);
    skip.push("--skip-duplicates");
    let out = lib.run(&skip).ok();
    assert_eq!(
        out.json(),
        json!({"command": "add", "id": first, "duplicate_of": first, "added": false, "redacted": {}})
    );
    assert!(out.stderr.contains("nothing was added"), "{}", out.stderr);
    assert_eq!(lib.count("select count(*) from items"), 2);
}

/// Runs `recall add` with `stdin` bytes (None: no input) and asserts one error line
/// naming `needle`, exit 2, and the library's files unchanged.
fn refused(lib: &TempLib, args: &[&str], stdin: Option<&[u8]>, needle: &str) {
    let before = lib.files();
    let input = lib.path("stdin");
    std::fs::write(&input, stdin.unwrap_or_default()).unwrap();
    let mut cmd = lib.command();
    cmd.arg("add").args(args);
    cmd.stdin(std::fs::File::open(&input).unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let out = cmd.output().expect("run recall add");
    let ran = Ran {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert_eq!(ran.code, 2, "{args:?}: {ran:?}");
    assert!(ran.stdout.is_empty(), "{args:?}: {ran:?}");
    ran.fails_with(needle);
    assert!(
        lib.files() == before,
        "{args:?} changed the library's files"
    );
}

#[test]
fn every_validation_error_is_one_line_and_writes_nothing() {
    let lib = TempLib::init(None);
    lib.import(&generated_items(30)).ok();
    lib.checkpoint();
    let big = lib.path("big.txt");
    std::fs::write(&big, "x".repeat(32 * 1024 * 1024 + 1)).unwrap();
    let latin1 = lib.path("latin1.txt");
    std::fs::write(&latin1, b"caf\xe9").unwrap();
    let flags: &[(&[&str], &str)] = &[
        (&["--title", "t"], "--source is missing"),
        (&["--source", "s"], "--title is missing"),
        (&["--source", "s", "--title", "  "], "--title is empty"),
        (&["--source", "", "--title", "t"], "--source is empty"),
        (
            &["--source", "s", "--title", "t", "--at", "yesterday"],
            "--at \"yesterday\" is not an ISO-8601 time",
        ),
        (
            &["--source", "s", "--title", "t", "--at", "10000-01-01"],
            "--at",
        ),
        (
            &["--source", "s", "--title", "t", "--at", "99999999999999"],
            "--at 99999999999999 is out of range for Unix seconds",
        ),
        (
            &["--source", "s", "--title", &"t".repeat(4097)],
            "--title is 4097 bytes, more than the 4096 allowed",
        ),
        (
            &[
                "--source",
                "s",
                "--title",
                "t",
                "--transcript-file",
                big.to_str().unwrap(),
            ],
            "big.txt is longer than 32 MiB, its limit: give a shorter transcript",
        ),
        (
            &[
                "--source",
                "s",
                "--title",
                "t",
                "--transcript-file",
                latin1.to_str().unwrap(),
            ],
            "invalid UTF-8 at byte 3",
        ),
        (
            &[
                "--source",
                "s",
                "--title",
                "t",
                "--transcript-file",
                "/nonexistent/t.txt",
            ],
            "cannot read /nonexistent/t.txt",
        ),
        (
            &["--source", "s", "--title", "t", "extra"],
            "unexpected argument \"extra\"",
        ),
        (
            &["--source", "s", "--title", "t", "--colour", "red"],
            "--colour",
        ),
        (&["-", "--title", "t"], "--title cannot be given with it"),
    ];
    for (args, needle) in flags {
        refused(&lib, args, None, needle);
    }
    let huge_summary = json!({"source": "s", "title": "t", "occurred_at": 0,
                              "summary": "y".repeat(1024 * 1024 + 1)})
    .to_string();
    let stdin: &[(&[u8], &str)] = &[
        (b"", "standard input is empty"),
        (b"  \n", "standard input is empty"),
        (b"{\"source\": \"s\"", "invalid JSON"),
        (b"[1, 2]", "expected a JSON object, got an array"),
        (
            b"{\"source\":\"s\",\"title\":\"t\",\"occurred_at\":0}\n{\"source\":\"s\",\"title\":\"u\",\"occurred_at\":0}",
            "more than one JSON value",
        ),
        (b"{\"title\":\"t\",\"occurred_at\":0}", "source is missing"),
        (b"{\"source\":\"s\",\"title\":\"t\"}", "occurred_at is missing"),
        (
            b"{\"source\":\"s\",\"title\":\"t\",\"occurred_at\":0,\"colour\":\"red\"}",
            "unknown field \"colour\"",
        ),
        (
            b"{\"source\":\"s\",\"title\":7,\"occurred_at\":0}",
            "title must be a string, got a number",
        ),
        (
            b"{\"source\":\"s\",\"title\":\"a\\u0000b\",\"occurred_at\":0}",
            "title contains a NUL character",
        ),
        (
            b"{\"source\":\"s\",\"title\":\"t\",\"occurred_at\":0,\"id\":-4}",
            "id must be a positive integer",
        ),
        (b"{\"source\":\"caf\xe9\"}", "invalid UTF-8 at byte"),
        (huge_summary.as_bytes(), "summary is 1048577 bytes"),
    ];
    for (input, needle) in stdin {
        refused(&lib, &["-"], Some(input), needle);
    }
    // Under --json the error is one JSON object.
    let out = lib.run(&["--json", "add", "--title", "t"]);
    let err: Value = serde_json::from_str(out.stderr.trim()).expect("JSON error");
    assert_eq!(err["exit_code"], 2);
    assert_eq!(err["error"], "--source is missing; nothing was added");
    assert_eq!(lib.count("select count(*) from items"), 30);
}

#[test]
fn an_interrupted_add_adds_nothing() {
    let lib = TempLib::init(None);
    lib.import(&generated_items(10)).ok();
    let before = lib.snapshot();
    let child = lib
        .command()
        .args(["add", "--source", "s", "--title", "interrupted"])
        .env("RECALL_TEST_PAUSE_AT", "add:1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let (code, stderr) = signal_at_pause(child, libc::SIGINT);
    assert_eq!(code, 130, "{stderr}");
    assert_eq!(
        stderr.trim(),
        "recall: interrupted: nothing was added; the library is as it was"
    );
    assert_eq!(lib.snapshot(), before);
}
