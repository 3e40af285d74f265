//! The one record of an item's shape. An item is declared where each route needs it:
//! `item::Item` with its `Marks` (what a write stores), `item::JsonItem` and
//! `item::FIELDS` (a line of `import`, the MCP tool `add`), the parameters of
//! `sql/import_item.sql`, the columns of `items` (`library::columns::ITEM_COLUMNS`),
//! those of `sql/get.sql` and `rows::ItemRow` (what `get` shows) and those of
//! `sql/export.sql` (what `export` writes for `import` to read back). `SHAPE` says which
//! field each holds and why one lacks a field; the test reads each declaration's fields
//! from the declaration itself, so that a field added to one and not to the others (nor
//! here) fails it. A struct's fields are listed by a pattern without `..`: a field added
//! to the struct and not listed does not compile.
use rusqlite::Connection;

use crate::item::{Item, JsonItem, Marks, FIELDS};
use crate::library::columns::ITEM_COLUMNS;
use crate::library::migrations::{migration_sql, MIGRATIONS};
use crate::library::sql_file::{queries, Query};
use crate::query::rows::ItemRow;

/// The declarations, by the names `SHAPE` uses.
const DECLARATIONS: [&str; 8] = [
    "Item",
    "JsonItem",
    "FIELDS",
    "import_item.sql",
    "ITEM_COLUMNS",
    "get.sql",
    "ItemRow",
    "export.sql",
];

/// Every field of an item, with the declarations that lack it and why.
const SHAPE: &[(&str, &[(&str, &str)])] = &[
    (
        "id",
        &[("ITEM_COLUMNS", "the table's key, which it lists apart")],
    ),
    ("source", &[]),
    ("project", &[]),
    ("title", &[]),
    ("summary", &[]),
    ("questions", &[]),
    ("atoms", &[]),
    ("occurred_at", &[]),
    ("transcript", &[]),
    ("kind", &[]),
    ("global", &[]),
    (
        "embedding",
        &[
            (
                "import_item.sql",
                "stored in the vector table, not in items",
            ),
            ("ITEM_COLUMNS", "stored in the vector table, not in items"),
            ("get.sql", "stored in the vector table, not in items"),
            ("ItemRow", "stored in the vector table, not in items"),
            (
                "export.sql",
                "an export carries no vector: a vector is the library's embedder's",
            ),
        ],
    ),
    (
        "imported_at",
        &[
            ("Item", "the library's time of the write, not the writer's"),
            (
                "JsonItem",
                "the library's time of the write, not the writer's",
            ),
            (
                "FIELDS",
                "the library's time of the write, not the writer's",
            ),
            (
                "import_item.sql",
                "the library's time of the write, not the writer's",
            ),
            ("export.sql", "an import makes its own"),
        ],
    ),
    (
        "context",
        &[
            (
                "Item",
                "made of the neighbours' titles, for the index alone",
            ),
            (
                "JsonItem",
                "made of the neighbours' titles, for the index alone",
            ),
            (
                "FIELDS",
                "made of the neighbours' titles, for the index alone",
            ),
            (
                "import_item.sql",
                "made of the neighbours' titles, for the index alone",
            ),
            (
                "get.sql",
                "made of the neighbours' titles, for the index alone",
            ),
            (
                "ItemRow",
                "made of the neighbours' titles, for the index alone",
            ),
            (
                "export.sql",
                "made of the neighbours' titles, for the index alone",
            ),
        ],
    ),
    (
        "changed_since",
        &[
            (
                "Item",
                "the read path's comparison with the caller's time, not stored",
            ),
            (
                "JsonItem",
                "the read path's comparison with the caller's time, not stored",
            ),
            (
                "FIELDS",
                "the read path's comparison with the caller's time, not stored",
            ),
            (
                "import_item.sql",
                "the read path's comparison with the caller's time, not stored",
            ),
            (
                "ITEM_COLUMNS",
                "the read path's comparison with the caller's time, not stored",
            ),
            (
                "get.sql",
                "the read path's comparison with the caller's time, not stored",
            ),
            (
                "export.sql",
                "the read path's comparison with the caller's time, not stored",
            ),
        ],
    ),
];

/// The parameters of `sql/import_item.sql` that are not an item's fields: the caller's
/// access, the ids used before the write, whether marks were given.
const WRITE_PARAMETERS: [&str; 3] = ["sources", "ids_used", "marks"];

/// The names of a struct's fields; the pattern has no `..`, so a field added to the
/// struct and not named here does not compile.
macro_rules! fields {
    ($ty:ident { $($field:ident),* $(,)? }) => {{
        #[allow(dead_code)]
        fn whole(v: &$ty) {
            let $ty { $($field: _),* } = v;
        }
        vec![$(stringify!($field)),*]
    }};
}

/// A library's schema in memory, for the query files to prepare on.
fn library() -> Connection {
    let conn = Connection::open_in_memory().unwrap();
    sqlite_recall_rusqlite::register(&conn).unwrap();
    for (_, _, sql) in MIGRATIONS {
        conn.execute_batch(&migration_sql(sql, crate::tokenizer::DEFAULT))
            .unwrap();
    }
    conn
}

fn columns(conn: &Connection, query: Query) -> Vec<String> {
    let stmt = conn.prepare(query.sql).unwrap();
    stmt.column_names().map(str::to_string).collect()
}

fn parameters(conn: &Connection, query: Query) -> Vec<String> {
    let stmt = conn.prepare(query.sql).unwrap();
    (1..=stmt.parameter_count())
        .filter_map(|i| stmt.parameter_name(i))
        .map(|p| p.trim_start_matches(':').to_string())
        .filter(|p| !WRITE_PARAMETERS.contains(&p.as_str()))
        .collect()
}

/// Each declaration's fields, read from it.
fn declared() -> Vec<(&'static str, Vec<String>)> {
    let owned = |names: Vec<&str>| names.into_iter().map(str::to_string).collect::<Vec<_>>();
    let mut item = fields!(Item {
        id,
        source,
        project,
        title,
        summary,
        questions,
        atoms,
        occurred_at,
        transcript,
        embedding,
    });
    item.extend(fields!(Marks { kind, global }));
    let json = fields!(JsonItem {
        id,
        source,
        project,
        title,
        summary,
        questions,
        atoms,
        occurred_at,
        transcript,
        kind,
        global,
        embedding,
    });
    let row = fields!(ItemRow {
        id,
        source,
        project,
        title,
        summary,
        questions,
        atoms,
        occurred_at,
        imported_at,
        kind,
        global,
        transcript,
        changed_since,
    });
    let table = ITEM_COLUMNS.iter().map(|c| c.name).collect();
    let conn = library();
    let found = vec![
        ("Item", owned(item)),
        ("JsonItem", owned(json)),
        ("FIELDS", owned(FIELDS.to_vec())),
        ("import_item.sql", parameters(&conn, queries::IMPORT_ITEM)),
        ("ITEM_COLUMNS", owned(table)),
        ("get.sql", columns(&conn, queries::GET)),
        ("ItemRow", owned(row)),
        ("export.sql", columns(&conn, queries::EXPORT)),
    ];
    let names: Vec<&str> = found.iter().map(|(d, _)| *d).collect();
    assert_eq!(names, DECLARATIONS);
    found
}

#[test]
fn every_declaration_of_an_item_holds_the_fields_of_the_record() {
    for (field, lacking) in SHAPE {
        for (declaration, why) in *lacking {
            assert!(
                DECLARATIONS.contains(declaration) && !why.is_empty(),
                "{field}: {declaration:?} is not a declaration, or says no why"
            );
        }
    }
    let mut failures = Vec::new();
    for (declaration, mut has) in declared() {
        let mut expected: Vec<String> = SHAPE
            .iter()
            .filter(|(_, lacking)| !lacking.iter().any(|(d, _)| *d == declaration))
            .map(|(field, _)| field.to_string())
            .collect();
        has.sort();
        expected.sort();
        if has != expected {
            let extra: Vec<&String> = has.iter().filter(|f| !expected.contains(f)).collect();
            let missing: Vec<&String> = expected.iter().filter(|f| !has.contains(f)).collect();
            failures.push(format!(
                "{declaration}: holds {extra:?} that the record does not give it, lacks {missing:?}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "an item's declarations differ from SHAPE (add the field to each, or say in SHAPE \
         why one lacks it):\n  {}",
        failures.join("\n  ")
    );
}
