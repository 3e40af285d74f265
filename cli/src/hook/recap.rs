//! What a session's summary says it did and what it left to do, for the session start.
//! Capture takes a session's summary from the agent's own recap (Claude Code's
//! compaction summary, whose numbered sections include "Current Work" and "Pending
//! Tasks") or its last answer (free text, where "Next steps:" or "TODO:" may open what is
//! left). Headings are lines that end with `:`; their numbering and Markdown marks aside.

/// A summary, read.
#[derive(Debug, Default, PartialEq)]
pub struct Recap {
    /// What the session did: its "current work" or "summary" section, else the summary's
    /// first lines of content, joined.
    pub told: String,
    /// What it left to do, where it says: its "pending", "next steps", "remaining" or
    /// "to do" section or line.
    pub pending: Option<String>,
}

/// Words of a heading (folded) that open what a session left to do.
const PENDING: &[&str] = &[
    "pending",
    "next step",
    "remaining",
    "todo",
    "to do",
    "left to do",
    "open questions",
    "follow-up",
    "follow up",
];

/// Words of a heading that open what the session was doing last.
const CURRENT: &[&str] = &["current work", "current state", "summary", "status"];

/// Lines of boilerplate a recap opens with, which tell nothing.
const BOILERPLATE: &[&str] = &[
    "this session is being continued from a previous conversation",
    "the conversation is summarized below",
];

/// The most lines of content taken for each part.
const LINES: usize = 4;

impl Recap {
    pub fn of(summary: &str) -> Recap {
        let mut sections: Vec<(Option<String>, Vec<String>)> = vec![(None, Vec::new())];
        for raw in summary.lines() {
            let line = raw
                .trim()
                .trim_start_matches(['#', '*', '>'])
                .trim()
                .to_string();
            if line.is_empty() || boilerplate(&line) {
                continue;
            }
            match heading(&line) {
                Some((name, rest)) => {
                    let mut content = Vec::new();
                    if !rest.is_empty() {
                        content.push(rest);
                    }
                    sections.push((Some(name), content));
                }
                None => {
                    if let Some((_, content)) = sections.last_mut() {
                        content.push(bullet_less(&line));
                    }
                }
            }
        }
        let named = |words: &[&str]| {
            sections.iter().find(|(name, content)| {
                !content.is_empty()
                    && name
                        .as_deref()
                        .is_some_and(|n| words.iter().any(|w| n.contains(w)))
            })
        };
        let joined = |content: &[String]| {
            content
                .iter()
                .take(LINES)
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let pending = named(PENDING).map(|(_, c)| joined(c));
        let told = match named(CURRENT) {
            Some((_, content)) => joined(content),
            // The first lines of content that are not what is left to do.
            None => sections
                .iter()
                .filter(|(name, _)| {
                    !name
                        .as_deref()
                        .is_some_and(|n| PENDING.iter().any(|w| n.contains(w)))
                })
                .flat_map(|(_, content)| content.iter())
                .take(LINES)
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(" "),
        };
        Recap { told, pending }
    }
}

fn boilerplate(line: &str) -> bool {
    let folded = line.to_lowercase();
    BOILERPLATE.iter().any(|b| folded.starts_with(b))
}

/// A heading (`7. Pending Tasks:`, `**Next steps:** run it`): its name, folded, and what
/// follows its colon on the same line.
fn heading(line: &str) -> Option<(String, String)> {
    let (name, rest) = line.split_once(':')?;
    let name = name
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ')')
        .trim()
        .trim_matches('*')
        .trim();
    // A heading is a few words; a sentence with a colon in it is content.
    let words = name.split_whitespace().count();
    if name.is_empty() || words > 5 || name.contains(['`', '(', '/', '"', '.']) {
        return None;
    }
    let rest = rest.trim().trim_start_matches('*').trim();
    let folded = name.to_lowercase();
    // Text after the colon makes it a heading only of a part this reads ("Next steps: …");
    // else it is a line of content ("Done: …").
    let known = PENDING.iter().chain(CURRENT).any(|w| folded.contains(w));
    if !rest.is_empty() && !known {
        return None;
    }
    Some((folded, bullet_less(rest)))
}

/// A list item's text without its bullet.
fn bullet_less(line: &str) -> String {
    line.trim_start_matches(['-', '*', '•'])
        .trim()
        .trim_start_matches("[ ]")
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_compaction_summary_tells_its_current_work_and_pending_tasks() {
        let summary = "This session is being continued from a previous conversation that ran out of context.\n\
            Analysis:\nThe user asked for a VAT fix.\n\nSummary:\n\
            1. Primary Request and Intent:\n   Fix the VAT rounding of invoices.\n\
            2. Key Technical Concepts:\n   - Decimal rounding\n\
            7. Pending Tasks:\n   - Update the invoice snapshot tests\n   - Tell finance\n\
            8. Current Work:\n   Rounding moved to per-line in src/billing/tax.rs.\n\
            9. Optional Next Step:\n   Run the snapshot tests.";
        let r = Recap::of(summary);
        assert_eq!(r.told, "Rounding moved to per-line in src/billing/tax.rs.");
        assert_eq!(
            r.pending.as_deref(),
            Some("Update the invoice snapshot tests Tell finance")
        );
    }

    #[test]
    fn a_last_answer_tells_its_first_lines_and_its_next_steps() {
        let r = Recap::of(
            "Done: the importer retries on SQLITE_BUSY.\nI added a test.\n\n**Next steps:** run it on staging",
        );
        assert_eq!(
            r.told,
            "Done: the importer retries on SQLITE_BUSY. I added a test."
        );
        assert_eq!(r.pending.as_deref(), Some("run it on staging"));
        let r = Recap::of("Fixed it. Note: the cache (see `a:b`) stays.");
        assert_eq!(r.told, "Fixed it. Note: the cache (see `a:b`) stays.");
        assert_eq!(r.pending, None);
        assert_eq!(Recap::of(""), Recap::default());
    }
}
