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

#[cfg(test)]
mod tests {
    use super::*;

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
