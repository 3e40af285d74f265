//! `recall eval`'s session level (docs/evaluation.md#the-session-level): on a LoCoMo-format
//! file and a LongMemEval-format file written here, the figures eval reports equal the
//! ones this file computes from the ranked ids `--rankings` writes and from the sessions
//! it laid out itself; malformed LongMemEval files are refused with one line naming the
//! question and the field.

use crate::common::cli::TempLib;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The figures of one question, computed here: its sessions in rank order and its
/// evidence sessions. (hit@1, hit@5, hit@10, Recall@5, Recall@10, all@5, all@10, RR)
fn figures(ranked: &[String], evidence: &[String]) -> [f64; 8] {
    let rank = |e: &String| ranked.iter().position(|r| r == e).map(|p| p + 1);
    let within = |k: usize| {
        evidence
            .iter()
            .filter(|e| rank(e).is_some_and(|r| r <= k))
            .count()
    };
    let n = evidence.len() as f64;
    let hit = |k| if within(k) > 0 { 1.0 } else { 0.0 };
    let all = |k| if within(k) as f64 == n { 1.0 } else { 0.0 };
    let rr = evidence
        .iter()
        .filter_map(rank)
        .min()
        .map_or(0.0, |r| 1.0 / r as f64);
    [
        hit(1),
        hit(5),
        hit(10),
        within(5) as f64 / n,
        within(10) as f64 / n,
        all(5),
        all(10),
        rr,
    ]
}

const KEYS: [&str; 8] = [
    "hit_at_1",
    "hit_at_5",
    "hit_at_10",
    "recall_at_5",
    "recall_at_10",
    "evidence_recall_at_5",
    "evidence_recall_at_10",
    "mrr",
];

/// The mean of each figure over `questions`, compared with eval's summary.
fn assert_summary(summary: &Value, questions: &[[f64; 8]], what: &str) {
    assert_eq!(summary["questions"], questions.len(), "{what}: {summary}");
    for (i, key) in KEYS.iter().enumerate() {
        let mean = questions.iter().map(|q| q[i]).sum::<f64>() / questions.len() as f64;
        let got = summary[key].as_f64().unwrap();
        assert!(
            (got - mean).abs() < 1e-12,
            "{what} {key}: eval says {got}, computed {mean}"
        );
    }
}

fn lines(path: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// Twelve sessions of three turns, each of its own subject; the garden comes back in the
/// first eight, with a different companion each time, so that a question about it ranks
/// its session among others.
fn conversation() -> Value {
    let subjects = [
        "pottery wheel",
        "kitten named Miso",
        "marathon training",
        "violin lessons",
        "sourdough starter",
        "camping trip to the lake",
        "chess tournament",
        "new apartment lease",
        "birthday party for Leo",
        "broken bicycle chain",
        "jazz concert tickets",
        "volunteer shift at the shelter",
    ];
    let companions = [
        "my cousin",
        "my neighbour",
        "my sister",
        "my boss",
        "my dentist",
        "my uncle",
        "my landlord",
        "my coach",
    ];
    let mut conv = serde_json::Map::new();
    conv.insert("speaker_a".into(), json!("Ana"));
    conv.insert("speaker_b".into(), json!("Ben"));
    for (s, subject) in subjects.iter().enumerate() {
        let n = s + 1;
        let mut turns = vec![
            json!({"speaker": "Ana", "dia_id": format!("D{n}:1"), "text": format!("Guess what, I finally started the {subject}.")}),
            json!({"speaker": "Ben", "dia_id": format!("D{n}:2"), "text": "That is great news, tell me more."}),
        ];
        if s < companions.len() {
            turns.push(json!({"speaker": "Ana", "dia_id": format!("D{n}:3"), "text": format!("Also planted garden tomatoes with {}.", companions[s])}));
        }
        conv.insert(format!("session_{n}"), json!(turns));
        conv.insert(
            format!("session_{n}_date_time"),
            json!(format!("10:00 am on {n} May, 2023")),
        );
    }
    let qa = json!([
        {"question": "Who planted garden tomatoes with Ana's sister?", "evidence": ["D3:3"], "category": 1},
        {"question": "When did Ana plant garden tomatoes with her landlord?", "evidence": ["D7:3"], "category": 2},
        {"question": "What did Ana start with the pottery wheel and the violin lessons?", "evidence": ["D1:1", "D4:1"], "category": 1},
        {"question": "Which hobbies did Ana take up: sourdough, chess, jazz?", "evidence": ["D5:1", "D7:1", "D11:1"], "category": 3},
        {"question": "What is Ben's favourite colour?", "evidence": ["D2:2"], "category": 4},
        {"question": "Did Ana adopt the kitten named Miso from the shelter?", "evidence": ["D2:1", "D12:1"], "category": 5},
        {"question": "What did Ana plant with her coach?", "evidence": ["D8:3"], "category": 5}
    ]);
    json!([{"sample_id": "conv-a", "conversation": conv, "qa": qa}])
}

#[test]
fn locomo_session_figures_equal_an_independent_count() {
    session_figures(false);
}

#[test]
fn locomo_session_figures_with_one_item_per_session() {
    session_figures(true);
}

/// The LoCoMo-format conversation imported one item per turn, or per session
/// (`--per-session`), and evaluated; each session-level figure computed again here.
fn session_figures(per_session: bool) {
    let doc = conversation();
    let lib = TempLib::init(None);
    let file = lib.path("locomo.json");
    std::fs::write(&file, doc.to_string()).unwrap();
    let cases = lib.path("cases.jsonl");
    let mut import = vec![
        "import-locomo",
        file.to_str().unwrap(),
        "--cases",
        cases.to_str().unwrap(),
    ];
    if per_session {
        import.push("--per-session");
    }
    let imported = lib.json(&import);
    // The ids an import into an empty library gives, in the file's order, and the
    // session of each, laid out here from the file: a turn's own id, or its session's.
    let mut session_of: BTreeMap<i64, String> = BTreeMap::new();
    let mut by_dia: BTreeMap<String, i64> = BTreeMap::new();
    let mut id = 0;
    for n in 1..=12 {
        if per_session {
            id += 1;
            session_of.insert(id, format!("session_{n}"));
        }
        for turn in doc[0]["conversation"][format!("session_{n}")]
            .as_array()
            .unwrap()
        {
            if !per_session {
                id += 1;
                session_of.insert(id, format!("session_{n}"));
            }
            by_dia.insert(turn["dia_id"].as_str().unwrap().to_string(), id);
        }
    }
    assert_eq!(imported["items"], id, "{imported}");
    let rankings = lib.path("rankings.jsonl");
    let out = lib.json(&[
        "eval",
        cases.to_str().unwrap(),
        "--rankings",
        rankings.to_str().unwrap(),
    ]);
    let variant = &out["variants"][0];
    let ranked = lines(&rankings);
    let qa = doc[0]["qa"].as_array().unwrap();
    assert_eq!(ranked.len(), qa.len());
    let (mut main, mut adversarial) = (Vec::new(), Vec::new());
    for ((q, line), case) in qa
        .iter()
        .zip(&ranked)
        .zip(variant["cases"].as_array().unwrap())
    {
        assert_eq!(line["id"], case["id"]);
        let items: Vec<i64> = line["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        // The ranked items are the answer the item-level figures read: its first 10
        // are what was shown.
        assert_eq!(
            json!(items.iter().take(10).collect::<Vec<_>>()),
            case["shown"]
        );
        let mut sessions: Vec<String> = Vec::new();
        for i in &items {
            let s = session_of[i].clone();
            if !sessions.contains(&s) {
                sessions.push(s);
            }
        }
        assert_eq!(json!(sessions), line["sessions"], "{}", line["id"]);
        let mut evidence: Vec<String> = Vec::new();
        for d in q["evidence"].as_array().unwrap() {
            let s = session_of[&by_dia[d.as_str().unwrap()]].clone();
            if !evidence.contains(&s) {
                evidence.push(s);
            }
        }
        assert_eq!(
            strings(&line["evidence"])
                .iter()
                .collect::<std::collections::BTreeSet<_>>(),
            evidence.iter().collect(),
        );
        let f = figures(&sessions, &evidence);
        if q["category"] == 5 {
            adversarial.push(f);
        } else {
            main.push(f);
        }
    }
    let level = &variant["session_level"];
    assert_summary(&level["main"], &main, "LoCoMo, adversarial aside");
    assert_eq!(level["apart"].as_object().unwrap().len(), 1, "{level}");
    assert_summary(
        &level["apart"]["adversarial"],
        &adversarial,
        "LoCoMo, adversarial",
    );
    // The set is not one every figure passes or fails: each of these is neither 0 nor 1.
    for key in ["hit_at_1", "recall_at_5", "mrr"] {
        let x = level["main"][key].as_f64().unwrap();
        assert!(x > 0.0 && x < 1.0, "{key} = {x}: the set no longer tells");
    }
    // The text report names both levels and sets the adversarial questions apart.
    let text = lib.run(&["eval", cases.to_str().unwrap()]).ok().stdout;
    assert!(
        text.contains(
            "session level: a session ranks where its best item ranks; adversarial apart"
        ),
        "{text}"
    );
    assert!(text.contains("\nadversarial, apart:\n"), "{text}");
}

#[test]
fn cases_with_sessions_that_do_not_hold_the_evidence_are_refused() {
    let lib = TempLib::init(None);
    let write = |name: &str, text: &str| {
        let p = lib.path(name);
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    };
    for (text, needle) in [
        (
            r#"{"query": "x", "expect": [9], "sessions": {"s1": [1, 4]}}"#,
            "expected id 9 is in none of the case's sessions",
        ),
        (
            r#"{"query": "x", "expect": [2], "sessions": {"s1": [4, 1]}}"#,
            "session \"s1\": write [first id, last id]",
        ),
        (
            r#"{"prompt": "x", "expect": [2], "sessions": {"s1": [1, 4]}}"#,
            "sessions are for a search case",
        ),
    ] {
        let file = write("bad.jsonl", text);
        lib.run(&["eval", &file]).fails_with(needle);
    }
    // An items line renumbers ids one by one: no ranges after it.
    write(
        "items.jsonl",
        r#"{"source": "s", "title": "one", "occurred_at": "2025-01-01"}"#,
    );
    let file = write(
        "labeled.jsonl",
        "{\"items\": \"items.jsonl\"}\n{\"query\": \"one\", \"expect\": [1], \"sessions\": {\"s1\": [1, 1]}}\n",
    );
    lib.run(&["eval", &file])
        .fails_with("line 2: a case with sessions takes no items line");
}

/// A haystack session as written here: its id, its date, its turns (role, text).
type Session = (&'static str, &'static str, Vec<(&'static str, String)>);

/// A LongMemEval-format question; a user turn of an evidence session says `has_answer`.
fn question(id: &str, kind: &str, asked: &str, sessions: &[Session], evidence: &[&str]) -> Value {
    json!({
        "question_id": id,
        "question_type": kind,
        "question": asked,
        "answer": "whatever the reader says",
        "question_date": "2023/06/30 (Fri) 18:00",
        "haystack_session_ids": sessions.iter().map(|s| s.0).collect::<Vec<_>>(),
        "haystack_dates": sessions.iter().map(|s| s.1).collect::<Vec<_>>(),
        "haystack_sessions": sessions.iter().map(|s| s.2.iter().map(|(role, text)| {
            let mut t = json!({"role": role, "content": text});
            if evidence.contains(&s.0) && *role == "user" {
                t["has_answer"] = json!(true);
            }
            t
        }).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "answer_session_ids": evidence,
    })
}

fn haystack() -> Vec<Session> {
    let chat = |user: &str, assistant: &str| {
        vec![
            ("user", user.to_string()),
            ("assistant", assistant.to_string()),
        ]
    };
    // One long answer whose last words (past the first piece) name the subject.
    let long = format!(
        "{} In the end, the quilting workshop in Porto was the highlight.",
        "Here are some general travel tips for the summer. ".repeat(30)
    );
    vec![
        (
            "s_a",
            "2023/05/01 (Mon) 09:00",
            chat(
                "I bought a used kayak for the river trips.",
                "Kayaks need a dry bag.",
            ),
        ),
        (
            "s_b",
            "2023/05/03 (Wed) 10:30",
            chat(
                "My daughter started violin lessons on Saturdays.",
                "Violin is a lovely instrument.",
            ),
        ),
        (
            "s_c",
            "2023/05/08 (Mon) 20:15",
            chat("Can you suggest a summer trip?", &long),
        ),
        (
            "s_d",
            "2023/05/12 (Fri) 08:00",
            chat(
                "I switched my commute to the electric scooter.",
                "Scooters save time.",
            ),
        ),
        (
            "s_e",
            "2023/05/20 (Sat) 02:21",
            chat(
                "The kayak leaked, so I patched the kayak hull with epoxy.",
                "Epoxy works on kayak hulls.",
            ),
        ),
        (
            "s_f",
            "2023/06/02 (Fri) 14:45",
            chat(
                "We adopted a greyhound named Pixel.",
                "Greyhounds are gentle.",
            ),
        ),
        (
            "s_g",
            "2023/06/10 (Sat) 11:00",
            chat("Planning a dinner party.", "Keep the menu simple."),
        ),
    ]
}

fn longmemeval_file() -> Value {
    let h = haystack();
    json!([
        question(
            "q1",
            "single-session-user",
            "What is the name of the greyhound we adopted?",
            &h,
            &["s_f"]
        ),
        question(
            "q2",
            "multi-session",
            "What did I do with the kayak, and how did I patch the kayak hull?",
            &h,
            &["s_a", "s_e"]
        ),
        question(
            "q3",
            "single-session-assistant",
            "Which quilting workshop did you mention as the highlight?",
            &h,
            &["s_c"]
        ),
        question(
            "q4_abs",
            "single-session-user",
            "What lessons does my son take?",
            &h,
            &["s_b"]
        ),
        question(
            "q5",
            "knowledge-update",
            "Which bakery do I order croissants from?",
            &h,
            &["s_g"]
        ),
    ])
}

#[test]
fn longmemeval_questions_are_ranked_by_session() {
    let lib = TempLib::new();
    let doc = longmemeval_file();
    let file = lib.path("longmemeval_s.json");
    std::fs::write(&file, doc.to_string()).unwrap();
    let rankings = lib.path("rankings.jsonl");
    let out = lib.json(&[
        "eval",
        "--longmemeval",
        file.to_str().unwrap(),
        "--rankings",
        rankings.to_str().unwrap(),
    ]);
    assert_eq!(out["questions"], 5);
    let ranked = lines(&rankings);
    assert_eq!(ranked.len(), 5);
    let ids: Vec<&str> = doc[0]["haystack_session_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let (mut main, mut abstention) = (Vec::new(), Vec::new());
    for (q, line) in doc.as_array().unwrap().iter().zip(&ranked) {
        assert_eq!(line["id"], q["question_id"]);
        let sessions = strings(&line["sessions"]);
        // Each a session of the haystack, each once.
        assert!(sessions.iter().all(|s| ids.contains(&s.as_str())), "{line}");
        let mut once = sessions.clone();
        once.dedup();
        once.sort();
        once.dedup();
        assert_eq!(once.len(), sessions.len(), "{line}");
        let evidence = strings(&q["answer_session_ids"]);
        let f = figures(&sessions, &evidence);
        if q["question_id"].as_str().unwrap().ends_with("_abs") {
            abstention.push(f);
        } else {
            main.push(f);
        }
    }
    // What the words decide: the greyhound's session first; both kayak sessions in the
    // first two; the workshop named past the first 1,000 characters of a long answer
    // found; the bakery, said nowhere, not found.
    assert_eq!(strings(&ranked[0]["sessions"])[0], "s_f");
    let kayak: Vec<String> = strings(&ranked[1]["sessions"])
        .into_iter()
        .take(2)
        .collect();
    assert!(
        kayak.contains(&"s_a".to_string()) && kayak.contains(&"s_e".to_string()),
        "{kayak:?}"
    );
    assert_eq!(strings(&ranked[2]["sessions"])[0], "s_c");
    assert!(!strings(&ranked[4]["sessions"]).contains(&"s_g".to_string()));
    let level = &out["variants"][0]["session_level"];
    assert_summary(&level["main"], &main, "LongMemEval, abstention aside");
    assert_eq!(level["apart"].as_object().unwrap().len(), 1, "{level}");
    assert_summary(
        &level["apart"]["abstention"],
        &abstention,
        "LongMemEval, abstention",
    );
    // Per question type too.
    let per_tag = &level["per_tag"];
    assert_eq!(per_tag["single-session-user"]["questions"], 2);
    assert_eq!(per_tag["abstention"]["questions"], 1);
    assert_eq!(per_tag["knowledge-update"]["hit_at_10"], 0.0);
    // The text report, without a library: both tables.
    let text = lib
        .run(&["eval", "--longmemeval", file.to_str().unwrap()])
        .ok()
        .stdout;
    assert!(text.starts_with("5 questions of "), "{text}");
    assert!(text.contains("\nabstention, apart:\n"), "{text}");
}

#[test]
fn a_malformed_longmemeval_file_is_refused_naming_the_question_and_field() {
    let lib = TempLib::new();
    let good = longmemeval_file();
    let mutate = |i: usize, f: &dyn Fn(&mut Value)| {
        let mut d = good.clone();
        f(&mut d[i]);
        d.to_string()
    };
    let cases: Vec<(String, &str)> = vec![
        (json!({"questions": []}).to_string(), "a JSON array of questions"),
        ("[]".to_string(), "holds no questions"),
        (good.to_string()[..200].to_string(), "EOF"),
        (mutate(2, &|q| { q.as_object_mut().unwrap().remove("haystack_dates"); }), "question [2] (\"q3\"): haystack_dates is missing or not a list"),
        (mutate(1, &|q| q["haystack_session_ids"].as_array_mut().unwrap().truncate(3)), "question [1] (\"q2\"): haystack_session_ids (3), haystack_dates (7) and haystack_sessions (7) must be as long as each other"),
        (mutate(3, &|q| q["haystack_sessions"][4][1] = json!({"role": "assistant"})), "question [3] (\"q4_abs\"): haystack_sessions[4][1]: each turn is {\"role\": \"user\" or \"assistant\", \"content\": TEXT}"),
        (mutate(0, &|q| q["haystack_dates"][2] = json!("sometime in May")), "question [0] (\"q1\"): haystack_dates[2] \"sometime in May\" is not a date like"),
        (mutate(4, &|q| q["question_id"] = json!(5)), "question [4]: question_id is missing or not text"),
        (mutate(4, &|q| q["answer_session_ids"] = json!("s_g")), "question [4] (\"q5\"): answer_session_ids is missing or not a list"),
        (mutate(0, &|q| q["question"] = json!(null)), "question [0] (\"q1\"): question is missing or not text"),
    ];
    let rankings = lib.path("rankings.jsonl");
    for (text, needle) in cases {
        let file = lib.path("bad.json");
        std::fs::write(&file, &text).unwrap();
        lib.run(&[
            "eval",
            "--longmemeval",
            file.to_str().unwrap(),
            "--rankings",
            rankings.to_str().unwrap(),
        ])
        .fails_with(needle);
        assert!(!rankings.exists(), "{needle}: a rankings file was written");
    }
}

#[test]
fn a_longmemeval_file_is_read_a_question_at_a_time_within_a_limit() {
    let lib = TempLib::new();
    let doc = longmemeval_file();
    // A byte-order mark at the start is dropped, as every JSON input's is.
    let marked = lib.path("marked.json");
    std::fs::write(&marked, format!("\u{feff}{doc}")).unwrap();
    let out = lib.json(&["eval", "--longmemeval", marked.to_str().unwrap()]);
    assert_eq!(out["questions"], 5, "{out}");
    // The limit is on each question (what comes before it included), not on the file:
    // at a limit above the largest question the whole file is read; space before the
    // second question past the limit stops there, naming it.
    let largest = doc
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q.to_string().len())
        .max()
        .unwrap();
    let limit = (largest + 100).to_string();
    assert!(
        doc.to_string().len() > largest + 100,
        "the file is longer than the limit"
    );
    let run = |path: &std::path::Path| {
        let mut cmd = lib.command();
        cmd.env("RECALL_TEST_QUESTION_LIMIT", &limit).args([
            "eval",
            "--longmemeval",
            path.to_str().unwrap(),
        ]);
        crate::common::cli::Ran::from(cmd.output().unwrap())
    };
    let whole = lib.path("whole.json");
    std::fs::write(&whole, doc.to_string()).unwrap();
    let ran = run(&whole).ok();
    assert!(ran.stdout.starts_with("5 questions of "), "{}", ran.stdout);
    let qs = doc.as_array().unwrap();
    let padded = format!("[{},{}{}]", qs[0], " ".repeat(largest + 200), qs[1]);
    let file = lib.path("padded.json");
    std::fs::write(&file, padded).unwrap();
    run(&file).fails_with(&format!(
        "question [1] is over {limit} bytes (one of LongMemEval is a few MiB): is this a LongMemEval file?"
    ));
}
