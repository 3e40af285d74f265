//! The judge re-ranker (docs/judge.md) with the deterministic fake judge
//! (`tests/judge/fake_judge.py`): each rule of the answer, and each way a judge fails,
//! against the literal answer of the same search run as a separate process.
use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::cli::{fillers, ids, titled, Ran, TempLib};
use crate::common::{root, SYSTEM_PYTHON};

/// The fake judge's command line.
fn fake() -> String {
    let script = root().join("tests/judge/fake_judge.py");
    format!("{SYSTEM_PYTHON} '{}'", script.display())
}

/// Items 1 to 6 share "alpha"; 7 and 8 are the project "tiny", and 8 shares no word with
/// "alpha rollback"; then fillers keep the words rare.
fn library() -> TempLib {
    let mut items = vec![
        titled("alpha rollback plan for the importer")
            .at("2025-01-06T00:00:00Z")
            .line(),
        titled("alpha release notes")
            .at("2025-01-05T00:00:00Z")
            .line(),
        titled("alpha rollback drill")
            .summary("alpha alpha")
            .at("2025-01-04T00:00:00Z")
            .line(),
        titled("alpha feature flags")
            .at("2025-01-03T00:00:00Z")
            .line(),
        titled("alpha metrics dashboard")
            .at("2025-01-02T00:00:00Z")
            .line(),
        titled("alpha onboarding checklist")
            .at("2025-01-01T00:00:00Z")
            .line(),
        titled("alpha rollback of the tiny service")
            .project("tiny")
            .at("2025-02-01T00:00:00Z")
            .line(),
        titled("the pager woke everyone at night")
            .project("tiny")
            .summary("the queue consumer stopped and nobody noticed")
            .at("2025-02-02T00:00:00Z")
            .line(),
    ];
    items.extend(fillers(30));
    TempLib::with_items(None, &items)
}

/// `recall --json search ARGS` with the fake judge's environment.
fn search(lib: &TempLib, args: &[&str], env: &[(&str, String)]) -> Ran {
    let mut cmd = lib.command();
    cmd.args(["--json", "search"]).args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run recall");
    Ran {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn ratings(r: &[(i64, f64)]) -> (&'static str, String) {
    let map: HashMap<String, f64> = r.iter().map(|(id, p)| (id.to_string(), *p)).collect();
    ("FAKE_JUDGE_RATINGS", serde_json::to_string(&map).unwrap())
}

/// The literal answer: the same search without a judge.
fn literal(lib: &TempLib, args: &[&str]) -> Vec<i64> {
    let mut full = vec!["search"];
    full.extend_from_slice(args);
    ids(&lib.json(&full))
}

/// The rules of docs/judge.md, written again from the text: rated candidates at or
/// above the threshold by probability (ties in literal order), else those at or above
/// the floor with below_threshold; then the unrated literal ones in literal order.
fn expected(
    candidates: &[i64],
    literal: &[i64],
    rated: &HashMap<i64, f64>,
    limit: usize,
) -> (Vec<i64>, bool) {
    let (threshold, floor) = (0.7, 0.2);
    let above: Vec<i64> = candidates
        .iter()
        .copied()
        .filter(|id| rated.get(id).is_some_and(|p| *p >= threshold))
        .collect();
    let (mut kept, weak) = if above.is_empty() {
        let weak: Vec<i64> = candidates
            .iter()
            .copied()
            .filter(|id| rated.get(id).is_some_and(|p| *p >= floor))
            .collect();
        let any = !weak.is_empty();
        (weak, any)
    } else {
        (above, false)
    };
    kept.sort_by(|a, b| rated[b].total_cmp(&rated[a]));
    kept.extend(literal.iter().filter(|id| !rated.contains_key(id)));
    kept.truncate(limit);
    (kept, weak)
}

fn judge_cmd(extra: &[&str]) -> Vec<String> {
    let mut v = vec!["--judge-cmd".to_string(), fake()];
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn results(answer: &Value) -> &Vec<Value> {
    answer["results"].as_array().expect("results")
}

/// The requests the fake judge logged, and its process ids.
fn logged(path: &std::path::Path) -> (Vec<Value>, Vec<i32>) {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut requests = Vec::new();
    let mut pids = Vec::new();
    for line in text.lines() {
        match line.strip_prefix("pid ") {
            Some(pid) => pids.push(pid.parse().expect("pid")),
            None => requests.push(serde_json::from_str(line).expect("logged request")),
        }
    }
    (requests, pids)
}

#[test]
fn matches_come_by_probability_and_the_rest_is_left_out() {
    let lib = library();
    let lit = literal(&lib, &["alpha"]);
    assert_eq!(lit.len(), 7, "{lit:?}");
    let rated: HashMap<i64, f64> = HashMap::from([
        (1, 0.75),
        (2, 0.95),
        (3, 0.5),
        (4, 0.1),
        (6, 0.95),
        (7, 0.7),
    ]);
    let env = [ratings(
        &rated.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(),
    )];
    let args = judge_cmd(&["alpha", "--explain"]);
    let answer = search(&lib, &strs(&args), &env).ok().json();
    // Every literal match is rated (5 and 8 at 0): 8 is not a match, and the set is
    // larger than the shortlist.
    let mut all = rated.clone();
    all.insert(5, 0.0);
    let (want, weak) = expected(&lit, &lit, &all, 10);
    assert_eq!(ids(&answer), want);
    assert_eq!(want.len(), 4, "{want:?}");
    assert!(!weak);
    assert_eq!(answer["ranker"], "judge");
    assert_eq!(answer["below_threshold"], false);
    for r in results(&answer) {
        let id = r["id"].as_i64().unwrap();
        assert_eq!(r["judged"], true);
        assert_eq!(r["probability"].as_f64(), Some(all[&id]));
    }
    let judge = &answer["explain"]["judge"];
    assert_eq!(answer["explain"]["ranker"], "judge");
    assert_eq!(judge["outcome"], "rated");
    assert_eq!(judge["rated"], 7);
    let dropped: Vec<(i64, String)> = judge["dropped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["id"].as_i64().unwrap(),
                d["why"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let mut ids_dropped: Vec<i64> = dropped.iter().map(|d| d.0).collect();
    ids_dropped.sort();
    assert_eq!(ids_dropped, vec![3, 4, 5]);
    for (id, why) in dropped {
        let floor = all[&id] < 0.2;
        assert_eq!(why.contains("below the floor 0.2"), floor, "{id}: {why}");
        assert_eq!(
            why.contains("below the threshold 0.7"),
            !floor,
            "{id}: {why}"
        );
    }
    assert_eq!(answer["settings"]["judge"]["threshold"], 0.7);
    assert_eq!(answer["settings"]["judge"]["shortlist"], 20);
}

#[test]
fn weak_matches_are_flagged_and_no_match_is_an_empty_answer() {
    let lib = library();
    let lit = literal(&lib, &["alpha"]);
    let rated = [(1, 0.5), (2, 0.25), (3, 0.69), (4, 0.1)];
    let args = judge_cmd(&["alpha", "--explain"]);
    let answer = search(&lib, &strs(&args), &[ratings(&rated)]).ok().json();
    let mut all: HashMap<i64, f64> = lit.iter().map(|id| (*id, 0.0)).collect();
    all.extend(rated);
    let (want, weak) = expected(&lit, &lit, &all, 10);
    assert_eq!(ids(&answer), want);
    assert_eq!(want, vec![3, 1, 2]);
    assert!(weak);
    assert_eq!(answer["below_threshold"], true);
    assert_eq!(answer["explain"]["judge"]["below_threshold"], true);

    // Nothing at the floor: an empty answer, and the reason says the judge emptied it.
    let answer = search(&lib, &strs(&args), &[ratings(&[(1, 0.19)])])
        .ok()
        .json();
    assert!(results(&answer).is_empty());
    assert_eq!(answer["below_threshold"], false);
    assert_eq!(answer["ranker"], "judge");
    assert_eq!(answer["explain"]["reason"], "judged_out");
    assert_eq!(
        answer["explain"]["judge"]["dropped"]
            .as_array()
            .unwrap()
            .len(),
        lit.len()
    );
}

#[test]
fn the_shortlist_is_the_best_candidates_and_at_least_the_limit() {
    let lib = library();
    let log = lib.path("judge.log");
    let env = [("FAKE_JUDGE_LOG", log.display().to_string())];
    let config = lib.path("judge.toml");
    std::fs::write(
        &config,
        format!("[judge]\ncommand = {:?}\nshortlist = 3\n", fake()),
    )
    .unwrap();
    let c = config.to_str().unwrap();
    let sent = |limit: &str| -> Vec<i64> {
        let _ = std::fs::remove_file(&log);
        let mut cmd = lib.command();
        let out = cmd
            .args(["--config", c, "--json", "search", "alpha", "--limit", limit])
            .envs(env.iter().map(|(k, v)| (k, v)))
            .output()
            .unwrap();
        assert!(out.status.success());
        logged(&log)
            .0
            .iter()
            .map(|r| r["item"]["id"].as_i64().unwrap())
            .collect()
    };
    let literal7 = literal(&lib, &["alpha", "--limit", "7"]);
    // Three candidates for two results; five for five: the literal best, in that order
    // (one at a time as asked, at most eight waiting).
    let mut got = sent("2");
    assert_eq!(got, literal7[..3].to_vec());
    got = sent("5");
    assert_eq!(got, literal7[..5].to_vec());
    // No rating reached the floor: nothing comes back.
    let out = lib
        .run(&["--config", c, "--json", "search", "alpha"])
        .ok()
        .json();
    assert!(results(&out).is_empty());
    // --no-judge: the literal answer, with no judge field at all.
    let out = lib
        .run(&["--config", c, "--json", "search", "alpha", "--no-judge"])
        .ok()
        .json();
    assert_eq!(ids(&out), literal(&lib, &["alpha"]));
    assert!(out.get("ranker").is_none() && out["settings"].get("judge").is_none());
}

#[test]
fn a_small_filtered_set_goes_to_the_judge_whole() {
    let lib = library();
    let log = lib.path("judge.log");
    let question = ["alpha rollback", "--project", "tiny", "--explain"];
    // The literal search finds only 7 in the project; 8 shares no word with the question.
    assert_eq!(literal(&lib, &question[..3]), vec![7]);
    let env = [
        ratings(&[(8, 0.9), (7, 0.8)]),
        ("FAKE_JUDGE_LOG", log.display().to_string()),
    ];
    let mut args = judge_cmd(&question);
    let answer = search(&lib, &strs(&args), &env).ok().json();
    assert_eq!(ids(&answer), vec![8, 7]);
    assert!(answer["explain"]["reason"].is_null());
    let first = &results(&answer)[0];
    assert_eq!(first["title"], "the pager woke everyone at night");
    assert_eq!(first["project"], "tiny");
    assert!(first["score"].is_null() && first["relevance"].is_null());
    assert_eq!(answer["explain"]["judge"]["filtered_set_small"], true);
    // What the judge saw: the question and every field the protocol names.
    let (requests, _) = logged(&log);
    let seen: Vec<i64> = requests
        .iter()
        .map(|r| r["item"]["id"].as_i64().unwrap())
        .collect();
    assert_eq!(seen, vec![7, 8]);
    let eight = &requests[1];
    assert_eq!(eight["question"], "alpha rollback");
    assert_eq!(
        eight["item"]["summary"],
        "the queue consumer stopped and nobody noticed"
    );
    assert_eq!(eight["item"]["project"], "tiny");
    assert_eq!(eight["item"]["date"], "2025-02-02T00:00:00Z");
    for key in ["title", "questions", "atoms"] {
        assert!(eight["item"][key].is_string(), "{key}: {eight}");
    }
    // A question sharing no word with the set: the literal answer is empty, the judged
    // one is not, and nothing is said to be filtered out.
    let other = ["on-call incident", "--project", "tiny", "--explain"];
    let none = lib.json(&["search", other[0], "--project", "tiny", "--explain"]);
    assert!(results(&none).is_empty());
    assert_eq!(none["explain"]["reason"], "filtered");
    args = judge_cmd(&other);
    let answer = search(&lib, &strs(&args), &env).ok().json();
    assert_eq!(ids(&answer), vec![8, 7]);
    assert!(answer["explain"]["reason"].is_null());
    // The text form shows each probability.
    let mut cmd = lib.command();
    let text = cmd
        .args([
            "search",
            other[0],
            "--project",
            "tiny",
            "--judge-cmd",
            &fake(),
        ])
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("[8] ") && lines[0].ends_with(" p=0.90"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("[7] ") && lines[1].ends_with(" p=0.80"),
        "{text}"
    );
    // Without the filter the set is larger than the shortlist: only matches are judged.
    let _ = std::fs::remove_file(&log);
    args = judge_cmd(&["alpha rollback"]);
    let answer = search(&lib, &strs(&args), &env).ok().json();
    assert!(!ids(&answer).contains(&8));
    let (requests, _) = logged(&log);
    assert!(
        requests.iter().all(|r| r["item"]["id"] != 8),
        "{requests:?}"
    );
    // An item of the small set that was not rated in time is not a literal match: left
    // out, with its reason.
    let slow = [
        ratings(&[(7, 0.8)]),
        ("FAKE_JUDGE_SLOW", r#"{"8": 30}"#.to_string()),
    ];
    args = judge_cmd(&question);
    args.extend(["--config".into(), timeout_config(&lib, 2000)]);
    let answer = search(&lib, &strs(&args), &slow).ok().json();
    assert_eq!(ids(&answer), vec![7]);
    let dropped = &answer["explain"]["judge"]["dropped"][0];
    assert_eq!(dropped["id"], 8);
    assert!(dropped["why"]
        .as_str()
        .unwrap()
        .contains("not rated in time"));
}

fn timeout_config(lib: &TempLib, ms: u64) -> String {
    let path = lib.path(&format!("timeout-{ms}.toml"));
    std::fs::write(&path, format!("[judge]\ntimeout_ms = {ms}\n")).unwrap();
    path.display().to_string()
}

#[test]
fn items_not_rated_in_time_keep_their_literal_place_after_the_judged_ones() {
    let lib = library();
    let lit = literal(&lib, &["alpha"]);
    let env = [
        ratings(&[(lit[0], 0.8), (lit[2], 0.9), (lit[4], 0.75)]),
        // Two literal matches are answered far past the timeout.
        (
            "FAKE_JUDGE_SLOW",
            format!(r#"{{"{}": 30, "{}": 30}}"#, lit[1], lit[3]),
        ),
    ];
    let mut args = judge_cmd(&["alpha", "--explain"]);
    args.extend(["--config".into(), timeout_config(&lib, 2000)]);
    let started = Instant::now();
    let answer = search(&lib, &strs(&args), &env).ok().json();
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(ids(&answer), vec![lit[2], lit[0], lit[4], lit[1], lit[3]]);
    let judged: Vec<bool> = results(&answer)
        .iter()
        .map(|r| r["judged"] == true)
        .collect();
    assert_eq!(judged, vec![true, true, true, false, false]);
    assert!(results(&answer)[3]["probability"].is_null());
    let judge = &answer["explain"]["judge"];
    assert_eq!(judge["outcome"], "timeout");
    assert_eq!(judge["not_rated"], 2);
    assert!(judge["failure"].as_str().unwrap().contains(&format!(
        "rated {} of {} candidates within 2000 ms",
        lit.len() - 2,
        lit.len()
    )));
    assert_eq!(answer["ranker"], "judge");
}

#[test]
fn requests_run_concurrently_and_answers_may_come_in_any_order() {
    let lib = library();
    let lit = literal(&lib, &["alpha"]);
    let log = lib.path("judge.log");
    // The judge answers nothing until four requests wait, then the last asked first:
    // a search that sent one at a time would wait for ever.
    let rated: Vec<(i64, f64)> = lit
        .iter()
        .enumerate()
        .map(|(i, id)| (*id, 0.7 + 0.01 * i as f64))
        .collect();
    let env = [
        ratings(&rated),
        ("FAKE_JUDGE_HOLD", "4".to_string()),
        ("FAKE_JUDGE_LOG", log.display().to_string()),
    ];
    let config = lib.path("c.toml");
    std::fs::write(&config, "[judge]\nconcurrency = 4\ntimeout_ms = 20000\n").unwrap();
    let mut args = judge_cmd(&["alpha", "--explain"]);
    args.extend(["--config".into(), config.display().to_string()]);
    let answer = search(&lib, &strs(&args), &env).ok().json();
    let mut want: Vec<i64> = lit.clone();
    want.reverse();
    assert_eq!(ids(&answer), want, "ratings rise along the literal order");
    assert_eq!(answer["explain"]["judge"]["outcome"], "rated");
    let (requests, _) = logged(&log);
    let most = requests
        .iter()
        .map(|r| r["waiting"].as_i64().unwrap())
        .max();
    assert_eq!(most, Some(4));
    // Never more waiting than the concurrency allows.
    let _ = std::fs::remove_file(&log);
    std::fs::write(&config, "[judge]\nconcurrency = 2\ntimeout_ms = 20000\n").unwrap();
    let env = [
        ratings(&rated),
        ("FAKE_JUDGE_HOLD", "2".to_string()),
        ("FAKE_JUDGE_LOG", log.display().to_string()),
    ];
    let answer = search(&lib, &strs(&args), &env).ok().json();
    assert_eq!(ids(&answer), want);
    let (requests, _) = logged(&log);
    assert_eq!(requests.len(), lit.len());
    assert!(requests.iter().all(|r| r["waiting"].as_i64().unwrap() <= 2));
}

/// A judge that fails: the literal answer, exit 0, ranker "literal" and the failure in
/// `--explain`.
fn falls_back(lib: &TempLib, command: &str, env: &[(&str, String)], timeout_ms: u64) -> String {
    let lit = literal(lib, &["alpha"]);
    let args = [
        "alpha",
        "--explain",
        "--judge-cmd",
        command,
        "--config",
        &timeout_config(lib, timeout_ms),
    ];
    let ran = search(lib, &args, env);
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let answer = ran.json();
    assert_eq!(ids(&answer), lit);
    assert_eq!(answer["ranker"], "literal");
    assert_eq!(answer["explain"]["ranker"], "literal");
    assert!(results(&answer).iter().all(|r| r["judged"] == false));
    answer["explain"]["judge"]["failure"]
        .as_str()
        .unwrap_or_else(|| panic!("no failure in {}", answer["explain"]))
        .to_string()
}

fn mode(m: &str) -> Vec<(&'static str, String)> {
    vec![ratings(&[(1, 0.9)]), ("FAKE_JUDGE_MODE", m.to_string())]
}

#[test]
fn a_judge_that_exits_gives_the_literal_answer() {
    let lib = library();
    let why = falls_back(&lib, &fake(), &mode("crash"), 10_000);
    assert!(why.contains("exit status: 3"), "{why}");
    assert!(why.contains("fake judge: crashing on purpose"), "{why}");
    let why = falls_back(&lib, &fake(), &mode("exit"), 10_000);
    assert!(why.contains("the judge ended (exit status: 0)"), "{why}");
}

#[test]
fn a_judge_that_hangs_is_killed_at_the_timeout() {
    let lib = library();
    let log = lib.path("judge.log");
    let mut env = mode("hang");
    env.push(("FAKE_JUDGE_LOG", log.display().to_string()));
    let started = Instant::now();
    let why = falls_back(&lib, &fake(), &env, 1000);
    assert!(started.elapsed() < Duration::from_secs(15));
    assert!(
        why.contains("rated 0 of 7 candidates within 1000 ms"),
        "{why}"
    );
    // The judge and the child it started are gone: killed with their group.
    let (_, pids) = logged(&log);
    assert_eq!(pids.len(), 2, "the judge and its child");
    for pid in pids {
        // Gone, or dead and waiting for init to reap it (the killed child's parent died);
        // a signal to another process of the group lands a moment later.
        let state = || {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let s = stat
                .rsplit(')')
                .next()
                .and_then(|s| s.split_whitespace().next());
            s.map(str::to_string)
        };
        let until = Instant::now() + Duration::from_secs(5);
        while !matches!(state().as_deref(), None | Some("Z") | Some("X")) && Instant::now() < until
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        let now = state();
        assert!(
            matches!(now.as_deref(), None | Some("Z") | Some("X")),
            "process {pid} outlived the search: state {now:?}"
        );
    }
}

#[test]
fn a_judge_that_prints_garbage_or_impossible_answers_is_not_believed() {
    let lib = library();
    let why = falls_back(&lib, &fake(), &mode("garbage"), 10_000);
    assert!(
        why.contains("\"this is not JSON\", which is not a JSON object"),
        "{why}"
    );
    let why = falls_back(&lib, &fake(), &mode("range"), 10_000);
    assert!(why.contains("1.5, outside 0 to 1"), "{why}");
    let why = falls_back(&lib, &fake(), &mode("unknown-id"), 10_000);
    assert!(why.contains("which is not waiting for an answer"), "{why}");
    // A line that never ends is read no further than its limit.
    let endless = "sh -c 'head -c 3000000 /dev/zero | tr \"\\0\" x; exec sleep 30'";
    let why = falls_back(&lib, endless, &[], 10_000);
    assert!(
        why.contains("an answer line longer than 1 MiB, its limit"),
        "{why}"
    );
}

#[test]
fn a_missing_judge_gives_the_literal_answer() {
    let lib = library();
    let missing = lib.path("no-such-judge");
    let why = falls_back(&lib, &missing.display().to_string(), &[], 10_000);
    assert!(why.contains("cannot start the judge"), "{why}");
    assert!(why.contains("No such file or directory"), "{why}");
}

#[test]
fn judge_settings_are_checked_like_the_others() {
    let lib = library();
    for (text, needle) in [
        (
            "[judge]\nthreshold = 1.5\n",
            "judge.threshold must be from 0 to 1, got 1.5",
        ),
        (
            "[judge]\nfloor = -0.1\n",
            "judge.floor must be from 0 to 1, got -0.1",
        ),
        (
            "[judge]\nfloor = 0.8\n",
            "judge.floor must be at most the threshold 0.7, got 0.8",
        ),
        (
            "[judge]\ntimeout_ms = 0\n",
            "judge.timeout_ms must be a whole number from 1 to 600000, got 0",
        ),
        (
            "[judge]\nshortlist = 0\n",
            "judge.shortlist must be a whole number from 1 to 10000",
        ),
        (
            "[judge]\nconcurrency = 1000\n",
            "judge.concurrency must be a whole number from 1 to 256",
        ),
        (
            "[judge]\ncommand = \"\"\n",
            "judge.command: the command is empty",
        ),
        (
            "[judge]\ncommand = \"python3 'unclosed\"\n",
            "judge.command: cannot split",
        ),
        ("[judge]\ncomand = \"x\"\n", "unknown field `comand`"),
    ] {
        let config = lib.path("bad.toml");
        std::fs::write(&config, text).unwrap();
        lib.run(&["--config", config.to_str().unwrap(), "search", "alpha"])
            .fails_with(needle);
    }
    lib.run(&["search", "alpha", "--judge-cmd", "  "])
        .fails_with("--judge-cmd: the command is empty");
    lib.run(&["search", "alpha", "--judge-cmd", "x", "--no-judge"])
        .fails_with("cannot be used with");
}

#[test]
fn eval_compares_the_literal_and_the_judged_answers() {
    let lib = library();
    let cases = lib.path("cases.jsonl");
    let lit = literal(&lib, &["alpha", "--now", "2025-03-01T00:00:00Z"]);
    // Literal search ranks 6 below others; the judge puts it first.
    std::fs::write(
        &cases,
        r#"{"id": "a", "query": "alpha", "now": "2025-03-01T00:00:00Z", "expect": [6]}"#,
    )
    .unwrap();
    let env = [ratings(&[(6, 0.9), (1, 0.6)])];
    let mut cmd = lib.command();
    let out = cmd
        .args([
            "--json",
            "eval",
            cases.to_str().unwrap(),
            "--judge-cmd",
            &fake(),
        ])
        .args(["--set", "judge=off,on", "--set", "judge.threshold=0.5,0.7"])
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let variants = doc["variants"].as_array().unwrap();
    // A judge that answers: no case fell back, and nothing to warn of.
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    for v in variants {
        assert_eq!(v["summary"]["fell_back"], 0, "{v}");
        assert_eq!(v["cases"][0]["fell_back"], Value::Null, "{v}");
    }
    let labels: Vec<&str> = variants
        .iter()
        .map(|v| v["label"].as_str().unwrap())
        .collect();
    assert_eq!(
        labels,
        [
            "judge=off judge.threshold=0.5",
            "judge=off judge.threshold=0.7",
            "judge=on judge.threshold=0.5",
            "judge=on judge.threshold=0.7"
        ]
    );
    let shown = |i: usize| -> Vec<i64> {
        variants[i]["cases"][0]["shown"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect()
    };
    let rank6 = lit.iter().position(|id| *id == 6).unwrap() + 1;
    assert!(rank6 > 1);
    assert_eq!(shown(0), lit);
    assert_eq!(shown(1), lit);
    assert_eq!(shown(2), vec![6, 1]);
    assert_eq!(shown(3), vec![6]);
    assert_eq!(variants[0]["summary"]["mrr"], 1.0 / rank6 as f64);
    assert_eq!(variants[3]["summary"]["mrr"], 1.0);
    assert_eq!(variants[3]["settings"]["judge"]["threshold"], 0.7);
    // A judge that hangs is killed at each search's timeout and started again for the
    // next: every case gets the literal answer.
    let log = lib.path("judge.log");
    let two = format!(
        "{}\n{}\n",
        r#"{"id": "a", "query": "alpha", "now": "2025-03-01T00:00:00Z", "expect": [6]}"#,
        r#"{"id": "b", "query": "alpha rollback", "now": "2025-03-01T00:00:00Z", "expect": [1]}"#
    );
    std::fs::write(&cases, two).unwrap();
    let out = lib
        .command()
        .args([
            "--json",
            "eval",
            cases.to_str().unwrap(),
            "--judge-cmd",
            &fake(),
        ])
        .args(["--config", &timeout_config(&lib, 500)])
        .env("FAKE_JUDGE_MODE", "hang")
        .env("FAKE_JUDGE_LOG", &log)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let shown: Vec<Value> = doc["variants"][0]["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["shown"].clone())
        .collect();
    let literal_b = literal(&lib, &["alpha rollback", "--now", "2025-03-01T00:00:00Z"]);
    assert_eq!(
        shown,
        vec![serde_json::json!(lit), serde_json::json!(literal_b)]
    );
    // Counted, not taken for a judge that agrees: each case says why, the summary how
    // many, and one warning names the first.
    let variant = &doc["variants"][0];
    assert_eq!(variant["summary"]["fell_back"], 2);
    for case in variant["cases"].as_array().unwrap() {
        let why = case["fell_back"].as_str().unwrap_or_default();
        assert!(
            why.starts_with("the judge rated 0 of ") && why.ends_with(" candidates within 500 ms"),
            "{case}"
        );
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].starts_with("recall: warning: defaults: 2 of 2 cases got the literal answer because a process failed; the first, a: the judge rated 0 of "),
        "{stderr}"
    );
    let (requests, pids) = logged(&log);
    assert_eq!(pids.len(), 4, "two judges, each with its child");
    assert!(!requests.is_empty());
    // judge=on needs a command; values are checked like the configuration's.
    lib.run(&["eval", cases.to_str().unwrap(), "--set", "judge=on"])
        .fails_with("--set judge=on: no judge command");
    lib.run(&[
        "eval",
        cases.to_str().unwrap(),
        "--set",
        "judge.threshold=2",
    ])
    .fails_with("--set judge.threshold must be from 0 to 1, got 2");
}
