//! Redaction on the way in: one secret of every kind (from the corpus) in every text
//! field, through `recall add` (flags and `-`), `recall import` and the MCP `add` tool.
//! None of their bytes is in the library file or its log, each field is stored with
//! exactly the secrets replaced, and the counts by kind are reported. `--no-redact` and
//! `[redact] enabled = false` store the text as given.
use std::collections::BTreeMap;

use recall_core::redact::MARK;
use serde_json::{json, Value};

use crate::common::cli::TempLib;
use crate::common::mcp::Server;

/// One secret line of each kind: (kind, line, secret, line with the secret replaced).
pub fn one_of_each_kind() -> Vec<(String, String, String, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/redaction_corpus.jsonl"
    );
    let mut seen = BTreeMap::new();
    for line in std::fs::read_to_string(path).expect("corpus").lines() {
        let v: Value = serde_json::from_str(line).expect("corpus line");
        let Some(kind) = v["kind"].as_str() else {
            continue;
        };
        let text = v["text"].as_str().expect("text").to_string();
        let (start, end) = (
            v["start"].as_u64().expect("start") as usize,
            v["end"].as_u64().expect("end") as usize,
        );
        let secret = text[start..end].to_string();
        let clean = format!("{}{MARK}{}", &text[..start], &text[end..]);
        seen.entry(kind.to_string())
            .or_insert((kind.to_string(), text, secret, clean));
    }
    seen.into_values().collect()
}

struct Case {
    kinds: Vec<String>,
    lines: Vec<String>,
    secrets: Vec<String>,
    clean: Vec<String>,
}

fn case() -> Case {
    let all = one_of_each_kind();
    Case {
        kinds: all.iter().map(|c| c.0.clone()).collect(),
        lines: all.iter().map(|c| c.1.clone()).collect(),
        secrets: all.iter().map(|c| c.2.clone()).collect(),
        clean: all.iter().map(|c| c.3.clone()).collect(),
    }
}

impl Case {
    /// The item with every secret in every text field.
    fn item(&self) -> Value {
        json!({
            "source": "agent-test", "title": self.lines.join(" | "),
            "summary": self.lines.join("\n"), "questions": self.lines, "atoms": self.lines,
            "occurred_at": "2025-03-04T05:06:07Z", "transcript": self.lines.join("\n"),
        })
    }

    /// `{"kind": n}` for `n` secrets of each kind.
    fn counts(&self, n: usize) -> Value {
        Value::Object(self.kinds.iter().map(|k| (k.clone(), json!(n))).collect())
    }

    fn in_files(&self, lib: &TempLib) -> Vec<String> {
        let files = lib.files();
        self.secrets
            .iter()
            .filter(|s| {
                let lower = s.to_lowercase();
                files
                    .iter()
                    .flatten()
                    .any(|bytes| contains(bytes, s.as_bytes()) || contains(bytes, lower.as_bytes()))
            })
            .cloned()
            .collect()
    }

    /// Every stored item's fields are the given text with exactly the secrets replaced.
    fn stored_clean(&self, lib: &TempLib) {
        let conn = lib.conn();
        let mut stmt = conn
            .prepare("select title, summary, questions, atoms, transcript from items")
            .expect("prepare");
        let rows: Vec<[String; 5]> = stmt
            .query_map([], |r| {
                Ok([r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?])
            })
            .expect("query")
            .collect::<rusqlite::Result<_>>()
            .expect("rows");
        assert!(!rows.is_empty());
        let joined = self.clean.join("\n");
        for row in rows {
            assert_eq!(row[0], self.clean.join(" | "));
            for field in &row[1..] {
                assert_eq!(field, &joined);
            }
        }
    }
}

pub fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn secrets_leave_no_byte_through_add_import_and_mcp() {
    let c = case();
    assert_eq!(c.kinds.len(), recall_core::redact::KINDS.len());
    let lib = TempLib::init(None);
    let item = c.item();

    // add, from flags, in text mode: one stderr line with the counts.
    let transcript = lib.path("transcript.txt");
    std::fs::write(&transcript, item["transcript"].as_str().expect("text")).expect("write");
    let mut args = vec![
        "add".to_string(),
        "--source".into(),
        "agent-test".into(),
        "--title".into(),
        c.lines.join(" | "),
        "--summary".into(),
        c.lines.join("\n"),
        "--at".into(),
        "2025-03-04T05:06:07Z".into(),
        "--transcript-file".into(),
        transcript.to_string_lossy().into_owned(),
    ];
    for line in &c.lines {
        args.extend(["--questions".into(), line.clone()]);
        args.extend(["--atoms".into(), line.clone()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = lib.run(&args).ok();
    let mut kinds = c.kinds.clone();
    kinds.sort();
    let listed: Vec<String> = kinds.iter().map(|k| format!("5 {k}")).collect();
    assert_eq!(
        out.stderr.trim_end(),
        format!(
            "recall: redacted {} secrets: {}",
            5 * kinds.len(),
            listed.join(", ")
        )
    );

    // add -, with --json.
    let out = lib
        .run_stdin(&["--json", "add", "-"], &item.to_string())
        .ok();
    assert_eq!(out.json()["redacted"], c.counts(5));

    // import, two lines: the counts add up.
    let out = lib
        .run_stdin(&["--json", "import", "-"], &format!("{item}\n{item}\n"))
        .ok();
    assert_eq!(out.json()["redacted"], c.counts(10));
    assert_eq!(out.json()["imported"], json!(2));

    // the MCP add tool.
    let mut server = Server::start(&lib, &["--allow-writes"]);
    let answer = server.tool("add", item.clone()).expect("added");
    assert_eq!(answer["redacted"], c.counts(5));
    let (code, stderr) = server.finish();
    assert_eq!(code, 0, "{stderr}");

    assert_eq!(lib.count("select count(*) from items"), 5);
    c.stored_clean(&lib);
    assert_eq!(
        c.in_files(&lib),
        Vec::<String>::new(),
        "in the file or its log"
    );
    lib.checkpoint();
    assert_eq!(c.in_files(&lib), Vec::<String>::new(), "after a checkpoint");
}

#[test]
fn the_switch_keeps_secrets_and_nothing_found_reports_nothing() {
    let c = case();
    let item = c.item();
    let lib = TempLib::init(None);
    let out = lib
        .run_stdin(&["--json", "add", "--no-redact", "-"], &item.to_string())
        .ok();
    assert_eq!(out.json()["redacted"], json!({}));
    let out = lib
        .run_stdin(
            &["--json", "import", "--no-redact", "-"],
            &format!("{item}\n"),
        )
        .ok();
    assert_eq!(out.json()["redacted"], json!({}));
    let config = lib.path("recall.toml");
    std::fs::write(&config, "[redact]\nenabled = false\n").expect("config");
    let config = config.to_string_lossy().into_owned();
    lib.run_stdin(&["--config", &config, "add", "-"], &item.to_string())
        .ok();
    let mut server =
        Server::start_with(
            lib.command()
                .args(["--config", &config, "mcp", "--allow-writes"]),
        );
    let answer = server.tool("add", item.clone()).expect("added");
    assert_eq!(answer["redacted"], json!({}));
    let (code, stderr) = server.finish();
    assert_eq!(code, 0, "{stderr}");
    let title = item["title"].as_str().expect("title");
    assert_eq!(
        lib.count(&format!(
            "select count(*) from items where title = '{}'",
            title.replace('\'', "''")
        )),
        4
    );

    // Without secrets: no stderr line, an empty object.
    let out = lib
        .run(&["add", "--source", "s", "--title", "plain words"])
        .ok();
    assert_eq!(out.stderr, "");
    let out = lib
        .run(&["--json", "add", "--source", "s", "--title", "plain words 2"])
        .ok();
    assert_eq!(out.json()["redacted"], json!({}));
}
