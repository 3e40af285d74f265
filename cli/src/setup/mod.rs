//! `recall setup`: wires recall into a coding agent's own settings (its hooks and the MCP
//! server), merged into the files already there, and takes it out again. Which files an
//! agent has is the agent's (`agents`, reaching `claude` and `codex` here).
//!
//! - Every file is read and its change computed before any is written: a file that
//!   cannot be parsed stops the whole command, and no file is changed.
//! - A change keeps everything else of the file byte for byte: JSON is edited in place,
//!   recall's entries spliced in and out (`json`, `spans`); TOML through `toml_edit`.
//! - Setup is idempotent: a file whose value would not change is not written.
//! - Before a file is changed, what it held is copied to `FILE.recall-backup` (`files`).
//! - `remove` takes out recall's entries, recognised by their command (`recall … hook`,
//!   an MCP server `recall` that runs `recall`), and an object they leave empty unless
//!   the backup shows it was the file's own; a file setup created is deleted.
pub mod files;
pub mod json;
pub mod spans;
pub mod toml;

/// Whether an agent that runs only trusted hooks trusts recall's, and what setup did
/// about it (Codex's, the one such agent so far).
pub use crate::agents::codex::setup::trust::Report as TrustReport;
pub use crate::agents::codex::setup::Trust;

pub use crate::agents::Agent;

use std::path::{Path, PathBuf};

use serde::Serialize;

/// The timeout of each hook, in seconds (the agents' defaults are 60 s and more: the hook
/// answers within 1 s of waiting, `library::sessions::WAIT`).
pub const TIMEOUT_SECONDS: u32 = 10;

/// The name of the MCP server setup writes.
pub const SERVER: &str = "recall";

/// What setup writes in one file.
#[derive(Clone)]
pub enum Part {
    /// `hooks`: these events, in a JSON settings file; recall's hook is taken out of the
    /// `drop` events (Codex's `Stop` once it has `SessionEnd`, an event wired through
    /// `config.toml`'s `[hooks]` tables).
    HooksJson {
        events: Vec<json::Event>,
        drop: Vec<json::Event>,
    },
    /// `mcpServers.recall` in a JSON file (with `"type": "stdio"`, as Claude Code writes).
    ServerJson,
    /// Codex's `config.toml`: `[mcp_servers.recall]` (`server`), and the trust of hooks
    /// to record (key, hash) or take out (keys), in the user's file.
    CodexToml {
        server: bool,
        trust: Vec<(String, String)>,
        untrust: Vec<String>,
    },
}

impl Part {
    pub fn name(&self) -> &'static str {
        match self {
            Part::HooksJson { .. } => "hooks",
            Part::ServerJson | Part::CodexToml { server: true, .. } => "MCP server",
            Part::CodexToml { server: false, .. } => "hook trust",
        }
    }

    /// Recall's hooks in these events of a JSON file.
    pub fn hooks(events: &[json::Event]) -> Part {
        Part::HooksJson {
            events: events.to_vec(),
            drop: Vec::new(),
        }
    }
}

pub struct Target {
    pub path: PathBuf,
    pub part: Part,
}

/// An agent's part of setup, held by its file here (`claude`, `codex`).
pub struct AgentPart {
    /// The files setup writes, of the user (None: HOME not set) or of a project.
    pub targets: fn(Option<&Path>) -> Option<Vec<Target>>,
    /// Those of them that hold the MCP server, found without running the agent's
    /// program (the hook looks at every start).
    pub server_targets: fn(Option<&Path>) -> Option<Vec<Target>>,
    /// Where the agent runs only the hooks a person trusted: how setup, `recall setup`
    /// and `recall status` deal with that.
    pub hook_trust: Option<&'static HookTrust>,
}

/// Each agent's part of setup, from the one table of them (`agents::setup`).
pub use crate::agents::setup::part as agent_part;

/// Setup's step after the files: the targets, their changes, the project (None: the
/// user's scope), the hook's command and whether it is a dry run.
pub type AfterSetup = fn(&[Target], &[Change], Option<&Path>, &str, bool) -> TrustReport;

/// An agent that runs a person's hooks only once they are trusted.
pub struct HookTrust {
    /// For `--remove`: the trust recorded for recall's hooks, to take out too.
    pub untrust: fn(&mut Vec<Target>),
    /// After setup wrote (or would write) the files: the trust it recorded, and what to
    /// say of it.
    pub after_setup: AfterSetup,
    /// Warnings on the files as setup leaves them.
    pub warnings: fn(&[Change]) -> Vec<String>,
    /// Whether it trusts recall's hooks of the user's scope (None) or a project's, as
    /// its program says (None: nothing wired).
    pub trust: fn(Option<&Path>) -> Option<Trust>,
    /// The folders `recall status` looks at, with what their files alone say.
    pub offline: fn() -> Vec<(PathBuf, Trust)>,
    /// What a person does to trust them by hand.
    pub by_hand: &'static str,
}

/// The files of a scope that hold the MCP server.
pub fn server_files(targets: Vec<Target>) -> Vec<Target> {
    targets
        .into_iter()
        .filter(|t| matches!(t.part, Part::ServerJson))
        .collect()
}

pub use crate::places::home;

/// The repository holding the working folder (the nearest folder up with `.git`), else
/// the working folder itself.
pub fn project_root() -> std::io::Result<PathBuf> {
    let cwd = std::env::current_dir()?;
    Ok(crate::project::checkout_of(&cwd)
        .unwrap_or(&cwd)
        .to_path_buf())
}

/// What the entries name: recall's binary and the library.
pub struct Wiring {
    pub recall: String,
    pub library: String,
}

impl Wiring {
    pub fn hook_command(&self) -> Result<String, String> {
        shlex::try_join([self.recall.as_str(), "--db", &self.library, "hook"])
            .map_err(|e| format!("cannot quote the hook's command: {e}"))
    }

    pub fn mcp_args(&self) -> Vec<String> {
        vec!["--db".into(), self.library.clone(), "mcp".into()]
    }
}

/// Whether a command names the recall program (a path whose file name is `recall`).
pub fn recall_program(command: &str) -> bool {
    Path::new(command)
        .file_name()
        .is_some_and(|n| n == "recall")
}

/// The words of a hook command after any `VAR=value` (and `env`) before the program.
fn command_words(command: &str) -> Option<Vec<String>> {
    let words = shlex::split(command)?;
    let start = words.iter().position(|w| w != "env" && !is_assignment(w))?;
    Some(words[start..].to_vec())
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && !name.starts_with('-')
            && name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric())
    })
}

/// Whether a hook command runs `recall hook` (with any global options before `hook`).
pub fn recall_hook(command: &str) -> bool {
    let Some(words) = command_words(command) else {
        return false;
    };
    if !words.first().is_some_and(|p| recall_program(p)) {
        return false;
    }
    let value_options = crate::args::global_value_options();
    let mut rest = words[1..].iter();
    while let Some(w) = rest.next() {
        if value_options.contains(w) {
            rest.next();
        } else if !w.starts_with('-') {
            return w == "hook";
        }
    }
    false
}

/// The library a hook command or an MCP server's arguments name: `--db PATH`, else a
/// `RECALL_DB=PATH` before the program, else `env_db`.
pub fn named_library(words: &[String], env_db: Option<String>) -> Option<String> {
    let mut it = words.iter();
    while let Some(w) = it.next() {
        if w == "--db" {
            return it.next().cloned();
        }
        if let Some(db) = w.strip_prefix("--db=") {
            return Some(db.to_string());
        }
    }
    env_db
}

pub fn hook_library(command: &str) -> Option<String> {
    let words = shlex::split(command)?;
    let env_db = words
        .iter()
        .take_while(|w| *w == "env" || is_assignment(w))
        .find_map(|w| w.strip_prefix("RECALL_DB=").map(str::to_string));
    named_library(&command_words(command)?, env_db)
}

/// One file's change: what it holds, and what it would hold (None: no file).
pub struct Change {
    pub path: PathBuf,
    pub part: Part,
    pub before: Option<String>,
    pub after: Option<String>,
}

impl Change {
    pub fn changed(&self) -> bool {
        self.before != self.after
    }

    pub fn status(&self) -> &'static str {
        match (&self.before, &self.after) {
            (b, a) if b == a => "unchanged",
            (None, Some(_)) => "created",
            (Some(_), None) => "deleted",
            _ => "changed",
        }
    }

    /// The change as a unified diff (empty when there is none).
    pub fn diff(&self) -> String {
        if !self.changed() {
            return String::new();
        }
        let name = self.path.display().to_string();
        let (old, new) = (
            self.before.as_deref().unwrap_or(""),
            self.after.as_deref().unwrap_or(""),
        );
        let old_name = match self.before {
            Some(_) => format!("a{}{name}", sep(&name)),
            None => "/dev/null".into(),
        };
        let new_name = match self.after {
            Some(_) => format!("b{}{name}", sep(&name)),
            None => "/dev/null".into(),
        };
        similar::TextDiff::from_lines(old, new)
            .unified_diff()
            .context_radius(3)
            .header(&old_name, &new_name)
            .to_string()
    }
}

fn sep(name: &str) -> &'static str {
    if name.starts_with('/') {
        ""
    } else {
        "/"
    }
}

/// The new text of one file, with `wiring` set (None: recall's entries taken out);
/// `backup` is what the file held before recall's last change. The error says what is
/// wrong with the file.
fn edit(
    part: &Part,
    before: Option<&str>,
    wiring: Option<&Wiring>,
    backup: Option<&str>,
) -> Result<Option<String>, String> {
    match part {
        Part::HooksJson { events, drop } => {
            let command = wiring.map(Wiring::hook_command).transpose()?;
            match command {
                Some(command) => {
                    let set = json::edit_hooks(before, events, Some(&command), backup)?;
                    if drop.is_empty() {
                        return Ok(set);
                    }
                    // recall's hooks of the events it no longer wires (Codex's Stop once
                    // its SessionEnd is): taken out of what was just set.
                    Ok(json::edit_hooks(set.as_deref(), drop, None, backup)?.or(set))
                }
                None => {
                    let all: Vec<json::Event> = events.iter().chain(drop.iter()).copied().collect();
                    json::edit_hooks(before, &all, None, backup)
                }
            }
        }
        Part::ServerJson => {
            let args = wiring.map(Wiring::mcp_args);
            let run = wiring
                .zip(args.as_deref())
                .map(|(w, a)| (w.recall.as_str(), a));
            json::edit_server(before, run, backup)
        }
        Part::CodexToml {
            server,
            trust,
            untrust,
        } => {
            let mut doc = toml::parse(before)?;
            match (wiring, server) {
                (Some(w), true) => toml::set_server(&mut doc, &w.recall, &w.mcp_args())?,
                (None, true) => toml::remove_server(&mut doc),
                (_, false) => {}
            }
            toml::set_trust(&mut doc, trust)?;
            toml::remove_trust(&mut doc, untrust);
            let after = doc.to_string();
            if after == before.unwrap_or("") {
                return Ok(before.map(str::to_string));
            }
            if wiring.is_none() && after.trim().is_empty() {
                return Ok(None);
            }
            Ok(Some(after))
        }
    }
}

/// Every file's change, or the first file that cannot be changed, in one line: which
/// file, what is wrong, how to fix it.
pub fn plan(targets: &[Target], wiring: Option<&Wiring>) -> Result<Vec<Change>, String> {
    let mut changes = Vec::new();
    for t in targets {
        let fix = "fix it (or move it away) and run `recall setup` again; no file was changed";
        let before =
            files::read(&t.path).map_err(|e| format!("{} {e}; {fix}", t.path.display()))?;
        let backup = files::read(&files::backup_path(&t.path)).ok().flatten();
        let after = edit(&t.part, before.as_deref(), wiring, backup.as_deref())
            .map_err(|e| format!("{}: {e}; {fix}", t.path.display()))?;
        changes.push(Change {
            path: t.path.clone(),
            part: t.part.clone(),
            before,
            after,
        });
    }
    Ok(changes)
}

/// Writes the changes: for each changed file, its backup first (when it had content),
/// then the file. Returns the backups written, by change.
pub fn apply(changes: &[Change]) -> Result<Vec<Option<PathBuf>>, String> {
    for c in changes.iter().filter(|c| c.changed()) {
        files::writable(&c.path).map_err(|e| {
            format!(
                "{} {e}, and run `recall setup` again; no file was changed",
                c.path.display()
            )
        })?;
    }
    let mut backups = Vec::new();
    for (i, c) in changes.iter().enumerate() {
        if !c.changed() {
            backups.push(None);
            continue;
        }
        // A write that fails leaves its file as it was; say which files before it were
        // written.
        let written: Vec<String> = changes[..i]
            .iter()
            .filter(|c| c.changed())
            .map(|c| c.path.display().to_string())
            .collect();
        let earlier = match written.is_empty() {
            true => String::new(),
            false => format!(" (already written: {})", written.join(", ")),
        };
        let backup = match &c.before {
            Some(text) => {
                let b = files::backup_path(&c.path);
                files::write(&b, text, Some(&c.path)).map_err(|e| {
                    format!(
                        "cannot write the backup {}: {e}; {} is unchanged{earlier}",
                        b.display(),
                        c.path.display()
                    )
                })?;
                Some(b)
            }
            None => None,
        };
        let done = match &c.after {
            Some(text) => files::write(&c.path, text, Some(&c.path)),
            None => files::delete(&c.path),
        };
        done.map_err(|e| {
            format!(
                "cannot write {}: {e}; it is unchanged{earlier}",
                c.path.display()
            )
        })?;
        backups.push(backup);
    }
    Ok(backups)
}

/// What recall has wired in one file.
#[derive(Debug, Serialize)]
pub struct Wired {
    pub path: PathBuf,
    pub part: &'static str,
    /// The events that run recall's hook (hooks files).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<String>,
    /// Whether the MCP server `recall` is there (server files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server: Option<bool>,
    /// The libraries the entries name (None: the agent's RECALL_DB).
    pub libraries: Vec<Option<String>>,
    /// Why the file could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// What recall has wired in a file.
pub fn wired(t: &Target) -> Option<Wired> {
    let mut out = Wired {
        path: t.path.clone(),
        part: t.part.name(),
        events: Vec::new(),
        server: None,
        libraries: Vec::new(),
        problem: None,
    };
    let text = match files::read(&t.path) {
        Ok(None) => return None,
        Ok(Some(text)) => text,
        Err(e) => {
            out.problem = Some(e);
            return Some(out);
        }
    };
    let mut library = |db: Option<String>| {
        if !out.libraries.contains(&db) {
            out.libraries.push(db);
        }
    };
    let server = match &t.part {
        Part::HooksJson { .. } => match json::wired_hooks(&text) {
            Ok(hooks) => {
                for (event, command) in hooks {
                    library(hook_library(&command));
                    if !out.events.contains(&event) {
                        out.events.push(event);
                    }
                }
                None
            }
            Err(e) => {
                out.problem = Some(e);
                None
            }
        },
        Part::ServerJson => match json::wired_server(&text) {
            Ok(server) => Some(server),
            Err(e) => {
                out.problem = Some(e);
                None
            }
        },
        Part::CodexToml { .. } => match toml::parse(Some(&text)) {
            Ok(doc) => {
                // Hooks wired through `[hooks]` tables are recall's too.
                for h in toml::table_hooks(&doc) {
                    if recall_hook(&h.command) {
                        library(hook_library(&h.command));
                        if !out.events.contains(&h.event) {
                            out.events.push(h.event);
                        }
                    }
                }
                Some(toml::wired_server(&doc))
            }
            Err(e) => {
                out.problem = Some(e);
                None
            }
        },
    };
    if let Some(server) = server {
        if let Some((_, args, env_db)) = &server {
            library(named_library(args, env_db.clone()));
        }
        out.server = Some(server.is_some());
    }
    Some(out)
}

/// The directories of the PATH holding `program`, first one first.
pub fn on_path(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_agent_has_its_files_for_hooks_and_server_in_a_project() {
        let root = Path::new("/w/shop");
        for &agent in Agent::ALL {
            let name = agent.name();
            let part = agent_part(agent);
            let project = (part.targets)(Some(root)).unwrap_or_default();
            assert!(project.iter().all(|t| t.path.starts_with(root)), "{name}");
            let hooks = project
                .iter()
                .any(|t| matches!(t.part, Part::HooksJson { .. }));
            assert!(hooks, "{name}: no file for its hooks");
            let servers = (part.server_targets)(Some(root)).unwrap_or_default();
            assert!(!servers.is_empty(), "{name}: no file for its MCP server");
            for s in &servers {
                assert!(
                    project.iter().any(|t| t.path == s.path),
                    "{name}: {s:?}",
                    s = s.path
                );
            }
            if let Some(t) = part.hook_trust {
                assert!(!t.by_hand.is_empty(), "{name}");
            }
        }
    }

    #[test]
    fn recall_hooks_are_known_by_their_command() {
        for yes in [
            "recall hook",
            "/opt/bin/recall --db '/a b/m.db' hook --project x",
            "RECALL_DB=/m.db recall hook",
            "env RECALL_DB=/m.db /usr/bin/recall --json hook",
        ] {
            assert!(recall_hook(yes), "{yes}");
        }
        for no in [
            "recall mcp",
            "recall --db hook mcp",
            "python3 recall.py hook",
            "echo recall hook",
            "recall",
            "'unclosed",
        ] {
            assert!(!recall_hook(no), "{no}");
        }
        assert_eq!(
            hook_library("/r/recall --db '/a b/m.db' hook").as_deref(),
            Some("/a b/m.db")
        );
        assert_eq!(
            hook_library("RECALL_DB=/x.db recall hook").as_deref(),
            Some("/x.db")
        );
        assert_eq!(hook_library("recall hook"), None);
    }
}
