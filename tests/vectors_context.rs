//! An item's vector holds its neighbours' titles (its context, `sql/item_texts.sql`):
//! `recall embed` makes it again when they change, `forget` removes every vector and
//! record made with a forgotten item's title (also of items deleted outside recall, and
//! with the vector table dropped by hand), a vector given with its item stays when its
//! neighbours change, and vectors made before they held the context are made again by
//! `--all`.
use std::collections::BTreeMap;

use serde_json::json;

use crate::common::cli::pairs;
use crate::common::cli::TempLib;
use crate::common::vectors::{fake_logging, fake_vectors, requests, vectors_line, vectors_only};

const A: &str = "Deploy window agreed with the operations team";
const B: &str = "Canary hosts picked for the first wave";
const C: &str = "Rollback plan written down";
const D: &str = "Unrelated note about the office plants";
const E: &str = "Quarterly review of the alerting rules";

fn item(title: &str, project: &str, at: &str) -> String {
    json!({"source": "s", "project": project, "title": title, "occurred_at": at}).to_string()
}

/// The fake's vector for these words (it counts words: order and separators do not
/// matter).
fn vector_of(words: &[&str]) -> Vec<f32> {
    fake_vectors(&[words.join(" ")], &[]).remove(0)
}

/// Each item's id by its title.
fn ids(lib: &TempLib) -> BTreeMap<String, i64> {
    pairs(lib, "select title, id from items")
}

/// The contexts recorded for the vectors, by item id.
fn recorded(lib: &TempLib) -> BTreeMap<i64, String> {
    pairs(lib, "select id, context from item_vector_contexts")
}

#[test]
fn a_vector_holds_the_neighbours_titles_and_follows_them() {
    // A and C are ten minutes apart in one project; D is between them in another
    // project, E months later: neither is a neighbour of anything.
    let lib = TempLib::with_items(
        None,
        &[
            item(A, "web", "2025-03-01T10:00:00Z"),
            item(C, "web", "2025-03-01T10:20:00Z"),
            item(D, "home", "2025-03-01T10:10:00Z"),
            item(E, "web", "2025-06-01T10:00:00Z"),
        ],
    );
    let log = lib.path("requests.log");
    let cmd = fake_logging(&log, "");
    let first = lib.json(&["embed", "--embed-cmd", &cmd]);
    assert_eq!(first["embedded"], 4, "{first}");
    let id = ids(&lib);
    let v = vectors_only(&lib);
    assert_eq!(v[&id[A]], vector_of(&[A, C]), "A holds C's title");
    assert_eq!(v[&id[C]], vector_of(&[C, A]), "C holds A's title");
    assert_eq!(v[&id[D]], vector_of(&[D]), "D has no neighbour");
    assert_eq!(v[&id[E]], vector_of(&[E]), "E has no neighbour");
    assert_eq!(
        recorded(&lib),
        [
            (id[A], C.to_string()),
            (id[C], A.to_string()),
            (id[D], String::new()),
            (id[E], String::new()),
        ]
        .into()
    );

    // B arrives between A and C: their contexts change, so the next run makes B, A and
    // C, in one request, and no other.
    lib.import(&item(B, "web", "2025-03-01T10:10:00Z")).ok();
    let check = vectors_line(&lib);
    assert!(
        check.contains("4 of 5 items have vectors")
            && check.contains("2 vectors made before their items' neighbours changed"),
        "{check}"
    );
    let second = lib.json(&["embed", "--embed-cmd", &cmd]);
    assert_eq!(second["embedded"], 3, "{second}");
    assert_eq!(requests(&log)[1..], [3]);
    let id = ids(&lib);
    let after = vectors_only(&lib);
    assert_eq!(after[&id[A]], vector_of(&[A, B]));
    assert_eq!(after[&id[B]], vector_of(&[B, A, C]));
    assert_eq!(after[&id[C]], vector_of(&[C, B]));
    assert_eq!((&after[&id[D]], &after[&id[E]]), (&v[&id[D]], &v[&id[E]]));

    // Nothing changed: a run sends no item (only the probe of the model).
    let third = lib.json(&["embed", "--embed-cmd", &cmd]);
    assert_eq!(third["embedded"], 0, "{third}");
    assert!(!vectors_line(&lib).contains("neighbours changed"));

    // Forgetting B removes at once the vectors made with its title (A's and C's), and
    // their records; the next run makes them again without it.
    lib.run(&["forget", &id[B].to_string()]).ok();
    let left = vectors_only(&lib);
    assert_eq!(
        left.keys().copied().collect::<Vec<_>>(),
        vec![id[D], id[E]],
        "the neighbours' vectors held B's title"
    );
    assert_eq!(
        recorded(&lib).keys().copied().collect::<Vec<_>>(),
        vec![id[D], id[E]]
    );
    let fourth = lib.json(&["embed", "--embed-cmd", &cmd]);
    assert_eq!(fourth["embedded"], 2, "{fourth}");
    let again = vectors_only(&lib);
    assert_eq!(again[&id[A]], v[&id[A]]);
    assert_eq!(again[&id[C]], v[&id[C]]);
}

#[test]
fn a_vector_given_with_its_item_stays_when_its_neighbours_change() {
    let lib = TempLib::with_items(None, &[item(A, "web", "2025-03-01T10:00:00Z")]);
    let cmd = fake_logging(&lib.path("requests.log"), "");
    lib.json(&["embed", "--embed-cmd", &cmd]);
    // C comes with its own vector (the fake's dimensions), ten minutes after A: A's
    // context changes, C's vector is the one given.
    let given: Vec<f32> = (0..64).map(|i| if i == 5 { 1.0 } else { 0.0 }).collect();
    let mut c: serde_json::Value =
        serde_json::from_str(&item(C, "web", "2025-03-01T10:10:00Z")).expect("json");
    c["embedding"] = json!(given);
    lib.import(&c.to_string()).ok();
    let run = lib.json(&["embed", "--embed-cmd", &cmd]);
    assert_eq!(run["embedded"], 1, "A alone: {run}");
    let id = ids(&lib);
    let v = vectors_only(&lib);
    assert_eq!(v[&id[A]], vector_of(&[A, C]));
    assert_eq!(v[&id[C]], given, "the given vector stays");
    // Its neighbours change again: still the given one.
    lib.import(&item(B, "web", "2025-03-01T10:05:00Z")).ok();
    lib.json(&["embed", "--embed-cmd", &cmd]);
    assert_eq!(vectors_only(&lib)[&id[C]], given);
    assert!(!recorded(&lib).contains_key(&id[C]), "no context recorded");
}

#[test]
fn vectors_made_before_they_held_the_context_are_made_again_by_all() {
    let lib = TempLib::with_items(
        None,
        &[
            item(A, "web", "2025-03-01T10:00:00Z"),
            item(C, "web", "2025-03-01T10:20:00Z"),
        ],
    );
    let cmd = fake_logging(&lib.path("requests.log"), "");
    lib.json(&["embed", "--embed-cmd", &cmd]);
    // A library embedded before vectors held the context has no record of it.
    lib.conn()
        .execute_batch("drop table item_vector_contexts")
        .expect("drop");
    lib.import(&item(B, "web", "2025-03-01T10:10:00Z")).ok();
    let run = lib.json(&["embed", "--embed-cmd", &cmd]);
    assert_eq!(run["embedded"], 1, "B alone: {run}");
    let id = ids(&lib);
    assert_eq!(vectors_only(&lib)[&id[A]], vector_of(&[A, C]), "as made");
    assert_eq!(recorded(&lib).keys().copied().collect::<Vec<_>>(), [id[B]]);
    let all = lib.json(&["embed", "--all", "--embed-cmd", &cmd]);
    assert_eq!(all["embedded"], 3, "{all}");
    let v = vectors_only(&lib);
    assert_eq!(v[&id[A]], vector_of(&[A, B]));
    assert_eq!(v[&id[C]], vector_of(&[C, B]));
    assert_eq!(recorded(&lib).len(), 3);
}

/// The record of an item another program deleted may hold a neighbour's title: forget
/// removes it with the vector. So it does when the vector table was dropped by hand and
/// only the records remain; a new vector table starts with none.
#[test]
fn forget_removes_records_the_vectors_left_behind() {
    let lib = TempLib::with_items(
        None,
        &[
            item(A, "web", "2025-03-01T10:00:00Z"),
            item(B, "web", "2025-03-01T10:10:00Z"),
            item(C, "web", "2025-03-01T10:20:00Z"),
            item(E, "web", "2025-06-01T10:00:00Z"),
        ],
    );
    let cmd = fake_logging(&lib.path("requests.log"), "");
    lib.json(&["embed", "--embed-cmd", &cmd]);
    let id = ids(&lib);
    // C deleted outside recall: its vector and record (holding B's title) stay.
    lib.conn()
        .execute("delete from items where id = ?1", [id[C]])
        .expect("delete");
    assert!(recorded(&lib)[&id[C]].contains(B));
    lib.run(&["forget", &id[B].to_string()]).ok();
    assert!(
        recorded(&lib).values().all(|c| !c.contains(B)),
        "{:?}",
        recorded(&lib)
    );
    assert_eq!(
        vectors_only(&lib).keys().copied().collect::<Vec<_>>(),
        vec![id[E]],
        "A's and C's vectors held B's title"
    );

    // The vector table dropped by hand: the records stay until forget or the next table.
    lib.import(&item(D, "web", "2025-06-01T10:05:00Z")).ok();
    lib.json(&["embed", "--embed-cmd", &cmd]);
    let id = ids(&lib);
    assert_eq!(recorded(&lib)[&id[E]], D, "E's vector holds D's title");
    lib.run(&["sql", "--write", "drop table item_vectors"]).ok();
    lib.run(&["forget", &id[D].to_string()]).ok();
    assert!(
        recorded(&lib).values().all(|c| !c.contains(D)),
        "{:?}",
        recorded(&lib)
    );
    lib.json(&["embed", "--embed-cmd", &cmd]);
    assert_eq!(
        recorded(&lib),
        [(id[A], String::new()), (id[E], String::new())].into(),
        "the new table's records are its vectors'"
    );
}
