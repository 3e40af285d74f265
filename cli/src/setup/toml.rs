//! Codex's `config.toml`: the table `[mcp_servers.recall]` and the trust Codex records
//! for hooks (`[hooks.state."KEY"] trusted_hash`), edited with `toml_edit`, which keeps
//! every comment, blank line and the order of everything else byte for byte; and the
//! hooks wired through `[hooks]` tables, read.
use toml_edit::{Array, DocumentMut, Item, Table, Value};

use super::{recall_program, SERVER};

pub fn parse(text: Option<&str>) -> Result<DocumentMut, String> {
    text.unwrap_or("")
        .parse::<DocumentMut>()
        .map_err(|e| format!("not valid TOML: {}", one_line(&e.to_string())))
}

fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.chars().all(|c| c == '|' || c == '^' || c == ' '))
        .collect::<Vec<_>>()
        .join(" ")
}

fn command_of(entry: &Item) -> Option<&str> {
    entry.as_table_like()?.get("command")?.as_str()
}

fn args_of(entry: &Item) -> Vec<String> {
    entry
        .as_table_like()
        .and_then(|t| t.get("args"))
        .and_then(Item::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Sets `[mcp_servers.recall]` to run `program` with `args`, keeping the entry's other
/// keys (a `startup_timeout_sec`, an `env`); an entry of that name that runs another
/// program is refused.
pub fn set_server(doc: &mut DocumentMut, program: &str, args: &[String]) -> Result<(), String> {
    let root = doc.as_table_mut();
    if !root.contains_key("mcp_servers") {
        let mut t = Table::new();
        t.set_implicit(true);
        root.insert("mcp_servers", Item::Table(t));
    }
    let servers = root
        .get_mut("mcp_servers")
        .and_then(Item::as_table_like_mut)
        .ok_or("`mcp_servers` is not a table")?;
    if let Some(entry) = servers.get(SERVER) {
        match command_of(entry) {
            Some(c) if recall_program(c) => {}
            Some(c) => {
                return Err(format!(
                    "`mcp_servers.{SERVER}` runs `{c}`, not recall: rename or remove that server"
                ))
            }
            None => return Err(format!("`mcp_servers.{SERVER}` has no command")),
        }
        if command_of(entry) == Some(program) && args_of(entry) == args {
            return Ok(());
        }
    } else {
        servers.insert(SERVER, Item::Table(Table::new()));
    }
    let entry = servers
        .get_mut(SERVER)
        .and_then(Item::as_table_like_mut)
        .ok_or_else(|| format!("`mcp_servers.{SERVER}` is not a table"))?;
    entry.insert("command", Item::Value(Value::from(program)));
    let args: Array = args.iter().map(String::as_str).collect();
    entry.insert("args", Item::Value(Value::Array(args)));
    Ok(())
}

/// Takes `[mcp_servers.recall]` out when it is recall's; `mcp_servers` left empty goes.
pub fn remove_server(doc: &mut DocumentMut) {
    let root = doc.as_table_mut();
    let Some(servers) = root
        .get_mut("mcp_servers")
        .and_then(Item::as_table_like_mut)
    else {
        return;
    };
    if servers
        .get(SERVER)
        .and_then(command_of)
        .is_some_and(recall_program)
    {
        servers.remove(SERVER);
    }
    if servers.is_empty() {
        root.remove("mcp_servers");
    }
}

/// recall's entry: its command, arguments and `env.RECALL_DB`, when it is recall's.
pub fn wired_server(doc: &DocumentMut) -> Option<(String, Vec<String>, Option<String>)> {
    let entry = doc.get("mcp_servers")?.as_table_like()?.get(SERVER)?;
    let command = command_of(entry).filter(|c| recall_program(c))?;
    let env_db = entry
        .as_table_like()
        .and_then(|t| t.get("env"))
        .and_then(Item::as_table_like)
        .and_then(|env| env.get("RECALL_DB"))
        .and_then(Item::as_str)
        .map(str::to_string);
    Some((command.to_string(), args_of(entry), env_db))
}

/// The setting that turns Codex's hooks off, when one does: `[features] hooks = false`,
/// or its older name `codex_hooks = false` (an alias Codex still reads).
pub fn hooks_off(doc: &DocumentMut) -> Option<&'static str> {
    let features = doc.get("features").and_then(Item::as_table_like)?;
    ["hooks", "codex_hooks"]
        .into_iter()
        .find(|k| features.get(k).and_then(Item::as_bool) == Some(false))
}

/// The `hooks.state` table, where Codex records each hook's trust by its key.
fn states(doc: &DocumentMut) -> Option<&dyn toml_edit::TableLike> {
    doc.get("hooks")?
        .as_table_like()?
        .get("state")?
        .as_table_like()
}

/// The trusted hash recorded for each hook key (`[hooks.state."KEY"] trusted_hash`).
pub fn trusted_hashes(doc: &DocumentMut) -> Vec<(String, String)> {
    let Some(states) = states(doc) else {
        return Vec::new();
    };
    states
        .iter()
        .filter_map(|(key, state)| {
            let hash = state.as_table_like()?.get("trusted_hash")?.as_str()?;
            Some((key.to_string(), hash.to_string()))
        })
        .collect()
}

/// An implicit table under `parent` (created when missing; no header of its own).
fn implicit<'a>(
    parent: &'a mut dyn toml_edit::TableLike,
    key: &str,
    path: &str,
) -> Result<&'a mut dyn toml_edit::TableLike, String> {
    if !parent.contains_key(key) {
        let mut t = Table::new();
        t.set_implicit(true);
        parent.insert(key, Item::Table(t));
    }
    parent
        .get_mut(key)
        .and_then(Item::as_table_like_mut)
        .ok_or_else(|| format!("`{path}` is not a table"))
}

/// Records each hook key's trusted hash as Codex's own review does:
/// `[hooks.state."KEY"]` with `trusted_hash`, keeping any other field of the entry (an
/// `enabled = false` stays).
pub fn set_trust(doc: &mut DocumentMut, trust: &[(String, String)]) -> Result<(), String> {
    if trust.is_empty() {
        return Ok(());
    }
    let hooks = implicit(doc.as_table_mut(), "hooks", "hooks")?;
    let states = implicit(hooks, "state", "hooks.state")?;
    for (key, hash) in trust {
        let entry = match states.get_mut(key).and_then(Item::as_table_like_mut) {
            Some(entry) => entry,
            None => {
                states.insert(key, Item::Table(Table::new()));
                states
                    .get_mut(key)
                    .and_then(Item::as_table_like_mut)
                    .ok_or_else(|| format!("`hooks.state.{key}` is not a table"))?
            }
        };
        if entry.get("trusted_hash").and_then(Item::as_str) != Some(hash) {
            entry.insert("trusted_hash", Item::Value(Value::from(hash.as_str())));
        }
    }
    Ok(())
}

/// Takes the trust of these hook keys out (an entry left empty goes; `hooks.state` and
/// `hooks` left empty go when they have no header of their own).
pub fn remove_trust(doc: &mut DocumentMut, keys: &[String]) {
    let root = doc.as_table_mut();
    let Some(hooks) = root.get_mut("hooks").and_then(Item::as_table_like_mut) else {
        return;
    };
    if let Some(states) = hooks.get_mut("state").and_then(Item::as_table_like_mut) {
        for key in keys {
            let Some(entry) = states.get_mut(key).and_then(Item::as_table_like_mut) else {
                continue;
            };
            entry.remove("trusted_hash");
            if entry.is_empty() {
                states.remove(key);
            }
        }
    }
    let empty_implicit = |item: Option<&Item>| {
        item.and_then(Item::as_table)
            .is_some_and(|t| t.is_empty() && t.is_implicit())
    };
    if empty_implicit(hooks.get("state")) {
        hooks.remove("state");
    }
    if empty_implicit(root.get("hooks")) {
        root.remove("hooks");
    }
}

/// A hook handler in `config.toml`'s `[hooks]` tables (the form Codex's documentation
/// names beside `hooks.json`): its event, its group's and its own place (the positions
/// in Codex's key), its command and the handler's fields.
#[derive(Debug, Clone)]
pub struct TableHook {
    pub event: String,
    pub group: usize,
    pub handler: usize,
    pub command: String,
    pub matcher: Option<String>,
    pub timeout: Option<i64>,
}

/// Every command hook of `[hooks.EVENT]` groups (arrays of tables or inline arrays).
pub fn table_hooks(doc: &DocumentMut) -> Vec<TableHook> {
    let mut out = Vec::new();
    let Some(hooks) = doc.get("hooks").and_then(Item::as_table_like) else {
        return out;
    };
    for (event, groups) in hooks.iter() {
        if event == "state" {
            continue;
        }
        for (g, group) in each_table(groups).into_iter().enumerate() {
            let matcher = group
                .get("matcher")
                .and_then(Item::as_str)
                .map(str::to_string);
            let Some(handlers) = group.get("hooks") else {
                continue;
            };
            for (h, handler) in each_table(handlers).into_iter().enumerate() {
                let Some(command) = handler.get("command").and_then(Item::as_str) else {
                    continue;
                };
                out.push(TableHook {
                    event: event.to_string(),
                    group: g,
                    handler: h,
                    command: command.to_string(),
                    matcher: matcher.clone(),
                    timeout: handler.get("timeout").and_then(Item::as_integer),
                });
            }
        }
    }
    out
}

/// The tables of an array of tables, or of an inline array of inline tables.
fn each_table(item: &Item) -> Vec<&dyn toml_edit::TableLike> {
    if let Some(a) = item.as_array_of_tables() {
        return a.iter().map(|t| t as &dyn toml_edit::TableLike).collect();
    }
    item.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_inline_table())
                .map(|t| t as &dyn toml_edit::TableLike)
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = "# my settings\nmodel = \"o3\"  # the model\n\n[mcp_servers.other]\ncommand = \"npx\"\nargs = [\"-y\", \"srv\"]\n\n[features]\nweb_search = true\n";

    #[test]
    fn set_then_remove_gives_back_the_bytes() {
        let mut doc = parse(Some(CONFIG)).unwrap();
        let args = vec!["--db".to_string(), "/m.db".to_string(), "mcp".to_string()];
        set_server(&mut doc, "/bin/recall", &args).unwrap();
        let set = doc.to_string();
        // The new table goes after its siblings; every other byte stays.
        let block = "[mcp_servers.recall]\ncommand = \"/bin/recall\"\nargs = [\"--db\", \"/m.db\", \"mcp\"]\n\n";
        assert_eq!(
            set,
            CONFIG.replace("[features]", &format!("{block}[features]"))
        );
        let mut again = parse(Some(&set)).unwrap();
        set_server(&mut again, "/bin/recall", &args).unwrap();
        assert_eq!(again.to_string(), set);
        remove_server(&mut again);
        assert_eq!(again.to_string(), CONFIG);
    }

    #[test]
    fn trust_set_then_removed_gives_back_the_bytes() {
        let key = "/h/.codex/hooks.json:session_start:0:0".to_string();
        let other = "/h/.codex/hooks.json:stop:0:0".to_string();
        for text in [
            CONFIG.to_string(),
            String::new(),
            format!("{CONFIG}\n[hooks.state.\"{other}\"]\ntrusted_hash = \"sha256:aa\"\n"),
            format!("{CONFIG}\n[hooks.state.\"{key}\"]\nenabled = true\n"),
        ] {
            let mut doc = parse(Some(&text)).unwrap();
            set_trust(&mut doc, &[(key.clone(), "sha256:bb".into())]).unwrap();
            let set = doc.to_string();
            assert!(
                set.starts_with(CONFIG.trim_end()) || text.is_empty(),
                "{set}"
            );
            let doc = parse(Some(&set)).unwrap();
            assert!(
                trusted_hashes(&doc).contains(&(key.clone(), "sha256:bb".into())),
                "{set}"
            );
            let mut doc = parse(Some(&set)).unwrap();
            remove_trust(&mut doc, std::slice::from_ref(&key));
            assert_eq!(doc.to_string(), text);
        }
    }

    #[test]
    fn hooks_tables_are_read_in_both_forms() {
        let text = "[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ntype = \"command\"\ncommand = \"echo hi\"\n[[hooks.SessionStart.hooks]]\ntype = \"command\"\ncommand = \"recall hook\"\ntimeout = 10\n\n[hooks]\nPostToolUse = [{ matcher = \"apply_patch\", hooks = [{ type = \"command\", command = \"recall hook\" }] }]\n";
        let found = table_hooks(&parse(Some(text)).unwrap());
        let seen: Vec<_> = found
            .iter()
            .map(|h| {
                (
                    h.event.as_str(),
                    h.group,
                    h.handler,
                    h.command.as_str(),
                    h.timeout,
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                ("SessionStart", 0, 0, "echo hi", None),
                ("SessionStart", 0, 1, "recall hook", Some(10)),
                ("PostToolUse", 0, 0, "recall hook", None),
            ]
        );
        assert_eq!(found[2].matcher.as_deref(), Some("apply_patch"));
    }

    #[test]
    fn the_setting_that_turns_hooks_off_is_named() {
        for (text, off) in [
            ("[features]\ncodex_hooks = false\n", Some("codex_hooks")),
            ("[features]\nhooks = false\n", Some("hooks")),
            ("[features]\ncodex_hooks = true\n", None),
            ("features = { hooks = false }\n", Some("hooks")),
            ("", None),
        ] {
            assert_eq!(hooks_off(&parse(Some(text)).unwrap()), off, "{text}");
        }
    }

    #[test]
    fn another_programs_entry_is_refused() {
        let mut doc = parse(Some("[mcp_servers.recall]\ncommand = \"node\"\n")).unwrap();
        let e = set_server(&mut doc, "/bin/recall", &[]).unwrap_err();
        assert!(e.contains("runs `node`"), "{e}");
    }
}
