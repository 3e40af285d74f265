//! The coding agents recall works with, one module each (`claude`, `codex`), holding the
//! agent's facts: its name and program, its folders, how its transcripts are told from
//! the other agents', the file tools it uses, how it names recall's MCP tools and where
//! it keeps worktrees. A foundation, below every layer that differs by agent, so that
//! capture, setup, the hook, status, the command line and the project rule all iterate
//! over `Agent::ALL` and ask the agent.
//!
//! What an agent has in a layer above (its transcript reader in `capture`, its settings
//! files and hook trust in `setup`) is in that layer's file of the agent, reached by the
//! layer's one table of agents (`capture::part`, `setup::part`), whose `match` the
//! compiler holds to every agent (docs/architecture.md#agents).
pub mod capture;
pub mod claude;
pub mod codex;
pub mod setup;

use std::path::{Path, PathBuf};

use serde_json::Value;

/// An agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Agent {
    Claude,
    Codex,
}

impl Agent {
    /// Every agent recall knows, in the order they are listed, looked for and read
    /// (an ambiguous transcript line or path is the first one's).
    pub const ALL: &'static [Agent] = &[Agent::Claude, Agent::Codex];

    fn facts(self) -> &'static Facts {
        match self {
            Agent::Claude => &claude::FACTS,
            Agent::Codex => &codex::FACTS,
        }
    }
}

/// What one agent is and does, as recall meets it.
pub struct Facts {
    /// Its name on the command line (`recall setup NAME`), in the library's capture
    /// records, as the default source of its items and in JSON output.
    pub name: &'static str,
    /// How a message names it ("not a Claude Code or Codex session file").
    pub title: &'static str,
    /// Its line in `recall setup --help`.
    pub help: &'static str,
    /// Its program, looked for on the PATH.
    pub program: &'static str,
    /// Its user folder (its variable, else a folder in HOME).
    pub folder: fn() -> Option<PathBuf>,
    /// The folders of its user folder that hold its session files, for `recall capture`
    /// without a path, and how a message names the first.
    pub session_folders: &'static [&'static str],
    pub sessions_shown: &'static str,
    /// Whether a transcript line's `type` is one only its records have.
    pub record_type: fn(&str) -> bool,
    /// Whether a line of no type of any agent's is its, by its other fields.
    pub record_shape: fn(&Value) -> bool,
    /// Whether a file's name alone says it is its transcript.
    pub file_name: fn(&str) -> bool,
    /// Whether a `.jsonl` file is its transcript by the folders it is in.
    pub transcript_folder: fn(&Path) -> bool,
    /// How it names the tools of the MCP server SERVER, given whether its settings wire
    /// the server (asked only when needed: it reads files).
    pub mcp_tools: fn(&str, &dyn Fn() -> bool) -> Option<Tools>,
    /// The files a call of one of its file tools names (None: not its file tool).
    pub file_tool: fn(&str, Option<&Value>) -> Option<Vec<String>>,
    /// The repository of a worktree it keeps, when the path's part `i` is where its
    /// worktrees are (`project::worktree_owner`).
    pub worktree: fn(&[String], usize) -> Option<String>,
    /// Its folder's name in a home (`.claude`) and the folders in it that hold its own
    /// state (plans, to-do lists, transcripts): a file it writes there is its
    /// bookkeeping, not work on the person's files; what a person keeps there (skills,
    /// agents, commands, settings) is.
    pub state: (&'static str, &'static [&'static str]),
}

/// How an agent names recall's MCP tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tools {
    /// The tool's name after this prefix (Claude Code's `mcp__SERVER__TOOL`).
    Prefixed(String),
    /// The server's tools behind its tool search, named by server and tool (Codex).
    Server,
}

impl Tools {
    /// A tool of recall's server as the agent's context names it.
    pub fn name(&self, tool: &str) -> String {
        match self {
            Tools::Prefixed(prefix) => format!("`{prefix}{tool}`"),
            Tools::Server => format!("the recall MCP tool `{tool}`"),
        }
    }
}

impl Agent {
    pub fn name(self) -> &'static str {
        self.facts().name
    }

    pub fn title(self) -> &'static str {
        self.facts().title
    }

    pub fn program(self) -> &'static str {
        self.facts().program
    }

    /// How a message names its first folder of session files.
    pub fn sessions_shown(self) -> &'static str {
        self.facts().sessions_shown
    }

    pub fn config_dir(self) -> Option<PathBuf> {
        (self.facts().folder)()
    }

    /// Its folders of session files, those that exist or not.
    pub fn session_folders(self) -> Vec<PathBuf> {
        let Some(folder) = self.config_dir() else {
            return Vec::new();
        };
        self.facts()
            .session_folders
            .iter()
            .map(|f| folder.join(f))
            .collect()
    }

    /// How it names the tools of the MCP server `server`; `wired`: whether its settings
    /// wire the server.
    pub fn mcp_tools(self, server: &str, wired: &dyn Fn() -> bool) -> Option<Tools> {
        (self.facts().mcp_tools)(server, wired)
    }

    /// Whether `file` (as an agent wrote it, `/` or `\` between parts) is in a folder of
    /// any agent's own state, so that it is no file a session changed.
    pub fn state_file(file: &str) -> bool {
        let parts: Vec<&str> = file.split(['/', '\\']).collect();
        parts.windows(3).any(|w| {
            Agent::ALL.iter().any(|a| {
                let (home, state) = a.facts().state;
                w[0] == home && state.contains(&w[1])
            })
        })
    }

    /// Which agent wrote a transcript line, by the record types only its records have,
    /// else by the fields of its records.
    pub fn of_record(v: &Value) -> Option<Agent> {
        let kind = v.get("type").and_then(Value::as_str);
        let by_type = kind.and_then(|k| Agent::ALL.iter().find(|a| (a.facts().record_type)(k)));
        by_type
            .or_else(|| Agent::ALL.iter().find(|a| (a.facts().record_shape)(v)))
            .copied()
    }

    /// Which agent's transcript a file's name alone says it is.
    pub fn of_file_name(name: &str) -> Option<Agent> {
        Agent::ALL
            .iter()
            .copied()
            .find(|a| (a.facts().file_name)(name))
    }

    /// Which agent's transcript a `.jsonl` path is: by its name, else by its folders.
    pub fn of_transcript(path: &Path) -> Option<Agent> {
        let name = path.file_name()?.to_str()?;
        if !name.ends_with(".jsonl") {
            return None;
        }
        Agent::of_file_name(name).or_else(|| {
            Agent::ALL
                .iter()
                .copied()
                .find(|a| (a.facts().transcript_folder)(path))
        })
    }

    /// The files a file tool's call names, by the first agent whose tool it is.
    pub fn tool_files(tool: &str, input: Option<&Value>) -> Vec<String> {
        Agent::ALL
            .iter()
            .find_map(|a| (a.facts().file_tool)(tool, input))
            .unwrap_or_default()
    }

    /// The repository of an agent's worktree whose folder is at part `i` of a path.
    pub fn worktree_owner(parts: &[String], i: usize) -> Option<String> {
        Agent::ALL
            .iter()
            .find_map(|a| (a.facts().worktree)(parts, i))
    }

    /// The agents' titles as a message lists them: "A or B", "A, B or C".
    pub fn titles(or: &str) -> String {
        let titles: Vec<&str> = Agent::ALL.iter().map(|a| a.title()).collect();
        match titles.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} {or} {last}", rest.join(", ")),
            None => String::new(),
        }
    }
}

/// A text field of a tool's input, trimmed; none when absent or empty.
fn input_text(input: Option<&Value>, key: &str) -> Option<String> {
    input
        .and_then(|i| i.get(key))
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(str::to_string)
}

/// A session no line of which told its agent (a file with no record) is the first
/// agent's: nothing is made of it.
impl Default for Agent {
    fn default() -> Agent {
        Agent::ALL[0]
    }
}

impl clap::ValueEnum for Agent {
    fn value_variants<'a>() -> &'a [Agent] {
        Agent::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()).help(self.facts().help))
    }
}

#[cfg(test)]
pub(crate) mod tests {
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
            assert!(Agent::state_file(file), "{file}");
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
            assert!(!Agent::state_file(file), "{file}");
        }
    }

    use super::*;
    use std::collections::HashSet;

    /// A first line of each agent's transcript, in the shape it writes (the layers'
    /// tests read it with the agent's reader).
    pub fn first_line(agent: Agent) -> Value {
        match agent {
            Agent::Claude => serde_json::json!({
                "type": "user", "sessionId": "4f1c", "uuid": "u1", "cwd": "/w/shop",
                "timestamp": "2026-12-05T10:00:00Z",
                "message": {"role": "user", "content": "fix the tax rounding"}
            }),
            Agent::Codex => serde_json::json!({
                "timestamp": "2026-12-05T10:00:00.000Z", "type": "session_meta",
                "payload": {"id": "019d", "cwd": "/w/shop", "originator": "codex_cli_rs"}
            }),
        }
    }

    /// A path where the agent writes a transcript.
    fn transcript_path(agent: Agent) -> &'static str {
        match agent {
            Agent::Claude => "/home/a/.claude/projects/-w-shop/4f1c.jsonl",
            Agent::Codex => {
                "/home/a/.codex/sessions/2026/12/05/rollout-2026-12-05T10-00-00-019d.jsonl"
            }
        }
    }

    #[test]
    fn every_agent_s_facts_are_complete_and_its_own() {
        let mut names = HashSet::new();
        let mut programs = HashSet::new();
        for &agent in Agent::ALL {
            let name = agent.name();
            let facts = agent.facts();
            assert!(
                !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{name:?}: a name is lower case, digits and dashes (it is a CLI value)"
            );
            assert!(names.insert(name), "{name}: two agents of one name");
            assert!(
                !agent.program().is_empty() && programs.insert(agent.program()),
                "{name}: no program, or another agent's"
            );
            assert!(
                !agent.title().is_empty() && !facts.help.is_empty(),
                "{name}"
            );
            assert!(
                !facts.session_folders.is_empty(),
                "{name}: no session folder"
            );
            assert!(
                facts.sessions_shown.contains(facts.session_folders[0]),
                "{name}: {} does not show {}",
                facts.sessions_shown,
                facts.session_folders[0]
            );
            // The command line takes it by its name.
            let parsed = <Agent as clap::ValueEnum>::from_str(name, false);
            assert_eq!(parsed, Ok(agent), "{name}");
            // It names recall's tools where the server is wired, and none where not.
            assert!(agent.mcp_tools("recall", &|| true).is_some(), "{name}");
            assert_eq!(agent.mcp_tools("recall", &|| false), None, "{name}");
        }
    }

    #[test]
    fn each_agent_knows_its_own_transcript_and_no_other_s() {
        for &agent in Agent::ALL {
            let line = first_line(agent);
            assert_eq!(Agent::of_record(&line), Some(agent), "{line}");
            // The line is its own by its type, and no other agent claims the type.
            let kind = line["type"].as_str().unwrap_or_default();
            for &other in Agent::ALL {
                assert_eq!(
                    (other.facts().record_type)(kind),
                    other == agent,
                    "{}: type {kind} of {}",
                    other.name(),
                    agent.name()
                );
            }
            let path = Path::new(transcript_path(agent));
            assert_eq!(Agent::of_transcript(path), Some(agent), "{path:?}");
            assert_eq!(
                Agent::of_transcript(&path.with_extension("json")),
                None,
                "{path:?}"
            );
        }
        // A line of no agent's type is told by its fields: a session id (Claude Code),
        // an untyped rollout header (Codex); an ambiguous one is the first agent's.
        for (line, agent) in [
            (serde_json::json!({"type": "x"}), None),
            (
                serde_json::json!({"type": "x", "sessionId": "s"}),
                Some(Agent::Claude),
            ),
            (
                serde_json::json!({"id": "i", "instructions": ""}),
                Some(Agent::Codex),
            ),
            (
                serde_json::json!({"type": 3, "id": "i", "instructions": ""}),
                Some(Agent::Codex),
            ),
            (
                serde_json::json!({"type": "x", "id": "i", "instructions": ""}),
                None,
            ),
            (
                serde_json::json!({"id": "i", "instructions": "", "sessionId": "s"}),
                Some(Agent::Claude),
            ),
            (
                serde_json::json!({"type": "response_item", "sessionId": "s"}),
                Some(Agent::Codex),
            ),
        ] {
            assert_eq!(Agent::of_record(&line), agent, "{line}");
        }
        assert_eq!(Agent::of_record(&serde_json::json!([1])), None);
        assert_eq!(Agent::of_transcript(Path::new("/tmp/notes.jsonl")), None);
    }

    #[test]
    fn a_file_tool_is_one_agent_s() {
        let edit = serde_json::json!({"file_path": " /w/a.rs ", "old_string": "x"});
        assert_eq!(Agent::tool_files("Edit", Some(&edit)), vec!["/w/a.rs"]);
        let patch = serde_json::json!({"command": "*** Begin Patch\n*** Update File: b.rs\n"});
        assert_eq!(Agent::tool_files("apply_patch", Some(&patch)), vec!["b.rs"]);
        assert_eq!(Agent::tool_files("Edit", Some(&patch)), vec!["b.rs"]);
        assert!(Agent::tool_files("Bash", Some(&edit)).is_empty());
    }

    #[test]
    fn messages_list_every_agent() {
        assert_eq!(Agent::titles("or"), "Claude Code or Codex");
        for &agent in Agent::ALL {
            assert!(Agent::titles("nor").contains(agent.title()));
        }
    }
}
