//! `recall check`: is the library healthy, and could other tools open it? Exit 0 when
//! healthy, 1 with one line per problem otherwise, each naming its fix. The checks are
//! `library::health`'s; a lock or a permission that stops one is an error (exit 2).
use super::Globals;
use crate::error::{Result, EXIT_PROBLEMS};
use crate::library::health;
use crate::output;

pub fn run(g: &Globals) -> Result<i32> {
    let health = health::check(g.db()?, g.tokenizer.as_deref())?;
    let healthy = health.healthy();
    if g.json {
        output::json(&serde_json::json!({
            "command": "check", "path": health.path, "healthy": healthy, "checks": health.checks,
        }));
    } else {
        for c in &health.checks {
            crate::output::say!(
                "{} {}: {}",
                if c.ok { "ok     " } else { "PROBLEM" },
                c.name,
                c.detail
            );
        }
    }
    Ok(if healthy { 0 } else { EXIT_PROBLEMS })
}
