//! What a handler of the hook answers (`Answer`: nothing, a block of memory for the
//! agent's context, or `--json`'s document for a script) and how it is printed, once for
//! every event, in the form its entry of the table names (`Shown`). Also an item's line
//! in a block, which every handler writes alike.
use serde_json::{Map, Value};

/// A handler's answer.
pub enum Answer {
    Nothing,
    /// A block of memory for the agent's context (`memory_block`), and the lines of it
    /// (an item's line starts `- [ID]`, `item_line`; the lines telling one are indented).
    Context {
        text: String,
        lines: Vec<String>,
    },
    /// `--json`: the document's fields after `command` (`hook`) and `event` (its name).
    Json(Map<String, Value>),
}

/// How an event's context reaches the agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// `hookSpecificOutput.additionalContext`, with the event's name: the form both agents
    /// add to the context at the session start and around a tool.
    Additional,
    /// The block as it is: both agents add a prompt hook's standard output to the
    /// context.
    Plain,
    /// Never a context: nothing is printed but `--json`'s document (Codex reads a `Stop`
    /// hook's output as JSON).
    Never,
}

/// What the hook prints for an event: its text, the characters of the context the agent
/// is given in it (0: none, as for `--json`, which is for scripts), and the items that
/// context lists.
pub struct Printed {
    pub out: String,
    pub context: usize,
    pub items: Vec<i64>,
}

impl Answer {
    /// The answer, printed for the event `name` in the form `shown`.
    pub fn printed(self, name: &str, shown: Shown) -> Printed {
        let printed = |out: String| Printed {
            out,
            context: 0,
            items: Vec::new(),
        };
        match (self, shown) {
            (Answer::Nothing, _) | (Answer::Context { .. }, Shown::Never) => printed(String::new()),
            (Answer::Json(fields), _) => {
                let mut doc = Map::new();
                doc.insert("command".into(), "hook".into());
                doc.insert("event".into(), name.into());
                doc.extend(fields);
                printed(format!(
                    "{}\n",
                    serde_json::to_string_pretty(&Value::Object(doc)).unwrap_or_default()
                ))
            }
            (Answer::Context { text, lines }, shown) => {
                let out = match shown {
                    Shown::Additional => format!(
                        "{}\n",
                        serde_json::json!({
                            "hookSpecificOutput": { "hookEventName": name, "additionalContext": text }
                        })
                    ),
                    _ => text.clone(),
                };
                Printed {
                    out,
                    context: crate::memory_block::chars(&text),
                    items: ids_of(&lines),
                }
            }
        }
    }
}

/// `--json`'s fields, from `json!({…})`'s object.
pub fn fields(doc: Value) -> Map<String, Value> {
    match doc {
        Value::Object(fields) => fields,
        _ => Map::new(),
    }
}

/// The ids of the items among a block's lines: each item's line starts `- [ID]`
/// (`item_line`); the lines telling one are indented.
fn ids_of(lines: &[String]) -> Vec<i64> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("- [")?.split_once(']')?.0.parse().ok())
        .collect()
}

/// One item as a line of a block: id, date, title, then its project where asked, its
/// kind and whether it holds in every project; stored text escaped as in every listing
/// (`output::RowText`), so that a title cannot add lines.
pub fn item_line(item: &crate::query::rows::Listed, with_project: bool) -> String {
    let t = crate::output::RowText::of(item);
    let about: Vec<String> = t
        .project
        .filter(|p| with_project && !p.is_empty())
        .map(|p| format!("project {p}"))
        .into_iter()
        .chain(t.marks)
        .collect();
    let about = match about.is_empty() {
        true => String::new(),
        false => format!(" ({})", about.join(", ")),
    };
    format!("- [{}] {} {}{about}{}\n", t.id, t.date, t.title, t.changed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::rows::Listed;

    #[test]
    fn an_answer_is_printed_in_its_event_s_form() {
        let lines = vec![
            "- [14] 2024-06-02 Remove analytics\n".to_string(),
            "  Recap: gone\n".to_string(),
            "- [3] 2023-01-05 Add \"tax\"\n".to_string(),
        ];
        let text = "<memory>\n- [14] …\n</memory>\nHow to use é\n".to_string();
        let context = || Answer::Context {
            text: text.clone(),
            lines: lines.clone(),
        };
        let given = context().printed("PreToolUse", Shown::Additional);
        let doc: Value = serde_json::from_str(&given.out).unwrap();
        assert_eq!(
            doc,
            serde_json::json!({"hookSpecificOutput": {
                "hookEventName": "PreToolUse", "additionalContext": text}})
        );
        assert!(given.out.ends_with("}\n") && !given.out.contains("\n  "));
        assert_eq!(
            (given.context, given.items),
            (text.chars().count(), vec![14, 3])
        );
        let plain = context().printed("UserPromptSubmit", Shown::Plain);
        assert_eq!(plain.out, text);
        assert_eq!(
            (plain.context, plain.items),
            (text.chars().count(), vec![14, 3])
        );
        // A context where none is given, nothing, and a script's document give none.
        let never = context().printed("Stop", Shown::Never);
        assert_eq!((never.out.as_str(), never.context), ("", 0));
        let nothing = Answer::Nothing.printed("SessionStart", Shown::Additional);
        assert_eq!((nothing.out.as_str(), nothing.context), ("", 0));
        let json = Answer::Json(fields(serde_json::json!({"results": [1], "pid": null})))
            .printed("Stop", Shown::Never);
        assert_eq!(
            serde_json::from_str::<Value>(&json.out).unwrap(),
            serde_json::json!({"command": "hook", "event": "Stop", "results": [1], "pid": null})
        );
        assert!(json.out.ends_with("}\n") && json.out.contains("\n  \"command\": \"hook\""));
        assert_eq!((json.context, json.items), (0, Vec::new()));
    }

    #[test]
    fn an_item_line_names_id_date_title_and_project() {
        let item = |id, date: &str, title: &str, project: Option<&str>| Listed {
            id,
            date: date.into(),
            title: title.into(),
            project: project.map(str::to_string),
            source: "agent".into(),
            kind: None,
            global: false,
            changed_since: Vec::new(),
        };
        let shop = item(14, "2024-06-02T10:00:00Z", "Remove analytics", Some("shop"));
        assert_eq!(
            item_line(&shop, true),
            "- [14] 2024-06-02 Remove analytics (project shop)\n"
        );
        assert_eq!(
            item_line(&shop, false),
            "- [14] 2024-06-02 Remove analytics\n"
        );
        let raw = item(3, "2023-01-05T00:00:00Z", "a\nb\u{1b}[31m", None);
        assert_eq!(item_line(&raw, true), "- [3] 2023-01-05 a\\nb\\u{1b}[31m\n");
    }
}
