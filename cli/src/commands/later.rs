//! `recall later ID`: newer items on the same subject (`query::later`).
use super::open_for_query;
use crate::args::LaterArgs;
use crate::error::Result;
use crate::settings::{self, Globals};
use crate::{output, query};

pub fn run(g: &Globals, a: &LaterArgs) -> Result<i32> {
    let s = settings::Later::resolve(g, a)?;
    let lib = open_for_query(g)?;
    let answer = query::later(&lib, &s, a.common.explain)?;
    output::shown(g.json, a.common.show_sql, &lib, &answer)
}
