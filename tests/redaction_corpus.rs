//! `recall_core::redact` on the labelled corpus (`examples/redaction_corpus.jsonl`, made
//! by `examples/make_redaction_corpus.py`): every secret line must come out as its text
//! with exactly the labelled span replaced and counted once under its kind; a look-alike
//! line must come out unchanged in at least 99 cases of 100, and in every case for the
//! look-alikes redaction is known to have taken (page tokens, file names, AWS's
//! documented keys, whole references). Prints the table per kind.
use std::collections::BTreeMap;

use recall_core::redact::{redact, KINDS, MARK};
use serde_json::Value;

fn corpus() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/redaction_corpus.jsonl"
    );
    std::fs::read_to_string(path)
        .expect("read the corpus")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a corpus line"))
        .collect()
}

#[test]
fn every_secret_redacted_and_look_alikes_kept() {
    let mut found: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut kept: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut misses = Vec::new();
    for line in corpus() {
        let text = line["text"].as_str().expect("text");
        let (out, counts) = redact(text);
        match line["kind"].as_str() {
            Some(kind) => {
                let (start, end) = (
                    line["start"].as_u64().expect("start") as usize,
                    line["end"].as_u64().expect("end") as usize,
                );
                let want = format!("{}{MARK}{}", &text[..start], &text[end..]);
                let right = out == want && counts.get(kind) == 1 && counts.total() == 1;
                let entry = found.entry(kind.to_string()).or_default();
                entry.1 += 1;
                if right {
                    entry.0 += 1;
                } else {
                    misses.push(format!("{kind}: {text:?} -> {out:?} {counts:?}"));
                }
            }
            None => {
                let category = line["category"].as_str().expect("category");
                let entry = kept.entry(category.to_string()).or_default();
                entry.1 += 1;
                if out != text {
                    entry.0 += 1;
                    misses.push(format!("look-alike {category}: {text:?} -> {out:?}"));
                }
            }
        }
    }
    println!("| kind | secrets redacted |\n|---|---|");
    for (kind, (hit, total)) in &found {
        println!("| {kind} | {hit} / {total} |");
    }
    println!("| look-alike | touched |\n|---|---|");
    for (category, (touched, total)) in &kept {
        println!("| {category} | {touched} / {total} |");
    }
    let listed: Vec<&str> = found.keys().map(String::as_str).collect();
    let mut every: Vec<&str> = KINDS.to_vec();
    every.sort_unstable();
    assert_eq!(listed, every, "the corpus has secrets of every kind");
    assert!(every.len() >= 40, "{} kinds", every.len());
    let secrets: usize = found.values().map(|v| v.1).sum();
    let look_alikes: usize = kept.values().map(|v| v.1).sum();
    assert!(
        secrets >= 900 && look_alikes >= 600,
        "{secrets} {look_alikes}"
    );
    let missed_secrets = found
        .values()
        .map(|(hit, total)| total - hit)
        .sum::<usize>();
    for category in ["page-token", "file-name", "documented-example", "reference"] {
        let (touched, total) = kept.get(category).copied().unwrap_or_default();
        assert!(total >= 40, "{category}: {total} look-alikes");
        assert_eq!(touched, 0, "{category}:\n{}", misses.join("\n"));
    }
    let touched: usize = kept.values().map(|v| v.0).sum();
    assert_eq!(missed_secrets, 0, "{}", misses.join("\n"));
    assert!(
        touched * 100 < look_alikes,
        "{touched} of {look_alikes} look-alikes touched:\n{}",
        misses.join("\n")
    );
}
