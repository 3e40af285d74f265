//! `recall capture` killed with SIGKILL over a run of several files, at each item it
//! writes (a test hook pauses it there, inside the file's transaction) and at random
//! moments: the library is always exactly the state after some whole number of files
//! (those before the one being written, or fewer: files share a transaction), never
//! part of one, and `check` is clean. The same when the run re-captures sessions
//! that grew.
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::capture_read::fixture;
use crate::common::cli::{kill_at_pause, TempLib};
use crate::common::damage::assert_clean;

/// What capture writes: every item (without the time of the write, which differs from
/// run to run), what it records of segments and files, and the index's row count.
fn state(lib: &TempLib) -> String {
    let conn = lib.conn();
    let mut out = String::new();
    for sql in [
        "select json_array(id, source, project, title, summary, questions, atoms, occurred_at, transcript) from items order by id",
        "select json_array(agent, session, segment, item_id) from capture_segments order by 1",
        "select json_array(path, size, mtime_ns) from capture_files order by 1",
        "select 'indexed ' || count(*) from items_fts_docsize",
        "select 'next id ' || coalesce(max(seq), 0) from sqlite_sequence where name = 'items'",
    ] {
        let mut stmt = conn.prepare(sql).unwrap();
        for row in stmt.query_map([], |r| r.get::<_, String>(0)).unwrap() {
            out.push_str(&row.unwrap());
            out.push('\n');
        }
    }
    out
}

/// A Codex rollout of `days` segments (one a day), each a prompt, a command that fails
/// and an answer.
fn rollout(n: usize, days: usize) -> String {
    let mut lines = vec![format!(
        r#"{{"timestamp":"2025-05-0{n}T08:00:00Z","type":"session_meta","payload":{{"id":"kill-{n}","cwd":"/home/dev/p{n}"}}}}"#
    )];
    for d in 0..days {
        lines.push(day(n, d));
    }
    lines.join("\n") + "\n"
}

fn day(n: usize, d: usize) -> String {
    let at = |m: usize| format!("2025-05-{:02}T09:{m:02}:00Z", 1 + n * 5 + d);
    [
        format!(
            r#"{{"timestamp":"{}","type":"response_item","payload":{{"type":"message","role":"user","content":[{{"type":"input_text","text":"session {n} day {d}: why does job {n}{d} fail?"}}]}}}}"#,
            at(0)
        ),
        format!(
            r#"{{"timestamp":"{}","type":"response_item","payload":{{"type":"function_call","name":"shell","arguments":"{{\"command\":[\"bash\",\"-lc\",\"make job{n}{d}\"]}}","call_id":"c{d}"}}}}"#,
            at(1)
        ),
        format!(
            r#"{{"timestamp":"{}","type":"response_item","payload":{{"type":"function_call_output","call_id":"c{d}","output":"{{\"output\":\"error: job{n}{d} failed\\n\",\"metadata\":{{\"exit_code\":2}}}}"}}}}"#,
            at(2)
        ),
        format!(
            r#"{{"timestamp":"{}","type":"response_item","payload":{{"type":"message","role":"assistant","content":[{{"type":"output_text","text":"Job {n}{d} needed its cache cleared."}}]}}}}"#,
            at(3)
        ),
    ]
    .join("\n")
}

/// Five rollouts of three segments each and the Claude Code fixture (three segments), in
/// a folder of their own, listed in the order capture reads them.
fn sessions(dir: &Path) -> Vec<PathBuf> {
    std::fs::create_dir_all(dir).unwrap();
    let mut files = Vec::new();
    for n in 1..=5 {
        let path = dir.join(format!("rollout-{n}.jsonl"));
        std::fs::write(&path, rollout(n, 3)).unwrap();
        files.push(path);
    }
    let claude = crate::capture_read::CLAUDE;
    let path = dir.join(claude.rsplit('/').next().unwrap());
    std::fs::copy(fixture(claude), &path).unwrap();
    files.push(path);
    files.sort();
    files
}

fn copy_of(template: &TempLib) -> TempLib {
    template
        .conn()
        .execute_batch("pragma wal_checkpoint(truncate)")
        .unwrap();
    let lib = TempLib::new();
    std::fs::copy(&template.db, &lib.db).unwrap();
    lib
}

fn spawn(lib: &TempLib, paths: &[PathBuf], pause: Option<String>) -> Child {
    let mut cmd = lib.command();
    cmd.arg("capture")
        .args(paths)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(p) = pause {
        cmd.env("RECALL_TEST_PAUSE_AT", p);
    }
    cmd.spawn().unwrap()
}

/// The states after capturing the first 0, 1, … of `changed` (the files the run will
/// read, in its order), each made by a capture of just those files, and the number of
/// items each file writes.
fn states(template: &TempLib, changed: &[PathBuf]) -> (Vec<String>, Vec<i64>) {
    let mut states = vec![state(&copy_of(template))];
    let mut written = Vec::new();
    for k in 1..=changed.len() {
        let lib = copy_of(template);
        let out = {
            let mut cmd = lib.command();
            cmd.args(["--json", "capture"]).args(&changed[..k]);
            let o = cmd.output().unwrap();
            assert!(o.status.success(), "{o:?}");
            serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
        };
        let total = out["added"].as_i64().unwrap() + out["replaced"].as_i64().unwrap();
        written.push(total - written.iter().sum::<i64>());
        states.push(state(&lib));
    }
    (states, written)
}

/// Kills a capture of `dir` at each item it writes and at random moments; each time the
/// library must be one of `states`, the one the pause point names when there is one.
fn kill_everywhere(template: &TempLib, dir: &Path, changed: &[PathBuf]) {
    let (states, written) = states(template, changed);
    let total: i64 = written.iter().sum();
    assert!(total > changed.len() as i64, "files of several items each");
    let whole_files_before = |item: i64| {
        let mut sum = 0;
        written
            .iter()
            .take_while(|w| {
                sum += **w;
                sum < item
            })
            .count()
    };
    let args = [dir.to_path_buf()];
    for item in 1..=total {
        let lib = copy_of(template);
        kill_at_pause(spawn(&lib, &args, Some(format!("capture:{item}"))));
        // Files share a transaction while no writer waits (`capture::run::Batch`): the
        // state is that of a whole number of files, none of them the one being written.
        let k = whole_files_before(item);
        let now = state(&lib);
        let kept = states.iter().position(|s| *s == now);
        assert!(
            kept.is_some_and(|j| j <= k),
            "killed writing item {item}: not the state after a whole number of files up to {k} (it is after {kept:?})"
        );
        assert_clean(&lib);
    }
    let took = {
        let lib = copy_of(template);
        let started = Instant::now();
        assert!(spawn(&lib, &args, None).wait().unwrap().success());
        assert_eq!(state(&lib), *states.last().unwrap(), "the run's end");
        started.elapsed()
    };
    let mut rng = StdRng::seed_from_u64(27);
    let mut seen = vec![0; states.len()];
    let span = (took.as_millis() as u64 * 2).max(20);
    for _ in 0..12 {
        let lib = copy_of(template);
        let mut child = spawn(&lib, &args, None);
        std::thread::sleep(Duration::from_millis(rng.random_range(1..span)));
        let _ = child.kill();
        child.wait().unwrap();
        let now = state(&lib);
        let k = states
            .iter()
            .position(|s| *s == now)
            .expect("a random kill left a state that is no whole number of files");
        seen[k] += 1;
        assert_clean(&lib);
    }
    eprintln!("random kills: runs left after 0, 1, … whole files: {seen:?}");
}

#[test]
fn a_killed_capture_leaves_whole_files() {
    let template = TempLib::init(None);
    let dir = template.path("sessions");
    let files = sessions(&dir);
    kill_everywhere(&template, &dir, &files);
}

#[test]
fn a_killed_capture_of_grown_sessions_leaves_whole_files() {
    let template = TempLib::init(None);
    let dir = template.path("sessions");
    let files = sessions(&dir);
    template.run(&["capture", dir.to_str().unwrap()]).ok();
    // Two sessions grow: each replaces its last segment's item and adds two.
    let grown: Vec<PathBuf> = vec![files[1].clone(), files[3].clone()];
    for (i, path) in grown.iter().enumerate() {
        let n: usize = path
            .file_stem()
            .unwrap()
            .to_str()
            .unwrap()
            .trim_start_matches("rollout-")
            .parse()
            .unwrap();
        let mut text = std::fs::read_to_string(path).unwrap();
        let last = text.trim_end().rsplit('\n').next().unwrap().to_string();
        text.push_str(&last.replace("cache cleared", &format!("cache cleared ({i})")));
        text.push('\n');
        text.push_str(&(day(n, 3) + "\n" + &day(n, 4) + "\n"));
        std::fs::write(path, text).unwrap();
    }
    kill_everywhere(&template, &dir, &grown);
}
