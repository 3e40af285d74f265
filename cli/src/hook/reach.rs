//! How the agent that sent the hook's JSON reaches recall, so that every instruction the
//! hook gives it works as written: the tools of recall's MCP server where the agent's
//! settings wire it, and always a command line that runs from the agent's own shell.
//!
//! The command line is the hook's own program by its absolute path (`current_exe`) and
//! `--db` with the absolute path of the library the hook opened, each shell-quoted only
//! where needed: the agents' shells know neither (Claude Code's has no `RECALL_DB`, the
//! hook's `--db` being in its settings; Codex runs commands in a login shell, which
//! resets the `PATH`).
//!
//! The agent is told by the payload's `transcript_path` (`Agent::of_transcript`: Claude
//! Code keeps transcripts in `…/projects/FOLDER/ID.jsonl`, Codex its rollouts in
//! `…/rollout-….jsonl`), not by the environment, so that a hook run by hand or by a test
//! answers alike wherever it runs. How it names the tools is the agent's (`agents`); its
//! MCP server is wired when the agent's user or project files (those `recall setup`
//! writes, `setup::wired`) have it, or, in Claude Code, when the hook runs from a plugin
//! whose `.mcp.json` has the server `recall`.
use std::path::Path;

use super::payload::Payload;
use crate::agents::{Agent, Tools};
use crate::settings::Globals;
use crate::setup;

/// How to reach recall from the agent.
pub struct Reach {
    /// The MCP tools, where the agent's settings wire the server.
    tools: Option<Tools>,
    /// The command line of recall, with its library, as the agent's shell runs it.
    cli: String,
}

impl Reach {
    pub fn of(g: &Globals, p: &Payload) -> Reach {
        let tools = agent_of(p)
            .and_then(|agent| agent.mcp_tools(setup::SERVER, &|| server_wired(agent, p)));
        Reach {
            tools,
            cli: command_line(g.db.as_deref()),
        }
    }

    /// The line that tells the agent how to use the memory (one line).
    pub fn usage(&self) -> String {
        const HOW: &str = "search is literal, so search for distinctive words, fragments of names and quoted error text";
        const RESTS: &str = "before answering with a decision, a plan, a status or a number";
        let cli = &self.cli;
        match &self.tools {
            None => format!(
                "How to use the recall memory, from the shell with `{cli}`: {HOW} (`search WORDS`); {RESTS}, run `later ID` on the item it rests on; `get ID` shows an item in full."
            ),
            Some(tools) => format!(
                "How to use the recall memory: {HOW} ({}); {RESTS}, call {} with the ID of the item it rests on; {} shows an item in full. The same from the shell: `{cli}` with `search WORDS`, `later ID` or `get ID`.",
                tools.name("search"),
                tools.name("later"),
                tools.name("get"),
            ),
        }
    }

    /// The command line of one recall command, as the agent's shell runs it.
    pub fn command(&self, command: &str) -> String {
        format!("{} {command}", self.cli)
    }

    /// What shows one item in full, for the headings of the prompt's and the file's
    /// blocks.
    pub fn get(&self) -> String {
        match &self.tools {
            Some(tools) => tools.name("get"),
            None => format!("`{}`", self.command("get ID")),
        }
    }
}

/// The agent whose hook sent the payload, by where its transcript is.
fn agent_of(p: &Payload) -> Option<Agent> {
    Agent::of_transcript(Path::new(p.transcript.as_deref()?))
}

/// Whether the agent's user files or the working folder's repository's wire recall's MCP
/// server. A file that does not name recall at all is not parsed.
fn server_wired(agent: Agent, p: &Payload) -> bool {
    let repository = p.cwd.as_deref().map(|cwd| {
        let cwd = Path::new(cwd);
        crate::project::checkout_of(cwd)
            .unwrap_or(cwd)
            .to_path_buf()
    });
    let server_targets = setup::agent_part(agent).server_targets;
    let mut targets = server_targets(None).into_iter().flatten().chain(
        repository
            .iter()
            .flat_map(|r| server_targets(Some(r)).into_iter().flatten()),
    );
    targets.any(|t| {
        let Ok(bytes) = std::fs::read(&t.path) else {
            return false;
        };
        if !bytes.windows(6).any(|w| w == b"recall") {
            return false;
        }
        match t.part {
            setup::Part::ServerJson => json_server(&bytes),
            setup::Part::CodexToml { .. } => {
                setup::wired(&t).is_some_and(|w| w.server == Some(true))
            }
            setup::Part::HooksJson { .. } => false,
        }
    })
}

/// Whether a JSON settings file's `mcpServers.recall` runs recall. Read for its servers
/// only, every other key skipped unparsed: Claude Code's `~/.claude.json` grows to tens
/// of megabytes, and the hook answers at every session start.
fn json_server(bytes: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Settings {
        #[serde(rename = "mcpServers")]
        servers: Option<std::collections::HashMap<String, Server>>,
    }
    #[derive(serde::Deserialize)]
    struct Server {
        command: Option<String>,
    }
    serde_json::from_slice::<Settings>(bytes)
        .ok()
        .and_then(|s| s.servers?.remove(setup::SERVER)?.command)
        .is_some_and(|command| setup::recall_program(&command))
}

/// One word of a command line, shell-quoted only where needed.
pub fn quoted(word: &str) -> String {
    shlex::try_quote(word)
        .map(std::borrow::Cow::into_owned)
        .unwrap_or_else(|_| word.to_string())
}

/// The hook's own program and its library, as a command line for a POSIX shell.
fn command_line(db: Option<&Path>) -> String {
    let program = std::env::current_exe()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "recall".to_string());
    let mut words = vec![program];
    if let Some(db) = db {
        let db = std::path::absolute(db).unwrap_or_else(|_| db.to_path_buf());
        words.extend(["--db".to_string(), db.to_string_lossy().into_owned()]);
    }
    shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload(transcript: &str) -> Payload {
        Payload {
            transcript: Some(transcript.to_string()).filter(|t| !t.is_empty()),
            ..Payload::bare(crate::hook::payload::Event::Start)
        }
    }

    #[test]
    fn the_agent_is_told_by_its_transcript() {
        for (path, agent) in [
            (
                "/home/a/.claude/projects/-home-a-shop/4f1c.jsonl",
                Some(Agent::Claude),
            ),
            ("/cfg/claude/projects/x/y.jsonl", Some(Agent::Claude)),
            (
                "/home/a/.codex/sessions/2026/12/05/rollout-2026-12-05T13-25-54-01a2.jsonl",
                Some(Agent::Codex),
            ),
            ("/tmp/none.jsonl", None),
            ("/home/a/.claude/projects/x/y.json", None),
            ("/home/a/projects/notes.jsonl", None),
            ("", None),
        ] {
            assert_eq!(agent_of(&payload(path)), agent, "{path}");
        }
    }

    #[test]
    fn the_command_line_is_quoted_only_where_needed() {
        let line = command_line(Some(Path::new("/home/a/memory.db")));
        assert!(line.ends_with(" --db /home/a/memory.db"), "{line}");
        let line = command_line(Some(Path::new("/home/a b/it's.db")));
        assert_eq!(
            shlex::split(&line).unwrap()[2],
            "/home/a b/it's.db",
            "{line}"
        );
        assert_eq!(shlex::split(&command_line(None)).unwrap().len(), 1);
    }
}
