//! SIGKILL during import, `rebuild --tokenizer`, `optimize` and `migrate`, at chosen
//! points (a test hook pauses the command inside its transaction) and after random
//! delays: the library is always exactly the before or the after state, `check` is
//! clean, and no item is lost.

use std::process::{Child, Stdio};
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::common::cli::{generated_items, kill_at_pause, TempLib};

fn spawn(
    lib: &TempLib,
    args: &[&str],
    pause: Option<&str>,
    stdin_file: Option<&std::path::Path>,
) -> Child {
    let mut cmd = lib.command();
    cmd.args(args).stdout(Stdio::null()).stderr(Stdio::piped());
    if let Some(p) = pause {
        cmd.env("RECALL_TEST_PAUSE_AT", p);
    }
    if let Some(f) = stdin_file {
        cmd.stdin(std::fs::File::open(f).expect("input"));
    }
    cmd.spawn().expect("spawn recall")
}

/// A library copied from a template, so that every run starts from the same state.
fn copy_of(template: &TempLib) -> TempLib {
    template
        .conn()
        .execute_batch("pragma wal_checkpoint(truncate)")
        .expect("checkpoint");
    let lib = TempLib::new();
    std::fs::copy(&template.db, &lib.db).expect("copy library");
    lib
}

/// `check` finds no problem (a schema still behind is the before state of `migrate`).
fn assert_healthy(lib: &TempLib) {
    let behind = lib.count("pragma user_version") < crate::common::latest_version();
    let failed: Vec<String> = lib
        .run(&["--json", "check"])
        .failed_checks()
        .into_iter()
        .filter(|name| !(behind && name == "schema"))
        .collect();
    assert!(failed.is_empty(), "check after the crash: {failed:?}");
}

/// Runs the command to completion on a copy: the after state, and how long it took.
fn after_state(
    template: &TempLib,
    args: &[&str],
    input: Option<&std::path::Path>,
) -> (String, Duration) {
    let lib = copy_of(template);
    let started = std::time::Instant::now();
    let status = spawn(&lib, args, None, input).wait().expect("wait");
    let took = started.elapsed();
    assert!(status.success(), "{args:?} failed");
    (lib.snapshot(), took)
}

fn crash_matrix(
    template: &TempLib,
    args: &[&str],
    points: &[&str],
    input: Option<&std::path::Path>,
) {
    crash_matrix_between(template, args, points, input, &[]);
}

/// As `crash_matrix`, for a command made of several transactions: a kill may also leave
/// one of the `between` states (each a whole transaction committed).
fn crash_matrix_between(
    template: &TempLib,
    args: &[&str],
    points: &[&str],
    input: Option<&std::path::Path>,
    between: &[String],
) {
    let before = copy_of(template).snapshot();
    let (after, took) = after_state(template, args, input);
    for point in points {
        let lib = copy_of(template);
        kill_at_pause(spawn(&lib, args, Some(point), input));
        assert_eq!(lib.snapshot(), before, "{args:?} killed at {point}");
        assert_healthy(&lib);
    }
    let mut rng = StdRng::seed_from_u64(11);
    let mut outcomes = (0, 0);
    // Random moments from start-up to well past the usual end of the command.
    let span = (took.as_millis() as u64 * 2).max(20);
    for _ in 0..8 {
        let lib = copy_of(template);
        let mut child = spawn(&lib, args, None, input);
        std::thread::sleep(Duration::from_millis(rng.random_range(1..span)));
        let _ = child.kill();
        child.wait().expect("reap");
        let state = lib.snapshot();
        if state == before || between.contains(&state) {
            outcomes.0 += 1;
        } else {
            assert_eq!(
                state, after,
                "{args:?}: neither the before nor the after state"
            );
            outcomes.1 += 1;
        }
        assert_healthy(&lib);
    }
    eprintln!(
        "{args:?}: random kills left {} before and {} after states",
        outcomes.0, outcomes.1
    );
}

#[test]
fn killing_import_loses_nothing() {
    let _turn = crate::common::heavy();
    let template = TempLib::init(None);
    template.import(&generated_items(2_000)).ok();
    let input = template.path("more.jsonl");
    std::fs::write(&input, generated_items(8_000)).unwrap();
    crash_matrix(
        &template,
        &["import", "-"],
        &["import:1", "import:4000", "import:8000"],
        Some(&input),
    );
}

#[test]
fn killing_rebuild_with_a_new_tokenizer_loses_nothing() {
    let _turn = crate::common::heavy();
    let template = TempLib::init(None);
    template.import(&generated_items(12_000)).ok();
    crash_matrix(
        &template,
        &["rebuild", "--tokenizer", "unicode61 remove_diacritics 2"],
        &["rebuild:2000", "rebuild:8000", "rebuild:12000"],
        None,
    );
}

#[test]
fn killing_optimize_loses_nothing() {
    let _turn = crate::common::heavy();
    let template = TempLib::init(None);
    // Many small imports leave many index segments for optimize to merge.
    for _ in 0..20 {
        template.import(&generated_items(300)).ok();
    }
    crash_matrix(&template, &["optimize"], &["optimize:1"], None);
}

#[test]
fn killing_migrate_loses_nothing() {
    let _turn = crate::common::heavy();
    // From version 2: 0003 moves every row to a new table; a kill leaves the state
    // before it, after it, or after one of the later migrations, each of which commits
    // on its own.
    let template = TempLib::init_at_version(2);
    template.import_at_v1(&generated_items(3_000));
    // The migrations after 0003 commit on their own: a kill may fall after 0003's.
    let between: Vec<String> = (4..=crate::common::latest_version())
        .map(|next| {
            let lib = copy_of(&template);
            kill_at_pause(spawn(
                &lib,
                &["migrate"],
                Some(&format!("migrate:{next}")),
                None,
            ));
            lib.snapshot()
        })
        .collect();
    crash_matrix_between(&template, &["migrate"], &["migrate:3"], None, &between);
    // After a crash the migrations still apply.
    let template = TempLib::init_at_version_1();
    template.import_at_v1(&generated_items(3_000));
    let lib = copy_of(&template);
    kill_at_pause(spawn(&lib, &["migrate"], Some("migrate:2"), None));
    assert_eq!(lib.count("pragma user_version"), 1);
    lib.run(&["migrate"]).ok();
    assert_eq!(
        lib.count("pragma user_version"),
        crate::common::latest_version()
    );
    assert_eq!(
        lib.count("select count(*) from recall_migrations"),
        crate::common::latest_version()
    );
    assert_eq!(lib.count("select count(*) from items"), 3_000);
    assert_healthy(&lib);
}
