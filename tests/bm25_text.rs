//! `recall_bm25_text` against FTS5's own `bm25()`, to the bit, on texts drawn from
//! characters each tokenizer treats its own way: capitals, accents composed and combining
//! (which `trigram remove_diacritics 1` drops from its trigrams), other scripts,
//! characters past the BMP, a NUL; under `trigram` in each of its foldings and under
//! `unicode61`. The tables take turns in one connection, so that the folds the function
//! learns for one tokenizer serve no other. Rows are scored as a query finds them and as a
//! join finds them by their rowid alone (the pool of `sql/related.sql`).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rusqlite::Connection;

use crate::common::pieces::PIECES;

const TOKENIZERS: [&str; 4] = [
    "trigram",
    "trigram remove_diacritics 1",
    "trigram case_sensitive 1",
    "unicode61 remove_diacritics 2",
];

/// A text of `pieces` pieces drawn at random.
fn text(rng: &mut StdRng, pieces: usize) -> String {
    (0..pieces)
        .map(|_| PIECES[rng.random_range(0..PIECES.len())])
        .collect()
}

fn connection() -> Connection {
    let conn = Connection::open_in_memory().expect("open");
    sqlite_recall_rusqlite::register(&conn).expect("functions");
    conn
}

/// A table of `rows` rows of random text under `tokenizer`.
fn table(conn: &Connection, name: &str, tokenizer: &str, rng: &mut StdRng, rows: usize) {
    conn.execute_batch(&format!(
        "create virtual table {name} using fts5(title, body, tokenize = '{tokenizer}')"
    ))
    .expect("table");
    for _ in 0..rows {
        let (title, body) = (text(rng, 3), text(rng, 12));
        conn.execute(
            &format!("insert into {name}(title, body) values (?1, ?2)"),
            (title, body),
        )
        .expect("row");
    }
}

/// The phrases of a query: pieces and pairs of pieces, without NUL or a quote.
fn phrases(rng: &mut StdRng) -> Vec<String> {
    (0..4)
        .map(|_| {
            let n = rng.random_range(1..3);
            text(rng, n).replace('\0', "")
        })
        .filter(|p| !p.trim().is_empty())
        .collect()
}

/// (rows compared, rows whose scores differ) for `phrases` over `name`: every row the
/// query of all of them finds, scored as the query finds it, then found by its rowid.
fn compare(conn: &Connection, name: &str, phrases: &[String]) -> (usize, Vec<String>) {
    let query: Vec<String> = phrases.iter().map(|p| format!("\"{p}\"")).collect();
    let query = query.join(" OR ");
    let mut given = Vec::new();
    for p in phrases {
        let hits: i64 = conn
            .query_row(
                &format!("select count(*) from {name} where {name} match ?1"),
                [format!("\"{p}\"")],
                |r| r.get(0),
            )
            .expect("count");
        given.push(serde_json::json!([p, hits]));
    }
    let given = serde_json::Value::Array(given).to_string();
    let matched = format!(
        "select rowid, bm25({name}, 2.0, 1.0), recall_bm25_text({name}, ?2, 2.0, 1.0) \
         from {name} where {name} match ?1 order by rowid"
    );
    let by_rowid = format!(
        "select m.rowid, recall_bm25_text({name}, ?2, 2.0, 1.0) \
         from (select rowid from {name} where {name} match ?1) as m \
         join {name} on {name}.rowid = m.rowid order by m.rowid"
    );
    let mut stmt = conn.prepare(&matched).expect("prepare");
    let rows: Vec<(i64, f64, f64)> = stmt
        .query_map((&query, &given), |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    let mut stmt = conn.prepare(&by_rowid).expect("prepare");
    let joined: Vec<(i64, f64)> = stmt
        .query_map((&query, &given), |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("query")
        .collect::<Result<_, _>>()
        .expect("rows");
    let mut wrong = Vec::new();
    for ((id, bm25, text), (id2, joined)) in rows.iter().zip(&joined) {
        if id != id2 || bm25.to_bits() != text.to_bits() || bm25.to_bits() != joined.to_bits() {
            wrong.push(format!(
                "{name} row {id}: bm25 {bm25}, from its text {text}, by rowid {joined} ({phrases:?})"
            ));
        }
    }
    if rows.len() != joined.len() {
        wrong.push(format!(
            "{name}: {} rows, {} by rowid",
            rows.len(),
            joined.len()
        ));
    }
    (rows.len(), wrong)
}

#[test]
fn scores_from_the_text_are_bm25s_under_every_folding() {
    let conn = connection();
    let mut rng = StdRng::seed_from_u64(0x9E37_79B9_7F4A_7C15);
    let names: Vec<String> = (0..TOKENIZERS.len()).map(|i| format!("t{i}")).collect();
    for (name, tokenizer) in names.iter().zip(TOKENIZERS) {
        table(&conn, name, tokenizer, &mut rng, 80);
    }
    let (mut compared, mut wrong) = (vec![0usize; TOKENIZERS.len()], Vec::new());
    // The tables in turn, query after query.
    for round in 0..60 {
        let i = round % TOKENIZERS.len();
        let (n, w) = compare(&conn, &names[i], &phrases(&mut rng));
        compared[i] += n;
        wrong.extend(w);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Every table's queries found rows: the comparison is not of empty sets.
    assert!(compared.iter().all(|&n| n >= 100), "{compared:?}");
}

#[test]
fn a_table_scored_after_another_tokenizer_keeps_its_own_folding() {
    // The same text under trigram folded and case-sensitive: É and é are one character
    // to the first, two to the second; scored one after the other in one statement.
    let conn = connection();
    for (name, tokenizer) in [("folded", "trigram"), ("cased", "trigram case_sensitive 1")] {
        conn.execute_batch(&format!(
            "create virtual table {name} using fts5(body, tokenize = '{tokenizer}');
             insert into {name}(body) values ('ÉCOLE école École'), ('école'), ('ÉCOLE');"
        ))
        .expect("table");
    }
    conn.execute_batch(
        "create table n as select \
         (select count(*) from folded where folded match '\"école\"') as in_folded, \
         (select count(*) from cased where cased match '\"école\"') as in_cased",
    )
    .expect("counts");
    let both = "select \
        (select group_concat(s) from (select recall_bm25_text(folded, json_array(json_array('école', n.in_folded))) \
           = bm25(folded) as s from folded, n where folded match '\"école\"' order by folded.rowid)), \
        (select group_concat(s) from (select recall_bm25_text(cased, json_array(json_array('école', n.in_cased))) \
           = bm25(cased) as s from cased, n where cased match '\"école\"' order by cased.rowid))";
    for _ in 0..2 {
        let (folded, cased): (String, String) = conn
            .query_row(both, [], |r| Ok((r.get(0)?, r.get(1)?)))
            .expect("scores");
        // Three rows hold école folded, two as written.
        assert_eq!((folded.as_str(), cased.as_str()), ("1,1,1", "1,1"));
    }
}
