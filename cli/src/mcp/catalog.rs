//! The tools as clients list them, from the table (`serve::table`): name, description,
//! input schema and hints, in the table's order. An argument that is a declared setting
//! (`config::table`) is described by its declaration (`schema::settings`).
use rmcp::model::Tool;

use crate::config::Config;
use crate::serve::schema;
use crate::serve::table::{Access, TOOLS};

/// Every tool this server offers: the writes only when it may write.
pub fn tools(config: &Config, writes: bool) -> Vec<Tool> {
    TOOLS
        .iter()
        .filter(|t| writes || t.access == Access::Read)
        .map(|t| {
            let mut input = (t.input)(config);
            schema::settings(&mut input, t.name, config);
            Tool::new(t.name, (t.description)(config), input).with_annotations((t.hints)())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::config::setting::Setting;

    /// Each setting a tool takes from the table is a property of its schema: a number
    /// (whole for a whole setting) that may be null, described by its declaration, and
    /// ranged with the configuration's default unless declared `unranged`.
    #[test]
    fn a_tools_settings_are_in_its_schema() {
        let mut config = Config::default();
        config.search.recency_weight = 0.3;
        let tools = tools(&config, false);
        for name in ["search", "related"] {
            let tool = tools.iter().find(|t| t.name == name).expect("the tool");
            let properties = tool.input_schema["properties"]
                .as_object()
                .expect("properties");
            let declared: Vec<&Setting> = crate::config::given::of_tool(name).collect();
            assert!(!declared.is_empty(), "{name}");
            for setting in declared {
                let argument = setting.mcp.as_ref().expect("an argument");
                let p = &properties[argument.name];
                let kind = if setting.bound().is_some_and(|b| b.integer) {
                    "integer"
                } else {
                    "number"
                };
                assert_eq!(p["type"], json!([kind, "null"]), "{name} {}", argument.name);
                assert_eq!(
                    p["description"],
                    json!(setting.about()),
                    "{name} {}",
                    argument.name
                );
                assert_eq!(
                    p.get("maximum").is_some(),
                    argument.ranged,
                    "{}",
                    argument.name
                );
            }
            assert_eq!(properties["weight"]["default"], json!(0.3), "{name}");
        }
        let later = tools.iter().find(|t| t.name == "later").expect("later");
        assert!(later.input_schema["properties"].get("weight").is_none());
    }
}
