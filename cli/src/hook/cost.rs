//! `recall eval --start-cost`: what the session start adds to an agent's context, measured
//! with the start's own code (`start::context_at`) by `quality::start_cost`. Served by
//! the hook, whose code makes the text, as the review page shows the hook's text.
use serde_json::json;

use crate::args::Cli;
use crate::error::Result;
use crate::output::{self, say};
use crate::quality::start_cost::{self, CHARS_PER_TOKEN};
use crate::settings::Globals;

pub fn run(cli: &Cli) -> Result<i32> {
    let g = Globals::resolve(cli)?;
    let usage = super::start::usage_line(&g);
    let cost = start_cost::measure(
        &g,
        |project, until| super::start::context_at(&g, project, until),
        &usage,
    )?;
    if g.json {
        output::json(&json!({
            "command": "eval", "start_cost": cost, "chars_per_token": CHARS_PER_TOKEN,
        }));
        return Ok(0);
    }
    say!(
        "{} starts in {} projects of {}, one just after each item (tokens: characters / {CHARS_PER_TOKEN})",
        cost.starts,
        cost.projects,
        g.db()?.display(),
    );
    say!("{:<22} {:>10} {:>10} {:>10}", "", "median", "p95", "mean");
    for (name, s) in [
        ("start, characters", &cost.start_chars),
        ("start, tokens", &cost.start_tokens),
        ("history, characters", &cost.history_chars),
        ("history, tokens", &cost.history_tokens),
    ] {
        say!("{name:<22} {:>10} {:>10} {:>10.0}", s.median, s.p95, s.mean);
    }
    say!(
        "each start ends with the usage line, {} characters of it",
        cost.usage_chars
    );
    Ok(0)
}
