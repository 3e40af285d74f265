//! `recall setup codex`'s trust step. Once the hooks are written, Codex is asked
//! (`hooks/list`) for the key and hash of each of recall's hooks, and those it does not
//! trust yet are recorded in the user's `config.toml` as its own `/hooks` review records
//! them; Codex is asked again to check. Where Codex cannot be asked, or does not list the
//! hooks, setup says what to do. `--remove` takes recall's trust entries out with its
//! hooks (`untrust`).
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::{self as codex, Trust, TRUST_BY_HAND};
use crate::setup::{files, toml, Change, Part, Target};

/// What the trust step did: lines for the person, and the same for `--json`.
pub struct Report {
    pub notes: Vec<String>,
    pub warnings: Vec<String>,
    /// Whether the user's `config.toml` was written.
    pub wrote: bool,
    pub json: Value,
}

/// The folder of the scope's `hooks.json`.
fn hooks_dir(targets: &[Target]) -> Option<PathBuf> {
    targets
        .iter()
        .find(|t| matches!(t.part, Part::HooksJson { .. }))
        .and_then(|t| t.path.parent())
        .map(Path::to_path_buf)
}

fn recorded(path: &Path) -> Vec<(String, String)> {
    match files::read(path) {
        Ok(Some(text)) => toml::parse(Some(&text))
            .map(|doc| toml::trusted_hashes(&doc))
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// Codex's part of setup: its files (`codex`), and the trust its hooks need (here).
pub static PART: crate::setup::AgentPart = crate::setup::AgentPart {
    targets: codex::targets_of,
    server_targets: codex::server_targets,
    hook_trust: Some(&HOOK_TRUST),
};

/// How setup, `recall setup` and `recall status` deal with Codex's trust of hooks.
static HOOK_TRUST: crate::setup::HookTrust = crate::setup::HookTrust {
    untrust,
    after_setup,
    warnings,
    trust,
    offline,
    by_hand: TRUST_BY_HAND,
};

/// For `--remove`: the trust entries of recall's hooks, to take out of the user's
/// `config.toml` (a target of its own where the scope is a project's).
pub fn untrust(targets: &mut Vec<Target>) {
    let (Some(dir), Some(user)) = (hooks_dir(targets), codex::user_config()) else {
        return;
    };
    let keys = codex::trust_to_remove(&dir, &recorded(&user));
    if keys.is_empty() {
        return;
    }
    if let Some(t) = targets.iter_mut().find(|t| t.path == user) {
        if let Part::CodexToml { untrust, .. } = &mut t.part {
            *untrust = keys;
        }
        return;
    }
    targets.push(Target {
        path: user,
        part: Part::CodexToml {
            server: false,
            trust: Vec::new(),
            untrust: keys,
        },
    });
}

/// After the hooks are written (or in a dry run, would be).
pub fn after_setup(
    targets: &[Target],
    changes: &[Change],
    project: Option<&Path>,
    command: &str,
    dry_run: bool,
) -> Report {
    let installed = codex::installed();
    let mut r = Report {
        notes: Vec::new(),
        warnings: Vec::new(),
        wrote: false,
        json: json!({
            "program": installed.program,
            "version": installed.version.as_ref().ok().map(ToString::to_string),
            "session_captured_at": installed.events().iter()
                .find(|e| e.name == "SessionEnd" || e.name == "Stop").map(|e| e.name),
        }),
    };
    r.notes.push(match &installed.version {
        Ok(v) if *v >= codex::SESSION_END_SINCE => {
            format!("codex {v}: SessionEnd captures the session")
        }
        Ok(v) => format!(
            "codex {v}: each turn's Stop captures the session (SessionEnd came with Codex {})",
            codex::SESSION_END_SINCE
        ),
        Err(why) => format!(
            "{why}: each turn's Stop captures the session (SessionEnd, in Codex {} and newer, is wired once setup runs with `codex` on the PATH)",
            codex::SESSION_END_SINCE
        ),
    });
    let (Some(dir), Some(user)) = (hooks_dir(targets), codex::user_config()) else {
        return r;
    };
    if dry_run {
        r.notes.push(
            "hook trust: asked of Codex once the hooks are written (not in a dry run)".into(),
        );
        r.json["trust"] = json!("not asked: dry run");
        return r;
    }
    let off = changes
        .iter()
        .filter(|c| matches!(c.part, Part::CodexToml { .. }))
        .filter_map(|c| toml::parse(c.after.as_deref()).ok())
        .any(|doc| toml::hooks_off(&doc).is_some());
    // A project's setup: the user's file may turn them off too (setup's own warning
    // names the files it changed).
    let user_off = match files::read(&user) {
        Ok(Some(text)) if !changes.iter().any(|c| c.path == user) => toml::parse(Some(&text))
            .ok()
            .and_then(|doc| toml::hooks_off(&doc)),
        _ => None,
    };
    if let Some(key) = user_off {
        r.warnings.push(format!(
            "{} turns Codex's hooks off ([features] {key} = false): the hooks will not run until it is true or taken out",
            user.display()
        ));
    }
    if off || user_off.is_some() {
        r.json["trust"] = json!("not asked: hooks turned off");
        return r;
    }
    let cwd = match project {
        Some(root) => root.to_path_buf(),
        None => std::env::current_dir().unwrap_or_else(|_| dir.clone()),
    };
    let asked = match codex::ask(&dir, &cwd) {
        Ok(asked) => asked,
        Err(why) => {
            r.warnings.push(format!(
                "Codex runs recall's hooks only once they are trusted, and recall could not ask it ({why}): {TRUST_BY_HAND}"
            ));
            r.json["trust"] = json!("not asked");
            return r;
        }
    };
    for w in asked
        .warnings
        .iter()
        .filter(|w| w.contains(&*dir.to_string_lossy()))
    {
        r.notes.push(format!("codex says: {w}"));
    }
    if asked.listed == 0 {
        r.warnings.push(match project {
            Some(root) => format!(
                "Codex does not list the hooks of {}: it loads a project's .codex/ only once the project is trusted; run `codex` in {}, trust the project, then `recall setup codex --project` again",
                dir.display(),
                root.display()
            ),
            None => format!(
                "Codex does not list recall's hooks of {}, so it will not run them: {TRUST_BY_HAND}",
                dir.display()
            ),
        });
        r.json["trust"] = json!("not listed by Codex");
        return r;
    }
    let stale = codex::stale_trust(&dir, &recorded(&user), &asked.keys, command);
    if asked.to_trust.is_empty() && stale.is_empty() {
        r.notes.push(format!(
            "{}: hook trust unchanged: Codex trusts recall's {} hooks",
            user.display(),
            asked.listed
        ));
        r.json["trust"] = json!("trusted");
        return r;
    }
    if let Err(e) = record(&user, &asked.to_trust, &stale, changes) {
        r.warnings.push(format!(
            "recall's hooks are written but not trusted ({e}): {TRUST_BY_HAND}"
        ));
        r.json["trust"] = json!("not recorded");
        return r;
    }
    r.wrote = true;
    // Codex itself says whether it now trusts them.
    match codex::ask(&dir, &cwd) {
        Ok(again) if again.trusted == again.listed => {
            r.notes.push(format!(
                "{}: hook trust recorded for {} hooks: Codex trusts recall's {} hooks",
                user.display(),
                asked.to_trust.len(),
                again.listed
            ));
            r.json["trust"] = json!("trusted");
        }
        Ok(again) => {
            r.warnings.push(format!(
                "{}: hook trust recorded, yet Codex trusts {} of recall's {} hooks: {TRUST_BY_HAND}",
                user.display(),
                again.trusted,
                again.listed
            ));
            r.json["trust"] = json!("not trusted");
        }
        Err(why) => {
            r.warnings.push(format!(
                "{}: hook trust recorded, and Codex could not be asked again ({why})",
                user.display()
            ));
            r.json["trust"] = json!("recorded, not checked");
        }
    }
    r.json["trusted_keys"] = json!(asked.to_trust.iter().map(|(k, _)| k).collect::<Vec<_>>());
    r
}

/// Writes the trust into the user's `config.toml` (and takes stale entries out); backed up first unless this run
/// backed it up already (the backup holds what the file held before setup).
fn record(
    user: &Path,
    trust: &[(String, String)],
    stale: &[String],
    changes: &[Change],
) -> Result<(), String> {
    let target = Target {
        path: user.to_path_buf(),
        part: Part::CodexToml {
            server: false,
            trust: trust.to_vec(),
            untrust: stale.to_vec(),
        },
    };
    let plan = crate::setup::plan(std::slice::from_ref(&target), None)?;
    let backed_up = changes
        .iter()
        .any(|c| c.path == user && c.changed() && c.before.is_some());
    match (&plan[0].after, backed_up) {
        (Some(text), true) => files::write(user, text, Some(user))
            .map_err(|e| format!("cannot write {}: {e}", user.display())),
        _ => crate::setup::apply(&plan).map(|_| ()),
    }
}

/// A `config.toml` setup leaves with `[features] codex_hooks = false` (or `hooks`):
/// Codex runs no hook at all.
fn warnings(changes: &[Change]) -> Vec<String> {
    let mut out = Vec::new();
    for c in changes {
        if !matches!(c.part, Part::CodexToml { .. }) {
            continue;
        }
        let off = crate::setup::toml::parse(c.after.as_deref())
            .ok()
            .and_then(|doc| crate::setup::toml::hooks_off(&doc));
        if let Some(key) = off {
            out.push(format!(
                "{} turns Codex's hooks off ([features] {key} = false): the hooks will not run until it is true or taken out",
                c.path.display()
            ));
        }
    }
    out
}

/// Whether Codex trusts recall's hooks of the user's folder (None) or a project's, as
/// Codex says (None: nothing wired).
fn trust(root: Option<&Path>) -> Option<Trust> {
    let (dir, cwd) = match root {
        Some(root) => (root.join(".codex"), root.to_path_buf()),
        None => (codex::config_dir()?, std::env::current_dir().ok()?),
    };
    match codex::trust(&dir, &cwd) {
        Trust::NotWired => None,
        t => Some(t),
    }
}

/// recall's hooks in Codex's user folder and in the working folder's project, where
/// wired, read from the files.
fn offline() -> Vec<(PathBuf, Trust)> {
    let user = codex::config_dir();
    let project = crate::setup::project_root().ok().map(|r| r.join(".codex"));
    let mut folders: Vec<PathBuf> = user.into_iter().collect();
    if let Some(p) = project.filter(|p| !folders.contains(p)) {
        folders.push(p);
    }
    folders
        .into_iter()
        .filter_map(|dir| match codex::offline_trust(&dir) {
            Trust::NotWired => None,
            trust => Some((dir, trust)),
        })
        .collect()
}
