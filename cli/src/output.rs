//! Printing: JSON for machines, short text for people. Text never carries a control
//! character to the terminal (see `text`); JSON is exact. A closed pipe
//! (`recall … | head`) ends the program quietly, as ripgrep does, instead of panicking.
use std::io::Write;

use serde::Serialize;
use serde_json::{Map, Value as Json};

use crate::error::Result;
use crate::query::rows::{
    AroundRow, FileRow, Found, LaterRow, Listed, Rating, RelatedRow, SearchMatch, SearchRow,
};
use crate::query::{to_json, Answer};

fn write_out(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{text}") {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("recall: cannot write the output: {e}");
        std::process::exit(crate::error::EXIT_ERROR);
    }
}

/// Prints text for people on stdout. Line breaks and tabs stay; any other control
/// character is escaped. Fields of one-line listings go through `text::field` first.
pub fn line(text: &str) {
    write_out(&crate::text::block(text));
}

/// Prints `value` as one JSON document, exactly.
pub fn json<T: Serialize>(value: &T) {
    match serde_json::to_string_pretty(value) {
        Ok(text) => write_out(&text),
        Err(e) => eprintln!("recall: cannot print JSON: {e}"),
    }
}

/// `println!` through [`line`], imported as `crate::output::say`.
macro_rules! say {
    ($($arg:tt)*) => { $crate::output::line(&format!($($arg)*)) };
}
pub(crate) use say;

/// A result as one line of a listing: `[id] date title (project, source)`, then its note.
pub trait Listing {
    fn listed(&self) -> &Listed;

    /// The heading rows are grouped under (`# matched by …`), when they say how they
    /// matched and are not ranked together.
    fn group(&self) -> Option<&'static str> {
        None
    }

    /// What follows the line: a judged item's probability, how a search found it.
    fn note(&self) -> String {
        String::new()
    }

    /// What precedes the line: `timeline --around` marks the item asked for.
    fn prefix(&self) -> &'static str {
        ""
    }

    /// A line under it, indented: with `--explain`, why a search hit matched.
    fn detail(&self) -> Option<String> {
        None
    }
}

impl Listing for AroundRow {
    fn listed(&self) -> &Listed {
        &self.item
    }

    fn prefix(&self) -> &'static str {
        if self.anchor {
            "> "
        } else {
            "  "
        }
    }
}

/// An item's marks in the order every line of it shows them: its kind, then `global`.
fn mark_words(kind: Option<&str>, global: bool) -> Vec<&str> {
    kind.into_iter().chain(global.then_some("global")).collect()
}

/// An item's marks as a listing shows them after its project and source: `; decision,
/// global`, or nothing.
pub fn marks(kind: Option<&str>, global: bool) -> String {
    after_source(&mark_words(kind, global))
}

fn after_source<S: AsRef<str>>(marks: &[S]) -> String {
    match marks.is_empty() {
        true => String::new(),
        false => {
            let words: Vec<&str> = marks.iter().map(AsRef::as_ref).collect();
            format!("; {}", words.join(", "))
        }
    }
}

/// What a line of an item says of it, each fact cut and escaped once (`text::field`, so
/// that stored text cannot add lines or drive a terminal); a listing's line (`lines`)
/// and the agent's (`hook`) arrange them each their own way.
pub struct RowText {
    pub id: i64,
    /// The day: the date's first 10 characters.
    pub date: String,
    pub title: String,
    /// As stored: None for no project, an empty one stays empty.
    pub project: Option<String>,
    pub source: String,
    /// `mark_words`, escaped.
    pub marks: Vec<String>,
    /// ` (changed since: FILES)` where its files changed after it, else empty.
    pub changed: String,
}

/// How many changed files a line names; the rest are counted.
pub const CHANGED_SHOWN: usize = 3;

/// An item's files changed after it, as every line of it shows them:
/// ` (changed since: src/a.rs, src/b.rs and 2 more)`, or nothing.
pub fn changed_mark(files: &[String]) -> String {
    if files.is_empty() {
        return String::new();
    }
    let named: Vec<String> = files
        .iter()
        .take(CHANGED_SHOWN)
        .map(|f| crate::text::field(f).into_owned())
        .collect();
    let more = match files.len().saturating_sub(CHANGED_SHOWN) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    format!(" (changed since: {}{more})", named.join(", "))
}

impl RowText {
    pub fn of(item: &Listed) -> RowText {
        use crate::text::field;
        let date: String = item.date.chars().take(10).collect();
        RowText {
            id: item.id,
            date: field(&date).into_owned(),
            title: field(&item.title).into_owned(),
            project: item.project.as_deref().map(|p| field(p).into_owned()),
            source: field(&item.source).into_owned(),
            marks: mark_words(item.kind.as_deref(), item.global)
                .into_iter()
                .map(|m| field(m).into_owned())
                .collect(),
            changed: changed_mark(&item.changed_since),
        }
    }
}

impl Listing for Listed {
    fn listed(&self) -> &Listed {
        self
    }
}

impl Listing for RelatedRow {
    fn listed(&self) -> &Listed {
        &self.item
    }
}

impl Listing for FileRow {
    fn listed(&self) -> &Listed {
        &self.item
    }

    fn note(&self) -> String {
        match self.edited {
            true => " edited it".to_string(),
            false => " names it".to_string(),
        }
    }
}

impl Listing for LaterRow {
    fn listed(&self) -> &Listed {
        &self.item
    }

    fn group(&self) -> Option<&'static str> {
        Some(self.matched_by.name())
    }

    fn detail(&self) -> Option<String> {
        self.matched.as_ref().map(|m| m.line())
    }
}

impl Listing for SearchRow {
    fn listed(&self) -> &Listed {
        &self.item
    }

    // Search ranks term and context matches together: each says so on its line instead
    // of under a heading.
    fn note(&self) -> String {
        // A judged answer (docs/judge.md) shows each item's probability.
        let judged = match &self.judge {
            Some(Rating {
                probability: Some(p),
                ..
            }) => format!(" p={p:.2}"),
            Some(_) => " (not judged)".to_string(),
            None => String::new(),
        };
        let how = match &self.found {
            Some(Found {
                matched_by: SearchMatch::Context,
                context_of,
            }) => format!(
                " next to [{}]",
                context_of.map_or("null".to_string(), |id| id.to_string())
            ),
            // There through the vector channel alone (docs/vectors.md).
            Some(Found {
                matched_by: SearchMatch::Vector,
                ..
            }) => " (near in meaning)".to_string(),
            _ => String::new(),
        };
        format!("{judged}{how}")
    }

    fn detail(&self) -> Option<String> {
        self.matched.as_ref().map(|m| m.line())
    }
}

/// Prints a query's answer, or with `--show-sql` its replay; exit 0.
pub fn shown<R: Listing + Serialize>(
    json_mode: bool,
    show_sql: bool,
    lib: &crate::library::Library,
    answer: &Answer<R>,
) -> Result<i32> {
    match show_sql {
        true => replay(lib, answer.ran.as_ref()),
        false => self::answer(json_mode, answer)?,
    }
    Ok(0)
}

/// Prints the shell replay of the query an answer came from (`--show-sql`).
pub fn replay(lib: &crate::library::Library, ran: Option<&crate::query::replay::Ran>) {
    if let Some(ran) = ran {
        for line in crate::query::replay::shell(lib, ran).lines() {
            say!("{line}");
        }
    }
}

/// Prints a query's answer: the JSON object (`query::to_json`), or for people one line
/// per result (`Listing`), grouped under `# matched by …` where rows say so, each with
/// its detail line under it (`--explain`: why a search hit matched), then the explain
/// fields.
pub fn answer<R: Listing + Serialize>(json_mode: bool, answer: &Answer<R>) -> Result<()> {
    if json_mode {
        json(&to_json(answer)?);
        return Ok(());
    }
    let mut last_group: Option<&str> = None;
    for row in &answer.results {
        if let Some(group) = row.group() {
            if last_group != Some(group) {
                say!("# matched by {}", group.replace('_', " "));
                last_group = Some(group);
            }
        }
        let (line, detail) = lines(row);
        say!("{line}");
        if let Some(detail) = detail {
            say!("{detail}");
        }
    }
    if answer.results.is_empty() {
        say!("(no results)");
    } else if answer.below_threshold() {
        say!("(weak matches: none reached the judge's threshold)");
    }
    if let Some(fields) = &answer.explain {
        explain(fields);
    }
    Ok(())
}

/// A result's line as a listing prints it, and the detail line under it (indented).
pub fn lines<R: Listing>(row: &R) -> (String, Option<String>) {
    let t = RowText::of(row.listed());
    let line = format!(
        "{}[{}] {} {} ({}, {}{}){}{}",
        row.prefix(),
        t.id,
        t.date,
        t.title,
        t.project.as_deref().unwrap_or("-"),
        t.source,
        after_source(&t.marks),
        row.note(),
        t.changed
    );
    let detail = row.detail();
    (
        line,
        detail.map(|d| format!("    {}", crate::text::field(&d))),
    )
}

/// The explain fields, one a line; judged candidates (`related`) one a line each, id and
/// why.
fn explain(fields: &Map<String, Json>) {
    use crate::text::field;
    say!("--");
    for (k, v) in fields {
        // Printed under each result instead (`Listing::detail`).
        if k == "matched" {
            continue;
        }
        if let Json::Array(list) = v {
            if !list.is_empty() && list.iter().all(|c| c.get("why").is_some()) {
                say!("{k}:");
                for c in list {
                    let id = c.get("id").map(Json::to_string).unwrap_or_default();
                    let why = c.get("why").and_then(Json::as_str).unwrap_or("");
                    let words: Vec<String> = c
                        .get("shared")
                        .and_then(Json::as_array)
                        .map(Vec::as_slice)
                        .unwrap_or_default()
                        .iter()
                        .map(|w| {
                            let word = w.get("word").and_then(Json::as_str).unwrap_or("");
                            match w.get("weight").and_then(Json::as_f64) {
                                Some(x) => format!("{word} {x:.3}"),
                                None => word.to_string(),
                            }
                        })
                        .collect();
                    let words = match words.is_empty() {
                        true => "none".to_string(),
                        false => words.join(", "),
                    };
                    say!("  [{id}] {}; shared: {}", field(why), field(&words));
                }
                continue;
            }
        }
        let shown = match v {
            Json::String(s) => s.clone(),
            other => other.to_string(),
        };
        say!("{k}: {}", field(&shown));
    }
}

/// A progress bar of a long write (`rebuild --tokenizer`, `embed`) on a terminal: "VERB
/// [bar] done/total items (time left)"; none when stderr is not a terminal or under
/// `--json`.
pub fn progress(verb: &str, total: i64, json: bool) -> indicatif::ProgressBar {
    bar(
        &format!("{verb} {{bar:40}} {{pos}}/{{len}} items ({{eta}} left)"),
        total.max(0) as u64,
        json,
    )
}

/// The same over bytes read (`capture`).
pub fn progress_bytes(verb: &str, total: u64, json: bool) -> indicatif::ProgressBar {
    bar(
        &format!("{verb} {{bar:40}} {{bytes}}/{{total_bytes}} ({{eta}} left)"),
        total,
        json,
    )
}

fn bar(template: &str, total: u64, json: bool) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if json || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}
