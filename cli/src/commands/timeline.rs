//! `recall timeline`: items newest first (`query::timeline`), or with `--around ID` the
//! items just before and after one item (`query::around`).
use crate::args::TimelineArgs;
use crate::error::Result;
use crate::settings::{self, Globals};
use crate::{output, query};

pub fn run(g: &Globals, a: &TimelineArgs) -> Result<i32> {
    let s = settings::Timeline::resolve(g, a)?;
    let lib = g.open_for_query()?;
    let (json, show_sql) = (g.json, a.common.show_sql);
    match &s.around {
        Some(around) => {
            let answer = query::around(&lib, &s, around, a.common.explain)?;
            output::shown(json, show_sql, &lib, &answer)
        }
        None => {
            let answer = query::timeline(&lib, &s, a.common.explain)?;
            output::shown(json, show_sql, &lib, &answer)
        }
    }
}
