//! The pieces of a tool's input schema: a type's schema as MCP takes it, a result count's
//! bounds, and the arguments that are declared settings (`config::table`), described by
//! their declaration with their range and the resolved configuration's value as the
//! default, so a client sees the values a call without the argument would use.
use std::sync::Arc;

use rmcp::handler::server::common::schema_for_input;
use rmcp::model::JsonObject;
use schemars::JsonSchema;
use serde_json::{json, Value as Json};

use crate::config::setting::Setting;
use crate::config::table::SETTINGS;
use crate::config::Config;
use recall_core::score::limit;

/// A type's input schema (root `type: object`, as MCP requires), its descriptions on one
/// line each (doc comments are wrapped at 90 columns, a client's display is not).
pub fn input<T: JsonSchema + 'static>() -> JsonObject {
    let mut schema = match schema_for_input::<T>() {
        Ok(schema) => Arc::unwrap_or_clone(schema),
        // Every input type here is a struct, whose schema is an object.
        Err(_) => JsonObject::new(),
    };
    let properties = schema.get_mut("properties").and_then(Json::as_object_mut);
    for property in properties.into_iter().flat_map(|p| p.values_mut()) {
        if let Some(Json::String(text)) = property.get_mut("description") {
            *text = text.replace('\n', " ");
        }
    }
    schema
}

/// A type's input schema whose `limit` is bounded by `max`, with the count a call
/// without it gets as its default.
pub fn limited<T: JsonSchema + 'static>(default: i64, max: i64) -> JsonObject {
    let mut schema = input::<T>();
    let default = limit(None, default, max);
    with(
        &mut schema,
        "limit",
        json!({ "minimum": 1, "maximum": max, "default": default }),
    );
    schema
}

/// Adds `keys` to the schema of property `name`.
fn with(schema: &mut JsonObject, name: &str, keys: Json) {
    let property = schema
        .get_mut("properties")
        .and_then(|p| p.get_mut(name))
        .and_then(Json::as_object_mut);
    if let (Some(property), Json::Object(keys)) = (property, keys) {
        property.extend(keys);
    }
}

/// The arguments that are declared settings: those `tool` takes from the table (`on`),
/// each a number that may be null, as schemars writes an optional field; then for each
/// the declaration's description (unless the tool words the argument for itself), and
/// unless declared `unranged` its range and, when set, the configuration's value as the
/// default.
pub fn settings(schema: &mut JsonObject, tool: &str, config: &Config) {
    if let Some(Json::Object(properties)) = schema.get_mut("properties") {
        for setting in crate::config::given::of_tool(tool) {
            let (Some(argument), Some(bound)) = (&setting.mcp, setting.bound()) else {
                continue;
            };
            let (kind, format) = match bound.integer {
                true => ("integer", "int64"),
                false => ("number", "double"),
            };
            properties.insert(
                argument.name.to_string(),
                json!({ "type": [kind, "null"], "format": format }),
            );
        }
    }
    let properties = schema.get_mut("properties").and_then(Json::as_object_mut);
    for (name, property) in properties.into_iter().flat_map(|p| p.iter_mut()) {
        let declared = SETTINGS
            .iter()
            .find(|s| s.mcp.as_ref().is_some_and(|a| a.name == name));
        let (Some(setting), Json::Object(property)) = (declared, property) else {
            continue;
        };
        property
            .entry("description")
            .or_insert_with(|| json!(setting.about()));
        if setting.mcp.as_ref().is_some_and(|a| a.ranged) {
            property.extend(range(setting));
            if let Some(default) = config.value(setting.key).filter(|v| !v.is_null()) {
                property.insert("default".to_string(), default);
            }
        }
    }
}

/// A setting's range as JSON Schema keywords: whole numbers as integers.
fn range(setting: &Setting) -> JsonObject {
    let mut keys = JsonObject::new();
    let Some(bound) = setting.bound() else {
        return keys;
    };
    let number = |n: f64| {
        if bound.integer {
            json!(n as i64)
        } else {
            json!(n)
        }
    };
    let low = if bound.above_min {
        "exclusiveMinimum"
    } else {
        "minimum"
    };
    keys.insert(low.to_string(), number(bound.min));
    keys.insert("maximum".to_string(), number(bound.max));
    keys
}
