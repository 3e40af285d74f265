//! `recall ui`: the review page (`crate::ui`), served until Ctrl-C.
use super::Globals;
use crate::args::UiArgs;
use crate::error::Result;

pub fn run(g: Globals, a: &UiArgs) -> Result<i32> {
    crate::ui::serve(g, a)
}
