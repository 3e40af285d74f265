//! `recall timeline`: items newest first (`query::timeline`).
use super::open_for_query;
use crate::args::TimelineArgs;
use crate::error::Result;
use crate::settings::{self, Globals};
use crate::{output, query};

pub fn run(g: &Globals, a: &TimelineArgs) -> Result<i32> {
    let s = settings::Timeline::resolve(g, a)?;
    let lib = open_for_query(g)?;
    output::answer(g.json, &query::timeline(&lib, &s, a.common.explain)?)?;
    Ok(0)
}
