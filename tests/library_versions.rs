//! A library of every released schema version (`tests/libraries/version-1.sql` and on, each
//! made once by `tests/libraries/make.sh` and kept as made) migrates to the latest with
//! its items whole: found by search as that version indexed them, every field read back,
//! `check` clean, and written to afterwards. A change to a released migration, or a new
//! one that does not carry an old library along, shows here.

use serde_json::Value;

use crate::common::cli::TempLib;
use crate::common::root;

/// The schema version this build migrates to: one migration file each.
fn latest() -> u32 {
    std::fs::read_dir(root().join("sql/migrations"))
        .expect("sql/migrations")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "sql"))
        .count() as u32
}

/// The versions with a library in tests/libraries, in order.
fn kept() -> Vec<u32> {
    let mut versions: Vec<u32> = std::fs::read_dir(root().join("tests/libraries"))
        .expect("tests/libraries")
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_prefix("version-")?
                .strip_suffix(".sql")?
                .parse()
                .ok()
        })
        .collect();
    versions.sort();
    versions
}

fn ids(answer: &Value) -> Vec<i64> {
    answer["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["id"].as_i64().expect("id"))
        .collect()
}

#[test]
fn every_released_schema_version_has_its_library() {
    assert_eq!(
        kept(),
        (1..=latest()).collect::<Vec<_>>(),
        "one library a version: tests/libraries/make.sh N makes the one of a new version N"
    );
}

#[test]
fn every_schema_version_s_library_migrates_with_its_items() {
    let latest = latest();
    for version in kept() {
        let lib = TempLib::new();
        let dump =
            std::fs::read_to_string(root().join(format!("tests/libraries/version-{version}.sql")))
                .expect("the kept library");
        rusqlite::Connection::open(&lib.db)
            .and_then(|c| c.execute_batch(&dump))
            .expect("load the kept library");
        assert_eq!(
            lib.count("pragma user_version"),
            version as i64,
            "version-{version}.sql holds a library of version {version}"
        );
        if version < latest {
            let refused = lib.run(&["search", "zanzibar"]);
            assert_ne!(refused.code, 0, "version {version}");
            assert!(
                refused.stderr.contains("run `recall migrate` first"),
                "{refused:?}"
            );
        }
        lib.run(&["migrate"]).ok();
        assert_eq!(lib.count("pragma user_version"), latest as i64);
        lib.run(&["check"]).ok();
        let at = format!("version {version}");
        // The atom lines of items 1 and 3 are keyed (migration 0008), none left to do.
        assert_eq!(
            lib.count("select count(*) from items_atom_keys_pending"),
            0,
            "{at}"
        );
        assert_eq!(
            lib.count(
                "select count(distinct item_id) from items_atom_keys where item_id in (1, 3)"
            ),
            2,
            "{at}"
        );
        assert_eq!(
            lib.count("select count(*) from items_atom_keys where item_id not in (1, 3)"),
            0,
            "{at}"
        );
        // The text of every item is split into runs (migration 0009), none left to do:
        // item 1's own words, its project's, not its transcript's.
        assert_eq!(
            lib.count("select count(*) from items_runs_pending"),
            0,
            "{at}"
        );
        for (run, holders) in [
            ("Zanzibar", 1),
            ("zanzibar", 1),
            ("shop", 2),
            ("rs", 1),
            ("user", 0),
        ] {
            assert_eq!(
                lib.count(&format!(
                    "select count(*) from items_run_items as x join items_runs as r on r.id = x.run
                     where r.run = '{run}'"
                )),
                holders,
                "{at}: {run}"
            );
        }
        assert_eq!(ids(&lib.json(&["search", "zanzibar coupons"])), [1], "{at}");
        // Diacritics folded as the library's tokenizer folds them.
        assert_eq!(ids(&lib.json(&["search", "creme brulee"])), [2], "{at}");
        assert_eq!(
            ids(&lib.json(&["search", "ECONNREFUSED", "--project", "api"])),
            [3],
            "{at}"
        );
        assert_eq!(ids(&lib.json(&["search", "quokka_id"])), [4], "{at}");
        let item = &lib.json(&["get", "1", "--transcript"])["item"];
        assert_eq!(
            item["title"], "Zanzibar coupons rejected at checkout",
            "{at}"
        );
        assert_eq!(item["project"], "shop", "{at}");
        assert_eq!(item["source"], "agent-claude", "{at}");
        assert_eq!(item["occurred_at"], "2024-03-04T05:06:07Z", "{at}");
        assert_eq!(item["atoms"], "src/pricing.rs", "{at}");
        assert_eq!(
            item["transcript"], "user: why are coupons rejected?",
            "{at}"
        );
        assert_eq!(lib.count("select count(*) from items"), 4, "{at}");
        // Written to as a library of this build.
        lib.run(&[
            "add",
            "--title",
            "Okapi build red: a stale lock file",
            "--source",
            "human-notes",
        ])
        .ok();
        assert_eq!(ids(&lib.json(&["search", "okapi"])), [5], "{at}");
        lib.run(&["check"]).ok();
    }
}
