//! Cases made against an import file (`{"items": "FILE"}` as their first line) name its
//! items by the ids an import into an empty library gives them: the N-th item is N. A
//! library that holds other items too numbers them otherwise, so each id is looked up
//! by what the item is (its source, project, title and time) and replaced by the id it
//! has in the library; an item the library lacks, or holds twice, is refused.
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use rusqlite::params;

use super::Case;
use crate::error::{err, Context, Result};
use crate::input;
use crate::item::Item;
use crate::library::Library;

/// The import file a cases file was made against, item by item.
#[derive(Debug, Clone)]
pub struct Labels {
    /// As the header names it, for messages.
    pub named: String,
    pub path: PathBuf,
    /// The ids an import into an empty library gives, and the items they name.
    items: HashMap<i64, Item>,
}

/// The header's value: the import file, relative to the cases file.
pub fn read(cases: &Path, named: &str) -> Result<Labels> {
    let path = cases.parent().unwrap_or(Path::new("")).join(named);
    let what = format!("{} (the items of {})", path.display(), cases.display());
    let bytes = input::read_file_limited(&path, input::DATASET, &what, "split the items")?;
    let text = input::text(bytes, &what)?;
    let mut items = HashMap::new();
    let mut next = 0i64;
    for (i, line) in text.lines().enumerate() {
        let line = crate::text::without_bom(line).trim();
        if line.is_empty() {
            continue;
        }
        let value: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| err!("{}: line {}: invalid JSON: {e}", path.display(), i + 1))?;
        let item =
            Item::from_json(&value).map_err(|e| err!("{}: line {}: {e}", path.display(), i + 1))?;
        // As an import numbers them: the id a line gives, else the next one.
        let id = item.id.unwrap_or(next + 1);
        next = next.max(id);
        items.insert(id, item);
    }
    Ok(Labels {
        named: named.to_string(),
        path,
        items,
    })
}

impl Labels {
    /// The cases with every id they name (`expect`, `must_not`, `item`) replaced by the
    /// id its item has in `lib`, and how many of the library's items are not the file's.
    pub fn resolve(&self, lib: &Library, cases: &[Case], file: &Path) -> Result<(Vec<Case>, i64)> {
        let alone = format!(
            "run eval on a library made of {} alone: recall --db /tmp/cases.db init && recall --db /tmp/cases.db import {} && recall --db /tmp/cases.db eval {}",
            self.path.display(),
            self.path.display(),
            file.display()
        );
        let mut stmt = lib
            .conn
            .prepare(
                "select id from items where source = ?1 and project is ?2 and occurred_at = ?3
                   and title in (?4, ?5) order by id",
            )
            .context("reading the library's items")?;
        // Where each of the file's items is in the library (none, once, or more).
        let mut found: HashMap<i64, Vec<i64>> = HashMap::new();
        for (&id, item) in &self.items {
            // An import redacts secrets by default: the title may be either.
            let mut redacted = item.clone();
            redacted.redact();
            let ids: Vec<i64> = stmt
                .query_map(
                    params![
                        item.source,
                        item.project,
                        item.occurred_at,
                        item.title,
                        redacted.title
                    ],
                    |r| r.get(0),
                )
                .and_then(|rows| rows.collect())
                .context("reading the library's items")?;
            found.insert(id, ids);
        }
        let named: BTreeSet<i64> = cases.iter().flat_map(Case::ids).collect();
        let mut ids = HashMap::new();
        for id in named {
            let (Some(item), Some(at)) = (self.items.get(&id), found.get(&id)) else {
                return Err(err!(
                    "{}: a case names item {id}, which {} does not hold ({} items); the ids of these cases are those an import of it into an empty library gives",
                    file.display(),
                    self.named,
                    self.items.len()
                ));
            };
            let title = short(&item.title);
            match at[..] {
                [one] => {
                    ids.insert(id, one);
                }
                [] => {
                    return Err(err!(
                        "{}: the library {} lacks item {id} of {} (\"{title}\", {}); {alone}",
                        file.display(),
                        lib.path.display(),
                        self.named,
                        item.occurred_at
                    ))
                }
                [first, second, ..] => {
                    return Err(err!(
                        "{}: the library {} holds item {id} of {} (\"{title}\") more than once (ids {first} and {second}); {alone}",
                        file.display(),
                        lib.path.display(),
                        self.named
                    ))
                }
            }
        }
        let total: i64 = lib
            .conn
            .query_row("select count(*) from items", [], |r| r.get(0))
            .context("counting the library's items")?;
        let held: usize = found.values().map(Vec::len).sum();
        let cases = cases
            .iter()
            .map(|c| c.renumbered(|id| ids.get(&id).copied().unwrap_or(id)))
            .collect();
        Ok((cases, total - held as i64))
    }
}

/// A title in a one-line message: escaped, and cut at 60 characters.
fn short(title: &str) -> String {
    let shown = crate::text::field(title);
    match shown.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &shown[..at]),
        None => shown.into_owned(),
    }
}
