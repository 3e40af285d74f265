//! Codex: the hooks in `hooks.json`, the MCP server in `config.toml`
//! (`[mcp_servers.recall]`), in `~/.codex` (or `$CODEX_HOME`) or the project's `.codex`;
//! and the trust Codex needs before it runs a hook.
//!
//! Codex (0.16x) runs a hook that is not managed only once its definition is trusted: the
//! user's `config.toml` records `[hooks.state."KEY"] trusted_hash = "sha256:…"`, KEY being
//! `SOURCE:event:group:handler` (the file the hook is in, the event in snake case, the
//! positions) and the hash one of the hook's normalized definition. An untrusted hook is
//! skipped without a word. Setup asks Codex itself (`app::hooks_list`) for the keys
//! and hashes of recall's hooks once they are written, and records them as Codex's own
//! `/hooks` review does; where Codex cannot be asked, it says what to do.
//! `offline_trust` reads the same without Codex, for `recall status`.
pub mod app;
pub mod trust;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::{json, Value};
use sha2::Digest;

use crate::setup::json::Event;
use crate::setup::{recall_hook, Part, Target};
use app::Version;

const START: Event = Event {
    name: "SessionStart",
    matcher: None,
    timeout: None,
};
const PROMPT: Event = Event {
    name: "UserPromptSubmit",
    matcher: None,
    timeout: None,
};
/// `apply_patch` is the tool that changes files; Codex names its shell tools (`exec_command`,
/// `shell`) `Bash` in hooks. After a shell command: whether it failed (Codex has no
/// event of a failure).
const TOOL: Event = Event {
    name: "PostToolUse",
    matcher: Some("apply_patch|Bash"),
    timeout: None,
};
/// Before an edit and before a shell command.
const BEFORE_TOOL: Event = Event {
    name: "PreToolUse",
    matcher: Some("apply_patch|Bash"),
    timeout: None,
};
/// Codex caps a `SessionEnd` hook at 3 s (and warns at every start about a longer one):
/// the hook starts its capture detached and returns at once.
const END: Event = Event {
    name: "SessionEnd",
    matcher: None,
    timeout: Some(3),
};
const STOP: Event = Event {
    name: "Stop",
    matcher: None,
    timeout: None,
};

/// The first Codex with a `SessionEnd` hook (it ran in `codex exec` and at a normal
/// close in 0.169.0).
pub const SESSION_END_SINCE: Version = Version(0, 145, 0);

/// The events recall's hook answers in a Codex with `SessionEnd`: the session is
/// captured when it ends.
pub const EVENTS_WITH_END: &[Event] = &[START, PROMPT, END, TOOL, BEFORE_TOOL];

/// In an older Codex, each turn's `Stop` captures what the session holds so far (only
/// what changed is written).
pub const EVENTS_WITH_STOP: &[Event] = &[START, PROMPT, STOP, TOOL, BEFORE_TOOL];

/// Every event setup ever wires in Codex (what `--remove` takes recall's hook out of).
const EVERY_EVENT: &[Event] = &[START, PROMPT, END, STOP, TOOL, BEFORE_TOOL];

/// Codex as found on this machine: its program on the PATH, and its version.
pub struct Installed {
    pub program: Option<PathBuf>,
    pub version: Result<Version, String>,
}

impl Installed {
    /// The events to wire: `SessionEnd` where the version has it; `Stop`, which every
    /// Codex with hooks runs, where it has not or is not known.
    pub fn events(&self) -> &'static [Event] {
        match self.version {
            Ok(v) if v >= SESSION_END_SINCE => EVENTS_WITH_END,
            _ => EVENTS_WITH_STOP,
        }
    }
}

/// The `codex` on the PATH and its version, found once a process.
pub fn installed() -> &'static Installed {
    static FOUND: OnceLock<Installed> = OnceLock::new();
    FOUND.get_or_init(|| {
        let program = crate::setup::on_path("codex");
        let version = match &program {
            Some(p) => app::version(p),
            None => Err("`codex` is not on the PATH".to_string()),
        };
        Installed { program, version }
    })
}

/// The files of the user's scope (None) or a project's.
pub fn targets_of(project: Option<&Path>) -> Option<Vec<Target>> {
    match project {
        None => user_targets(),
        Some(root) => Some(project_targets(root)),
    }
}

/// `config.toml` of the folder: read without asking `codex` for its version, which the
/// hook files' events depend on.
pub fn server_targets(project: Option<&Path>) -> Option<Vec<Target>> {
    let dir = match project {
        None => config_dir()?,
        Some(root) => root.join(".codex"),
    };
    Some(vec![server_target(&dir)])
}

/// Codex's folder: `$CODEX_HOME`, else `~/.codex`.
pub fn config_dir() -> Option<PathBuf> {
    crate::agents::codex::folder()
}

/// The user's `config.toml`: the only layer whose `hooks.state` Codex reads (a
/// project's `.codex/config.toml` may hold hooks, not their trust).
pub fn user_config() -> Option<PathBuf> {
    Some(config_dir()?.join("config.toml"))
}

fn targets(dir: &Path) -> Vec<Target> {
    let events = installed().events();
    // Events whose recall hook is wired through `[hooks]` tables of the same folder's
    // `config.toml` are left to those: one hook an event.
    let in_tables = tables_wired(&dir.join("config.toml"));
    let write: Vec<Event> = events
        .iter()
        .filter(|e| !in_tables.iter().any(|t| t == e.name))
        .copied()
        .collect();
    let drop: Vec<Event> = EVERY_EVENT
        .iter()
        .filter(|e| !write.iter().any(|w| w.name == e.name))
        .copied()
        .collect();
    vec![
        Target {
            path: dir.join("hooks.json"),
            part: Part::HooksJson {
                events: write,
                drop,
            },
        },
        server_target(dir),
    ]
}

/// The `config.toml` of a folder, for its MCP server.
pub fn server_target(dir: &Path) -> Target {
    Target {
        path: dir.join("config.toml"),
        part: Part::CodexToml {
            server: true,
            trust: Vec::new(),
            untrust: Vec::new(),
        },
    }
}

pub fn user_targets() -> Option<Vec<Target>> {
    Some(targets(&config_dir()?))
}

pub fn project_targets(root: &Path) -> Vec<Target> {
    targets(&root.join(".codex"))
}

/// The events of a `config.toml`'s `[hooks]` tables that run recall's hook.
fn tables_wired(config: &Path) -> Vec<String> {
    let Ok(Some(text)) = crate::setup::files::read(config) else {
        return Vec::new();
    };
    let Ok(doc) = crate::setup::toml::parse(Some(&text)) else {
        return Vec::new();
    };
    let mut events: Vec<String> = Vec::new();
    for h in crate::setup::toml::table_hooks(&doc) {
        if recall_hook(&h.command) && !events.contains(&h.event) {
            events.push(h.event);
        }
    }
    events
}

/// The label of an event in Codex's hook keys and hashes (`SessionStart` →
/// `session_start`).
pub fn event_label(event: &str) -> String {
    let mut out = String::new();
    for (i, c) in event.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The events whose matcher Codex keeps in a hook's identity (the others ignore it).
const MATCHED: &[&str] = &[
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SessionStart",
    "SubagentStart",
    "SubagentStop",
];

/// One recall hook as a file holds it, with the key Codex gives it.
#[derive(Debug, Clone)]
pub struct OurHook {
    pub key: String,
    pub event: String,
    /// The hash of its definition as Codex 0.16x computes it, when recall can (a handler
    /// of `type`, `command`, `timeout` and `async` only).
    pub hash: Option<String>,
}

/// The hash Codex 0.16x gives a command hook (verified against `hooks/list` of 0.169.0):
/// SHA-256 of the compact JSON, keys sorted, of `{event_name, matcher?, hooks: [handler]}`
/// with the handler normalized (`type`, `command`, `timeout` (600 when absent; at least
/// 1; `SessionEnd` at most 3, 1 when absent), `async`).
pub fn hook_hash(
    event: &str,
    matcher: Option<&str>,
    command: &str,
    timeout: Option<i64>,
) -> String {
    let timeout = match event {
        "SessionEnd" => timeout.unwrap_or(1).clamp(1, 3),
        _ => timeout.unwrap_or(600).max(1),
    };
    let mut identity = json!({
        "event_name": event_label(event),
        "hooks": [{"type": "command", "command": command, "timeout": timeout, "async": false}],
    });
    if let Some(m) = matcher.filter(|_| MATCHED.contains(&event)) {
        identity["matcher"] = json!(m);
    }
    // serde_json's map is sorted, and `to_string` is compact: the canonical form.
    let digest = sha2::Sha256::digest(identity.to_string().as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// recall's hooks in a `hooks.json` text, with their keys (`source` is the file's path
/// as Codex names it).
pub fn json_hooks(source: &Path, text: &str) -> Vec<OurHook> {
    let Ok(root) = serde_json::from_str::<Value>(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let Some(events) = root.get("hooks").and_then(Value::as_object) else {
        return out;
    };
    for (event, groups) in events {
        for (g, group) in groups.as_array().into_iter().flatten().enumerate() {
            let matcher = group.get("matcher").and_then(Value::as_str);
            for (h, handler) in group
                .get("hooks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let Some(command) = handler.get("command").and_then(Value::as_str) else {
                    continue;
                };
                if !recall_hook(command) {
                    continue;
                }
                let plain = handler.as_object().is_some_and(|o| {
                    o.keys()
                        .all(|k| ["type", "command", "timeout", "async"].contains(&k.as_str()))
                }) && handler.get("async").and_then(Value::as_bool) != Some(true);
                let timeout = handler.get("timeout").and_then(Value::as_i64);
                out.push(OurHook {
                    key: key(source, event, g, h),
                    event: event.clone(),
                    hash: plain.then(|| hook_hash(event, matcher, command, timeout)),
                });
            }
        }
    }
    out
}

/// recall's hooks in a `config.toml`'s `[hooks]` tables, with their keys.
pub fn table_hooks(source: &Path, text: &str) -> Vec<OurHook> {
    let Ok(doc) = crate::setup::toml::parse(Some(text)) else {
        return Vec::new();
    };
    crate::setup::toml::table_hooks(&doc)
        .into_iter()
        .filter(|h| recall_hook(&h.command))
        .map(|h| OurHook {
            key: key(source, &h.event, h.group, h.handler),
            hash: Some(hook_hash(
                &h.event,
                h.matcher.as_deref(),
                &h.command,
                h.timeout,
            )),
            event: h.event,
        })
        .collect()
}

fn key(source: &Path, event: &str, group: usize, handler: usize) -> String {
    format!(
        "{}:{}:{group}:{handler}",
        source.display(),
        event_label(event)
    )
}

/// A file's path as Codex names it in keys: absolute.
pub fn source_name(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Whether two paths name the same file (the same path, or the same file once links are
/// followed).
fn same_file(a: &Path, b: &Path) -> bool {
    a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

/// recall's hooks in a scope's folder (`hooks.json`, and `[hooks]` tables of its
/// `config.toml`), as they are on disk.
pub fn scope_hooks(dir: &Path) -> Vec<OurHook> {
    let mut out = Vec::new();
    for (name, read) in [
        ("hooks.json", json_hooks as fn(&Path, &str) -> Vec<OurHook>),
        ("config.toml", table_hooks),
    ] {
        let path = dir.join(name);
        if let Ok(Some(text)) = crate::setup::files::read(&path) {
            out.extend(read(&source_name(&path), &text));
        }
    }
    out
}

/// Whether Codex trusts recall's hooks of a scope, as recall can tell.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "trust", rename_all = "snake_case")]
pub enum Trust {
    /// No recall hook in the scope.
    NotWired,
    /// Every recall hook has its current hash recorded.
    Trusted { hooks: usize },
    /// Some have no trust recorded: Codex skips them.
    NotTrusted {
        hooks: usize,
        untrusted: Vec<String>,
    },
    /// Some were trusted and have changed since: Codex skips them.
    Changed { hooks: usize, changed: Vec<String> },
    /// recall cannot tell (a handler of a form it does not hash, an unreadable file).
    Unknown { hooks: usize, why: String },
}

/// What a person does to trust recall's hooks by hand.
pub const TRUST_BY_HAND: &str =
    "run `codex`, type /hooks and trust recall's hooks (or run `recall setup codex` again with `codex` on the PATH)";

impl Trust {
    /// One line: the state, and what to do where Codex will not run the hooks.
    pub fn line(&self) -> String {
        match self {
            Trust::NotTrusted { .. } | Trust::Changed { .. } => {
                format!("{}: {TRUST_BY_HAND}", self.state())
            }
            _ => self.state(),
        }
    }

    /// The state alone.
    pub fn state(&self) -> String {
        match self {
            Trust::NotWired => "no recall hook".into(),
            Trust::Trusted { hooks } => format!("Codex trusts recall's {hooks} hooks"),
            Trust::NotTrusted { hooks, untrusted } => format!(
                "not trusted: Codex skips {} of recall's {hooks} hooks ({})",
                untrusted.len(),
                untrusted.join(", ")
            ),
            Trust::Changed { hooks, changed } => format!(
                "changed since trusted: Codex skips {} of recall's {hooks} hooks ({})",
                changed.len(),
                changed.join(", ")
            ),
            Trust::Unknown { hooks, why } => {
                format!("trust of recall's {hooks} hooks not known: {why}")
            }
        }
    }

    pub fn runs(&self) -> bool {
        matches!(self, Trust::Trusted { .. } | Trust::NotWired)
    }
}

/// The trust of recall's hooks in `dir` against the user's `config.toml`, read without
/// Codex (recall's own hash, verified against Codex 0.169.0).
pub fn offline_trust(dir: &Path) -> Trust {
    let ours = scope_hooks(dir);
    if ours.is_empty() {
        return Trust::NotWired;
    }
    let recorded = match user_config().map(|p| crate::setup::files::read(&p)) {
        Some(Ok(Some(text))) => match crate::setup::toml::parse(Some(&text)) {
            Ok(doc) => crate::setup::toml::trusted_hashes(&doc),
            Err(e) => {
                return Trust::Unknown {
                    hooks: ours.len(),
                    why: format!("the user's config.toml is {e}"),
                }
            }
        },
        Some(Ok(None)) | None => Vec::new(),
        Some(Err(e)) => {
            return Trust::Unknown {
                hooks: ours.len(),
                why: format!("the user's config.toml {e}"),
            }
        }
    };
    let mut untrusted = Vec::new();
    let mut changed = Vec::new();
    for h in &ours {
        let found = recorded.iter().find(|(k, _)| same_key(k, &h.key));
        match (found, &h.hash) {
            (None, _) => untrusted.push(h.event.clone()),
            (Some(_), None) => {
                return Trust::Unknown {
                    hooks: ours.len(),
                    why: format!(
                        "its {} hook has fields recall does not hash; `recall setup` asks Codex",
                        h.event
                    ),
                }
            }
            (Some((_, recorded)), Some(hash)) if recorded != hash => changed.push(h.event.clone()),
            _ => {}
        }
    }
    let hooks = ours.len();
    if !untrusted.is_empty() {
        Trust::NotTrusted { hooks, untrusted }
    } else if !changed.is_empty() {
        Trust::Changed { hooks, changed }
    } else {
        Trust::Trusted { hooks }
    }
}

/// Whether two hook keys name the same hook: the same positions and event, in the same
/// file.
pub fn same_key(a: &str, b: &str) -> bool {
    let split = |k: &str| -> Option<(String, String)> {
        let mut parts = k.rsplitn(4, ':');
        let (h, g, event, path) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        Some((path.to_string(), format!("{event}:{g}:{h}")))
    };
    match (split(a), split(b)) {
        (Some((pa, ta)), Some((pb, tb))) => ta == tb && same_file(Path::new(&pa), Path::new(&pb)),
        _ => a == b,
    }
}

/// The trust entries to take out with recall's hooks of `dir`: those of the user's
/// `config.toml` whose key names one of recall's hooks there (in `hooks.json`, which
/// `--remove` takes out, and in `[hooks]` tables, which it leaves: untrusted, Codex skips
/// them).
pub fn trust_to_remove(dir: &Path, recorded: &[(String, String)]) -> Vec<String> {
    let ours = scope_hooks(dir);
    recorded
        .iter()
        .filter(|(k, _)| ours.iter().any(|h| same_key(k, &h.key)))
        .map(|(k, _)| k.clone())
        .collect()
}

/// Trust entries left by recall's hooks that are gone (Codex's `Stop` replaced by
/// `SessionEnd`, an older path): a key of the scope's `hooks.json` that Codex no longer
/// lists, whose hash is the one a recall hook with `command` has in some event.
pub fn stale_trust(
    dir: &Path,
    recorded: &[(String, String)],
    listed: &[String],
    command: &str,
) -> Vec<String> {
    let file = source_name(&dir.join("hooks.json"));
    let ours: Vec<String> = EVERY_EVENT
        .iter()
        .map(|e| {
            let timeout = e.timeout.unwrap_or(crate::setup::TIMEOUT_SECONDS);
            hook_hash(e.name, e.matcher, command, Some(i64::from(timeout)))
        })
        .collect();
    recorded
        .iter()
        .filter(|(k, hash)| {
            let in_file = k
                .rsplitn(4, ':')
                .nth(3)
                .is_some_and(|path| same_file(Path::new(path), &file));
            in_file && !listed.iter().any(|l| same_key(l, k)) && ours.contains(hash)
        })
        .map(|(k, _)| k.clone())
        .collect()
}

/// What asking Codex gave: the trust to record (key, hash) for recall's hooks it lists
/// in `dir`, how many of them it lists, and Codex's warnings; or why it could not be
/// asked.
pub struct Asked {
    pub to_trust: Vec<(String, String)>,
    pub listed: usize,
    pub trusted: usize,
    /// The events of the hooks Codex does not trust, and of those changed since trusted.
    pub untrusted: Vec<String>,
    pub modified: Vec<String>,
    /// The keys of every hook Codex lists in the scope's files, recall's or not.
    pub keys: Vec<String>,
    pub warnings: Vec<String>,
}

/// An event as the hook files name it, from the app server's name (`sessionStart`).
fn file_event(protocol: &str) -> String {
    let mut c = protocol.chars();
    c.next()
        .map(|first| first.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

impl Asked {
    pub fn trust(&self) -> Trust {
        let hooks = self.listed;
        match (hooks, self.untrusted.is_empty(), self.modified.is_empty()) {
            (0, _, _) => Trust::NotWired,
            (_, false, _) => Trust::NotTrusted {
                hooks,
                untrusted: self.untrusted.clone(),
            },
            (_, true, false) => Trust::Changed {
                hooks,
                changed: self.modified.clone(),
            },
            (_, true, true) => Trust::Trusted { hooks },
        }
    }
}

/// Whether Codex trusts recall's hooks of `dir`: asked of Codex where it is on the PATH,
/// else read without it (`offline_trust`).
pub fn trust(dir: &Path, cwd: &Path) -> Trust {
    if installed().program.is_none() {
        return offline_trust(dir);
    }
    match ask(dir, cwd) {
        Ok(asked) if asked.listed > 0 => asked.trust(),
        // Codex lists none (a project it does not trust yet, hooks turned off): what the
        // files say.
        Ok(_) => offline_trust(dir),
        Err(why) => match offline_trust(dir) {
            Trust::NotWired => Trust::NotWired,
            t => Trust::Unknown {
                hooks: scope_hooks(dir).len(),
                why: format!("{why}; without Codex: {}", t.line()),
            },
        },
    }
}

/// Asks Codex (`hooks/list` in `cwd`) for recall's hooks of `dir`.
pub fn ask(dir: &Path, cwd: &Path) -> Result<Asked, String> {
    let codex = installed()
        .program
        .as_deref()
        .ok_or("`codex` is not on the PATH")?;
    let listing = app::hooks_list(codex, cwd)?;
    let sources = [dir.join("hooks.json"), dir.join("config.toml")].map(|p| source_name(&p));
    let ours: Vec<_> = listing
        .hooks
        .iter()
        .filter(|h| h.command.as_deref().is_some_and(recall_hook))
        .filter(|h| sources.iter().any(|s| same_file(s, &h.source_path)))
        .collect();
    Ok(Asked {
        to_trust: ours
            .iter()
            .filter(|h| h.trust_status != "trusted" && h.trust_status != "managed")
            .map(|h| (h.key.clone(), h.current_hash.clone()))
            .collect(),
        listed: ours.len(),
        trusted: ours
            .iter()
            .filter(|h| h.trust_status == "trusted" || h.trust_status == "managed")
            .count(),
        untrusted: ours
            .iter()
            .filter(|h| h.trust_status == "untrusted")
            .map(|h| file_event(&h.event))
            .collect(),
        modified: ours
            .iter()
            .filter(|h| h.trust_status == "modified")
            .map(|h| file_event(&h.event))
            .collect(),
        keys: listing
            .hooks
            .iter()
            .filter(|h| sources.iter().any(|s| same_file(s, &h.source_path)))
            .map(|h| h.key.clone())
            .collect(),
        warnings: listing.warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_codex_s_snake_case() {
        for (event, label) in [
            ("SessionStart", "session_start"),
            ("UserPromptSubmit", "user_prompt_submit"),
            ("PostToolUse", "post_tool_use"),
            ("SessionEnd", "session_end"),
            ("Stop", "stop"),
        ] {
            assert_eq!(event_label(event), label);
        }
    }

    #[test]
    fn keys_match_across_spellings_of_one_file() {
        let dir = std::env::temp_dir().join(format!("recall-keys-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("hooks.json"), "{}").unwrap();
        let link = dir.with_extension("link");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&dir, &link).unwrap();
        let key = |d: &Path, file: &str, rest: &str| format!("{}:{rest}", d.join(file).display());
        let a = key(&dir, "hooks.json", "stop:0:1");
        assert!(same_key(&a, &a));
        assert!(same_key(&a, &key(&dir.join("."), "hooks.json", "stop:0:1")));
        // Through a link to the folder: the same file.
        assert!(same_key(&a, &key(&link, "hooks.json", "stop:0:1")));
        for other in [
            key(&dir, "hooks.json", "stop:1:1"),
            key(&dir, "hooks.json", "session_end:0:1"),
            key(&dir, "config.toml", "stop:0:1"),
        ] {
            assert!(!same_key(&a, &other), "{other}");
        }
        let _ = std::fs::remove_file(&link);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_hash_is_the_one_codex_lists() {
        // Hashes that Codex 0.169.0's app server listed (hooks/list) for these hooks.
        let command = "/bin/recall --db /m.db hook";
        assert_eq!(
            hook_hash("SessionStart", None, command, Some(10)),
            "sha256:c8a140de8abb350cac5847a1db231b4cf9ad4996dde052e76ec10c5998604792"
        );
        assert_eq!(
            hook_hash("PostToolUse", Some("apply_patch"), command, Some(10)),
            "sha256:dad8441e13f2936f2951b66ba21e8c5a8b3da0add756051483f8143fb7e69a60"
        );
        // SessionEnd's timeout of 10, clamped to 3 as Codex does.
        assert_eq!(
            hook_hash("SessionEnd", None, command, Some(10)),
            "sha256:b63636930f4d6326f65ac32d4aa3a5e457dc658d3f2509bf085df2f4dc5c6c7e"
        );
        assert_eq!(
            hook_hash("SessionEnd", None, command, Some(3)),
            hook_hash("SessionEnd", None, command, Some(10))
        );
        // A matcher Codex ignores for the event is no part of the identity.
        assert_eq!(
            hook_hash("Stop", Some("x"), command, Some(10)),
            hook_hash("Stop", None, command, Some(10))
        );
    }
}
