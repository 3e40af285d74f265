//! `recall timeline`: items newest first (`query::timeline`), or with `--around ID` the
//! items just before and after one item (`query::around`).
use super::open_for_query;
use crate::args::TimelineArgs;
use crate::error::Result;
use crate::settings::{self, Globals};
use crate::{output, query};

pub fn run(g: &Globals, a: &TimelineArgs) -> Result<i32> {
    let s = settings::Timeline::resolve(g, a)?;
    let lib = open_for_query(g)?;
    match &s.around {
        Some(around) => {
            output::answer(g.json, &query::around(&lib, &s, around, a.common.explain)?)?
        }
        None => output::answer(g.json, &query::timeline(&lib, &s, a.common.explain)?)?,
    }
    Ok(0)
}
