//! `recall later ID`: newer items on the same subject (`query::later`).
use crate::args::LaterArgs;
use crate::error::Result;
use crate::query::changed::{self, Here};
use crate::settings::{self, Globals};
use crate::{output, query};

pub fn run(g: &Globals, a: &LaterArgs) -> Result<i32> {
    let s = settings::Later::resolve(g, a)?;
    let lib = g.open_for_query()?;
    let mut answer = query::later(&lib, &s, a.common.explain)?;
    let here = Here::current(&g.config.projects);
    changed::mark(&lib, here.as_ref(), &mut answer.results, &s.allow)?;
    output::shown(g.json, a.common.show_sql, &lib, &answer)
}
