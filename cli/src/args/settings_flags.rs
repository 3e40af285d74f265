//! The flags of the ranking settings, made from their declarations (`config::table`'s
//! `on`): each its long name, value name, help and kind of value, on the commands the
//! declaration names. What a flag gives is read into a `Given`, which the settings apply
//! over the configuration as `recall eval --set` applies its values.
use clap::builder::{EnumValueParser, ValueParser};
use clap::{Arg, ArgAction, ArgMatches, Command};
use serde_json::Value as Json;

use crate::config::given::{self, Given};
use crate::config::setting::{Range, Setting};
use crate::config::RelatedRule;

/// The kind of value a made flag reads, by its declaration's range.
fn parser(setting: &Setting) -> ValueParser {
    match &setting.range {
        Range::Number(bound) if bound.integer => clap::value_parser!(i64).into(),
        Range::Number(_) => clap::value_parser!(f64).into(),
        Range::Rule => EnumValueParser::<RelatedRule>::new().into(),
        // The table gives `on` only to settings of these kinds (tested below).
        _ => clap::value_parser!(String),
    }
}

/// `cmd` with the flags of `command`'s settings.
fn augment(command: &str, mut cmd: Command) -> Command {
    for setting in given::of_command(command) {
        let Some(flag) = &setting.flag else { continue };
        let mut arg = Arg::new(setting.key)
            .long(flag.long)
            .help(setting.help())
            .action(ArgAction::Set)
            .value_parser(parser(setting));
        if let Some(name) = flag.value_name {
            arg = arg.value_name(name);
        }
        cmd = cmd.arg(arg);
    }
    cmd
}

/// What the flags of `command` gave, as JSON values of their settings' types.
fn read(command: &str, matches: &ArgMatches) -> Given {
    let mut given = Given::default();
    for setting in given::of_command(command) {
        let value = match &setting.range {
            Range::Number(bound) if bound.integer => {
                one::<i64>(matches, setting.key).map(Json::from)
            }
            Range::Number(_) => {
                if let Some(real) = one::<f64>(matches, setting.key) {
                    given.push_real(setting, real);
                }
                continue;
            }
            Range::Rule => one::<RelatedRule>(matches, setting.key).map(|r| Json::from(r.name())),
            _ => one::<String>(matches, setting.key).map(Json::from),
        };
        if let Some(value) = value {
            given.push(setting, value);
        }
    }
    given
}

/// The flag's value, when given (and when the matches are of a command that has it).
fn one<T: Clone + Send + Sync + 'static>(matches: &ArgMatches, id: &str) -> Option<T> {
    matches.try_get_one::<T>(id).ok().flatten().cloned()
}

/// One command's flags made from the table.
macro_rules! settings_flags {
    ($(#[$meta:meta])* $Name:ident, $command:literal) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default)]
        pub struct $Name {
            pub given: Given,
        }

        impl clap::FromArgMatches for $Name {
            fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
                Ok($Name {
                    given: read($command, matches),
                })
            }

            fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
                *self = Self::from_arg_matches(matches)?;
                Ok(())
            }
        }

        impl clap::Args for $Name {
            fn augment_args(cmd: Command) -> Command {
                augment($command, cmd)
            }

            fn augment_args_for_update(cmd: Command) -> Command {
                augment($command, cmd)
            }
        }
    };
}

settings_flags!(
    /// `recall search`'s ranking flags.
    SearchFlags,
    "search"
);
settings_flags!(
    /// `recall related`'s ranking flags.
    RelatedFlags,
    "related"
);
settings_flags!(
    /// The ranking flags `recall hook` passes to its prompt's `related`.
    HookFlags,
    "hook"
);

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};
    use serde_json::json;

    use super::*;
    use crate::args::{Cli, Command as Sub};
    use crate::config::table::SETTINGS;

    /// A made flag reads a number or a rule: the kinds `parser` and `read` know.
    #[test]
    fn only_numbers_and_rules_are_made() {
        for setting in SETTINGS.iter().filter(|s| s.on.is_some()) {
            assert!(
                matches!(setting.range, Range::Number(_) | Range::Rule),
                "{}: a flag made from the table reads a number or a rule",
                setting.key
            );
            assert!(
                setting.flag.is_some(),
                "{}: `on` without a flag",
                setting.key
            );
        }
    }

    /// Each made flag is on the commands its declaration names and on no other, with
    /// the declaration's value name.
    #[test]
    fn each_made_flag_is_on_the_commands_it_names() {
        let cli = Cli::command();
        for setting in SETTINGS.iter().filter(|s| s.on.is_some()) {
            let flag = setting.flag.as_ref().expect("a flag");
            for sub in cli.get_subcommands() {
                let arg = sub
                    .get_arguments()
                    .find(|a| a.get_long() == Some(flag.long));
                assert_eq!(
                    arg.is_some(),
                    setting.is_on(sub.get_name()),
                    "{} --{} on {}",
                    setting.key,
                    flag.long,
                    sub.get_name()
                );
                if let (Some(arg), Some(name)) = (arg, flag.value_name) {
                    let names: Vec<String> = arg
                        .get_value_names()
                        .unwrap_or_default()
                        .iter()
                        .map(ToString::to_string)
                        .collect();
                    assert_eq!(names, [name], "{}", setting.key);
                }
            }
        }
    }

    /// What a made flag gives is its setting's value, of its type; a flag left out gives
    /// nothing; a value that is not of the kind is refused by clap.
    #[test]
    fn a_flag_gives_its_setting_a_value() {
        let given = |line: &str| -> Vec<(&'static str, Json)> {
            let cli = Cli::try_parse_from(line.split_whitespace()).expect("parses");
            let given = match cli.command {
                Sub::Search(a) => a.settings.given,
                Sub::Related(a) => a.settings.given,
                Sub::Hook(a) => a.settings.given,
                _ => panic!("not a command with made flags"),
            };
            given
                .values()
                .map(|(s, v)| {
                    (
                        s.key,
                        v.cloned()
                            .unwrap_or_else(|refused| json!({ "refused": refused })),
                    )
                })
                .collect()
        };
        assert_eq!(
            given("recall search x --weight 0.5 --pool 5 --context-radius 2"),
            [
                ("search.candidate_pool", json!(5)),
                ("search.recency_weight", json!(0.5)),
                ("search.context_radius", json!(2)),
            ]
        );
        assert_eq!(given("recall search x"), []);
        assert_eq!(
            given("recall related p --rule jezero --half-life 7"),
            [
                ("search.recency_half_life_days", json!(7.0)),
                ("related.rule", json!("jezero")),
            ]
        );
        assert_eq!(
            given("recall hook --min-weight 1"),
            [("related.min_weight", json!(1.0))]
        );
        // JSON holds no NaN or infinity: such a value is refused as its check words it.
        assert_eq!(
            given("recall search x --weight NaN --half-life inf"),
            [
                (
                    "search.recency_half_life_days",
                    json!({ "refused": "--half-life must be above 0 and at most 1000000, got inf" })
                ),
                (
                    "search.recency_weight",
                    json!({ "refused": "--weight must be from 0 to 1, got NaN" })
                ),
            ]
        );
        for bad in [
            "recall search x --pool 2.5",
            "recall search x --weight much",
            "recall related p --rule cosine",
            "recall hook --weight 0.5",
        ] {
            assert!(
                Cli::try_parse_from(bad.split_whitespace()).is_err(),
                "{bad}"
            );
        }
    }
}
