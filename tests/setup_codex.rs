//! `recall setup codex` and Codex's hook trust, through the binary, with a stand-in for
//! the `codex` program on the PATH (tests/setup_codex/codex.py: `--version` and the app
//! server's `hooks/list` as Codex 0.169.0 answers them; tests/agents/codex_trust.py runs
//! the same against the real Codex). Codex runs a hook only once the user's config.toml
//! records the hash of its definition under its key: setup records what Codex lists,
//! `--remove` takes it out again, byte for byte, and the listing and `recall status` say
//! whether Codex trusts recall's hooks. In config.toml shapes of Codex's own writing.
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::cli::{recall_bin, Ran, TempLib};
use crate::common::root;

/// config.toml as Codex and a person leave it: comments, a model provider, a trusted
/// project, another MCP server, another tool's trusted hook.
const CONFIG_WRITTEN: &str = r#"# Written by hand, then by Codex.
model = "gpt-5.5"
model_reasoning_effort = "high"   # keep

[model_providers.local]
name = "local"
base_url = "http://127.0.0.1:8080/v1"
wire_api = "responses"

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]

[projects."/home/me/shop"]
trust_level = "trusted"

[hooks.state."HOME/.codex/hooks.json:stop:0:0"]
trusted_hash = "sha256:0f0e0d0c0b0a09080706050403020100f0e0d0c0b0a09080706050403020100"
"#;

/// Another tool's Stop hook, in hooks.json as Codex's documentation shows it.
const OTHER_HOOKS: &str = r#"{
  "hooks": {
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "notify-send codex done",
            "timeout": 5
          }
        ]
      }
    ]
  }
}
"#;

/// The python3 the stand-in runs with, by the path of its program (the PATH recall is
/// given holds the stand-in alone, and a shim on this one may need more).
fn python() -> String {
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .expect("python3 on the PATH");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// Puts the stand-in `codex` of this version in the folder `bin` (`refuse`: its app
/// server answers hooks/list with an error).
pub fn put_codex(bin: &Path, version: &str, refuse: bool) {
    let template = std::fs::read_to_string(root().join("tests/setup_codex/codex.py")).unwrap();
    let script = template
        .replace("@PYTHON@", &python())
        .replace("@VERSION@", version)
        .replace("@REFUSE@", if refuse { "yes" } else { "no" });
    std::fs::create_dir_all(bin).unwrap();
    let path = bin.join("codex");
    std::fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

struct Home {
    dir: tempfile::TempDir,
    lib: TempLib,
}

impl Home {
    fn new() -> Home {
        let dir = tempfile::tempdir().expect("temp dir");
        for d in ["home/.codex", "repo/.git", "repo/src", "bin"] {
            std::fs::create_dir_all(dir.path().join(d)).unwrap();
        }
        Home {
            dir,
            lib: TempLib::init(None),
        }
    }

    fn codex_dir(&self) -> PathBuf {
        self.dir.path().join("home/.codex")
    }

    fn repo(&self) -> PathBuf {
        self.dir.path().join("repo")
    }

    fn config(&self) -> PathBuf {
        self.codex_dir().join("config.toml")
    }

    fn hooks(&self) -> PathBuf {
        self.codex_dir().join("hooks.json")
    }

    /// Puts the stand-in `codex` of this version on the PATH (`refuse`: its app server
    /// answers hooks/list with an error).
    fn with_codex(&self, version: &str, refuse: bool) {
        put_codex(&self.dir.path().join("bin"), version, refuse);
    }

    fn without_codex(&self) {
        let _ = std::fs::remove_file(self.dir.path().join("bin/codex"));
    }

    /// `recall --db LIB ARGS…` with this HOME and only `bin` on the PATH, from the
    /// repository's `src`.
    fn recall(&self, args: &[&str]) -> Ran {
        let mut cmd = Command::new(recall_bin());
        cmd.arg("--db")
            .arg(&self.lib.db)
            .args(args)
            .current_dir(self.repo().join("src"))
            .env("HOME", self.dir.path().join("home"))
            .env("PATH", self.dir.path().join("bin"))
            .env_remove("CODEX_HOME")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("RECALL_DB")
            .env_remove("RECALL_CONFIG");
        Ran::from(cmd.output().expect("run recall"))
    }

    /// What the stand-in's app server lists in the repository (as Codex would).
    fn codex_lists(&self) -> Vec<Value> {
        let mut child = Command::new(self.dir.path().join("bin/codex"))
            .arg("app-server")
            .current_dir(self.repo().join("src"))
            .env("HOME", self.dir.path().join("home"))
            .env_remove("CODEX_HOME")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let cwd = self.repo().join("src");
        let input = format!(
            "{}\n{}\n",
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}),
            json!({"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [cwd]}})
        );
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let answer: Value = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .find(|m| m["id"] == 2)
            .unwrap();
        answer["result"]["data"][0]["hooks"]
            .as_array()
            .unwrap()
            .clone()
    }

    /// The hooks Codex lists that run recall's hook.
    fn recall_listed(&self) -> Vec<Value> {
        self.codex_lists()
            .into_iter()
            .filter(|h| h["command"].as_str().unwrap().contains(" hook"))
            .collect()
    }

    fn read(&self, path: &Path) -> Option<String> {
        std::fs::read_to_string(path).ok()
    }
}

/// The events and timeouts of recall's hooks in a hooks.json.
fn wired(hooks: &Value) -> Vec<(String, i64)> {
    let mut out = Vec::new();
    for (event, groups) in hooks["hooks"].as_object().into_iter().flatten() {
        for g in groups.as_array().unwrap() {
            for h in g["hooks"].as_array().unwrap() {
                if h["command"].as_str().unwrap().ends_with(" hook") {
                    out.push((event.clone(), h["timeout"].as_i64().unwrap()));
                }
            }
        }
    }
    out.sort();
    out
}

fn events(list: &[(&str, i64)]) -> Vec<(String, i64)> {
    let mut out: Vec<_> = list.iter().map(|(e, t)| (e.to_string(), *t)).collect();
    out.sort();
    out
}

/// The keys of config.toml's `[hooks.state]` that hold a trusted hash.
fn trusted_keys(config: &str) -> Vec<String> {
    let doc: toml::Table = config.parse().unwrap();
    let mut keys: Vec<String> = doc
        .get("hooks")
        .and_then(|h| h.get("state"))
        .and_then(|s| s.as_table())
        .map(|states| {
            states
                .iter()
                .filter(|(_, v)| v.get("trusted_hash").is_some())
                .map(|(k, _)| k.clone())
                .collect()
        })
        .unwrap_or_default();
    keys.sort();
    keys
}

/// Whether every line of `before` is in `after`, in the same order.
fn lines_kept(before: &str, after: &str) -> bool {
    let mut rest = after.lines();
    before.lines().all(|l| rest.any(|a| a == l))
}

fn warnings(out: &Ran) -> Vec<&str> {
    out.stderr
        .lines()
        .filter(|l| l.starts_with("recall: warning: "))
        .collect()
}

const BY_HAND: &str = "run `codex`, type /hooks and trust recall's hooks";

#[test]
fn setup_records_the_trust_codex_lists_and_remove_gives_every_byte_back() {
    // config.toml: none; as Codex and a person write it; with an explicit `[hooks]`
    // header and `[features] hooks = true`. hooks.json: none, or another tool's.
    let shapes: [(Option<&str>, Option<&str>); 4] = [
        (None, None),
        (Some(CONFIG_WRITTEN), None),
        (Some(CONFIG_WRITTEN), Some(OTHER_HOOKS)),
        (
            Some("[features]\nhooks = true\n\n[hooks]\n\n[tui]\nanimations = false\n"),
            Some(OTHER_HOOKS),
        ),
    ];
    for (config, hooks) in shapes {
        let h = Home::new();
        h.with_codex("0.169.0", false);
        let home = h.dir.path().join("home");
        let config = config.map(|c| c.replace("HOME", home.to_str().unwrap()));
        if let Some(c) = &config {
            std::fs::write(h.config(), c).unwrap();
        }
        if let Some(j) = hooks {
            std::fs::write(h.hooks(), j).unwrap();
        }
        let out = h.recall(&["setup", "codex"]).ok();
        assert!(warnings(&out).is_empty(), "{}", out.stderr);
        assert!(
            out.stdout
                .contains("codex 0.169.0: SessionEnd captures the session")
                && out
                    .stdout
                    .contains("hook trust recorded for 5 hooks: Codex trusts recall's 5 hooks"),
            "{}",
            out.stdout
        );
        // Codex itself lists each of recall's hooks as trusted, and the trusted keys
        // are the other tool's and recall's four.
        let listed = h.recall_listed();
        assert_eq!(listed.len(), 5, "{listed:?}");
        assert!(
            listed.iter().all(|l| l["trustStatus"] == "trusted"),
            "{listed:?}"
        );
        let after = h.read(&h.config()).unwrap();
        let mut expected: Vec<String> = listed
            .iter()
            .map(|l| l["key"].as_str().unwrap().to_string())
            .chain(config.as_deref().map(trusted_keys).unwrap_or_default())
            .collect();
        expected.sort();
        assert_eq!(trusted_keys(&after), expected);
        // What was there stays, each line in its place.
        if let Some(c) = &config {
            assert!(lines_kept(c, &after), "{after}");
        }
        // Again: nothing to change.
        let again = h.recall(&["setup", "codex"]).ok();
        assert!(
            again.stdout.contains("hook trust unchanged"),
            "{}",
            again.stdout
        );
        assert!(
            again
                .stdout
                .ends_with("nothing to change: already set up\n"),
            "{}",
            again.stdout
        );
        assert_eq!(h.read(&h.config()).unwrap(), after);
        // The listing and status say so (status reads the files alone).
        let list = h.recall(&["setup", "--json"]).ok().json();
        let codex = &list["agents"][1];
        assert_eq!(
            codex["user_trust"],
            json!({"trust": "trusted", "hooks": 5}),
            "{codex}"
        );
        let status = h.recall(&["status", "--json"]).json();
        assert_eq!(
            status["codex_hooks"],
            json!([{"folder": h.codex_dir(), "trust": "trusted", "hooks": 5}])
        );
        assert!(
            status["attention"].as_array().unwrap().is_empty(),
            "{status}"
        );
        // Out again: every file as it was (or not there).
        h.recall(&["setup", "codex", "--remove"]).ok();
        assert_eq!(h.read(&h.config()), config);
        assert_eq!(h.read(&h.hooks()).as_deref(), hooks);
    }
}

#[test]
fn where_codex_cannot_be_asked_setup_and_status_say_what_to_do() {
    let h = Home::new();
    // No codex on the PATH: Stop, which every Codex with hooks runs, and the line to
    // follow.
    let out = h.recall(&["setup", "codex"]).ok();
    let hooks: Value = serde_json::from_str(&h.read(&h.hooks()).unwrap()).unwrap();
    assert_eq!(
        wired(&hooks),
        events(&[
            ("PostToolUse", 10),
            ("PreToolUse", 10),
            ("SessionStart", 10),
            ("Stop", 10),
            ("UserPromptSubmit", 10)
        ])
    );
    let w = warnings(&out);
    assert_eq!(w.len(), 1, "{}", out.stderr);
    assert!(
        w[0].contains("Codex runs recall's hooks only once they are trusted")
            && w[0].contains("`codex` is not on the PATH")
            && w[0].contains(BY_HAND),
        "{}",
        w[0]
    );
    assert!(h
        .read(&h.config())
        .is_some_and(|c| trusted_keys(&c).is_empty()));
    // The listing and status: not trusted, and what to do; status exits 1.
    let list = h.recall(&["setup"]).ok();
    assert!(
        list.stdout
            .contains("user hook trust: not trusted: Codex skips 5 of recall's 5 hooks")
            && list.stdout.contains(BY_HAND),
        "{}",
        list.stdout
    );
    let status = h.recall(&["status"]);
    assert_eq!(status.code, 1, "{}", status.stdout);
    assert!(
        status
            .stdout
            .contains("Codex does not run recall's hooks in")
            && status.stdout.contains(&format!("to do: {BY_HAND}")),
        "{}",
        status.stdout
    );
    // A codex whose app server refuses: said, with Codex's words.
    h.with_codex("0.169.0", true);
    let out = h.recall(&["setup", "codex"]).ok();
    let w = warnings(&out);
    assert!(
        w.iter().any(
            |l| l.contains("hooks/list failed: hooks are unavailable here") && l.contains(BY_HAND)
        ),
        "{}",
        out.stderr
    );
    assert!(trusted_keys(&h.read(&h.config()).unwrap()).is_empty());
    // A codex that answers: trusted now.
    h.with_codex("0.169.0", false);
    h.recall(&["setup", "codex"]).ok();
    assert!(h
        .recall_listed()
        .iter()
        .all(|l| l["trustStatus"] == "trusted"));
    // A hook changed by hand after it was trusted: changed since trusted.
    let text = h.read(&h.hooks()).unwrap();
    std::fs::write(
        h.hooks(),
        text.replacen("\"timeout\": 10", "\"timeout\": 12", 1),
    )
    .unwrap();
    let modified: Vec<Value> = h
        .recall_listed()
        .into_iter()
        .filter(|l| l["trustStatus"] == "modified")
        .collect();
    assert_eq!(modified.len(), 1);
    let list = h.recall(&["setup"]).ok();
    assert!(
        list.stdout
            .contains("changed since trusted: Codex skips 1 of recall's 5 hooks"),
        "{}",
        list.stdout
    );
    h.without_codex();
    let status = h.recall(&["status", "--json"]).json();
    assert_eq!(status["codex_hooks"][0]["trust"], "changed", "{status}");
}

#[test]
fn session_end_where_the_version_has_it_stop_where_it_has_not() {
    for (version, end) in [
        ("0.140.2", false),
        ("0.144.0", false),
        ("0.145.0", true),
        ("0.169.0", true),
        ("1.0.0-alpha.2", true),
    ] {
        let h = Home::new();
        h.with_codex(version, false);
        h.recall(&["setup", "codex"]).ok();
        let hooks: Value = serde_json::from_str(&h.read(&h.hooks()).unwrap()).unwrap();
        let last = if end { ("SessionEnd", 3) } else { ("Stop", 10) };
        assert_eq!(
            wired(&hooks),
            events(&[
                ("PostToolUse", 10),
                ("PreToolUse", 10),
                ("SessionStart", 10),
                last,
                ("UserPromptSubmit", 10)
            ]),
            "{version}"
        );
        assert!(h
            .recall_listed()
            .iter()
            .all(|l| l["trustStatus"] == "trusted"));
    }
    // Codex upgraded: setup again takes recall's Stop out for SessionEnd, and the trust
    // of the Stop hook that is gone with it; another tool's Stop stays, trusted.
    let h = Home::new();
    std::fs::write(h.hooks(), OTHER_HOOKS).unwrap();
    h.with_codex("0.144.0", false);
    h.recall(&["setup", "codex"]).ok();
    let other_key = format!("{}:stop:0:0", h.hooks().display());
    let trusted_other = format!(
        "\n[hooks.state.\"{other_key}\"]\ntrusted_hash = \"sha256:{}\"\n",
        "ab".repeat(32)
    );
    let mut config = h.read(&h.config()).unwrap();
    config.push_str(&trusted_other);
    std::fs::write(h.config(), &config).unwrap();
    let stop_key = format!("{}:stop:1:0", h.hooks().display());
    assert!(trusted_keys(&config).contains(&stop_key));
    h.with_codex("0.169.0", false);
    h.recall(&["setup", "codex"]).ok();
    let hooks: Value = serde_json::from_str(&h.read(&h.hooks()).unwrap()).unwrap();
    assert_eq!(
        wired(&hooks),
        events(&[
            ("PostToolUse", 10),
            ("PreToolUse", 10),
            ("SessionEnd", 3),
            ("SessionStart", 10),
            ("UserPromptSubmit", 10)
        ])
    );
    assert_eq!(
        hooks["hooks"]["Stop"][0]["hooks"][0]["command"],
        "notify-send codex done"
    );
    let keys = trusted_keys(&h.read(&h.config()).unwrap());
    assert!(!keys.contains(&stop_key), "{keys:?}");
    assert!(keys.contains(&other_key), "{keys:?}");
    assert_eq!(keys.len(), 6, "{keys:?}");
}

#[test]
fn hooks_wired_through_config_toml_tables_are_seen_and_not_doubled() {
    let h = Home::new();
    h.with_codex("0.169.0", false);
    let command = format!(
        "{} --db {} hook",
        recall_bin().display(),
        h.lib.db.display()
    );
    // SessionStart as arrays of tables, UserPromptSubmit inline: the two forms of
    // Codex's documentation.
    let config = format!(
        "# hooks in config.toml\nmodel = \"gpt-5.5\"\n\n[[hooks.SessionStart]]\n[[hooks.SessionStart.hooks]]\ntype = \"command\"\ncommand = \"{command}\"\ntimeout = 10\n\n[hooks]\nUserPromptSubmit = [{{ hooks = [{{ type = \"command\", command = \"{command}\" }}] }}]\n"
    );
    std::fs::write(h.config(), &config).unwrap();
    let out = h.recall(&["setup", "codex"]).ok();
    let hooks: Value = serde_json::from_str(&h.read(&h.hooks()).unwrap()).unwrap();
    assert_eq!(
        wired(&hooks),
        events(&[("PostToolUse", 10), ("PreToolUse", 10), ("SessionEnd", 3)]),
        "{}",
        out.stdout
    );
    // Each event runs recall once, every one trusted, those of the tables under
    // config.toml's keys.
    let listed = h.recall_listed();
    let mut seen: Vec<&str> = listed
        .iter()
        .map(|l| l["eventName"].as_str().unwrap())
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        [
            "postToolUse",
            "preToolUse",
            "sessionEnd",
            "sessionStart",
            "userPromptSubmit"
        ]
    );
    assert!(
        listed.iter().all(|l| l["trustStatus"] == "trusted"),
        "{listed:?}"
    );
    let config_key = format!("{}:session_start:0:0", h.config().display());
    assert!(trusted_keys(&h.read(&h.config()).unwrap()).contains(&config_key));
    // The listing shows the tables' events as recall's.
    let list = h.recall(&["setup"]).ok();
    assert!(
        list.stdout
            .contains(&format!("user {}: MCP server recall", h.config().display()))
            && list
                .stdout
                .contains("user hook trust: Codex trusts recall's 5 hooks"),
        "{}",
        list.stdout
    );
    let listing = h.recall(&["setup", "--json"]).ok().json();
    let user = listing["agents"][1]["user"].as_array().unwrap().clone();
    let from_config = user.iter().find(|w| w["part"] == "MCP server").unwrap();
    assert_eq!(
        from_config["events"],
        json!(["SessionStart", "UserPromptSubmit"])
    );
    // Out again: the tables stay (untrusted, Codex skips them), config.toml as it was.
    h.recall(&["setup", "codex", "--remove"]).ok();
    assert_eq!(h.read(&h.config()).as_deref(), Some(config.as_str()));
    assert_eq!(h.read(&h.hooks()), None);
}

#[test]
fn hooks_turned_off_are_named_by_the_setting_that_does_it() {
    for (features, key) in [
        ("[features]\ncodex_hooks = false\n", Some("codex_hooks")),
        ("[features]\nhooks = false\n", Some("hooks")),
        (
            "features = { codex_hooks = false, web_search = true }\n",
            Some("codex_hooks"),
        ),
        ("[features]\ncodex_hooks = true\n", None),
    ] {
        let h = Home::new();
        h.with_codex("0.169.0", false);
        std::fs::write(h.config(), features).unwrap();
        let out = h.recall(&["setup", "codex"]).ok();
        let w = warnings(&out);
        match key {
            Some(key) => {
                assert_eq!(w.len(), 1, "{features}: {}", out.stderr);
                assert!(
                    w[0].contains(&format!(
                        "turns Codex's hooks off ([features] {key} = false)"
                    )),
                    "{}",
                    w[0]
                );
                // Codex lists no hook then, and nothing is recorded.
                assert!(trusted_keys(&h.read(&h.config()).unwrap()).is_empty());
            }
            None => {
                assert!(w.is_empty(), "{}", out.stderr);
                assert_eq!(trusted_keys(&h.read(&h.config()).unwrap()).len(), 5);
            }
        }
    }
}

#[test]
fn a_projects_hooks_are_trusted_in_the_users_config() {
    let h = Home::new();
    h.with_codex("0.169.0", false);
    // The user's file turning hooks off is said for a project's setup too.
    std::fs::write(h.config(), "[features]\ncodex_hooks = false\n").unwrap();
    let out = h.recall(&["setup", "codex", "--project"]).ok();
    assert_eq!(warnings(&out).len(), 1, "{}", out.stderr);
    assert!(
        warnings(&out)[0].contains(&format!(
            "{} turns Codex's hooks off ([features] codex_hooks = false)",
            h.config().display()
        )),
        "{}",
        out.stderr
    );
    h.recall(&["setup", "codex", "--project", "--remove"]).ok();
    let user_config = "# mine\nmodel = \"gpt-5.5\"\n";
    std::fs::write(h.config(), user_config).unwrap();
    // The project is not trusted by Codex yet: it loads none of its .codex/.
    let out = h.recall(&["setup", "codex", "--project"]).ok();
    assert!(
        warnings(&out)
            .iter()
            .any(|w| w.contains("it loads a project's .codex/ only once the project is trusted")),
        "{}",
        out.stderr
    );
    assert_eq!(h.read(&h.config()).as_deref(), Some(user_config));
    // Trusted: the trust goes into the user's config.toml, the only one Codex reads it
    // from; the project's holds the server alone.
    let trusting = format!(
        "{user_config}\n[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
        h.repo().display()
    );
    std::fs::write(h.config(), &trusting).unwrap();
    h.recall(&["setup", "codex", "--project"]).ok();
    let listed = h.recall_listed();
    assert_eq!(listed.len(), 5);
    assert!(listed
        .iter()
        .all(|l| l["trustStatus"] == "trusted" && l["source"] == "project"));
    let project_config = h.read(&h.repo().join(".codex/config.toml")).unwrap();
    assert!(trusted_keys(&project_config).is_empty(), "{project_config}");
    assert_eq!(trusted_keys(&h.read(&h.config()).unwrap()).len(), 5);
    h.recall(&["setup", "codex", "--project", "--remove"]).ok();
    assert_eq!(h.read(&h.config()), Some(trusting));
    assert!(!h.repo().join(".codex/hooks.json").exists());
}

/// A Codex 0.169 rollout of one session in `cwd`, a turn per pair.
fn rollout(path: &Path, session: &str, cwd: &Path, turns: &[(&str, &str)]) {
    let mut lines = vec![
        json!({"timestamp": "2026-11-02T09:00:00.000Z", "type": "session_meta",
        "payload": {"id": session, "timestamp": "2026-11-02T09:00:00.000Z", "cwd": cwd,
            "originator": "codex_exec", "cli_version": "0.169.0"}})
        .to_string(),
    ];
    for (i, (prompt, answer)) in turns.iter().enumerate() {
        let at = |s: usize| format!("2026-11-02T09:{i:02}:{s:02}.000Z");
        lines.push(
            json!({"timestamp": at(0), "type": "response_item", "payload": {"type": "message",
            "role": "user", "content": [{"type": "input_text", "text": prompt}]}})
            .to_string(),
        );
        lines.push(
            json!({"timestamp": at(30), "type": "response_item", "payload": {"type": "message",
            "role": "assistant", "content": [{"type": "output_text", "text": answer}]}})
            .to_string(),
        );
    }
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

fn hook(lib: &TempLib, payload: &Value) -> Ran {
    let mut child = Command::new(recall_bin())
        .arg("--db")
        .arg(&lib.db)
        .args(["--json", "hook"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    Ran::from(child.wait_with_output().unwrap())
}

/// Waits until the library's capture records hold `transcript` at its size.
fn wait_captured(lib: &TempLib, transcript: &Path) {
    let size = std::fs::metadata(transcript).unwrap().len() as i64;
    let deadline = Instant::now() + Duration::from_secs(60);
    while lib.count(&format!(
        "select count(*) from capture_files where path = '{}' and size = {size}",
        transcript.display()
    )) != 1
    {
        assert!(Instant::now() < deadline, "not captured within a minute");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn codex_s_session_end_captures_the_session_and_with_stop_captures_it_once() {
    let lib = TempLib::init(None);
    let work = tempfile::tempdir().unwrap();
    let shop = work.path().join("shop");
    std::fs::create_dir_all(shop.join(".git")).unwrap();
    let session = "01a24662-70a1-7140-b3cc-0c7e40c86883";
    let file = work
        .path()
        .join(format!("rollout-2026-11-02T09-00-00-{session}.jsonl"));
    let turns = [(
        "Why does the kestrel import stall?",
        "Its lock was never released; fixed.",
    )];
    rollout(&file, session, &shop, &turns);
    // SessionEnd as Codex 0.169.0 sends it (its schema: no turn id, reason "other").
    let end = json!({"session_id": session, "transcript_path": file, "cwd": shop,
        "hook_event_name": "SessionEnd", "reason": "other"});
    let stop = json!({"session_id": session, "turn_id": "01a24662-70b0-7000-8000-000000000001",
        "transcript_path": file, "cwd": shop, "hook_event_name": "Stop", "model": "gpt-5.5",
        "permission_mode": "bypassPermissions", "stop_hook_active": false,
        "last_assistant_message": "fixed"});
    let first = hook(&lib, &stop).ok().json();
    assert_eq!(first["capture"], "started", "{first}");
    let second = hook(&lib, &end).ok().json();
    wait_captured(&lib, &file);
    // Stop then SessionEnd on one state of the rollout: one capture, its items once.
    assert!(
        ["claimed already", "captured already"].contains(&second["capture"].as_str().unwrap()),
        "{second}"
    );
    let codex_items = "select count(*) from items where source = 'codex'";
    assert_eq!(lib.count(codex_items), 1);
    // A later turn, then the end alone: what changed is captured, nothing twice.
    let turns = [
        turns[0],
        ("And the heron export?", "It reads the replica now."),
    ];
    rollout(&file, session, &shop, &turns);
    let again = hook(&lib, &end).ok().json();
    assert_eq!(again["capture"], "started", "{again}");
    wait_captured(&lib, &file);
    assert_eq!(lib.count(codex_items), 1);
    assert_eq!(
        lib.count("select count(*) from items where source = 'codex' and transcript like '%heron export%'"),
        1
    );
    // The end again on the same rollout: nothing to do.
    let last = hook(&lib, &end).ok().json();
    assert_eq!(last["capture"], "captured already", "{last}");
}
