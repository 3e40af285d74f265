//! The checks of what the tables hold: rows left pending by the triggers, the items'
//! contexts, values the queries cannot read, the vectors, and a wipe left unfinished.
use rusqlite::Connection;

use super::{one, read, Report};
use crate::error::Result;
use crate::library::index_check::{first_ids, plural};
use crate::library::schema::Survey;
use crate::library::{self, columns, unreadable};

/// Old values kept aside by the before-insert trigger are normally removed by the next
/// trigger; an ignored `INSERT OR IGNORE` leaves them, harmlessly, since they are the
/// item's current values. A row that differs from its item, or has none, would be
/// "deleted" from the index the next time that id is written, damaging it.
pub(super) fn pending(
    r: &mut Report,
    path: &std::path::Path,
    conn: &Connection,
    s: &Survey,
) -> Result<()> {
    // Without the table, or the items to compare with, the tables line says it all.
    if s.damages
        .iter()
        .any(|d| d.name() == "items_fts_pending" || d.name() == "items")
    {
        return Ok(());
    }
    let kept = match read(
        path,
        columns::present(conn, "items_fts_pending", &columns::indexed()),
    )? {
        Ok(kept) => kept,
        Err(e) => {
            r.add(
                "pending",
                false,
                format!("cannot read items_fts_pending ({e}): run `recall repair`"),
            );
            return Ok(());
        }
    };
    let differs: Vec<String> = kept.iter().map(|c| format!("i.{c} is not p.{c}")).collect();
    let stale = format!(
        "select p.id from items_fts_pending as p left join items as i on i.id = p.id
         where i.id is null or {}",
        differs.join(" or ")
    );
    let found: rusqlite::Result<Vec<i64>> = conn
        .prepare(&stale)
        .and_then(|mut st| st.query_map([], |row| row.get(0))?.collect());
    match read(path, found)? {
        Ok(ids) if ids.is_empty() => r.add(
            "pending",
            true,
            "items_fts_pending holds nothing that differs from the items",
        ),
        Ok(ids) => r.add(
            "pending",
            false,
            format!(
                "items_fts_pending holds {} that {} from the items (ids {}), left by a write that ran without its triggers; the next write of those ids would corrupt the index: run `recall repair`",
                plural(ids.len(), "row", "rows"),
                if ids.len() == 1 { "differs" } else { "differ" },
                first_ids(&ids)
            ),
        ),
        Err(e) => r.add(
            "pending",
            false,
            format!("cannot read items_fts_pending ({e}): run `recall repair`"),
        ),
    }
    Ok(())
}

/// The keys of the items' atom lines (migration 0008) are those of their lines: a write
/// that ran without the triggers, or keys removed by hand, would hide earlier sessions
/// from the session hook. Items waiting for their keys are no damage: any write of
/// recall makes them.
pub(super) fn atom_keys(
    r: &mut Report,
    path: &std::path::Path,
    conn: &Connection,
    s: &Survey,
    mend: &str,
) -> Result<()> {
    let names = ["items", "items_atom_keys", "items_atom_keys_pending"];
    if s.damages.iter().any(|d| names.contains(&d.name())) {
        return Ok(());
    }
    match read(path, library::atom_keys::stale(conn))? {
        Ok(ids) if ids.is_empty() => {
            let detail = waiting(
                path,
                conn,
                "items_atom_keys_pending",
                "every item's atom lines are keyed for the session hook",
                |items| format!("the atom lines of {items} wait for their keys (written by another program): the next write of recall, or `recall optimize`, makes them"),
            )?;
            r.add("atom keys", true, detail);
        }
        Ok(ids) => r.add(
            "atom keys",
            false,
            format!(
                "the keys of {} are not those of their atom lines (ids {}), so the session hook misses them: {mend}",
                plural(ids.len(), "item", "items"),
                first_ids(&ids)
            ),
        ),
        Err(e) => r.add(
            "atom keys",
            false,
            format!("cannot read the atom lines' keys ({e}): {mend}"),
        ),
    }
    Ok(())
}

/// The runs of the items' text (migration 0009) are those of their text, each held by
/// an item, and each in the runs' index: a write that ran without the triggers would
/// make the first prompt miss items, or keep a forgotten item's words. Items waiting for
/// their runs are no damage: the first prompt asks the items' index until any write of
/// recall makes them.
pub(super) fn runs(
    r: &mut Report,
    path: &std::path::Path,
    conn: &Connection,
    s: &Survey,
    mend: &str,
) -> Result<()> {
    if s.version < library::migrations::RUNS
        || s.damages
            .iter()
            .any(|d| d.name() == "items" || library::runs::is_part(d.name()))
    {
        return Ok(());
    }
    let stale = read(path, library::runs::stale(conn))?;
    let loose = read(path, library::runs::loose(conn))?;
    let indexed = read(path, library::runs::indexed_as_stored(conn))?;
    let (stale, loose, indexed) = match (stale, loose, indexed) {
        (Ok(a), Ok(b), Ok(c)) => (a, b, c),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
            r.add(
                "runs",
                false,
                format!("cannot read the runs of the items' text ({e}): {mend}"),
            );
            return Ok(());
        }
    };
    let mut wrong = Vec::new();
    if !stale.is_empty() {
        wrong.push(format!(
            "the runs of {} are not those of their text (ids {}), so the first prompt may miss them",
            plural(stale.len(), "item", "items"),
            first_ids(&stale)
        ));
    }
    if loose > 0 {
        wrong.push(format!(
            "{} no item holds keep words of items no longer there",
            plural(loose as usize, "run", "runs")
        ));
    }
    if !indexed {
        wrong.push("the runs' index does not hold one row for each run".to_string());
    }
    if !wrong.is_empty() {
        r.add("runs", false, format!("{}: {mend}", wrong.join("; ")));
        return Ok(());
    }
    let detail = waiting(
        path,
        conn,
        "items_runs_pending",
        "every item's text is split into runs for the first prompt",
        |items| {
            format!("the text of {items} waits to be split into runs (written by another program): the first prompt reads the index until the next write of recall, or `recall optimize`, splits it")
        },
    )?;
    r.add("runs", true, detail);
    Ok(())
}

/// What a check of data recall derives at each commit says when it holds: `none` where
/// no item waits in the table `pending`, else `some` of the items waiting ("3 items").
fn waiting(
    path: &std::path::Path,
    conn: &Connection,
    pending: &str,
    none: &str,
    some: impl Fn(&str) -> String,
) -> Result<String> {
    let n = read(
        path,
        one::<i64>(conn, &format!("select count(*) from {pending}")),
    )?
    .unwrap_or(0);
    Ok(match usize::try_from(n).unwrap_or(0) {
        0 => none.to_string(),
        n => some(&plural(n, "item", "items")),
    })
}

/// Each item's context (its neighbours' titles, which the index holds) is kept by the
/// triggers; a write that ran without them leaves one out of step, and search then
/// finds the item by words its neighbours no longer have.
pub(super) fn neighbour_context(
    r: &mut Report,
    path: &std::path::Path,
    conn: &Connection,
    s: &Survey,
    mend: &str,
) -> Result<()> {
    // Without the items or the views, the tables line says it all; a library a migration
    // behind has no contexts yet.
    let parts = ["items", "items_neighbours", "items_context_wanted"];
    if s.reference.object("items_context_wanted").is_none()
        || s.damages.iter().any(|d| parts.contains(&d.name()))
    {
        return Ok(());
    }
    match read(path, crate::library::context::stale(conn))? {
        Ok(0) => r.add(
            "context",
            true,
            "every item's context holds its neighbours' titles",
        ),
        Ok(n) => r.add(
            "context",
            false,
            format!(
                "{} out of step with {} neighbours, left by a write that ran without its triggers: run `recall repair`",
                plural(n as usize, "item's context is", "items' contexts are"),
                if n == 1 { "its" } else { "their" }
            ),
        ),
        Err(e) => r.add(
            "context",
            false,
            format!("cannot compare the items' contexts ({e}): {mend}"),
        ),
    }
    Ok(())
}

pub(super) fn rows(
    r: &mut Report,
    path: &std::path::Path,
    conn: &Connection,
    mend: &str,
) -> Result<()> {
    const LISTED: usize = 5;
    match read(path, unreadable::scan(conn, LISTED))? {
        Ok(scan) if scan.bad == 0 => r.add(
            "rows",
            true,
            format!("every value of the {} items is readable", scan.items),
        ),
        Ok(scan) => {
            let listed: Vec<String> = scan.first.iter().map(|b| b.to_string()).collect();
            let more = if scan.bad > scan.first.len() as u64 {
                format!("; and {} more", scan.bad - scan.first.len() as u64)
            } else {
                String::new()
            };
            r.add(
                "rows",
                false,
                format!(
                    "{} that the queries cannot read: {}{more}: {}",
                    plural(scan.bad as usize, "item holds a value", "items hold values"),
                    listed.join("; "),
                    unreadable::ROW_FIX
                ),
            );
        }
        Err(e) => r.add(
            "rows",
            false,
            format!("cannot read the items ({e}): {mend}"),
        ),
    }
    Ok(())
}

/// The vector channel's table, when the library has one: how many items have vectors,
/// and that other hosts need sqlite-vec to use them (docs/vectors.md).
pub(super) fn vectors(r: &mut Report, conn: &Connection) {
    let store = match crate::vectors::store::read(conn) {
        Ok(None) => return,
        Ok(Some(s)) => s,
        Err(e) => return r.add("vectors", false, e.message),
    };
    let table = crate::vectors::store::TABLE;
    let counts = one::<i64>(conn, "select count(*) from items").and_then(|items| {
        let with: i64 = one(
            conn,
            &format!("select count(*) from {table} where rowid in (select id from items)"),
        )?;
        let orphans: i64 = one(
            conn,
            &format!("select count(*) from {table} where rowid not in (select id from items)"),
        )?;
        // Vectors made before their item's neighbours changed (an item arriving next to
        // it, a neighbour retitled or deleted outside `forget`).
        let behind: i64 = if crate::vectors::store::contexts_exist(conn)? {
            one(
                conn,
                &format!(
                    "select count(*) from {} as c join items as i on i.id = c.id
                     where c.context <> i.context and c.id in (select rowid from {table})",
                    crate::vectors::store::CONTEXTS
                ),
            )?
        } else {
            0
        };
        Ok((items, with, orphans, behind))
    });
    match counts {
        Ok((items, with, orphans, behind)) => {
            let mut detail = format!(
                "{with} of {items} items have vectors of model {:?} ({} dimensions)",
                store.model, store.dimensions
            );
            if with < items {
                detail.push_str("; `recall embed` gives the others theirs");
            }
            if orphans > 0 {
                detail.push_str(&format!(
                    "; {orphans} vectors of deleted items, which `recall embed` removes"
                ));
            }
            if behind > 0 {
                detail.push_str(&format!(
                    "; {behind} vectors made before their items' neighbours changed, which `recall embed` makes again"
                ));
            }
            detail.push_str("; other hosts need sqlite-vec loaded to search with them");
            r.add("vectors", true, detail);
        }
        Err(e) => r.add(
            "vectors",
            false,
            format!("cannot read the vector table {table} ({e}): `recall embed --drop` removes it, then `recall embed` makes it again"),
        ),
    }
}

/// A forget records, in its own transaction, that the file is still to be wiped, and
/// clears the record once the file is rewritten and its log emptied: a record left means
/// that copies of forgotten text may still be in the file, whatever the rows say.
pub(super) fn wipe(r: &mut Report, path: &std::path::Path, conn: &Connection) {
    match crate::library::wipe::pending(conn) {
        None => r.add("wipe", true, "no forget is waiting for the file to be wiped"),
        // The record came from the primary, whose file is the one left to wipe.
        Some(since) if library::replica::of(path).is_some() => r.add(
            "wipe",
            false,
            format!(
                "a forget of {} on the primary removed items but has not wiped its file yet: copies of their text may remain in the primary's file and log; run `recall forget --finish` on the primary (with Litestream stopped for the moment it takes: docs/team.md), and this replica follows",
                crate::text::field(&since)
            ),
        ),
        Some(since) if crate::library::wipe::why_unfinished(conn).is_some() => {
            let record = crate::library::wipe::why_unfinished(conn).unwrap_or_default();
            let (at, why) = record.split_once(' ').unwrap_or(("an unknown time", &record));
            r.add(
                "wipe",
                false,
                format!(
                    "a forget of {} removed items, and the wipe of the file is still pending: its last try, at {}, did not finish: {}; copies of their text may remain in {} and its log; the next write to the library finishes the wipe, or {}",
                    crate::text::field(&since),
                    crate::text::field(at),
                    crate::text::field(why),
                    path.display(),
                    crate::library::wipe::FINISH
                ),
            )
        }
        Some(since) => r.add(
            "wipe",
            false,
            format!(
                "a forget of {} removed items but was cut off before it wiped the file: copies of their text may remain in {} and its log; the next write to the library finishes the wipe, or {}",
                crate::text::field(&since),
                path.display(),
                crate::library::wipe::FINISH
            ),
        ),
    }
}
