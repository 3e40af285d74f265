//! Replacing an item by any route — INSERT OR REPLACE (with recursive triggers off and
//! on), REPLACE, upsert, UPDATE, DELETE, and `recall import` with an id — never leaves
//! stale terms searchable, and the index stays consistent, in rusqlite's SQLite and in
//! the Debian sqlite3 shell.

use crate::common::cli::TempLib;
use crate::common::{pipe, SHELL};

const SEED: &str = "insert into items(id, source, title, summary, occurred_at) values
    (1, 's', 'alphaword', 'first', '2025-01-01T00:00:00Z'),
    (2, 's', 'betaword', 'second', '2025-01-01T00:00:00Z'),
    (3, 's', 'gammaword', 'third', '2025-01-01T00:00:00Z');";

/// Each route replaces the item's words: (name, SQL, the stale word, the fresh word).
const ROUTES: &[(&str, &str, &str, &str)] = &[
    ("insert or replace", "insert or replace into items(id, source, title, occurred_at) values (1, 's', 'deltaword', '2025-02-01T00:00:00Z')", "alphaword", "deltaword"),
    ("replace", "replace into items(id, source, title, occurred_at) values (2, 's', 'epsilonword', '2025-02-01T00:00:00Z')", "betaword", "epsilonword"),
    ("upsert", "insert into items(id, source, title, occurred_at) values (3, 's', 'zetaword', '2025-02-01T00:00:00Z') on conflict(id) do update set title = excluded.title", "gammaword", "zetaword"),
    ("update", "update items set title = 'kappaword', summary = 'changed' where id = 1", "deltaword", "kappaword"),
    ("update id", "update items set id = 10 where id = 2", "", "epsilonword"),
    ("delete", "delete from items where id = 3", "zetaword", ""),
    ("insert or ignore", "insert or ignore into items(id, source, title, occurred_at) values (1, 's', 'thetaword', '2025-02-01T00:00:00Z')", "thetaword", "kappaword"),
    ("transcript only", "update items set transcript = 'iotaword' where id = 1", "iotaword", "kappaword"),
];

/// The items that hold `word` in their own columns (the seed's items are neighbours, so
/// their `context` columns hold each other's titles: tests/neighbour_context.rs).
const OWN: &str = "{title summary questions atoms project} : ";

fn count(conn: &rusqlite::Connection, word: &str) -> i64 {
    conn.query_row(
        "select count(*) from items_fts where items_fts match ?1",
        [format!("{OWN}{word}")],
        |r| r.get(0),
    )
    .expect("match")
}

#[test]
fn every_route_in_bundled_sqlite() {
    for recursive in [false, true] {
        let lib = TempLib::init(None);
        let conn = lib.conn();
        conn.execute_batch(&format!("pragma recursive_triggers = {}", recursive as i32))
            .unwrap();
        conn.execute_batch(SEED).unwrap();
        for (name, sql, stale, fresh) in ROUTES {
            conn.execute_batch(sql)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            if !stale.is_empty() {
                assert_eq!(
                    count(&conn, stale),
                    0,
                    "{name} (recursive {recursive}): stale {stale} still found"
                );
            }
            if !fresh.is_empty() {
                assert_eq!(
                    count(&conn, fresh),
                    1,
                    "{name} (recursive {recursive}): {fresh} not found"
                );
            }
            conn.execute_batch(
                "insert into items_fts(items_fts, rank) values ('integrity-check', 1)",
            )
            .unwrap_or_else(|e| panic!("{name} (recursive {recursive}): {e}"));
        }
        let check = lib.run(&["--json", "check"]).ok().json();
        assert_eq!(check["healthy"], true, "{check}");
    }
}

#[test]
fn import_with_an_id_replaces() {
    let lib = TempLib::init(None);
    lib.import(r#"{"id": 7, "source":"s","title":"Old wording of the decision","occurred_at":"2025-01-01"}"#).ok();
    lib.import(
        r#"{"id": 7, "source":"s","title":"New wording entirely","occurred_at":"2025-02-01"}"#,
    )
    .ok();
    assert_eq!(lib.count("select count(*) from items"), 1);
    assert_eq!(lib.matching("\"decision\""), Vec::<i64>::new());
    assert_eq!(lib.matching("\"entirely\""), vec![7]);
    assert_eq!(lib.run(&["check"]).code, 0);
}

#[test]
fn every_route_in_the_sqlite3_shell() {
    // The shell's SQLite 3.40 cannot use trigram remove_diacritics: use unicode61.
    let lib = TempLib::init(Some("unicode61 remove_diacritics 2"));
    let mut script = format!("{SEED}\n");
    for (name, sql, stale, fresh) in ROUTES {
        script.push_str(&format!("{sql};\n"));
        if !stale.is_empty() {
            script.push_str(&format!("select '{name} stale', count(*) = 0 from items_fts where items_fts match '{OWN}{stale}';\n"));
        }
        if !fresh.is_empty() {
            script.push_str(&format!("select '{name} fresh', count(*) = 1 from items_fts where items_fts match '{OWN}{fresh}';\n"));
        }
        script.push_str("insert into items_fts(items_fts, rank) values ('integrity-check', 1);\n");
    }
    let out = pipe(
        std::process::Command::new(SHELL).arg("-batch").arg(&lib.db),
        &script,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 14, "{stdout}");
    for line in lines {
        assert!(line.ends_with("|1"), "{line}");
    }
    assert_eq!(lib.run(&["check"]).code, 0);
}
