//! What the table of settings (`table.rs`) says about each one (`Setting`), and the macro
//! that makes the configuration's types, defaults, checks and `--set` reading from it.
use serde_json::Value as Json;

use super::{Config, Fusion, RelatedRule};
use crate::bounds::{short, Bound};
use crate::error::{Error, Result};

/// One setting, as the table declares it.
#[derive(Debug)]
pub struct Setting {
    /// `section.name`: the key of the configuration file and of `recall eval --set`.
    pub key: &'static str,
    /// One line: what it is (the MCP argument's description). `{min}`, `{max}` and
    /// `{default}` stand for the declared values.
    pub about: &'static str,
    pub range: Range,
    pub flag: Option<Flag>,
    pub mcp: Option<Argument>,
    pub eval: Option<Eval>,
    /// The commands whose flag (and MCP tool's argument) it is, and the parameter their
    /// query files bind it to.
    pub on: Option<On>,
    /// What leaving an optional key out means, as docs/configuration.md says it.
    pub absent: Option<&'static str>,
}

/// The values a setting takes.
#[derive(Debug)]
pub enum Range {
    /// A number in a range (whole when the bound says so).
    Number(Bound),
    /// `true` or `false`.
    Bool,
    /// A rule of `related` by name (`RelatedRule::NAMES`).
    Rule,
    /// A fusion of search's two lists by name (`Fusion::NAMES`).
    Fusion,
    /// A known tokenizer (`tokenizer::parse`).
    Tokenizer,
    /// A process's command line; the text names the process ("the judge").
    Command(&'static str),
    /// Globs of sources (`access::check_glob`).
    Globs,
    /// An item's source, as an item's own is checked.
    Source,
    /// Kinds of memory, each a short lowercase word (`item::kind_shape`).
    Kinds,
    /// Names of agents' hook events that capture a session (`config::hook_events`).
    Events,
}

/// A setting's command-line flag.
#[derive(Debug)]
pub struct Flag {
    /// Without the dashes.
    pub long: &'static str,
    /// The help text, with the placeholders of `Setting::about`.
    pub help: &'static str,
    /// The value's name in the help (`--weight <WEIGHT>`), for a flag made from the table.
    pub value_name: Option<&'static str>,
    /// Whether the flag's value is brought into the range rather than refused (a cost,
    /// not a meaning).
    pub clamped: bool,
}

/// A setting that a query command takes as a flag of its own, made from the table: the
/// commands (`search`, `related`, `hook`), whose MCP tools take its argument too, and the
/// named parameter the query files of `sql/` read it as.
#[derive(Debug)]
pub struct On {
    pub commands: &'static [&'static str],
    pub param: Option<&'static str>,
}

/// A setting's argument in the MCP query tools.
#[derive(Debug)]
pub struct Argument {
    pub name: &'static str,
    /// Whether the argument's schema carries the range and the default.
    pub ranged: bool,
}

/// A setting that `recall eval --set` varies.
#[derive(Debug)]
pub struct Eval {
    /// Its place in the list of keys that `recall eval --help` shows.
    pub listed: u8,
    /// For the judge's or the embedder's command: the key that turns its stage `on` or
    /// `off` instead.
    pub switch: Option<&'static str>,
}

impl Setting {
    /// The flag's long name (for clap's `long`).
    pub const fn long(&self) -> &'static str {
        match &self.flag {
            Some(flag) => flag.long,
            None => panic!("a setting without a flag"),
        }
    }

    /// The flag as messages name it: `--context-weight`.
    pub fn flag_name(&self) -> String {
        format!("--{}", self.long())
    }

    /// The flag's help text.
    pub fn help(&self) -> String {
        self.fill(self.flag.as_ref().map_or("", |f| f.help))
    }

    /// The one-line description.
    pub fn about(&self) -> String {
        self.fill(self.about.trim())
    }

    /// Whether `command` takes it as a flag made from the table (`on`).
    pub fn is_on(&self, command: &str) -> bool {
        self.on
            .as_ref()
            .is_some_and(|on| on.commands.contains(&command))
    }

    /// The named parameter its queries read, for the queries of `command`.
    pub fn param_of(&self, command: &str) -> Option<&'static str> {
        self.on
            .as_ref()
            .filter(|on| on.commands.contains(&command))
            .and_then(|on| on.param)
    }

    /// The key `recall eval --set` takes, if any: the key, or its stage's switch.
    pub fn eval_key(&self) -> Option<&'static str> {
        self.eval.as_ref().map(|e| e.switch.unwrap_or(self.key))
    }

    pub fn bound(&self) -> Option<&Bound> {
        match &self.range {
            Range::Number(bound) => Some(bound),
            _ => None,
        }
    }

    /// The value, or the message naming `name` and the range.
    pub fn check(&self, name: &str, value: f64) -> std::result::Result<f64, String> {
        match self.bound() {
            Some(bound) => bound.check(name, value),
            None => Ok(value),
        }
    }

    /// A whole number: the value, or the message naming `name` and the range.
    pub fn check_int(&self, name: &str, value: i64) -> std::result::Result<i64, String> {
        match self.bound() {
            Some(bound) => bound.check_int(name, value),
            None => Ok(value),
        }
    }

    /// The flag's number, checked as the configuration's.
    pub fn flag_real(&self, value: f64) -> Result<f64> {
        self.check(&self.flag_name(), value).map_err(Error::new)
    }

    /// The flag's text, checked as the configuration's.
    pub fn flag_text(&self, value: &str) -> Result<String> {
        let value = value.to_string();
        Value::check(&value, self, &self.flag_name()).map_err(Error::new)?;
        Ok(value)
    }

    /// A whole number brought into the range (for a value that is a cost, not a meaning).
    pub fn clamp(&self, value: i64) -> i64 {
        match self.bound() {
            Some(b) => value.clamp(b.min as i64, b.max as i64),
            None => value,
        }
    }

    /// `template` with the declared range and default written in.
    fn fill(&self, template: &str) -> String {
        let mut text = template.to_string();
        if let Some(bound) = self.bound() {
            text = text
                .replace("{min}", &short(bound.min))
                .replace("{max}", &short(bound.max));
        }
        if text.contains("{default}") {
            let default = Config::default().value(self.key).unwrap_or(Json::Null);
            text = text.replace("{default}", &shown(&default));
        }
        text
    }
}

/// A default as help texts show it: numbers short, text bare.
pub fn shown(value: &Json) -> String {
    match value {
        Json::Number(n) if n.is_f64() => short(n.as_f64().unwrap_or_default()),
        Json::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// How the configuration reads, checks and shows the type of a setting's value.
pub trait Value: Sized {
    /// Whether the value is in the setting's range; the message names `name`.
    fn check(&self, setting: &Setting, name: &str) -> std::result::Result<(), String>;
    /// A value written as text (`recall eval --set`); the message names `name`.
    fn parse(name: &str, text: &str) -> std::result::Result<Self, String>;
    fn json(&self) -> Json;
}

impl Value for f64 {
    fn check(&self, setting: &Setting, name: &str) -> std::result::Result<(), String> {
        setting.check(name, *self).map(drop)
    }

    fn parse(name: &str, text: &str) -> std::result::Result<Self, String> {
        text.parse()
            .map_err(|_| format!("{name}: {text:?} is not a number"))
    }

    fn json(&self) -> Json {
        Json::from(*self)
    }
}

impl Value for i64 {
    fn check(&self, setting: &Setting, name: &str) -> std::result::Result<(), String> {
        setting.check_int(name, *self).map(drop)
    }

    fn parse(name: &str, text: &str) -> std::result::Result<Self, String> {
        text.parse()
            .map_err(|_| format!("{name}: {text:?} is not a whole number"))
    }

    fn json(&self) -> Json {
        Json::from(*self)
    }
}

impl Value for bool {
    fn check(&self, _: &Setting, _: &str) -> std::result::Result<(), String> {
        Ok(())
    }

    fn parse(name: &str, text: &str) -> std::result::Result<Self, String> {
        text.parse()
            .map_err(|_| format!("{name}: write true or false, got {text:?}"))
    }

    fn json(&self) -> Json {
        Json::from(*self)
    }
}

impl Value for RelatedRule {
    fn check(&self, _: &Setting, _: &str) -> std::result::Result<(), String> {
        Ok(())
    }

    fn parse(name: &str, text: &str) -> std::result::Result<Self, String> {
        RelatedRule::from_name(text).ok_or_else(|| {
            format!(
                "{name}: unknown rule {text:?}; the rules are {}",
                RelatedRule::NAMES.join(" and ")
            )
        })
    }

    fn json(&self) -> Json {
        Json::from(self.name())
    }
}

impl Value for Fusion {
    fn check(&self, _: &Setting, _: &str) -> std::result::Result<(), String> {
        Ok(())
    }

    fn parse(name: &str, text: &str) -> std::result::Result<Self, String> {
        Fusion::from_name(text).ok_or_else(|| {
            format!(
                "{name}: unknown fusion {text:?}; the fusions are {}",
                Fusion::NAMES.join(" and ")
            )
        })
    }

    fn json(&self) -> Json {
        Json::from(self.name())
    }
}

impl Value for String {
    fn check(&self, setting: &Setting, name: &str) -> std::result::Result<(), String> {
        match setting.range {
            Range::Tokenizer => crate::tokenizer::parse(self)
                .map(drop)
                .map_err(|e| format!("{name}: {}", e.message)),
            Range::Command(process) => crate::line_process::check_command(self, process)
                .map(drop)
                .map_err(|e| format!("{name}: {e}")),
            Range::Source => crate::item::check_source(self).map_err(|e| format!("{name}: {e}")),
            _ => Ok(()),
        }
    }

    fn parse(_: &str, text: &str) -> std::result::Result<Self, String> {
        Ok(text.to_string())
    }

    fn json(&self) -> Json {
        Json::from(self.as_str())
    }
}

impl Value for Vec<String> {
    fn check(&self, setting: &Setting, name: &str) -> std::result::Result<(), String> {
        match setting.range {
            Range::Kinds => self
                .iter()
                .try_for_each(|kind| crate::item::kind_shape(name, kind)),
            Range::Events => super::hook_events::check(name, self),
            _ => self
                .iter()
                .try_for_each(|glob| crate::access::check_glob(name, glob)),
        }
    }

    fn parse(_: &str, text: &str) -> std::result::Result<Self, String> {
        Ok(vec![text.to_string()])
    }

    fn json(&self) -> Json {
        Json::from(self.clone())
    }
}

/// An optional setting: absent is valid; `--set` writes `off` (or `none`) for absent.
impl<T: Value> Value for Option<T> {
    fn check(&self, setting: &Setting, name: &str) -> std::result::Result<(), String> {
        self.as_ref().map_or(Ok(()), |v| v.check(setting, name))
    }

    fn parse(name: &str, text: &str) -> std::result::Result<Self, String> {
        match text {
            "off" | "none" => Ok(None),
            _ => T::parse(name, text)
                .map(Some)
                .map_err(|e| format!("{e} or off")),
        }
    }

    fn json(&self) -> Json {
        self.as_ref().map_or(Json::Null, Value::json)
    }
}

/// The table's optional parts: present, or None.
macro_rules! some {
    () => {
        None
    };
    ($value:expr) => {
        Some($value)
    };
}

/// A flag's value is clamped when the table says `clamped`.
macro_rules! clamped {
    () => {
        false
    };
    (clamped) => {
        true
    };
}

/// An MCP argument is ranged unless the table says `unranged`.
macro_rules! ranged {
    () => {
        true
    };
    (unranged) => {
        false
    };
}

/// The table of settings (`table.rs`): per section of the configuration file its struct,
/// per key a line group: the doc comment (its one-line description), its constant's
/// name, field, type, default and range, then what it has of a flag, an MCP argument, a
/// place in `recall eval --set`, a meaning when absent, and a rule across keys.
macro_rules! declare {
    ($(
        $(#[$section_meta:meta])*
        [$section:ident] $Section:ident {
            $(
                $(#[doc = $about:literal])*
                $NAME:ident $field:ident: $ty:ty = $default:expr, $range:expr
                $(, flag($long:literal, $help:literal $(, $value_name:literal)? $(, $clamped:ident)?))?
                $(, mcp($arg:literal $(, $unranged:ident)?))?
                $(, eval($listed:literal $(, switch $switch:literal)?))?
                $(, on([$($command:ident)+] $(, $param:literal)?))?
                $(, absent($absent:literal))?
                $(, also($rule:path))?
                ;
            )*
        }
    )*) => {
        $(
            #[derive(Debug, Clone, serde::Deserialize)]
            #[serde(deny_unknown_fields, default)]
            $(#[$section_meta])*
            pub struct $Section {
                $(
                    $(#[doc = $about])*
                    pub $field: $ty,
                )*
            }

            impl Default for $Section {
                fn default() -> Self {
                    $Section {
                        $($field: $default,)*
                    }
                }
            }

            #[allow(dead_code)]
            impl $Section {
                /// Writes the value of `key` given as JSON (a flag's or a tool argument's),
                /// checked as the file's line would be; `name` is how a message calls it.
                /// False for a key of another section.
                pub(crate) fn set_json(
                    &mut self,
                    key: &str,
                    name: &str,
                    value: serde_json::Value,
                ) -> std::result::Result<bool, String> {
                    use $crate::config::setting::Value;
                    $(
                        if key == $NAME.key {
                            let value: $ty = serde_json::from_value(value)
                                .map_err(|e| format!("{name}: {e}"))?;
                            value.check(&$NAME, name)?;
                            self.$field = value;
                            return Ok(true);
                        }
                    )*
                    Ok(false)
                }

                /// The value of `key` as JSON (null when absent); None for a key of
                /// another section.
                pub fn value(&self, key: &str) -> Option<serde_json::Value> {
                    use $crate::config::setting::Value;
                    $(
                        if key == $NAME.key {
                            return Some(self.$field.json());
                        }
                    )*
                    None
                }
            }

            $(
                $(#[doc = $about])*
                pub const $NAME: $crate::config::setting::Setting = $crate::config::setting::Setting {
                    key: concat!(stringify!($section), ".", stringify!($field)),
                    about: concat!($($about),*),
                    range: $range,
                    flag: $crate::config::setting::some!($($crate::config::setting::Flag {
                        long: $long,
                        help: $help,
                        value_name: $crate::config::setting::some!($($value_name)?),
                        clamped: $crate::config::setting::clamped!($($clamped)?),
                    })?),
                    mcp: $crate::config::setting::some!($($crate::config::setting::Argument {
                        name: $arg,
                        ranged: $crate::config::setting::ranged!($($unranged)?),
                    })?),
                    eval: $crate::config::setting::some!($($crate::config::setting::Eval {
                        listed: $listed,
                        switch: $crate::config::setting::some!($($switch)?),
                    })?),
                    on: $crate::config::setting::some!($($crate::config::setting::On {
                        commands: &[$(stringify!($command)),+],
                        param: $crate::config::setting::some!($($param)?),
                    })?),
                    absent: $crate::config::setting::some!($($absent)?),
                };
            )*
        )*

        /// The configuration file, section by section (every section optional).
        #[derive(Debug, Default, Clone, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct Config {
            $(
                #[serde(default)]
                pub $section: $Section,
            )*
            /// `[projects]`: folder prefixes and the project each names, for the items
            /// `capture` makes and the hook's session start (`crate::config::projects`).
            #[serde(default)]
            pub projects: std::collections::BTreeMap<String, String>,
            /// `[tokens.NAME]`: the bearer tokens of `recall mcp --http`
            /// (`crate::config::tokens`).
            #[serde(default)]
            pub tokens: std::collections::BTreeMap<String, $crate::config::tokens::Token>,
        }

        /// Every setting, in the order of the configuration's types.
        pub const SETTINGS: &[&$crate::config::setting::Setting] = &[$($(&$NAME,)*)*];

        impl Config {
            /// Checks every value in the order declared; `name` says how a message calls
            /// a key.
            pub(crate) fn check_each(
                &self,
                name: &dyn Fn(&str) -> String,
            ) -> std::result::Result<(), String> {
                use $crate::config::setting::Value;
                $($(
                    self.$section.$field.check(&$NAME, &name($NAME.key))?;
                    $($rule(self, &name($NAME.key))?;)?
                )*)*
                Ok(())
            }

            /// Writes the value of `key` given as text; `name` is how a message calls it.
            /// False for a key the table does not declare.
            pub(crate) fn set_text(
                &mut self,
                key: &str,
                name: &str,
                text: &str,
            ) -> std::result::Result<bool, String> {
                use $crate::config::setting::Value;
                $($(
                    if key == $NAME.key {
                        self.$section.$field = Value::parse(name, text)?;
                        return Ok(true);
                    }
                )*)*
                Ok(false)
            }

            /// The value of `key` as JSON (null when absent); None for an undeclared key.
            pub fn value(&self, key: &str) -> Option<serde_json::Value> {
                None$(.or_else(|| self.$section.value(key)))*
            }
        }
    };
}

pub(crate) use {clamped, declare, ranged, some};
