//! Rating the candidates with the judge process: at most `concurrency` requests waiting,
//! every answer within one deadline.
use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::protocol::{self, Item};
use crate::line_process::{self, Event, Process};

pub enum Outcome {
    Done,
    TimedOut,
    Failed(String),
}

pub struct Verdict {
    /// One per item, in order: None when not rated.
    pub ratings: Vec<Option<f64>>,
    pub outcome: Outcome,
}

/// Rates `items` with the judge `command`, everything within `timeout_ms`, at most
/// `concurrency` requests waiting (`[judge]`'s settings).
pub fn run(
    command: &str,
    question: &str,
    items: &[Item],
    (timeout_ms, concurrency): (i64, i64),
) -> Verdict {
    let timeout = Duration::from_millis(u64::try_from(timeout_ms).unwrap_or(0));
    let deadline = Instant::now() + timeout;
    let mut process = match line_process::JUDGE.take(command) {
        Ok(p) => p,
        Err(why) => {
            return Verdict {
                ratings: vec![None; items.len()],
                outcome: Outcome::Failed(why),
            }
        }
    };
    let concurrency = usize::try_from(concurrency).unwrap_or(1).max(1);
    let verdict = rate(&mut process, question, items, concurrency, deadline);
    match verdict.outcome {
        Outcome::Done => line_process::JUDGE.give_back(process),
        // Late answers would belong to this search: the judge goes.
        _ => process.kill(),
    }
    verdict
}

/// At most `concurrency` requests outstanding; each answer makes room for the next.
fn rate(
    p: &mut Process,
    question: &str,
    items: &[Item],
    concurrency: usize,
    deadline: Instant,
) -> Verdict {
    let mut ratings = vec![None; items.len()];
    let mut outstanding: HashMap<u64, usize> = HashMap::new();
    let mut next = 0;
    let fail = |ratings: Vec<Option<f64>>, why: String| Verdict {
        ratings,
        outcome: Outcome::Failed(why),
    };
    loop {
        while next < items.len() && outstanding.len() < concurrency {
            let id = p.next_request_id();
            let line = match serde_json::to_string(&protocol::Request {
                id,
                question,
                item: &items[next],
            }) {
                Ok(l) => l,
                Err(e) => return fail(ratings, format!("cannot write a request: {e}")),
            };
            if let Err(why) = p.send(line) {
                return fail(ratings, why);
            }
            outstanding.insert(id, next);
            next += 1;
        }
        if outstanding.is_empty() {
            return Verdict {
                ratings,
                outcome: Outcome::Done,
            };
        }
        match p.next(deadline) {
            None => {
                return Verdict {
                    ratings,
                    outcome: Outcome::TimedOut,
                }
            }
            Some(Event::Closed) => {
                let why = p.ended();
                return fail(
                    ratings,
                    format!("{why}, with {} requests unanswered", outstanding.len()),
                );
            }
            Some(Event::Cancelled) => return fail(ratings, line_process::CANCELLED.to_string()),
            Some(Event::Line(line)) if line.trim().is_empty() => {}
            Some(Event::Line(line)) => {
                let answer = match protocol::parse(line.trim()) {
                    Ok(a) => a,
                    Err(why) => return fail(ratings, why),
                };
                let Some(index) = outstanding.remove(&answer.id) else {
                    return fail(
                        ratings,
                        format!(
                            "the judge answered request {}, which is not waiting for an answer",
                            answer.id
                        ),
                    );
                };
                ratings[index] = Some(answer.probability);
            }
        }
    }
}
