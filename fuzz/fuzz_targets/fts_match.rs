//! The safety invariant: `MATCH recall_match(s)` never raises an FTS5 error, on a trigram
//! and a unicode61 table, with the functions registered exactly as the CLI does.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rusqlite::Connection;

thread_local! {
    static CONN: Connection = {
        let conn = Connection::open_in_memory().expect("open");
        recall_cli::rusqlite_adapter::register(&conn).expect("register");
        conn.execute_batch(
            "create virtual table tri using fts5(body, tokenize = 'trigram remove_diacritics 1');
             create virtual table uni using fts5(body, tokenize = 'unicode61 remove_diacritics 2');
             insert into tri(body) values ('The consent banner'), ('NEAR(a b) AND x* OR \"y\"'), ('Canción 東京 😀');
             insert into uni(body) select body from tri;",
        )
        .expect("tables");
        conn
    };
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    CONN.with(|conn| {
        for (table, spec) in [("tri", "trigram"), ("uni", "unicode61")] {
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
    });
});
