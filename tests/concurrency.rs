//! Sixteen agents read (search, later, related, timeline through the CLI) while one
//! writes (imports and replaces items) for 30 seconds: no command fails, every committed
//! item is searchable afterwards, the index is intact and the counts agree. And writers
//! beside a long capture: `add` and a second capture get their turns.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::common::cli::{generated_items, TempLib};

const READERS: usize = 16;

fn seconds() -> u64 {
    std::env::var("RECALL_CONCURRENCY_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30)
}

#[derive(Default)]
struct Stats {
    ops: usize,
    failures: Vec<String>,
    worst: Duration,
}

#[test]
fn sixteen_readers_and_a_writer() {
    let _turn = crate::common::heavy();
    let lib = Arc::new(TempLib::init(None));
    lib.import(&generated_items(2_000)).ok();
    let stop = Arc::new(AtomicBool::new(false));
    let reads = Arc::new(Mutex::new(Stats::default()));
    let mut readers = Vec::new();
    for r in 0..READERS {
        let (lib, stop, reads) = (Arc::clone(&lib), Arc::clone(&stop), Arc::clone(&reads));
        readers.push(std::thread::spawn(move || {
            let mut n = 0usize;
            while !stop.load(Ordering::Relaxed) {
                let id = ((r * 131 + n * 17) % 2_000 + 1).to_string();
                let word = format!("widget{}", (r + n) % 101);
                let args: Vec<&str> = match n % 4 {
                    0 => vec!["--json", "search", &word, "--limit", "20"],
                    1 => vec!["--json", "later", &id],
                    2 => vec!["--json", "related", "migrate the widget table analytics"],
                    _ => vec!["--json", "timeline", "--project", "project-3"],
                };
                let started = Instant::now();
                let out = lib.run(&args);
                let took = started.elapsed();
                let mut s = reads.lock().unwrap();
                s.ops += 1;
                s.worst = s.worst.max(took);
                if out.code != 0 || serde_json::from_str::<serde_json::Value>(&out.stdout).is_err()
                {
                    s.failures
                        .push(format!("{args:?}: exit {} {}", out.code, out.stderr.trim()));
                }
                n += 1;
            }
        }));
    }
    // The writer: batches of 40 new items, each with a unique word, and 10 replacements
    // of earlier items by id, whose old unique word must disappear.
    let started = Instant::now();
    let mut batches = 0usize;
    let mut write_worst = Duration::ZERO;
    let mut write_failures = Vec::new();
    let mut replaced: Vec<(i64, String)> = Vec::new();
    let mut superseded: Vec<String> = Vec::new();
    while started.elapsed() < Duration::from_secs(seconds()) {
        let mut lines = Vec::new();
        for i in 0..40 {
            lines.push(serde_json::json!({
                "source": "writer", "project": "project-w", "title": format!("fresh item uniq{batches}x{i}z"),
                "occurred_at": "2025-06-01T00:00:00Z",
            }).to_string());
        }
        for i in 0..10 {
            let id = (batches * 10 + i) as i64 % 2_000 + 1;
            lines.push(serde_json::json!({
                "id": id, "source": "writer", "project": "project-w", "title": format!("replaced item repl{batches}x{i}z"),
                "occurred_at": "2025-06-02T00:00:00Z",
            }).to_string());
            if let Some(pos) = replaced.iter().position(|(rid, _)| *rid == id) {
                superseded.push(replaced.remove(pos).1);
            }
            replaced.push((id, format!("repl{batches}x{i}z")));
        }
        let t = Instant::now();
        let out = lib.import(&lines.join("\n"));
        write_worst = write_worst.max(t.elapsed());
        if out.code != 0 {
            write_failures.push(out.stderr);
        }
        batches += 1;
    }
    stop.store(true, Ordering::Relaxed);
    for r in readers {
        r.join().expect("reader thread");
    }
    let elapsed = started.elapsed().as_secs_f64();
    let s = reads.lock().unwrap();
    assert!(
        s.failures.is_empty(),
        "{} failed reads, first: {:?}",
        s.failures.len(),
        &s.failures[..s.failures.len().min(3)]
    );
    assert!(
        write_failures.is_empty(),
        "failed writes: {write_failures:?}"
    );
    assert!(
        batches >= 5 && s.ops >= 100,
        "too little happened: {batches} batches, {} reads",
        s.ops
    );
    eprintln!(
        "{} reads by {READERS} processes ({:.0}/s, worst {:.0} ms), {batches} import batches of 50 ({:.1}/s, worst {:.0} ms) in {elapsed:.1} s",
        s.ops,
        s.ops as f64 / elapsed,
        s.worst.as_secs_f64() * 1e3,
        batches as f64 / elapsed,
        write_worst.as_secs_f64() * 1e3
    );
    // Every committed new item is searchable by its unique word.
    for b in 0..batches {
        for i in 0..40 {
            assert_eq!(
                lib.matching(&format!("\"uniq{b}x{i}z\"")).len(),
                1,
                "uniq{b}x{i}z"
            );
        }
    }
    // Replaced items answer to their last word only.
    for (id, word) in &replaced {
        assert_eq!(lib.matching(&format!("\"{word}\"")), vec![*id], "{word}");
    }
    // Words of replaced versions are gone from the index.
    for word in &superseded {
        assert_eq!(
            lib.matching(&format!("\"{word}\"")),
            Vec::<i64>::new(),
            "stale {word}"
        );
    }
    let total = 2_000 + 40 * batches as i64;
    assert_eq!(lib.count("select count(*) from items"), total);
    assert_eq!(lib.count("select count(*) from items_fts_docsize"), total);
    let check = lib.json(&["check"]);
    assert_eq!(check["healthy"], true, "{check}");
}

/// A Claude Code transcript of one small session (a prompt and an answer).
fn small_session(path: &std::path::Path, session: &str, word: &str) {
    let record = |kind: &str, at: &str, message: serde_json::Value| {
        serde_json::json!({"type": kind, "sessionId": session, "cwd": "/home/dev/shop",
            "timestamp": at, "isSidechain": false, "uuid": format!("{session}-{kind}"),
            "message": message})
        .to_string()
    };
    let lines = [
        record(
            "user",
            "2025-07-01T10:00:00.000Z",
            serde_json::json!({"role": "user", "content": format!("Why does the {word} job fail?")}),
        ),
        record(
            "assistant",
            "2025-07-01T10:00:30.000Z",
            serde_json::json!({"role": "assistant",
                "content": [{"type": "text", "text": format!("The {word} job needed its cache cleared.")}]}),
        ),
    ];
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// Class: writers starved by a capture that commits file after file. Beside a capture
/// of 2,000 files, with a busy timeout of 0.5 s (each file's transaction takes a few
/// ms), thirty `add`s and a second capture all succeed, and everything is written.
#[test]
fn writers_beside_a_long_capture_get_their_turns() {
    let _turn = crate::common::heavy();
    let lib = TempLib::init(None);
    let config = lib.path("recall.toml");
    std::fs::write(&config, "[storage]\nbusy_timeout_ms = 500\n").unwrap();
    let config = config.to_str().unwrap().to_string();
    let (long, short) = (lib.path("long"), lib.path("short"));
    for (dir, n) in [(&long, 2000), (&short, 40)] {
        std::fs::create_dir_all(dir).unwrap();
        for i in 0..n {
            let name = format!("{}-{i}", dir.file_name().unwrap().to_str().unwrap());
            small_session(
                &dir.join(format!("{name}.jsonl")),
                &name,
                &format!("w{name}z"),
            );
        }
    }
    let mut capture = lib.command();
    capture
        .args(["--config", &config, "capture"])
        .arg(&long)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    let capture = capture.spawn().unwrap();
    // Once it writes.
    let deadline = Instant::now() + Duration::from_secs(60);
    while lib.count("select count(*) from capture_files") == 0 {
        assert!(Instant::now() < deadline, "the capture wrote nothing");
        std::thread::sleep(Duration::from_millis(10));
    }
    let second = {
        let (db, config, short) = (lib.db.clone(), config.clone(), short.clone());
        std::thread::spawn(move || {
            std::process::Command::new(crate::common::cli::recall_bin())
                .arg("--db")
                .arg(db)
                .args(["--config", &config, "capture"])
                .arg(short)
                .output()
                .unwrap()
        })
    };
    let mut failures = Vec::new();
    // How many adds ended while the long capture still ran: those are the test.
    let mut capture = capture;
    let mut beside = 0;
    for i in 0..30 {
        let out = lib.run(&[
            "--config",
            &config,
            "add",
            "--source",
            "notes",
            "--title",
            &format!("added while capturing uniq{i}q"),
        ]);
        if out.code != 0 {
            failures.push(out.stderr);
        }
        if capture.try_wait().unwrap().is_none() {
            beside += 1;
        }
    }
    let second = second.join().unwrap();
    let capture = capture.wait_with_output().unwrap();
    assert!(
        failures.is_empty(),
        "adds failed beside the capture: {failures:?}"
    );
    assert!(
        beside >= 5,
        "only {beside} adds ended while the long capture ran: nothing was tested"
    );
    assert!(
        second.status.success(),
        "the second capture failed: {}",
        String::from_utf8_lossy(&second.stderr)
    );
    assert!(
        capture.status.success(),
        "the long capture failed: {}",
        String::from_utf8_lossy(&capture.stderr)
    );
    assert_eq!(lib.count("select count(*) from capture_files"), 2040);
    assert_eq!(
        lib.count("select count(*) from items where source = 'claude-code'"),
        2040
    );
    for i in 0..30 {
        assert_eq!(lib.matching(&format!("\"uniq{i}q\"")).len(), 1, "uniq{i}q");
    }
}
