//! `[tokens.NAME]`: the bearer tokens `recall mcp --http` accepts, each named (the name is
//! what its calls are logged and refused under), each read from a file or an environment
//! variable (never from the configuration itself or the command line), each with the
//! sources it may read and whether it may write.
use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;

/// One token's entry.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Token {
    /// A file holding the token (its first line).
    pub file: Option<PathBuf>,
    /// An environment variable holding the token.
    pub env: Option<String>,
    /// Globs of the sources its calls may read and write; absent: the server's
    /// (`--allow`, else `[access] allow`).
    pub allow: Option<Vec<String>>,
    /// Whether its calls may use `add` and `forget` (only on a server started with
    /// `--allow-writes`).
    #[serde(default)]
    pub writes: bool,
}

pub fn check(tokens: &BTreeMap<String, Token>) -> std::result::Result<(), String> {
    for (name, token) in tokens {
        let key = format!("tokens.{name}");
        if !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(format!(
                "{key}: a token's name is letters, digits, - and _ (it is written in the log)"
            ));
        }
        match (&token.file, &token.env) {
            (Some(_), Some(_)) => {
                return Err(format!(
                    "{key}: give either file or env, not both (where the token is read from)"
                ))
            }
            (None, None) => {
                return Err(format!(
                    "{key}: say where the token is read from: file = \"/path/to/token\" or \
                     env = \"VARIABLE\""
                ))
            }
            (Some(file), None) if !file.is_absolute() => {
                return Err(format!(
                    "{key}.file: {:?} is not an absolute path; write the whole path",
                    file.display().to_string()
                ))
            }
            (None, Some(env)) if env.is_empty() || env.contains('=') || env.contains('\0') => {
                return Err(format!(
                    "{key}.env: {env:?} is not the name of an environment variable"
                ))
            }
            _ => {}
        }
        if let Some(globs) = &token.allow {
            if globs.is_empty() {
                return Err(format!(
                    "{key}.allow is empty: give at least one glob, or leave it out for the \
                     server's own"
                ));
            }
            for glob in globs {
                crate::access::check_glob(&format!("{key}.allow"), glob)?;
            }
        }
    }
    Ok(())
}
