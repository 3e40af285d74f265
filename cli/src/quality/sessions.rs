//! The session level: where a question's evidence sessions rank, for the benchmarks whose
//! items are the turns of sessions (LoCoMo, LongMemEval). A session ranks where its best
//! turn ranks: the answer's items, in order, each replaced by its session, each session
//! kept once. Per question: hit@k (an evidence session within the first k), Recall@k (the
//! share of its evidence sessions there), evidence-recall@k (all of them there), and the
//! reciprocal rank of the first. The questions tagged as one of [`APART`] are summed apart,
//! as the benchmarks' authors report them.
use indexmap::IndexMap;
use serde::Serialize;

/// The tags of questions whose figures are reported apart from the others: LoCoMo's
/// adversarial questions (category 5, about what was never said) and LongMemEval's
/// abstention ones (`_abs`): their evidence is a near miss, not the answer.
pub const APART: [&str; 2] = ["adversarial", "abstention"];

/// One question at the session level.
#[derive(Debug, Clone, Serialize)]
pub struct SessionOutcome {
    pub id: String,
    pub tags: Vec<String>,
    /// The sessions in rank order, each at its best turn.
    pub ranked: Vec<String>,
    /// The sessions that hold the question's evidence.
    pub evidence: Vec<String>,
}

/// The sessions of `items` (ids in rank order), each once, at its best item; an item in
/// no session (`session_of` gives None) is passed over.
pub fn rank<'a>(items: &[i64], session_of: impl Fn(i64) -> Option<&'a str>) -> Vec<String> {
    let mut ranked: Vec<String> = Vec::new();
    for id in items {
        if let Some(s) = session_of(*id) {
            if !ranked.iter().any(|r| r == s) {
                ranked.push(s.to_string());
            }
        }
    }
    ranked
}

impl SessionOutcome {
    /// The rank (1-based) of an evidence session, None when it is not in the answer.
    fn rank_of(&self, session: &str) -> Option<usize> {
        self.ranked.iter().position(|r| r == session).map(|p| p + 1)
    }

    fn within(&self, k: usize) -> usize {
        self.evidence
            .iter()
            .filter(|e| self.rank_of(e).is_some_and(|r| r <= k))
            .count()
    }

    /// 1 when an evidence session is within the first k.
    pub fn hit_at(&self, k: usize) -> f64 {
        f64::from(u8::from(self.within(k) > 0))
    }

    /// The share of the evidence sessions within the first k.
    pub fn recall_at(&self, k: usize) -> f64 {
        self.within(k) as f64 / self.evidence.len().max(1) as f64
    }

    /// 1 when every evidence session is within the first k.
    pub fn all_at(&self, k: usize) -> f64 {
        f64::from(u8::from(self.within(k) == self.evidence.len()))
    }

    /// 1 / the rank of the first evidence session, 0 when none is in the answer.
    pub fn reciprocal_rank(&self) -> f64 {
        self.evidence
            .iter()
            .filter_map(|e| self.rank_of(e))
            .min()
            .map_or(0.0, |r| 1.0 / r as f64)
    }

    fn apart(&self) -> bool {
        self.tags.iter().any(|t| APART.contains(&t.as_str()))
    }
}

/// The session-level figures of a set of questions, each the mean over them.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct SessionSummary {
    pub questions: usize,
    pub hit_at_1: f64,
    pub hit_at_5: f64,
    pub hit_at_10: f64,
    pub recall_at_5: f64,
    pub recall_at_10: f64,
    pub evidence_recall_at_5: f64,
    pub evidence_recall_at_10: f64,
    pub mrr: f64,
}

pub fn summarize<'a>(outcomes: impl Iterator<Item = &'a SessionOutcome>) -> SessionSummary {
    // Questions without evidence sessions have no figure (none reach here: both
    // adapters keep only questions with evidence).
    let kept: Vec<&SessionOutcome> = outcomes.filter(|o| !o.evidence.is_empty()).collect();
    let mean = |f: &dyn Fn(&SessionOutcome) -> f64| {
        if kept.is_empty() {
            0.0
        } else {
            kept.iter().map(|o| f(o)).sum::<f64>() / kept.len() as f64
        }
    };
    SessionSummary {
        questions: kept.len(),
        hit_at_1: mean(&|o| o.hit_at(1)),
        hit_at_5: mean(&|o| o.hit_at(5)),
        hit_at_10: mean(&|o| o.hit_at(10)),
        recall_at_5: mean(&|o| o.recall_at(5)),
        recall_at_10: mean(&|o| o.recall_at(10)),
        evidence_recall_at_5: mean(&|o| o.all_at(5)),
        evidence_recall_at_10: mean(&|o| o.all_at(10)),
        mrr: mean(&|o| o.reciprocal_rank()),
    }
}

/// A column's session-level figures: the questions not set apart, each tag of [`APART`]
/// that some question has, and every tag.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SessionReport {
    /// The questions not tagged as one of [`APART`].
    pub main: SessionSummary,
    /// Per tag of [`APART`] present.
    pub apart: IndexMap<String, SessionSummary>,
    /// Per tag, set-apart questions included.
    pub per_tag: IndexMap<String, SessionSummary>,
}

pub fn report(outcomes: &[SessionOutcome]) -> SessionReport {
    let apart = APART
        .iter()
        .filter(|t| outcomes.iter().any(|o| o.tags.iter().any(|x| x == *t)))
        .map(|t| {
            let of = outcomes.iter().filter(|o| o.tags.iter().any(|x| x == t));
            (t.to_string(), summarize(of))
        })
        .collect();
    let mut tags: Vec<&String> = outcomes.iter().flat_map(|o| &o.tags).collect();
    tags.sort();
    tags.dedup();
    SessionReport {
        main: summarize(outcomes.iter().filter(|o| !o.apart())),
        apart,
        per_tag: tags
            .into_iter()
            .map(|t| {
                let of = outcomes.iter().filter(|o| o.tags.contains(t));
                (t.clone(), summarize(of))
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(ranked: &[&str], evidence: &[&str], tags: &[&str]) -> SessionOutcome {
        SessionOutcome {
            id: "q".into(),
            tags: tags.iter().map(|t| t.to_string()).collect(),
            ranked: ranked.iter().map(|s| s.to_string()).collect(),
            evidence: evidence.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn a_session_ranks_at_its_best_turn() {
        let of = |id: i64| match id {
            1..=3 => Some("a"),
            4..=6 => Some("b"),
            7 => Some("c"),
            _ => None,
        };
        assert_eq!(rank(&[5, 9, 1, 4, 2, 7], of), vec!["b", "a", "c"]);
        assert!(rank(&[8, 9], of).is_empty());
    }

    #[test]
    fn per_question_figures_by_hand() {
        // Evidence b (rank 2) and e (rank 6).
        let q = o(&["a", "b", "c", "d", "x", "e"], &["b", "e"], &[]);
        assert_eq!((q.hit_at(1), q.hit_at(5)), (0.0, 1.0));
        assert_eq!((q.recall_at(5), q.recall_at(10)), (0.5, 1.0));
        assert_eq!((q.all_at(5), q.all_at(10)), (0.0, 1.0));
        assert_eq!(q.reciprocal_rank(), 0.5);
        let miss = o(&["a"], &["z"], &[]);
        assert_eq!((miss.hit_at(10), miss.reciprocal_rank()), (0.0, 0.0));
    }

    #[test]
    fn set_apart_questions_are_summed_apart() {
        let all = [
            o(&["a", "b"], &["a"], &["category-1"]),
            o(&["a", "b"], &["b"], &["category-2"]),
            o(&["a", "b"], &["c"], &["category-5", "adversarial"]),
        ];
        let r = report(&all);
        assert_eq!(r.main.questions, 2);
        assert_eq!(r.main.mrr, 0.75);
        assert_eq!(r.apart.len(), 1);
        let adversarial = &r.apart["adversarial"];
        assert_eq!((adversarial.questions, adversarial.hit_at_10), (1, 0.0));
        assert_eq!(r.per_tag.len(), 4);
    }
}
