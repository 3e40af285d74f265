//! A session's segments: it is split where the conversation was compacted and where two
//! timed records are further apart than the gap (`[capture] gap_hours`). Splitting reads
//! the records in order only, so a session that grows keeps its earlier segments and
//! their numbers: only its last segment changes, and new ones follow.
use super::{Event, Record};

/// The segments with something said in them, numbered from 1 in order.
pub fn segments(records: &[Record], gap_seconds: f64) -> Vec<(u32, &[Record])> {
    let mut cuts = vec![0];
    let mut last_time: Option<chrono::DateTime<chrono::Utc>> = None;
    for (i, r) in records.iter().enumerate() {
        let gap = match (last_time, r.at) {
            (Some(a), Some(b)) => (b - a).num_milliseconds() as f64 / 1000.0 > gap_seconds,
            _ => false,
        };
        if matches!(r.event, Event::Compaction) || gap {
            cuts.push(i);
        }
        if r.at.is_some() {
            last_time = r.at;
        }
    }
    cuts.push(records.len());
    cuts.dedup();
    let spoken = |part: &[Record]| {
        part.iter()
            .any(|r| matches!(r.event, Event::Prompt(_) | Event::Answer(_)))
    };
    cuts.windows(2)
        .map(|w| &records[w[0]..w[1]])
        .filter(|part| spoken(part))
        .enumerate()
        .map(|(i, part)| (i as u32 + 1, part))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{DateTime, Duration, Utc};

    fn rec(minutes: Option<i64>, event: Event) -> Record {
        let start: DateTime<Utc> = DateTime::from_timestamp(1_700_000_000, 0).unwrap();
        Record {
            at: minutes.map(|m| start + Duration::minutes(m)),
            event,
            sidechain: false,
        }
    }

    #[test]
    fn split_at_compaction_and_gaps() {
        let p = |m| rec(Some(m), Event::Prompt("p".into()));
        let records = vec![
            p(0),
            p(119),
            // Exactly the gap is not over it.
            p(239),
            // An untimed record does not reset the clock.
            rec(None, Event::Summary("s".into())),
            p(360),
            rec(Some(361), Event::Compaction),
            p(362),
            rec(Some(363), Event::Compaction),
            rec(Some(364), Event::Compaction),
        ];
        let sizes: Vec<(u32, usize)> = segments(&records, 7200.0)
            .into_iter()
            .map(|(n, s)| (n, s.len()))
            .collect();
        assert_eq!(sizes, vec![(1, 4), (2, 1), (3, 2)]);
        // A prefix of the records keeps the numbers and the earlier segments.
        let prefix: Vec<(u32, usize)> = segments(&records[..5], 7200.0)
            .into_iter()
            .map(|(n, s)| (n, s.len()))
            .collect();
        assert_eq!(prefix, vec![(1, 4), (2, 1)]);
    }
}
