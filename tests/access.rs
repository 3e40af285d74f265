//! Access control: many generated queries and filters through search, later, timeline,
//! related and get never return a row from a source outside the allowed globs.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::common::cli::{ids, titled, TempLib};

const SOURCES: &[&str] = &["agent-a", "agent-b", "agent-long", "Agent-C", "human", "ci"];
const WORDS: &[&str] = &[
    "redis",
    "cache",
    "deploy",
    "banner",
    "consent",
    "migration",
    "error",
    "locked",
    "database",
    "script",
];
const ALLOWS: &[&[&str]] = &[
    &["agent-*"],
    &["agent-?"],
    &["human"],
    &["Agent-*"],
    &["agent-a", "ci"],
    &["nomatch"],
    &["*"],
    &["[ah]*"],
];

/// SQLite's GLOB for the patterns above (`*`, `?`, `[set]`), case-sensitive.
fn glob(pattern: &[char], text: &[char]) -> bool {
    match pattern.first() {
        None => text.is_empty(),
        Some('*') => (0..=text.len()).any(|i| glob(&pattern[1..], &text[i..])),
        Some('?') => !text.is_empty() && glob(&pattern[1..], &text[1..]),
        Some('[') => {
            let close = pattern.iter().position(|c| *c == ']').expect("closed set");
            !text.is_empty()
                && pattern[1..close].contains(&text[0])
                && glob(&pattern[close + 1..], &text[1..])
        }
        Some(c) => text.first() == Some(c) && glob(&pattern[1..], &text[1..]),
    }
}

fn allowed(globs: &[&str], source: &str) -> bool {
    let s: Vec<char> = source.chars().collect();
    globs
        .iter()
        .any(|g| glob(&g.chars().collect::<Vec<_>>(), &s))
}

#[test]
fn no_query_leaks_a_forbidden_source() {
    let mut rng = StdRng::seed_from_u64(7);
    let items: Vec<String> = (0..240)
        .map(|i| {
            let w = |rng: &mut StdRng| WORDS[rng.random_range(0..WORDS.len())];
            let title = format!("{} {} {}", w(&mut rng), w(&mut rng), w(&mut rng));
            let project = ["p", "q", "r"][i % 3];
            let fixture = titled(&title)
                .source(SOURCES[i % SOURCES.len()])
                .summary(w(&mut rng))
                .at(&format!(
                    "2025-{:02}-{:02}T00:00:00Z",
                    1 + i % 12,
                    1 + i % 28
                ));
            // Every tenth item has no project.
            if i % 10 == 0 {
                fixture.line()
            } else {
                fixture.project(project).line()
            }
        })
        .collect();
    let lib = TempLib::with_items(None, &items);
    let source_of = |id: i64| SOURCES[((id - 1) as usize) % SOURCES.len()];
    let mut checked_rows = 0;
    for round in 0..60 {
        let globs = ALLOWS[round % ALLOWS.len()];
        let mut allow: Vec<&str> = Vec::new();
        for g in globs {
            allow.extend(["--allow", g]);
        }
        let q = format!(
            "{} {}",
            WORDS[rng.random_range(0..WORDS.len())],
            WORDS[rng.random_range(0..WORDS.len())]
        );
        let source = SOURCES[rng.random_range(0..SOURCES.len())];
        let id = rng.random_range(1..=240i64).to_string();
        let commands: Vec<Vec<&str>> = vec![
            vec!["search", &q, "--limit", "50"],
            vec!["search", &q, "--source", source],
            vec!["search", &q, "--project", "q", "--pool", "10"],
            vec!["timeline", "--limit", "50"],
            vec!["timeline", "--source", source],
            vec!["related", &q],
        ];
        for mut args in commands {
            args.extend(&allow);
            for id in ids(&lib.json(&args)) {
                checked_rows += 1;
                assert!(
                    allowed(globs, source_of(id)),
                    "{args:?} returned item {id} of {}",
                    source_of(id)
                );
            }
        }
        // later and get: a forbidden item answers like a missing one; results obey too.
        let mut later = vec!["--json", "later", &id];
        later.extend(&allow);
        let out = lib.run(&later);
        let item_id: i64 = id.parse().unwrap();
        if allowed(globs, source_of(item_id)) {
            let answer = out.ok().json();
            for id in ids(&answer) {
                checked_rows += 1;
                assert!(allowed(globs, source_of(id)), "later returned {id}");
            }
        } else {
            out.fails_with(&format!("no item {item_id} in"));
        }
        let mut get = vec!["get", &id];
        get.extend(&allow);
        let out = lib.run(&get);
        assert_eq!(
            out.code == 0,
            allowed(globs, source_of(item_id)),
            "get {id} with {globs:?}"
        );
    }
    assert!(
        checked_rows > 2_000,
        "the test looked at {checked_rows} rows only"
    );
}

#[test]
fn asking_for_a_forbidden_source_returns_nothing_not_an_error() {
    let lib = TempLib::with_items(
        None,
        &[titled("secret plan").source("human").project("p").line()],
    );
    for args in [
        &[
            "search", "secret", "--source", "human", "--allow", "agent-*",
        ][..],
        &["timeline", "--source", "human", "--allow", "agent-*"],
        &["related", "secret plan", "--allow", "agent-*"],
    ] {
        let answer = lib.json(args);
        assert_eq!(ids(&answer), Vec::<i64>::new(), "{args:?}");
    }
    // The globs are case-sensitive.
    assert_eq!(
        ids(&lib.json(&["search", "secret", "--allow", "Human"])),
        Vec::<i64>::new()
    );
    assert_eq!(
        ids(&lib.json(&["search", "secret", "--allow", "human"])),
        vec![1]
    );
}
