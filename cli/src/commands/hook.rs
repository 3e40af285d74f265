//! `recall hook`: the prompt hook of a coding agent (Claude Code's `UserPromptSubmit`).
//! It reads the hook's JSON on standard input, runs `related` on its `prompt` (the
//! settings and `sql/related.sql` of `recall related`), and prints a short block of the
//! earlier items it finds, which the agent adds to the prompt's context; nothing when
//! none is related.
//!
//! It never fails the prompt: any problem (malformed JSON, no prompt, no library, a bad
//! configuration) is one line on stderr and exit 0. Claude Code blocks the prompt on
//! exit 2, the code of every other recall error.
use std::io::{IsTerminal, Write};

use serde::Serialize;
use serde_json::Value;

use crate::args::{Cli, Common, HookArgs, Recency, RelatedArgs};
use crate::error::Result;
use crate::query::rows::RelatedRow;
use crate::settings::{self, Globals};
use crate::text::field;
use crate::{err, input, query};

/// Runs the hook; always exit code 0.
pub fn run(cli: &Cli, a: &HookArgs) -> i32 {
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        say_problem(&format!("internal error: {message}"));
    }));
    match std::panic::catch_unwind(|| answer(cli, a)) {
        Ok(Ok(text)) => {
            if !text.is_empty() {
                let mut out = std::io::stdout().lock();
                if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                    say_problem(&format!("cannot write the context: {e}"));
                }
            }
        }
        Ok(Err(e)) => say_problem(&e.message),
        // The panic hook has said it.
        Err(_) => {}
    }
    0
}

/// A problem, as one line: the prompt goes on without earlier items.
pub fn say_problem(message: &str) {
    eprintln!(
        "recall: hook: {}; the prompt goes on without earlier items",
        field(message)
    );
}

/// The context block to print (empty: nothing related).
fn answer(cli: &Cli, a: &HookArgs) -> Result<String> {
    let prompt = read_prompt()?;
    let g = Globals::resolve(cli)?;
    let related_args = RelatedArgs {
        prompt: String::new(),
        project: a.project.clone(),
        recency: Recency::default(),
        rule: a.rule.clone(),
        kinds: Default::default(),
        scope: Default::default(),
        common: Common {
            access: a.access.clone(),
            ..Common::default()
        },
    };
    // Its terms stand for the prompt: the same answer, read in one pass however long
    // the pasted text.
    let prompt = recall_core::prompt::prompt_of_terms(&prompt);
    let s = settings::Related::with_prompt(&g, &related_args, prompt)?;
    let lib = super::open_for_query(&g)?;
    let rows = query::related(&lib, &s, false)?.results;
    if g.json {
        let doc = query::to_json(&HookAnswer {
            command: "hook",
            results: &rows,
        })?;
        return Ok(format!(
            "{}\n",
            serde_json::to_string_pretty(&doc).unwrap_or_default()
        ));
    }
    Ok(block(&rows))
}

/// What `recall --json hook` prints: `related`'s results.
#[derive(Serialize)]
struct HookAnswer<'a> {
    command: &'static str,
    results: &'a [RelatedRow],
}

/// The hook's JSON from standard input, and its `prompt`.
fn read_prompt() -> Result<String> {
    let stdin = std::io::stdin().lock();
    if stdin.is_terminal() {
        return Err(err!(
            "`recall hook` reads the hook's JSON (with a \"prompt\") on standard input; it runs as an agent's prompt hook (docs/cli.md#the-prompt-hook)"
        ));
    }
    let what = "standard input (the hook's JSON)";
    let bytes = input::read_limited(stdin, input::PROMPT, what, "give a shorter prompt")?;
    let value: Value = serde_json::from_str(&input::text(bytes, what)?)
        .map_err(|e| err!("standard input is not the hook's JSON ({e})"))?;
    match value.get("prompt") {
        Some(Value::String(p)) => Ok(p.clone()),
        Some(_) => Err(err!("the hook's JSON has a \"prompt\" that is not text")),
        None => Err(err!("the hook's JSON has no \"prompt\" field")),
    }
}

/// The context block: a heading saying what these are and how to see one, then one line
/// per item. Stored text is escaped as in every listing, so a title cannot add lines.
fn block(rows: &[RelatedRow]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "Earlier items from the recall memory that share words with this prompt (`recall get ID` shows one in full):\n",
    );
    for row in rows {
        let item = &row.item;
        let date: String = item.date.chars().take(10).collect();
        // The project, then the item's kind and whether it holds in every project.
        let about: Vec<String> = match item.project.as_deref().unwrap_or("") {
            "" => None,
            p => Some(format!("project {}", field(p))),
        }
        .into_iter()
        .chain(item.kind.as_deref().map(|k| field(k).into_owned()))
        .chain(item.global.then(|| "global".to_string()))
        .collect();
        let project = match about.is_empty() {
            true => String::new(),
            false => format!(" ({})", about.join(", ")),
        };
        out.push_str(&format!(
            "- [{}] {} {}{project}\n",
            item.id,
            field(&date),
            field(&item.title)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::rows::Listed;

    fn row(id: i64, date: &str, title: &str, project: Option<&str>) -> RelatedRow {
        RelatedRow {
            item: Listed {
                id,
                date: date.into(),
                title: title.into(),
                project: project.map(str::to_string),
                source: "agent".into(),
                kind: None,
                global: false,
            },
            score: None,
            overlap: 2,
            weight: None,
            joint_items: None,
            joint_weight: None,
        }
    }

    #[test]
    fn the_block_names_id_date_title_and_project() {
        assert_eq!(block(&[]), "");
        let text = block(&[
            row(14, "2024-06-02T10:00:00Z", "Remove analytics", Some("shop")),
            row(3, "2023-01-05T00:00:00Z", "a\nb", None),
        ]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].contains("recall get ID"));
        assert_eq!(
            lines[1],
            "- [14] 2024-06-02 Remove analytics (project shop)"
        );
        assert_eq!(lines[2], "- [3] 2023-01-05 a\\nb");
    }
}
