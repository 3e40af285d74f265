//! `recall later ID`: newer items on the same subject (`query::later`).
use crate::args::LaterArgs;
use crate::error::Result;
use crate::settings::{self, Globals};
use crate::{output, query};

pub fn run(g: &Globals, a: &LaterArgs) -> Result<i32> {
    let s = settings::Later::resolve(g, a)?;
    let lib = g.open_for_query()?;
    let answer = query::later(&lib, &s, a.common.explain)?;
    output::shown(g.json, a.common.show_sql, &lib, &answer)
}
