//! `recall search`: the two-stage search of `sql/search.sql` (`query::search`); with
//! `--file`, the items that edited or named the file (`query::file_items`). Each result
//! names its files changed since, as seen from the current folder (`query::changed`);
//! `--fresh` leaves those out.
use crate::args::SearchArgs;
use crate::error::{err, Result};
use crate::query::changed::{Fresh, Here};
use crate::settings::{self, Globals};
use crate::{output, query};

pub fn run(g: &Globals, a: &SearchArgs) -> Result<i32> {
    let here = Here::current(&g.config.projects);
    if let Some(file) = &a.file {
        let cwd = std::env::current_dir().map_err(|e| {
            err!("cannot read the current folder, against which --file is read: {e}")
        })?;
        let mut s = settings::FileItems::resolve(g, a, file, Some(&cwd.to_string_lossy()))?;
        let lib = g.open_for_query()?;
        let fresh = Fresh::ask(a.fresh, &mut s.limit);
        let mut answer = query::file_items(&lib, &s, a.common.explain)?;
        fresh.apply(&lib, here.as_ref(), &mut answer, &s.allow)?;
        return output::shown(g.json, a.common.show_sql, &lib, &answer);
    }
    let mut s = settings::Search::resolve(g, a)?;
    let lib = g.open_for_query()?;
    let fresh = Fresh::ask(a.fresh, &mut s.limit);
    let mut answer = query::search(&lib, &s, a.common.explain)?;
    fresh.apply(&lib, here.as_ref(), &mut answer, &s.allow)?;
    output::shown(g.json, a.common.show_sql, &lib, &answer)
}
