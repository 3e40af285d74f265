//! Where the agents keep their files, read from the environment by one rule for every
//! route (capture's default places, setup's settings files, the hook's look for the MCP
//! server): `HOME` only when it is an absolute folder (a relative one would put the
//! agents' files under whatever folder recall runs in), an agent's own variable
//! (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`) when set and not empty, as the agents read it.
use std::path::PathBuf;

/// The user's home folder: `HOME`, when it is set to an absolute path.
pub fn home() -> Option<PathBuf> {
    variable("HOME").filter(|h| h.is_absolute())
}

/// The folder an environment variable names; unset and empty alike are none.
pub fn variable(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// An agent's folder: the one its variable names, else `~/NAME`.
pub fn agent_dir(variable_name: &str, under_home: &str) -> Option<PathBuf> {
    variable(variable_name).or_else(|| home().map(|h| h.join(under_home)))
}
