//! `recall mcp` whose library is deleted or replaced while it runs: it never reads from
//! or writes into the old, unlinked file; it opens the new library, or refuses.
use serde_json::json;

use crate::common::cli::{titled, TempLib};
use crate::common::mcp::Server;

fn remove_library(lib: &TempLib) {
    for suffix in ["", "-wal", "-shm"] {
        let path = format!("{}{suffix}", lib.db.display());
        let _ = std::fs::remove_file(path);
    }
}

/// A new library at the same path, holding one item of this title.
fn new_library(lib: &TempLib, title: &str) {
    lib.run(&["init"]).ok();
    lib.import(&titled(title).line()).ok();
}

#[test]
fn a_replaced_library_is_opened_anew_for_reads_and_writes() {
    for writes in [true, false] {
        let lib = TempLib::init(None);
        lib.import(&titled("Old pelican notes").line()).ok();
        let args: &[&str] = if writes { &["--allow-writes"] } else { &[] };
        let mut server = Server::start(&lib, args);
        server.call(1, "search", json!({"query": "pelican"}));
        assert_eq!(
            server.result(1)["results"].as_array().map(Vec::len),
            Some(1)
        );

        remove_library(&lib);
        new_library(&lib, "New walrus notes");
        server.call(2, "search", json!({"query": "pelican"}));
        assert_eq!(
            server.result(2)["results"],
            json!([]),
            "read from the old file"
        );
        server.call(3, "search", json!({"query": "walrus"}));
        let found = server.result(3);
        assert_eq!(found["results"][0]["title"], json!("New walrus notes"));
        if writes {
            server.call(
                4,
                "add",
                json!({"source": "agent-test", "title": "Added otter",
                "occurred_at": "2025-01-01"}),
            );
            let added = server.result(4);
            assert_eq!(added["id"], json!(2), "{added}");
            assert_eq!(
                lib.count("select count(*) from items where title = 'Added otter'"),
                1
            );
        }
        let (code, stderr) = server.finish();
        assert_eq!(code, 0, "{stderr}");
    }
}

#[test]
fn a_deleted_library_or_one_replaced_by_another_file_is_refused() {
    let lib = TempLib::init(None);
    lib.import(&titled("Old pelican notes").line()).ok();
    let mut server = Server::start(&lib, &["--allow-writes"]);
    server.call(1, "get", json!({"id": 1}));
    server.result(1);
    remove_library(&lib);
    let add = json!({"source": "agent-test", "title": "Lost otter", "occurred_at": "2025-01-01"});
    let mut id = 2;
    for (tool, arguments) in [("get", json!({"id": 1})), ("add", add.clone())] {
        server.call(id, tool, arguments);
        let message = server.tool_error(id);
        assert!(message.contains("no longer the library"), "{message}");
        assert!(message.contains("recall init"), "{message}");
        assert!(!message.contains('\n'), "{message}");
        id += 1;
    }
    assert!(!lib.db.exists(), "a refused call created the library");
    std::fs::write(
        &lib.db,
        "not a database at all, but long enough to be read as a file",
    )
    .expect("write");
    let before = std::fs::read(&lib.db).expect("read");
    for (tool, arguments) in [
        ("search", json!({"query": "pelican"})),
        ("add", add.clone()),
    ] {
        server.call(id, tool, arguments);
        let message = server.tool_error(id);
        assert!(
            message.contains("no longer the library") && message.contains("not a SQLite database"),
            "{message}"
        );
        id += 1;
    }
    assert_eq!(
        std::fs::read(&lib.db).expect("read"),
        before,
        "the file was changed"
    );
    // A library put back at the path is used again.
    std::fs::remove_file(&lib.db).expect("remove");
    new_library(&lib, "New walrus notes");
    server.call(id, "add", add);
    assert_eq!(server.result(id)["id"], json!(2));
    assert_eq!(lib.count("select count(*) from items"), 2);
}
