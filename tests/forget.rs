//! `recall forget`: a forgotten item's text is nowhere in the library file or its log
//! (raw bytes), nor in the index (fts5vocab), nor in the context of the item next to it
//! (the neighbours' titles each item is indexed with), under the default trigram tokenizer and a
//! unicode61 one; search cannot find it, `check` is clean, every other item is found.
//! A plain DELETE leaves the text in the file (the byte check can fail). Dry runs,
//! filters, empty requests, SIGKILL at every step, and a reader that blocks the wipe. A
//! wipe cut off is recorded, reported by `check`, and finished by the next write.
use std::collections::BTreeSet;
use std::process::{Child, Stdio};
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

use crate::common::cli::{generated_items, kill_at_pause, signal_at_pause, TempLib};
use crate::common::shell_ok;
use crate::common::vectors::{embedded_ids, fake};

/// In every field of the secret item; its rarest parts are in no other item.
const SECRET: &str = "Zanzibarquokkavault7Secret";
const UNICODE61: &str = "unicode61 remove_diacritics 2";
/// The title of the item next to the secret one.
const NEIGHBOUR: &str = "Checked the rotation with the on-call";

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Whether the secret's bytes (as stored, or lowercased as a word index keeps them) are
/// in the library file or its log.
fn secret_in_files(lib: &TempLib) -> bool {
    let lower = SECRET.to_lowercase();
    lib.files()
        .iter()
        .flatten()
        .any(|bytes| contains(bytes, SECRET.as_bytes()) || contains(bytes, lower.as_bytes()))
}

/// A library with a history: other items imported in several batches (index segments
/// merged), the secret item added, more imports, replaced items, `optimize` (which
/// gathers statistics), then a checkpoint so that everything is in the main file.
/// Returns the library and the secret item's id.
fn library_with_secret(tokenizer: Option<&str>) -> (TempLib, i64) {
    let lib = TempLib::init(tokenizer);
    for _ in 0..4 {
        lib.import(&generated_items(150)).ok();
    }
    let transcript = lib.path("transcript.txt");
    std::fs::write(&transcript, format!("user: the key is {SECRET}\n")).unwrap();
    let out = lib
        .run(&[
            "add",
            "--source",
            "agent-a",
            "--project",
            "project-3",
            "--title",
            &format!("Rotate the {SECRET} key"),
            "--summary",
            &format!("The old key {SECRET} leaked into a log."),
            "--atoms",
            &format!("KEY={SECRET}"),
            "--at",
            "2024-03-01T10:00:00Z",
            "--transcript-file",
            transcript.to_str().unwrap(),
        ])
        .ok();
    let id: i64 = out.stdout.trim().parse().expect("id");
    // The next note, five minutes on: the secret's title is in its context (the
    // neighbours' titles the index holds with it).
    lib.run(&[
        "add",
        "--source",
        "agent-a",
        "--project",
        "project-3",
        "--title",
        NEIGHBOUR,
        "--at",
        "2024-03-01T10:05:00Z",
    ])
    .ok();
    // Corrected later: the first version's row and index entries become free space and
    // stale segments, which only a rewrite of the file removes.
    let corrected = json!({
        "id": id, "source": "agent-a", "project": "project-3",
        "title": format!("Rotate the {SECRET} key"),
        "summary": format!("The old key {SECRET} leaked into the deploy log."),
        "atoms": format!("KEY={SECRET}"), "occurred_at": "2024-03-01T10:00:00Z",
        "transcript": format!("user: the key is {SECRET}\n"),
    });
    lib.run_stdin(&["add", "-"], &corrected.to_string()).ok();
    for _ in 0..3 {
        lib.import(&generated_items(100)).ok();
    }
    // Replacements rewrite rows and index entries around the secret.
    let replaced: String = (1..=40)
        .map(|i| {
            json!({"id": i * 7, "source": "agent-b", "title": format!("replaced item {i}"),
                   "occurred_at": "2024-02-02"})
            .to_string()
                + "\n"
        })
        .collect();
    lib.import(&replaced).ok();
    lib.run(&["optimize"]).ok();
    lib.checkpoint();
    (lib, id)
}

/// The context (the neighbours' titles) of the item titled `title`.
fn context_of(lib: &TempLib, title: &str) -> String {
    lib.conn()
        .query_row("select context from items where title = ?1", [title], |r| {
            r.get(0)
        })
        .expect("the item")
}

/// The index's terms that only `id` holds, in its own columns or in its neighbour's
/// context (for trigram, its three-character grams), read through fts5vocab.
fn terms_only_in(lib: &TempLib, id: i64) -> BTreeSet<String> {
    let neighbour: i64 = lib
        .conn()
        .query_row("select id from items where title = ?1", [NEIGHBOUR], |r| {
            r.get(0)
        })
        .expect("the neighbour");
    let conn = lib.conn();
    conn.execute_batch(
        "create virtual table temp.v using fts5vocab(main, items_fts, instance);
         create virtual table temp.r using fts5vocab(main, items_fts, row);",
    )
    .expect("fts5vocab");
    let mut stmt = conn
        .prepare(
            "select distinct term from temp.v where doc = ?1 or (doc = ?2 and col = 'context')
             except select term from temp.v
             where doc not in (?1, ?2) or (doc = ?2 and col <> 'context')",
        )
        .expect("prepare");
    let terms = stmt
        .query_map([id, neighbour], |r| r.get::<_, String>(0))
        .expect("query")
        .collect::<rusqlite::Result<BTreeSet<String>>>()
        .expect("terms");
    terms
}

/// Every term stored in the index's leaf pages, read from `items_fts_data` directly
/// (the page format documented in SQLite's fts5_index.c), so that entries FTS5 only
/// marks as deleted are seen too; fts5vocab hides those.
fn raw_index_terms(lib: &TempLib) -> BTreeSet<String> {
    raw_terms(lib, "items_fts_data")
}

/// The same of an FTS5 index's data table: the items' index, or the runs' index
/// (`items_runs_fts_data`, migration 0009).
fn raw_terms(lib: &TempLib, data: &str) -> BTreeSet<String> {
    fn varint(b: &[u8], at: &mut usize) -> u64 {
        let mut v = 0u64;
        for i in 0..9 {
            let byte = b[*at];
            *at += 1;
            if i == 8 {
                return (v << 8) | u64::from(byte);
            }
            v = (v << 7) | u64::from(byte & 0x7f);
            if byte < 0x80 {
                break;
            }
        }
        v
    }
    let conn = lib.conn();
    // Leaves: segment id above 0, doclist-index bit and height 0.
    let mut stmt = conn
        .prepare(&format!(
            "select block from {data}
             where id >= (1 << 37) and (id >> 31) & 63 = 0"
        ))
        .expect("prepare");
    let pages = stmt
        .query_map([], |r| r.get::<_, Vec<u8>>(0))
        .expect("leaves")
        .collect::<rusqlite::Result<Vec<_>>>()
        .expect("rows");
    let mut terms = BTreeSet::new();
    for page in pages {
        let footer = usize::from(u16::from_be_bytes([page[2], page[3]]));
        let mut at = footer;
        let mut offset = 0usize;
        let mut term: Vec<u8> = Vec::new();
        let mut first = true;
        while at < page.len() {
            offset += varint(&page, &mut at) as usize;
            let mut p = offset;
            if first {
                let n = varint(&page, &mut p) as usize;
                term = page[p..p + n].to_vec();
                first = false;
            } else {
                let keep = varint(&page, &mut p) as usize;
                let n = varint(&page, &mut p) as usize;
                term.truncate(keep);
                term.extend_from_slice(&page[p..p + n]);
            }
            // The first byte says which index the term belongs to ('0': the main one).
            if term.first() == Some(&b'0') {
                terms.insert(String::from_utf8_lossy(&term[1..]).into_owned());
            }
        }
    }
    terms
}

/// How many of `terms` the index still holds, and its entries for `id`.
fn index_traces(lib: &TempLib, terms: &BTreeSet<String>, id: i64) -> (usize, i64) {
    let conn = lib.conn();
    conn.execute_batch(
        "create virtual table temp.v using fts5vocab(main, items_fts, instance);
         create virtual table temp.r using fts5vocab(main, items_fts, row);",
    )
    .expect("fts5vocab");
    let held = terms
        .iter()
        .filter(|t| {
            conn.query_row("select count(*) from temp.r where term = ?1", [t], |r| {
                r.get::<_, i64>(0)
            })
            .expect("count")
                > 0
        })
        .count();
    let entries = conn
        .query_row("select count(*) from temp.v where doc = ?1", [id], |r| {
            r.get(0)
        })
        .expect("entries");
    (held, entries)
}

/// Every item but `gone` is found by its full title in the index.
fn assert_others_found(lib: &TempLib, gone: i64) {
    let conn = lib.conn();
    let mut stmt = conn
        .prepare("select id, title from items order by id")
        .expect("prepare");
    let items = stmt
        .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
        .expect("items")
        .collect::<rusqlite::Result<Vec<_>>>()
        .expect("rows");
    assert!(items.iter().all(|(id, _)| *id != gone));
    let mut find = conn
        .prepare("select rowid from items_fts where items_fts match ?1")
        .expect("prepare");
    for (id, title) in items {
        let phrase = format!("\"{}\"", title.replace('"', "\"\""));
        let found = find
            .query_map([&phrase], |r| r.get::<_, i64>(0))
            .expect("match")
            .collect::<rusqlite::Result<Vec<i64>>>()
            .expect("rows");
        assert!(found.contains(&id), "item {id} ({title}) not found");
    }
}

fn assert_check_clean(lib: &TempLib) {
    let failed = lib.run(&["--json", "check"]).failed_checks();
    assert!(failed.is_empty(), "check: {failed:?}");
}

/// `check` exits 1 with one problem, the wipe a forget left pending, naming the command
/// that finishes it.
fn assert_only_wipe_pending(lib: &TempLib) {
    let ran = lib.run(&["--json", "check"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert_eq!(ran.failed_checks(), ["wipe"], "{}", ran.stdout);
    let text = lib.run(&["check"]);
    let line = text
        .stdout
        .lines()
        .find(|l| l.starts_with("PROBLEM wipe: "))
        .unwrap_or_else(|| panic!("{}", text.stdout));
    assert!(
        line.contains("copies of their text may remain")
            && line.ends_with("run `recall forget --finish`"),
        "{line}"
    );
}

fn forgetting_leaves_no_trace(tokenizer: Option<&str>) {
    let (lib, id) = library_with_secret(tokenizer);
    let items_before = lib.count("select count(*) from items");
    assert!(secret_in_files(&lib), "the secret is in the file before");
    assert!(
        context_of(&lib, NEIGHBOUR).contains(SECRET),
        "the neighbour's context holds the secret before"
    );
    let terms = terms_only_in(&lib, id);
    assert!(
        terms.len() >= 5,
        "the secret has terms no other item has: {terms:?}"
    );
    assert!(
        terms.is_subset(&raw_index_terms(&lib)),
        "the leaf pages hold the secret's terms before"
    );
    // The runs' index holds those of its terms that lie inside a word (the runs of the
    // item's own text).
    let in_runs: BTreeSet<String> = terms
        .intersection(&raw_terms(&lib, "items_runs_fts_data"))
        .cloned()
        .collect();
    assert!(
        in_runs.len() >= 3,
        "the runs' index holds the secret's terms before: {in_runs:?}"
    );
    assert_eq!(lib.json(&["search", SECRET])["results"][0]["id"], id);

    let out = lib.run(&["--json", "forget", &id.to_string()]).ok();
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    let report = out.json();
    assert_eq!(report["ids"], json!([id]));
    assert_eq!(report["wiped"], true, "{report}");
    assert_eq!(
        report["items"][0]["title"],
        format!("Rotate the {SECRET} key")
    );

    assert!(
        !secret_in_files(&lib),
        "the secret's bytes are still in the files"
    );
    assert_eq!(index_traces(&lib, &terms, id), (0, 0), "left in the index");
    assert!(
        !context_of(&lib, NEIGHBOUR).contains(SECRET),
        "the secret's title left its neighbour's context"
    );
    let raw = raw_index_terms(&lib);
    let left: Vec<&String> = terms.iter().filter(|t| raw.contains(*t)).collect();
    assert!(left.is_empty(), "terms left in the index's pages: {left:?}");
    let runs = raw_terms(&lib, "items_runs_fts_data");
    let left: Vec<&String> = in_runs.iter().filter(|t| runs.contains(*t)).collect();
    assert!(
        left.is_empty(),
        "terms left in the runs' index's pages: {left:?}"
    );
    let found = lib.json(&["search", SECRET]);
    assert_eq!(found["results"], json!([]), "{found}");
    assert_eq!(lib.count("select count(*) from items"), items_before - 1);
    assert_check_clean(&lib);
    assert_others_found(&lib, id);
}

#[test]
fn forgetting_leaves_no_trace_under_trigram() {
    forgetting_leaves_no_trace(None);
}

#[test]
fn forgetting_leaves_no_trace_under_unicode61_and_the_old_shell_still_reads_it() {
    forgetting_leaves_no_trace(Some(UNICODE61));
    // The index stays in the format SQLite 3.40 reads.
    let (lib, id) = library_with_secret(Some(UNICODE61));
    lib.run(&["forget", &id.to_string()]).ok();
    let count = shell_ok(
        &[lib.db.as_os_str()],
        "select count(*) from items_fts where items_fts match '{title summary questions atoms project} : migrate';",
    );
    assert_eq!(
        count.trim().parse::<i64>().ok(),
        Some(lib.count("select count(*) from items where title like '%migrate%'"))
    );
}

/// With vectors, the neighbour's vector was made with the secret's title and the table
/// of the vectors' contexts holds it: forget removes both, the bytes are gone, and the
/// next `recall embed` makes the neighbour's vector again without it.
#[test]
fn forgetting_leaves_no_trace_in_the_neighbours_vectors() {
    let (lib, id) = library_with_secret(None);
    let embed = fake("");
    lib.run(&["embed", "--embed-cmd", &embed]).ok();
    let neighbour: i64 = lib
        .conn()
        .query_row("select id from items where title = ?1", [NEIGHBOUR], |r| {
            r.get(0)
        })
        .expect("the neighbour");
    let recorded = |lib: &TempLib| {
        lib.count(&format!(
            "select count(*) from item_vector_contexts where id = {neighbour}"
        ))
    };
    assert_eq!(recorded(&lib), 1);
    assert!(
        lib.count(&format!(
            "select count(*) from item_vector_contexts where instr(context, '{SECRET}') > 0"
        )) > 0,
        "the neighbour's vector was made with the secret's title"
    );
    lib.checkpoint();
    let report = lib.run(&["--json", "forget", &id.to_string()]).ok().json();
    assert_eq!(report["wiped"], true, "{report}");
    assert!(
        !secret_in_files(&lib),
        "the secret's bytes are still in the files"
    );
    assert!(
        !embedded_ids(&lib).contains(&neighbour),
        "its vector is gone"
    );
    assert_eq!(recorded(&lib), 0);
    assert_check_clean(&lib);
    let again = lib.json(&["embed", "--embed-cmd", &embed]);
    assert_eq!(again["embedded"], 1, "the neighbour alone: {again}");
    assert!(embedded_ids(&lib).contains(&neighbour));
    assert_eq!(
        lib.count(&format!(
            "select count(*) from item_vector_contexts where id = {neighbour} and context = (select context from items where id = {neighbour})"
        )),
        1
    );
}

/// Forgetting a whole project: its name is in no sample of the planner's statistics
/// either (`optimize` gathered them, and sqlite_stat4 keeps sample keys).
#[test]
fn forgetting_a_project_leaves_no_trace_of_its_name() {
    for tokenizer in [None, Some(UNICODE61)] {
        let lib = TempLib::init(tokenizer);
        lib.import(&generated_items(300)).ok();
        let secret_project: String = (0..200)
            .map(|i| {
                json!({"source": "agent-a", "project": SECRET,
                       "title": format!("note {i} on the vault"), "occurred_at": 1_700_000_000 + i})
                .to_string()
                    + "\n"
            })
            .collect();
        lib.import(&secret_project).ok();
        lib.import(&generated_items(100)).ok();
        lib.run(&["optimize"]).ok();
        lib.checkpoint();
        assert!(
            lib.count(&format!(
                "select count(*) from sqlite_stat4 where instr(sample, cast('{SECRET}' as blob)) > 0"
            )) > 0,
            "the statistics sample the project"
        );
        let out = lib
            .run(&["--json", "forget", "--project", SECRET])
            .ok()
            .json();
        assert_eq!(out["ids"].as_array().map(Vec::len), Some(200));
        assert_eq!(out["wiped"], true);
        assert!(
            !secret_in_files(&lib),
            "{tokenizer:?}: the project's name is still in the files"
        );
        assert_check_clean(&lib);
        assert_eq!(lib.count("select count(*) from items"), 400);
    }
}

/// The byte check can fail: a plain DELETE, the index told by its trigger, leaves the
/// secret in the file.
#[test]
fn a_plain_delete_leaves_the_secret_in_the_file() {
    for tokenizer in [None, Some(UNICODE61)] {
        let (lib, id) = library_with_secret(tokenizer);
        {
            let conn = lib.conn();
            conn.execute_batch("pragma secure_delete = off").unwrap();
            conn.execute("delete from items where id = ?1", [id])
                .unwrap();
        }
        lib.checkpoint();
        assert!(
            secret_in_files(&lib),
            "{tokenizer:?}: a plain delete left no trace?"
        );
        assert_eq!(lib.json(&["search", SECRET])["results"], json!([]));
    }
}

#[test]
fn a_dry_run_lists_and_changes_nothing() {
    let (lib, id) = library_with_secret(None);
    let before = lib.files();
    let out = lib.run(&["forget", &id.to_string(), "--dry-run"]).ok();
    assert_eq!(
        out.stdout,
        format!(
            "[{id}] 2024-03-01 Rotate the {SECRET} key (project-3, agent-a)\nwould forget 1 item (dry run: nothing changed)\n"
        )
    );
    let json = lib
        .run(&["--json", "forget", "--project", "project-3", "--dry-run"])
        .ok()
        .json();
    assert_eq!(json["dry_run"], true);
    assert_eq!(json["wiped"], false);
    let expected: Vec<i64> = ids_where(&lib, "project = 'project-3'");
    assert!(expected.contains(&id));
    assert_eq!(json["ids"], json!(expected));
    assert!(lib.files() == before, "a dry run changed the files");
}

fn ids_where(lib: &TempLib, condition: &str) -> Vec<i64> {
    let conn = lib.conn();
    let mut stmt = conn
        .prepare(&format!(
            "select id from items where {condition} order by id"
        ))
        .expect("prepare");
    let ids = stmt
        .query_map([], |r| r.get(0))
        .expect("query")
        .collect::<rusqlite::Result<Vec<i64>>>()
        .expect("ids");
    ids
}

#[test]
fn filters_and_ids_and_together() {
    let lib = TempLib::init(None);
    lib.import(&generated_items(300)).ok();
    let all = ids_where(&lib, "1");
    let expected = ids_where(
        &lib,
        "project = 'project-2' and source = 'agent-b' and occurred_at < '2024-06-01'",
    );
    assert!(expected.len() > 3, "{expected:?}");
    let out = lib
        .run(&[
            "--json",
            "forget",
            "--project",
            "project-2",
            "--source",
            "agent-b",
            "--before",
            "2024-06-01",
        ])
        .ok()
        .json();
    assert_eq!(out["ids"], json!(expected));
    let left = ids_where(&lib, "1");
    assert_eq!(left.len(), all.len() - expected.len());
    assert!(expected.iter().all(|id| !left.contains(id)));
    // Ids and a filter: only the ids the filter matches go; the others are named.
    let in_project_1 = ids_where(&lib, "project = 'project-1'");
    let outside = ids_where(&lib, "project = 'project-4'");
    let asked = [in_project_1[0], in_project_1[1], outside[0], 99_999];
    let args: Vec<String> = asked.iter().map(i64::to_string).collect();
    let mut full = vec!["--json", "forget", "--project", "project-1"];
    full.extend(args.iter().map(String::as_str));
    let out = lib.run(&full).ok();
    let report = out.json();
    assert_eq!(report["ids"], json!([in_project_1[0], in_project_1[1]]));
    let mut unmatched = vec![outside[0], 99_999];
    unmatched.sort_unstable();
    assert_eq!(report["unmatched"], json!(unmatched));
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("nothing to forget for ids"),
        "{}",
        out.stderr
    );
    assert_eq!(
        ids_where(&lib, &format!("id = {}", outside[0])),
        vec![outside[0]]
    );
    assert_check_clean(&lib);
}

#[test]
fn matching_nothing_or_asking_nothing_writes_nothing() {
    let lib = TempLib::init(None);
    lib.import(&generated_items(50)).ok();
    lib.checkpoint();
    let before = lib.files();
    let out = lib.run(&["forget", "--project", "no-such-project"]).ok();
    assert_eq!(out.stdout, "nothing to forget: no item matches\n");
    let out = lib
        .run(&[
            "--json",
            "forget",
            "--source",
            "agent-a",
            "--before",
            "1990-01-01",
        ])
        .ok()
        .json();
    assert_eq!(out["ids"], json!([]));
    assert!(
        lib.files() == before,
        "a forget of nothing changed the files"
    );
    lib.run(&["forget"])
        .fails_with("nothing to forget: give item ids");
    lib.run(&["--json", "forget", "--dry-run"])
        .fails_with("nothing to forget");
    lib.run(&["forget", "--before", "someday"])
        .fails_with("--before");
    lib.run(&["forget", "3", "--finish"]).fails_with("--finish");
    assert!(lib.files() == before, "a refused forget changed the files");
}

fn spawn(lib: &TempLib, args: &[&str], pause: Option<&str>) -> Child {
    let mut cmd = lib.command();
    cmd.args(args).stdout(Stdio::null()).stderr(Stdio::piped());
    if let Some(p) = pause {
        cmd.env("RECALL_TEST_PAUSE_AT", p);
    }
    cmd.spawn().expect("spawn recall")
}

/// A copy of the template's files, so that each kill starts from the same state.
fn copy_of(template: &TempLib) -> TempLib {
    template.checkpoint();
    let lib = TempLib::new();
    std::fs::copy(&template.db, &lib.db).expect("copy");
    lib
}

#[test]
fn killing_forget_leaves_the_before_or_the_after_state() {
    let _turn = crate::common::heavy();
    let (template, id) = library_with_secret(None);
    let args = ["forget", "--project", "project-3"];
    let gone = ids_where(&template, "project = 'project-3'");
    assert!(gone.contains(&id));
    let all = ids_where(&template, "1");
    let after: Vec<i64> = all.iter().copied().filter(|i| !gone.contains(i)).collect();

    // Killed inside the transaction: the before state.
    let lib = copy_of(&template);
    kill_at_pause(spawn(&lib, &args, Some(&format!("forget:{}", gone.len()))));
    assert_eq!(ids_where(&lib, "1"), all);
    assert_check_clean(&lib);
    // Killed after the commit, before the wipe: the after state, with the wipe still
    // owed and reported; `--finish` wipes.
    let lib = copy_of(&template);
    kill_at_pause(spawn(&lib, &args, Some("forget_wipe:1")));
    assert_eq!(ids_where(&lib, "1"), after);
    assert_only_wipe_pending(&lib);
    let out = lib.run(&["--json", "forget", "--finish"]).ok().json();
    assert_eq!(out["wiped"], true, "{out}");
    assert!(!secret_in_files(&lib));
    assert_check_clean(&lib);

    // Killed at random moments: one state or the other, and healthy.
    let started = std::time::Instant::now();
    copy_of(&template).run(&args).ok();
    let span = (started.elapsed().as_millis() as u64 * 2).max(20);
    let mut rng = StdRng::seed_from_u64(5);
    let mut outcomes = (0, 0);
    for _ in 0..8 {
        let lib = copy_of(&template);
        let mut child = spawn(&lib, &args, None);
        std::thread::sleep(Duration::from_millis(rng.random_range(1..span)));
        let _ = child.kill();
        child.wait().expect("reap");
        let ids = ids_where(&lib, "1");
        if ids == all {
            outcomes.0 += 1;
            assert_check_clean(&lib);
        } else {
            assert_eq!(ids, after, "neither the before nor the after state");
            outcomes.1 += 1;
            // Cut off in the wipe or not, the next write leaves nothing to find.
            let failed = lib.run(&["--json", "check"]).failed_checks();
            assert!(failed.is_empty() || failed == ["wipe"], "check: {failed:?}");
            lib.run(&["add", "--source", "s", "--title", "next write"])
                .ok();
            assert!(!secret_in_files(&lib));
            assert_check_clean(&lib);
        }
    }
    eprintln!(
        "forget: random kills left {} before and {} after states",
        outcomes.0, outcomes.1
    );
}

#[test]
fn a_reader_that_blocks_the_wipe_is_reported_and_finish_completes_it() {
    let (lib, id) = library_with_secret(None);
    let config = lib.path("config.toml");
    std::fs::write(&config, "[storage]\nbusy_timeout_ms = 300\n").unwrap();
    let reader = lib.conn();
    reader.execute_batch("begin").unwrap();
    let _: i64 = reader
        .query_row("select count(*) from items", [], |r| r.get(0))
        .unwrap();
    let config = config.to_str().unwrap();
    let out = lib.run(&["--json", "--config", config, "forget", &id.to_string()]);
    assert_eq!(out.code, 1, "{out:?}");
    let report = out.json();
    assert_eq!(report["ids"], json!([id]));
    assert_eq!(report["wiped"], false);
    let warning = report["warning"].as_str().expect("warning");
    assert!(
        warning.contains("another process is using the library"),
        "{warning}"
    );
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("recall: warning: the items are forgotten"),
        "{}",
        out.stderr
    );
    // The record stays, and a write meanwhile cannot finish the wipe either: it says
    // so and goes on.
    let out = lib.run(&[
        "--config",
        config,
        "add",
        "--source",
        "s",
        "--title",
        "written meanwhile",
    ]);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stderr.starts_with("recall: warning: a forget of ")
            && out.stderr.contains("another process is using the library")
            && out.stderr.contains("run `recall forget --finish`"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    reader.execute_batch("commit").unwrap();
    drop(reader);
    assert_only_wipe_pending(&lib);
    // Forgotten already: no query finds it.
    assert_eq!(lib.json(&["search", SECRET])["results"], json!([]));
    let out = lib.run(&["forget", "--finish"]).ok();
    assert!(out.stdout.starts_with("rewrote "), "{}", out.stdout);
    assert!(!secret_in_files(&lib));
    assert_check_clean(&lib);
}

#[test]
fn signals_say_what_was_forgotten() {
    let (template, id) = library_with_secret(None);
    let all = ids_where(&template, "1");
    // Before the commit: nothing was forgotten.
    let lib = copy_of(&template);
    let (code, stderr) = signal_at_pause(
        spawn(&lib, &["forget", &id.to_string()], Some("forget:1")),
        libc::SIGTERM,
    );
    assert_eq!(code, 143, "{stderr}");
    assert_eq!(
        stderr.trim(),
        "recall: interrupted: nothing was forgotten; the library is as it was"
    );
    assert_eq!(ids_where(&lib, "1"), all);
    // After it, during the wipe: forgotten, and `--finish` wipes.
    let lib = copy_of(&template);
    let (code, stderr) = signal_at_pause(
        spawn(&lib, &["forget", &id.to_string()], Some("forget_wipe:1")),
        libc::SIGINT,
    );
    assert_eq!(code, 130, "{stderr}");
    assert!(
        stderr.starts_with(
            "recall: interrupted: the items were forgotten, but the file was not wiped"
        ) && stderr.contains("recall forget --finish"),
        "{stderr}"
    );
    assert!(secret_in_files(&lib));
    assert!(!ids_where(&lib, "1").contains(&id));
    assert_only_wipe_pending(&lib);
    lib.run(&["forget", "--finish"]).ok();
    assert!(!secret_in_files(&lib));
    assert_check_clean(&lib);
    // SIGTERM, as a client stopping the MCP server sends, leaves the same record.
    let lib = copy_of(&template);
    let (code, stderr) = signal_at_pause(
        spawn(&lib, &["forget", &id.to_string()], Some("wipe_vacuumed:1")),
        libc::SIGTERM,
    );
    assert_eq!(code, 143, "{stderr}");
    assert!(stderr.contains("recall forget --finish"), "{stderr}");
    assert_only_wipe_pending(&lib);
    lib.run(&["optimize"]).ok();
    assert!(!secret_in_files(&lib));
    assert_check_clean(&lib);
}

/// Every command that opens the library for writing, each with what it needs.
const WRITES: &[&[&str]] = &[
    &["add", "--source", "s", "--title", "the next write"],
    &["import", "-"],
    &["forget", "--finish"],
    &["forget", "--source", "nobody"],
    &["forget", "1"],
    &["rebuild"],
    &["repair"],
    &["migrate"],
    &["optimize"],
    &["embed", "--model", "m", "--dimensions", "4"],
    &["sql", "--write", "select 1"],
];

#[test]
fn a_wipe_cut_off_is_reported_and_the_next_write_finishes_it() {
    let _turn = crate::common::heavy();
    let (template, id) = library_with_secret(None);
    let forget = ["forget", &id.to_string()];
    // SIGKILL between the commit and the rewrite, and once the rewrite is done but the
    // log not yet folded in and emptied.
    for point in ["forget_wipe:1", "wipe_vacuumed:1"] {
        let lib = copy_of(&template);
        kill_at_pause(spawn(&lib, &forget, Some(point)));
        if point == "forget_wipe:1" {
            assert!(secret_in_files(&lib), "{point}: nothing left to wipe?");
        }
        assert_eq!(lib.json(&["search", SECRET])["results"], json!([]));
        assert_only_wipe_pending(&lib);
    }
    // Each write finishes the wipe first.
    for args in WRITES {
        let lib = copy_of(&template);
        kill_at_pause(spawn(&lib, &forget, Some("forget_wipe:1")));
        assert!(secret_in_files(&lib), "{args:?}");
        let input = r#"{"source": "s", "title": "imported next", "occurred_at": "2025-01-01"}"#;
        let ran = lib.run_stdin(args, input);
        assert_eq!(ran.code, 0, "{args:?}: {ran:?}");
        assert!(
            !secret_in_files(&lib),
            "{args:?} left the secret in the files"
        );
        assert_check_clean(&lib);
    }
    // Killed while finishing it, the record stays for the next write.
    let lib = copy_of(&template);
    kill_at_pause(spawn(&lib, &forget, Some("forget_wipe:1")));
    kill_at_pause(spawn(
        &lib,
        &["add", "--source", "s", "--title", "cut off too"],
        Some("wipe_vacuumed:1"),
    ));
    assert_only_wipe_pending(&lib);
    lib.run(&["forget", "--finish"]).ok();
    assert!(!secret_in_files(&lib));
    assert_check_clean(&lib);
}
