//! Items that carry ready vectors (`embedding` in `import` and `add`), and what the
//! library does with vectors beside the items: `forget` removes them, `check` counts
//! them, a mismatched length or a library without vectors is refused with the library
//! untouched.
use serde_json::json;

use crate::common::cli::TempLib;
use crate::common::vectors::{
    batch_config, embedded_ids, fake, fake_logging, requests, spawn_embed, vectors_line,
    vectors_only,
};

fn item(title: &str, embedding: serde_json::Value) -> String {
    json!({"source": "s", "title": title, "occurred_at": "2025-01-01T00:00:00Z", "embedding": embedding})
        .to_string()
}

#[test]
fn embeddings_need_the_library_s_vectors_and_their_length() {
    let lib = TempLib::init(None);
    lib.import(&item("first", json!([1, 0, 0]))).fails_with(
        "stdin: line 1: the item has an embedding, but the library has no vectors: make their table with `recall embed --model NAME --dimensions N`",
    );
    assert_eq!(lib.count("select count(*) from items"), 0);
    lib.run(&["embed", "--model", "m3", "--dimensions", "3"])
        .ok();
    let before = lib.snapshot();
    let two = format!(
        "{}\n{}",
        item("good", json!([1, 0, 0])),
        item("short", json!([1, 0]))
    );
    lib.import(&two).fails_with(
        "stdin: line 2: embedding has 2 numbers, but the library's vectors (model \"m3\") have 3; nothing was imported",
    );
    assert_eq!(lib.snapshot(), before, "a refused import wrote");
    for (bad, why) in [
        (json!([]), "embedding must have 1 to 8192 numbers, got 0"),
        (json!([0, 0, 0]), "embedding is all zeros"),
        (
            json!([1, "x", 0]),
            "embedding[1] must be a finite number (float32)",
        ),
        (
            json!([1e39, 0, 0]),
            "embedding[0] must be a finite number (float32)",
        ),
        (
            json!("1,0,0"),
            "embedding must be an array of numbers, got a string",
        ),
    ] {
        lib.import(&item("bad", bad)).fails_with(why);
    }
    assert_eq!(lib.snapshot(), before);
    // Stored with the item, as float32.
    lib.import(&item("good", json!([0.5, -0.25, 3]))).ok();
    assert_eq!(vectors_only(&lib), [(1, vec![0.5, -0.25, 3.0])].into());
    // `add -` takes the same field; a replaced item's vector is the new one.
    let replaced = json!({"id": 1, "source": "s", "title": "good again",
                          "occurred_at": "2025-01-02T00:00:00Z", "embedding": [0, 1, 0]});
    lib.run_stdin(&["add", "-"], &replaced.to_string()).ok();
    assert_eq!(vectors_only(&lib), [(1, vec![0.0, 1.0, 0.0])].into());
    // --model and --dimensions again: the same is no change, another is refused.
    lib.run(&["embed", "--model", "m3", "--dimensions", "3"])
        .ok();
    lib.run(&["embed", "--model", "m4", "--dimensions", "3"])
        .fails_with("recall embed --drop");
    for dims in ["0", "8193"] {
        let fresh = TempLib::init(None);
        fresh
            .run(&["embed", "--model", "m", "--dimensions", dims])
            .fails_with(&format!(
                "--dimensions must be a whole number from 1 to 8192, got {dims}"
            ));
    }
}

#[test]
fn forget_removes_vectors_and_check_counts_them() {
    let lib = TempLib::init(None);
    lib.run(&["embed", "--model", "m2", "--dimensions", "2"])
        .ok();
    let items: Vec<String> = (0..4)
        .map(|i| item(&format!("item {i}"), json!([1, i])))
        .collect();
    lib.import(&items.join("\n")).ok();
    assert_eq!(embedded_ids(&lib).len(), 4);
    lib.run(&["forget", "2", "3"]).ok();
    assert_eq!(
        vectors_only(&lib),
        [(1, vec![1.0, 0.0]), (4, vec![1.0, 3.0])].into(),
        "forget left vectors of forgotten items"
    );
    // An item without a vector, and a vector whose item another program deleted.
    lib.import(&json!({"source": "s", "title": "plain", "occurred_at": 0}).to_string())
        .ok();
    lib.conn()
        .execute("delete from items where id = 4", [])
        .expect("delete");
    let detail = vectors_line(&lib);
    assert!(
        detail.starts_with("1 of 2 items have vectors of model \"m2\" (2 dimensions)")
            && detail.contains("1 vectors of deleted items"),
        "{detail}"
    );
    // A library without vectors has no such line.
    let plain = TempLib::init(None);
    let report = plain.run(&["--json", "check"]).json();
    assert!(
        report["checks"]
            .as_array()
            .expect("checks")
            .iter()
            .all(|c| c["name"] != "vectors"),
        "{report}"
    );
}

/// The item an embedder refuses costs only that item: the rest of its batch and the
/// later batches get their vectors, the command warns with its id and exits 1, and the
/// next run asks for that item alone.
#[test]
fn an_item_the_embedder_refuses_costs_only_that_item() {
    let lib = TempLib::init(None);
    let mut lines: Vec<String> = (0..20)
        .map(|i| {
            json!({"source": "s", "title": format!("note number {i}"), "occurred_at": i})
                .to_string()
        })
        .collect();
    // A day after the others: no neighbour of theirs, so that no other text holds its
    // title (a vector holds the neighbours' titles).
    lines[6] = json!({"source": "s", "title": "a poison pill", "occurred_at": 86_400}).to_string();
    lib.import(&lines.join("\n")).ok();
    let config = batch_config(&lib, 4);
    let log = lib.path("requests.log");
    let command = fake_logging(&log, "--refuse poison");
    let first = lib.run(&[
        "--config",
        &config,
        "--json",
        "embed",
        "--embed-cmd",
        &command,
    ]);
    assert_eq!(first.code, 1, "{}", first.stderr);
    let answer = first.json();
    assert_eq!(answer["embedded"], 19, "{answer}");
    assert_eq!(answer["refused"][0]["id"], 7, "{answer}");
    let warning: Vec<&str> = first.stderr.lines().collect();
    assert_eq!(warning.len(), 1, "{}", first.stderr);
    assert!(
        warning[0].starts_with("recall: warning: the embedder refused 1 items (ids 7)")
            && warning[0].contains("cannot embed poison"),
        "{}",
        warning[0]
    );
    let have = embedded_ids(&lib);
    assert_eq!(have, (1..=20).filter(|i| *i != 7).collect::<Vec<i64>>());
    // Five batches of four; the refused one again text by text.
    assert_eq!(requests(&log), vec![4, 4, 1, 1, 1, 1, 4, 4, 4]);
    let again = lib.run(&[
        "--config",
        &config,
        "--json",
        "embed",
        "--embed-cmd",
        &command,
    ]);
    assert_eq!(again.code, 1, "{}", again.stderr);
    assert_eq!(again.json()["embedded"], 0);
    // The refused item alone, then (nothing stored told no model) one text for the model.
    assert_eq!(
        requests(&log)[9..],
        [1, 1],
        "the second run asks for the refused item alone"
    );
    crate::common::damage::assert_clean(&lib);
}

fn sample_lib(n: usize) -> TempLib {
    let lib = TempLib::init(None);
    lib.import(&crate::common::cli::generated_items(n)).ok();
    lib
}

/// Ctrl-C between two batches ends the run at once: the batches stored stay, with the
/// one message of an interruption, and the library is sound.
#[test]
fn an_interrupted_embed_keeps_its_batches() {
    let lib = sample_lib(20);
    let config = batch_config(&lib, 4);
    let child = spawn_embed(&lib, &config, &fake(""), Some("embed:8"));
    let (code, stderr) = crate::common::cli::signal_at_pause(child, libc::SIGINT);
    assert_eq!(code, 130, "{stderr}");
    assert_eq!(
        stderr.trim(),
        "recall: interrupted: the batch in progress was not stored; the batches before it keep their vectors: run `recall embed` again to go on"
    );
    let have = embedded_ids(&lib);
    assert_eq!(have, (1..=8).collect::<Vec<i64>>());
    crate::common::damage::assert_clean(&lib);
}

/// A new item that takes the id of an item another program deleted does not inherit
/// its vector, and a vector whose item was replaced outside recall is never used.
#[test]
fn a_vector_is_only_its_own_item_s() {
    let lib = sample_lib(10);
    lib.run(&["embed", "--embed-cmd", &fake("")]).ok();
    // The highest id, deleted without recall and its use forgotten (the sequence
    // lowered by hand, as ids were kept before schema version 3): SQLite gives it to
    // the next item.
    lib.conn()
        .execute_batch(
            "delete from items where id = 10; update sqlite_sequence set seq = 9 where name = 'items'",
        )
        .expect("delete");
    lib.import(
        &json!({"source": "s", "title": "banana bread recipe", "occurred_at": 0}).to_string(),
    )
    .ok();
    assert_eq!(lib.count("select max(id) from items"), 10);
    assert!(
        !embedded_ids(&lib).contains(&10),
        "the new item 10 has the deleted item's vector"
    );
    // Item 3 replaced by another program: its vector is no longer its own.
    lib.conn()
        .execute(
            "update items set title = 'something else entirely', imported_at = '2000-01-01T00:00:00Z' where id = 3",
            [],
        )
        .expect("update");
    let answer = lib.json(&[
        "search",
        "zzzz",
        "--embed-cmd",
        &fake(""),
        "--limit",
        "50",
        "--explain",
    ]);
    let ids: Vec<i64> = answer["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter_map(|r| r["id"].as_i64())
        .collect();
    assert_eq!(answer["explain"]["vectors"]["nearest"], 8, "{answer}");
    assert!(!ids.contains(&3) && !ids.contains(&10), "{ids:?}");
    // `recall embed` mends both.
    let mended = lib.json(&["embed", "--embed-cmd", &fake("")]);
    assert_eq!(mended["embedded"], 2, "{mended}");
}

/// `recall embed` storing a batch after `recall forget` took one of its items gives that
/// item no vector: the forget's promise holds.
#[test]
fn an_item_forgotten_while_its_batch_is_embedded_gets_no_vector() {
    let lib = sample_lib(12);
    let config = batch_config(&lib, 4);
    let log = lib.path("requests.log");
    let mut child = spawn_embed(&lib, &config, &fake_logging(&log, "--sleep 1.5"), None);
    // The second request (items 5 to 8) is logged before the embedder's pause.
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .count()
        < 2
    {
        assert!(started.elapsed().as_secs() < 30, "no second request");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    lib.run(&["forget", "6"]).ok();
    assert!(child.wait().expect("wait").success());
    let have = embedded_ids(&lib);
    assert_eq!(have, (1..=12).filter(|i| *i != 6).collect::<Vec<i64>>());
    crate::common::damage::assert_clean(&lib);
}

/// A damaged vector record stops nothing that does not need it: `--no-vectors`, the
/// literal search without an embedder, `forget` and `--drop`, which mends it.
#[test]
fn a_damaged_vector_record_is_mended_by_drop() {
    let lib = sample_lib(6);
    lib.run(&["embed", "--embed-cmd", &fake("")]).ok();
    lib.conn()
        .execute(
            "update recall_meta set value = 'x' where key = 'vector_dimensions'",
            [],
        )
        .expect("damage");
    lib.run(&["search", "item", "--embed-cmd", &fake("")])
        .fails_with(
            "records \"x\" as vector_dimensions, which is not a number: `recall embed --drop`",
        );
    let config = lib.path("vectors.toml");
    std::fs::write(
        &config,
        format!(
            "[vectors]\ncommand = {}\n",
            serde_json::to_string(&fake("")).unwrap()
        ),
    )
    .expect("config");
    let config = config.to_string_lossy().to_string();
    lib.run(&["--config", &config, "search", "item", "--no-vectors"])
        .ok();
    lib.run(&["search", "item"]).ok();
    lib.run(&["forget", "2"]).ok();
    lib.run(&["embed", "--drop"]).ok();
    lib.run(&["embed", "--embed-cmd", &fake("")]).ok();
    assert_eq!(embedded_ids(&lib).len(), 5);
}

/// Asked for by name, the vector channel needs vectors; an embedder beyond sqlite-vec's
/// dimensions is named with the limit.
#[test]
fn vectors_asked_for_and_vectors_too_long() {
    let lib = sample_lib(3);
    // A case on the generated items (the bundled cases name the sample's).
    let cases = lib.path("cases.jsonl");
    std::fs::write(&cases, "{\"query\": \"widget\", \"expect\": [1]}\n").unwrap();
    lib.run(&[
        "eval",
        &cases.to_string_lossy(),
        "--set",
        "vectors=off,on",
        "--embed-cmd",
        &fake(""),
    ])
    .fails_with("--set vectors=on: ");
    lib.run(&["embed", "--embed-cmd", &fake("--dimensions 9000")])
        .fails_with("the embedder gives vectors of 9000 numbers, more than the 8192 sqlite-vec stores: use a model of fewer dimensions");
    assert_eq!(
        lib.count("select count(*) from sqlite_master where name = 'item_vectors'"),
        0
    );
}
