//! `recall setup [AGENT]`: prints what `setup` changes (or, with no agent, what is
//! installed and wired); the work is in `crate::setup`.
use std::path::{Path, PathBuf};

use serde_json::json;

use super::Globals;
use crate::agents::Agent;
use crate::args::SetupArgs;
use crate::error::{err, Result};
use crate::output;
use crate::setup::{self, Wiring};

pub fn run(g: &Globals, a: &SetupArgs) -> Result<i32> {
    let Some(agent) = a.agent else {
        return list(g);
    };
    let root = match a.project {
        true => {
            Some(setup::project_root().map_err(|e| err!("cannot read the working folder: {e}"))?)
        }
        false => None,
    };
    let part = setup::agent_part(agent);
    let mut targets = (part.targets)(root.as_deref()).ok_or_else(|| {
        err!("HOME is not set to an absolute folder, so the user's settings cannot be found: set HOME to your home folder's absolute path, or give --project")
    })?;
    let wiring = match a.remove {
        true => None,
        false => Some(wiring(g)?),
    };
    let hook_trust = part.hook_trust;
    if let (Some(t), true) = (hook_trust, a.remove) {
        (t.untrust)(&mut targets);
    }
    let changes = setup::plan(&targets, wiring.as_ref()).map_err(|e| err!("{e}"))?;
    let backups = match a.dry_run {
        true => vec![None; changes.len()],
        false => setup::apply(&changes).map_err(|e| err!("{e}"))?,
    };
    let mut warnings = Vec::new();
    let mut notes = Vec::new();
    let trust = match (hook_trust, &wiring) {
        (Some(t), Some(w)) => Some((t.after_setup)(
            &targets,
            &changes,
            root.as_deref(),
            &w.hook_command().map_err(|e| err!("{e}"))?,
            a.dry_run,
        )),
        _ => None,
    };
    if let Some(t) = &trust {
        notes.extend(t.notes.iter().cloned());
        warnings.extend(t.warnings.iter().cloned());
    }
    if let Some(w) = &wiring {
        if !Path::new(&w.library).exists() {
            warnings.push(format!(
                "the library {} does not exist yet: create it with `recall --db {} init`",
                w.library,
                shlex::try_quote(&w.library).unwrap_or_default()
            ));
        }
        if let Some(t) = hook_trust {
            warnings.extend((t.warnings)(&changes));
        }
    }
    let scope = if a.project { "project" } else { "user" };
    let changed =
        changes.iter().any(setup::Change::changed) || trust.as_ref().is_some_and(|t| t.wrote);
    if g.json {
        let files: Vec<_> = changes
            .iter()
            .zip(&backups)
            .map(|(c, b)| {
                let mut f = json!({
                    "path": c.path, "part": c.part.name(), "status": c.status(), "backup": b,
                });
                if a.dry_run {
                    f["diff"] = json!(c.diff());
                }
                f
            })
            .collect();
        output::json(&json!({
            "command": "setup", "agent": agent.name(), "scope": scope, "remove": a.remove,
            "dry_run": a.dry_run, "recall": wiring.as_ref().map(|w| &w.recall),
            "library": wiring.as_ref().map(|w| &w.library), "changed": changed,
            "files": files, "warnings": warnings,
            // The hook trust's report, keyed `codex`, the agent that needs it (null for
            // the others).
            "codex": trust.as_ref().map(|t| &t.json),
        }));
        return Ok(0);
    }
    let remove = if a.remove { " --remove" } else { "" };
    match &wiring {
        Some(w) => crate::output::say!(
            "recall setup {}{remove} ({scope}): recall {}, library {}",
            agent.name(),
            w.recall,
            w.library
        ),
        None => crate::output::say!("recall setup {}{remove} ({scope})", agent.name()),
    }
    for (c, b) in changes.iter().zip(&backups) {
        if a.dry_run && c.changed() {
            output::line(c.diff().trim_end());
            continue;
        }
        let backup = match b {
            Some(b) => format!(" (backup {})", b.display()),
            None => String::new(),
        };
        crate::output::say!(
            "  {}: {} {}{backup}",
            c.path.display(),
            c.part.name(),
            c.status()
        );
    }
    for n in &notes {
        crate::output::say!("  {n}");
    }
    for w in &warnings {
        eprintln!("recall: warning: {w}");
    }
    let last = match (a.dry_run, changed, a.remove) {
        (true, true, _) => "dry run: nothing was written",
        (true, false, false) | (false, false, false) => "nothing to change: already set up",
        (true, false, true) | (false, false, true) => "nothing to remove: recall is not wired here",
        (false, true, false) => "done: start a new session of the agent to use it",
        (false, true, true) => "done: recall's entries are taken out",
    };
    output::line(last);
    Ok(0)
}

/// recall's binary (this one, by absolute path) and the library (`--db`, `RECALL_DB`),
/// absolute.
fn wiring(g: &Globals) -> Result<Wiring> {
    let library = std::path::absolute(g.db()?)
        .map_err(|e| err!("cannot make the library's path absolute: {e}"))?;
    let recall = std::env::current_exe()
        .map_err(|e| err!("cannot find the path of this recall binary: {e}"))?;
    Ok(Wiring {
        recall: utf8(&recall, "recall's path")?,
        library: utf8(&library, "the library's path")?,
    })
}

fn utf8(path: &Path, what: &str) -> Result<String> {
    path.to_str().map(str::to_string).ok_or_else(|| {
        err!(
            "{what} {} is not UTF-8, which the agents' settings cannot hold",
            path.display()
        )
    })
}

/// `recall setup` with no agent: for each agent, whether it is installed (its folder,
/// its program on the PATH) and what recall has wired in the user's and the project's
/// files.
fn list(g: &Globals) -> Result<i32> {
    let root = setup::project_root().ok();
    let mut agents = Vec::new();
    for &agent in Agent::ALL {
        let folder = agent.config_dir().filter(|d| d.is_dir());
        let program = setup::on_path(agent.program());
        let scopes: Vec<(&str, Vec<setup::Wired>)> = [("user", None), ("project", root.as_deref())]
            .into_iter()
            .filter(|(scope, r)| *scope == "user" || r.is_some())
            .map(|(scope, r)| {
                let found = (setup::agent_part(agent).targets)(r)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(setup::wired)
                    .filter(|w| {
                        w.problem.is_some() || !w.events.is_empty() || w.server == Some(true)
                    })
                    .collect();
                (scope, found)
            })
            .collect();
        agents.push((agent, folder, program, scopes));
    }
    if g.json {
        let list: Vec<_> = agents
            .iter()
            .map(|(agent, folder, program, scopes)| {
                let mut o = json!({
                    "agent": agent.name(), "installed": folder.is_some() || program.is_some(),
                    "folder": folder, "program": program,
                });
                for (scope, wired) in scopes {
                    o[*scope] = json!(wired);
                    if let Some(t) = trust_of(*agent, scope, root.as_deref()) {
                        o[format!("{scope}_trust")] = json!(t);
                    }
                }
                o
            })
            .collect();
        output::json(&json!({ "command": "setup", "agents": list }));
        return Ok(0);
    }
    for (agent, folder, program, scopes) in &agents {
        let found: Vec<String> = folder
            .iter()
            .map(|f| format!("folder {}", f.display()))
            .chain(
                program
                    .iter()
                    .map(|p| format!("{} {}", agent.program(), p.display())),
            )
            .collect();
        match found.is_empty() {
            true => crate::output::say!(
                "{}: not found (no folder {}, no `{}` on the PATH)",
                agent.name(),
                shown(agent.config_dir()),
                agent.program()
            ),
            false => crate::output::say!("{}: installed ({})", agent.name(), found.join(", ")),
        }
        for (scope, wired) in scopes {
            if wired.is_empty() {
                crate::output::say!("  {scope}: nothing wired");
            }
            for w in wired {
                let what = match (&w.problem, w.server) {
                    (Some(p), _) => format!("{} {p}", w.part),
                    (None, Some(_)) => format!("MCP server {}", setup::SERVER),
                    (None, None) => format!("hooks {}", w.events.join(", ")),
                };
                let libraries: Vec<String> = w
                    .libraries
                    .iter()
                    .map(|l| {
                        l.clone()
                            .unwrap_or_else(|| "RECALL_DB of the agent's environment".into())
                    })
                    .collect();
                let library = match libraries.is_empty() {
                    true => String::new(),
                    false => format!(" (library {})", libraries.join("; ")),
                };
                crate::output::say!("  {scope} {}: {what}{library}", w.path.display());
            }
            if let Some(t) = trust_of(*agent, scope, root.as_deref()) {
                crate::output::say!("  {scope} hook trust: {}", t.line());
            }
        }
    }
    Ok(0)
}

/// Whether the agent trusts recall's hooks of a scope (None: an agent that runs hooks
/// untrusted, or nothing wired).
fn trust_of(agent: Agent, scope: &str, root: Option<&Path>) -> Option<setup::Trust> {
    let project = root.filter(|_| scope == "project");
    (setup::agent_part(agent).hook_trust?.trust)(project)
}

fn shown(path: Option<PathBuf>) -> String {
    path.map(|p| p.display().to_string())
        .unwrap_or_else(|| "(HOME not set)".into())
}
