//! `recall related PROMPT`: the first-prompt rule (`query::related`).
use crate::args::RelatedArgs;
use crate::error::Result;
use crate::settings::{self, Globals};
use crate::{output, query};

pub fn run(g: &Globals, a: &RelatedArgs) -> Result<i32> {
    let s = settings::Related::resolve(g, a)?;
    let lib = g.open_for_query()?;
    let answer = query::related(&lib, &s, a.common.explain)?;
    output::shown(g.json, a.common.show_sql, &lib, &answer)
}
