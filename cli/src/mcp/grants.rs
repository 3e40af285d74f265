//! Who may call `recall mcp --http`: each bearer token the server accepts, read at start
//! from a file or the environment (never the command line, where `ps` shows it), with the
//! sources its calls may read and whether they may write. A call carries its token's
//! grant; the stdio server's one client has the server's own.
use std::path::Path;
use std::sync::Arc;

use crate::args::{AccessArgs, HttpArgs};
use crate::config::Config;
use crate::error::{err, Result};

/// The environment variable of the token named "default" (or `--token-file`).
pub const TOKEN_ENV: &str = "RECALL_MCP_TOKEN";
/// The name of the token of `--token-file` or `RECALL_MCP_TOKEN`.
const DEFAULT_NAME: &str = "default";
/// Shorter is guessable: 128 bits written as hex is 32 characters.
const MIN_TOKEN: usize = 16;

/// What one caller may do.
#[derive(Debug, Clone)]
pub struct Grant {
    /// The token's name, as the log writes it ("stdio" for the stdio server's client).
    pub name: String,
    /// Its source globs, resolved against the configuration as a command's flags are.
    pub access: AccessArgs,
    /// Whether `add` and `forget` are its to call.
    pub writes: bool,
    /// Whether the grant is a token's (an HTTP caller), whose calls are logged.
    pub token: bool,
}

impl Grant {
    /// The stdio server's client: the server's flags.
    pub fn server(access: &AccessArgs, writes: bool) -> Grant {
        Grant {
            name: "stdio".into(),
            access: access.clone(),
            writes,
            token: false,
        }
    }
}

/// The tokens a server accepts.
pub struct Tokens {
    entries: Vec<(Vec<u8>, Arc<Grant>)>,
}

/// Why a request was refused before any call (401).
pub type Refusal = &'static str;

impl Tokens {
    /// Every token: `--token-file` or `RECALL_MCP_TOKEN` (named "default", with the
    /// server's `--allow` and `--allow-writes`), and each `[tokens.NAME]` of the
    /// configuration. At least one, each at least 16 characters, no two alike.
    pub fn resolve(
        config: &Config,
        http: &HttpArgs,
        access: &AccessArgs,
        writes: bool,
    ) -> Result<Tokens> {
        let mut entries = Vec::new();
        let from_env = std::env::var_os(TOKEN_ENV).filter(|v| !v.is_empty());
        let default = match (&http.token_file, from_env) {
            (Some(_), Some(_)) => {
                return Err(err!(
                    "both --token-file and {TOKEN_ENV} give the default token: keep one"
                ))
            }
            (Some(path), None) => Some(read_file(
                path,
                &format!("--token-file {}", path.display()),
            )?),
            (None, Some(value)) => Some(checked(
                value
                    .into_string()
                    .map_err(|_| err!("{TOKEN_ENV} is not UTF-8 text"))?,
                TOKEN_ENV,
            )?),
            (None, None) => None,
        };
        if let Some(secret) = default {
            if config.tokens.contains_key(DEFAULT_NAME) {
                return Err(err!(
                    "[tokens.{DEFAULT_NAME}] and the token of --token-file or {TOKEN_ENV} share \
                     the name {DEFAULT_NAME:?}: rename the configuration's"
                ));
            }
            entries.push((
                secret.into_bytes(),
                Arc::new(Grant {
                    name: DEFAULT_NAME.into(),
                    access: access.clone(),
                    writes,
                    token: true,
                }),
            ));
        }
        for (name, entry) in &config.tokens {
            let what = format!("[tokens.{name}]");
            let secret = match (&entry.file, &entry.env) {
                (Some(path), _) => read_file(path, &format!("{what} file {}", path.display()))?,
                (None, Some(var)) => {
                    let value = std::env::var(var).map_err(|_| {
                        err!("{what}: the environment variable {var} is not set (or not UTF-8)")
                    })?;
                    checked(value, &format!("{what} env {var}"))?
                }
                // The configuration's check requires one of them.
                (None, None) => return Err(err!("{what}: give file or env")),
            };
            let access = match &entry.allow {
                Some(globs) => AccessArgs {
                    allow: globs.clone(),
                },
                None => access.clone(),
            };
            entries.push((
                secret.into_bytes(),
                Arc::new(Grant {
                    name: name.clone(),
                    access,
                    writes: writes && entry.writes,
                    token: true,
                }),
            ));
        }
        if entries.is_empty() {
            return Err(err!(
                "recall mcp --http needs a bearer token: write one to a file and give \
                 --token-file PATH, set {TOKEN_ENV}, or declare [tokens.NAME] in the \
                 configuration (docs/team.md)"
            ));
        }
        for (i, (secret, grant)) in entries.iter().enumerate() {
            if let Some((_, other)) = entries[..i].iter().find(|(s, _)| s == secret) {
                return Err(err!(
                    "the tokens {:?} and {:?} are the same: give each caller its own",
                    other.name,
                    grant.name
                ));
            }
        }
        Ok(Tokens { entries })
    }

    /// The grant of a request's `Authorization` header, or why there is none.
    pub fn grant(&self, header: Option<&[u8]>) -> std::result::Result<Arc<Grant>, Refusal> {
        let Some(header) = header else {
            return Err("no bearer token: send the header `Authorization: Bearer TOKEN`");
        };
        let scheme = b"bearer ";
        if header.len() <= scheme.len() || !header[..scheme.len()].eq_ignore_ascii_case(scheme) {
            return Err(
                "the Authorization header is not a bearer token: send `Authorization: Bearer TOKEN`",
            );
        }
        let given = header[scheme.len()..].trim_ascii();
        // Every token compared whole, so the time taken says nothing of which matched.
        let mut found = None;
        for (secret, grant) in &self.entries {
            if same(secret, given) {
                found = Some(grant.clone());
            }
        }
        found.ok_or("the bearer token is not one this server accepts")
    }
}

/// Equal bytes, in a time that depends on the lengths only.
fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

fn read_file(path: &Path, what: &str) -> Result<String> {
    let bytes = crate::input::read_file_limited(
        path,
        crate::input::TOKEN_FILE,
        what,
        "the file holds the token alone, on its first line",
    )?;
    let text = crate::input::text(bytes, what)?;
    checked(text.lines().next().unwrap_or_default().to_string(), what)
}

/// A token as HTTP carries it: visible ASCII, no spaces, long enough.
fn checked(token: String, what: &str) -> Result<String> {
    let token = token.trim().to_string();
    if !token.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(err!(
            "{what}: a token is visible ASCII without spaces (it travels in an HTTP header)"
        ));
    }
    if token.len() < MIN_TOKEN {
        return Err(err!(
            "{what}: the token is {} characters, fewer than {MIN_TOKEN}: make a longer one \
             (e.g. `openssl rand -hex 32`)",
            token.len()
        ));
    }
    Ok(token)
}

/// The grant a request's token gave, carried into the call by rmcp with the request's
/// HTTP parts (`http` puts it there); None on stdio.
pub fn grant_of(extensions: &rmcp::model::Extensions) -> Option<Arc<Grant>> {
    extensions
        .get::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Arc<Grant>>())
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(list: &[(&str, &str)]) -> Tokens {
        Tokens {
            entries: list
                .iter()
                .map(|(name, secret)| {
                    (
                        secret.as_bytes().to_vec(),
                        Arc::new(Grant {
                            name: name.to_string(),
                            access: AccessArgs::default(),
                            writes: false,
                            token: true,
                        }),
                    )
                })
                .collect(),
        }
    }

    #[test]
    fn a_request_gets_its_tokens_grant_or_a_reason() {
        let t = tokens(&[("ci", "0123456789abcdef-ci"), ("me", "0123456789abcdef-me")]);
        let name = |h: &str| t.grant(Some(h.as_bytes())).map(|g| g.name.clone());
        assert_eq!(name("Bearer 0123456789abcdef-ci"), Ok("ci".to_string()));
        assert_eq!(name("bearer  0123456789abcdef-me "), Ok("me".to_string()));
        assert!(name("Bearer 0123456789abcdef-c")
            .unwrap_err()
            .contains("not one"));
        assert!(name("Bearer ").unwrap_err().contains("not a bearer token"));
        assert!(name("Basic dXNlcjpwYXNz")
            .unwrap_err()
            .contains("not a bearer token"));
        assert!(t.grant(None).unwrap_err().contains("no bearer token"));
    }

    #[test]
    fn tokens_are_long_visible_ascii() {
        assert_eq!(
            checked(" 0123456789abcdef\n".into(), "t").unwrap(),
            "0123456789abcdef"
        );
        assert!(checked("short".into(), "t")
            .unwrap_err()
            .message
            .contains("fewer than 16"));
        assert!(checked("0123456789 abcdef".into(), "t")
            .unwrap_err()
            .message
            .contains("visible ASCII"));
        assert!(same(b"abc", b"abc") && !same(b"abc", b"abd") && !same(b"abc", b"abcd"));
    }
}
