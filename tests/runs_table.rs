//! The runs of the items' text (migration 0009), by which the first prompt lists the
//! items holding a word: the list is the one the items' index gives, under each folding
//! of the trigram tokenizer; the first prompt answers the same with the runs and without
//! them (while some item's runs are not made, it asks the index); the runs follow every
//! route by which an item is written, replaced or removed, leave no word of a forgotten
//! item, and `check` finds, and `repair` mends, every way they can go wrong.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

use crate::common::cli::TempLib;
use crate::common::pieces::PIECES;

/// The trigram tokenizers recall builds.
const TOKENIZERS: [&str; 2] = ["trigram remove_diacritics 1", "trigram"];

/// The items holding a phrase by the runs, as sql/related.sql lists them.
const BY_RUNS: &str = "select distinct x.item_id from items_run_items as x
     where x.run in (select rowid from items_runs_fts where items_runs_fts match ?1)
     order by x.item_id";

/// The items holding a phrase in their own columns by the items' index.
const BY_INDEX: &str = "select rowid from items_fts
     where items_fts match ?1 and recall_fts5_columns(items_fts) & 31 <> 0 order by rowid";

fn ids(conn: &rusqlite::Connection, sql: &str, phrase: &str) -> Vec<i64> {
    let mut stmt = conn.prepare(sql).expect("prepare");
    let rows = stmt
        .query_map([phrase], |r| r.get(0))
        .expect("query")
        .collect::<rusqlite::Result<Vec<i64>>>();
    rows.expect("rows")
}

/// A connection of the test with the recall_* functions.
fn functions(lib: &TempLib) -> rusqlite::Connection {
    let conn = lib.conn();
    sqlite_recall_rusqlite::register(&conn).expect("register");
    conn
}

/// A text of `n` pieces: the shared pieces of the property tests (a NUL aside: recall
/// refuses it in an item) and words of a small vocabulary, joined by separators or not.
fn text(rng: &mut StdRng, n: usize) -> String {
    const WORDS: [&str; 10] = [
        "deploy",
        "Deployment",
        "user_id",
        "cache",
        "CACHED",
        "naïve",
        "x86_64",
        "async",
        "Überblick",
        "re-deploy",
    ];
    let mut out = String::new();
    for _ in 0..n {
        let piece = if rng.random_bool(0.5) {
            WORDS[rng.random_range(0..WORDS.len())]
        } else {
            PIECES[rng.random_range(0..PIECES.len())]
        };
        if piece != "\0" {
            out.push_str(piece);
        }
        match rng.random_range(0..4) {
            0 => out.push(' '),
            1 => out.push('_'),
            2 => out.push('.'),
            _ => {}
        }
    }
    out
}

/// The items: every own column (title, summary, questions, atoms, project) drawn.
fn items(seed: u64, n: usize) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|i| {
            let mut item = json!({
                "source": "s",
                "title": format!("t{i} {}", text(&mut rng, 4)),
                "summary": text(&mut rng, 6),
                "questions": text(&mut rng, 2),
                "atoms": text(&mut rng, 3),
                "occurred_at": format!("2026-01-{:02}T00:00:00Z", 1 + i % 28),
            });
            if rng.random_bool(0.5) {
                item["project"] = json!(text(&mut rng, 1).trim().to_string());
            }
            item.to_string()
        })
        .collect()
}

/// Strings to look for: a prompt's words made of the items' text (each run folded as
/// the rule folds a word, and its pieces of 3 to 6 characters), as `recall_match` quotes
/// them for the tokenizer.
fn phrases(conn: &rusqlite::Connection, tokenizer: &str, rng: &mut StdRng) -> Vec<String> {
    let texts: Vec<String> = conn
        .prepare("select title || ' ' || summary || ' ' || questions || ' ' || atoms || ' ' || coalesce(project, '') from items")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .expect("texts");
    let mut words = Vec::new();
    for t in &texts {
        for run in recall_core::runs::runs(&recall_core::fold::fold(t)) {
            let chars: Vec<char> = run.chars().collect();
            words.push(run.to_string());
            if chars.len() > 3 {
                let from = rng.random_range(0..chars.len() - 2);
                let to = (from + rng.random_range(3..=6)).min(chars.len());
                words.push(chars[from..to].iter().collect());
            }
        }
    }
    words.sort();
    words.dedup();
    let mut out = Vec::new();
    for w in words {
        let q: String = conn
            .query_row("select recall_match(?1, ?2)", [&w, tokenizer], |r| r.get(0))
            .expect("recall_match");
        if !q.is_empty() {
            out.push(q);
        }
    }
    out
}

#[test]
fn the_runs_list_the_items_the_index_finds_under_each_folding() {
    for (t, tokenizer) in TOKENIZERS.iter().enumerate() {
        let lib = TempLib::with_items(Some(tokenizer), &items(t as u64 + 1, 120));
        assert_eq!(lib.count("select count(*) from items_runs_pending"), 0);
        let conn = functions(&lib);
        let mut rng = StdRng::seed_from_u64(99);
        let phrases = phrases(&conn, tokenizer, &mut rng);
        assert!(phrases.len() > 150, "{tokenizer}: {}", phrases.len());
        let mut found = 0;
        for q in &phrases {
            let index = ids(&conn, BY_INDEX, q);
            assert_eq!(ids(&conn, BY_RUNS, q), index, "{tokenizer}: {q}");
            found += usize::from(!index.is_empty());
        }
        // Most are found somewhere (under plain trigram, a word folded without its
        // accents is not), and some in many items: the lists are no empty ones.
        assert!(
            found * 3 > phrases.len() * 2,
            "{tokenizer}: {found} of {}",
            phrases.len()
        );
        assert!(
            phrases.iter().any(|q| ids(&conn, BY_INDEX, q).len() > 30),
            "{tokenizer}"
        );
    }
}

/// A first prompt's answers and every judged candidate, with what the rule read of it:
/// with the default sample (the library is smaller than 20 times it: every word is
/// listed) and with a sample of 10 items (the library is 40 times that: the first items
/// of a word few items hold are read from its runs, the commonest words estimated).
fn judged(lib: &TempLib, prompt: &str) -> Value {
    let mut out = Vec::new();
    for sample in ["1000", "10"] {
        let answer = lib.json(&[
            "related",
            prompt,
            "--explain",
            "--sample",
            sample,
            "--now",
            "2026-02-01T00:00:00Z",
        ]);
        out.push(answer["results"].clone());
        out.push(answer["explain"]["candidates"].clone());
    }
    Value::Array(out)
}

#[test]
fn the_first_prompt_judges_alike_with_the_runs_and_without() {
    // A vocabulary of a few hundred words, some held by most items (as a project's words
    // are), written in varying case and with accents, so that words are listed.
    let mut rng = StdRng::seed_from_u64(5);
    let syllables = ["ka", "ré", "mo", "Tu", "li", "sa", "vé", "no", "pi", "ru"];
    let vocabulary: Vec<String> = (0..300)
        .map(|_| {
            (0..rng.random_range(2..5))
                .map(|_| syllables[rng.random_range(0..syllables.len())])
                .collect()
        })
        .collect();
    // Zipf-like: the word of rank r drawn with weight 1 / (r + 1).
    let weights: Vec<f64> = (0..vocabulary.len())
        .map(|r| 1.0 / (r + 1) as f64)
        .collect();
    let total: f64 = weights.iter().sum();
    let draw = |rng: &mut StdRng| {
        let mut x = rng.random_range(0.0..total);
        for (w, word) in weights.iter().zip(&vocabulary) {
            if x < *w {
                return word.clone();
            }
            x -= w;
        }
        vocabulary[0].clone()
    };
    let mut lines = Vec::new();
    for i in 0..400 {
        let words =
            |n: usize, rng: &mut StdRng| (0..n).map(|_| draw(rng)).collect::<Vec<_>>().join(" ");
        let project = ["api", "shop"][i % 2];
        lines.push(
            json!({"source": "s", "project": project,
                   "title": words(5, &mut rng), "summary": words(12, &mut rng),
                   "atoms": words(3, &mut rng),
                   "occurred_at": format!("2026-01-{:02}T00:00:00Z", 1 + i % 28)})
            .to_string(),
        );
    }
    let prompts: Vec<String> = (0..80)
        .map(|_| {
            let n = rng.random_range(3..8);
            (0..n).map(|_| draw(&mut rng)).collect::<Vec<_>>().join(" ")
        })
        .collect();
    let lib = TempLib::with_items(None, &lines);
    assert_eq!(lib.count("select count(*) from items_runs_pending"), 0);
    let with_runs: Vec<Value> = prompts.iter().map(|p| judged(&lib, p)).collect();
    // Every item as another program leaves it: the runs are not used until made.
    lib.conn()
        .execute_batch("insert or ignore into items_runs_pending (item_id) select id from items")
        .expect("pending");
    let without: Vec<Value> = prompts.iter().map(|p| judged(&lib, p)).collect();
    let mut judged_any = 0;
    for ((p, a), b) in prompts.iter().zip(&with_runs).zip(&without) {
        assert_eq!(a, b, "{p}");
        judged_any += usize::from(a[3].as_array().is_some_and(|r| !r.is_empty()));
    }
    assert!(
        judged_any > 60,
        "{judged_any} of 80 prompts judged anything"
    );
    // The next write of recall makes the runs again.
    lib.run(&["optimize"]).ok();
    assert_eq!(lib.count("select count(*) from items_runs_pending"), 0);
    assert_eq!(judged(&lib, &prompts[0]), with_runs[0]);
}

/// The items holding a run, and whether the runs' index finds it.
fn holders(lib: &TempLib, run: &str) -> (Vec<i64>, bool) {
    let conn = lib.conn();
    let holders = ids(
        &conn,
        "select x.item_id from items_run_items as x join items_runs as r on r.id = x.run
         where r.run = ?1 order by 1",
        run,
    );
    let indexed = !ids(
        &conn,
        "select rowid from items_runs_fts where items_runs_fts match ?1",
        &format!("\"{run}\""),
    )
    .is_empty();
    (holders, indexed)
}

#[test]
fn the_runs_follow_every_write_and_a_forgotten_item_leaves_none() {
    let lib = TempLib::with_items(
        None,
        &[
            json!({"source": "s", "title": "Okapi tokens expire", "summary": "refresh_okapi",
                   "occurred_at": "2026-01-01T00:00:00Z"})
            .to_string(),
            json!({"source": "s", "title": "Quagga build red", "project": "zebu",
                   "occurred_at": "2026-01-02T00:00:00Z"})
            .to_string(),
        ],
    );
    assert_eq!(holders(&lib, "Okapi"), (vec![1], true));
    assert_eq!(holders(&lib, "okapi"), (vec![1], true));
    assert_eq!(holders(&lib, "refresh"), (vec![1], true));
    assert_eq!(holders(&lib, "zebu"), (vec![2], true));
    // `add`, and a field changed by another program: pending until recall's next write.
    lib.run(&["add", "--title", "Okapi again", "--source", "s"])
        .ok();
    assert_eq!(holders(&lib, "Okapi"), (vec![1, 3], true));
    lib.conn()
        .execute_batch("update items set title = 'Tapir tokens expire' where id = 1")
        .expect("a write of another program");
    assert_eq!(lib.count("select count(*) from items_runs_pending"), 1);
    // The old title's runs went at once; a run no item holds goes with its entry.
    assert_eq!(holders(&lib, "Okapi"), (vec![3], true));
    assert_eq!(holders(&lib, "expire"), (vec![], false));
    let waiting = lib.run(&["check"]);
    assert_eq!(waiting.code, 0, "{waiting:?}");
    assert!(
        waiting
            .stdout
            .contains("the text of 1 item waits to be split into runs"),
        "{waiting:?}"
    );
    lib.run(&["add", "--title", "Gnu", "--source", "s"]).ok();
    assert_eq!(lib.count("select count(*) from items_runs_pending"), 0);
    assert_eq!(holders(&lib, "Tapir"), (vec![1], true));
    assert_eq!(holders(&lib, "expire"), (vec![1], true));
    // INSERT OR REPLACE by another program (no delete trigger) and a delete.
    lib.conn()
        .execute_batch(
            "insert or replace into items (id, source, title, occurred_at, imported_at)
             values (2, 's', 'Yak shaving', '2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z');
             delete from items where id = 4;",
        )
        .expect("writes of another program");
    assert_eq!(holders(&lib, "Quagga"), (vec![], false));
    assert_eq!(holders(&lib, "zebu"), (vec![], false));
    assert_eq!(holders(&lib, "Gnu"), (vec![], false));
    lib.run(&["optimize"]).ok();
    assert_eq!(holders(&lib, "Yak"), (vec![2], true));
    assert_eq!(lib.run(&["check"]).code, 0);
    // Forgotten: no run of its own is left, in the tables, their index or the file.
    lib.run(&["forget", "1"]).ok();
    assert_eq!(holders(&lib, "Tapir"), (vec![], false));
    assert_eq!(holders(&lib, "refresh"), (vec![], false));
    assert_eq!(holders(&lib, "again"), (vec![3], true));
    let [file, log] = lib.files();
    for bytes in [file.unwrap_or_default(), log.unwrap_or_default()] {
        for word in ["Tapir", "tapir", "refresh_okapi", "expire"] {
            assert!(
                !bytes.windows(word.len()).any(|w| w == word.as_bytes()),
                "{word} is left in the library's files"
            );
        }
    }
    assert_eq!(lib.run(&["check"]).code, 0);
}

/// The check line of the runs.
fn runs_line(out: &crate::common::cli::Ran) -> String {
    out.stdout
        .lines()
        .find(|l| l.contains("runs:"))
        .unwrap_or_else(|| panic!("{out:?}"))
        .to_string()
}

#[test]
fn check_finds_runs_out_of_step_and_repair_makes_them_again() {
    let lines = items(11, 60);
    for (damage, says, did) in [
        (
            "delete from items_run_items where item_id in (3, 5)",
            "the runs of 2 items are not those of their text (ids 3, 5)",
            "made the runs of the text of 2 items again",
        ),
        (
            "insert into items_runs (run) values ('Wombat')",
            "1 run no item holds",
            "removed 1 run of no item",
        ),
        (
            "insert into items_run_items (run, item_id) values (1, 999)",
            "(ids 999)",
            "made the runs of the text of 1 item again",
        ),
        (
            "insert into items_runs_fts (items_runs_fts, rowid, run)
               select 'delete', id, run from items_runs where id = 7",
            "the runs' index does not hold one row for each run",
            "created the runs of the items' text again (their index did not hold every run)",
        ),
    ] {
        let lib = TempLib::with_items(None, &lines);
        let conn = functions(&lib);
        let phrases = phrases(
            &conn,
            "trigram remove_diacritics 1",
            &mut StdRng::seed_from_u64(1),
        );
        let before: Vec<Vec<i64>> = phrases.iter().map(|q| ids(&conn, BY_RUNS, q)).collect();
        drop(conn);
        lib.conn().execute_batch(damage).expect(damage);
        let found = lib.run(&["check"]);
        assert_eq!(found.code, 1, "{damage}: {found:?}");
        let line = runs_line(&found);
        assert!(
            line.contains(says) && line.ends_with("run `recall repair`"),
            "{damage}: {line}"
        );
        let out = lib.run(&["repair"]).ok();
        assert!(out.stdout.contains(did), "{damage}: {}", out.stdout);
        let clean = lib.run(&["check"]);
        assert_eq!(clean.code, 0, "{damage}: {clean:?}");
        assert!(runs_line(&clean).contains("every item's text is split into runs"));
        let conn = functions(&lib);
        let after: Vec<Vec<i64>> = phrases.iter().map(|q| ids(&conn, BY_RUNS, q)).collect();
        assert_eq!(after, before, "{damage}");
        for (q, list) in phrases.iter().zip(&after) {
            assert_eq!(list, &ids(&conn, BY_INDEX, q), "{damage}: {q}");
        }
    }
}

#[test]
fn damaged_or_dropped_runs_tables_are_created_again_by_repair() {
    use crate::common::damage::{problems, smash, Smash};
    let lines = items(12, 200);
    let dropped = ["drop table items_runs_fts", "drop table items_run_items"];
    let smashed = [
        "items_runs",
        "items_run_items",
        "items_run_items_by_item",
        "items_runs_fts_data",
        "items_runs_pending",
    ];
    for what in dropped.iter().chain(&smashed) {
        let lib = TempLib::with_items(None, &lines);
        let conn = functions(&lib);
        let phrases = phrases(
            &conn,
            "trigram remove_diacritics 1",
            &mut StdRng::seed_from_u64(2),
        );
        drop(conn);
        if what.starts_with("drop") {
            lib.conn().execute_batch(what).expect(what);
        } else {
            if *what == "items_runs_pending" {
                // A table with pages to damage: items waiting for their runs.
                lib.conn()
                    .execute_batch("update items set title = title || ' ' where id <= 100")
                    .expect("a write of another program");
            }
            smash(&lib, what, Smash::RootGarbage);
        }
        // The runs are derived from the items: the one fix named is repair.
        let found = problems(&lib);
        assert!(!found.is_empty(), "{what}: nothing found");
        for (name, fix) in &found {
            assert!(
                fix.ends_with("run `recall repair`"),
                "{what}: {name}: {fix}"
            );
        }
        let out = lib.run(&["repair"]).ok();
        assert!(
            out.stdout
                .contains("created the runs of the items' text again"),
            "{what}: {}",
            out.stdout
        );
        let clean = lib.run(&["check"]);
        assert_eq!(clean.code, 0, "{what}: {clean:?}");
        assert_eq!(lib.count("select count(*) from items_runs_pending"), 0);
        let conn = functions(&lib);
        for q in &phrases {
            assert_eq!(
                ids(&conn, BY_RUNS, q),
                ids(&conn, BY_INDEX, q),
                "{what}: {q}"
            );
        }
    }
}

#[test]
fn a_rebuild_with_another_tokenizer_indexes_the_runs_with_it() {
    let lib = TempLib::with_items(None, &items(13, 80));
    let naive = |lib: &TempLib| {
        let conn = functions(lib);
        (
            ids(&conn, BY_RUNS, "\"naive\""),
            ids(&conn, BY_RUNS, "\"naïve\""),
        )
    };
    // Under the default tokenizer the accent is folded away.
    let (plain, accented) = naive(&lib);
    assert!(
        !plain.is_empty() && plain == accented,
        "{plain:?} {accented:?}"
    );
    lib.run(&["rebuild", "--tokenizer", "trigram"]).ok();
    let sql: String = lib
        .conn()
        .query_row(
            "select sql from sqlite_master where name = 'items_runs_fts'",
            [],
            |r| r.get(0),
        )
        .expect("the runs' index");
    assert!(sql.contains("tokenize = 'trigram'"), "{sql}");
    assert_eq!(lib.count("select count(*) from items_runs_pending"), 0);
    let clean = lib.run(&["check"]);
    assert_eq!(clean.code, 0, "{clean:?}");
    // Under plain trigram it is kept: `naive` is no `naïve`.
    let (plain, after) = naive(&lib);
    assert_eq!((plain, after), (vec![], accented));
    let conn = functions(&lib);
    for q in phrases(&conn, "trigram", &mut StdRng::seed_from_u64(3)) {
        assert_eq!(ids(&conn, BY_RUNS, &q), ids(&conn, BY_INDEX, &q), "{q}");
    }
}
