//! The agents' hook events that may capture a session (`[hook] capture_on`): those that
//! carry the session's `transcript_path` and come when a session, a turn or a stretch of
//! the conversation is over.

/// Every event `capture_on` may name (Claude Code's and Codex's spelling is the same).
pub const CAPTURING: [&str; 4] = ["SessionEnd", "Stop", "PreCompact", "PostCompact"];

/// By default a session is captured when it ends, when a turn stops (Codex has no
/// session end) and before its conversation is compacted.
pub fn default_capture() -> Vec<String> {
    ["SessionEnd", "Stop", "PreCompact"]
        .map(str::to_string)
        .to_vec()
}

/// Each name is a capturing event.
pub fn check(name: &str, events: &[String]) -> Result<(), String> {
    match events.iter().find(|e| !CAPTURING.contains(&e.as_str())) {
        None => Ok(()),
        Some(other) => Err(format!(
            "{name}: {other:?} is not an event that can capture a session; the events are {}",
            CAPTURING.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_valid_and_others_are_named() {
        assert_eq!(check("hook.capture_on", &default_capture()), Ok(()));
        assert_eq!(check("k", &[]), Ok(()));
        let err = check("hook.capture_on", &["SessionEnd".into(), "Stopp".into()]).unwrap_err();
        assert!(
            err.starts_with("hook.capture_on: \"Stopp\" is not"),
            "{err}"
        );
        assert!(err.contains("PreCompact"), "{err}");
    }
}
