//! Every query file of `sql/` prepares in the bundled SQLite well within its limit on
//! nested subqueries (`SQLITE_LIMIT_EXPR_DEPTH`, 1,000 by default), which SQLite also
//! applies to the cursors that the expansion of each reference to a CTE allocates: a
//! file whose CTEs refer to each other too often stops preparing there, in every SQLite
//! from 3.51 on. Prepared at three quarters of the limit, each has room to grow.

use crate::common::cli::TempLib;
use crate::common::root;

/// The limit each file must prepare under.
const DEPTH: i32 = 750;

#[test]
fn every_query_file_prepares_at_three_quarters_of_the_depth_limit() {
    let lib = TempLib::init(None);
    let conn = rusqlite::Connection::open(&lib.db).expect("open");
    sqlite_recall_rusqlite::register(&conn).expect("register");
    conn.set_limit(rusqlite::limits::Limit::SQLITE_LIMIT_EXPR_DEPTH, DEPTH)
        .expect("limit");
    let mut files: Vec<_> = std::fs::read_dir(root().join("sql"))
        .expect("sql/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "sql"))
        .collect();
    files.sort();
    assert!(files.len() > 10, "{files:?}");
    let mut failures = Vec::new();
    // The files that need more than the library (the vector table, a host's own) are
    // checked for depth alone; the queries of the read path must prepare whole.
    let whole = [
        "search.sql",
        "later.sql",
        "related.sql",
        "timeline.sql",
        "get.sql",
        "explain.sql",
        "file_items.sql",
    ];
    for path in files {
        let sql = std::fs::read_to_string(&path).expect("read");
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if let Err(e) = conn.prepare(&sql) {
            if whole.contains(&name) || e.to_string().contains("too deep") {
                failures.push(format!("{name}: {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
