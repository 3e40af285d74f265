//! Where a ranking setting is shown: in the settings a query ran with (`--explain`, and
//! `settings` of `--json`) and in `recall eval --json`'s columns. The settings declared
//! before they were named after their keys keep the names they were shown under, which
//! are public; one declared since (`on` in `config::table`) needs no line here, and is
//! shown under its field's name (`[search] new_weight` as `new_weight`) in both.
use serde_json::{Map, Value as Json};

use super::Ranking;
use crate::config::setting::Setting;
use crate::config::table::{
    CANDIDATE_POOL, CONTEXT_COLUMN_WEIGHT, CONTEXT_GAP_MINUTES, CONTEXT_RADIUS, CONTEXT_WEIGHT,
    HALF_LIFE_DAYS, PERIOD_WEIGHT, PRUNE_SHARE, RECENCY_WEIGHT, RELATED_MIN_JOINT_WEIGHT,
    RELATED_MIN_WEIGHT, RELATED_RULE, SETTINGS,
};

/// A setting's place: a key, or a key of an object (`["context", "weight"]`).
type Place = &'static [&'static str];

/// Each named setting, with its place in a query's settings and in an eval column.
const NAMED: [(&Setting, Place, Place); 12] = [
    (&CANDIDATE_POOL, &["pool"], &["pool"]),
    (&HALF_LIFE_DAYS, &["half_life_days"], &["half_life"]),
    (&RECENCY_WEIGHT, &["recency_weight"], &["weight"]),
    (&PRUNE_SHARE, &["prune_share"], &["prune_share"]),
    (&PERIOD_WEIGHT, &["period_weight"], &["period_weight"]),
    (
        &CONTEXT_WEIGHT,
        &["context", "weight"],
        &["context", "weight"],
    ),
    (
        &CONTEXT_RADIUS,
        &["context", "radius"],
        &["context", "radius"],
    ),
    (
        &CONTEXT_GAP_MINUTES,
        &["context", "gap_minutes"],
        &["context", "gap_minutes"],
    ),
    (
        &CONTEXT_COLUMN_WEIGHT,
        &["context", "column_weight"],
        &["context", "column_weight"],
    ),
    (&RELATED_RULE, &["rule"], &["related_rule"]),
    (
        &RELATED_MIN_WEIGHT,
        &["min_weight"],
        &["related_min_weight"],
    ),
    (
        &RELATED_MIN_JOINT_WEIGHT,
        &["min_joint_weight"],
        &["related_min_joint_weight"],
    ),
];

/// Where `setting` is shown: its named place, else its field's name.
fn place(setting: &Setting, eval: bool) -> Vec<&'static str> {
    match NAMED.iter().find(|(s, ..)| s.key == setting.key) {
        Some((_, query, column)) => if eval { column } else { query }.to_vec(),
        None => vec![setting.key.rsplit('.').next().unwrap_or(setting.key)],
    }
}

fn put(doc: &mut Map<String, Json>, place: &[&str], value: Json) {
    match place {
        [] => {}
        [key] => {
            doc.insert(key.to_string(), value);
        }
        [key, rest @ ..] => {
            let inner = doc
                .entry(key.to_string())
                .or_insert_with(|| Json::Object(Map::new()));
            if let Json::Object(inner) = inner {
                put(inner, rest, value);
            }
        }
    }
}

impl Ranking {
    /// Into `doc`, the ranking settings `command`'s query reads, each at its place.
    pub fn show_for(&self, command: &str, doc: &mut Map<String, Json>) {
        self.show(|s| s.is_on(command), false, doc);
    }

    /// Into `doc`, every ranking setting, each at its place in an eval column.
    pub fn show_all(&self, doc: &mut Map<String, Json>) {
        self.show(|s| s.on.is_some(), true, doc);
    }

    fn show(&self, which: impl Fn(&Setting) -> bool, eval: bool, doc: &mut Map<String, Json>) {
        for setting in SETTINGS.iter().copied().filter(|s| which(s)) {
            if let Some(value) = self.value(setting.key) {
                put(doc, &place(setting, eval), value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::config::Config;

    /// Every named setting is a ranking setting, named once; a setting the table gives a
    /// query and the names leave out is shown under its field's name.
    #[test]
    fn each_ranking_setting_has_one_place() {
        for (setting, ..) in NAMED {
            assert!(
                setting.on.is_some(),
                "{} is not a ranking setting",
                setting.key
            );
            let named = NAMED.iter().filter(|(s, ..)| s.key == setting.key).count();
            assert_eq!(named, 1, "{}", setting.key);
        }
        let unnamed = crate::config::table::DROP_STOPWORDS;
        assert_eq!(place(&unnamed, false), ["drop_stopwords"]);
        assert_eq!(place(&HALF_LIFE_DAYS, true), ["half_life"]);
        assert_eq!(place(&CONTEXT_RADIUS, false), ["context", "radius"]);
    }

    /// A query shows the ranking settings it reads and no other; an eval column all.
    #[test]
    fn a_query_shows_the_settings_it_reads() {
        let mut r = Ranking::from_config(&Config::default());
        r.search.context_radius = 3;
        r.related.min_weight = 2.5;
        let mut search = Map::new();
        r.show_for("search", &mut search);
        assert_eq!(search["context"]["radius"], json!(3));
        assert_eq!(search["pool"], json!(r.search.candidate_pool));
        assert!(!search.contains_key("min_weight"), "{search:?}");
        let mut related = Map::new();
        r.show_for("related", &mut related);
        let keys: Vec<&String> = related.keys().collect();
        assert_eq!(
            keys,
            [
                "half_life_days",
                "min_joint_weight",
                "min_weight",
                "recency_weight",
                "rule",
                "sample"
            ]
        );
        assert_eq!(related["min_weight"], json!(2.5));
        let mut column = Map::new();
        r.show_all(&mut column);
        assert_eq!(column["related_min_weight"], json!(2.5));
        assert_eq!(column["context"]["radius"], json!(3));
        let places: std::collections::BTreeSet<&str> = SETTINGS
            .iter()
            .filter(|s| s.on.is_some())
            .map(|s| place(s, true)[0])
            .collect();
        let keys: std::collections::BTreeSet<&str> = column.keys().map(String::as_str).collect();
        assert_eq!(
            keys, places,
            "an eval column holds the ranking settings, no other"
        );
        assert!(places.contains("related_rule") && !places.contains("default_limit"));
    }
}
