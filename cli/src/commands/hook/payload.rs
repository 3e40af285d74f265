//! The hook's JSON as Claude Code and Codex send it on standard input: the common fields
//! (`hook_event_name`, `session_id`, `cwd`, `transcript_path`) and each event's own
//! (`prompt`, `source`). A field of the wrong type counts as absent, except the prompt of
//! a prompt event, which the hook cannot go without.
use std::io::IsTerminal;

use serde_json::Value;

use crate::error::Result;
use crate::{err, input};

/// The event, by its name in `hook_event_name`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Start,
    Prompt,
    /// Any other event: one of `[hook] capture_on`, or one the hook does not answer.
    Other(String),
}

#[derive(Debug)]
pub struct Payload {
    pub event: Event,
    pub session: Option<String>,
    pub cwd: Option<String>,
    pub transcript: Option<String>,
    /// `SessionStart`'s `source`: `startup`, `resume`, `clear` or `compact`.
    pub source: Option<String>,
    /// `UserPromptSubmit`'s `prompt`.
    pub prompt: String,
}

impl Payload {
    /// Reads the hook's JSON from standard input.
    pub fn read() -> Result<Payload> {
        let stdin = std::io::stdin().lock();
        if stdin.is_terminal() {
            return Err(err!(
                "`recall hook` reads the hook's JSON (with a \"hook_event_name\") on standard input; it runs as an agent's hook (docs/cli.md#the-session-hook)"
            ));
        }
        let what = "standard input (the hook's JSON)";
        let bytes = input::read_limited(stdin, input::PROMPT, what, "give a shorter prompt")?;
        Payload::parse(&input::text(bytes, what)?)
    }

    pub fn parse(text: &str) -> Result<Payload> {
        let value: Value = serde_json::from_str(text)
            .map_err(|e| err!("standard input is not the hook's JSON ({e})"))?;
        let text_of = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_string);
        // A payload without an event name is the prompt hook's, as this hook began.
        let event = match text_of("hook_event_name").as_deref() {
            Some("SessionStart") => Event::Start,
            Some("UserPromptSubmit") | None => Event::Prompt,
            Some(other) => Event::Other(other.to_string()),
        };
        let prompt = match (&event, value.get("prompt")) {
            (Event::Prompt, Some(Value::String(p))) => p.clone(),
            (Event::Prompt, Some(_)) => {
                return Err(err!("the hook's JSON has a \"prompt\" that is not text"))
            }
            (Event::Prompt, None) => return Err(err!("the hook's JSON has no \"prompt\" field")),
            _ => String::new(),
        };
        Ok(Payload {
            event,
            session: text_of("session_id").filter(|s| !s.is_empty()),
            cwd: text_of("cwd").filter(|s| !s.is_empty()),
            transcript: text_of("transcript_path").filter(|s| !s.is_empty()),
            source: text_of("source"),
            prompt,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_agent_s_payload_reads() {
        // Claude Code's SessionStart, Codex's Stop (with its turn id and a null transcript).
        let p = Payload::parse(
            r#"{"session_id": "abc", "transcript_path": "/t.jsonl", "cwd": "/w/shop",
                "hook_event_name": "SessionStart", "source": "resume"}"#,
        )
        .unwrap();
        assert_eq!(p.event, Event::Start);
        assert_eq!(p.source.as_deref(), Some("resume"));
        assert_eq!(p.cwd.as_deref(), Some("/w/shop"));
        let p = Payload::parse(
            r#"{"session_id": "019d", "turn_id": "t1", "transcript_path": null, "cwd": "/w",
                "hook_event_name": "Stop", "model": "gpt-5", "permission_mode": "default",
                "stop_hook_active": false, "last_assistant_message": "done"}"#,
        )
        .unwrap();
        assert_eq!(p.event, Event::Other("Stop".into()));
        assert_eq!(p.transcript, None);
        assert_eq!(p.session.as_deref(), Some("019d"));
    }

    #[test]
    fn a_prompt_event_needs_its_prompt() {
        let e = Payload::parse(r#"{"hook_event_name": "UserPromptSubmit"}"#).unwrap_err();
        assert!(e.message.contains("no \"prompt\" field"), "{}", e.message);
        let e = Payload::parse(r#"{"prompt": ["x"]}"#).unwrap_err();
        assert!(e.message.contains("not text"), "{}", e.message);
        let p = Payload::parse(r#"{"prompt": "hello", "session_id": 7}"#).unwrap();
        assert_eq!((p.event, p.session), (Event::Prompt, None));
        assert!(Payload::parse("[1]").is_err());
    }
}
