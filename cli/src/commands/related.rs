//! `recall related PROMPT`: the first-prompt rule (`query::related`).
use super::open_for_query;
use crate::args::RelatedArgs;
use crate::error::Result;
use crate::settings::{self, Globals};
use crate::{output, query};

pub fn run(g: &Globals, a: &RelatedArgs) -> Result<i32> {
    let s = settings::Related::resolve(g, a)?;
    let lib = open_for_query(g)?;
    let answer = query::related(&lib, &s, a.common.explain)?;
    output::shown(g.json, a.common.show_sql, &lib, &answer)
}
