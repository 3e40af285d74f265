//! `recall promote ID…` and `recall demote ID…`: items marked global (visible in every
//! project) or of their own project only again (`items::marks`).
use super::Globals;
use crate::args::MarkArgs;
use crate::error::Result;
use crate::items::marks::set_global;
use crate::library::{self, Mode};
use crate::{interrupt, output};

/// The exit status when some ids named no item the caller may read: the others were
/// marked.
const EXIT_SOME_MISSING: i32 = 1;

/// `global`: true for promote, false for demote.
pub fn run(g: &Globals, a: &MarkArgs, global: bool) -> Result<i32> {
    let command = if global { "promote" } else { "demote" };
    let mut lib = library::open(g.db()?, Mode::Write, g.tokenizer.as_deref())?;
    let guard = interrupt::guard(
        "nothing was marked; the library is as it was".to_string(),
        None,
    )?;
    let marked = set_global(
        &mut lib,
        &a.ids,
        global,
        &g.allow(&a.access.allow),
        Some(&guard),
    )?;
    drop(guard);
    if g.json {
        output::json(&marked.to_json(command, global));
    } else {
        let what = if global {
            "global: visible in every project"
        } else {
            "of their own project only"
        };
        if !marked.ids.is_empty() {
            let ids: Vec<String> = marked.ids.iter().map(i64::to_string).collect();
            crate::output::say!("{} {what}", ids.join(", "));
        }
    }
    if marked.missing.is_empty() {
        return Ok(0);
    }
    let ids: Vec<String> = marked.missing.iter().map(i64::to_string).collect();
    eprintln!(
        "recall: warning: no item {} in {} (or none you may read): not marked",
        ids.join(", "),
        lib.path.display()
    );
    Ok(EXIT_SOME_MISSING)
}
