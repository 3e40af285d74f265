//! The safety invariant: `MATCH recall_match(s)` never raises an FTS5 error, on a trigram,
//! a unicode61 and a `recall` table, with the functions and the tokenizer registered
//! exactly as the CLI does.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rusqlite::Connection;

thread_local! {
    static CONN: Connection = {
        let conn = Connection::open_in_memory().expect("open");
        sqlite_recall_rusqlite::register(&conn).expect("register");
        // The adversarial tables every safety test shares.
        conn.execute_batch(include_str!("../../tests/fts_tables.sql")).expect("tables");
        conn.execute_batch(include_str!("../../tests/fts_tables_345.sql")).expect("tables");
        conn
    };
    static TABLES: Vec<(String, String)> = CONN.with(|conn| {
        let mut stmt = conn.prepare("select name, tokenizer from fts_tables").expect("list");
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).expect("query");
        rows.collect::<rusqlite::Result<_>>().expect("rows")
    });
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    CONN.with(|conn| TABLES.with(|tables| {
        for (table, spec) in tables {
            for sql in [
                format!("select count(*) from {table} where {table} match recall_match(?1)"),
                format!("select count(*) from {table} where {table} match recall_match(?1, '{spec}', 1)"),
            ] {
                let r: rusqlite::Result<i64> = conn.query_row(&sql, [text.as_ref()], |r| r.get(0));
                if let Err(e) = r {
                    panic!("{table}: {e} for {text:?}");
                }
            }
        }
    }));
});
