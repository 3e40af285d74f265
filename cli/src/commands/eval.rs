//! `recall eval` and `recall import-locomo`.
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::Globals;
use crate::args::EvalArgs;
use crate::config::overlay::Overlay;
use crate::error::{err, Result};
use crate::library::{self, Mode};
use crate::output::say;
use crate::quality::metrics::{self, Outcome, Summary};
use crate::quality::select::{select, Selection};
use crate::quality::sessions::{self, SessionOutcome, SessionReport, SessionSummary};
use crate::quality::{self, locomo, longmemeval, Variant};
use crate::settings::Ranking;
use crate::{input, output};

struct Column {
    label: String,
    /// The library's items that are not of the cases' items file, when it names one.
    other_items: Option<i64>,
    outcomes: Vec<Outcome>,
    summary: Summary,
    /// The session level of the cases that name their sessions.
    sessions: Vec<SessionOutcome>,
}

pub fn run(g: &Globals, a: &EvalArgs) -> Result<i32> {
    if let Some(file) = &a.longmemeval {
        return longmemeval(g, a, file);
    }
    let Some(cases_path) = &a.cases else {
        return Err(err!("give a cases file, or --longmemeval FILE"));
    };
    let file = quality::read_cases(cases_path)?;
    let all = file.cases;
    let read = all.len();
    let selection = Selection {
        case_ids: a.case_ids.clone(),
        tags: a.tags.clone(),
    };
    let cases = select(all, &selection, &cases_path.display().to_string())?;
    let mut libraries = vec![g.db()?.clone()];
    libraries.extend(a.libraries.iter().cloned());
    let variants = variants(g, a, &libraries)?;
    // Each column's cases, their ids found in its library, before anything runs: a
    // library that lacks an item the cases name is refused before the first case.
    let mut asked = Vec::new();
    for v in &variants {
        let Some(labels) = &file.labels else {
            asked.push((cases.clone(), None));
            continue;
        };
        let lib = library::open(&v.library, Mode::Read, None)?;
        let (renumbered, others) = labels.resolve(&lib, &cases, cases_path)?;
        if others > 0 {
            eprintln!(
                "recall: warning: {}: the library {} holds {others} items besides those of {}; the figures published for these cases (docs/evaluation.md) are of a library of that file alone",
                v.label,
                v.library.display(),
                labels.path.display()
            );
        }
        asked.push((renumbered, Some(others)));
    }
    // One judge process serves every case (a judge that fails is started again).
    crate::line_process::keep_alive();
    let mut columns = Vec::new();
    for (v, (cases, other_items)) in variants.iter().zip(asked) {
        let lib = library::open(&v.library, Mode::Read, None)?;
        let outcomes = quality::run_variant(g, &lib, &cases, &v.ranking);
        let outcomes = match outcomes {
            Ok(o) => o,
            Err(e) => {
                crate::line_process::shutdown();
                return Err(e);
            }
        };
        let summary = metrics::summarize(outcomes.iter());
        let sessions = cases
            .iter()
            .zip(&outcomes)
            .filter(|(c, _)| c.sessions.is_some())
            .map(|(c, o)| SessionOutcome {
                id: o.id.clone(),
                tags: o.tags.clone(),
                ranked: sessions::rank(&o.answer, |id| c.session_of(id)),
                evidence: c.evidence_sessions(),
            })
            .collect();
        columns.push(Column {
            label: v.label.clone(),
            other_items,
            outcomes,
            summary,
            sessions,
        });
    }
    crate::line_process::shutdown();
    warn_fallbacks(&columns);
    if let Some(path) = &a.rankings {
        let lines = columns.iter().flat_map(|c| {
            c.outcomes.iter().map(|o| {
                let s = c.sessions.iter().find(|s| s.id == o.id);
                json!({
                    "column": c.label, "id": o.id,
                    "items": o.answer, "expect": o.ranks.iter().map(|(id, _)| id).collect::<Vec<_>>(),
                    "sessions": s.map(|s| &s.ranked), "evidence": s.map(|s| &s.evidence),
                })
            })
        });
        write_rankings(path, lines)?;
    }
    let with_sessions: Vec<(String, SessionReport)> = columns
        .iter()
        .filter(|c| !c.sessions.is_empty())
        .map(|c| (c.label.clone(), sessions::report(&c.sessions)))
        .collect();
    let tags: BTreeSet<String> = cases.iter().flat_map(|c| c.tags.iter().cloned()).collect();
    let per_tag = |c: &Column| -> Vec<(String, Summary)> {
        tags.iter()
            .map(|t| {
                (
                    t.clone(),
                    metrics::summarize(c.outcomes.iter().filter(|o| o.tags.contains(t))),
                )
            })
            .collect()
    };
    if g.json {
        let doc: Vec<Value> = columns
            .iter()
            .zip(&variants)
            .map(|(c, v)| {
                json!({
                    "label": c.label, "library": v.library, "settings": v.ranking,
                    "other_items": c.other_items,
                    "summary": c.summary,
                    "session_level": (!c.sessions.is_empty()).then(|| sessions::report(&c.sessions)),
                    "per_tag": per_tag(c).into_iter().map(|(t, s)| (t, json!(s))).collect::<serde_json::Map<_, _>>(),
                    "cases": c.outcomes,
                })
            })
            .collect();
        output::json(&json!({
            "command": "eval", "cases": cases.len(), "cases_in_file": read,
            "selection": selection, "variants": doc,
        }));
        return Ok(0);
    }
    let kinds = |k: &str| cases.iter().filter(|c| c.kind() == k).count();
    if !selection.is_all() {
        say!(
            "{} of the {read} cases of {} ({})",
            cases.len(),
            cases_path.display(),
            selection.shown()
        );
    }
    say!(
        "{} cases: {} search, {} related, {} later",
        cases.len(),
        kinds("search"),
        kinds("related"),
        kinds("later")
    );
    print_table(
        &columns
            .iter()
            .map(|c| (c.label.clone(), c.summary.clone()))
            .collect::<Vec<_>>(),
        true,
    );
    if !tags.is_empty() {
        say!("\nper tag ({}):", columns[0].label);
        print_table(&per_tag(&columns[0]), false);
    }
    print_sessions(&with_sessions);
    print_worst(&columns[0], a.worst);
    Ok(0)
}

/// `recall eval --longmemeval FILE`: each question's haystack a library of its own, the
/// session level alone (`quality::longmemeval`).
fn longmemeval(g: &Globals, a: &EvalArgs, file: &Path) -> Result<i32> {
    // The libraries are made here, one a question: the columns are the `--set` values.
    let variants = variants(g, a, &[PathBuf::from("(each question's own)")])?;
    crate::line_process::keep_alive();
    let run = longmemeval::run(g, file, &variants);
    crate::line_process::shutdown();
    let columns = run?;
    if let Some(path) = &a.rankings {
        let lines = variants.iter().zip(&columns).flat_map(|(v, outcomes)| {
            outcomes.iter().map(|o| {
                json!({
                    "column": v.label, "id": o.id, "sessions": o.ranked, "evidence": o.evidence,
                })
            })
        });
        write_rankings(path, lines)?;
    }
    let reports: Vec<(String, SessionReport)> = variants
        .iter()
        .zip(&columns)
        .map(|(v, o)| (v.label.clone(), sessions::report(o)))
        .collect();
    if g.json {
        let doc: Vec<Value> = reports
            .iter()
            .zip(&variants)
            .zip(&columns)
            .map(|(((label, r), v), outcomes)| {
                json!({"label": label, "settings": v.ranking, "session_level": r, "questions": outcomes})
            })
            .collect();
        output::json(&json!({
            "command": "eval", "longmemeval": file, "questions": columns.first().map_or(0, Vec::len),
            "variants": doc,
        }));
        return Ok(0);
    }
    say!(
        "{} questions of {}, each haystack a library of its own",
        columns.first().map_or(0, Vec::len),
        file.display()
    );
    print_sessions(&reports);
    Ok(0)
}

/// `--rankings FILE`: one JSON object a line, written whole once every case has run.
fn write_rankings(path: &Path, lines: impl Iterator<Item = Value>) -> Result<()> {
    let text: String = lines.map(|l| format!("{l}\n")).collect();
    std::fs::write(path, text)
        .map_err(|e| err!("--rankings {}: cannot write it: {e}", path.display()))
}

/// The session level: the questions not set apart, then each set-apart tag, then per
/// tag of the first column.
fn print_sessions(columns: &[(String, SessionReport)]) {
    let Some((first_label, first)) = columns.first() else {
        return;
    };
    let apart: Vec<&str> = first.apart.keys().map(String::as_str).collect();
    say!(
        "\nsession level: a session ranks where its best item ranks{}",
        if apart.is_empty() {
            String::new()
        } else {
            format!("; {} apart", apart.join(", "))
        }
    );
    let table = |pick: &dyn Fn(&SessionReport) -> Option<SessionSummary>| {
        let rows: Vec<(String, SessionSummary)> = columns
            .iter()
            .map(|(l, r)| (l.clone(), pick(r).unwrap_or_default()))
            .collect();
        print_session_table(&rows, true);
    };
    table(&|r| Some(r.main.clone()));
    for tag in apart {
        say!("\n{tag}, apart:");
        table(&|r| r.apart.get(tag).cloned());
    }
    say!("\nsession level per tag ({first_label}):");
    let per_tag: Vec<(String, SessionSummary)> = first
        .per_tag
        .iter()
        .map(|(t, s)| (t.clone(), s.clone()))
        .collect();
    print_session_table(&per_tag, false);
}

/// The session-level table: hits and recalls of the evidence sessions, then the count of
/// questions.
fn print_session_table(columns: &[(String, SessionSummary)], diff: bool) {
    let metrics: [(&str, Metric<SessionSummary>); 8] = [
        ("hit@1", |s| asked(s, s.hit_at_1)),
        ("hit@5", |s| asked(s, s.hit_at_5)),
        ("hit@10", |s| asked(s, s.hit_at_10)),
        ("Recall@5", |s| asked(s, s.recall_at_5)),
        ("Recall@10", |s| asked(s, s.recall_at_10)),
        ("evidence-recall@5", |s| asked(s, s.evidence_recall_at_5)),
        ("evidence-recall@10", |s| asked(s, s.evidence_recall_at_10)),
        ("MRR", |s| asked(s, s.mrr)),
    ];
    let counts: [(&str, Count<SessionSummary>); 1] = [("questions", |s| s.questions)];
    print_columns(columns, diff, 18, &metrics, &counts);
}

/// A session-level figure: none for a column without questions.
fn asked(s: &SessionSummary, v: f64) -> Option<f64> {
    (s.questions > 0).then_some(v)
}

/// A table's figure of a column (None: `-`), and a count.
type Metric<S> = fn(&S) -> Option<f64>;
type Count<S> = fn(&S) -> usize;

/// Metrics down, one column per label (`-` where a column has no figure), then counts;
/// with `diff`, columns after the first also show the difference to the first.
fn print_columns<S>(
    columns: &[(String, S)],
    diff: bool,
    name_width: usize,
    metrics: &[(&str, Metric<S>)],
    counts: &[(&str, Count<S>)],
) {
    let width = columns
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(8)
        .max(16);
    let mut header = format!("{:<name_width$}", "");
    for (label, _) in columns {
        header.push_str(&format!(" {label:>width$}"));
    }
    say!("{header}");
    let Some((_, first)) = columns.first() else {
        return;
    };
    for (name, get) in metrics {
        let mut line = format!("{name:<name_width$}");
        for (i, (_, s)) in columns.iter().enumerate() {
            let cell = match (get(s), get(first)) {
                (None, _) => "-".to_string(),
                (Some(v), Some(f)) if i > 0 && diff => format!("{v:.3} ({:+.3})", v - f),
                (Some(v), _) => format!("{v:.3}"),
            };
            line.push_str(&format!(" {cell:>width$}"));
        }
        say!("{line}");
    }
    for (name, get) in counts {
        let mut line = format!("{name:<name_width$}");
        for (_, s) in columns {
            line.push_str(&format!(" {:>width$}", get(s)));
        }
        say!("{line}");
    }
}

/// `--set key=v1,v2` (repeatable) times the libraries: every combination, in order. Each
/// column's settings are the configuration with its `--set` values, then the flags.
fn variants(g: &Globals, a: &EvalArgs, libraries: &[PathBuf]) -> Result<Vec<Variant>> {
    let ranking = |o: &Overlay| Ranking::overlaid(o, &a.judge, &a.vectors);
    let base = Overlay::new(&g.config);
    // The flags are checked before any `--set`.
    let mut combos = vec![(Vec::new(), ranking(&base)?, base)];
    let mut seen = Vec::new();
    for set in &a.set {
        let (key, values) = set.split_once('=').ok_or_else(|| {
            err!("--set {set:?}: write KEY=VALUE[,VALUE…], like search.recency_weight=0,0.3")
        })?;
        // A second --set of the same key would overwrite the first in every column while
        // both labels stayed: one key, one list of values.
        if seen.contains(&key.trim()) {
            return Err(err!(
                "--set {}: the key is given twice; list every value once: --set {}=A,B,C",
                key.trim(),
                key.trim()
            ));
        }
        seen.push(key.trim());
        let mut next = Vec::new();
        for (labels, _, overlay) in &combos {
            for value in values.split(',') {
                let mut o = overlay.clone();
                o.set(key.trim(), value.trim())?;
                let mut l = labels.clone();
                l.push(format!(
                    "{}={}",
                    key.trim().trim_start_matches("search."),
                    value.trim()
                ));
                next.push((l, ranking(&o)?, o));
            }
        }
        combos = next;
    }
    let mut out = Vec::new();
    for library in libraries {
        for (labels, ranking, _) in &combos {
            let mut label = labels.join(" ");
            if libraries.len() > 1 {
                let name = library
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                label = format!("{name} {label}").trim().to_string();
            }
            if label.is_empty() {
                label = "defaults".to_string();
            }
            out.push(Variant {
                label,
                library: library.clone(),
                ranking: ranking.clone(),
            });
        }
    }
    Ok(out)
}

/// A judge or an embedder that fails gives the literal answer, which a comparison would
/// read as a judge that agrees or vectors that add nothing: one warning per column that
/// had such cases, with the first failure.
fn warn_fallbacks(columns: &[Column]) {
    for c in columns {
        let Some(first) = c.outcomes.iter().find(|o| o.fell_back.is_some()) else {
            continue;
        };
        eprintln!(
            "recall: warning: {}: {} of {} cases got the literal answer because a process failed; the first, {}: {}; `recall search … --explain` shows why",
            c.label,
            c.summary.fell_back,
            c.summary.cases,
            first.id,
            first.fell_back.as_deref().unwrap_or_default(),
        );
    }
}

/// An average over the cases that expect ids: none, no figure.
fn expecting(s: &Summary, v: f64) -> Option<f64> {
    (s.expecting > 0).then_some(v)
}

/// The case-level table: the ranking's figures, then the counts ("fell back" only where
/// a column has one).
fn print_table(columns: &[(String, Summary)], diff: bool) {
    let metrics: [(&str, Metric<Summary>); 8] = [
        ("Recall@1", |s| expecting(s, s.recall_at_1)),
        ("Recall@5", |s| expecting(s, s.recall_at_5)),
        ("Recall@10", |s| expecting(s, s.recall_at_10)),
        ("MRR", |s| expecting(s, s.mrr)),
        ("nDCG@10", |s| expecting(s, s.ndcg_at_10)),
        ("precision", |s| s.precision),
        ("answered", |s| s.answered_share),
        ("empty", |s| s.empty_share),
    ];
    let mut counts: Vec<(&str, Count<Summary>)> = vec![
        ("must-not", |s| s.must_not_violations),
        ("shown", |s| s.shown),
        ("cases", |s| s.cases),
        ("expect []", |s| s.expect_nothing_cases),
    ];
    if columns.iter().any(|(_, s)| s.fell_back > 0) {
        counts.push(("fell back", |s| s.fell_back));
    }
    print_columns(columns, diff, 12, &metrics, &counts);
}

fn print_worst(c: &Column, n: usize) {
    let mut ranked: Vec<&Outcome> = c
        .outcomes
        .iter()
        .filter(|o| !o.ranks.is_empty() || !o.violations.is_empty() || o.expects_nothing)
        .collect();
    // A case that expected nothing and was shown something is as bad as a miss.
    let badness = |o: &Outcome| {
        if o.expects_nothing {
            return if o.shown.is_empty() { 2.0 } else { 0.0 };
        }
        (o.reciprocal_rank().unwrap_or(1.0) + o.recall_at(10).unwrap_or(1.0))
            - o.violations.len() as f64
    };
    ranked.sort_by(|a, b| badness(a).total_cmp(&badness(b)));
    let worst: Vec<&&Outcome> = ranked.iter().take(n).filter(|o| badness(o) < 2.0).collect();
    if worst.is_empty() {
        return;
    }
    say!("\nworst cases ({}):", c.label);
    for o in worst {
        let ranks: Vec<String> = o
            .ranks
            .iter()
            .map(|(id, r)| match r {
                Some(r) => format!("{id} at {r}"),
                None => format!("{id} not found"),
            })
            .chain(
                o.violations
                    .iter()
                    .map(|(id, r)| format!("must-not {id} at {r}")),
            )
            .chain(o.expects_nothing.then(|| {
                let ids: Vec<String> = o.shown.iter().map(i64::to_string).collect();
                format!("expected nothing, shown {}", ids.join(", "))
            }))
            .collect();
        say!("  {} [{}] {}", o.id, o.kind, ranks.join(", "));
    }
}

pub fn import_locomo(
    g: &Globals,
    file: &Path,
    cases_path: &Path,
    per_session: bool,
) -> Result<i32> {
    let what = file.display().to_string();
    let fix = "split the dataset into files of fewer samples";
    let text = input::text(
        input::read_file_limited(file, input::DATASET, &what, fix)?,
        &what,
    )?;
    let doc: Value =
        serde_json::from_str(&text).map_err(|e| err!("{}: invalid JSON: {e}", file.display()))?;
    let mut lib = library::open(g.db()?, Mode::Write, g.tokenizer.as_deref())?;
    let guard = crate::interrupt::guard(
        "nothing was imported; the library is as it was".to_string(),
        None,
    )?;
    let unit = if per_session {
        locomo::Unit::Session
    } else {
        locomo::Unit::Turn
    };
    let converted = locomo::import(&mut lib, &doc, cases_path, unit, &guard)?;
    if g.json {
        output::json(&json!({
            "command": "import-locomo", "items": converted.items.len(), "cases": converted.cases.len(),
            "skipped_questions": converted.skipped_questions, "cases_file": cases_path,
        }));
    } else {
        say!(
            "imported {} {} as items and wrote {} cases to {} ({} questions without evidence skipped)",
            converted.items.len(),
            if per_session { "sessions" } else { "turns" },
            converted.cases.len(),
            cases_path.display(),
            converted.skipped_questions
        );
    }
    Ok(0)
}
