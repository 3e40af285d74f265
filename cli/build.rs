//! Embeds every `sql/*.sql` file and every `sql/migrations/NNNN_name.sql` in the binary,
//! so that the SQL a DBA reads is exactly the SQL the CLI runs.
use std::fmt::Write as _;
use std::path::Path;

fn main() {
    // Read when the script runs, not when it was compiled: checkouts that share a target
    // directory share one compiled script, and each must embed its own SQL.
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = Path::new(&manifest).join("..").join("sql");
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
    let out_dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    std::fs::write(Path::new(&out_dir).join("migrations.rs"), code).expect("write migrations.rs");
    let mut queries: Vec<_> = std::fs::read_dir(&root)
        .expect("sql/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .collect();
    queries.sort();
    // One constant per query file: a misspelt name does not compile.
    let mut code = String::new();
    let mut names = Vec::new();
    for path in &queries {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("UTF-8 name");
        let constant = stem.to_uppercase();
        writeln!(
            code,
            "/// `sql/{stem}.sql`.\npub const {constant}: Query = Query {{ name: {stem:?}, sql: include_str!({:?}) }};",
            path.display()
        )
        .unwrap();
        names.push(constant);
    }
    writeln!(
        code,
        "/// Every query file of `sql/`.\npub const ALL: &[Query] = &[{}];",
        names.join(", ")
    )
    .unwrap();
    std::fs::write(Path::new(&out_dir).join("queries.rs"), code).expect("write queries.rs");
    println!("cargo:rerun-if-changed={}", root.display());
    println!(
        "cargo:rerun-if-changed={}",
        root.join("migrations").display()
    );
}
