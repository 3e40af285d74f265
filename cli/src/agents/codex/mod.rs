//! Codex CLI: its folder (`$CODEX_HOME`, else `~/.codex`), its rollouts
//! (`sessions/…/rollout-*.jsonl`), its patch tool, how it names MCP tools and where its
//! app keeps worktrees. Its parts of the layers above, here too: the rollout reader
//! (`capture`, capture's layer); the settings files and the trust it needs before it
//! runs a hook (`setup`, with `setup::trust` and `setup::app`, setup's layer).
pub mod capture;
pub mod setup;

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Facts, Tools};

pub static FACTS: Facts = Facts {
    name: "codex",
    title: "Codex",
    help: "Codex CLI",
    program: "codex",
    folder,
    // `archived_sessions`: where `codex` moves a session put away.
    session_folders: &["sessions", "archived_sessions"],
    sessions_shown: "~/.codex/sessions ($CODEX_HOME/sessions)",
    record_type,
    record_shape,
    file_name,
    transcript_folder,
    mcp_tools,
    file_tool,
    worktree,
    state: (".codex", &["sessions", "archived_sessions", "log"]),
};

/// Codex's folder: `$CODEX_HOME`, else `~/.codex`.
pub fn folder() -> Option<PathBuf> {
    crate::places::agent_dir("CODEX_HOME", ".codex")
}

fn record_type(kind: &str) -> bool {
    matches!(
        kind,
        "session_meta" | "turn_context" | "response_item" | "event_msg" | "compacted"
    )
}

/// The first line of a rollout written before the envelope: the session's id and
/// instructions, with no type (none that is text).
fn record_shape(v: &Value) -> bool {
    let typed = v.get("type").and_then(Value::as_str).is_some();
    !typed && v.get("id").is_some() && v.get("instructions").is_some()
}

fn file_name(name: &str) -> bool {
    name.starts_with("rollout-")
}

/// Its rollouts are known by their name alone.
fn transcript_folder(_: &Path) -> bool {
    false
}

/// Codex shows the server's tools behind its tool search, named by server and tool.
fn mcp_tools(_: &str, wired: &dyn Fn() -> bool) -> Option<Tools> {
    wired().then_some(Tools::Server)
}

/// `apply_patch` holds its patch in `command` (or `input`, or is the patch), whose
/// `*** Add File:`, `*** Update File:` and `*** Move to:` lines name the files (relative
/// to `cwd`, or absolute). Codex matches `Edit` and `Write` to `apply_patch` too: a
/// patch by any name.
fn file_tool(tool: &str, input: Option<&Value>) -> Option<Vec<String>> {
    if !matches!(tool, "apply_patch" | "Edit" | "Write") {
        return None;
    }
    let patch = super::input_text(input, "command")
        .or_else(|| super::input_text(input, "input"))
        .or_else(|| input.and_then(Value::as_str).map(str::to_string));
    let files = patch
        .iter()
        .flat_map(|p| p.lines())
        .filter_map(|l| {
            ["*** Add File: ", "*** Update File: ", "*** Move to: "]
                .iter()
                .find_map(|p| l.strip_prefix(p))
        })
        .map(|f| f.trim().to_string())
        .filter(|f| !f.is_empty())
        .collect();
    Some(files)
}

/// `.codex/worktrees/<id>/<repo>` (the Codex app).
fn worktree(parts: &[String], i: usize) -> Option<String> {
    let at = |i: usize| parts.get(i).map(String::as_str);
    match at(i)? {
        "worktrees" if i >= 1 && at(i - 1) == Some(".codex") => at(i + 2).map(str::to_string),
        _ => None,
    }
}
