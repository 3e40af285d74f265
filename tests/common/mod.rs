//! Shared by the end-to-end tests: finding the built extension, reading the SQL test
//! files, and running statements in each host (the Debian `sqlite3` shell, the system
//! Python's `sqlite3`, rusqlite's bundled SQLite with the extension loaded, and
//! rusqlite with the CLI's own adapter registered).
#![allow(dead_code)]

pub mod cli;
pub mod damage;
pub mod mcp;
pub mod pieces;
pub mod serving;
pub mod vectors;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub const SHELL: &str = "sqlite3";
pub const SYSTEM_PYTHON: &str = "/usr/bin/python3";

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory that holds this test binary's profile outputs (`target/debug`),
/// wherever `CARGO_TARGET_DIR` put it.
pub fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    // target/<profile>/deps/<test binary>
    exe.parent()
        .and_then(Path::parent)
        .expect("test binary lives in <target>/<profile>/deps")
        .to_path_buf()
}

/// The built loadable extension, without its suffix (as `.load` takes it).
pub fn extension_path() -> PathBuf {
    let dir = profile_dir();
    let lib = dir.join(format!("librecall0{}", std::env::consts::DLL_SUFFIX));
    assert!(
        lib.exists(),
        "{} is missing: build it first with `cargo build --workspace` (the README's `make test` does)",
        lib.display()
    );
    dir.join("librecall0")
}

/// One line of a SQL test file.
#[derive(Debug, Clone)]
pub enum Line {
    /// `select 'id', <expr>;` that must return the single row `id|1`.
    Check { id: String, sql: String },
    /// A statement that must fail with an error containing `expected`.
    Error {
        id: String,
        sql: String,
        expected: String,
    },
    /// Anything else (create, insert): must succeed.
    Setup { sql: String },
}

impl Line {
    pub fn sql(&self) -> &str {
        match self {
            Line::Check { sql, .. } | Line::Error { sql, .. } | Line::Setup { sql } => sql,
        }
    }
}

pub fn sql_files() -> Vec<PathBuf> {
    files_in("tests/sql", "sql")
}

/// The cells of a table of a page of the repository: the rows starting with `row_start`
/// in the section under `heading` (up to the next `## `), each split on ` | `.
/// The schema version a library has once every migration of `sql/migrations` ran: the
/// number of the last one (they are numbered from 1 with no gap).
pub fn latest_version() -> i64 {
    files_in("sql/migrations", "sql").len() as i64
}

/// "1, 2, …, N" for the migrations up to the latest, as messages list them.
pub fn all_versions() -> String {
    (1..=latest_version())
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every row `sql` returns, each as its values' debug forms joined by `|`: for "nothing
/// changed" comparisons, byte for byte.
pub fn rows_as_text(conn: &rusqlite::Connection, sql: &str) -> Vec<String> {
    let mut stmt = conn.prepare(sql).expect("select");
    let n = stmt.column_count();
    stmt.query_map([], |r| {
        (0..n)
            .map(|i| {
                r.get::<_, rusqlite::types::Value>(i)
                    .map(|v| format!("{v:?}"))
            })
            .collect::<rusqlite::Result<Vec<_>>>()
            .map(|v| v.join("|"))
    })
    .and_then(|rows| rows.collect())
    .expect("rows")
}

pub fn doc_table(page: &str, heading: &str, row_start: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(root().join(page)).unwrap_or_else(|e| panic!("{page}: {e}"));
    let section = text
        .split(heading)
        .nth(1)
        .unwrap_or_else(|| panic!("{page} has no '{heading}' section"));
    section
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with(row_start))
        .map(|row| {
            row.trim()
                .trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The files of a directory of the repository with this extension, sorted.
pub fn files_in(dir: &str, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    files
}

pub fn parse_sql_file(path: &Path) -> Vec<Line> {
    let text = std::fs::read_to_string(path).expect("read SQL test file");
    let mut lines = Vec::new();
    for raw in text.lines() {
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with("--") {
            continue;
        }
        let id = raw
            .strip_prefix("select '")
            .and_then(|rest| rest.split_once('\''))
            .map(|(id, _)| id.to_string());
        match (id, raw.split_once(" -- error: ")) {
            (Some(id), Some((sql, expected))) => lines.push(Line::Error {
                id,
                sql: sql.to_string(),
                expected: expected.to_string(),
            }),
            (Some(id), None) => lines.push(Line::Check {
                id,
                sql: raw.to_string(),
            }),
            (None, _) => lines.push(Line::Setup {
                sql: raw.to_string(),
            }),
        }
    }
    lines
}

/// What running statements in a host gave: rows per statement that ran, and the first
/// error (all of stderr for the shell).
#[derive(Debug, Default)]
pub struct Run {
    pub outputs: Vec<Vec<Vec<Option<String>>>>,
    pub error: Option<String>,
}

pub trait SqlHost {
    fn name(&self) -> String;
    fn run(&self, statements: &[String]) -> Run;
}

/// The `sqlite3` command-line shell. Statements are separated by `.print` markers so
/// that each one's rows can be told apart.
pub struct Shell;

const MARKER: &str = "@@statement@@";

impl SqlHost for Shell {
    fn name(&self) -> String {
        format!("{SHELL} shell")
    }

    fn run(&self, statements: &[String]) -> Run {
        let mut script = format!(".load {}\n", extension_path().display());
        for sql in statements {
            script.push_str(&format!(".print {MARKER}\n{sql}\n"));
        }
        let out = pipe(Command::new(SHELL).args(["-batch", ":memory:"]), &script);
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
        let outputs = stdout
            .split(&format!("{MARKER}\n"))
            .skip(1)
            .map(|chunk| {
                chunk
                    .lines()
                    .map(|l| l.split('|').map(|v| Some(v.to_string())).collect())
                    .collect()
            })
            .collect();
        let error = if !out.status.success() || !stderr.is_empty() {
            Some(format!("exit {}: {stderr}", out.status))
        } else {
            None
        };
        Run { outputs, error }
    }
}

/// `/usr/bin/python3` and its `sqlite3` module.
pub struct Python;

impl SqlHost for Python {
    fn name(&self) -> String {
        format!("{SYSTEM_PYTHON} sqlite3")
    }

    fn run(&self, statements: &[String]) -> Run {
        run_python(Path::new(SYSTEM_PYTHON), "sqlite3", statements)
    }
}

/// pysqlite3-binary 0.5.3 in a virtual environment (tests/hosts/pysqlite3_venv.sh): the
/// sqlite3 module against SQLite 3.46.0.
pub struct Pysqlite3;

impl SqlHost for Pysqlite3 {
    fn name(&self) -> String {
        "pysqlite3-binary 0.5.3 (SQLite 3.46.0)".to_string()
    }

    fn run(&self, statements: &[String]) -> Run {
        static PYTHON: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
        let python = PYTHON.get_or_init(|| {
            let out = Command::new(root().join("tests/hosts/pysqlite3_venv.sh"))
                .output()
                .expect("tests/hosts/pysqlite3_venv.sh");
            assert!(
                out.status.success(),
                "pysqlite3_venv.sh failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
        });
        run_python(python, "pysqlite3", statements)
    }
}

/// The statements run by tests/hosts/run_statements.py in `python`, with `module`.
fn run_python(python: &Path, module: &str, statements: &[String]) -> Run {
    {
        let request = serde_json::json!({
            "extension": extension_path(),
            "module": module,
            "statements": statements,
        });
        let out = pipe(
            Command::new(python).arg(root().join("tests/hosts/run_statements.py")),
            &request.to_string(),
        );
        assert!(
            out.status.success(),
            "python host failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        let reply: serde_json::Value =
            serde_json::from_slice(&out.stdout).expect("python host prints JSON");
        let outputs = reply["outputs"]
            .as_array()
            .expect("outputs")
            .iter()
            .map(|rows| {
                rows.as_array()
                    .expect("rows")
                    .iter()
                    .map(|row| {
                        row.as_array()
                            .expect("row")
                            .iter()
                            .map(|v| v.as_str().map(str::to_string))
                            .collect()
                    })
                    .collect()
            })
            .collect();
        Run {
            outputs,
            error: reply["error"].as_str().map(str::to_string),
        }
    }
}

/// rusqlite's bundled SQLite, either loading the extension or registered by sqlite-recall-rusqlite (as the CLI does).
pub enum Rusqlite {
    LoadExtension,
    Register,
}

impl Rusqlite {
    pub fn connect(&self) -> rusqlite::Connection {
        let conn = rusqlite::Connection::open_in_memory().expect("open in-memory database");
        match self {
            Rusqlite::LoadExtension => load_extension(&conn),
            Rusqlite::Register => sqlite_recall_rusqlite::register(&conn).expect("register"),
        }
        conn
    }
}

pub fn load_extension(conn: &rusqlite::Connection) {
    // SAFETY: loading the extension this workspace just built.
    unsafe {
        let _guard = rusqlite::LoadExtensionGuard::new(conn).expect("enable extension loading");
        conn.load_extension(extension_path(), None::<&str>)
            .expect("load librecall0");
    }
}

impl SqlHost for Rusqlite {
    fn name(&self) -> String {
        match self {
            Rusqlite::LoadExtension => format!("rusqlite {} + librecall0", rusqlite::version()),
            Rusqlite::Register => {
                format!("rusqlite {} + sqlite-recall-rusqlite", rusqlite::version())
            }
        }
    }

    fn run(&self, statements: &[String]) -> Run {
        let conn = self.connect();
        let mut run = Run::default();
        for sql in statements {
            match query_strings(&conn, sql) {
                Ok(rows) => run.outputs.push(rows),
                Err(e) => {
                    run.error = Some(e.to_string());
                    break;
                }
            }
        }
        run
    }
}

pub fn query_strings(
    conn: &rusqlite::Connection,
    sql: &str,
) -> rusqlite::Result<Vec<Vec<Option<String>>>> {
    use rusqlite::types::ValueRef;
    let mut stmt = conn.prepare(sql)?;
    let n = stmt.column_count();
    let mut rows = stmt.query([])?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        let mut values = Vec::with_capacity(n);
        for i in 0..n {
            values.push(match row.get_ref(i)? {
                ValueRef::Null => None,
                ValueRef::Integer(v) => Some(v.to_string()),
                ValueRef::Real(v) => Some(v.to_string()),
                ValueRef::Text(t) => Some(String::from_utf8_lossy(t).into_owned()),
                ValueRef::Blob(b) => Some(format!("{b:?}")),
            });
        }
        out.push(values);
    }
    Ok(out)
}

pub fn all_hosts() -> Vec<Box<dyn SqlHost>> {
    vec![
        Box::new(Shell),
        Box::new(Python),
        Box::new(Pysqlite3),
        Box::new(Rusqlite::LoadExtension),
        Box::new(Rusqlite::Register),
    ]
}

/// Runs a script in the `sqlite3` shell (with `args`, e.g. a database path), asserting it
/// printed nothing on stderr; returns stdout.
pub fn shell_ok(args: &[&std::ffi::OsStr], script: &str) -> String {
    let mut cmd = Command::new(SHELL);
    cmd.arg("-batch").args(args);
    let out = pipe(&mut cmd, script);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "sqlite3 said: {stderr}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs a command with `input` on stdin and collects its output.
pub fn pipe(cmd: &mut Command, input: &str) -> std::process::Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("wait for child");
    let _ = writer.join();
    out
}

/// The adversarial FTS5 tables (`tests/fts_tables.sql`, with the 3.45+ one), created in
/// `conn`; returns each table and the tokenizer spec to give `recall_match`.
pub fn adversarial_fts_tables(conn: &rusqlite::Connection) -> Vec<(String, String)> {
    for file in ["fts_tables.sql", "fts_tables_345.sql"] {
        let sql = std::fs::read_to_string(root().join("tests").join(file)).expect(file);
        conn.execute_batch(&sql).expect(file);
    }
    let mut stmt = conn
        .prepare("select name, tokenizer from fts_tables order by name")
        .expect("fts_tables");
    let tables = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("query")
        .collect::<rusqlite::Result<Vec<(String, String)>>>()
        .expect("rows");
    tables
}

/// The tests that load the whole machine (the concurrency soak, the crash matrices, the
/// exhaustive and 100,000-input runs) take turns: side by side they would stretch each
/// other's timing-sensitive parts. Light tests run beside them as usual.
pub fn heavy() -> std::sync::MutexGuard<'static, ()> {
    static HEAVY: std::sync::Mutex<()> = std::sync::Mutex::new(());
    // A heavy test that failed still hands its turn on.
    HEAVY.lock().unwrap_or_else(|e| e.into_inner())
}

/// The one block of memory a hook's text holds (`cli/src/memory_block.rs`), checked: it
/// opens with its mark, says first that its notes are data, closes with the same mark,
/// and no other text in it reads as the tag. Returns the lines between the framing and
/// the closing tag (the heading first), and the text after the block.
pub fn memory_block(text: &str) -> (Vec<String>, String) {
    use recall_cli::memory_block::{FRAME, TAG};
    let lower = text.to_ascii_lowercase();
    let tags = lower
        .match_indices('<')
        .filter(|(i, _)| {
            lower[i + 1..]
                .trim_start_matches(|c: char| c == '/' || c.is_whitespace())
                .starts_with(TAG)
        })
        .count();
    assert_eq!(tags, 2, "one opening and one closing tag: {text}");
    let mut lines = text.lines();
    let open = lines.next().expect("an opening line");
    let mark = open
        .strip_prefix(&format!("<{TAG} block=\""))
        .and_then(|rest| rest.strip_suffix("\">"))
        .unwrap_or_else(|| panic!("not an opening tag: {open:?}"));
    assert_eq!(mark.len(), 12, "{open}");
    assert_eq!(lines.next(), Some(FRAME), "the framing line");
    let close = format!("</{TAG} block=\"{mark}\">");
    let mut inner = Vec::new();
    for line in lines.by_ref() {
        if line == close {
            let rest: Vec<&str> = lines.collect();
            return (inner, rest.join("\n"));
        }
        inner.push(line.to_string());
    }
    panic!("no closing tag {close:?} in {text}");
}
