//! Each agent's part of setup, in one table: the one place setup tells agents apart.
//! It is setup's (layer 4), kept beside the agents so that an agent is its folder here
//! and a line in each table (docs/architecture.md#agents).
use super::{claude, codex, Agent};
use crate::setup::AgentPart;

/// The agent's settings files, those holding the MCP server, and its hook trust.
pub fn part(agent: Agent) -> &'static AgentPart {
    match agent {
        Agent::Claude => &claude::setup::PART,
        Agent::Codex => &codex::setup::trust::PART,
    }
}
