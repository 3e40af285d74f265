//! Claude Code: its folder (`$CLAUDE_CONFIG_DIR`, else `~/.claude`), its transcripts
//! (`projects/FOLDER/ID.jsonl`), its file tools, how it names MCP tools and where it
//! keeps worktrees. Its parts of the layers above, here too: the transcript reader and
//! the folder its files tell a session's project by (`capture`, capture's layer) and the settings files (`setup`, setup's layer).
pub mod capture;
pub mod setup;

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Facts, Tools};

pub static FACTS: Facts = Facts {
    name: "claude-code",
    title: "Claude Code",
    help: "Claude Code",
    program: "claude",
    folder,
    session_folders: &["projects"],
    sessions_shown: "~/.claude/projects ($CLAUDE_CONFIG_DIR/projects)",
    record_type,
    record_shape,
    file_name,
    transcript_folder,
    mcp_tools,
    file_tool,
    worktree,
    // Plans written in plan mode, to-do lists, transcripts and automatic memory, the
    // files kept to undo edits, shell snapshots and the program's own caches.
    state: (
        ".claude",
        &[
            "plans",
            "todos",
            "projects",
            "file-history",
            "shell-snapshots",
            "session-env",
            "statsig",
            "debug",
            "ide",
        ],
    ),
};

/// Records of the program's own, read and left out without being counted as unknown:
/// its bookkeeping of progress, snapshots, settings, requests and costs (2.1.328 writes
/// `api-request`, `api-request-blob`, `api-request-shape`, `atis-latch`, `cost-state`,
/// `tools-used`). A type not listed that holds no message is counted quietly as the
/// program's (`Session::program_records`); one that holds a message is `type:NAME`.
pub const KNOWN_OTHER: &[&str] = &[
    "progress",
    "file-history-snapshot",
    "file-history-delta",
    "queue-operation",
    "attachment",
    "permission-mode",
    "pr-link",
    "agent-name",
    "agent-color",
    "agent-setting",
    "last-prompt",
    "mode",
    "memory-mode",
    "tag",
    "continued-in",
    "content-replacement",
    "relocated",
    "worktree-state",
    "fork-context-ref",
    "frame-link",
    "ended-by-model",
    "api-request",
    "api-request-blob",
    "api-request-shape",
    "atis-latch",
    "isolation-latch",
    "cost-state",
    "tools-used",
    "dev-mods",
    "bridge-session",
    "history-suppression",
    "attribution-snapshot",
    "observer-ref",
    "artifact-comment-monitor",
    "artifact-autoreact-ledger",
];

/// Claude Code's user folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
pub fn folder() -> Option<PathBuf> {
    crate::places::agent_dir("CLAUDE_CONFIG_DIR", ".claude")
}

fn record_type(kind: &str) -> bool {
    matches!(kind, "user" | "assistant" | "summary")
        // A file of the program's own records only (snapshots, settings) is still its.
        || KNOWN_OTHER.contains(&kind)
}

/// Every record of a session names its session.
fn record_shape(v: &Value) -> bool {
    v.get("sessionId").is_some()
}

/// Its transcripts are named by their session's id: the name alone tells nothing.
fn file_name(_: &str) -> bool {
    false
}

/// `…/projects/FOLDER/ID.jsonl`.
fn transcript_folder(path: &Path) -> bool {
    let projects = path.parent().and_then(Path::parent);
    projects
        .and_then(Path::file_name)
        .is_some_and(|n| n == "projects")
}

/// Claude Code's names of recall's tools (`mcp__SERVER__TOOL`): the plugin's server when
/// the hook runs from a plugin that has one (`CLAUDE_PLUGIN_ROOT`), else the server of
/// its settings.
fn mcp_tools(server: &str, wired: &dyn Fn() -> bool) -> Option<Tools> {
    let from_plugin = std::env::var_os("CLAUDE_PLUGIN_ROOT")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .and_then(|root| plugin_server(&root, server));
    let server = match from_plugin {
        Some(server) => server,
        None if wired() => server.to_string(),
        None => return None,
    };
    // Each character of the server's name that is not a letter, digit, `_` or `-` is
    // made `_` (a plugin's server is `plugin:NAME:recall`).
    let server: String = server
        .chars()
        .map(
            |c| match c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                true => c,
                false => '_',
            },
        )
        .collect();
    Some(Tools::Prefixed(format!("mcp__{server}__")))
}

/// The name Claude Code gives the MCP server `server` of the plugin at `root`, if its
/// `.mcp.json` has one: `plugin:NAME:SERVER`, NAME the manifest's.
fn plugin_server(root: &Path, server: &str) -> Option<String> {
    let read = |path: PathBuf| -> Option<Value> {
        serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
    };
    let servers = read(root.join(".mcp.json"))?;
    servers.get("mcpServers")?.get(server)?;
    let manifest = read(root.join(".claude-plugin").join("plugin.json"))?;
    let name = manifest.get("name")?.as_str()?;
    Some(format!("plugin:{name}:{server}"))
}

/// `Read`, `Edit`, `MultiEdit` and `Write` name their file in `file_path`,
/// `NotebookEdit` in `notebook_path` (the tools `setup::EVENTS` here matches). An
/// input with a `command` and no `file_path` is a patch by the name of one of these
/// (Codex's).
fn file_tool(tool: &str, input: Option<&Value>) -> Option<Vec<String>> {
    let field = |key: &str| super::input_text(input, key);
    let patch = field("file_path").is_none() && field("command").is_some();
    match tool {
        "Read" | "Edit" | "MultiEdit" | "Write" if !patch => {
            Some(field("file_path").into_iter().collect())
        }
        "NotebookEdit" => Some(field("notebook_path").into_iter().collect()),
        _ => None,
    }
}

/// `.claude-worktrees/<repo>/<name>` (Claude Code's app) and
/// `<repo>/.claude/worktrees/<name>` (Claude Code's `--worktree`).
fn worktree(parts: &[String], i: usize) -> Option<String> {
    let at = |i: usize| parts.get(i).map(String::as_str);
    match at(i)? {
        ".claude-worktrees" => at(i + 1).map(str::to_string),
        "worktrees" if i >= 2 && at(i - 1) == Some(".claude") && at(i + 1).is_some() => {
            at(i - 2).map(str::to_string)
        }
        _ => None,
    }
}
