//! `recall forget`: the command line of `items::forget`, and what it prints.
use serde_json::json;

use super::Globals;
use crate::args::ForgetArgs;
use crate::error::Result;
use crate::items::forget::{self, ForgetReport, ForgetRequest};
use crate::library::wipe;
use crate::library::{self, Mode};
use crate::text::field;
use crate::{interrupt, output};

/// Exit code of a forget whose items are gone but whose file could not be wiped.
const EXIT_NOT_WIPED: i32 = 1;

pub fn run(g: &Globals, a: &ForgetArgs) -> Result<i32> {
    let path = g.db()?;
    if a.finish {
        wipe::defer_pending();
        let mut lib = library::open(path, Mode::Write, g.tokenizer.as_deref())?;
        let _wiping = interrupt::guard(
            format!("the file was not wiped; {} again", wipe::FINISH),
            None,
        )?;
        let wiped = forget::finish(&mut lib)?;
        if g.json {
            output::json(&json!({
                "command": "forget", "finish": true, "wiped": wiped.complete,
                "warning": wiped.warning,
            }));
        } else if wiped.complete {
            crate::output::say!("rewrote {} and emptied its log", lib.path.display());
        }
        return Ok(not_wiped(&wiped.warning));
    }
    let req = ForgetRequest {
        ids: a.ids.clone(),
        source: a.source.clone(),
        project: a.project.clone(),
        before: a.before.clone(),
        dry_run: a.dry_run,
    };
    // A dry run only reads: it works on a library this user cannot write.
    let mode = if a.dry_run { Mode::Read } else { Mode::Write };
    let mut lib = library::open(path, mode, g.tokenizer.as_deref())?;
    let report = forget::forget_allowed(&mut lib, &req, &g.allow(&a.access.allow), true)?;
    if g.json {
        output::json(&forget::report_json(&report));
    } else {
        print_text(&report);
    }
    if !report.unmatched.is_empty() {
        let ids: Vec<String> = report.unmatched.iter().map(i64::to_string).collect();
        eprintln!(
            "recall: warning: nothing to forget for {} {}: no such item, or the filters leave it out",
            if ids.len() == 1 { "id" } else { "ids" },
            ids.join(", ")
        );
    }
    Ok(not_wiped(&report.warning))
}

/// Says why a wipe could not finish; the exit code.
fn not_wiped(warning: &Option<String>) -> i32 {
    match warning {
        Some(w) => {
            eprintln!("recall: warning: the items are forgotten, but {w}");
            EXIT_NOT_WIPED
        }
        None => 0,
    }
}

fn print_text(report: &ForgetReport) {
    for item in &report.items {
        let date: String = item.date.chars().take(10).collect();
        crate::output::say!(
            "[{}] {} {} ({}, {})",
            item.id,
            field(&date),
            field(&item.title),
            field(item.project.as_deref().unwrap_or("-")),
            field(&item.source)
        );
    }
    let n = report.ids.len();
    let items = if n == 1 { "item" } else { "items" };
    if n == 0 {
        crate::output::say!("nothing to forget: no item matches");
    } else if report.dry_run {
        crate::output::say!("would forget {n} {items} (dry run: nothing changed)");
    } else if report.wiped {
        crate::output::say!("forgot {n} {items}; the file was rewritten and its log emptied");
    } else {
        crate::output::say!("forgot {n} {items}");
    }
}
