//! Claude Code: the hooks in `settings.json`, the MCP server in `~/.claude.json` (user
//! scope, the file `claude mcp add --scope user` writes) or the project's `.mcp.json`.
use std::path::{Path, PathBuf};

use crate::places;
use crate::setup::json::Event;
use crate::setup::{home, Part, Target};

/// The events recall's hook answers in Claude Code: `PostToolUse` after the tools that
/// read or change a file, `PreToolUse` before those that change one and before a shell
/// command, `PostToolUseFailure` after a shell command failed.
pub const EVENTS: &[Event] = &[
    Event {
        name: "SessionStart",
        matcher: None,
        timeout: None,
    },
    Event {
        name: "UserPromptSubmit",
        matcher: None,
        timeout: None,
    },
    Event {
        name: "SessionEnd",
        matcher: None,
        timeout: None,
    },
    Event {
        name: "PostToolUse",
        matcher: Some("Read|Edit|MultiEdit|Write|NotebookEdit"),
        timeout: None,
    },
    Event {
        name: "PreToolUse",
        matcher: Some("Edit|MultiEdit|Write|NotebookEdit|Bash"),
        timeout: None,
    },
    Event {
        name: "PostToolUseFailure",
        matcher: Some("Bash"),
        timeout: None,
    },
];

/// Claude Code's part of setup: runs every hook it is given.
pub static PART: crate::setup::AgentPart = crate::setup::AgentPart {
    targets: user_or_project,
    server_targets: |project| Some(crate::setup::server_files(user_or_project(project)?)),
    hook_trust: None,
};

fn user_or_project(project: Option<&Path>) -> Option<Vec<Target>> {
    match project {
        None => user_targets(),
        Some(root) => Some(project_targets(root)),
    }
}

/// Claude Code's user folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
pub fn config_dir() -> Option<PathBuf> {
    crate::agents::claude::folder()
}

pub fn user_targets() -> Option<Vec<Target>> {
    // With CLAUDE_CONFIG_DIR set, Claude Code keeps `.claude.json` in that folder.
    let state = match places::variable("CLAUDE_CONFIG_DIR") {
        Some(dir) => dir.join(".claude.json"),
        None => home()?.join(".claude.json"),
    };
    Some(vec![
        Target {
            path: config_dir()?.join("settings.json"),
            part: Part::hooks(EVENTS),
        },
        Target {
            path: state,
            part: Part::ServerJson,
        },
    ])
}

pub fn project_targets(root: &Path) -> Vec<Target> {
    vec![
        Target {
            path: root.join(".claude").join("settings.json"),
            part: Part::hooks(EVENTS),
        },
        Target {
            path: root.join(".mcp.json"),
            part: Part::ServerJson,
        },
    ]
}
