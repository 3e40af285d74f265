//! The project of a session, from the working folder its agent wrote, the same wherever
//! `recall capture` runs: Windows folders read as Windows folders, worktrees belonging
//! to their repository (by git's common folder when the folder is here, by where the
//! agents keep worktrees when it is not), `[projects]` keys of both kinds.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use recall_cli::project::project_of;

use crate::capture_read::fixture;
use crate::common::cli::{Ran, TempLib};

/// Each item's title and project, after capturing `paths` with `run_in` as the
/// current folder.
fn captured(
    run_in: &Path,
    paths: &[&Path],
    config: Option<&Path>,
) -> Vec<(String, Option<String>)> {
    let lib = TempLib::init(None);
    let mut cmd = lib.command();
    cmd.current_dir(run_in).arg("capture").args(paths);
    if let Some(c) = config {
        cmd.env("RECALL_CONFIG", c);
    }
    Ran::from(cmd.output().unwrap()).ok();
    let conn = lib.conn();
    let mut stmt = conn
        .prepare("select title, project from items order by title")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, Option<String>)> {
    list.iter()
        .map(|(t, p)| (t.to_string(), Some(p.to_string())))
        .collect()
}

#[test]
fn windows_folders_and_worktrees_wherever_capture_runs() {
    let tmp = tempfile::tempdir().unwrap();
    // One place to run from at the top of a git checkout, one outside any.
    let inside = tmp.path().join("checkout");
    std::fs::create_dir_all(inside.join(".git")).unwrap();
    let outside = tmp.path().join("plain");
    std::fs::create_dir_all(&outside).unwrap();
    let sessions = fixture("projects");
    let mut expected = pairs(&[
        ("List the scripts in package.json", "M-Claude"),
        ("Rename the settings page to Preferences", "M-Claude"),
        ("Which PowerShell version is installed?", "-"),
        ("Why is the map empty on first load?", "spotter"),
    ]);
    // A system folder (`C:\Windows\System32`) is no project.
    expected[2].1 = None;
    assert_eq!(captured(&inside, &[&sessions], None), expected);
    assert_eq!(captured(&outside, &[&sessions], None), expected);
}

#[test]
fn windows_keys_of_projects_map_windows_folders() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("recall.toml");
    // Windows compares folders without regard to case, and so does the mapping.
    std::fs::write(
        &config,
        "[projects]\n'c:\\users\\mischa\\documents' = \"docs\"\n'C:/Windows' = \"windows\"\n",
    )
    .unwrap();
    let sessions = fixture("projects/codex");
    assert_eq!(
        captured(tmp.path(), &[&sessions], Some(&config)),
        pairs(&[
            ("List the scripts in package.json", "docs"),
            ("Which PowerShell version is installed?", "windows"),
        ])
    );
    // A key that is absolute on no system is still refused, with the key named.
    std::fs::write(&config, "[projects]\n'Users\\mischa' = \"docs\"\n").unwrap();
    let lib = TempLib::init(None);
    lib.command()
        .arg("capture")
        .arg(&sessions)
        .env("RECALL_CONFIG", &config)
        .output()
        .map(Ran::from)
        .unwrap()
        .fails_with("is not an absolute folder");
    assert_eq!(lib.count("select count(*) from items"), 0);
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A repository at `repo` with a worktree named `name` at `at`, its `.git` file naming
/// the worktree's git folder absolutely or relatively, as git writes either.
fn worktree(repo: &Path, name: &str, at: &Path, relative: bool) {
    let gitdir = repo.join(".git").join("worktrees").join(name);
    write(&gitdir.join("commondir"), "../..\n");
    write(&gitdir.join("HEAD"), "ref: refs/heads/x\n");
    let named = if relative {
        let depth = at
            .strip_prefix(repo.parent().unwrap())
            .unwrap()
            .components()
            .count();
        let mut up = PathBuf::new();
        for _ in 0..depth {
            up.push("..");
        }
        up.join(repo.file_name().unwrap())
            .join(".git/worktrees")
            .join(name)
    } else {
        gitdir.clone()
    };
    write(&at.join(".git"), &format!("gitdir: {}\n", named.display()));
}

#[test]
fn a_worktree_here_belongs_to_its_repository() {
    let tmp = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(tmp.path()).unwrap();
    let repo = root.join("code").join("spotter");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    // Worktrees kept under names that say nothing of the repository.
    let dov = root.join("elsewhere").join("dov");
    worktree(&repo, "dov", &dov, false);
    let rel = root.join("code").join("trees").join("rel");
    worktree(&repo, "rel", &rel, true);
    std::fs::create_dir_all(dov.join("web").join("src")).unwrap();
    let none = BTreeMap::new();
    let of = |p: &Path, m: &BTreeMap<String, String>| project_of(p.to_str().unwrap(), m);
    assert_eq!(of(&dov, &none).as_deref(), Some("spotter"));
    assert_eq!(of(&dov.join("web/src"), &none).as_deref(), Some("spotter"));
    assert_eq!(of(&rel, &none).as_deref(), Some("spotter"));
    // The repository's mapping applies to its worktrees.
    let mapped: BTreeMap<String, String> = [(
        repo.to_string_lossy().to_string(),
        "Spotter App".to_string(),
    )]
    .into();
    assert_eq!(of(&dov, &mapped).as_deref(), Some("Spotter App"));
    // A bare repository's worktree: the repository is the git folder itself.
    let bare = root.join("bare").join("ledger.git");
    write(&bare.join("worktrees/main/commondir"), "../..\n");
    let checkout = root.join("bare").join("main");
    write(
        &checkout.join(".git"),
        &format!("gitdir: {}\n", bare.join("worktrees/main").display()),
    );
    assert_eq!(of(&checkout, &none).as_deref(), Some("ledger"));
    // A submodule (a .git file without commondir) is a checkout of its own.
    let app = root.join("app");
    std::fs::create_dir_all(app.join(".git/modules/lib")).unwrap();
    write(
        &app.join("vendor/lib/.git"),
        "gitdir: ../../.git/modules/lib\n",
    );
    assert_eq!(of(&app.join("vendor/lib"), &none).as_deref(), Some("lib"));
    assert_eq!(of(&app.join("vendor"), &none).as_deref(), Some("app"));

    // Captured from a rollout that worked in the worktree, from two folders.
    let rollout = root
        .join("sessions")
        .join("rollout-2026-04-05T09-00-00-wt.jsonl");
    let cwd = serde_json::to_string(dov.join("web").to_str().unwrap()).unwrap();
    write(
        &rollout,
        &format!(
            "{{\"timestamp\":\"2026-04-05T09:00:00Z\",\"type\":\"session_meta\",\"payload\":{{\"id\":\"wt-1\",\"cwd\":{cwd},\"git\":{{\"branch\":\"dov\"}}}}}}\n\
             {{\"timestamp\":\"2026-04-05T09:00:01Z\",\"type\":\"response_item\",\"payload\":{{\"type\":\"message\",\"role\":\"user\",\"content\":[{{\"type\":\"input_text\",\"text\":\"Center the map\"}}]}}}}\n\
             {{\"timestamp\":\"2026-04-05T09:00:09Z\",\"type\":\"response_item\",\"payload\":{{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{{\"type\":\"output_text\",\"text\":\"Centered.\"}}]}}}}\n"
        ),
    );
    let expected = pairs(&[("Center the map", "spotter")]);
    assert_eq!(captured(&root, &[&rollout], None), expected);
    assert_eq!(
        captured(&app.join("vendor/lib"), &[&rollout], None),
        expected
    );
}

#[test]
fn a_folder_of_no_system_names_no_project_of_where_capture_runs() {
    let none = BTreeMap::new();
    // Relative folders are never resolved against the folder capture runs in.
    assert_eq!(project_of(".", &none), None);
    assert_eq!(project_of("", &none), None);
    assert_eq!(project_of("src/app", &none).as_deref(), Some("app"));
    assert_eq!(project_of(r"C:\", &none), None);
    assert_eq!(
        project_of(r"\\nas\team\ledger", &none).as_deref(),
        Some("ledger")
    );
}
