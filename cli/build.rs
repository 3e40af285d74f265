//! Embeds every `sql/*.sql` file and every `sql/migrations/NNNN_name.sql` in the binary,
//! so that the SQL a DBA reads is exactly the SQL the CLI runs.
use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("sql");
    let mut code = String::from("/// `(version, name, sql)` of every migration, in order.\n");
    code.push_str("pub const MIGRATIONS: &[(u32, &str, &str)] = &[\n");
    let mut migrations: Vec<_> = std::fs::read_dir(root.join("migrations"))
        .expect("sql/migrations exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .collect();
    migrations.sort();
    for (i, path) in migrations.iter().enumerate() {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("UTF-8 name");
        let (number, name) = stem.split_once('_').expect("migration named NNNN_name.sql");
        let version: u32 = number.parse().expect("migration number");
        assert_eq!(
            version as usize,
            i + 1,
            "migrations are numbered 1, 2, 3 … without gaps"
        );
        writeln!(
            code,
            "    ({version}, {name:?}, include_str!({:?})),",
            path.display()
        )
        .unwrap();
    }
    code.push_str("];\n");
    let mut queries: Vec<_> = std::fs::read_dir(&root)
        .expect("sql/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .collect();
    queries.sort();
    code.push_str("/// `(name, sql)` of every query file of `sql/`.\n");
    code.push_str("pub const QUERIES: &[(&str, &str)] = &[\n");
    for path in &queries {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("UTF-8 name");
        writeln!(code, "    ({stem:?}, include_str!({:?})),", path.display()).unwrap();
    }
    code.push_str("];\n");
    let out = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("embedded_sql.rs");
    std::fs::write(out, code).expect("write embedded_sql.rs");
    println!("cargo:rerun-if-changed={}", root.display());
    println!(
        "cargo:rerun-if-changed={}",
        root.join("migrations").display()
    );
}
