//! `recall export`: JSON Lines that `recall import` reads back into the same library
//! (every field, kinds, global marks, transcripts with `--transcripts`), under the
//! filters and the access globs, redacted on the way out, written whole or not at all.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common::cli::{titled, TempLib};
use crate::common::root;

/// Every stored value of every item but when it was imported, in id order.
fn items(lib: &TempLib) -> Vec<String> {
    crate::common::rows_as_text(
        &lib.conn(),
        "select id, source, project, title, summary, questions, atoms, occurred_at,
                transcript, kind, global, context
         from items order by id",
    )
}

/// A library with the bundled sample, the bundled sessions, two items of a kind and a
/// global mark.
fn library() -> TempLib {
    let lib = TempLib::init(None);
    let kinds = [
        r#"{"source": "human", "project": "web", "title": "we keep the CDN", "kind": "decision", "occurred_at": "2024-05-01"}"#,
        r#"{"source": "human", "project": "web", "title": "caches lie", "kind": "gotcha", "global": true, "occurred_at": "2024-05-02"}"#,
    ];
    lib.run_stdin(&["import", "-"], &kinds.join("\n")).ok();
    lib.run(&[
        "import",
        root().join("examples/sample.jsonl").to_str().expect("path"),
    ])
    .ok();
    lib.run(&[
        "capture",
        root().join("examples/sessions").to_str().expect("path"),
    ])
    .ok();
    lib.run(&["promote", "3"]).ok();
    lib
}

fn export(lib: &TempLib, args: &[&str]) -> String {
    let mut full = vec!["export", "-"];
    full.extend_from_slice(args);
    lib.run(&full).ok().stdout
}

#[test]
fn an_export_imported_into_a_new_library_makes_the_same_library() {
    let lib = library();
    let first = export(&lib, &["--transcripts"]);
    let lines = first.lines().count();
    assert_eq!(lines as i64, lib.count("select count(*) from items"));
    let copy = TempLib::init(None);
    copy.run_stdin(&["import", "-"], &first).ok();
    assert_eq!(items(&copy), items(&lib));
    assert_eq!(
        export(&copy, &["--transcripts"]),
        first,
        "the bytes of a second export"
    );
    // Without --transcripts, no line holds one.
    let bare = export(&lib, &[]);
    assert!(bare.lines().all(|l| !l.contains("\"transcript\"")));
    assert!(first.contains("\"transcript\""));
    // The marks travel.
    let marked: Vec<Value> = first
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .filter(|v: &Value| v.get("global").is_some() || v.get("kind").is_some())
        .collect();
    let want = lib.count("select count(*) from items where kind is not null or global");
    assert_eq!(
        want, 3,
        "two items of a kind, one of them global, and item 3"
    );
    assert_eq!(marked.len() as i64, want);
}

fn ids_of(jsonl: &str) -> BTreeSet<i64> {
    jsonl
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).expect("a JSON line")["id"]
                .as_i64()
                .expect("id")
        })
        .collect()
}

fn ids_where(lib: &TempLib, condition: &str) -> BTreeSet<i64> {
    let conn = lib.conn();
    let mut stmt = conn
        .prepare(&format!("select id from items where {condition}"))
        .expect(condition);
    let ids = stmt
        .query_map([], |r| r.get(0))
        .expect(condition)
        .collect::<rusqlite::Result<_>>()
        .expect(condition);
    ids
}

#[test]
fn filters_and_access_choose_the_lines() {
    let lib = library();
    for (args, condition) in [
        (&["--project", "api"][..], "project = 'api'"),
        (&["--source", "agent-codex"], "source = 'agent-codex'"),
        (
            &["--since", "2025-01-01"],
            "occurred_at >= '2025-01-01T00:00:00Z'",
        ),
        (
            &["--until", "2024-03-01"],
            "occurred_at < '2024-03-01T00:00:00Z'",
        ),
        (&["--kind", "decision"], "kind = 'decision'"),
        (&["--allow", "agent-*"], "source glob 'agent-*'"),
        (
            &["--allow", "human*", "--project", "web"],
            "source glob 'human*' and project = 'web'",
        ),
    ] {
        let want = ids_where(&lib, condition);
        assert!(!want.is_empty(), "{condition} selects nothing");
        assert_eq!(ids_of(&export(&lib, args)), want, "{args:?}");
    }
    // The configuration's globs hold as --allow does.
    let config = lib.path("recall.toml");
    std::fs::write(&config, "[access]\nallow = [\"agent-*\"]\n").expect("write config");
    let out = lib
        .run(&["--config", config.to_str().expect("path"), "export", "-"])
        .ok();
    assert_eq!(
        ids_of(&out.stdout),
        ids_where(&lib, "source glob 'agent-*'")
    );
}

#[test]
fn secrets_are_taken_out_on_the_way_out() {
    let secret = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    let lib = TempLib::init(None);
    lib.run(&[
        "add",
        "--no-redact",
        "--source",
        "notes",
        "--title",
        &format!("token {secret} pasted"),
        "--at",
        "2025-01-01",
    ])
    .ok();
    let redacted = export(&lib, &[]);
    assert!(!redacted.contains(secret), "{redacted}");
    assert!(redacted.contains("[redacted]"), "{redacted}");
    let kept = export(&lib, &["--no-redact"]);
    assert!(kept.contains(secret), "{kept}");
}

#[test]
fn a_file_is_written_whole_and_never_over_another() {
    let lib = TempLib::with_items(None, &[titled("one").line(), titled("two").line()]);
    let path = lib.path("out.jsonl");
    let file = path.to_str().expect("path");
    let ran = lib.run(&["--json", "export", file]).ok();
    assert_eq!(ran.json()["exported"], 2);
    let written = std::fs::read_to_string(&path).expect("the export");
    assert_eq!(written.lines().count(), 2);
    lib.run(&["export", file]).fails_with("exists already");
    assert_eq!(std::fs::read_to_string(&path).expect("the export"), written);
    // Nothing but the library, its own files and the export is left in the folder.
    let left: Vec<String> = std::fs::read_dir(lib.dir.path())
        .expect("the folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("partial"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // To standard output under --json, the lines are the items' alone: the report goes
    // to standard error.
    let out = lib.run(&["--json", "export", "-"]).ok();
    assert_eq!(out.stdout.lines().count(), 2);
    assert!(out.stdout.lines().all(|l| l.contains("\"title\"")));
    let report: Value = serde_json::from_str(out.stderr.trim()).expect("a JSON report");
    assert_eq!(report["exported"], 2);
}
