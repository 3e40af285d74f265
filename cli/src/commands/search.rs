//! `recall search`: the two-stage search of `sql/search.sql` (`query::search`); with
//! `--file`, the items that edited or named the file (`query::file_items`).
use crate::args::SearchArgs;
use crate::err;
use crate::error::Result;
use crate::settings::{self, Globals};
use crate::{output, query};

pub fn run(g: &Globals, a: &SearchArgs) -> Result<i32> {
    if let Some(file) = &a.file {
        let cwd = std::env::current_dir().map_err(|e| {
            err!("cannot read the current folder, against which --file is read: {e}")
        })?;
        let s = settings::FileItems::resolve(g, a, file, Some(&cwd.to_string_lossy()))?;
        let lib = g.open_for_query()?;
        let answer = query::file_items(&lib, &s, a.common.explain)?;
        return output::shown(g.json, a.common.show_sql, &lib, &answer);
    }
    let s = settings::Search::resolve(g, a)?;
    let lib = g.open_for_query()?;
    let answer = query::search(&lib, &s, a.common.explain)?;
    output::shown(g.json, a.common.show_sql, &lib, &answer)
}
