//! Runs every file of `tests/sql/` in every host: each check line must return exactly
//! the row `id|1`, each error line must fail with its message, nothing else may fail.

use crate::common::{all_hosts, parse_sql_file, sql_files, Line, SqlHost};

fn check_file_in(host: &dyn SqlHost, lines: &[Line], file: &str) -> Vec<String> {
    let mut failures = Vec::new();
    // 1. Everything but the error lines, in order, on one connection.
    let statements: Vec<(usize, &Line)> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !matches!(l, Line::Error { .. }))
        .collect();
    if !statements.is_empty() {
        let sql: Vec<String> = statements
            .iter()
            .map(|(_, l)| l.sql().to_string())
            .collect();
        let run = host.run(&sql);
        if let Some(e) = &run.error {
            failures.push(format!("{file}: {}: unexpected error: {e}", host.name()));
        }
        for (pos, (_, line)) in statements.iter().enumerate() {
            let Line::Check { id, .. } = line else {
                continue;
            };
            let expected = vec![vec![Some(id.clone()), Some("1".to_string())]];
            match run.outputs.get(pos) {
                Some(rows) if *rows == expected => {}
                got => failures.push(format!("{file}: {}: {id} gave {got:?}", host.name())),
            }
        }
    }
    // 2. Each error line alone, after the setup lines before it.
    for (i, line) in lines.iter().enumerate() {
        let Line::Error { id, sql, expected } = line else {
            continue;
        };
        let mut sqls: Vec<String> = lines[..i]
            .iter()
            .filter(|l| matches!(l, Line::Setup { .. }))
            .map(|l| l.sql().to_string())
            .collect();
        sqls.push(sql.clone());
        let run = host.run(&sqls);
        match &run.error {
            Some(e) if e.contains(expected.as_str()) => {}
            other => failures.push(format!(
                "{file}: {}: {id} should fail with {expected:?}, got error {other:?}",
                host.name()
            )),
        }
    }
    failures
}

#[test]
fn sql_files_pass_in_every_host() {
    let files = sql_files();
    assert!(files.len() >= 7, "tests/sql holds the SQL test files");
    let mut failures = Vec::new();
    let mut checks = 0;
    for host in all_hosts() {
        for file in &files {
            let lines = parse_sql_file(file);
            checks += lines
                .iter()
                .filter(|l| !matches!(l, Line::Setup { .. }))
                .count();
            let name = file.file_name().unwrap_or_default().to_string_lossy();
            failures.extend(check_file_in(host.as_ref(), &lines, &name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{checks} SQL checks passed across 4 hosts");
}

#[test]
fn ids_are_unique() {
    let mut seen = std::collections::HashSet::new();
    for file in sql_files() {
        for line in parse_sql_file(&file) {
            if let Line::Check { id, .. } | Line::Error { id, .. } = line {
                assert!(seen.insert(id.clone()), "duplicate test id {id}");
            }
        }
    }
}

/// SQL has no constants: the query files spell the core's defaults where a parameter is
/// unset. They must say the same numbers as `recall_core::defaults` (and the CLI's
/// configuration, which starts from those).
#[test]
fn sql_defaults_agree_with_the_core() {
    use recall_core::defaults::*;
    let sql = |name: &str| {
        std::fs::read_to_string(crate::common::root().join("sql").join(name)).expect("query file")
    };
    let search = sql("search.sql");
    for needle in [
        format!("max({POOL_MIN}, min({POOL_MAX}, coalesce(:pool, {POOL})))"),
        format!(
            "recall_limit(:limit, coalesce(:default_limit, {SEARCH_LIMIT}), coalesce(:max_limit, {SEARCH_MAX_LIMIT}))"
        ),
        format!("coalesce(:context_weight, {CONTEXT_WEIGHT})"),
        format!("max(0, min({CONTEXT_RADIUS_MAX}, coalesce(:context_radius, {CONTEXT_RADIUS})))"),
        format!("coalesce(:context_gap, {CONTEXT_GAP_MINUTES})"),
        format!("coalesce(:rrf_k, {})", recall_core::score::DEFAULT_RRF_K),
        format!("coalesce(:literal_weight, {LITERAL_WEIGHT})"),
        format!("coalesce(:vector_weight, {VECTOR_WEIGHT})"),
        format!("coalesce(:fusion, '{FUSION}')"),
        format!("coalesce(:vector_share, {VECTOR_SHARE})"),
        format!("coalesce(:context_column_weight, {CONTEXT_COLUMN_WEIGHT})"),
        format!("coalesce(:period_weight, {PERIOD_WEIGHT})"),
        format!("coalesce(:weight, {RECENCY_WEIGHT})"),
    ] {
        assert!(search.contains(&needle), "search.sql lacks {needle}");
    }
    // The vector channel's list is as long as search's pool.
    let k = format!("max({POOL_MIN}, min({POOL_MAX}, coalesce(:k, {POOL})))");
    assert_eq!(
        sql("nearest.sql").matches(&k).count(),
        2,
        "nearest.sql lacks {k}"
    );
    let batch = format!("max(1, coalesce(:batch, {EMBED_BATCH}))");
    assert!(
        sql("item_texts.sql").contains(&batch),
        "item_texts.sql lacks {batch}"
    );
    assert_eq!(recall_cli::config::Vectors::default().batch, EMBED_BATCH);
    let later =
        format!("recall_limit(:limit, coalesce(:default_limit, {LATER_LIMIT}), {LIST_MAX_LIMIT})");
    assert!(sql("later.sql").contains(&later), "later.sql lacks {later}");
    let timeline = format!(
        "recall_limit(:limit, coalesce(:default_limit, {TIMELINE_LIMIT}), {LIST_MAX_LIMIT})"
    );
    assert!(
        sql("timeline.sql").contains(&timeline),
        "timeline.sql lacks {timeline}"
    );
    for needle in [
        format!("recall_limit(:limit, {RELATED_LIMIT}, {RELATED_LIMIT})"),
        format!("coalesce(:rule, '{RELATED_RULE}')"),
        format!("coalesce(:min_weight, {RELATED_MIN_WEIGHT})"),
        format!("coalesce(:min_joint_weight, {RELATED_MIN_JOINT_WEIGHT})"),
        format!("coalesce(:sample, {RELATED_SAMPLE})"),
        format!("coalesce(:weight, {RECENCY_WEIGHT})"),
    ] {
        assert!(
            sql("related.sql").contains(&needle),
            "related.sql lacks {needle}"
        );
    }
    // The configuration starts from the same values.
    let config = recall_cli::config::Config::default();
    assert_eq!(config.search.candidate_pool, POOL);
    assert_eq!(config.search.default_limit, SEARCH_LIMIT);
    assert_eq!(config.search.context_weight, CONTEXT_WEIGHT);
    assert_eq!(config.search.context_radius, CONTEXT_RADIUS);
    assert_eq!(config.search.context_gap_minutes, CONTEXT_GAP_MINUTES);
    assert_eq!(config.search.context_column_weight, CONTEXT_COLUMN_WEIGHT);
    assert_eq!(config.search.period_weight, PERIOD_WEIGHT);
    assert_eq!(config.search.max_limit, SEARCH_MAX_LIMIT);
    assert_eq!(config.later.default_limit, LATER_LIMIT);
    assert_eq!(config.timeline.default_limit, TIMELINE_LIMIT);
    assert_eq!(config.related.sample, RELATED_SAMPLE);
    assert_eq!(
        config.search.recency_half_life_days,
        recall_core::score::DEFAULT_HALF_LIFE_DAYS
    );
    assert_eq!(config.search.recency_weight, RECENCY_WEIGHT);
}
