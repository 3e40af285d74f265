//! What `recall status` shows of a `Status`: its screen of text, one fact a line, and its
//! JSON document. The command prints them and `recall ui`'s status panel shows both.
use serde_json::{json, Value as Json};

use super::{injections::Injections, Count, Status};
use crate::text::field;

impl Status {
    /// `recall status --json`'s document: the typed `Status` as JSON, with its command.
    pub fn to_json(&self) -> Json {
        let mut doc = serde_json::to_value(self).unwrap_or_default();
        doc["command"] = json!("status");
        doc
    }

    /// The screen: one fact a line, then what needs attention and what to do.
    pub fn text(&self) -> String {
        screen(self)
    }
}

/// What the hook gave the agents: the totals, then the newest few, one a line.
fn injected(i: &Injections) -> Vec<String> {
    if i.blocks == 0 {
        return vec!["hook injections: none logged".to_string()];
    }
    let by_event: Vec<String> = i
        .by_event
        .iter()
        .map(|e| format!("{} {} ({} chars)", field(&e.event), e.blocks, e.chars))
        .collect();
    let mut out = vec![format!(
        "hook injections: {} logged, {} characters, {} items listed, largest {} characters, slowest {} ms; by event: {}; the newest first:",
        i.blocks,
        i.chars,
        i.items,
        i.max_chars,
        i.max_ms,
        by_event.join(", ")
    )];
    for b in i.latest.iter().take(super::injections::SHOWN_IN_TEXT) {
        let session = b
            .session
            .as_deref()
            .map(|id| format!(" session {}", field(id)))
            .unwrap_or_default();
        let items: Vec<String> = b.items.iter().map(i64::to_string).collect();
        out.push(format!(
            "  {} {}{session}: {} chars, items [{}], {} ms",
            b.at,
            field(&b.event),
            b.chars,
            items.join(", "),
            b.ms
        ));
    }
    out
}

fn counts(list: &[Count]) -> String {
    list.iter()
        .map(|c| {
            format!(
                "{} {}",
                field(c.name.as_deref().unwrap_or("(none)")),
                c.items
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 => format!("{:.1} MiB", b as f64 / (1 << 20) as f64),
        b if b >= 1 << 10 => format!("{:.1} KiB", b as f64 / 1024.0),
        b => format!("{b} bytes"),
    }
}

fn screen(s: &Status) -> String {
    let mut out = Vec::new();
    let lib = field(&s.library);
    match &s.facts {
        Some(f) => {
            out.push(format!(
                "library {lib}: {} items, {}, schema version {}, tokenizer {}, last written {}",
                f.items,
                size(f.size_bytes),
                f.schema_version,
                field(&f.tokenizer),
                f.last_write.as_deref().unwrap_or("unknown")
            ));
            if !f.sources.is_empty() {
                out.push(format!("  by source: {}", counts(&f.sources)));
            }
            if !f.projects.is_empty() {
                out.push(format!(
                    "  by project ({} of {}): {}",
                    f.projects.len(),
                    f.projects_total,
                    counts(&f.projects)
                ));
            }
            if let Some(r) = &f.replica {
                out.push(format!("  {}", field(r)));
            }
            out.push(format!("captures: {} files read", f.capture_files));
        }
        None => out.push(format!(
            "library {lib}: {}",
            field(s.problem.as_deref().unwrap_or("not read"))
        )),
    }
    for c in &s.captures {
        let last = match (&c.last_at, &c.last_session) {
            (Some(at), Some(session)) => format!(
                "; last {at}: session {} ({} items)",
                field(session),
                c.last_session_items
            ),
            _ => String::new(),
        };
        out.push(format!(
            "  {}: {} sessions, {} items{last}",
            field(&c.agent),
            c.sessions,
            c.items
        ));
    }
    if s.facts.is_some() && s.captures.is_empty() {
        out.push("  none yet".to_string());
    }
    if !s.failed_captures.is_empty() {
        out.push("failed captures (the hook's session state):".to_string());
        for f in &s.failed_captures {
            out.push(format!(
                "  session {}{}, {} attempts{}: {}",
                field(&f.session),
                f.failed_at
                    .as_deref()
                    .map(|t| format!(" at {t}"))
                    .unwrap_or_default(),
                f.attempts,
                if f.retrying { ", tried again now" } else { "" },
                f.problem
            ));
        }
    }
    if s.hook_failures.is_empty() {
        out.push("hook failures: none logged".to_string());
    } else {
        out.push(format!(
            "hook failures ({} logged, {} since the last capture that committed; the newest first):",
            s.hook_failures_total, s.hook_failures_since_success
        ));
        for f in &s.hook_failures {
            let session = f
                .session
                .as_deref()
                .map(|id| format!(" session {}", field(id)))
                .unwrap_or_default();
            out.push(format!(
                "  {} {}{session}: {}",
                f.at,
                field(&f.event),
                f.reason
            ));
        }
    }
    out.extend(injected(&s.injections));
    if s.facts.is_some() {
        out.push(match &s.wipe_pending {
            Some(since) => format!("wipe: pending since {}", field(since)),
            None => "wipe: none pending".to_string(),
        });
        out.push(match &s.vectors {
            Some(v) => format!(
                "vectors: model {} ({} dimensions): {} vectors, {} items without one, {} outdated",
                field(&v.model),
                v.dimensions,
                v.vectors,
                v.missing,
                v.stale
            ),
            None => "vectors: none (search is literal)".to_string(),
        });
    }
    for c in &s.hook_trust {
        out.push(format!(
            "{} hooks in {}: {}",
            c.agent.name(),
            field(&c.folder),
            field(&c.trust.line())
        ));
    }
    for note in &s.notes {
        out.push(format!("note: {}", field(note)));
    }
    if s.attention.is_empty() {
        out.push("nothing needs attention".to_string());
    } else {
        out.push("needs attention:".to_string());
        for a in &s.attention {
            out.push(format!("- {}", field(&a.what)));
            out.push(format!("  to do: {}", field(&a.todo)));
        }
    }
    out.join("\n")
}
