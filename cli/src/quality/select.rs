//! Which cases of a file a run measures: `--case-id PREFIX` and `--tag TAG`, so that one
//! cases file serves a tuned half and a held-out half (docs/evaluation.md).
use serde::Serialize;

use super::Case;
use crate::error::{err, Result};

/// The selection asked for: any of the id prefixes, and any of the tags (empty: all).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Selection {
    pub case_ids: Vec<String>,
    pub tags: Vec<String>,
}

impl Selection {
    pub fn is_all(&self) -> bool {
        self.case_ids.is_empty() && self.tags.is_empty()
    }

    fn keeps(&self, c: &Case) -> bool {
        let id = c.id.as_deref().unwrap_or_default();
        (self.case_ids.is_empty() || self.case_ids.iter().any(|p| id.starts_with(p.as_str())))
            && (self.tags.is_empty() || self.tags.iter().any(|t| c.tags.contains(t)))
    }

    /// How the selection reads on a command line, for messages and reports.
    pub fn shown(&self) -> String {
        let flags = self.case_ids.iter().map(|p| format!("--case-id {p}"));
        let tags = self.tags.iter().map(|t| format!("--tag {t}"));
        flags.chain(tags).collect::<Vec<_>>().join(" ")
    }
}

/// The cases the selection keeps, in file order. An empty value or a selection that
/// keeps nothing is refused: a run over no case would report nothing as if measured.
pub fn select(cases: Vec<Case>, s: &Selection, file: &str) -> Result<Vec<Case>> {
    if s.case_ids.iter().any(String::is_empty) {
        return Err(err!(
            "--case-id is empty: give the start of the ids to keep, like --case-id conv-26/"
        ));
    }
    if s.tags.iter().any(String::is_empty) {
        return Err(err!(
            "--tag is empty: give a tag of the cases, like --tag locomo"
        ));
    }
    if s.is_all() {
        return Ok(cases);
    }
    if !cases.iter().any(|c| s.keeps(c)) {
        let first_id = cases.first().and_then(|c| c.id.clone()).unwrap_or_default();
        let mut tags: Vec<&str> = cases
            .iter()
            .flat_map(|c| c.tags.iter().map(String::as_str))
            .collect();
        tags.sort_unstable();
        tags.dedup();
        let known = if tags.is_empty() {
            "no tags".to_string()
        } else {
            format!(
                "tags {}",
                tags.iter().take(8).copied().collect::<Vec<_>>().join(", ")
            )
        };
        return Err(err!(
            "{}: no case of {file} is selected (its ids start like {first_id:?}; it has {known}): check the prefixes and tags",
            s.shown()
        ));
    }
    Ok(cases.into_iter().filter(|c| s.keeps(c)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(id: &str, tags: &[&str]) -> Case {
        let line = serde_json::json!({"id": id, "tags": tags, "query": "q", "expect": [1]});
        serde_json::from_value(line).expect("a case")
    }

    fn ids(cases: &[Case]) -> Vec<&str> {
        cases.iter().filter_map(|c| c.id.as_deref()).collect()
    }

    fn all() -> Vec<Case> {
        vec![
            case("conv-26/q1", &["locomo", "category-2"]),
            case("conv-26/q2", &["locomo", "category-4"]),
            case("conv-30/q1", &["locomo", "category-4"]),
            case("conv-300/q1", &["locomo", "category-1"]),
        ]
    }

    fn sel(case_ids: &[&str], tags: &[&str]) -> Selection {
        Selection {
            case_ids: case_ids.iter().map(|s| s.to_string()).collect(),
            tags: tags.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn prefixes_and_tags_any_within_both_across() {
        let got = select(all(), &sel(&["conv-30/", "conv-26/"], &[]), "f").unwrap();
        assert_eq!(ids(&got), ["conv-26/q1", "conv-26/q2", "conv-30/q1"]);
        // A prefix is a prefix: "conv-30" keeps conv-300 too, "conv-30/" does not.
        let got = select(all(), &sel(&["conv-30"], &[]), "f").unwrap();
        assert_eq!(ids(&got), ["conv-30/q1", "conv-300/q1"]);
        let got = select(all(), &sel(&[], &["category-4", "category-1"]), "f").unwrap();
        assert_eq!(ids(&got), ["conv-26/q2", "conv-30/q1", "conv-300/q1"]);
        let got = select(all(), &sel(&["conv-26/"], &["category-4"]), "f").unwrap();
        assert_eq!(ids(&got), ["conv-26/q2"]);
        assert_eq!(select(all(), &sel(&[], &[]), "f").unwrap().len(), 4);
    }

    #[test]
    fn nothing_selected_or_an_empty_value_is_refused() {
        let e = select(all(), &sel(&["conv-99/"], &[]), "cases.jsonl").unwrap_err();
        assert_eq!(
            e.message,
            "--case-id conv-99/: no case of cases.jsonl is selected (its ids start like \"conv-26/q1\"; it has tags category-1, category-2, category-4, locomo): check the prefixes and tags"
        );
        let e = select(all(), &sel(&[""], &[]), "f").unwrap_err();
        assert!(e.message.starts_with("--case-id is empty"), "{}", e.message);
        let e = select(all(), &sel(&[], &[""]), "f").unwrap_err();
        assert!(e.message.starts_with("--tag is empty"), "{}", e.message);
    }
}
