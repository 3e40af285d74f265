//! Codex: the hooks in `hooks.json`, the MCP server in `config.toml`
//! (`[mcp_servers.recall]`), in `~/.codex` (or `$CODEX_HOME`) or the project's `.codex`.
use std::path::{Path, PathBuf};

use super::json::Event;
use super::{agent_dir, Part, Target};

/// The events recall's hook answers in Codex: it has no session end, and each turn's
/// `Stop` captures what the session holds so far; `PostToolUse` after `apply_patch`, the
/// tool that changes files.
pub const EVENTS: &[Event] = &[
    Event {
        name: "SessionStart",
        matcher: None,
    },
    Event {
        name: "UserPromptSubmit",
        matcher: None,
    },
    Event {
        name: "Stop",
        matcher: None,
    },
    Event {
        name: "PostToolUse",
        matcher: Some("apply_patch"),
    },
];

/// Codex's folder: `$CODEX_HOME`, else `~/.codex`.
pub fn config_dir() -> Option<PathBuf> {
    agent_dir("CODEX_HOME", ".codex")
}

fn targets(dir: &Path) -> Vec<Target> {
    vec![
        Target {
            path: dir.join("hooks.json"),
            part: Part::HooksJson(EVENTS),
        },
        Target {
            path: dir.join("config.toml"),
            part: Part::ServerToml,
        },
    ]
}

pub fn user_targets() -> Option<Vec<Target>> {
    Some(targets(&config_dir()?))
}

pub fn project_targets(root: &Path) -> Vec<Target> {
    targets(&root.join(".codex"))
}
