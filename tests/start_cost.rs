//! `recall eval --start-cost` (docs/evaluation.md#what-the-session-start-costs): a start
//! in each project just after each of its items, measured against the hook's own
//! answer at that point and the history's size, both computed here.

use crate::common::cli::TempLib;
use crate::common::cli::{titled, Fixture};
use serde_json::{json, Value};

/// The characters of what the start hook, asked now for `project`, adds to the context.
fn hook_start(lib: &TempLib, project: &str) -> usize {
    // No transcript path: an agent the hook does not recognise, as the measure assumes.
    let payload = json!({"session_id": "s-1", "cwd": "/nowhere", "hook_event_name": "SessionStart", "source": "startup"});
    let out = lib
        .run_stdin(&["hook", "--project", project], &payload.to_string())
        .ok();
    let doc: Value = serde_json::from_str(&out.stdout).expect("the hook's JSON");
    doc["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .expect("a context")
        .chars()
        .count()
}

/// Nearest rank, as the docs define it.
fn nearest(sorted: &[usize], q: f64) -> usize {
    sorted[((q * sorted.len() as f64).ceil() as usize).max(1) - 1]
}

#[test]
fn the_start_cost_is_the_hooks_own_text_against_the_history() {
    let items: Vec<(&str, Fixture)> = vec![
        (
            "alpha",
            titled("Moved the billing cron to 02:00 UTC")
                .summary("The nightly run collided with the backup window."),
        ),
        (
            "beta",
            titled("Pinned serde to 1.0.197")
                .summary("A newer release broke the derive on enums with a tag."),
        ),
        (
            "gamma",
            titled("Chose Postgres over SQLite for the shared service")
                .summary("Several writers at once, on three hosts."),
        ),
        (
            "delta",
            titled("Fixed the flaky login test")
                .summary("It waited on a fixed sleep; it waits on the element now."),
        ),
        (
            "delta",
            titled("Rotated the staging TLS certificate")
                .summary("It expired on a Sunday and the health check did not say why."),
        ),
    ];
    let times = [
        "2025-03-01T10:00:00Z",
        "2025-03-02T10:00:00Z",
        "2025-03-03T10:00:00Z",
        "2025-03-04T10:00:00Z",
        "2025-03-05T10:00:00Z",
    ];
    let lines: Vec<String> = items
        .into_iter()
        .zip(times)
        .map(|((p, f), t)| f.project(p).at(t).line())
        .collect();
    let lib = TempLib::init(None);
    lib.import(&lines.join("\n")).ok();
    // delta's first start saw its first item alone: a library of that item, at a path
    // as long as the first's (the usage line names it).
    let first = TempLib::init(None);
    assert_eq!(
        first.path("library.db").to_string_lossy().len(),
        lib.path("library.db").to_string_lossy().len()
    );
    first.import(&lines[3]).ok();
    let mut starts = vec![
        hook_start(&lib, "alpha"),
        hook_start(&lib, "beta"),
        hook_start(&lib, "gamma"),
        hook_start(&first, "delta"),
        hook_start(&lib, "delta"),
    ];
    // The history: the items' title and summary, added up within a project.
    let size = |i: usize| {
        let v: Value = serde_json::from_str(&lines[i]).unwrap();
        ["title", "summary"]
            .iter()
            .map(|k| v[k].as_str().unwrap_or("").chars().count())
            .sum::<usize>()
    };
    let mut histories = vec![size(0), size(1), size(2), size(3), size(3) + size(4)];
    let out = lib.json(&["eval", "--start-cost"]);
    let cost = &out["start_cost"];
    assert_eq!(
        (cost["starts"].as_u64(), cost["projects"].as_u64()),
        (Some(5), Some(4)),
        "{out}"
    );
    starts.sort_unstable();
    histories.sort_unstable();
    let tokens = |v: &[usize]| v.iter().map(|c| c.div_ceil(4)).collect::<Vec<_>>();
    for (key, values) in [
        ("start_chars", starts.clone()),
        ("start_tokens", tokens(&starts)),
        ("history_chars", histories.clone()),
        ("history_tokens", tokens(&histories)),
    ] {
        let mean = values.iter().sum::<usize>() as f64 / values.len() as f64;
        assert_eq!(cost[key]["median"], nearest(&values, 0.5), "{key}: {cost}");
        assert_eq!(cost[key]["p95"], nearest(&values, 0.95), "{key}: {cost}");
        assert!(
            (cost[key]["mean"].as_f64().unwrap() - mean).abs() < 1e-9,
            "{key}: {cost}"
        );
    }
    // The text report says the same.
    let text = lib.run(&["eval", "--start-cost"]).ok().stdout;
    assert!(text.starts_with("5 starts in 4 projects of "), "{text}");
    assert!(
        text.contains(&format!(
            "{:<22} {:>10} {:>10}",
            "start, characters",
            nearest(&starts, 0.5),
            nearest(&starts, 0.95)
        )),
        "{text}"
    );
    // Without a library, the one line of every command.
    TempLib::new()
        .run(&["eval", "--start-cost"])
        .fails_with("no library at");
}
