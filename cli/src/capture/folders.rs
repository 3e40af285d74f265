//! The folder a session's project is read from. A session that ran in a subfolder of a
//! repository (`/x/shop/backend`) belongs to the repository: where the folder is on this
//! machine, git says so (`project::project_of`); where it is not, the other sessions'
//! folders do: Claude Code keeps each working folder's sessions in a folder of its own
//! under `projects/`, named by the working folder with every character other than a
//! letter or a digit made `-`. When a session ran in a folder holding this one, the
//! outermost such folder is the project's (docs/capture.md#projects).
use std::path::Path;

use crate::project::{is_here, project_folders};

/// The folder whose project `cwd` belongs to, for a Claude Code session read from
/// `path`: an outer folder another session ran in, when `cwd` is not on this machine;
/// else None (`cwd` itself).
pub fn project_folder(path: &Path, cwd: &str) -> Option<String> {
    if is_here(cwd) {
        return None;
    }
    let own = claude_name(cwd);
    let projects = path
        .ancestors()
        .find(|a| a.file_name().is_some_and(|n| n.to_string_lossy() == own))?
        .parent()?;
    let folders = project_folders(cwd);
    let (_, outer) = folders.split_last()?;
    outer
        .iter()
        .find(|f| projects.join(claude_name(f)).is_dir())
        .cloned()
}

/// The name Claude Code gives the folder of a working folder's sessions.
pub fn claude_name(folder: &str) -> String {
    folder
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// The folders of an agent's own state under its home folder: Claude Code's plans, its
/// to-do lists, its transcripts and automatic memory (`projects/`), the files it keeps
/// to undo edits; Codex's sessions and logs. A file the agent writes there is its own
/// bookkeeping, not work on the person's files; what a person keeps there (skills,
/// agents, commands, hooks, `CLAUDE.md`, settings) is.
const AGENT_STATE: &[(&str, &[&str])] = &[
    (
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
    (".codex", &["sessions", "archived_sessions", "log"]),
];

/// Whether `file` (as the agent wrote it, `/` or `\` between parts) is in one of an
/// agent's own state folders, so that it is no file the session changed.
pub fn agent_state_file(file: &str) -> bool {
    let parts: Vec<&str> = file.split(['/', '\\']).collect();
    parts.windows(3).any(|w| {
        AGENT_STATE
            .iter()
            .any(|(home, state)| w[0] == *home && state.contains(&w[1]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_state_files_are_the_agents_own_folders_only() {
        for file in [
            "/home/ana/.claude/plans/quiet-dancing-otter.md",
            "/Users/ana/.claude/todos/5f1c-agent-5f1c.json",
            "/home/ana/.claude/projects/-home-ana-shop/memory/MEMORY.md",
            "C:\\Users\\ana\\.claude\\plans\\brisk-river.md",
            "/c/Users/ana/.claude/file-history/5f1c/abc@v2",
            "/home/ana/.codex/sessions/2025/08/01/rollout-x.jsonl",
            "/srv/cfg/.claude/plans/x.md",
        ] {
            assert!(agent_state_file(file), "{file}");
        }
        for file in [
            "/home/ana/.claude/skills/review/SKILL.md",
            "/home/ana/.claude/agents/tester.md",
            "/home/ana/.claude/CLAUDE.md",
            "/home/ana/.claude/settings.json",
            "/home/ana/shop/.claude/commands/ship.md",
            "/home/ana/shop/docs/plans/q3.md",
            "/home/ana/shop/projects/todos/list.md",
            "/home/ana/.codex/config.toml",
            "/home/ana/.claude/plans",
            "src/plans/x.rs",
        ] {
            assert!(!agent_state_file(file), "{file}");
        }
    }

    #[test]
    fn a_subfolder_belongs_to_the_folder_another_session_ran_in() {
        assert_eq!(claude_name("/x/my_repo/.claude"), "-x-my-repo--claude");
        let root = std::env::temp_dir().join(format!("recall-folders-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let projects = root.join("projects");
        for cwd in [
            "/nowhere-x/shop",
            "/nowhere-x/shop/backend",
            "/nowhere-x/tools/cli",
        ] {
            std::fs::create_dir_all(projects.join(claude_name(cwd))).unwrap();
        }
        let file = |cwd: &str| projects.join(claude_name(cwd)).join("s.jsonl");
        assert_eq!(
            project_folder(&file("/nowhere-x/shop/backend"), "/nowhere-x/shop/backend").as_deref(),
            Some("/nowhere-x/shop")
        );
        // No session ran in a folder holding it: its own folder.
        assert_eq!(
            project_folder(&file("/nowhere-x/tools/cli"), "/nowhere-x/tools/cli"),
            None
        );
        assert_eq!(
            project_folder(&file("/nowhere-x/shop"), "/nowhere-x/shop"),
            None
        );
        let _ = std::fs::remove_dir_all(&root);
    }
}
