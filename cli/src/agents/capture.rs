//! Each agent's part of capture, in one table: the one place capture tells agents
//! apart. It is capture's (layer 4), kept beside the agents so that an agent is its
//! folder here and a line in each table (docs/architecture.md#agents).
use super::{claude, codex, Agent};
use crate::capture::AgentPart;

/// The agent's transcript reader, its project folders and its source setting.
pub fn part(agent: Agent) -> &'static AgentPart {
    match agent {
        Agent::Claude => &claude::capture::PART,
        Agent::Codex => &codex::capture::PART,
    }
}
