//! `recall optimize`'s work: the index's segments (and the runs' index's) merged into
//! one and the planner's statistics refreshed, in one transaction, so that an
//! interrupted run leaves the library exactly as it was.
use super::{turn, Library};
use crate::error::{Context, Result};
use crate::{fault, interrupt};

pub fn optimize(lib: &Library) -> Result<()> {
    let guard = interrupt::guard(
        "the index was not optimized; the library is as it was".to_string(),
        None,
    )?;
    let tx = turn::immediate(&lib.conn).context("starting optimize")?;
    tx.execute_batch("insert into items_fts(items_fts) values ('optimize')")
        .context("merging the index segments")?;
    // The runs of the items' text (split first, where some are pending: the commit would
    // split them after the merge) and their own index.
    super::runs::fill(&tx).context("splitting the items' text into runs")?;
    super::runs::merge(&tx).context("merging the segments of the runs' index")?;
    fault::pause_point("optimize", 1);
    tx.execute_batch("analyze").context("analyzing")?;
    guard.commit(|| tx.commit()).context("committing optimize")
}
