//! `recall search`: the two-stage search of `sql/search.sql` (`query::search`); with
//! `--file`, the items that edited or named the file (`query::file_items`). Each result
//! names its files changed since, as seen from the current folder (`query::changed`);
//! `--fresh` leaves those out.
use crate::args::SearchArgs;
use crate::err;
use crate::error::Result;
use crate::query::changed::{self, Here, Marked};
use crate::query::Answer;
use crate::settings::{self, Globals};
use crate::{output, query};
use recall_core::defaults::LIST_MAX_LIMIT;

/// With `--fresh`, how many more results are asked for than shown, so that the items
/// left out leave room for fresh ones.
const FRESH_ASKED: i64 = 3;

pub fn run(g: &Globals, a: &SearchArgs) -> Result<i32> {
    let here = Here::current(&g.config.projects);
    let more = |limit: i64| match a.fresh {
        true => (limit * FRESH_ASKED).min(LIST_MAX_LIMIT),
        false => limit,
    };
    if let Some(file) = &a.file {
        let cwd = std::env::current_dir().map_err(|e| {
            err!("cannot read the current folder, against which --file is read: {e}")
        })?;
        let mut s = settings::FileItems::resolve(g, a, file, Some(&cwd.to_string_lossy()))?;
        let lib = g.open_for_query()?;
        let limit = s.limit;
        s.limit = more(limit);
        let mut answer = query::file_items(&lib, &s, a.common.explain)?;
        changed::mark(&lib, here.as_ref(), &mut answer.results, &s.allow)?;
        fresh(a.fresh, &mut answer, limit);
        return output::shown(g.json, a.common.show_sql, &lib, &answer);
    }
    let mut s = settings::Search::resolve(g, a)?;
    let lib = g.open_for_query()?;
    let limit = s.limit;
    s.limit = more(limit);
    let mut answer = query::search(&lib, &s, a.common.explain)?;
    changed::mark(&lib, here.as_ref(), &mut answer.results, &s.allow)?;
    fresh(a.fresh, &mut answer, limit);
    output::shown(g.json, a.common.show_sql, &lib, &answer)
}

/// With `--fresh`: the results whose files did not change, at most `limit`, and the
/// settings shown as asked.
fn fresh<R: Marked>(on: bool, answer: &mut Answer<R>, limit: i64) {
    if !on {
        return;
    }
    answer
        .results
        .retain_mut(|r| r.item().changed_since.is_empty());
    answer.results.truncate(usize::try_from(limit).unwrap_or(0));
    if let Some(shown) = answer.settings.as_object_mut() {
        shown.insert("limit".into(), limit.into());
        shown.insert("fresh".into(), true.into());
    }
}
