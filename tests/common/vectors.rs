//! Shared by the vector-channel tests: the deterministic embedder
//! `tests/vectors/fake_embed.py`, the vectors a library holds (read through the CLI's
//! sqlite-vec), and the log of what the embedder was asked.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};

use super::cli::TempLib;
use super::{pipe, root, SYSTEM_PYTHON};

pub fn fake_script() -> PathBuf {
    root().join("tests/vectors/fake_embed.py")
}

/// The fake embedder's command line with these options (quoted as a shell would).
pub fn fake(options: &str) -> String {
    format!("{SYSTEM_PYTHON} '{}' {options}", fake_script().display())
        .trim_end()
        .to_string()
}

/// The fake embedder writing the number of texts of each request to `log`.
pub fn fake_logging(log: &Path, options: &str) -> String {
    fake(&format!("--log '{}' {options}", log.display()))
}

/// The number of texts of each request the logging fake received (none: no file).
pub fn requests(log: &Path) -> Vec<usize> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(|l| l.parse().expect("a count"))
        .collect()
}

/// A configuration file in the library's directory that embeds `batch` texts a request.
pub fn batch_config(lib: &TempLib, batch: usize) -> String {
    let path = lib.path("batch.toml");
    std::fs::write(&path, format!("[vectors]\nbatch = {batch}\n")).expect("write config");
    path.to_string_lossy().into_owned()
}

pub fn floats(v: &Value) -> Vec<f32> {
    v.as_array()
        .unwrap_or_else(|| panic!("not a vector: {v}"))
        .iter()
        .map(|x| x.as_f64().expect("a number") as f32)
        .collect()
}

/// Each stored vector by item id, with the item's imported_at it was made at.
pub fn stored(lib: &TempLib) -> BTreeMap<i64, (Vec<f32>, String)> {
    let rows = lib.json(&[
        "sql",
        "select rowid as id, vec_to_json(embedding) as v, item_imported_at as at from item_vectors",
    ]);
    rows.as_array()
        .unwrap_or_else(|| panic!("sql answer is not an array: {rows}"))
        .iter()
        .map(|r| {
            let v: Value = serde_json::from_str(r["v"].as_str().expect("json text")).expect("vec");
            (
                r["id"].as_i64().expect("id"),
                (floats(&v), r["at"].as_str().expect("at").to_string()),
            )
        })
        .collect()
}

/// Each stored vector by item id.
pub fn vectors_only(lib: &TempLib) -> BTreeMap<i64, Vec<f32>> {
    stored(lib)
        .into_iter()
        .map(|(id, (v, _))| (id, v))
        .collect()
}

/// The ids of the items that have a vector, in order.
pub fn embedded_ids(lib: &TempLib) -> Vec<i64> {
    stored(lib).into_keys().collect()
}

/// `recall --config CFG embed --embed-cmd CMD` started in the background (stderr piped),
/// stopping at the test hook `pause` when one is given.
pub fn spawn_embed(lib: &TempLib, cfg: &str, cmd: &str, pause: Option<&str>) -> Child {
    let mut command = lib.command();
    command
        .args(["--config", cfg, "embed", "--embed-cmd", cmd])
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(pause) = pause {
        command.env("RECALL_TEST_PAUSE_AT", pause);
    }
    command.spawn().expect("spawn recall embed")
}

/// The vectors the fake embedder gives these texts, asked directly (not through recall).
pub fn fake_vectors(texts: &[String], options: &[&str]) -> Vec<Vec<f32>> {
    let request = json!({"id": 1, "texts": texts}).to_string() + "\n";
    let out = pipe(
        Command::new(SYSTEM_PYTHON).arg(fake_script()).args(options),
        &request,
    );
    assert!(
        out.status.success(),
        "fake embedder: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer: Value = serde_json::from_slice(&out.stdout).expect("the fake answers JSON");
    answer["vectors"]
        .as_array()
        .expect("vectors")
        .iter()
        .map(floats)
        .collect()
}

/// What `recall check` says of the vectors.
pub fn vectors_line(lib: &TempLib) -> String {
    let report = lib.run(&["--json", "check"]).json();
    let line = report["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["name"] == "vectors")
        .cloned()
        .expect("a vectors line");
    assert_eq!(line["ok"], true, "{line}");
    line["detail"].as_str().expect("detail").to_string()
}
