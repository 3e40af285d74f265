//! `recall check` and `recall repair` on damaged libraries. Check only reads (a
//! read-only, foreign or busy library is no problem), finds each kind of damage and
//! names a fix; the fix works: check is clean afterwards and search finds the items.
//! Writes refuse a damaged schema (`schema::ensure_sound`) until it is repaired, and a
//! library whose tokenizer record or `recall_meta` is gone still opens for check and
//! repair.

use std::time::{Duration, Instant};

use crate::common::cli::{generated_items, kill_at_pause, TempLib};
use crate::common::damage::{
    assert_clean, damage, found, named_command, problem, problems, protect, run_as, smash, state,
    stranger, titled, unprotect, Smash,
};
use crate::common::shell_ok;

const UNICODE: &str = "unicode61 remove_diacritics 2";

/// A library of 40 generated items (ids 1 to 40).
fn library(tokenizer: Option<&str>) -> TempLib {
    let lib = TempLib::init(tokenizer);
    lib.import(&generated_items(40)).ok();
    lib
}

/// Search finds exactly the items whose title holds the word (read from the items).
fn assert_searchable(lib: &TempLib) {
    let expected = titled(lib, "widget1");
    assert!(
        expected.len() >= 9,
        "the fixture has widget1, widget10 … widget19"
    );
    assert_eq!(found(lib, "widget1"), expected);
}

/// Damage → check names it with `recall repair` → repair says what it did → clean,
/// searchable, and importing (which writes through the triggers) keeps it clean.
fn assert_repaired(lib: &TempLib, name: &str, detail: &str, did: &str) {
    let seen = problem(lib, name);
    assert!(seen.contains(detail), "{name}: {seen:?} lacks {detail:?}");
    assert!(
        seen.ends_with("run `recall repair`") || seen.contains("run `recall repair` "),
        "{name}: {seen:?} names no repair"
    );
    let out = lib.run(&["repair"]).ok();
    assert!(
        out.stdout.contains(did),
        "repair said {:?}, not {did:?}",
        out.stdout
    );
    assert_clean(lib);
    assert_searchable(lib);
    lib.import(
        r#"{"id": 3, "source": "s", "title": "widget1 replaced", "occurred_at": "2025-01-01"}"#,
    )
    .ok();
    assert_clean(lib);
    assert_searchable(lib);
}

// A. Check only reads.

#[test]
fn check_never_waits_for_a_writer_nor_calls_a_lock_damage() {
    let lib = library(None);
    // Long enough that waiting for the lock could not go unnoticed.
    let config = lib.path("patient.toml");
    std::fs::write(&config, "[storage]\nbusy_timeout_ms = 30000\n").unwrap();
    let holder = lib.conn();
    holder
        .execute_batch("begin immediate; insert into items(source, title, occurred_at) values ('s', 'held', '2025-01-01T00:00:00Z');")
        .unwrap();
    // The write lock is really held: another writer cannot start.
    let other = lib.conn();
    other.busy_timeout(Duration::ZERO).unwrap();
    let refused = other.execute_batch("begin immediate").unwrap_err();
    assert_eq!(
        refused.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy)
    );
    let started = Instant::now();
    let ran = lib.run(&["--config", config.to_str().unwrap(), "--json", "check"]);
    let took = started.elapsed();
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(ran.failed_checks().is_empty(), "{}", ran.stdout);
    assert!(took < Duration::from_secs(15), "check waited {took:?}");
    // It saw the committed items, not the writer's.
    let counts = ran.json()["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "counts")
        .map(|c| c["detail"].clone());
    assert_eq!(counts, Some("40 items, 40 indexed".into()));
    holder.execute_batch("rollback").unwrap();
}

#[test]
fn check_of_a_library_the_user_cannot_write_is_clean() {
    let who = stranger();
    eprintln!("running as {who:?}");
    let lib = library(None);
    // The library alone (the last connection removed -wal and -shm).
    assert!(!lib.path("library.db-wal").exists());
    protect(&lib, who);
    let ran = run_as(&lib, who, &["--json", "check"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(ran.failed_checks().is_empty(), "{}", ran.stdout);
    // The setup really took write access away.
    run_as(&lib, who, &["import", "-"]).fails_with("read-only");
    unprotect(&lib);

    // -wal and -shm held open by their owner, with commits not yet in the main file:
    // read-only for the stranger, as the library is.
    let holder = lib.conn();
    holder
        .execute_batch("pragma wal_autocheckpoint = 0; insert into items(source, title, occurred_at) values ('s', 'in the log', '2025-01-01T00:00:00Z');")
        .unwrap();
    assert!(lib.path("library.db-wal").metadata().unwrap().len() > 0);
    protect(&lib, who);
    let ran = run_as(&lib, who, &["--json", "check"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(ran.failed_checks().is_empty(), "{}", ran.stdout);
    assert!(
        ran.stdout.contains("41 items, 41 indexed"),
        "the log's item is seen: {}",
        ran.stdout
    );
    let searched = run_as(&lib, who, &["--json", "search", "in the log"]);
    assert_eq!(searched.code, 0, "{searched:?}");
    unprotect(&lib);
    drop(holder);
}

#[test]
fn check_catches_damage_to_the_index_read_only() {
    // FTS5's own structure check runs inside quick_check (SQLite 3.44+), on a read-only
    // connection; a segment overwritten with garbage is found by a user who cannot write.
    let who = stranger();
    let lib = library(None);
    damage(
        &lib,
        "update items_fts_data set block = x'00' where id = (select max(id) from items_fts_data)",
    );
    protect(&lib, who);
    let ran = run_as(&lib, who, &["--json", "check"]);
    unprotect(&lib);
    assert_eq!(ran.code, 1, "{ran:?}");
    let db = problem(&lib, "database");
    assert!(db.contains("fts5"), "{db}");
    assert!(db.ends_with("run `recall repair`"), "{db}");
    assert!(ran.failed_checks().contains(&"database".to_string()));
    lib.run(&["repair"]).ok();
    assert_clean(&lib);
    assert_searchable(&lib);
}

#[test]
fn check_compares_the_index_with_the_items_and_repair_fixes_it() {
    // What quick_check does not see (FTS5's read-only check skips the content of an
    // external-content index): check indexes the items again and compares.
    let cases: [(&str, &str); 5] = [
        (
            "delete from items_fts_docsize where id = 5",
            "the index's token counts (items_fts_docsize) are wrong for item 5",
        ),
        (
            "update items_fts_docsize set sz = x'0101010101' where id = 7",
            "the index's token counts (items_fts_docsize) are wrong for item 7",
        ),
        (
            "update items_fts_data set block = x'0a0a0a' where id = 1",
            "the index's totals (what bm25 averages over) disagree with the items",
        ),
        (
            "insert into items_fts(items_fts, rowid, title, summary, questions, atoms, project) \
               select 'delete', id, title, summary, questions, atoms, project from items where id = 12; \
             insert into items_fts(rowid, title, summary, questions, atoms, project) \
               values (12, 'Totally new words', '', '', '', null);",
            "1 item is indexed with other text than it holds (item 12)",
        ),
        (
            "drop trigger items_fts_after_delete; delete from items where id in (20, 21)",
            "the index holds 2 entries that no item has (ids 20, 21)",
        ),
    ];
    for (sql, expected) in cases {
        let lib = library(None);
        damage(&lib, sql);
        let seen = problem(&lib, "index integrity");
        assert_eq!(seen, format!("{expected}: run `recall repair`"), "{sql}");
        lib.run(&["repair"]).ok();
        assert_clean(&lib);
        assert_searchable(&lib);
    }
}

#[test]
fn an_item_missing_from_the_index_is_named() {
    let lib = library(None);
    damage(
        &lib,
        "drop trigger items_fts_after_insert; insert into items(id, source, title, occurred_at) values (77, 's', 'unindexed widget1', '2025-01-01T00:00:00Z')",
    );
    let found_problems = problems(&lib);
    let detail = |name: &str| {
        found_problems
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, d)| d.clone())
            .unwrap_or_default()
    };
    assert_eq!(
        detail("index integrity"),
        "1 item is not in the index (item 77): run `recall repair`"
    );
    assert_eq!(
        detail("counts"),
        "41 items but 40 indexed: run `recall repair`"
    );
    assert!(detail("triggers").starts_with("missing trigger items_fts_after_insert:"));
    lib.run(&["repair"]).ok();
    assert_clean(&lib);
    assert_searchable(&lib);
    assert!(found(&lib, "widget1").contains(&77));
}

// B. Rows the queries cannot read.

#[test]
fn check_names_rows_the_queries_cannot_read_and_reimporting_fixes_them() {
    let lib = library(None);
    damage(
        &lib,
        "insert into items(id, source, title, occurred_at) values (301, 's', 'zebra one', 1741064767);
         insert into items(id, source, title, occurred_at) values (302, 's', cast(x'7a6562726120ff74776f' as text), '2025-01-01T00:00:00Z');
         insert into items(id, source, title, occurred_at) values (303, 's', 'zebra three', '2025-02-30T00:00:00Z');
         insert into items(id, source, title, occurred_at) values (304, 's', 'zebra four', '2025-03-04 05:06:07');
         insert into items(id, source, title, occurred_at) values (305, x'7a', 'zebra five', '2025-01-01T00:00:00Z');",
    );
    // TEXT affinity stored the number as text, which is why nothing else notices.
    assert_eq!(
        lib.count("select count(*) from items where id = 301 and typeof(occurred_at) = 'text'"),
        1
    );
    let rows = problem(&lib, "rows");
    let form = "not a time in the form 2025-03-04T05:06:07Z";
    assert_eq!(
        rows,
        format!(
            "5 items hold values that the queries cannot read: \
             item 301 has occurred_at '1741064767', {form}; \
             item 302 has a title that is not valid UTF-8 (at byte 6); \
             item 303 has occurred_at '2025-02-30T00:00:00Z', {form}; \
             item 304 has occurred_at '2025-03-04 05:06:07', {form}; \
             item 305 has source stored as a BLOB of 1 bytes, not text: \
             re-import them with `recall import` (an `id` field replaces an item) or delete them"
        )
    );
    // A query that reads the bad source fails naming that item, or copes with it.
    let timeline = lib.run(&["timeline", "--limit", "50"]);
    assert!(
        timeline.code == 0
            || timeline
                .stderr
                .contains("item 305 has source stored as a BLOB"),
        "{timeline:?}"
    );
    // The query that fails says which item is to blame, in one line.
    lib.run(&["search", "zebra"]).fails_with(&format!(
        "running sql/search.sql failed: item 301 has occurred_at '1741064767', {form}: re-import it with `recall import` (an `id` field replaces an item) or delete it (`recall check` lists every such row)"
    ));
    // The fix check names works.
    let fixed: Vec<String> = (301..=305)
        .map(|id| {
            format!(
                r#"{{"id": {id}, "source": "s", "title": "zebra {id}", "occurred_at": 1741064767}}"#
            )
        })
        .collect();
    lib.import(&fixed.join("\n")).ok();
    assert_clean(&lib);
    assert_eq!(found(&lib, "zebra"), vec![301, 302, 303, 304, 305]);
    assert_searchable(&lib);
}

#[test]
fn get_and_search_show_invalid_utf8_alike() {
    let lib = library(None);
    damage(
        &lib,
        "insert into items(id, source, title, summary, occurred_at) values (90, 'agent-a', cast(x'63616620ff207a65627261' as text), 'fine', '2025-01-01T00:00:00Z')",
    );
    let shown = "caf \u{fffd} zebra";
    let got = lib.json(&["get", "90"]);
    assert_eq!(got["item"]["title"], shown);
    assert_eq!(got["item"]["summary"], "fine");
    let searched = lib.json(&["search", "zebra"]);
    assert_eq!(searched["results"][0]["id"], 90);
    assert_eq!(searched["results"][0]["title"], shown);
    let text = lib.run(&["get", "90"]).ok().stdout;
    assert!(
        text.starts_with(&format!("[90] 2025-01-01T00:00:00Z {shown} (-, agent-a)\n")),
        "{text}"
    );
    let rows = problem(&lib, "rows");
    assert!(
        rows.contains("item 90 has a title that is not valid UTF-8 (at byte 4)"),
        "{rows}"
    );
}

// C. Each damage, its fix, and the fix working.

#[test]
fn a_dropped_index_is_created_again() {
    let lib = library(None);
    damage(&lib, "drop table items_fts");
    let out = problems(&lib);
    assert!(
        out.contains(&(
            "index".to_string(),
            "the index table items_fts is missing: run `recall repair`".to_string()
        )),
        "{out:?}"
    );
    // A query names the damage and the fix, rather than SQLite's "no such table".
    lib.run(&["search", "widget1"]).fails_with(
        "running sql/search.sql failed: the library's schema is damaged (missing index items_fts): run `recall repair`",
    );
    assert_repaired(
        &lib,
        "index",
        "items_fts is missing",
        "created the index items_fts again with tokenizer 'trigram remove_diacritics 1' (missing index items_fts)",
    );
}

#[test]
fn a_dropped_items_table_is_created_again_empty() {
    let lib = library(None);
    damage(&lib, "drop table items");
    let found_problems = problems(&lib);
    let names: Vec<&str> = found_problems.iter().map(|(n, _)| n.as_str()).collect();
    // Nothing is said about the index's agreement with items that are not there.
    assert_eq!(names, ["triggers", "tables", "rows"], "{found_problems:?}");
    assert!(found_problems[1].1.starts_with("missing table items, "));
    let out = lib.run(&["repair"]).ok();
    assert!(
        out.stdout.contains("created the missing table items"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("rebuilt the index of 0 items"),
        "{}",
        out.stdout
    );
    assert_clean(&lib);
    lib.import(&generated_items(20)).ok();
    assert_clean(&lib);
    assert_searchable(&lib);
}

#[test]
fn a_dropped_shadow_table_or_a_broken_config_is_repaired() {
    for (sql, name, detail) in [
        (
            "drop table items_fts_docsize",
            "index",
            "the index is damaged (missing table items_fts_docsize)",
        ),
        (
            "drop table items_fts_config",
            "index",
            "the index is damaged (missing table items_fts_config)",
        ),
        (
            "drop table items_fts_idx",
            "index",
            "the index is damaged (missing table items_fts_idx)",
        ),
        (
            "update items_fts_config set v = 99 where k = 'version'",
            "index",
            "the index cannot be used (invalid fts5 file format (found 99",
        ),
        (
            "drop table items_fts_data; create table items_fts_data(id integer primary key, block blob, extra)",
            "index",
            "the index is damaged (altered table items_fts_data)",
        ),
    ] {
        let lib = library(None);
        damage(&lib, sql);
        assert_repaired(&lib, name, detail, "created the index items_fts again");
    }
}

#[test]
fn the_recorded_tokenizer_edited_by_hand_has_two_fixes_that_work() {
    // The report's case: `trigram` recorded on a unicode61 index.
    let edit = "update recall_meta set value = 'trigram' where key = 'tokenizer'";
    let lib = library(Some(UNICODE));
    damage(&lib, edit);
    let seen = problem(&lib, "tokenizer");
    assert_eq!(seen, format!("the index declares '{UNICODE}' but the library records 'trigram': run `recall repair` to rebuild the index with 'trigram', or `recall rebuild --tokenizer '{UNICODE}'` to record '{UNICODE}'"));
    let out = lib.run(&["repair"]).ok();
    assert!(out.stdout.contains(&format!("created the index items_fts again with tokenizer 'trigram' (the index uses tokenizer '{UNICODE}', the library's is 'trigram')")), "{}", out.stdout);
    let declared: String = lib
        .conn()
        .query_row(
            "select sql from sqlite_master where name = 'items_fts'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(declared.contains("tokenize = 'trigram'"), "{declared}");
    assert_clean(&lib);
    assert_searchable(&lib);

    // The other fix: record what the index declares.
    let lib = library(Some(UNICODE));
    damage(&lib, edit);
    lib.run(&["rebuild", "--tokenizer", UNICODE]).ok();
    assert_clean(&lib);
    let recorded: String = lib
        .conn()
        .query_row(
            "select value from recall_meta where key = 'tokenizer'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(recorded, UNICODE);
    assert_eq!(found(&lib, "migrate").len(), 40);
}

#[test]
fn an_index_declaring_an_unknown_tokenizer_is_created_again() {
    // Edited through writable_schema: FTS5 cannot even open the index to drop it.
    let lib = library(None);
    damage(
        &lib,
        "pragma writable_schema = on;
         update sqlite_master set sql = replace(sql, 'trigram remove_diacritics 1', 'bogus')
         where name = 'items_fts';",
    );
    let found_problems = problems(&lib);
    assert_eq!(
        found_problems,
        [
            (
                "tokenizer".to_string(),
                "the index declares 'bogus', which is not a tokenizer recall knows, but the library records 'trigram remove_diacritics 1': run `recall repair` to rebuild the index with 'trigram remove_diacritics 1'".to_string()
            ),
            (
                "index".to_string(),
                "the index cannot be used (it declares tokenizer 'bogus', which recall does not know): run `recall repair`".to_string()
            ),
        ]
    );
    let out = lib.run(&["repair"]).ok();
    assert!(out.stdout.contains("created the index items_fts again with tokenizer 'trigram remove_diacritics 1' (the index uses tokenizer 'bogus', the library's is 'trigram remove_diacritics 1')"), "{}", out.stdout);
    assert_clean(&lib);
    assert_searchable(&lib);
    let integrity: String = lib
        .conn()
        .query_row("pragma integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok");
}

#[test]
fn a_dropped_pending_table_is_found_and_created_again() {
    let lib = library(None);
    damage(&lib, "drop table items_fts_pending");
    assert_repaired(
        &lib,
        "tables",
        "missing table items_fts_pending",
        "created the missing table items_fts_pending",
    );
}

#[test]
fn each_dropped_trigger_is_created_again() {
    for trigger in [
        "items_fts_before_insert",
        "items_fts_after_insert",
        "items_fts_after_delete",
        "items_fts_after_update",
    ] {
        let lib = library(None);
        damage(&lib, &format!("drop trigger {trigger}"));
        assert_repaired(
            &lib,
            "triggers",
            &format!("missing trigger {trigger}: the index no longer follows the items"),
            &format!("created the missing trigger {trigger}"),
        );
    }
}

#[test]
fn a_dropped_trigger_in_the_shell_is_found_and_repaired() {
    // The sqlite3 shell (3.40) can edit a library whose tokenizer it knows.
    let lib = library(Some(UNICODE));
    shell_ok(
        &[lib.db.as_os_str()],
        "drop trigger items_fts_after_update;\n",
    );
    let seen = problem(&lib, "triggers");
    assert_eq!(
        seen,
        "missing trigger items_fts_after_update: the index no longer follows the items; run `recall repair`"
    );
    lib.run(&["repair"]).ok();
    assert_clean(&lib);
    lib.import(
        r#"{"id": 3, "source": "s", "title": "zebra crossing", "occurred_at": "2025-01-01"}"#,
    )
    .ok();
    assert_clean(&lib);
    assert_eq!(found(&lib, "zebra"), vec![3]);
    assert_eq!(found(&lib, "migrate").len(), 39);
}

#[test]
fn an_altered_trigger_is_created_again_as_defined() {
    let lib = library(None);
    damage(
        &lib,
        "drop trigger items_fts_after_update;
         create trigger items_fts_after_update after update of title on items begin select 1; end;",
    );
    assert_repaired(
        &lib,
        "triggers",
        "altered trigger items_fts_after_update",
        "created trigger items_fts_after_update again as the migrations define it",
    );
    let sql: String = lib
        .conn()
        .query_row(
            "select sql from sqlite_master where name = 'items_fts_after_update'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(
        sql.contains("after update of id, title, summary, questions, atoms, project"),
        "{sql}"
    );
}

#[test]
fn each_dropped_index_on_items_is_created_again() {
    for index in ["items_by_project", "items_by_source", "items_by_time"] {
        let lib = library(None);
        damage(&lib, &format!("drop index {index}"));
        assert_repaired(
            &lib,
            "tables",
            &format!("missing index {index}"),
            &format!("created the missing index {index}"),
        );
    }
    let lib = library(None);
    damage(
        &lib,
        "drop index items_by_time; create index items_by_time on items (title)",
    );
    assert_repaired(
        &lib,
        "tables",
        "altered index items_by_time",
        "created index items_by_time again as the migrations define it",
    );
}

#[test]
fn a_dropped_migrations_log_is_created_again_with_its_rows() {
    let lib = library(None);
    damage(&lib, "drop table recall_migrations");
    assert_repaired(
        &lib,
        "tables",
        "missing table recall_migrations",
        &format!(
            "recorded migrations {} in recall_migrations",
            crate::common::all_versions()
        ),
    );
    let versions: Vec<i64> = lib
        .conn()
        .prepare("select version from recall_migrations order by version")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert_eq!(
        versions,
        (1..=crate::common::latest_version()).collect::<Vec<_>>()
    );
}

#[test]
fn user_version_zeroed_in_the_shell_is_restored() {
    let lib = library(None);
    shell_ok(&[lib.db.as_os_str()], "pragma user_version = 0;\n");
    let seen = problem(&lib, "schema");
    assert_eq!(
        seen,
        format!("schema version 0, but the migrations log (recall_migrations) records migrations up to {}: user_version was changed by hand; run `recall repair` to restore it", crate::common::latest_version())
    );
    let out = lib.run(&["repair"]).ok();
    assert!(
        out.stdout.contains(&format!(
            "restored user_version {} (it was 0)",
            crate::common::latest_version()
        )),
        "{}",
        out.stdout
    );
    assert_eq!(
        lib.count("pragma user_version"),
        crate::common::latest_version()
    );
    assert_clean(&lib);
    assert_searchable(&lib);
    let migrated = lib.json(&["migrate"]);
    assert_eq!(migrated["applied"], 0);
}

#[test]
fn rows_left_in_the_pending_table_are_cleared() {
    let lib = library(None);
    damage(
        &lib,
        "insert into items_fts_pending(id, title, summary, questions, atoms, project) values (5, 'stale', '', '', '', null)",
    );
    let seen = problem(&lib, "pending");
    assert_eq!(seen, "items_fts_pending holds 1 row that differs from the items (ids 5), left by a write that ran without its triggers; the next write of those ids would corrupt the index: run `recall repair`");
    let out = lib.run(&["repair"]).ok();
    assert!(
        out.stdout
            .contains("cleared 1 row left in items_fts_pending"),
        "{}",
        out.stdout
    );
    assert_clean(&lib);
    // Writing item 5 again no longer "deletes" the stale text from the index.
    lib.import(r#"{"id": 5, "source": "s", "title": "widget1 five", "occurred_at": "2025-01-01"}"#)
        .ok();
    assert_clean(&lib);
    assert_searchable(&lib);
}

#[test]
fn what_an_ignored_insert_leaves_pending_is_no_damage() {
    // The before-insert trigger keeps the item's current values; the insert is ignored,
    // so no after-insert trigger takes them away. They match the item and the index.
    let lib = library(None);
    damage(
        &lib,
        "insert or ignore into items(id, source, title, occurred_at) values (5, 's', 'ignored', '2025-01-01T00:00:00Z')",
    );
    assert_eq!(lib.count("select count(*) from items_fts_pending"), 1);
    assert_clean(&lib);
    lib.import(r#"{"id": 5, "source": "s", "title": "widget1 five", "occurred_at": "2025-01-01"}"#)
        .ok();
    assert_clean(&lib);
    assert_searchable(&lib);
}

#[test]
fn a_column_added_by_a_user_is_no_damage() {
    let lib = library(None);
    damage(&lib, "alter table items add column tags text");
    assert_clean(&lib);
    lib.import(r#"{"source": "s", "title": "widget1 new", "occurred_at": "2025-01-01"}"#)
        .ok();
    assert_clean(&lib);
    let out = lib.run(&["repair"]).ok();
    assert!(
        out.stdout.contains("the schema was sound"),
        "{}",
        out.stdout
    );
    assert_eq!(
        lib.count("select count(*) from pragma_table_info('items') where name = 'tags'"),
        1
    );
}

#[test]
fn an_altered_items_table_is_rebuilt_keeping_its_rows() {
    // Rebuilt by hand without the NOT NULL on summary, and a row that uses it.
    let lib = library(None);
    let rebuilt = "create table items (
          id integer primary key, source text not null, project text, title text not null,
          summary text, questions text not null default '', atoms text not null default '',
          occurred_at text not null, transcript text,
          imported_at text not null default (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
          kind text, global integer not null default 0, context text not null default '')";
    damage(
        &lib,
        &format!(
            "pragma legacy_alter_table = on; alter table items rename to old_items; {rebuilt};
             insert into items select * from old_items; drop table old_items;
             insert into items(id, source, title, summary, occurred_at) values (50, 's', 'widget1 null summary', null, '2025-01-01T00:00:00Z');
             insert into items_fts(items_fts) values ('rebuild');"
        ),
    );
    let found_problems = problems(&lib);
    assert!(
        found_problems
            .iter()
            .any(|(n, d)| n == "tables" && d.starts_with("altered table items")),
        "{found_problems:?}"
    );
    assert!(
        found_problems
            .iter()
            .any(|(n, d)| n == "rows" && d.contains("item 50 has no summary (NULL)")),
        "{found_problems:?}"
    );
    // The triggers went with the table rename; repair brings them back too.
    let out = lib.run(&["repair"]).ok();
    assert!(
        out.stdout
            .contains("rebuilt table items as the migrations define it, keeping its rows"),
        "{}",
        out.stdout
    );
    assert_clean(&lib);
    assert_eq!(lib.count("select count(*) from items"), 41);
    let summary: String = lib
        .conn()
        .query_row("select summary from items where id = 50", [], |r| r.get(0))
        .unwrap();
    assert_eq!(summary, "", "a NULL takes the column's default");
    assert_searchable(&lib);
}

#[test]
fn a_failing_repair_names_the_row_and_changes_nothing() {
    let lib = library(None);
    damage(
        &lib,
        "pragma legacy_alter_table = on; alter table items rename to old_items;
         create table items (id integer primary key, source text not null, project text, title text,
           summary text not null default '', questions text not null default '', atoms text not null default '',
           occurred_at text not null, transcript text,
           imported_at text not null default (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
           kind text, global integer not null default 0, context text not null default '');
         insert into items select * from old_items; drop table old_items;
         insert into items(id, source, title, occurred_at) values (50, 's', null, '2025-01-01T00:00:00Z');",
    );
    let before = state(&lib);
    lib.run(&["repair"]).fails_with(
        "cannot rebuild table items as the migrations define it: item 50 has no title (NULL)",
    );
    assert_eq!(state(&lib), before, "a failed repair changes nothing");
    damage(&lib, "delete from items where id = 50");
    lib.run(&["repair"]).ok();
    assert_clean(&lib);
    assert_searchable(&lib);
}

#[test]
fn a_killed_repair_leaves_the_library_as_it_was() {
    let lib = library(None);
    damage(
        &lib,
        "drop trigger items_fts_after_insert; drop table items_fts",
    );
    let before = state(&lib);
    let child = lib
        .command()
        .arg("repair")
        .env("RECALL_TEST_PAUSE_AT", "repair:1")
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("spawn repair");
    kill_at_pause(child);
    assert_eq!(state(&lib), before);
    assert_eq!(
        problem(&lib, "index"),
        "the index table items_fts is missing: run `recall repair`"
    );
    let out = lib.json(&["repair"]);
    assert_eq!(out["items"], 40);
    assert_eq!(out["tokenizer"], "trigram remove_diacritics 1");
    assert_eq!(out["schema_version"], crate::common::latest_version());
    let did: Vec<&str> = out["repaired"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap())
        .collect();
    assert_eq!(
        did,
        [
            "created the index items_fts again with tokenizer 'trigram remove_diacritics 1' (missing index items_fts)",
            "created the missing trigger items_fts_after_insert",
        ]
    );
    assert_clean(&lib);
    assert_searchable(&lib);
}

#[test]
fn repair_keeps_the_library_s_tokenizer_over_a_configured_one() {
    let lib = library(None);
    damage(&lib, "drop trigger items_fts_after_insert");
    let before = state(&lib);
    lib.run(&["--tokenizer", UNICODE, "repair"])
        .fails_with("the configured tokenizer 'unicode61 remove_diacritics 2' differs from the library's 'trigram remove_diacritics 1'");
    assert_eq!(state(&lib), before);
}

// A library whose tokenizer record or recall_meta is gone opens for check and repair.

#[test]
fn a_missing_tokenizer_record_is_taken_from_the_index() {
    let lib = library(Some(UNICODE));
    damage(&lib, "delete from recall_meta where key = 'tokenizer'");
    let seen = problem(&lib, "tokenizer");
    assert_eq!(seen, format!("the library records no tokenizer: run `recall repair` to record the one the index declares, '{UNICODE}'"));
    let out = lib.run(&["repair"]).ok();
    assert!(
        out.stdout.contains(&format!(
            "recorded tokenizer '{UNICODE}' (the one the index declared)"
        )),
        "{}",
        out.stdout
    );
    assert_clean(&lib);
    assert_eq!(found(&lib, "migrate").len(), 40);
}

#[test]
fn a_dropped_recall_meta_is_created_again() {
    let lib = library(None);
    damage(&lib, "drop table recall_meta");
    let found_problems = problems(&lib);
    assert!(
        found_problems.contains(&(
            "tables".to_string(),
            "missing table recall_meta: run `recall repair`".to_string()
        )),
        "{found_problems:?}"
    );
    let out = lib.run(&["repair"]).ok();
    assert!(
        out.stdout.contains("created the missing table recall_meta"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains(
            "recorded tokenizer 'trigram remove_diacritics 1' (the one the index declared)"
        ),
        "{}",
        out.stdout
    );
    assert_clean(&lib);
    assert_searchable(&lib);
}

// Needs `schema::ensure_sound` called by the write commands (library/open.rs `open`
// for writing, maintain.rs) and `schema::version_mismatch` in `migrate`.

#[test]
fn writes_refuse_a_damaged_schema_until_it_is_repaired() {
    let item =
        r#"{"id": 3, "source": "s", "title": "widget1 replaced", "occurred_at": "2025-01-01"}"#;
    for (sql, named) in [
        (
            "drop trigger items_fts_after_update",
            "missing trigger items_fts_after_update",
        ),
        (
            "drop table items_fts_pending",
            "missing table items_fts_pending",
        ),
        ("drop table items_fts", "missing index items_fts"),
        ("drop index items_by_time", "missing index items_by_time"),
        (
            "update recall_meta set value = 'trigram' where key = 'tokenizer'",
            "the index uses tokenizer 'trigram remove_diacritics 1', the library's is 'trigram'",
        ),
    ] {
        let lib = library(None);
        damage(&lib, sql);
        let before = state(&lib);
        lib.run_stdin(&["import", "-"], item).fails_with(&format!(
            "the library's schema is damaged ({named}): run `recall repair`"
        ));
        assert_eq!(state(&lib), before, "{sql}");
        lib.run(&["repair"]).ok();
        lib.run_stdin(&["import", "-"], item).ok();
        assert_clean(&lib);
        assert_searchable(&lib);
    }
}

#[test]
fn rebuild_refuses_a_damaged_index() {
    let lib = library(None);
    damage(&lib, "drop table items_fts_docsize");
    let before = state(&lib);
    lib.run(&["rebuild"]).fails_with(
        "the library's index is damaged (missing table items_fts_docsize): run `recall repair`",
    );
    assert_eq!(state(&lib), before);
}

#[test]
fn rebuild_with_the_recorded_tokenizer_rebuilds_the_declared_index() {
    // The advice of old, `rebuild --tokenizer <recorded>`, printed "rebuilt" and changed
    // nothing: rebuild must compare with the tokenizer the index declares.
    let lib = library(Some(UNICODE));
    damage(
        &lib,
        "update recall_meta set value = 'trigram' where key = 'tokenizer'",
    );
    lib.run(&["rebuild", "--tokenizer", "trigram"]).ok();
    let declared: String = lib
        .conn()
        .query_row(
            "select sql from sqlite_master where name = 'items_fts'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(declared.contains("tokenize = 'trigram'"), "{declared}");
    assert_clean(&lib);
    assert_searchable(&lib);
}

#[test]
fn migrate_after_user_version_zeroed_says_repair() {
    let lib = library(None);
    shell_ok(&[lib.db.as_os_str()], "pragma user_version = 0;\n");
    let before = state(&lib);
    lib.run(&["migrate"]).fails_with(
        &format!("its user_version is 0, but its migrations log (recall_migrations) records migrations up to {}: user_version was changed by hand; run `recall repair` to restore it", crate::common::latest_version()),
    );
    assert_eq!(state(&lib), before);
    lib.run(&["repair"]).ok();
    assert_eq!(lib.json(&["migrate"])["applied"], 0);
}

#[test]
fn every_check_line_is_ok_or_a_problem_with_a_fix() {
    // On a library damaged in many ways at once, each PROBLEM line ends with its fix.
    let lib = library(None);
    damage(
        &lib,
        "drop trigger items_fts_after_insert; drop index items_by_source; pragma user_version = 1;
         insert into items_fts_pending(id, title) values (9, 'x');
         insert into items(id, source, title, occurred_at) values (99, 's', 'bad time', 'yesterday');",
    );
    let ran = lib.run(&["check"]);
    assert_eq!(ran.code, 1);
    let fixes = [
        "run `recall repair`",
        "run `recall repair` to restore it",
        "or delete them",
    ];
    let mut problems_seen = 0;
    for line in ran.stdout.lines() {
        if let Some(rest) = line.strip_prefix("PROBLEM ") {
            problems_seen += 1;
            assert!(fixes.iter().any(|f| rest.ends_with(f)), "{line}");
        } else {
            assert!(line.starts_with("ok "), "{line}");
        }
    }
    assert!(problems_seen >= 5, "{}", ran.stdout);
    lib.run(&["repair"]).ok();
    lib.import(r#"{"id": 99, "source": "s", "title": "good time", "occurred_at": "2025-01-01"}"#)
        .ok();
    assert_clean(&lib);
    assert_searchable(&lib);
}

// D. Damaged pages: the index is built again from the items by the one command check
// names; damaged items leave a backup as the way out.

const INDEX_TABLES: [&str; 4] = [
    "items_fts_data",
    "items_fts_idx",
    "items_fts_docsize",
    "items_fts_config",
];

/// Every item is found in the index by its whole title, as a phrase.
fn assert_every_title_found(lib: &TempLib) {
    let conn = lib.conn();
    let items: Vec<(i64, String)> = conn
        .prepare("select id, title from items order by id")
        .and_then(|mut s| s.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect())
        .unwrap();
    assert_eq!(items.len(), 40);
    let mut find = conn
        .prepare("select rowid from items_fts where items_fts match ?1")
        .unwrap();
    for (id, title) in items {
        let phrase = format!("\"{}\"", title.replace('"', "\"\""));
        let ids: Vec<i64> = find
            .query_map([&phrase], |r| r.get(0))
            .and_then(|rows| rows.collect())
            .unwrap();
        assert!(ids.contains(&id), "item {id} ({title}) not found");
    }
}

#[test]
fn damaged_index_pages_are_mended_by_the_one_command_check_names() {
    for table in INDEX_TABLES {
        for how in [Smash::RootGarbage, Smash::AllZero] {
            let lib = library(None);
            smash(&lib, table, how);
            let found_problems = problems(&lib);
            assert!(!found_problems.is_empty(), "{table} {how:?}: nothing found");
            let mut commands: Vec<Vec<String>> = found_problems
                .iter()
                .map(|(_, fix)| named_command(fix))
                .collect();
            commands.dedup();
            assert_eq!(
                commands,
                [["repair"]],
                "{table} {how:?}: {found_problems:?}"
            );
            // A rebuild reads the damaged index, so it names that command too, and
            // changes nothing.
            let [before, _] = lib.files();
            let refused = lib.run(&["rebuild"]);
            if refused.code != 0 {
                assert!(
                    refused.stderr.contains("run `recall repair`"),
                    "{table} {how:?}: {refused:?}"
                );
                let [after, log] = lib.files();
                assert!(after == before, "{table} {how:?}: rebuild changed the file");
                assert!(log.unwrap_or_default().is_empty(), "{table} {how:?}");
            }
            let args: Vec<&str> = commands[0].iter().map(String::as_str).collect();
            let out = lib.run(&args).ok();
            assert!(
                out.stdout.contains("created the index items_fts again"),
                "{table} {how:?}: {}",
                out.stdout
            );
            assert_clean(&lib);
            assert_every_title_found(&lib);
            assert_searchable(&lib);
        }
    }
}

#[test]
fn a_repair_cut_off_before_it_rewrites_the_file_is_finished_by_repair() {
    let lib = library(None);
    smash(&lib, "items_fts_data", Smash::RootGarbage);
    let mut cmd = lib.command();
    cmd.args(["repair"])
        .env("RECALL_TEST_PAUSE_AT", "repair_reclaim:1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    kill_at_pause(cmd.spawn().unwrap());
    // The index is whole again, but pages of the old one are left in the file.
    let db = problem(&lib, "database");
    assert!(db.ends_with("run `recall repair`"), "{db}");
    let out = lib.run(&["repair"]).ok();
    assert!(
        out.stdout.contains("rewrote the file without the"),
        "{}",
        out.stdout
    );
    assert_clean(&lib);
    assert_every_title_found(&lib);
}

#[test]
fn damaged_items_pages_send_to_a_backup() {
    for table in ["items", "items_by_time"] {
        let lib = library(None);
        smash(&lib, table, Smash::RootGarbage);
        let db = problem(&lib, "database");
        assert!(
            db.contains("the items themselves are damaged: restore the library from a backup")
                && db.contains(".recover"),
            "{table}: {db}"
        );
        for (name, fix) in problems(&lib) {
            assert!(
                !fix.contains("recall rebuild") && !fix.ends_with("run `recall repair`"),
                "{table}: {name}: {fix}"
            );
        }
    }
}
