//! Secrets taken out of a session's records as soon as it is read, before any field is
//! cut to its length: a secret cut in half would no longer have its shape, and half of
//! it would stay.
use recall_core::redact::{redact, Counts};

use super::{Event, Record};

/// Each record's text with its secrets replaced, and what was found in each record.
pub fn records(records: &mut [Record]) -> Vec<Counts> {
    records.iter_mut().map(|r| event(&mut r.event)).collect()
}

fn event(e: &mut Event) -> Counts {
    let mut found = Counts::default();
    let mut clean = |text: &mut String| {
        let (out, counts) = redact(text);
        if let std::borrow::Cow::Owned(out) = out {
            *text = out;
        }
        found.merge(&counts);
    };
    match e {
        Event::Prompt(t)
        | Event::Note(t)
        | Event::Answer(t)
        | Event::Summary(t)
        | Event::Recap(t) => clean(t),
        Event::ToolResult { text, .. } => clean(text),
        Event::ToolCall {
            name,
            input,
            command,
            files,
            ..
        } => {
            clean(name);
            clean(input);
            if let Some(c) = command {
                clean(c);
            }
            files.iter_mut().for_each(&mut clean);
        }
        Event::Compaction => {}
    }
    found
}

/// What was found in the records of `part`, a slice of `all`, by `records` (`found`, one
/// count a record: nothing when redaction is off and `found` is empty).
pub fn in_segment(found: &[Counts], all: &[Record], part: &[Record]) -> Counts {
    let mut sum = Counts::default();
    for counts in found.iter().skip(offset(all, part)).take(part.len()) {
        sum.merge(counts);
    }
    sum
}

/// Where `part`, a slice of `all`, begins in it.
pub fn offset(all: &[Record], part: &[Record]) -> usize {
    let size = std::mem::size_of::<Record>().max(1);
    (part.as_ptr() as usize).saturating_sub(all.as_ptr() as usize) / size
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_of_a_record_is_cleaned() {
        let token = "ghp_4kQ9wZ7tR2mX8vB1nL6pS3dF0gH5jK7yU2eW";
        let mut recs = vec![
            Record {
                at: None,
                event: Event::Prompt(format!("deploy with {token}")),
                sidechain: false,
            },
            Record {
                at: None,
                event: Event::ToolCall {
                    name: "Bash".into(),
                    input: format!("{{\"command\": \"GITHUB_TOKEN={token} make\"}}"),
                    command: Some(format!("GITHUB_TOKEN={token} make")),
                    files: vec![],
                    id: None,
                },
                sidechain: false,
            },
        ];
        let found = records(&mut recs);
        assert_eq!(found[0].total(), 1);
        assert_eq!(found[1].total(), 2);
        assert!(!format!("{recs:?}").contains(token));
        assert_eq!(offset(&recs, &recs[1..]), 1);
    }
}
