//! Codex's `config.toml`: the table `[mcp_servers.recall]`, edited with `toml_edit`,
//! which keeps every comment, blank line and the order of everything else byte for byte.
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

/// Whether the configuration turns Codex's hooks off (`[features] hooks = false`, or
/// its older name `codex_hooks`).
pub fn hooks_off(doc: &DocumentMut) -> bool {
    let Some(features) = doc.get("features").and_then(Item::as_table_like) else {
        return false;
    };
    ["hooks", "codex_hooks"]
        .iter()
        .any(|k| features.get(k).and_then(Item::as_bool) == Some(false))
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
    fn another_programs_entry_is_refused() {
        let mut doc = parse(Some("[mcp_servers.recall]\ncommand = \"node\"\n")).unwrap();
        let e = set_server(&mut doc, "/bin/recall", &[]).unwrap_err();
        assert!(e.contains("runs `node`"), "{e}");
    }
}
