//! Damaging libraries on purpose, and reading what `check` says about them.
use std::os::unix::process::CommandExt;
use std::process::Stdio;

use super::cli::{Ran, TempLib};

/// Runs SQL on the library through rusqlite's SQLite (which builds every tokenizer,
/// unlike the Debian shell), as a user with the `sqlite3` shell would.
pub fn damage(lib: &TempLib, sql: &str) {
    lib.conn()
        .execute_batch(sql)
        .unwrap_or_else(|e| panic!("damaging with {sql:?}: {e}"));
}

/// `check --json`: its exit code and every (name, ok, detail).
pub fn check(lib: &TempLib) -> (i32, Vec<(String, bool, String)>) {
    let ran = lib.run(&["--json", "check"]);
    assert!(
        ran.code == 0 || ran.code == 1,
        "check could not run: {ran:?}"
    );
    let report = ran.json();
    let checks = report["checks"]
        .as_array()
        .unwrap_or_else(|| panic!("no checks in {report}"))
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap_or_default().to_string(),
                c["ok"] == true,
                c["detail"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    (ran.code, checks)
}

/// The (name, detail) of every problem `check` reports.
pub fn problems(lib: &TempLib) -> Vec<(String, String)> {
    let (code, checks) = check(lib);
    let found: Vec<(String, String)> = checks
        .into_iter()
        .filter(|c| !c.1)
        .map(|c| (c.0, c.2))
        .collect();
    assert_eq!(
        code,
        if found.is_empty() { 0 } else { 1 },
        "exit code against {found:?}"
    );
    found
}

/// The detail of the problem `name`, which must be reported.
pub fn problem(lib: &TempLib, name: &str) -> String {
    let found = problems(lib);
    found
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, d)| d.clone())
        .unwrap_or_else(|| panic!("check reports no problem {name:?}: {found:?}"))
}

pub fn assert_clean(lib: &TempLib) {
    let found = problems(lib);
    assert!(found.is_empty(), "check still reports {found:?}");
}

/// Everything stored, schema and rows of every ordinary table, for before/after
/// comparisons of libraries too damaged for `TempLib::snapshot`.
pub fn state(lib: &TempLib) -> String {
    let conn = lib.conn();
    let mut out = String::new();
    let version: i64 = conn
        .query_row("pragma user_version", [], |r| r.get(0))
        .expect("user_version");
    out.push_str(&format!("user_version {version}\n"));
    let objects: Vec<(String, String, Option<String>)> = conn
        .prepare("select type, name, sql from sqlite_master order by type, name")
        .and_then(|mut s| {
            s.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect()
        })
        .expect("sqlite_master");
    for (kind, name, sql) in &objects {
        out.push_str(&format!("{kind} {name}: {sql:?}\n"));
        let ordinary = kind == "table"
            && !sql
                .as_deref()
                .unwrap_or_default()
                .to_lowercase()
                .starts_with("create virtual");
        if ordinary {
            let rows = super::rows_as_text(&conn, &format!("select * from \"{name}\" order by 1"));
            out.push_str(&rows.join("\n"));
            out.push('\n');
        }
    }
    out
}

/// Ids of the items whose title holds `word`, read from the items, not from the index:
/// what a search for that word must find.
pub fn titled(lib: &TempLib, word: &str) -> Vec<i64> {
    let conn = lib.conn();
    let mut stmt = conn
        .prepare("select id from items where instr(lower(title), lower(?1)) > 0 order by id")
        .expect("prepare");
    let ids = stmt
        .query_map([word], |r| r.get(0))
        .expect("query")
        .collect::<rusqlite::Result<Vec<i64>>>()
        .expect("ids");
    ids
}

/// The ids `recall search` finds, sorted.
pub fn found(lib: &TempLib, query: &str) -> Vec<i64> {
    let answer = lib.json(&["search", query, "--limit", "50", "--pool", "5000"]);
    let mut ids = super::cli::ids(&answer);
    ids.sort_unstable();
    ids
}

/// Who runs a command that must not be able to write the library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stranger {
    /// Root runs it as uid/gid 65534: files owned by root, mode 644, are read-only to it.
    OtherUser,
    /// Not root: the files are made read-only with chmod for this same user.
    ChmodOnly,
}

pub fn stranger() -> Stranger {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        Stranger::OtherUser
    } else {
        Stranger::ChmodOnly
    }
}

pub fn chmod(path: &std::path::Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .unwrap_or_else(|e| panic!("chmod {}: {e}", path.display()));
}

/// Takes write access away from the stranger: the library, its -wal and -shm where they
/// exist, and its directory (which stays readable and searchable).
pub fn protect(lib: &TempLib, who: Stranger) {
    let (file, dir) = match who {
        Stranger::OtherUser => (0o644, 0o755),
        Stranger::ChmodOnly => (0o444, 0o555),
    };
    for suffix in ["", "-wal", "-shm"] {
        let p = std::path::PathBuf::from(format!("{}{suffix}", lib.db.display()));
        if p.exists() {
            chmod(&p, file);
        }
    }
    chmod(lib.dir.path(), dir);
}

/// Gives write access back, so that the test's own connections and clean-up work.
pub fn unprotect(lib: &TempLib) {
    chmod(lib.dir.path(), 0o755);
    for suffix in ["", "-wal", "-shm"] {
        let p = std::path::PathBuf::from(format!("{}{suffix}", lib.db.display()));
        if p.exists() {
            chmod(&p, 0o644);
        }
    }
}

/// Runs `recall ARGS` as the stranger.
pub fn run_as(lib: &TempLib, who: Stranger, args: &[&str]) -> Ran {
    let mut cmd = lib.command();
    cmd.args(args).stdin(Stdio::null());
    if who == Stranger::OtherUser {
        cmd.uid(65534).gid(65534);
    }
    let out = cmd.output().expect("run recall");
    Ran {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// How `smash` damages a table's pages in the file.
#[derive(Debug, Clone, Copy)]
pub enum Smash {
    /// Its root page overwritten with bytes that are no b-tree page.
    RootGarbage,
    /// Every page it has zeroed.
    AllZero,
}

/// Damages the pages of `table` in the library file itself, as a failing disk or a
/// stray write would: what SQL cannot do. Checkpointed first, so the file is the whole
/// library.
pub fn smash(lib: &TempLib, table: &str, how: Smash) {
    use std::io::{Seek, SeekFrom, Write};
    lib.checkpoint();
    let (page_size, pages): (i64, Vec<i64>) = {
        let conn = lib.conn();
        let size: i64 = conn
            .query_row("pragma page_size", [], |r| r.get(0))
            .expect("page_size");
        let sql = match how {
            Smash::RootGarbage => "select rootpage from sqlite_master where name = ?1",
            Smash::AllZero => "select pageno from dbstat where name = ?1",
        };
        let pages = conn
            .prepare(sql)
            .and_then(|mut s| s.query_map([table], |r| r.get(0))?.collect())
            .expect("pages");
        (size, pages)
    };
    assert!(!pages.is_empty(), "{table} has no pages");
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .open(&lib.db)
        .expect("open library file");
    for page in pages {
        let bytes: Vec<u8> = match how {
            Smash::RootGarbage => (0..page_size).map(|i| (i * 37 + 11) as u8).collect(),
            Smash::AllZero => vec![0; page_size as usize],
        };
        file.seek(SeekFrom::Start(((page - 1) * page_size) as u64))
            .expect("seek");
        file.write_all(&bytes).expect("write");
    }
}

/// The command a fix names last, "run `recall X Y`", as arguments (without `recall`).
pub fn named_command(fix: &str) -> Vec<String> {
    let start = fix
        .rfind("run `recall ")
        .unwrap_or_else(|| panic!("no command named in {fix:?}"))
        + "run `recall ".len();
    let end = fix[start..].find('`').expect("closing quote") + start;
    fix[start..end]
        .split_whitespace()
        .map(str::to_string)
        .collect()
}
