//! Test hooks, compiled only with the `test-hooks` feature (`make test` enables it; a
//! release build has none). `RECALL_TEST_PAUSE_AT=<point>:<count>` makes a command
//! announce `recall: paused at <point>` on stderr when it reaches that point with at
//! least `count` units done, then sleep, so that a crash test can kill it there;
//! `<point>:<count>:<seconds>` sleeps that long and goes on, so that a signal can come
//! while the command is there.
//! `RECALL_TEST_INIT_VERSION=N` makes `init` build schema version N, for `migrate` tests.
//! `RECALL_TEST_HTTP_TIMEOUT_MS=N` makes each time bound of `recall mcp --http` N
//! milliseconds (`serve/limits.rs`), for the tests of its timeouts.
//! `RECALL_TEST_QUESTION_LIMIT=N` makes the limit on one question of `recall eval
//! --longmemeval` N bytes (`quality/longmemeval.rs`), for the test of it.

#[cfg(feature = "test-hooks")]
fn setting() -> Option<&'static (String, i64, Option<u64>)> {
    use std::sync::OnceLock;
    static SETTING: OnceLock<Option<(String, i64, Option<u64>)>> = OnceLock::new();
    SETTING
        .get_or_init(|| {
            let value = std::env::var("RECALL_TEST_PAUSE_AT").ok()?;
            let mut parts = value.split(':');
            let point = parts.next()?.to_string();
            let count = parts.next()?.parse().ok()?;
            let seconds = match parts.next() {
                Some(s) => Some(s.parse().ok()?),
                None => None,
            };
            Some((point, count, seconds))
        })
        .as_ref()
}

/// Pauses here when a test asked for it; nothing without the `test-hooks` feature.
#[cfg(feature = "test-hooks")]
pub fn pause_point(point: &str, done: i64) {
    if let Some((p, count, seconds)) = setting() {
        if p == point && done >= *count {
            eprintln!("recall: paused at {point}");
            if let Some(seconds) = seconds {
                std::thread::sleep(std::time::Duration::from_secs(*seconds));
                return;
            }
            loop {
                std::thread::sleep(std::time::Duration::from_secs(3600));
            }
        }
    }
}

#[cfg(not(feature = "test-hooks"))]
pub fn pause_point(_point: &str, _done: i64) {}

/// The schema version `init` builds: `latest`, or an older one a test asks for.
#[cfg(feature = "test-hooks")]
pub fn init_version(latest: u32) -> u32 {
    std::env::var("RECALL_TEST_INIT_VERSION")
        .ok()
        .and_then(|v| v.parse().ok())
        .map(|v: u32| v.min(latest))
        .unwrap_or(latest)
}

#[cfg(not(feature = "test-hooks"))]
pub fn init_version(latest: u32) -> u32 {
    latest
}
