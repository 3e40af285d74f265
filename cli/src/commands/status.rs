//! `recall status`: one screen on the library and on what fills it (`status::read`),
//! printed as text, or with `--json` the typed `Status` turned into JSON once. Exit 0
//! when nothing needs attention, 1 when something does (docs/cli.md#status).
use super::Globals;
use crate::args::AccessArgs;
use crate::error::{Result, EXIT_PROBLEMS};
use crate::output;
use crate::status;

pub fn run(g: &Globals, access: &AccessArgs) -> Result<i32> {
    let allow = g.allow(&access.allow);
    let s = status::read(g.db()?, g.tokenizer.as_deref(), allow.as_ref());
    if g.json {
        output::json(&s.to_json());
    } else {
        output::line(&s.text());
    }
    Ok(if s.healthy { 0 } else { EXIT_PROBLEMS })
}
