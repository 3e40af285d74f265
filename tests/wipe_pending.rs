//! What `check` says of a forget's wipe left pending: why it did not finish when a
//! reader (Litestream keeps one open on a primary) held the log, and "cut off" only when
//! the forget was cut off.
use crate::common::cli::{kill_at_pause, TempLib};

fn wipe_line(lib: &TempLib) -> String {
    let text = lib.run(&["check"]);
    text.stdout
        .lines()
        .find(|l| l.starts_with("PROBLEM wipe: "))
        .unwrap_or_else(|| panic!("no wipe problem: {}", text.stdout))
        .to_string()
}

/// Class: `check`'s report of a pending wipe. A reader holding the log (as Litestream
/// does beside a primary) leaves the wipe pending: `check` says it is pending and why,
/// not that the forget was cut off; a forget killed after its commit is "cut off".
#[test]
fn a_pending_wipe_is_told_as_it_is() {
    let lib = TempLib::init(None);
    lib.import(
        &[
            r#"{"source": "s", "title": "the okapi token", "occurred_at": "2025-01-01T00:00:00Z"}"#,
            r#"{"source": "s", "title": "the quagga token", "occurred_at": "2025-01-01T00:00:00Z"}"#,
        ]
        .join("\n"),
    )
    .ok();
    let reader = lib.conn();
    reader.execute_batch("begin").unwrap();
    let _: i64 = reader
        .query_row("select count(*) from items", [], |r| r.get(0))
        .unwrap();
    let out = lib.run(&["--json", "forget", "1"]);
    assert_eq!(out.code, 1, "{out:?}");
    assert_eq!(out.json()["wiped"], false);
    let line = wipe_line(&lib);
    assert!(
        line.contains("the wipe of the file is still pending")
            && line.contains("another process (a reader, or Litestream")
            && !line.contains("cut off")
            && line.ends_with("run `recall forget --finish`"),
        "{line}"
    );
    reader.execute_batch("commit").unwrap();
    drop(reader);
    lib.run(&["forget", "--finish"]).ok();
    assert!(lib.run(&["--json", "check"]).failed_checks().is_empty());
    // Killed after the commit, before the file was rewritten: cut off, and said so.
    let mut cmd = lib.command();
    cmd.args(["forget", "2"])
        .env("RECALL_TEST_PAUSE_AT", "wipe_vacuumed:1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    kill_at_pause(cmd.spawn().unwrap());
    let line = wipe_line(&lib);
    assert!(
        line.contains("was cut off before it wiped the file"),
        "{line}"
    );
}
