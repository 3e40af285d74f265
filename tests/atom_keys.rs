//! The keys of the items' atom lines (migration 0008), by which the session hook finds
//! the earlier runs of a command and the earlier meetings of an error line: the answers
//! are those the data says, the same through the keys and through the full-text index
//! that stands in while an item written by another program has no keys yet, and the keys
//! follow every route by which an item is written, replaced or removed.
use std::path::Path;

use serde_json::{json, Value};

use crate::common::cli::TempLib;

/// The commands of the library: five families, each run with values that change from
/// one run to the next (paths, numbers, quoted values, an option's value), which the
/// rule masks; and lookalikes that share the family's words but are other commands.
fn family_command(family: usize, i: usize) -> String {
    match family {
        0 => format!("cargo test -p shop src/pay_{i}.rs -j {}", 2 + i % 7),
        1 => format!("npm run build -- --out-dir=dist/{i}"),
        2 => format!("pytest tests/test_{i}.py -k 'case {i}'"),
        3 => format!("FOO={i} terraform apply -target=module.db_{i}"),
        _ => format!("docker compose -f deploy/{i}/compose.yml up --build"),
    }
}

/// Commands with a family's words that the rule keeps apart from it.
fn lookalike(family: usize, i: usize) -> String {
    match family {
        0 => format!("cargo test -p shop --release src/pay_{i}.rs"),
        1 => "npm run build --watch".to_string(),
        2 => format!("pytest tests/test_{i}.py -x"),
        3 => "terraform apply -auto-approve".to_string(),
        _ => "docker compose up".to_string(),
    }
}

/// The error lines: three families, digits and paths changing.
fn family_error(family: usize, i: usize) -> String {
    match family {
        0 => format!("error[E0502]: cannot borrow `cache_{i}` as mutable because it is also borrowed as immutable"),
        1 => format!("ModuleNotFoundError: No module named 'pkg{i}'"),
        _ => format!("ls: cannot access 'data/run_{i}/out.csv': No such file or directory"),
    }
}

/// An item of the library as the test made it, with what the hook's answers follow from.
struct Made {
    id: i64,
    project: &'static str,
    date: String,
    /// The command family it ran (None: a lookalike), the command, whether it worked.
    ran: Option<usize>,
    command: String,
    worked: bool,
    /// The error family it met.
    met: Option<usize>,
}

/// A library of 90 items in two projects, written in an order unlike their dates, each
/// with atoms and a transcript in capture's shape (`agent ran Bash: …`, then `output:`
/// or `error:`).
fn library() -> (TempLib, Vec<Made>) {
    let mut lines = Vec::new();
    let mut made = Vec::new();
    let mut seed: u64 = 7;
    let mut next = move |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    for i in 0..90usize {
        let project = if next(3) == 0 { "api" } else { "shop" };
        // Dates not in the order of ids: the newest first is by time.
        let day = 1 + next(28);
        let hour = next(24);
        let date = format!("2026-0{}-{day:02}T{hour:02}:{:02}:00Z", 1 + next(9), i % 60);
        let family = (next(5)) as usize;
        let (command, ran) = match next(6) {
            0 => (lookalike(family, i), None),
            _ => (family_command(family, i), Some(family)),
        };
        let met = (next(2) == 0).then(|| next(3) as usize);
        let worked = met.is_none() && next(3) > 0;
        let mut atoms = Vec::new();
        let mut transcript = format!("person: run it\nagent ran Bash: {command}\n");
        match met {
            Some(e) => {
                let line = family_error(e, i);
                atoms.push(line.clone());
                transcript.push_str(&format!("error: Exit code 1\n{line}\n"));
            }
            None if worked => transcript.push_str("output: ok\n"),
            None => transcript.push_str("error: Exit code 2\nsomething went wrong\n"),
        }
        atoms.push(command.clone());
        atoms.push(format!("src/pay_{i}.rs"));
        // A command of no plain word, which is never matched.
        atoms.push("mv a b".to_string());
        lines.push(
            json!({"source": "agent-claude", "project": project,
                   "title": format!("session {i}"), "summary": "", "atoms": atoms.join("\n"),
                   "occurred_at": date, "transcript": transcript})
            .to_string(),
        );
        made.push(Made {
            id: i as i64 + 1,
            project,
            date,
            ran,
            command,
            worked,
            met,
        });
    }
    let lib = TempLib::with_items(None, &lines);
    assert_eq!(lib.count("select count(*) from items"), 90);
    (lib, made)
}

/// The hook's `--json` answer to a Claude Code `Bash` event in project `project`'s
/// folder: (item id, how it went) of each result.
fn hook(lib: &TempLib, top: &Path, event: &str, command: &str, error: &str) -> Vec<(i64, String)> {
    let session = format!("s-{}", lib.count("select abs(random())"));
    let error = format!("Exit code 1\n{error}");
    let p = crate::hook_actions::claude_bash(event, &session, top, command, &error);
    let out = lib.run_stdin(&["--json", "hook"], &p.to_string());
    assert_eq!(out.code, 0, "{out:?}");
    // Nothing at all where the event is not told (a command that only looks).
    if out.stdout.trim().is_empty() {
        return Vec::new();
    }
    let doc: Value =
        serde_json::from_str(out.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {out:?}"));
    doc["results"]
        .as_array()
        .map(|r| {
            r.iter()
                .map(|r| {
                    let id = r["item"]["id"].as_i64().expect("id");
                    (id, r["went"].as_str().expect("went").to_string())
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The items of `project`, newest first (by time, then id), that `keep` holds for.
fn newest<'m>(made: &'m [Made], project: &str, keep: impl Fn(&Made) -> bool) -> Vec<&'m Made> {
    let mut of: Vec<&Made> = made
        .iter()
        .filter(|m| m.project == project && keep(m))
        .collect();
    of.sort_by(|a, b| (b.date.as_str(), b.id).cmp(&(a.date.as_str(), a.id)));
    of
}

/// The failures sent: each error family's, of the commands of families 0, 1 and 2.
fn failures() -> Vec<(usize, usize)> {
    (0..3).flat_map(|e| (0..3).map(move |c| (e, c))).collect()
}

/// What the hook should answer, from the data alone: before each family's command, and
/// after each failure of `failures`, in each project.
fn expected(made: &[Made]) -> Vec<Vec<(i64, String)>> {
    let mut out = Vec::new();
    for project in ["shop", "api"] {
        for family in 0..5 {
            let ran = newest(made, project, |m| m.ran == Some(family));
            out.push(
                ran.iter()
                    .take(3)
                    .enumerate()
                    .map(|(i, m)| {
                        // The first later session it worked in (`ran` is newest first).
                        let fixed = ran[..i]
                            .iter()
                            .rev()
                            .find(|l| l.worked)
                            .map(|l| format!("; it worked in [{}]", l.id))
                            .unwrap_or_default();
                        let how = match (m.met, m.worked) {
                            (_, true) => "ran without an error".to_string(),
                            (Some(e), false) => {
                                let line = family_error(e, m.id as usize - 1);
                                format!("failed: {line}{fixed}")
                            }
                            // No line reads as an error: capture's line for it.
                            (None, false) => format!("failed: `{}` exited 2{fixed}", m.command),
                        };
                        (m.id, how)
                    })
                    .collect(),
            );
        }
        for (error, command) in failures() {
            let met = newest(made, project, |m| m.met == Some(error));
            let ran = newest(made, project, |m| m.ran == Some(command));
            out.push(
                met.iter()
                    .take(3)
                    .map(|m| {
                        // The first of the ten sessions after it that ran the command
                        // where it worked.
                        let mut after: Vec<&&Made> = ran
                            .iter()
                            .filter(|l| (l.date.as_str(), l.id) > (m.date.as_str(), m.id))
                            .collect();
                        after.reverse();
                        let fixed = after.iter().take(10).find(|l| l.worked);
                        let how = match (fixed, m.ran == Some(command)) {
                            (Some(l), _) => format!("seen before; fixed in [{}], where the command ran without an error", l.id),
                            (None, true) => "seen before, running this command; no later session is known to have got it working".to_string(),
                            (None, false) => "seen before, from another command".to_string(),
                        };
                        (m.id, how)
                    })
                    .collect(),
            );
        }
    }
    out
}

/// The hook's answers to the same events as `expected`, each in a new session.
fn answers(lib: &TempLib, base: &Path) -> Vec<Vec<(i64, String)>> {
    let mut out = Vec::new();
    for project in ["shop", "api"] {
        let top = base.join(project);
        for family in 0..5 {
            out.push(hook(
                lib,
                &top,
                "PreToolUse",
                &family_command(family, 1000),
                "",
            ));
        }
        for (error, command) in failures() {
            let command = family_command(command, 2000);
            out.push(hook(
                lib,
                &top,
                "PostToolUseFailure",
                &command,
                &family_error(error, 3000),
            ));
        }
    }
    out
}

fn projects_folder(lib: &TempLib) -> tempfile::TempDir {
    let base = tempfile::tempdir().expect("tempdir");
    for project in ["shop", "api"] {
        std::fs::create_dir_all(base.path().join(project)).expect("project folder");
    }
    // A folder of no repository is the project of its name.
    let _ = lib;
    base
}

#[test]
fn the_keys_and_the_full_text_index_give_the_answers_the_data_says() {
    let (lib, made) = library();
    let base = projects_folder(&lib);
    // recall's import made every key.
    assert_eq!(lib.count("select count(*) from items_atom_keys_pending"), 0);
    assert!(lib.count("select count(*) from items_atom_keys") > 90 * 3);
    let want = expected(&made);
    // Each case of the data is met: answers of several items, a fix found and not.
    let flat: Vec<&(i64, String)> = want.iter().flatten().collect();
    assert!(
        want.iter().filter(|w| w.len() == 3).count() >= 10,
        "{want:?}"
    );
    assert!(
        flat.iter().any(|(_, h)| h.contains("; it worked in [")),
        "{want:?}"
    );
    assert!(
        flat.iter()
            .any(|(_, h)| h.starts_with("seen before; fixed in")),
        "{want:?}"
    );
    assert!(
        flat.iter()
            .any(|(_, h)| h.starts_with("seen before, running")),
        "{want:?}"
    );
    assert!(
        flat.iter()
            .any(|(_, h)| h.starts_with("seen before, from another")),
        "{want:?}"
    );
    assert_eq!(answers(&lib, base.path()), want, "through the keys");
    // An item written by another program (here: its atoms rewritten as they were) has no
    // keys until recall writes: the hook finds the sessions by the full-text index.
    lib.conn()
        .execute_batch("update items set atoms = atoms where id = 1")
        .expect("a write of another program");
    assert_eq!(lib.count("select count(*) from items_atom_keys_pending"), 1);
    assert_eq!(
        lib.count("select count(*) from items_atom_keys where item_id = 1"),
        0
    );
    assert_eq!(
        answers(&lib, base.path()),
        want,
        "through the full-text index"
    );
    // Any write of recall makes the keys.
    lib.run(&["optimize"]).ok();
    assert_eq!(lib.count("select count(*) from items_atom_keys_pending"), 0);
    assert!(lib.count("select count(*) from items_atom_keys where item_id = 1") > 0);
    assert_eq!(answers(&lib, base.path()), want, "through the keys again");
    // A command of no plain word is never matched, whichever way.
    let top = base.path().join("shop");
    assert_eq!(hook(&lib, &top, "PreToolUse", "mv a b", ""), vec![]);
}

#[test]
fn the_keys_follow_every_route_of_a_write() {
    let lib = TempLib::with_items(
        None,
        &[
            json!({"source": "s", "project": "p", "title": "one", "summary": "",
                   "atoms": "zq-frob --level 3\nfrobnication failed at stage 4",
                   "occurred_at": "2026-01-01T00:00:00Z"})
            .to_string(),
            json!({"source": "s", "project": "p", "title": "two", "summary": "",
                   "atoms": "zq-frob --level 9", "occurred_at": "2026-01-02T00:00:00Z"})
            .to_string(),
        ],
    );
    let keys_of = |id: i64| {
        lib.count(&format!(
            "select count(*) from items_atom_keys where item_id = {id}"
        ))
    };
    let pending = || lib.count("select count(*) from items_atom_keys_pending");
    // Each line keyed twice: as a command and as an error line.
    assert_eq!((keys_of(1), keys_of(2), pending()), (4, 2, 0));
    let base = tempfile::tempdir().expect("tempdir");
    let top = base.path().join("p");
    std::fs::create_dir_all(&top).expect("folder");
    let ids = |command: &str| -> Vec<i64> {
        hook(&lib, &top, "PreToolUse", command, "")
            .iter()
            .map(|(id, _)| *id)
            .collect()
    };
    assert_eq!(ids("zq-frob --level 5"), [2, 1]);
    // UPDATE of the atoms: the old keys go at once, the item waits for its new ones.
    let conn = lib.conn();
    conn.execute_batch("update items set atoms = 'zq-frob --verbose' where id = 1")
        .expect("update");
    assert_eq!((keys_of(1), pending()), (0, 1));
    assert_eq!(
        ids("zq-frob --level 5"),
        [2],
        "the full-text index, no stale key"
    );
    assert_eq!(ids("zq-frob --verbose"), [1]);
    lib.run(&["optimize"]).ok();
    assert_eq!((keys_of(1), pending()), (2, 0));
    assert_eq!(ids("zq-frob --level 5"), [2], "the keys, no stale key");
    assert_eq!(ids("zq-frob --verbose"), [1]);
    // UPDATE of the time: the item is keyed again, in its new place.
    conn.execute_batch("update items set occurred_at = '2026-01-03T00:00:00Z' where id = 2")
        .expect("update");
    assert_eq!((keys_of(2), pending()), (0, 1));
    lib.run(&["optimize"]).ok();
    assert_eq!(
        lib.count("select count(*) from items_atom_keys where item_id = 2 and occurred_at = '2026-01-03T00:00:00Z'"),
        2
    );
    // INSERT OR REPLACE (no delete trigger): the replaced row's keys go.
    conn.execute_batch(
        "insert or replace into items (id, source, project, title, summary, atoms, occurred_at)
         values (2, 's', 'p', 'two again', '', '', '2026-01-04T00:00:00Z')",
    )
    .expect("replace");
    assert_eq!((keys_of(2), pending()), (0, 0), "no atoms: nothing to key");
    assert_eq!(ids("zq-frob --level 5"), Vec::<i64>::new());
    // DELETE by another program, and `recall forget`: no key of the item is left.
    conn.execute_batch("update items set atoms = 'zq-frob --level 1' where id = 2")
        .expect("update");
    conn.execute_batch("delete from items where id = 2")
        .expect("delete");
    assert_eq!((keys_of(2), pending()), (0, 0));
    lib.run(&["forget", "1"]).ok();
    assert_eq!(lib.count("select count(*) from items_atom_keys"), 0);
    assert_eq!(pending(), 0);
}

#[test]
fn check_names_keys_unlike_their_lines_and_repair_makes_them_again() {
    let (lib, made) = library();
    let base = projects_folder(&lib);
    let want = expected(&made);
    let healthy = lib.run(&["check"]);
    assert_eq!(healthy.code, 0, "{healthy:?}");
    assert!(
        healthy
            .stdout
            .contains("every item's atom lines are keyed for the session hook"),
        "{healthy:?}"
    );
    // Items waiting for their keys are no damage.
    lib.conn()
        .execute_batch("update items set atoms = atoms where id in (1, 2)")
        .expect("a write of another program");
    let waiting = lib.run(&["check"]);
    assert_eq!(waiting.code, 0, "{waiting:?}");
    assert!(
        waiting
            .stdout
            .contains("the atom lines of 2 items wait for their keys"),
        "{waiting:?}"
    );
    lib.run(&["optimize"]).ok();
    // Keys removed by hand, and a key of no item.
    lib.conn()
        .execute_batch(
            "delete from items_atom_keys where item_id = 5;
             insert into items_atom_keys values (1, '2026-01-01T00:00:00Z', 999);",
        )
        .expect("damage");
    let damaged = lib.run(&["check"]);
    assert_eq!(damaged.code, 1, "{damaged:?}");
    let line = damaged
        .stdout
        .lines()
        .find(|l| l.contains("atom keys"))
        .unwrap_or_else(|| panic!("{damaged:?}"));
    assert!(
        line.contains("the keys of 2 items are not those of their atom lines (ids 5, 999)")
            && line.ends_with("run `recall repair`"),
        "{line}"
    );
    let repaired = lib.run(&["repair"]).ok();
    assert!(
        repaired
            .stdout
            .contains("made the atom lines' keys of 2 items again"),
        "{repaired:?}"
    );
    assert_eq!(lib.run(&["check"]).code, 0);
    assert_eq!(
        lib.count("select count(*) from items_atom_keys where item_id = 999"),
        0
    );
    assert_eq!(answers(&lib, base.path()), want);
}

#[test]
fn damaged_pages_of_the_keys_are_mended_by_repair() {
    use crate::common::damage::{problems, smash, Smash};
    // Each table's pages, and those of the keys' own index (named under its table).
    for (damaged, table) in [
        ("items_atom_keys", "items_atom_keys"),
        ("items_atom_keys_pending", "items_atom_keys_pending"),
        ("items_atom_keys_by_item", "items_atom_keys"),
    ] {
        let (lib, made) = library();
        let base = projects_folder(&lib);
        let want = expected(&made);
        if table == "items_atom_keys_pending" {
            // A table with pages to damage: items waiting for their keys.
            lib.conn()
                .execute_batch("update items set atoms = atoms where id <= 40")
                .expect("a write of another program");
        }
        smash(&lib, damaged, Smash::RootGarbage);
        // The keys are derived from the items: the one fix named is repair.
        let found = problems(&lib);
        assert!(!found.is_empty(), "{table}: nothing found");
        for (name, fix) in &found {
            assert!(
                fix.ends_with("run `recall repair`"),
                "{table}: {name}: {fix}"
            );
        }
        let out = lib.run(&["repair"]).ok();
        assert!(
            out.stdout.contains(&format!(
                "created the atom lines' keys again (the pages of {table} were damaged)"
            )),
            "{table}: {}",
            out.stdout
        );
        let clean = lib.run(&["check"]);
        assert_eq!(clean.code, 0, "{table}: {clean:?}");
        assert_eq!(lib.count("select count(*) from items_atom_keys_pending"), 0);
        assert_eq!(answers(&lib, base.path()), want, "{table}");
    }
}
