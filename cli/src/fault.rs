//! A test hook for crash tests: with `RECALL_TEST_PAUSE_AT=<point>:<count>`, the command
//! announces `recall: paused at <point>` on stderr when it reaches that point with at
//! least `count` units done, then sleeps, so that a test can kill it there. Unset (always,
//! outside tests), it costs one environment lookup per call.
use std::sync::OnceLock;

fn setting() -> Option<&'static (String, i64)> {
    static SETTING: OnceLock<Option<(String, i64)>> = OnceLock::new();
    SETTING
        .get_or_init(|| {
            let value = std::env::var("RECALL_TEST_PAUSE_AT").ok()?;
            let (point, count) = value.split_once(':')?;
            Some((point.to_string(), count.parse().ok()?))
        })
        .as_ref()
}

pub fn pause_point(point: &str, done: i64) {
    if let Some((p, count)) = setting() {
        if p == point && done >= *count {
            eprintln!("recall: paused at {point}");
            loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            }
        }
    }
}
