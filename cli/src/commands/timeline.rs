//! `recall timeline`: items newest first (`query::timeline`), or with `--around ID` the
//! items just before and after one item (`query::around`).
use crate::args::TimelineArgs;
use crate::error::Result;
use crate::query::changed::{self, Here};
use crate::settings::{self, Globals};
use crate::{output, query};

pub fn run(g: &Globals, a: &TimelineArgs) -> Result<i32> {
    let s = settings::Timeline::resolve(g, a)?;
    let lib = g.open_for_query()?;
    let (json, show_sql) = (g.json, a.common.show_sql);
    // Each item names its files changed since, as seen from the current folder.
    let here = Here::current(&g.config.projects);
    match &s.around {
        Some(around) => {
            let mut answer = query::around(&lib, &s, around, a.common.explain)?;
            changed::mark(&lib, here.as_ref(), &mut answer.results, &s.allow)?;
            output::shown(json, show_sql, &lib, &answer)
        }
        None => {
            let mut answer = query::timeline(&lib, &s, a.common.explain)?;
            changed::mark(&lib, here.as_ref(), &mut answer.results, &s.allow)?;
            output::shown(json, show_sql, &lib, &answer)
        }
    }
}
