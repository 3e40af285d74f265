//! Records the source commit for `recall_debug()`; a build outside git says "unknown".
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=RECALL_SOURCE_COMMIT={commit}");
    println!("cargo:rerun-if-changed=build.rs");
    // Git says where HEAD and the branches live: in a worktree `.git` is a file and they
    // are elsewhere; a path that does not exist would rerun this script on every build.
    for name in ["HEAD", "refs/heads"] {
        if let Some(path) = git(&["rev-parse", "--git-path", name]) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}
