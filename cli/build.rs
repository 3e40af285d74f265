//! Embeds every `sql/*.sql` file and every `sql/migrations/NNNN_name.sql` in the binary,
//! and the same of `sql/sessions/` (the hook's session state, a file of its own), so
//! that the SQL a DBA reads is exactly the SQL the CLI runs.
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    // Read when the script runs, not when it was compiled: checkouts that share a target
    // directory share one compiled script, and each must embed its own SQL.
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("..").join("sql");
    let out_dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    let out = Path::new(&out_dir);
    // The library's migrations start from an empty file: 1, 2, 3 …
    let code = migrations(&root.join("migrations"), 1);
    std::fs::write(out.join("migrations.rs"), code).expect("write migrations.rs");
    std::fs::write(out.join("queries.rs"), queries(&root, "")).expect("write queries.rs");
    // The session state's version 1 was made before its SQL was kept in files: its
    // migrations start from it, at 2.
    let sessions = root.join("sessions");
    let mut code = migrations(&sessions.join("migrations"), 2);
    code.push_str(&queries(&sessions, "sessions/"));
    std::fs::write(out.join("sessions.rs"), code).expect("write sessions.rs");
    for dir in [
        root.clone(),
        root.join("migrations"),
        sessions.clone(),
        sessions.join("migrations"),
    ] {
        println!("cargo:rerun-if-changed={}", dir.display());
    }
}

/// The `.sql` files of `dir`, in order of name.
fn sql_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .collect();
    files.sort();
    files
}

fn stem(path: &Path) -> &str {
    path.file_stem()
        .and_then(|s| s.to_str())
        .expect("UTF-8 name")
}

/// `MIGRATIONS`: `(version, name, sql)` of each `NNNN_name.sql` of `dir`, numbered from
/// `first` without gaps.
fn migrations(dir: &Path, first: u32) -> String {
    let mut code = String::from("/// `(version, name, sql)` of every migration, in order.\n");
    code.push_str("pub const MIGRATIONS: &[(u32, &str, &str)] = &[\n");
    for (i, path) in sql_files(dir).iter().enumerate() {
        let (number, name) = stem(path)
            .split_once('_')
            .expect("migration named NNNN_name.sql");
        let version: u32 = number.parse().expect("migration number");
        assert_eq!(
            version,
            first + i as u32,
            "the migrations of {} are numbered {first}, {} … without gaps",
            dir.display(),
            first + 1
        );
        writeln!(
            code,
            "    ({version}, {name:?}, include_str!({:?})),",
            path.display()
        )
        .unwrap();
    }
    code.push_str("];\n");
    code
}

/// One `Query` constant per query file of `dir` (`SEARCH` is `search.sql`), and `ALL`:
/// a misspelt name does not compile. `prefix` is the folder's path in `sql/`.
fn queries(dir: &Path, prefix: &str) -> String {
    let mut code = String::new();
    let mut names = Vec::new();
    for path in sql_files(dir) {
        let stem = stem(&path);
        let constant = stem.to_uppercase();
        writeln!(
            code,
            "/// `sql/{prefix}{stem}.sql`.\npub const {constant}: Query = Query {{ name: \"{prefix}{stem}\", sql: include_str!({:?}) }};",
            path.display()
        )
        .unwrap();
        names.push(constant);
    }
    writeln!(
        code,
        "/// Every query file of `sql/{prefix}`.\npub const ALL: &[Query] = &[{}];",
        names.join(", ")
    )
    .unwrap();
    code
}
