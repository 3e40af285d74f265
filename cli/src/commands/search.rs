//! `recall search`: the two-stage search of `sql/search.sql` (`query::search`).
use super::open_for_query;
use crate::args::SearchArgs;
use crate::error::Result;
use crate::settings::{self, Globals};
use crate::{output, query};

pub fn run(g: &Globals, a: &SearchArgs) -> Result<i32> {
    let s = settings::Search::resolve(g, a)?;
    let lib = open_for_query(g)?;
    output::answer(g.json, &query::search(&lib, &s, a.common.explain)?)?;
    Ok(0)
}
