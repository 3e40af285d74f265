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
    /// Which lines the title holds: the one-line ones, as many as its 4 KiB allow.
    in_title: Vec<bool>,
}

fn case() -> Case {
    let all = one_of_each_kind();
    let mut room = recall_cli::item::MAX_TITLE;
    let in_title = all
        .iter()
        .map(|c| {
            let fits = !c.1.contains('\n') && c.1.len() + 3 <= room;
            if fits {
                room -= c.1.len() + 3;
            }
            fits
        })
        .collect();
    Case {
        kinds: all.iter().map(|c| c.0.clone()).collect(),
        lines: all.iter().map(|c| c.1.clone()).collect(),
        secrets: all.iter().map(|c| c.2.clone()).collect(),
        clean: all.iter().map(|c| c.3.clone()).collect(),
        in_title,
    }
}

impl Case {
    fn title_of(&self, lines: &[String]) -> String {
        let chosen: Vec<&str> = lines
            .iter()
            .zip(&self.in_title)
            .filter(|(_, t)| **t)
            .map(|(l, _)| l.as_str())
            .collect();
        chosen.join(" | ")
    }

    /// The item with every secret in every text field (the title: those it holds).
    fn item(&self) -> Value {
        json!({
            "source": "agent-test", "title": self.title_of(&self.lines),
            "summary": self.lines.join("\n"), "questions": self.lines, "atoms": self.lines,
            "occurred_at": "2025-03-04T05:06:07Z", "transcript": self.lines.join("\n"),
        })
    }

    /// How many secrets of each kind an item holds: one in each of its fields.
    fn per_item(&self) -> Vec<(String, usize)> {
        self.kinds
            .iter()
            .zip(&self.in_title)
            .map(|(k, t)| (k.clone(), 4 + usize::from(*t)))
            .collect()
    }

    /// `{"kind": n}` for `items` items.
    fn counts(&self, items: usize) -> Value {
        Value::Object(
            self.per_item()
                .into_iter()
                .map(|(k, n)| (k, json!(n * items)))
                .collect(),
        )
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
            assert_eq!(row[0], self.title_of(&self.clean));
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
    assert!(
        c.in_title.iter().filter(|t| **t).count() * 10 >= c.kinds.len() * 8,
        "most kinds are in the title"
    );
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
        c.title_of(&c.lines),
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
    // The most frequent kind first, then by name.
    let mut kinds = c.per_item();
    kinds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let listed: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
    let total: usize = kinds.iter().map(|(_, n)| n).sum();
    assert_eq!(
        out.stderr.trim_end(),
        format!("recall: redacted {total} secrets: {}", listed.join(", "))
    );

    // add -, with --json.
    let out = lib
        .run_stdin(&["--json", "add", "-"], &item.to_string())
        .ok();
    assert_eq!(out.json()["redacted"], c.counts(1));

    // import, two lines: the counts add up.
    let out = lib
        .run_stdin(&["--json", "import", "-"], &format!("{item}\n{item}\n"))
        .ok();
    assert_eq!(out.json()["redacted"], c.counts(2));
    assert_eq!(out.json()["imported"], json!(2));

    // the MCP add tool.
    let mut server = Server::start(&lib, &["--allow-writes"]);
    let answer = server.tool("add", item.clone()).expect("added");
    assert_eq!(answer["redacted"], c.counts(1));
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

/// A line and the secrets in it, in order; a look-alike has none.
type Line = (String, Vec<String>);

fn line(text: &str, secrets: &[&str]) -> Line {
    for s in secrets {
        assert!(text.contains(s), "{s} is not in {text}");
    }
    (
        text.to_string(),
        secrets.iter().map(|s| s.to_string()).collect(),
    )
}

/// The line with each of its secrets replaced, computed from the spans given.
fn cleaned((text, secrets): &Line) -> String {
    let mut out = String::new();
    let mut rest = text.as_str();
    for s in secrets {
        let at = rest.find(s.as_str()).expect("secret in line");
        out.push_str(&rest[..at]);
        out.push_str(MARK);
        rest = &rest[at + s.len()..];
    }
    out.push_str(rest);
    out
}

/// Secrets users paste, of the shapes and names redaction was once blind to: values that
/// start with `$`, `%`, `@` or `*`, names of keys that say neither password nor token,
/// service tokens, Azure's keys and signatures, PuTTY keys, cookies and passwords on
/// command lines. Made up here, apart from the corpus.
fn pasted_secrets() -> Vec<Line> {
    let ppk = "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ed25519-key-20250301\n\
        Public-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIFq9m2Yt0Lw3x8c2Jr5a1bN7dK4sE6vH9uQpZ0yX3wMf\n\
        Zk4Rj7Ws2Qe9Lm5Nb8Vc1Xt6Yp3Ua0Io4\nPrivate-Lines: 1\nAAAAIH3nQx8Vr2mK5pL9sT1wY4zB7cE0fG6hJ3kN8qR2uW5x\n\
        Private-MAC: 5d0c6b1a9e8f7d2c4b3a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c";
    let account_key = "q7Hk2Vb9Lm4Np0Rs5Tu8Wx1Yz3Ac6Df9Gh2Jk5Ln8Pq1St4Vw7Yz0Bc3Ef6Hi9Kl2No5Qr8Tu1Wx4Za7Cd0Fg3Ij6Mm9Pp2Ss5V==";
    let sig = "rT9k2Lm%2BqW8xZ4vB7nC1dF6gH3jK5pS0uY2eA9oI4%3D";
    vec![
        line(
            "DJANGO_SECRET_KEY='%k9Xq2!vB7#mN4@pL8&rT6^wZ3*yH5(jF1)sD0-gA9_eC2+uK7$'",
            &["%k9Xq2!vB7#mN4@pL8&rT6^wZ3*yH5(jF1)sD0-gA9_eC2+uK7$"],
        ),
        line(r#"password = "$up3rS3cret!""#, &["$up3rS3cret!"]),
        line("DB_PASSWORD='@dm1n2024!'", &["@dm1n2024!"]),
        line(r#"SECRET_KEY = "*x7Hq!m2Lp9#zR4v""#, &["*x7Hq!m2Lp9#zR4v"]),
        line(r#"  admin_password: "%Tr0ub4dor&3""#, &["%Tr0ub4dor&3"]),
        line(r#"{"api_token": "$$k1Lo9-pQ""#, &["$$k1Lo9-pQ"]),
        line(
            "SECRET_KEY_BASE=4d1f0c9b8a7e6d5c4b3a29180f7e6d5c4b3a2918f0e1d2c3b4a5968778695a4b",
            &["4d1f0c9b8a7e6d5c4b3a29180f7e6d5c4b3a2918f0e1d2c3b4a5968778695a4b"],
        ),
        line("export WEBHOOK_SIGNING_KEY=whk_9Lm2Pq7Rs4Tv", &["whk_9Lm2Pq7Rs4Tv"]),
        line(
            r#"ENCRYPTION_KEY="Jq3vT8yB1nM6kL0pR5sW9xZ2cF4gH7jK=""#,
            &["Jq3vT8yB1nM6kL0pR5sW9xZ2cF4gH7jK="],
        ),
        line("export MYSQL_PWD=Sq1-pass42", &["Sq1-pass42"]),
        line(
            &format!("DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey={account_key};EndpointSuffix=core.windows.net"),
            &[account_key],
        ),
        line(
            &format!("az storage blob download -c db -n dump.sql --url 'https://acmelogs.blob.core.windows.net/db/dump.sql?sv=2022-11-02&sr=b&sp=r&se=2025-05-01T00:00:00Z&sig={sig}'"),
            &[sig],
        ),
        line(
            "SENDGRID_KEY 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",
            &["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"],
        ),
        line(
            "mailgun: key-3f9e1d7c5b3a19f8e7d6c5b4a3928170",
            &["key-3f9e1d7c5b3a19f8e7d6c5b4a3928170"],
        ),
        line(
            r#""client_secret": "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","#,
            &["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"],
        ),
        line(
            "gcloud says ya29.a0AfB_byC3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5zA7bC9dE1 expires in 3599s",
            &["ya29.a0AfB_byC3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5zA7bC9dE1"],
        ),
        line(
            "doctl auth init -t dop_v1_0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9",
            &["dop_v1_0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"],
        ),
        line(
            "X-Shopify-Access-Token: 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",
            &["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"],
        ),
        line(
            "vault token lookup hvs.CAESIJk3Lm9Pq2Rs5Tu8Vw1Xy4Za7Bc0De3Fg6Hi9Jk2Lm",
            &["hvs.CAESIJk3Lm9Pq2Rs5Tu8Vw1Xy4Za7Bc0De3Fg6Hi9Jk2Lm"],
        ),
        line(
            "# AGE-SECRET-KEY-1QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7LQPZRY9X8GF2TVDW0S3JN54KHCE",
            &["AGE-SECRET-KEY-1QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7LQPZRY9X8GF2TVDW0S3JN54KHCE"],
        ),
        line(
            "https://api.telegram.org/bot7012345678:AAHk3Lm9Pq2Rs5Tu8Vw1Xy4Za7Bc0De3Fg6/getUpdates",
            &["7012345678:AAHk3Lm9Pq2Rs5Tu8Vw1Xy4Za7Bc0De3Fg6"],
        ),
        line(
            "DISCORD_BOT=MTE4NzY1NDMyMTA5ODc2NTQzMg.Gh7kLm.Pq2Rs5Tu8Vw1Xy4Za7Bc0De3Fg6Hi9Jk2Lm5No",
            &["MTE4NzY1NDMyMTA5ODc2NTQzMg.Gh7kLm.Pq2Rs5Tu8Vw1Xy4Za7Bc0De3Fg6Hi9Jk2Lm5No"],
        ),
        line(
            "databricks configure --host https://adb-1.azuredatabricks.net with dapi0123456789abcdef0123456789abcdef-2",
            &["dapi0123456789abcdef0123456789abcdef-2"],
        ),
        line(
            "ATLASSIAN=ATATT3xFfGF0Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3Ab4Cd5Ef6Gh7Ij8Kl9Mn0Op1Qr2St3Uv4Wx5Yz6Ab7Cd8Ef9Gh0Ij1Kl2Mn3Op4Qr5St6Uv7Wx8Yz9_-Ab0Cd1=0A1B2C3D",
            &["ATATT3xFfGF0Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3Ab4Cd5Ef6Gh7Ij8Kl9Mn0Op1Qr2St3Uv4Wx5Yz6Ab7Cd8Ef9Gh0Ij1Kl2Mn3Op4Qr5St6Uv7Wx8Yz9_-Ab0Cd1=0A1B2C3D"],
        ),
        line(
            "linear: lin_api_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3A",
            &["lin_api_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3A"],
        ),
        line(
            "sentry-cli --auth-token sntrys_eyJpYXQiOjE3MDAwMDAwMDAsInVybCI6Imh0dHBzOi8vc2VudHJ5LmlvIn0_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3Ab4Cd5 releases list",
            &["sntrys_eyJpYXQiOjE3MDAwMDAwMDAsInVybCI6Imh0dHBzOi8vc2VudHJ5LmlvIn0_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3Ab4Cd5"],
        ),
        line(&format!("$ type key.ppk\n{ppk}"), &[ppk]),
        line(
            "Cookie: _session_id=9f8e7d6c5b4a39281706f5e4d3c2b1a0; remember_user_token=W1sxXSwiJDJhJDEwJG",
            &["_session_id=9f8e7d6c5b4a39281706f5e4d3c2b1a0; remember_user_token=W1sxXSwiJDJhJDEwJG"],
        ),
        line(
            "curl -u deploy:Wint3r-is-c0ming https://artifacts.acme.dev/api/v1/upload",
            &["Wint3r-is-c0ming"],
        ),
        line("mysql -u root -pR00t_pw-2024 -h 127.0.0.1 shop", &["R00t_pw-2024"]),
        line(
            "sshpass -p 'S3cure+Ssh' ssh ops@bastion.acme.lan",
            &["S3cure+Ssh"],
        ),
        line(
            "docker login -u ci -p Regis7ry-Pass registry.acme.dev",
            &["Regis7ry-Pass"],
        ),
        // Look-alikes: the cursor of a listing, a model file, AWS's documented keys.
        line(
            r#"next_page_token = "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA""#,
            &[],
        ),
        line(
            "ollama: loaded models/sk-4f7e8d2c9b1a3e5f6d8c0b2a4e6f8d0c.bin",
            &[],
        ),
        line("aws_access_key_id = AKIAIOSFODNN7EXAMPLE", &[]),
        line(
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            &[],
        ),
        // Whole references stay.
        line(r#"password = "$DB_PASSWORD""#, &[]),
        line(r#"token: "${{ secrets.DEPLOY_TOKEN }}""#, &[]),
        line(r#"TOKEN="$(cat ~/.config/acme/token)""#, &[]),
        line("set DB_PASSWORD=%DB_PASSWORD%", &[]),
    ]
}

#[test]
fn pasted_secrets_are_redacted_through_add_and_capture() {
    let lines = pasted_secrets();
    let secrets: Vec<&String> = lines.iter().flat_map(|l| &l.1).collect();
    let want: Vec<String> = lines.iter().map(cleaned).collect();

    // add -: the transcript is stored with exactly the secrets replaced.
    let lib = TempLib::init(None);
    let text: Vec<&str> = lines.iter().map(|l| l.0.as_str()).collect();
    let item = json!({"source": "agent-test", "title": "pasted",
                      "occurred_at": "2025-03-04T05:06:07Z", "transcript": text.join("\n")});
    let out = lib
        .run_stdin(&["--json", "add", "-"], &item.to_string())
        .ok();
    let counted: u64 = out.json()["redacted"]
        .as_object()
        .expect("counts")
        .values()
        .map(|n| n.as_u64().expect("count"))
        .sum();
    assert_eq!(counted, secrets.len() as u64, "{}", out.stdout);
    let stored: String = lib
        .conn()
        .query_row("select transcript from items", [], |r| r.get(0))
        .expect("transcript");
    let stored: Vec<&str> = stored.split('\n').collect();
    let want_lines: Vec<&str> = want.iter().flat_map(|w| w.split('\n')).collect();
    assert_eq!(stored, want_lines);

    // capture: a Claude Code session with each line a prompt of its own.
    let cap = TempLib::init(None);
    let records: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(i, (text, _))| {
            json!({"type": "user", "sessionId": "s-pasted", "cwd": "/home/dev/shop",
                   "timestamp": format!("2025-05-01T10:{:02}:00Z", i),
                   "message": {"role": "user", "content": text}})
            .to_string()
        })
        .collect();
    // Answered, so that it is work (a prompt never answered makes no item).
    let mut records = records;
    records.push(
        json!({"type": "assistant", "sessionId": "s-pasted", "cwd": "/home/dev/shop",
               "timestamp": "2025-05-01T11:00:00Z",
               "message": {"role": "assistant", "content": [{"type": "text", "text": "Noted."}]}})
        .to_string(),
    );
    let session = cap.path("s-pasted.jsonl");
    std::fs::write(&session, records.join("\n") + "\n").expect("session");
    let out = cap
        .run(&["--json", "capture", session.to_str().expect("path")])
        .ok()
        .json();
    assert_eq!(out["added"], 1, "{out}");
    let transcript: String = cap
        .conn()
        .query_row("select transcript from items", [], |r| r.get(0))
        .expect("transcript");
    // The transcript holds each prompt trimmed, after who said it.
    for w in &want {
        assert!(transcript.contains(w.trim()), "{w:?} not in {transcript}");
    }

    for l in [&lib, &cap] {
        l.checkpoint();
        for bytes in l.files().iter().flatten() {
            for s in &secrets {
                assert!(!contains(bytes, s.as_bytes()), "{s} is in the library");
            }
        }
    }
}
