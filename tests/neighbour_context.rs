//! The neighbours' titles each item is indexed with (docs/queries.md, "Context in the
//! index"): every context is compared with one computed here from the rows, after every
//! kind of write (insert between two items, replace by every route, update of a title,
//! a time or a project, delete, forget), with recursive triggers off and on, in
//! rusqlite's SQLite and in the Debian `sqlite3` shell; after `migrate`, `rebuild` and
//! `repair`; and what search, related and later find through it.
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::common::cli::{ids, titled, TempLib};
use crate::common::{extension_path, shell_ok};

/// One item as the rule reads it.
#[derive(Debug, Clone)]
struct Row {
    id: i64,
    source: String,
    project: Option<String>,
    title: String,
    minute: i64,
}

fn at(minute: i64) -> String {
    let t = chrono::DateTime::parse_from_rfc3339("2025-01-01T00:00:00Z").expect("base")
        + chrono::Duration::minutes(minute);
    t.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

fn minute_of(occurred_at: &str) -> i64 {
    let base = chrono::DateTime::parse_from_rfc3339("2025-01-01T00:00:00Z").expect("base");
    (chrono::DateTime::parse_from_rfc3339(occurred_at).expect("time") - base).num_minutes()
}

fn rows(conn: &rusqlite::Connection) -> Vec<Row> {
    conn.prepare("select id, source, project, title, occurred_at from items order by id")
        .expect("prepare")
        .query_map([], |r| {
            Ok(Row {
                id: r.get(0)?,
                source: r.get(1)?,
                project: r.get(2)?,
                title: r.get(3)?,
                minute: minute_of(&r.get::<_, String>(4)?),
            })
        })
        .expect("query")
        .collect::<rusqlite::Result<_>>()
        .expect("rows")
}

/// The rule, computed from the rows: the `radius` items before and after each one in
/// the order (time, id), among its source's items in its project (or without one), at
/// most `gap` minutes away; their titles in the order of their ids.
fn wanted(rows: &[Row], radius: usize, gap: i64) -> Vec<(i64, String)> {
    rows.iter()
        .map(|me| {
            let mut scope: Vec<&Row> = rows
                .iter()
                .filter(|r| r.source == me.source && r.project == me.project)
                .collect();
            scope.sort_by_key(|r| (r.minute, r.id));
            let pos = scope.iter().position(|r| r.id == me.id).expect("in scope");
            let mut near: Vec<&Row> = Vec::new();
            near.extend(scope[..pos].iter().rev().take(radius));
            near.extend(scope[pos + 1..].iter().take(radius));
            near.retain(|r| (r.minute - me.minute).abs() <= gap);
            near.sort_by_key(|r| r.id);
            let titles: Vec<&str> = near.iter().map(|r| r.title.as_str()).collect();
            (me.id, titles.join(" "))
        })
        .collect()
}

fn contexts(conn: &rusqlite::Connection) -> Vec<(i64, String)> {
    conn.prepare("select id, context from items order by id")
        .expect("prepare")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("query")
        .collect::<rusqlite::Result<_>>()
        .expect("contexts")
}

/// Every context as the rule makes it, and the index holds exactly the items' values.
fn assert_in_step(conn: &rusqlite::Connection, what: &str) {
    assert_eq!(contexts(conn), wanted(&rows(conn), 1, 30), "{what}");
    conn.execute_batch("insert into items_fts(items_fts, rank) values ('integrity-check', 1)")
        .unwrap_or_else(|e| panic!("{what}: the index differs from the items: {e}"));
}

fn insert(conn: &rusqlite::Connection, verb: &str, id: i64, r: (&str, Option<&str>, &str, i64)) {
    conn.execute(
        &format!(
            "{verb} into items(id, source, project, title, occurred_at) values (?1, ?2, ?3, ?4, ?5)"
        ),
        rusqlite::params![id, r.0, r.1, r.2, at(r.3)],
    )
    .unwrap_or_else(|e| panic!("{verb} {id}: {e}"));
}

/// A conversation in project "chat", a turn a minute, a turn much later, and a source's
/// notes without a project.
const SEED: &str = "insert into items(id, source, project, title, occurred_at) values
    (1, 's', 'chat', 'alpha question', '2025-01-01T00:00:00Z'),
    (2, 's', 'chat', 'bravo answer', '2025-01-01T00:01:00Z'),
    (3, 's', 'chat', 'charlie thanks', '2025-01-01T00:02:00Z'),
    (4, 's', 'chat', 'delta much later', '2025-01-01T05:00:00Z'),
    (5, 'notes', null, 'echo note', '2025-01-01T00:00:00Z'),
    (6, 'notes', null, 'foxtrot note', '2025-01-01T00:10:00Z'),
    (7, 'other', null, 'golf elsewhere', '2025-01-01T00:05:00Z');";

#[test]
fn every_write_keeps_every_context_in_step() {
    for recursive in [false, true] {
        let lib = TempLib::init(None);
        let conn = lib.conn();
        conn.execute_batch(&format!("pragma recursive_triggers = {}", recursive as i32))
            .expect("pragma");
        conn.execute_batch(SEED).expect("seed");
        let case = |what: &str| format!("{what} (recursive triggers {recursive})");
        assert_in_step(&conn, &case("seed"));
        let context = |id: i64| -> String {
            conn.query_row("select context from items where id = ?1", [id], |r| {
                r.get(0)
            })
            .expect("context")
        };
        // Worked out by hand: 2 sits between 1 and 3.
        assert_eq!(context(2), "alpha question charlie thanks");
        assert_eq!(context(4), "", "five hours from its neighbour");
        assert_eq!(
            context(5),
            "foxtrot note",
            "its source's, not the other source's"
        );

        // An item arriving between 1 and 2 changes both their contexts.
        insert(&conn, "insert", 8, ("s", Some("chat"), "hotel between", 0));
        assert_eq!(context(1), "hotel between");
        assert_eq!(context(2), "charlie thanks hotel between");
        assert_in_step(&conn, &case("insert between"));

        let writes = [
            (
                "title",
                "update items set title = 'india renamed' where id = 3",
            ),
            (
                "time",
                "update items set occurred_at = '2025-01-01T05:01:00Z' where id = 2",
            ),
            (
                "project",
                "update items set project = null, source = 'notes' where id = 1",
            ),
            ("id", "update items set id = 20 where id = 8"),
            ("delete", "delete from items where id = 3"),
            (
                "upsert",
                "insert into items(id, source, project, title, occurred_at)
                 values (4, 's', 'chat', 'juliet moved', '2025-01-01T00:03:00Z')
                 on conflict(id) do update set title = excluded.title,
                   occurred_at = excluded.occurred_at",
            ),
            (
                "transcript only",
                "update items set transcript = 'kilo' where id = 4",
            ),
        ];
        for (what, sql) in writes {
            conn.execute_batch(sql)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_in_step(&conn, &case(what));
        }
        insert(
            &conn,
            "insert or replace",
            6,
            ("notes", None, "lima replaced", 2),
        );
        assert_in_step(&conn, &case("insert or replace"));
        insert(&conn, "replace", 5, ("s", Some("chat"), "mike moved in", 4));
        assert_in_step(&conn, &case("replace"));
        insert(
            &conn,
            "insert or ignore",
            5,
            ("s", Some("chat"), "never written", 60),
        );
        assert_in_step(&conn, &case("insert or ignore"));
        // An ignored insert leaves what its before-insert trigger set aside (as it does in
        // items_fts_pending); the next write brings those items in step and clears it.
        conn.execute_batch("delete from items where id = 7")
            .expect("delete");
        assert_in_step(&conn, &case("the write after"));
        assert_eq!(
            conn.query_row("select count(*) from items_context_stale", [], |r| r
                .get::<_, i64>(0))
                .expect("count"),
            0,
            "nothing is left aside"
        );
        let check = lib.run(&["--json", "check"]).ok().json();
        assert_eq!(check["healthy"], true, "{check}");
    }
}

/// Random writes of every kind on a library of short runs of turns: after each, every
/// context is the rule's.
#[test]
fn random_writes_against_the_rule_computed_in_rust() {
    let mut rng = StdRng::seed_from_u64(28);
    let lib = TempLib::init(None);
    let conn = lib.conn();
    let mut next_id = 1;
    let mut writes = 0;
    for step in 0..160 {
        let live: Vec<i64> = rows(&conn).iter().map(|r| r.id).collect();
        let project = ["p", "q", ""][rng.random_range(0..3)];
        let project = (!project.is_empty()).then_some(project);
        let source = ["a", "b"][rng.random_range(0..2)];
        let minute = rng.random_range(0..240);
        let title = format!("word{step} turn");
        let pick = |rng: &mut StdRng| live[rng.random_range(0..live.len())];
        match rng.random_range(0..6) {
            _ if live.len() < 5 => {
                insert(&conn, "insert", next_id, (source, project, &title, minute));
                next_id += 1;
            }
            0 | 1 => {
                insert(&conn, "insert", next_id, (source, project, &title, minute));
                next_id += 1;
            }
            2 => {
                let id = pick(&mut rng);
                insert(
                    &conn,
                    "insert or replace",
                    id,
                    (source, project, &title, minute),
                );
            }
            3 => {
                conn.execute(
                    "update items set occurred_at = ?1, project = ?2 where id = ?3",
                    rusqlite::params![at(minute), project, pick(&mut rng)],
                )
                .expect("update");
            }
            4 => {
                conn.execute(
                    "update items set title = ?1 where id = ?2",
                    rusqlite::params![title, pick(&mut rng)],
                )
                .expect("update title");
            }
            _ => {
                conn.execute("delete from items where id = ?1", [pick(&mut rng)])
                    .expect("delete");
            }
        }
        writes += 1;
        assert_in_step(&conn, &format!("step {step}"));
    }
    assert_eq!(writes, 160);
    assert!(
        contexts(&conn).iter().filter(|c| !c.1.is_empty()).count() > 10,
        "the library has neighbours to keep"
    );
}

#[test]
fn the_old_shell_reads_the_library_runs_search_and_keeps_contexts_in_step() {
    // The shell's SQLite 3.40 builds unicode61, not trigram with remove_diacritics.
    let lib = TempLib::init(Some("unicode61 remove_diacritics 2"));
    lib.conn().execute_batch(SEED).expect("seed");
    // A write in the shell: an item between 2 and 3, then 1 forgotten by a plain delete.
    shell_ok(
        &[lib.db.as_os_str()],
        "insert into items(id, source, project, title, occurred_at)
           values (9, 's', 'chat', 'november inserted', '2025-01-01T00:01:30Z');
         delete from items where id = 1;",
    );
    assert_in_step(&lib.conn(), "after the shell's writes");
    // search.sql in the shell finds 9 by its neighbour's word, as the CLI does.
    let script = format!(
        ".load {}\n.mode list\n.parameter set :query charlie\n.parameter set :tokenizer \"'unicode61 remove_diacritics 2'\"\n.read {}\n",
        extension_path().display(),
        crate::common::root().join("sql/search.sql").display()
    );
    let out = shell_ok(&[lib.db.as_os_str()], &script);
    let shell: Vec<i64> = out
        .lines()
        .map(|l| l.split('|').next().expect("id").parse().expect("id"))
        .collect();
    let cli = ids(&lib.json(&["search", "charlie"]));
    assert_eq!(shell, cli);
    assert!(cli.contains(&9), "found by its neighbour's title: {cli:?}");
    let check = lib.run(&["--json", "check"]).ok().json();
    assert_eq!(check["healthy"], true, "{check}");
}

/// An item none of whose words the query has, next to one that has them.
fn pair() -> TempLib {
    let items = [
        titled("the nightly export crashed again")
            .project("ops")
            .at(&at(0))
            .line(),
        titled("a full disk on the replica")
            .project("ops")
            .at(&at(1))
            .line(),
        titled("unrelated gardening notes")
            .project("home")
            .at(&at(0))
            .line(),
    ];
    TempLib::with_items(None, &items)
}

#[test]
fn search_matches_an_item_by_its_neighbours_titles_related_and_later_do_not() {
    let lib = pair();
    let answer = lib.json(&["search", "nightly export", "--context-weight", "0"]);
    let found = ids(&answer);
    assert_eq!(found, vec![1, 2], "{answer}");
    assert_eq!(answer["results"][1]["matched_by"], "terms");
    // Its relevance is FTS5's bm25 of the context column at search's weight.
    let want = lib.relevance("\"nightly\" OR \"export\"");
    let got = answer["results"][1]["relevance"]
        .as_f64()
        .expect("relevance");
    let of_two = want.iter().find(|m| m.0 == 2).expect("2 matches").1;
    assert!((got - of_two).abs() < 1e-9, "{got} vs {of_two}");
    // At weight 0 the column neither matches nor counts (recall sql runs search.sql).
    let off = lib
        .run(&[
            "--json",
            "sql",
            "--file",
            crate::common::root()
                .join("sql/search.sql")
                .to_str()
                .expect("path"),
            "-p",
            "query=nightly export",
            "-p",
            "context_weight=0",
            "-p",
            "context_column_weight=0",
        ])
        .ok()
        .json();
    let off_ids: Vec<i64> = off
        .as_array()
        .unwrap_or_else(|| panic!("{off}"))
        .iter()
        .map(|r| r["id"].as_i64().expect("id"))
        .collect();
    assert_eq!(off_ids, vec![1]);
    // related and later read an item's own words only.
    let related = lib.json(&["related", "the replica export crashed nightly"]);
    assert_eq!(ids(&related), vec![1], "{related}");
    // (2 comes as the project's next item, not by the subject's words.)
    let later = lib.json(&["later", "1", "--query", "nightly export"]);
    let by_subject: Vec<&serde_json::Value> = later["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| r["matched_by"] == "subject")
        .collect();
    assert!(by_subject.is_empty(), "{later}");
}

#[test]
fn migrate_fills_the_contexts_and_rebuild_follows_the_recorded_radius() {
    let lib = TempLib::init_at_version(4);
    let conn = lib.conn();
    conn.execute_batch(SEED).expect("seed at version 4");
    lib.run(&["migrate"]).ok();
    assert_eq!(
        lib.count("pragma user_version"),
        crate::common::latest_version()
    );
    assert_in_step(&conn, "after migrate");
    assert_eq!(
        ids(&lib.json(&["search", "charlie", "--context-weight", "0"])),
        vec![3, 2]
    );

    // Radius 2 and a gap of 10 minutes, recorded; rebuild recomputes every context.
    conn.execute_batch(
        "insert into recall_meta(key, value) values ('index_context_radius', '2'),
                                                     ('index_context_gap_minutes', '10')",
    )
    .expect("record");
    lib.run(&["rebuild"]).ok();
    assert_eq!(contexts(&conn), wanted(&rows(&conn), 2, 10));
    assert_ne!(wanted(&rows(&conn), 2, 10), wanted(&rows(&conn), 1, 30));
    lib.run(&["rebuild", "--tokenizer", "unicode61 remove_diacritics 2"])
        .ok();
    assert_eq!(contexts(&conn), wanted(&rows(&conn), 2, 10));
    let check = lib.run(&["--json", "check"]).ok().json();
    assert_eq!(check["healthy"], true, "{check}");
}

#[test]
fn check_names_a_context_out_of_step_and_repair_recomputes_it() {
    let lib = TempLib::init(None);
    let conn = lib.conn();
    conn.execute_batch(SEED).expect("seed");
    // A write without the triggers: the context is stale, the index agrees with it.
    conn.execute_batch(
        "update items set context = 'stale words' where id = 2;
         insert into items_fts(items_fts) values ('rebuild');",
    )
    .expect("damage");
    let ran = lib.run(&["--json", "check"]);
    assert_eq!(ran.code, 1);
    assert_eq!(ran.failed_checks(), ["context"], "{}", ran.stdout);
    let text = lib.run(&["check"]).stdout;
    assert!(
        text.lines().any(|l| l
            == "PROBLEM context: 1 item's context is out of step with its neighbours, left by a write that ran without its triggers: run `recall repair`"),
        "{text}"
    );
    let out = lib.run(&["repair"]).ok();
    assert!(
        out.stdout
            .contains("recomputed the context of 1 item from its neighbours"),
        "{}",
        out.stdout
    );
    assert_in_step(&conn, "after repair");
    assert_eq!(lib.run(&["check"]).code, 0);
}
