//! `recall kind KIND ID…` and `recall kind --none ID…`: the kind of memory of stored items
//! set, or taken away (`items::marks::set_kind`).
use super::Globals;
use crate::args::KindSetArgs;
use crate::error::{err, Result};
use crate::item::known_kinds;
use crate::items::marks::set_kind;
use crate::library::{self, Mode};
use crate::{interrupt, output};

/// The exit status when some ids named no item the caller may read: the others were set.
const EXIT_SOME_MISSING: i32 = 1;

pub fn run(g: &Globals, a: &KindSetArgs) -> Result<i32> {
    let (kind, ids) = kind_and_ids(a)?;
    let known = known_kinds(g.config.kinds.extra.as_deref());
    let mut lib = library::open(g.db()?, Mode::Write, g.tokenizer.as_deref())?;
    let guard = interrupt::guard(
        "no kind was set; the library is as it was".to_string(),
        None,
    )?;
    let set = set_kind(
        &mut lib,
        &ids,
        kind.as_deref(),
        &known,
        &g.allow(&a.access.allow),
        Some(&guard),
    )?;
    drop(guard);
    if g.json {
        output::json(&set.kind_json(kind.as_deref()));
    } else if !set.ids.is_empty() {
        let ids: Vec<String> = set.ids.iter().map(i64::to_string).collect();
        match &kind {
            Some(k) => crate::output::say!("{}: kind {k}", ids.join(", ")),
            None => crate::output::say!("{}: no kind", ids.join(", ")),
        }
    }
    if set.missing.is_empty() {
        return Ok(0);
    }
    let ids: Vec<String> = set.missing.iter().map(i64::to_string).collect();
    eprintln!(
        "recall: warning: no item {} in {} (or none you may read): kind not set",
        ids.join(", "),
        lib.path.display()
    );
    Ok(EXIT_SOME_MISSING)
}

/// The kind (None with --none) and the ids, from the words of the command line.
fn kind_and_ids(a: &KindSetArgs) -> Result<(Option<String>, Vec<i64>)> {
    let (kind, ids) = match (a.none, a.words.split_first()) {
        (false, Some((kind, ids))) => (Some(kind.clone()), ids),
        _ => (None, &a.words[..]),
    };
    if let Some(k) = &kind {
        if k.parse::<i64>().is_ok() {
            return Err(err!(
                "{k:?} is an id, not a kind: give the kind first (`recall kind note {k}`), or --none to take the kind away"
            ));
        }
    }
    if ids.is_empty() {
        return Err(err!(
            "no id given: name the items after the kind (`recall kind note 12 14`)"
        ));
    }
    let ids = ids
        .iter()
        .map(|w| {
            w.parse::<i64>().map_err(|_| {
                err!("{w:?} is not an item's id: give whole numbers after the kind (`recall kind note 12 14`)")
            })
        })
        .collect::<Result<Vec<i64>>>()?;
    Ok((kind, ids))
}
