//! `recall eval --set KEY=VALUE`: one more value over the configuration, read by its key's
//! type and checked by the file's own checks, so that it is refused as the same line in
//! the file would be (named `--set KEY`). The judge's and the embedder's commands have a switch instead, which
//! turns its stage on or off for the column.
use super::setting::Setting;
use super::table::SETTINGS;
use super::Config;
use crate::error::{err, Error, Result};

/// One column's settings: the configuration with the `--set` values over it, and the
/// stages switched on or off.
#[derive(Debug, Clone)]
pub struct Overlay {
    pub config: Config,
    switches: Vec<(&'static str, bool)>,
}

impl Overlay {
    pub fn new(config: &Config) -> Overlay {
        Overlay {
            config: config.clone(),
            switches: Vec::new(),
        }
    }

    /// One `--set key=value`.
    pub fn set(&mut self, key: &str, value: &str) -> Result<()> {
        let name = format!("--set {key}");
        let Some(setting) = keys().into_iter().find(|s| s.eval_key() == Some(key)) else {
            let known: Vec<&str> = keys().iter().filter_map(|s| s.eval_key()).collect();
            return Err(err!(
                "--set: unknown setting {key:?}; known: {}",
                known.join(", ")
            ));
        };
        if let Some(switch) = setting.eval.as_ref().and_then(|e| e.switch) {
            let on = match value {
                "on" => true,
                "off" => false,
                _ => return Err(err!("{name}: write on or off, got {value:?}")),
            };
            self.switches.retain(|(s, _)| *s != switch);
            self.switches.push((switch, on));
            return Ok(());
        }
        self.config
            .set_text(setting.key, &name, value)
            .map_err(Error::new)?;
        // Only this key changed: whatever the checks refuse, they refuse for it.
        self.config
            .check_each(&|_| name.clone())
            .map_err(Error::new)
    }

    /// Whether `--set` turned the stage of `setting` (the judge's or the embedder's command) on or off.
    pub fn switched(&self, setting: &Setting) -> Option<bool> {
        let switch = setting.eval.as_ref()?.switch?;
        self.switches
            .iter()
            .find(|(s, _)| *s == switch)
            .map(|(_, on)| *on)
    }
}

/// The settings `--set` takes, in the order they are listed.
fn keys() -> Vec<&'static Setting> {
    let mut keys: Vec<&'static Setting> = SETTINGS
        .iter()
        .copied()
        .filter(|s| s.eval.is_some())
        .collect();
    keys.sort_by_key(|s| s.eval.as_ref().map(|e| e.listed));
    keys
}

/// The help of `recall eval --set`: every key it takes.
pub fn help() -> String {
    let keys: Vec<String> = keys()
        .iter()
        .filter_map(|s| {
            let key = s.eval_key()?;
            let switch = s.eval.as_ref().and_then(|e| e.switch).is_some();
            Some(if switch {
                format!("{key} (on, off)")
            } else {
                key.to_string()
            })
        })
        .collect();
    format!(
        "Compare settings: KEY=V1,V2 (repeatable; every combination runs), for {}",
        keys.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_place_in_the_list_is_taken_once() {
        let places: Vec<u8> = keys()
            .iter()
            .filter_map(|s| s.eval.as_ref().map(|e| e.listed))
            .collect();
        let expected: Vec<u8> = (1..=places.len() as u8).collect();
        assert_eq!(places, expected);
    }

    #[test]
    fn a_value_is_refused_as_the_file_refuses_it() {
        let mut o = Overlay::new(&Config::default());
        o.set("search.context_weight", "0.5").unwrap();
        assert_eq!(o.config.search.context_weight, 0.5);
        let refused = |key: &str, value: &str| {
            Overlay::new(&Config::default())
                .set(key, value)
                .unwrap_err()
                .message
        };
        assert_eq!(
            refused("search.context_weight", "2"),
            "--set search.context_weight must be from 0 to 1, got 2"
        );
        assert_eq!(
            refused("judge.floor", "0.9"),
            "--set judge.floor must be at most the threshold 0.7, got 0.9"
        );
        assert_eq!(
            refused("search.prune_share", "x"),
            "--set search.prune_share: \"x\" is not a number or off"
        );
        assert!(refused("search.default_limit", "3").starts_with(
            "--set: unknown setting \"search.default_limit\"; known: search.recency_weight, "
        ));
        o.set("judge", "off").unwrap();
        assert_eq!(o.switched(&super::super::table::JUDGE_COMMAND), Some(false));
    }
}
