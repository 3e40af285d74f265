//! Asking Codex itself about hooks: `codex --version`, and `codex app-server` (JSON-RPC,
//! one JSON object a line on stdio): `initialize`, `initialized`, then `hooks/list`,
//! whose answer gives each hook Codex found with its key (`PATH:event:group:handler`),
//! its current hash and whether it is trusted. Codex computes both; recall records what
//! Codex answers (`codex::trust`) rather than its own computation.
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{json, Value};

/// How long Codex's app server may take to answer (it answers in under a second).
const ANSWER_WITHIN: Duration = Duration::from_secs(20);

/// A Codex release, as `codex --version` prints it (`codex-cli 0.169.0`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(pub u32, pub u32, pub u32);

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// The version in `codex --version`'s line: its last word, `MAJOR.MINOR.PATCH` with any
/// suffix (`-alpha.1`) left out.
pub fn parse_version(line: &str) -> Option<Version> {
    let word = line.split_whitespace().last()?;
    let core = word.split(['-', '+']).next()?;
    let mut parts = core.split('.').map(|p| p.parse::<u32>().ok());
    let v = Version(parts.next()??, parts.next()??, parts.next()??);
    parts.next().is_none().then_some(v)
}

/// What `codex --version` says, or why it could not be read.
pub fn version(codex: &Path) -> Result<Version, String> {
    let out = Command::new(codex)
        .arg("--version")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .map_err(|e| format!("`{} --version` cannot run: {e}", codex.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    parse_version(&text).ok_or_else(|| {
        format!(
            "`{} --version` printed no version ({:?})",
            codex.display(),
            text.trim()
        )
    })
}

/// One hook as `hooks/list` gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct Listed {
    pub key: String,
    /// The event as the protocol names it (`sessionStart`).
    pub event: String,
    pub command: Option<String>,
    pub source_path: PathBuf,
    pub current_hash: String,
    /// `trusted`, `untrusted`, `modified` or `managed`.
    pub trust_status: String,
}

/// What `hooks/list` answers for the folder `cwd`: the hooks, and Codex's warnings.
pub struct Listing {
    pub hooks: Vec<Listed>,
    pub warnings: Vec<String>,
}

/// Asks `codex app-server` for the hooks Codex would run in `cwd` (its environment is
/// this process's: `CODEX_HOME`, `HOME`).
pub fn hooks_list(codex: &Path, cwd: &Path) -> Result<Listing, String> {
    let name = codex.display();
    let mut child = Command::new(codex)
        .arg("app-server")
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("`{name} app-server` cannot start: {e}"))?;
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
               "params": {"clientInfo": {"name": "recall", "version": env!("CARGO_PKG_VERSION")}}}),
        json!({"jsonrpc": "2.0", "method": "initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "hooks/list",
               "params": {"cwds": [cwd.to_string_lossy()]}}),
    ];
    let sent = child.stdin.take().map(|mut stdin| {
        let text: String = requests.iter().map(|r| format!("{r}\n")).collect();
        // stdin stays open until the answer came: the server ends when it closes.
        stdin.write_all(text.as_bytes()).map(|()| stdin)
    });
    let answer = match (sent, child.stdout.take()) {
        (Some(Ok(stdin)), Some(stdout)) => {
            let answer = answer_to(stdout, 2);
            drop(stdin);
            answer
        }
        (Some(Err(e)), _) => Err(format!("cannot write to `{name} app-server`: {e}")),
        _ => Err(format!("`{name} app-server` gave no pipes")),
    };
    let _ = child.kill();
    let _ = child.wait();
    let result = answer.map_err(|e| format!("`{name} app-server`: {e}"))?;
    listing(&result).ok_or_else(|| {
        format!("`{name} app-server` answered hooks/list in a shape recall does not know")
    })
}

/// The `result` of the response with this id, read line by line within `ANSWER_WITHIN`.
fn answer_to(stdout: std::process::ChildStdout, id: u64) -> Result<Value, String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if message.get("id").and_then(Value::as_u64) == Some(id) {
                let _ = tx.send(message);
                return;
            }
        }
    });
    let message = rx.recv_timeout(ANSWER_WITHIN).map_err(|e| match e {
        mpsc::RecvTimeoutError::Timeout => format!(
            "no answer to hooks/list within {} s",
            ANSWER_WITHIN.as_secs()
        ),
        mpsc::RecvTimeoutError::Disconnected => "it ended without answering hooks/list".into(),
    })?;
    if let Some(error) = message.get("error") {
        let what = error
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| error.to_string());
        return Err(format!("hooks/list failed: {what}"));
    }
    message
        .get("result")
        .cloned()
        .ok_or_else(|| "hooks/list answered without a result".to_string())
}

fn listing(result: &Value) -> Option<Listing> {
    let mut out = Listing {
        hooks: Vec::new(),
        warnings: Vec::new(),
    };
    for entry in result.get("data")?.as_array()? {
        for w in entry
            .get("warnings")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(w) = w.as_str() {
                out.warnings.push(w.to_string());
            }
        }
        for h in entry.get("hooks")?.as_array()? {
            let text = |k: &str| h.get(k).and_then(Value::as_str).map(str::to_string);
            out.hooks.push(Listed {
                key: text("key")?,
                event: text("eventName")?,
                command: text("command"),
                source_path: PathBuf::from(text("sourcePath")?),
                current_hash: text("currentHash")?,
                trust_status: text("trustStatus")?,
            });
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_read_as_codex_prints_them() {
        assert_eq!(
            parse_version("codex-cli 0.169.0\n"),
            Some(Version(0, 169, 0))
        );
        assert_eq!(
            parse_version("codex-cli 0.145.0-alpha.3"),
            Some(Version(0, 145, 0))
        );
        assert_eq!(parse_version("codex 1.2.3+build"), Some(Version(1, 2, 3)));
        for bad in [
            "",
            "codex-cli",
            "codex-cli 0.169",
            "codex-cli 0.x.1",
            "0.1.2.3",
        ] {
            assert_eq!(parse_version(bad), None, "{bad}");
        }
        assert!(Version(0, 144, 9) < Version(0, 145, 0));
    }
}
