//! Printing: JSON for machines, short text for people. Text never carries a control
//! character to the terminal (see `text`); JSON is exact. A closed pipe
//! (`recall … | head`) ends the program quietly, as ripgrep does, instead of panicking.
use std::io::Write;

use serde::Serialize;

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

/// `println!` through [`line`].
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => { $crate::output::line(&format!($($arg)*)) };
}

/// The answer of a query command as one JSON object:
/// `{"command", "results", "settings", "explain"?}`. What `--json` prints, and what
/// `recall mcp` returns.
pub fn query_answer(
    command: &str,
    rows: &[serde_json::Map<String, serde_json::Value>],
    settings: serde_json::Value,
    explain: Option<serde_json::Value>,
) -> serde_json::Value {
    let mut doc = serde_json::json!({ "command": command, "results": rows, "settings": settings });
    if let Some(e) = explain {
        doc["explain"] = e;
    }
    doc
}

/// Prints a query's answer ([`query_answer`]): the object, or one line per result for
/// people (`[id] date title (project, source)`, grouped under `# matched by …` where rows
/// say how they matched, or followed by `next to [id]` for a search result there through
/// its neighbour), then the explain fields.
pub fn results(json_mode: bool, answer: &serde_json::Value) {
    use crate::text::field;
    use serde_json::Value as Json;
    if json_mode {
        json(answer);
        return;
    }
    let rows = answer
        .get("results")
        .and_then(Json::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut last_matched_by: Option<&str> = None;
    for row in rows {
        let s = |k: &str| row.get(k).and_then(Json::as_str).unwrap_or("-").to_string();
        // Search ranks term and context matches together: each says so on its line
        // instead of under a heading.
        let next_to = row.get("context_of");
        if let (Some(m), None) = (row.get("matched_by").and_then(Json::as_str), next_to) {
            if last_matched_by != Some(m) {
                crate::say!("# matched by {}", m.replace('_', " "));
                last_matched_by = Some(m);
            }
        }
        let through_context = row.get("matched_by").and_then(Json::as_str) == Some("context");
        let suffix = match next_to {
            Some(id) if through_context => format!(" next to [{id}]"),
            // There through the vector channel alone (docs/vectors.md).
            _ if row.get("matched_by").and_then(Json::as_str) == Some("vector") => {
                " (near in meaning)".to_string()
            }
            _ => String::new(),
        };
        let date: String = s("date").chars().take(10).collect();
        // A judged answer (docs/judge.md) shows each item's probability.
        let judged = match row.get("probability") {
            Some(Json::Number(p)) => format!(" p={:.2}", p.as_f64().unwrap_or(0.0)),
            Some(_) if row.get("judged").is_some() => " (not judged)".to_string(),
            _ => String::new(),
        };
        crate::say!(
            "[{}] {} {} ({}, {}){judged}{suffix}",
            row.get("id").map(|v| v.to_string()).unwrap_or_default(),
            field(&date),
            field(&s("title")),
            field(&s("project")),
            field(&s("source"))
        );
    }
    if rows.is_empty() {
        crate::say!("(no results)");
    } else if answer.get("below_threshold") == Some(&Json::Bool(true)) {
        crate::say!("(weak matches: none reached the judge's threshold)");
    }
    if let Some(Json::Object(fields)) = answer.get("explain") {
        crate::say!("--");
        for (k, v) in fields {
            // Judged candidates (`related`): one line each, id and why.
            if let Json::Array(list) = v {
                if !list.is_empty() && list.iter().all(|c| c.get("why").is_some()) {
                    crate::say!("{k}:");
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
                        crate::say!("  [{id}] {}; shared: {}", field(why), field(&words));
                    }
                    continue;
                }
            }
            let shown = match v {
                Json::String(s) => s.clone(),
                other => other.to_string(),
            };
            crate::say!("{k}: {}", field(&shown));
        }
    }
}

/// A progress bar of a long write (`rebuild --tokenizer`, `embed`) on a terminal: "VERB
/// [bar] done/total items (time left)"; none when stderr is not a terminal or under
/// `--json`.
pub fn progress(verb: &str, total: i64, json: bool) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if json || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total.max(0) as u64);
    let template = format!("{verb} {{bar:40}} {{pos}}/{{len}} items ({{eta}} left)");
    if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}
