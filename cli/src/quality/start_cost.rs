//! What the session start costs the agent's context (`recall eval --start-cost`): a start
//! in a project just after each of its items, as the library then stood (the items up to
//! that one), its text as the start hook makes it (given by the hook, `hook::cost`), against
//! the size of the project's whole history up to there, the items' text and their
//! transcripts. Tokens are estimated as characters / 4, rounded up: the usual rule of
//! thumb for English text under the BPE tokenizers of current models; no tokenizer runs.
use serde::Serialize;

use crate::error::{Context, Result};
use crate::settings::Globals;

/// Characters per token, for the estimate.
pub const CHARS_PER_TOKEN: usize = 4;

pub fn tokens(chars: usize) -> usize {
    chars.div_ceil(CHARS_PER_TOKEN)
}

/// The median and the 95th percentile of a set of sizes (nearest rank), and the mean.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Spread {
    pub median: usize,
    pub p95: usize,
    pub mean: f64,
}

/// The `q`-th quantile by nearest rank: the smallest value with at least a share `q` of
/// the values at or below it.
pub fn quantile(sorted: &[usize], q: f64) -> usize {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

pub fn spread(values: &[usize]) -> Spread {
    let mut v = values.to_vec();
    v.sort_unstable();
    Spread {
        median: quantile(&v, 0.5),
        p95: quantile(&v, 0.95),
        mean: if v.is_empty() {
            0.0
        } else {
            v.iter().sum::<usize>() as f64 / v.len() as f64
        },
    }
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct StartCost {
    pub projects: usize,
    /// One start after each item of a project.
    pub starts: usize,
    pub start_chars: Spread,
    pub start_tokens: Spread,
    /// The project's items up to the start: title, summary, questions, atoms and
    /// transcript.
    pub history_chars: Spread,
    pub history_tokens: Spread,
    /// The usage line that ends every start, part of `start_chars`.
    pub usage_chars: usize,
}

/// `start(project, until)`: the text a start in `project` is given, from the items
/// before `until`.
pub fn measure(
    g: &Globals,
    start: impl Fn(&str, &str) -> Result<String>,
    usage: &str,
) -> Result<StartCost> {
    let lib = g.open_for_query()?;
    // Each item of a project, in time order, with the size of its text.
    let mut stmt = lib
        .conn
        .prepare(
            "select project, occurred_at,
                    length(title) + length(summary) + length(questions) + length(atoms)
                    + coalesce(length(transcript), 0)
             from items where project is not null order by project, occurred_at, id",
        )
        .context("reading the items")?;
    let rows: Vec<(String, String, i64)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .and_then(|rows| rows.collect())
        .context("reading the items")?;
    let mut starts = Vec::new();
    let mut histories = Vec::new();
    let mut projects = 0;
    let mut history = 0usize;
    let mut previous: Option<&str> = None;
    for (project, at, size) in &rows {
        if previous != Some(project.as_str()) {
            projects += 1;
            history = 0;
            previous = Some(project);
        }
        history += usize::try_from(*size).unwrap_or(0);
        // `until` is exclusive: a second later holds the item itself.
        let after = recall_core::time::parse_datetime(at)
            .map(|t| recall_core::time::normalize(&(t + chrono::Duration::seconds(1))))
            .ok_or_else(|| {
                crate::error::err!("an item of project {project} has the time {at:?}")
            })?;
        let text = start(project, &after)?;
        starts.push(text.chars().count());
        histories.push(history);
    }
    let token_counts = |v: &[usize]| v.iter().map(|c| tokens(*c)).collect::<Vec<_>>();
    Ok(StartCost {
        projects,
        starts: starts.len(),
        start_chars: spread(&starts),
        start_tokens: spread(&token_counts(&starts)),
        history_chars: spread(&histories),
        history_tokens: spread(&token_counts(&histories)),
        usage_chars: usage.chars().count(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_quantiles() {
        let v: Vec<usize> = (1..=20).collect();
        assert_eq!((quantile(&v, 0.5), quantile(&v, 0.95)), (10, 19));
        assert_eq!(quantile(&[7], 0.95), 7);
        assert_eq!(quantile(&[], 0.5), 0);
        let s = spread(&[30, 10, 20]);
        assert_eq!((s.median, s.p95, s.mean), (20, 30, 20.0));
        assert_eq!((tokens(0), tokens(1), tokens(4), tokens(5)), (0, 1, 1, 2));
    }
}
