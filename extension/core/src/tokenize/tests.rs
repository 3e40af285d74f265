use std::ops::ControlFlow::{self, Break, Continue};
use std::time::{Duration, Instant};

use proptest::prelude::*;

use super::*;
use crate::fold::fold;

/// An owned token, for comparing.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Tok {
    text: String,
    start: usize,
    end: usize,
    colocated: bool,
}

fn collect(input: &str, mode: Mode) -> Vec<Tok> {
    let mut out = Vec::new();
    let flow = tokenize(input, mode, &mut |t| {
        out.push(Tok {
            text: t.text.to_string(),
            start: t.start,
            end: t.end,
            colocated: t.colocated,
        });
        Continue(())
    });
    assert!(flow.is_continue());
    out
}

/// The texts at each position, as FTS5 numbers them: a colocated token joins the position
/// of the token before it.
fn positions(input: &str, mode: Mode) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    for t in collect(input, mode) {
        match out.last_mut() {
            Some(last) if t.colocated => last.push(t.text),
            _ => {
                assert!(!t.colocated, "the first token is colocated: {input:?}");
                out.push(vec![t.text]);
            }
        }
    }
    out
}

fn terms(input: &str, mode: Mode) -> Vec<String> {
    collect(input, mode).into_iter().map(|t| t.text).collect()
}

/// Where an FTS5 phrase query of `query` matches `doc`: the positions of the document at
/// which each position of the query finds one of its alternatives at the same distance.
fn match_starts(doc: &str, query: &str) -> Vec<usize> {
    let d = positions(doc, Mode::Document);
    let q = positions(query, Mode::Query);
    if q.is_empty() {
        return Vec::new();
    }
    (0..d.len())
        .filter(|&p| {
            q.iter().enumerate().all(|(j, alternatives)| {
                d.get(p + j)
                    .is_some_and(|held| alternatives.iter().any(|a| held.contains(a)))
            })
        })
        .collect()
}

fn finds(doc: &str, query: &str) -> bool {
    !match_starts(doc, query).is_empty()
}

/// What `highlight(t, 0, '[', ']')` marks for a phrase query: from the first token of the
/// first matched position to the end of the first token of the last, read from the
/// non-colocated tokens as FTS5's highlight reads them (overlapping matches merged).
fn highlight(doc: &str, query: &str) -> String {
    let primary: Vec<Tok> = collect(doc, Mode::Document)
        .into_iter()
        .filter(|t| !t.colocated)
        .collect();
    let len = positions(query, Mode::Query).len();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for p in match_starts(doc, query) {
        let (s, e) = (primary[p].start, primary[p + len - 1].end);
        match spans.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => spans.push((s, e)),
        }
    }
    let mut out = String::new();
    let mut at = 0;
    for (s, e) in spans {
        out.push_str(&doc[at..s]);
        out.push('[');
        out.push_str(&doc[s..e]);
        out.push(']');
        at = e;
    }
    out.push_str(&doc[at..]);
    out
}

fn v(items: &[&[&str]]) -> Vec<Vec<String>> {
    items
        .iter()
        .map(|p| p.iter().map(|s| s.to_string()).collect())
        .collect()
}

// Words

#[test]
fn words_are_letters_and_digits_folded_like_recall_fold() {
    assert_eq!(
        terms("Canción ÑANDÚ über, Crème-Brûlée!", Mode::Query),
        ["cancion", "nandu", "uber", "creme", "brulee"]
    );
    assert_eq!(
        terms("Øre Łódź 2024 ΟΔΟΣ", Mode::Query),
        ["øre", "łodz", "2024", "οδοσ"]
    );
    // Decomposed accents fold away too; kana voicing and Indic vowel signs stay.
    assert_eq!(
        terms("Cancio\u{301}n डेटाबेस", Mode::Query),
        ["cancion", "डेटाबेस"]
    );
    // Every token of plain words is the fold of its own text (no plural here).
    let text = "Tiếng Việt İstanbul ılık µ ſ Ελλάδα Ёлка ǅemal";
    for t in collect(text, Mode::Document) {
        assert_eq!(t.text, fold(&text[t.start..t.end]), "{t:?}");
    }
}

#[test]
fn separators_are_everything_else() {
    assert_eq!(
        terms(
            "a+b=c; (d) [e] {f} <g> 'h' \"i\" j,k!l?m @n #o $p %q ^r &s *t |u ~v `w",
            Mode::Query
        ),
        [
            "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q",
            "r", "s", "t", "u", "v", "w"
        ]
    );
    assert_eq!(
        terms("   \t\n ... --- !!! 🎉", Mode::Query),
        Vec::<String>::new()
    );
    assert_eq!(terms("", Mode::Document), Vec::<String>::new());
    // NUL separates like a space.
    assert_eq!(terms("abc\0def", Mode::Query), ["abc", "def"]);
}

// Identifiers

#[test]
fn identifiers_split_into_parts_and_documents_join_them() {
    assert_eq!(
        positions("getUserName", Mode::Document),
        v(&[&["get", "getusername"], &["user"], &["name"]])
    );
    assert_eq!(
        positions("getUserName", Mode::Query),
        v(&[&["get"], &["user"], &["name"]])
    );
    for spelling in [
        "GetUserName",
        "get_user_name",
        "get-user-name",
        "GET_USER_NAME",
        "get.user.name",
    ] {
        assert_eq!(
            positions(spelling, Mode::Document),
            v(&[&["get", "getusername"], &["user"], &["name"]]),
            "{spelling}"
        );
    }
    assert_eq!(
        positions("get user name", Mode::Document),
        v(&[&["get"], &["user"], &["name"]])
    );
}

#[test]
fn every_spelling_of_an_identifier_finds_every_other() {
    let spellings = [
        "getUserName",
        "GetUserName",
        "get_user_name",
        "get-user-name",
        "GET_USER_NAME",
        "get user name",
    ];
    for doc in spellings {
        for query in spellings {
            assert!(
                finds(&format!("we call {doc}() here"), query),
                "{query} in {doc}"
            );
        }
        // The phrase, one part, and the spelling no query can split.
        assert!(finds(doc, "get user name"), "{doc}");
        assert!(finds(doc, "user"), "{doc}");
        assert!(finds(doc, "Name"), "{doc}");
    }
    for doc in &spellings[..5] {
        assert!(finds(doc, "getusername"), "{doc}");
    }
    // Parts in another order are another phrase.
    assert!(!finds("getUserName", "name user"));
    assert!(!finds("get the user name", "getUserName"));
}

#[test]
fn identifier_boundaries() {
    let q = |s| terms(s, Mode::Query);
    assert_eq!(q("HTTPServer"), ["http", "server"]);
    assert_eq!(q("XMLHttpRequest"), ["xml", "http", "request"]);
    assert_eq!(q("getHTTPResponse"), ["get", "http", "response"]);
    assert_eq!(q("IOError"), ["io", "error"]);
    assert_eq!(q("monthly_revenue"), ["monthly", "revenue"]);
    assert_eq!(q("os.path.join"), ["os", "path", "join"]);
    assert_eq!(q("src/importer.rs"), ["src", "importer", "rs"]);
    assert_eq!(q(r"C:\Users\dev"), ["c", "user", "dev"]);
    assert_eq!(
        q("std::collections::HashMap"),
        ["std", "collection", "hash", "map"]
    );
    assert_eq!(q("__init__"), ["init"]);
    assert_eq!(q("ECONNREFUSED"), ["econnrefused"]);
    // Letters and digits part.
    assert_eq!(q("utf8"), ["utf", "8"]);
    assert_eq!(q("v2Beta3"), ["v", "2", "beta", "3"]);
    assert_eq!(q("base64Encode"), ["base", "64", "encode"]);
    assert_eq!(q("E0308"), ["e", "0308"]);
    // A capital run followed by one lowercase letter stays whole: acronym plurals lose
    // their s, and IPv4 splits as ipv4 does.
    assert_eq!(q("URLs IDs APIs CPUs"), ["url", "id", "api", "cpu"]);
    assert_eq!(q("userIDs"), ["user", "id"]);
    assert_eq!(q("IPv4"), ["ipv", "4"]);
    assert_eq!(q("ipv4"), ["ipv", "4"]);
    // Title-case letters start a word like capitals.
    assert_eq!(q("aǅb"), ["a", "ǆb"]);
}

#[test]
fn joiners_join_only_between_word_characters() {
    let d = |s| positions(s, Mode::Document);
    // A lone colon separates; a double one joins.
    assert_eq!(d("key:value"), v(&[&["key"], &["value"]]));
    assert_eq!(d("io::Error"), v(&[&["io", "ioerror"], &["error"]]));
    // Three joiners in a row, or a joiner at an edge, separate.
    assert_eq!(d("a...b"), v(&[&["a"], &["b"]]));
    assert_eq!(
        d("-v _private trailing_"),
        v(&[&["v"], &["private"], &["trailing"]])
    );
    assert_eq!(d("a - b"), v(&[&["a"], &["b"]]));
    // Spaces around a slash: words, not a path.
    assert_eq!(d("ci/cd"), v(&[&["ci", "cicd"], &["cd"]]));
}

#[test]
fn joined_forms_cover_runs_of_letters_only() {
    let d = |s| positions(s, Mode::Document);
    // Digits split a query word too, so no joined form spans them.
    assert_eq!(d("utf8"), v(&[&["utf"], &["8"]]));
    assert_eq!(d("127.0.0.1"), v(&[&["127"], &["0"], &["0"], &["1"]]));
    assert_eq!(
        d("sha256_sum_file"),
        v(&[&["sha"], &["256"], &["sum", "sumfile"], &["file"]])
    );
    assert_eq!(
        d("0xDEADBEEF"),
        v(&[&["0"], &["x", "xdeadbeef"], &["deadbeef"]])
    );
    assert!(finds("0xDEADBEEF", "0xdeadbeef"));
    // The joined form is folded and meets its plural as a whole.
    assert_eq!(d("userNames"), v(&[&["user", "username"], &["name"]]));
    assert!(finds("userNames", "usernames") && finds("userNames", "username"));
    assert!(finds("userIDs", "userid") && finds("user_id", "userIDs"));
    // Lowercase queries of brand-like names find their capitalised spelling.
    for (doc, query) in [
        ("OAuth", "oauth"),
        ("iPhone", "iphone"),
        ("macOS", "macos"),
        ("GitHub", "github"),
        ("JavaScript", "javascript"),
        ("node.js", "nodejs"),
        ("e-mail", "email"),
    ] {
        assert!(finds(doc, query), "{query} in {doc}");
        assert!(finds(doc, doc), "{doc}");
    }
}

// Plurals

#[test]
fn plurals_meet_their_singulars_in_documents_and_queries() {
    for (a, b) in [
        ("migrations", "migration"),
        ("queries", "query"),
        ("boxes", "box"),
        ("Migrations", "MIGRATION"),
        ("classes", "class"),
        ("caches", "cache"),
        ("migraciones", "migración"),
    ] {
        assert!(finds(a, b) && finds(b, a), "{a} / {b}");
    }
    for word in [
        "status", "class", "analysis", "bus", "gas", "this", "was", "has", "its",
    ] {
        assert_eq!(terms(word, Mode::Query), [word]);
    }
    // Applied to identifier parts.
    assert_eq!(terms("userNames", Mode::Query), ["user", "name"]);
    assert!(finds("fetch_user_names()", "user name"));
    assert!(finds("fetchUserName", "user names"));
    // Not to other scripts, nor to words with letters beyond a to z.
    assert_eq!(
        terms("straßes Ελλάδας", Mode::Query),
        ["straßes", "ελλάδασ"]
    );
}

// CJK

#[test]
fn cjk_runs_give_characters_and_pairs() {
    assert_eq!(
        positions("用户名", Mode::Document),
        v(&[&["用", "用户"], &["户", "户名"], &["名"]])
    );
    assert_eq!(
        positions("用户名", Mode::Query),
        v(&[&["用户"], &["户名"], &["名"]])
    );
    assert_eq!(positions("用户", Mode::Query), v(&[&["用户"], &["户"]]));
    assert_eq!(positions("用", Mode::Query), v(&[&["用"]]));
    // Kana, the prolonged sound mark, Hangul; punctuation ends a run.
    assert_eq!(
        terms("データ。한국", Mode::Query),
        ["デー", "ータ", "タ", "한국", "국"]
    );
    // A voicing mark written apart stays with its kana.
    assert_eq!(terms("タ\u{3099}イ", Mode::Query), ["タ\u{3099}イ", "イ"]);
    // Latin next to CJK: separate tokens, consecutive positions.
    assert_eq!(terms("用户ID", Mode::Query), ["用户", "户", "id"]);
}

#[test]
fn cjk_queries_of_any_length_find_their_text() {
    assert!(finds("用户名", "用户"));
    assert!(finds("用户名", "用"));
    assert!(finds("用户名", "名"));
    assert!(finds("用户名", "户名"));
    assert!(finds("用户名", "用户名"));
    assert!(finds("请输入用户名和密码", "用户名"));
    assert!(finds("全文検索エンジンを使う", "検索"));
    assert!(finds("全文検索エンジンを使う", "検索エンジン"));
    assert!(finds("데이터베이스 연결 실패", "데이터"));
    // Not what does not occur in that order.
    assert!(!finds("用户名", "名用"));
    assert!(!finds("用户名", "用名"));
    assert!(!finds("用户 名", "用户名"));
    // Phrases go on past a run as in the document.
    assert!(finds("用户 login 失败", "用户 login"));
    assert!(finds("用户 login 失败", "户 login"));
    assert!(!finds("用户名 login", "用户 login"));
}

// Offsets and highlights

#[test]
fn first_tokens_of_positions_are_exactly_their_text() {
    let doc = "call getUserName(); 用户名 os.path.join Canción IDs";
    let texts: Vec<&str> = collect(doc, Mode::Document)
        .into_iter()
        .filter(|t| !t.colocated)
        .map(|t| &doc[t.start..t.end])
        .collect();
    assert_eq!(
        texts,
        [
            "call", "get", "User", "Name", "用", "户", "名", "os", "path", "join", "Canción", "IDs"
        ]
    );
}

#[test]
fn highlights_mark_the_matched_text() {
    assert_eq!(
        highlight("we call getUserName() here", "user name"),
        "we call get[UserName]() here"
    );
    assert_eq!(
        highlight("see src/importer.rs", "importer.rs"),
        "see src/[importer.rs]"
    );
    assert_eq!(
        highlight("请输入用户名和密码", "用户名"),
        "请输入[用户名]和密码"
    );
    assert_eq!(
        highlight("请输入用户名和密码", "户"),
        "请输入用[户]名和密码"
    );
    assert_eq!(
        highlight("Las migraciones fallaron", "migración"),
        "Las [migraciones] fallaron"
    );
    // The joined form matches at its first part, which is what gets marked.
    assert_eq!(highlight("getUserName", "getusername"), "[get]UserName");
}

// Robustness

#[test]
fn invalid_utf8_separates_words_and_keeps_byte_offsets() {
    let input = b"abc\xffdef \xe7\x94\xa8\xe6\x88\xb7\xc3 caf\xc3\xa9";
    let mut got = Vec::new();
    let flow = tokenize_bytes(input, Mode::Document, &mut |t| {
        got.push((t.text.to_string(), t.start, t.end, t.colocated));
        Continue(())
    });
    assert!(flow.is_continue());
    assert_eq!(
        got,
        [
            ("abc".to_string(), 0, 3, false),
            ("def".to_string(), 4, 7, false),
            ("用".to_string(), 8, 11, false),
            ("用户".to_string(), 8, 14, true),
            ("户".to_string(), 11, 14, false),
            ("cafe".to_string(), 16, 21, false),
        ]
    );
    // Valid UTF-8 through either entry gives the same tokens.
    let text = "getUserName 用户名 café";
    let mut from_bytes = Vec::new();
    let _ = tokenize_bytes(text.as_bytes(), Mode::Document, &mut |t| {
        from_bytes.push(Tok {
            text: t.text.to_string(),
            start: t.start,
            end: t.end,
            colocated: t.colocated,
        });
        Continue(())
    });
    assert_eq!(from_bytes, collect(text, Mode::Document));
}

#[test]
fn long_tokens_are_cut_and_still_meet() {
    let word = "x".repeat(1 << 20);
    let doc = format!("a {word} b");
    let toks = collect(&doc, Mode::Document);
    assert_eq!(toks.len(), 3);
    assert_eq!(toks[1].text, "x".repeat(MAX_TOKEN_BYTES));
    assert_eq!((toks[1].start, toks[1].end), (2, 2 + word.len()));
    assert!(finds(&doc, &format!("{word}y")));
    // Cut at a character boundary: 'é' is two bytes.
    let accented = "é".repeat(1000);
    let toks = collect(&accented, Mode::Query);
    assert_eq!(toks[0].text, "e".repeat(MAX_TOKEN_BYTES));
    let greek = "α".repeat(1000);
    assert_eq!(
        collect(&greek, Mode::Query)[0].text,
        "α".repeat(MAX_TOKEN_BYTES / 2)
    );
    // An identifier of a million parts: parts one by one, one joined form, cut.
    let ident = "aB".repeat(1 << 19);
    let toks = collect(&ident, Mode::Document);
    // `a`, then `Ba` half a million times, then the last `B`, and the joined form.
    assert_eq!(toks.len(), (1 << 19) + 2);
    assert!(toks[1].colocated && toks[1].text.len() == MAX_TOKEN_BYTES);
    // A base character with a megabyte of marks.
    let marks = format!("用{}户", "\u{3099}".repeat(1 << 18));
    for t in collect(&marks, Mode::Document) {
        assert!(t.text.len() <= MAX_TOKEN_BYTES);
    }
}

/// Counts the tokens of `text`, failing if it takes longer than a bound that linear work
/// stays far below even unoptimised on a busy machine (quadratic work on a megabyte would
/// take hours).
fn count_within_bound(text: &str) -> usize {
    let started = Instant::now();
    let mut count = 0usize;
    let mut last_end = 0;
    let _ = tokenize(text, Mode::Document, &mut |t| {
        count += 1;
        if !t.colocated {
            assert!(t.start >= last_end);
            last_end = t.end;
        }
        Continue(())
    });
    let took = started.elapsed();
    let head: String = text.chars().take(8).collect();
    assert!(took < Duration::from_secs(60), "{took:?} for {head:?}…");
    assert!(last_end <= text.len());
    count
}

#[test]
fn ten_megabytes_of_text() {
    let paragraph = "Fixed getUserName in src/importer.rs: ECONNREFUSED 127.0.0.1:5432 \
        (migrations, queries). Las migraciones fallaron. 用户名检索失败，全文検索エンジン。 ";
    let copies = 10_000_000 / paragraph.len() + 1;
    let once = count_within_bound(paragraph);
    assert_eq!(count_within_bound(&paragraph.repeat(copies)), once * copies);
}

/// Half a megabyte of each shape that could make a tokenizer slow: one part after
/// another, one endless part, one endless run of capitals, of CJK, of marks on one
/// letter (quadratic work on any of them would take hours).
#[test]
fn pathological_shapes_in_linear_time() {
    assert_eq!(count_within_bound(&"aB".repeat(250_000)), 250_002);
    assert_eq!(count_within_bound(&"a_".repeat(250_000)), 250_001);
    assert_eq!(count_within_bound(&"x".repeat(500_000)), 1);
    assert_eq!(count_within_bound(&"A".repeat(500_000)), 1);
    assert_eq!(count_within_bound(&"用".repeat(170_000)), 2 * 170_000 - 1);
    assert_eq!(
        count_within_bound(&format!("e{}", "\u{301}".repeat(250_000))),
        1
    );
    assert_eq!(count_within_bound(&"a:".repeat(250_000)), 250_000);
    assert_eq!(count_within_bound(&"1.".repeat(250_000)), 250_000);
}

#[test]
fn a_break_stops_the_tokenizer() {
    let mut seen = 0;
    let flow = tokenize("one two three four", Mode::Document, &mut |_| {
        seen += 1;
        if seen == 2 {
            Break(())
        } else {
            Continue(())
        }
    });
    assert_eq!((flow, seen), (ControlFlow::Break(()), 2));
}

#[test]
fn single_characters_are_terms() {
    assert_eq!(MIN_TERM_CHARS, 1);
    assert_eq!(terms("a 7 用", Mode::Query), ["a", "7", "用"]);
    // Words of one or two characters, which trigram cannot match.
    assert!(finds("the db is locked", "db") && finds("用户名", "用户"));
    assert!(finds("x = 1", "x") && !finds("the dbs", "d"));
    assert!(has_token("a") && has_token("用") && has_token("data-pipeline"));
    assert!(!has_token("@@@") && !has_token("") && !has_token("\u{301}") && !has_token("--"));
}

// Properties

fn text_strategy() -> impl Strategy<Value = String> {
    let pieces = prop::collection::vec(
        prop_oneof![
            "[a-zA-Z0-9]{1,8}",
            Just("_".to_string()),
            Just("-".to_string()),
            Just(".".to_string()),
            Just("::".to_string()),
            Just("/".to_string()),
            Just(":".to_string()),
            Just(" ".to_string()),
            Just("\0".to_string()),
            "[用户名検索エンジンデーター한국々ー]{1,4}",
            "[éÉñÑßİıǅ\u{301}\u{3099}\u{947}]{1,3}",
            "[ -~]{1,4}",
            any::<char>().prop_map(String::from),
        ],
        0..24,
    );
    pieces.prop_map(|p| p.concat())
}

fn check_invariants(input: &str, mode: Mode) {
    let toks = collect(input, mode);
    let mut prev_primary: Option<&Tok> = None;
    for t in &toks {
        assert!(
            !t.text.is_empty() && t.text.len() <= MAX_TOKEN_BYTES,
            "{t:?}"
        );
        assert!(t.start < t.end && t.end <= input.len(), "{t:?}");
        assert!(
            input.is_char_boundary(t.start) && input.is_char_boundary(t.end),
            "{t:?}"
        );
        if t.colocated {
            let p = prev_primary.expect("a colocated token follows a first token");
            assert_eq!(mode, Mode::Document, "{t:?}");
            // It spans its position's first token, from the same start.
            assert!(t.start == p.start && t.end >= p.end, "{t:?} after {p:?}");
        } else {
            if let Some(p) = prev_primary {
                if mode == Mode::Document {
                    // What highlight() needs: in order, never overlapping.
                    assert!(t.start >= p.end, "{t:?} after {p:?}");
                } else {
                    assert!(t.start > p.start, "{t:?} after {p:?}");
                }
            }
            prev_primary = Some(t);
        }
    }
    if mode == Mode::Document {
        // The first token of a position is what its own text gives alone.
        for t in toks.iter().filter(|t| !t.colocated) {
            let alone = collect(&input[t.start..t.end], Mode::Query);
            assert_eq!(alone.len(), 1, "{t:?} in {input:?}");
            assert_eq!(alone[0].text, t.text, "{t:?} in {input:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn offsets_are_exact_ordered_and_on_boundaries(input in text_strategy()) {
        check_invariants(&input, Mode::Document);
        check_invariants(&input, Mode::Query);
    }

    #[test]
    fn every_text_finds_itself(input in text_strategy()) {
        if has_token(&input) {
            prop_assert!(finds(&input, &input), "{:?}", input);
        }
    }

    #[test]
    fn bytes_agree_with_text_and_stay_in_bounds(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let mut got = Vec::new();
        let _ = tokenize_bytes(&bytes, Mode::Document, &mut |t| {
            got.push((t.text.to_string(), t.start, t.end, t.colocated));
            Continue(())
        });
        for (text, start, end, colocated) in got {
            prop_assert!(start < end && end <= bytes.len());
            // The bytes of a token are valid UTF-8; a position's first token is what
            // they give alone.
            let slice = std::str::from_utf8(&bytes[start..end]);
            prop_assert!(slice.is_ok());
            if let (Ok(s), false) = (slice, colocated) {
                prop_assert_eq!(terms(s, Mode::Query), vec![text]);
            }
        }
        if let Ok(s) = std::str::from_utf8(&bytes) {
            let mut via_bytes = Vec::new();
            let _ = tokenize_bytes(&bytes, Mode::Query, &mut |t| {
                via_bytes.push(t.text.to_string());
                Continue(())
            });
            prop_assert_eq!(via_bytes, terms(s, Mode::Query));
        }
    }
}
