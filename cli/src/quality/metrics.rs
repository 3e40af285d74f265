//! Retrieval metrics over ranked answers (binary relevance): Recall@k, reciprocal rank,
//! nDCG@k, must-not violations, and what was shown: the precision of what cases with
//! expectations were shown, how often an answer was not empty, and how often a case that
//! expects nothing got nothing.
use serde::Serialize;

/// One case's outcome: where each expected id appeared (1-based), and forbidden ids seen.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub id: String,
    pub kind: &'static str,
    pub tags: Vec<String>,
    /// (expected id, its rank or None when not returned)
    pub ranks: Vec<(i64, Option<usize>)>,
    /// (must-not id, the rank at which it appeared within the first 10)
    pub violations: Vec<(i64, usize)>,
    /// The ids shown: the answer's first 10 (all of a `related` answer).
    pub shown: Vec<i64>,
    /// Whether the case expects an empty answer (`"expect": []` and no `must_not`).
    pub expects_nothing: bool,
    /// How the judge or the embedder failed, when that gave the literal answer instead.
    pub fell_back: Option<String>,
    /// The whole answer, in rank order: for the session level and `--rankings`.
    #[serde(skip)]
    pub answer: Vec<i64>,
}

/// How many results are shown: the first 10, as the other metrics read them.
pub const SHOWN: usize = 10;

impl Outcome {
    /// How many of the shown ids are expected ones.
    pub fn expected_shown(&self) -> usize {
        self.shown
            .iter()
            .filter(|id| self.ranks.iter().any(|(e, _)| e == *id))
            .count()
    }

    /// Fraction of the expected ids found within the first k.
    pub fn recall_at(&self, k: usize) -> Option<f64> {
        if self.ranks.is_empty() {
            return None;
        }
        let found = self
            .ranks
            .iter()
            .filter(|(_, r)| r.is_some_and(|r| r <= k))
            .count();
        Some(found as f64 / self.ranks.len() as f64)
    }

    /// 1 / the rank of the first expected id found, 0 when none is.
    pub fn reciprocal_rank(&self) -> Option<f64> {
        if self.ranks.is_empty() {
            return None;
        }
        Some(
            self.ranks
                .iter()
                .filter_map(|(_, r)| *r)
                .min()
                .map_or(0.0, |r| 1.0 / r as f64),
        )
    }

    /// Normalised discounted cumulative gain within the first k.
    pub fn ndcg_at(&self, k: usize) -> Option<f64> {
        if self.ranks.is_empty() {
            return None;
        }
        let gain = |rank: usize| 1.0 / ((rank + 1) as f64).log2();
        let dcg: f64 = self
            .ranks
            .iter()
            .filter_map(|(_, r)| *r)
            .filter(|r| *r <= k)
            .map(gain)
            .sum();
        let ideal: f64 = (1..=self.ranks.len().min(k)).map(gain).sum();
        Some(dcg / ideal)
    }
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Summary {
    pub cases: usize,
    /// The cases that expect ids: the ones Recall@k, MRR and nDCG average over (0 when
    /// none does).
    pub expecting: usize,
    pub recall_at_1: f64,
    pub recall_at_5: f64,
    pub recall_at_10: f64,
    pub mrr: f64,
    pub ndcg_at_10: f64,
    pub must_not_violations: usize,
    /// The share of cases whose answer was not empty.
    pub answered_share: Option<f64>,
    /// Over the cases with expectations: expected ids shown / ids shown (None when
    /// nothing was shown).
    pub precision: Option<f64>,
    /// How many ids those cases were shown.
    pub shown: usize,
    /// How many cases expect nothing, and the share of them that got nothing.
    pub expect_nothing_cases: usize,
    pub empty_share: Option<f64>,
    /// The cases that got the literal answer because the judge or the embedder failed.
    pub fell_back: usize,
}

fn mean(values: impl Iterator<Item = Option<f64>>) -> f64 {
    let v: Vec<f64> = values.flatten().collect();
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// `part / whole`, None when `whole` is 0.
fn share(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

pub fn summarize<'a>(outcomes: impl Iterator<Item = &'a Outcome> + Clone) -> Summary {
    let expecting = outcomes.clone().filter(|o| !o.ranks.is_empty());
    let shown: usize = expecting.clone().map(|o| o.shown.len()).sum();
    let expected_shown: usize = expecting.map(Outcome::expected_shown).sum();
    let nothing = outcomes.clone().filter(|o| o.expects_nothing);
    Summary {
        expecting: outcomes.clone().filter(|o| !o.ranks.is_empty()).count(),
        answered_share: share(
            outcomes.clone().filter(|o| !o.shown.is_empty()).count(),
            outcomes.clone().count(),
        ),
        precision: share(expected_shown, shown),
        shown,
        expect_nothing_cases: nothing.clone().count(),
        empty_share: share(
            nothing.clone().filter(|o| o.shown.is_empty()).count(),
            nothing.count(),
        ),
        cases: outcomes.clone().count(),
        recall_at_1: mean(outcomes.clone().map(|o| o.recall_at(1))),
        recall_at_5: mean(outcomes.clone().map(|o| o.recall_at(5))),
        recall_at_10: mean(outcomes.clone().map(|o| o.recall_at(10))),
        mrr: mean(outcomes.clone().map(|o| o.reciprocal_rank())),
        ndcg_at_10: mean(outcomes.clone().map(|o| o.ndcg_at(10))),
        must_not_violations: outcomes.clone().map(|o| o.violations.len()).sum(),
        fell_back: outcomes.filter(|o| o.fell_back.is_some()).count(),
    }
}

/// What a case expects: ids to find (none: `expect` is `[]` or absent), ids not to show,
/// and whether the answer should be empty.
pub struct Expected<'a> {
    pub ids: &'a [i64],
    pub must_not: &'a [i64],
    pub nothing: bool,
}

/// Where each expected id is in `answer` (ids in rank order), the forbidden ids in its
/// first 10, and what was shown.
pub fn outcome(
    id: String,
    kind: &'static str,
    tags: Vec<String>,
    answer: &[i64],
    expected: Expected,
) -> Outcome {
    let rank = |x: i64| answer.iter().position(|a| *a == x).map(|p| p + 1);
    Outcome {
        id,
        kind,
        tags,
        ranks: expected.ids.iter().map(|e| (*e, rank(*e))).collect(),
        violations: expected
            .must_not
            .iter()
            .filter_map(|m| rank(*m).filter(|r| *r <= SHOWN).map(|r| (*m, r)))
            .collect(),
        shown: answer.iter().take(SHOWN).copied().collect(),
        expects_nothing: expected.nothing,
        fell_back: None,
        answer: answer.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(answer: &[i64], expect: &[i64], must_not: &[i64]) -> Outcome {
        let nothing = expect.is_empty() && must_not.is_empty();
        let expected = Expected {
            ids: expect,
            must_not,
            nothing,
        };
        outcome("c".into(), "related", vec![], answer, expected)
    }

    #[test]
    fn per_case_metrics_by_hand() {
        // Expected 7 and 9; the answer has 9 at rank 2 and 7 at rank 6.
        let c = o(&[1, 9, 2, 3, 4, 7, 5], &[7, 9], &[]);
        assert_eq!(c.recall_at(1), Some(0.0));
        assert_eq!(c.recall_at(5), Some(0.5));
        assert_eq!(c.recall_at(10), Some(1.0));
        assert_eq!(c.reciprocal_rank(), Some(0.5));
        // DCG = 1/log2(3) + 1/log2(7); IDCG = 1/log2(2) + 1/log2(3).
        let dcg = 1.0 / 3f64.log2() + 1.0 / 7f64.log2();
        let idcg = 1.0 + 1.0 / 3f64.log2();
        assert!((c.ndcg_at(10).unwrap() - dcg / idcg).abs() < 1e-12);
        // Not found at all.
        let c = o(&[1, 2], &[7], &[]);
        assert_eq!(
            (c.recall_at(10), c.reciprocal_rank(), c.ndcg_at(10)),
            (Some(0.0), Some(0.0), Some(0.0))
        );
        // Must-not only: no recall, but violations count within the first 10.
        let mut answer: Vec<i64> = (100..120).collect();
        answer[3] = 5;
        answer[15] = 6;
        let c = o(&answer, &[], &[5, 6, 8]);
        assert_eq!(c.recall_at(10), None);
        assert_eq!(c.violations, vec![(5, 4)]);
    }

    #[test]
    fn summaries_average_cases_with_expectations() {
        let cases = [
            o(&[1], &[1], &[]),
            o(&[2, 1], &[1], &[2]),
            o(&[3], &[], &[3]),
        ];
        let s = summarize(cases.iter());
        assert_eq!((s.cases, s.expecting), (3, 2));
        assert_eq!(s.recall_at_1, 0.5);
        assert_eq!(s.recall_at_5, 1.0);
        assert_eq!(s.mrr, 0.75);
        assert_eq!(s.must_not_violations, 2);
        // Shown to the cases with expectations: [1] and [2, 1], two of three expected.
        assert_eq!((s.shown, s.precision), (3, Some(2.0 / 3.0)));
        assert_eq!(s.answered_share, Some(1.0));
        assert_eq!((s.expect_nothing_cases, s.empty_share), (0, None));
    }

    #[test]
    fn what_was_shown_and_what_should_have_been_nothing() {
        let cases = [
            // Expects 5: shown 5, 6, 7 (one of three), then 5 alone.
            o(&[5, 6, 7], &[5], &[]),
            o(&[5], &[5], &[]),
            // Expects 8: shown nothing; counts for recall, not precision.
            o(&[], &[8], &[]),
            // Expect nothing: one got nothing, two got something.
            o(&[], &[], &[]),
            o(&[1, 2], &[], &[]),
            o(&[3], &[], &[]),
        ];
        let s = summarize(cases.iter());
        assert_eq!(s.shown, 4);
        assert_eq!(s.precision, Some(0.5));
        assert_eq!(s.recall_at_10, 2.0 / 3.0);
        assert_eq!(s.answered_share, Some(4.0 / 6.0));
        assert_eq!(s.expect_nothing_cases, 3);
        assert_eq!(s.empty_share, Some(1.0 / 3.0));
        // Only the first 10 are shown.
        let long: Vec<i64> = (1..=30).collect();
        let c = o(&long, &[25], &[]);
        assert_eq!(c.shown.len(), 10);
        assert_eq!(c.expected_shown(), 0);
        assert_eq!(c.recall_at(10), Some(0.0));
        // Nothing was shown to cases with expectations: no precision, not 0.
        let s = summarize([o(&[], &[8], &[])].iter());
        assert_eq!(
            (s.shown, s.precision, s.answered_share),
            (0, None, Some(0.0))
        );
    }
}
