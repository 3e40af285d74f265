//! Settings given for one call, by the flags a command takes from the table (`on`) or by
//! its MCP tool's arguments: each value as its declaration reads it, applied over the
//! configuration by the settings (`settings::Ranking::give`) and checked as the file's
//! line would be, named by its flag.
use serde_json::Value as Json;

use super::setting::Setting;
use super::table::SETTINGS;

#[derive(Debug, Clone, Default)]
pub struct Given {
    values: Vec<(&'static Setting, Result<Json, String>)>,
}

impl Given {
    pub fn push(&mut self, setting: &'static Setting, value: Json) {
        self.put(setting, Ok(value));
    }

    /// A flag's real number: JSON has no NaN or infinity, so one of those is refused here,
    /// with the words the check of the file's line would use, and reported when applied.
    pub fn push_real(&mut self, setting: &'static Setting, value: f64) {
        let value = match serde_json::Number::from_f64(value) {
            Some(n) => Ok(Json::Number(n)),
            None => Err(setting.flag_real(value).err().map_or_else(
                || format!("{}: not a number", setting.flag_name()),
                |e| e.message,
            )),
        };
        self.put(setting, value);
    }

    fn put(&mut self, setting: &'static Setting, value: Result<Json, String>) {
        self.values.retain(|(s, _)| s.key != setting.key);
        self.values.push((setting, value));
    }

    /// The values given, in the order given, each or the reason it was refused.
    pub fn values(&self) -> impl Iterator<Item = (&'static Setting, Result<&Json, &str>)> {
        self.values
            .iter()
            .map(|(s, v)| (*s, v.as_ref().map_err(String::as_str)))
    }
}

/// The settings `command` takes as flags made from the table, in its order.
pub fn of_command(command: &str) -> impl Iterator<Item = &'static Setting> + '_ {
    SETTINGS
        .iter()
        .copied()
        .filter(move |s| s.is_on(command) && s.flag.is_some())
}

/// The settings the MCP tool `tool` takes as arguments, in the table's order.
pub fn of_tool(tool: &str) -> impl Iterator<Item = &'static Setting> + '_ {
    SETTINGS
        .iter()
        .copied()
        .filter(move |s| s.is_on(tool) && s.mcp.is_some())
}
