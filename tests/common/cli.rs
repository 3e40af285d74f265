//! Spawning the real `recall` binary on temporary libraries.
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Command, Output};

use super::{pipe, profile_dir};

pub fn recall_bin() -> PathBuf {
    let bin = profile_dir().join(format!("recall{}", std::env::consts::EXE_SUFFIX));
    assert!(
        bin.exists(),
        "{} is missing: run `make test`, or `cargo build --workspace --features recall-cli/test-hooks` first",
        bin.display()
    );
    bin
}

/// A temporary directory with a library path in it (not created until `init`).
pub struct TempLib {
    pub dir: tempfile::TempDir,
    pub db: PathBuf,
}

#[derive(Debug)]
pub struct Ran {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Ran {
    pub fn from(out: Output) -> Ran {
        Ran {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e}): {}\nstderr: {}",
                self.stdout, self.stderr
            )
        })
    }

    /// The names of the checks a `check --json` report marks as failed.
    pub fn failed_checks(&self) -> Vec<String> {
        self.json()["checks"]
            .as_array()
            .expect("checks")
            .iter()
            .filter(|c| c["ok"] == false)
            .map(|c| c["name"].as_str().expect("name").to_string())
            .collect()
    }

    /// Asserts success and returns self.
    pub fn ok(self) -> Ran {
        assert_eq!(self.code, 0, "expected success; stderr: {}", self.stderr);
        self
    }

    /// Asserts failure with exactly one stderr line containing `needle`: `recall: …`,
    /// or under `--json` an object `{"error": "…", "exit_code": …}`.
    pub fn fails_with(self, needle: &str) -> Ran {
        assert_ne!(self.code, 0, "expected failure; stdout: {}", self.stdout);
        let lines: Vec<&str> = self.stderr.lines().collect();
        assert_eq!(
            lines.len(),
            1,
            "expected one error line, got: {:?}",
            self.stderr
        );
        let message = match serde_json::from_str::<serde_json::Value>(lines[0]) {
            Ok(v) => {
                assert_eq!(v["exit_code"], self.code, "{}", lines[0]);
                v["error"].as_str().expect("error text").to_string()
            }
            Err(_) => {
                assert!(lines[0].starts_with("recall: "), "{}", lines[0]);
                lines[0].to_string()
            }
        };
        assert!(
            message.contains(needle),
            "error {:?} lacks {needle:?}",
            lines[0]
        );
        self
    }
}

impl TempLib {
    pub fn new() -> TempLib {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("library.db");
        TempLib { dir, db }
    }

    /// A library at schema version 1 (`init` through the test hook), for `migrate` tests.
    pub fn init_at_version_1() -> TempLib {
        TempLib::init_at_version(1)
    }

    /// A library at an older schema version (`init` through the test hook).
    pub fn init_at_version(version: u32) -> TempLib {
        let lib = TempLib::new();
        let out = lib
            .command()
            .arg("init")
            .env("RECALL_TEST_INIT_VERSION", version.to_string())
            .output()
            .expect("run recall init");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        lib
    }

    /// A library created with `recall init` (and `--tokenizer` when given).
    pub fn init(tokenizer: Option<&str>) -> TempLib {
        let lib = TempLib::new();
        let mut args = vec!["init"];
        if let Some(t) = tokenizer {
            args.extend(["--tokenizer", t]);
        }
        lib.run(&args).ok();
        lib
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    pub fn command(&self) -> Command {
        let mut cmd = Command::new(recall_bin());
        cmd.arg("--db").arg(&self.db);
        cmd.env_remove("RECALL_DB")
            .env_remove("RECALL_CONFIG")
            .env_remove("RECALL_TOKENIZER")
            .env_remove("RECALL_TEST_PAUSE_AT");
        cmd
    }

    pub fn run(&self, args: &[&str]) -> Ran {
        Ran::from(self.command().args(args).output().expect("run recall"))
    }

    pub fn run_stdin(&self, args: &[&str], input: &str) -> Ran {
        Ran::from(pipe(self.command().args(args), input))
    }

    /// Imports JSON Lines given as text.
    pub fn import(&self, jsonl: &str) -> Ran {
        self.run_stdin(&["import", "-"], jsonl)
    }

    pub fn conn(&self) -> rusqlite::Connection {
        let conn = rusqlite::Connection::open(&self.db).expect("open library");
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .expect("busy timeout");
        conn
    }

    pub fn count(&self, sql: &str) -> i64 {
        self.conn().query_row(sql, [], |r| r.get(0)).expect(sql)
    }

    /// Ids whose index entry matches an FTS5 query in the item's own columns (not the
    /// neighbours' titles of its `context` column), sorted.
    pub fn matching(&self, fts_query: &str) -> Vec<i64> {
        self.index_matches(&format!(
            "{{title summary questions atoms project}} : ({fts_query})"
        ))
    }

    /// Ids whose index entry matches an FTS5 query in any column, the neighbours'
    /// titles of the `context` column included, sorted.
    pub fn index_matches(&self, fts_query: &str) -> Vec<i64> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare("select rowid from items_fts where items_fts match ?1 order by rowid")
            .expect("prepare");
        let ids = stmt
            .query_map([fts_query], |r| r.get(0))
            .expect("query")
            .collect::<rusqlite::Result<Vec<i64>>>()
            .expect("rows");
        ids
    }

    /// Folds the log into the library file and empties it, from a connection of the
    /// test (closing it removes the log).
    pub fn checkpoint(&self) {
        self.conn()
            .execute_batch("pragma wal_checkpoint(truncate)")
            .expect("checkpoint");
    }

    /// The library file and its `-wal`, byte for byte (None: no such file), for
    /// "nothing was written" comparisons.
    pub fn files(&self) -> [Option<Vec<u8>>; 2] {
        let wal = {
            let mut p = self.db.as_os_str().to_owned();
            p.push("-wal");
            PathBuf::from(p)
        };
        [std::fs::read(&self.db).ok(), std::fs::read(wal).ok()]
    }

    /// Everything a user could see of the library, for before/after comparisons.
    pub fn snapshot(&self) -> String {
        let conn = self.conn();
        let mut out = String::new();
        for sql in [
            "select group_concat(id || '|' || source || '|' || coalesce(project, '') || '|' || title || '|' || summary || '|' || occurred_at, char(10)) from (select * from items order by id)",
            "select group_concat(key || '=' || value, ';') from (select * from recall_meta where key = 'tokenizer')",
            "select sql from sqlite_master where name = 'items_fts'",
            "select count(*) from items_fts_docsize",
            "pragma user_version",
        ] {
            let v: Option<String> = conn
                .query_row(sql, [], |r| r.get::<_, rusqlite::types::Value>(0))
                .map(|v| Some(format!("{v:?}")))
                .expect(sql);
            out.push_str(&v.unwrap_or_default());
            out.push('\n');
        }
        out
    }
}

const SOURCES: [&str; 3] = ["agent-a", "agent-b", "human"];

/// JSON Lines of `n` generated items in a few projects and sources.
pub fn generated_items(n: usize) -> String {
    let mut out = String::new();
    for i in 0..n {
        out.push_str(
            &serde_json::json!({
                "source": SOURCES[i % 3],
                "project": format!("project-{}", i % 7),
                "title": format!("Item {i}: migrate the widget{} table", i % 101),
                "summary": format!("Summary {i} with keyword{} and analytics{}", i % 13, i % 17),
                "occurred_at": format!("2024-{:02}-{:02}T10:00:00Z", 1 + i % 12, 1 + i % 28),
            })
            .to_string(),
        );
        out.push('\n');
    }
    out
}

/// A fixture item, as one line of JSON Lines: `titled("x").project("p").at(T).line()`.
/// What is not said defaults to source "s", no project, an empty summary, and
/// 2025-01-01T00:00:00Z.
pub struct Fixture(serde_json::Value);

pub fn titled(title: &str) -> Fixture {
    Fixture(serde_json::json!({
        "source": "s", "project": null, "title": title, "summary": "",
        "occurred_at": "2025-01-01T00:00:00Z",
    }))
}

impl Fixture {
    pub fn source(mut self, source: &str) -> Fixture {
        self.0["source"] = source.into();
        self
    }

    pub fn project(mut self, project: &str) -> Fixture {
        self.0["project"] = project.into();
        self
    }

    pub fn summary(mut self, summary: &str) -> Fixture {
        self.0["summary"] = summary.into();
        self
    }

    pub fn at(mut self, occurred_at: &str) -> Fixture {
        self.0["occurred_at"] = occurred_at.into();
        self
    }

    pub fn line(self) -> String {
        self.0.to_string()
    }
}

/// `n` filler items of project "f" that share no word with the fixtures: they keep the
/// IDF of the fixtures' words above FTS5's floor.
pub fn fillers(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            titled(&format!("filler {i}"))
                .source("f")
                .project("f")
                .at("2023-01-01T00:00:00Z")
                .line()
        })
        .collect()
}

/// The ids of a `--json` answer's results, in order.
pub fn ids(answer: &serde_json::Value) -> Vec<i64> {
    answer["results"]
        .as_array()
        .unwrap_or_else(|| panic!("no results in {answer}"))
        .iter()
        .map(|r| r["id"].as_i64().expect("id"))
        .collect()
}

impl TempLib {
    /// A library holding these items (ids 1, 2, … in order).
    pub fn with_items(tokenizer: Option<&str>, items: &[String]) -> TempLib {
        let lib = TempLib::init(tokenizer);
        lib.import(&items.join("\n")).ok();
        lib
    }

    /// `recall --json ARGS`, which must succeed.
    pub fn json(&self, args: &[&str]) -> serde_json::Value {
        let mut full = vec!["--json"];
        full.extend_from_slice(args);
        self.run(&full).ok().json()
    }

    /// Relevance (-bm25 with search's weights, the neighbours' titles included) of every
    /// item matching `fts_query`,
    /// straight from FTS5: the independent side of ranking tests.
    pub fn relevance(&self, fts_query: &str) -> Vec<(i64, f64)> {
        let conn = self.conn();
        let weights = format!(
            "2.0, 1.0, 1.5, 1.5, 0.5, {}",
            recall_core::defaults::CONTEXT_COLUMN_WEIGHT
        );
        let mut stmt = conn
            .prepare(&format!(
                "select rowid, -bm25(items_fts, {weights}) from items_fts
                 where items_fts match ?1 order by bm25(items_fts, {weights})"
            ))
            .expect("prepare");
        let rows = stmt
            .query_map([fts_query], |r| Ok((r.get(0)?, r.get(1)?)))
            .expect("query")
            .collect::<rusqlite::Result<Vec<(i64, f64)>>>()
            .expect("rows");
        rows
    }
}

impl TempLib {
    /// The same library with every item's context empty (index radius 0, recorded, then
    /// `recall rebuild`): for tests of what the neighbours' titles in the index are not.
    pub fn without_index_context(self) -> TempLib {
        self.conn()
            .execute(
                "insert or replace into recall_meta(key, value) values ('index_context_radius', '0')",
                [],
            )
            .expect("record radius 0");
        self.run(&["rebuild"]).ok();
        self
    }

    /// Relevance as `relevance`, of an item's own columns only (the neighbours' titles
    /// neither match nor count), as `later` and `related` read them.
    pub fn relevance_own(&self, fts_query: &str) -> Vec<(i64, f64)> {
        let conn = self.conn();
        let weights = "2.0, 1.0, 1.5, 1.5, 0.5, 0.0";
        let mut stmt = conn
            .prepare(&format!(
                "select rowid, -bm25(items_fts, {weights}) from items_fts
                 where items_fts match '{{title summary questions atoms project}} : (' || ?1 || ')'
                 order by bm25(items_fts, {weights})"
            ))
            .expect("prepare");
        let rows = stmt
            .query_map([fts_query], |r| Ok((r.get(0)?, r.get(1)?)))
            .expect("query")
            .collect::<rusqlite::Result<Vec<(i64, f64)>>>()
            .expect("rows");
        rows
    }

    /// Imports into a library still at an older schema version (which `import` refuses
    /// until migrated), straight through SQL, for migration tests.
    pub fn import_at_v1(&self, jsonl: &str) {
        let conn = self.conn();
        let tx = conn.unchecked_transaction().expect("begin");
        for line in jsonl.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
            tx.execute(
                "insert into items(source, project, title, summary, occurred_at) values (?1, ?2, ?3, ?4, ?5)",
                rusqlite::params![v["source"].as_str(), v["project"].as_str(), v["title"].as_str(), v["summary"].as_str().unwrap_or(""), v["occurred_at"].as_str()],
            )
            .expect("insert");
        }
        tx.commit().expect("commit");
    }
}

/// Waits until a command started with `RECALL_TEST_PAUSE_AT` (stderr piped) announces its
/// pause point, then kills it with SIGKILL.
pub fn kill_at_pause(mut child: std::process::Child) {
    use std::io::Read;
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let mut seen = String::new();
    let mut buf = [0u8; 256];
    while !seen.contains("recall: paused at ") {
        let n = stderr.read(&mut buf).expect("read stderr");
        assert!(n > 0, "the command ended before its pause point (a recall built without --features recall-cli/test-hooks? `make test` builds it so): {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    child.kill().expect("SIGKILL");
    child.wait().expect("reap");
}

/// Waits until a command started with `RECALL_TEST_PAUSE_AT` (stderr piped) announces its
/// pause point, sends it `signal`, and returns its exit code and what it said on stderr.
pub fn signal_at_pause(mut child: std::process::Child, signal: i32) -> (i32, String) {
    use std::io::Read;
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let mut seen = String::new();
    let mut buf = [0u8; 256];
    while !seen.contains("recall: paused at ") {
        let n = stderr.read(&mut buf).expect("read stderr");
        assert!(n > 0, "the command ended before its pause point (a recall built without --features recall-cli/test-hooks? `make test` builds it so): {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    let pid = i32::try_from(child.id()).expect("pid");
    // SAFETY: signalling our own child process, still unreaped.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0, "kill");
    let _ = stderr.read_to_string(&mut seen);
    let status = child.wait().expect("reap");
    let rest = seen
        .lines()
        .filter(|l| !l.starts_with("recall: paused at "))
        .collect::<Vec<_>>()
        .join("\n");
    (status.code().unwrap_or(-1), rest)
}

/// The two columns of `sql`'s rows, as a map from the first to the second.
pub fn pairs<K, V>(lib: &TempLib, sql: &str) -> BTreeMap<K, V>
where
    K: rusqlite::types::FromSql + Ord,
    V: rusqlite::types::FromSql,
{
    two_columns(lib, sql).into_iter().collect()
}

/// The two columns of `sql`'s rows, in its order.
pub fn two_columns<A, B>(lib: &TempLib, sql: &str) -> Vec<(A, B)>
where
    A: rusqlite::types::FromSql,
    B: rusqlite::types::FromSql,
{
    let conn = lib.conn();
    let mut stmt = conn.prepare(sql).expect("prepare");
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("query")
        .collect::<rusqlite::Result<Vec<(A, B)>>>()
        .expect("rows");
    rows
}
