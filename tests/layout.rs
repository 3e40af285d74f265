//! How the CLI's parts depend on each other: the top-level modules of `cli/src` (each
//! file or folder there) import one another without a circle, the MCP server, a front
//! end, never imports `commands`, the other front end, and the review page imports
//! neither: they call the layers below.
//!
//! The imports are read from the source: `crate::X` (in `use` lines, groups and paths
//! alike), `super::` resolved against the module it is written in (an inline `mod` counts),
//! and an exported macro (`crate::say!`) as its module's. Comments and string literals
//! are not code.
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

use crate::common::{doc_table, root};

/// Where an import was seen: `cli/src/mcp/server.rs:20`.
type Site = String;

/// For each top-level module, the top-level modules it imports, each with where first.
type Graph = BTreeMap<String, BTreeMap<String, Site>>;

/// What `literal_spans` finds: a comment, a string literal (with where its text is,
/// inside its quotes) or a character literal.
#[derive(Debug, Clone, PartialEq)]
enum Span {
    Comment,
    Text(std::ops::Range<usize>),
    Char,
}

/// The comments, string and character literals of Rust source, each with the range of
/// characters it covers.
fn literal_spans(c: &[char]) -> Vec<(Span, std::ops::Range<usize>)> {
    let mut spans = Vec::new();
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            let end = (i..c.len()).find(|&j| c[j] == '\n').unwrap_or(c.len());
            spans.push((Span::Comment, i..end));
            i = end;
        } else if c[i] == '/' && next == Some('*') {
            let (mut depth, mut j) = (1, i + 2);
            while j < c.len() && depth > 0 {
                if c[j] == '/' && c.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if c[j] == '*' && c.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            spans.push((Span::Comment, i..j.min(c.len())));
            i = j;
        } else if c[i] == 'r'
            && (i == 0 || !ident(c[i - 1]) || (c[i - 1] == 'b' && (i < 2 || !ident(c[i - 2]))))
            && matches!(next, Some('"') | Some('#'))
        {
            // A raw string: r"…", r#"…"#, br"…".
            let hashes = c[i + 1..].iter().take_while(|&&ch| ch == '#').count();
            if c.get(i + 1 + hashes) != Some(&'"') {
                i += 1;
                continue;
            }
            let mut j = i + 2 + hashes;
            while j < c.len()
                && !(c[j] == '"'
                    && c[j + 1..].iter().take_while(|&&ch| ch == '#').count() >= hashes)
            {
                j += 1;
            }
            let end = (j + 1 + hashes).min(c.len());
            spans.push((Span::Text(i + 2 + hashes..j.min(c.len())), i..end));
            i = end;
        } else if c[i] == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(c.len());
            spans.push((Span::Text(i + 1..j.min(c.len())), i..end));
            i = j + 1;
        } else if c[i] == '\'' {
            // A character literal ('x', '\n', '\''), else a lifetime ('a).
            if next == Some('\\') {
                let mut j = i + 2;
                while j < c.len() && c[j] != '\'' {
                    j += 1;
                }
                spans.push((Span::Char, i..(j + 1).min(c.len())));
                i = j + 1;
            } else if c.get(i + 2) == Some(&'\'') {
                spans.push((Span::Char, i..i + 3));
                i += 3;
            } else {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    spans
}

/// Rust source with comments, string and character literals blanked (line breaks kept,
/// so lines still count).
fn code_only(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = c.clone();
    for (_, range) in literal_spans(&c) {
        for ch in &mut out[range] {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
    }
    out.into_iter().collect()
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(String),
    Sep,
    Open,
    Close,
    Comma,
    Other,
}

/// The tokens that matter here, each with its line.
fn tokens(code: &str) -> Vec<(Token, usize)> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch.is_alphanumeric() || ch == '_' || ch == '$' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_' || c[i] == '$') {
                i += 1;
            }
            out.push((Token::Word(c[start..i].iter().collect()), line));
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push((Token::Sep, line));
            i += 2;
        } else {
            let t = match ch {
                '{' => Token::Open,
                '}' => Token::Close,
                ',' => Token::Comma,
                _ => Token::Other,
            };
            out.push((t, line));
            i += 1;
        }
    }
    out
}

/// The module paths a file imports, resolved from the crate's root: `crate::a::b::X` is
/// `[a, b, X]`, `super::b` in `a/c.rs` is `[a, b]` (an inline `mod` counts), and each
/// member of a group one level deep (`crate::mcp::{http, server::X}`) its own path; each
/// with its line. `self::` and bare paths reach the file's own children only, which no
/// circle among siblings needs.
fn import_paths(src: &str, module: &[String]) -> Vec<(Vec<String>, usize)> {
    let toks = tokens(&code_only(src));
    let word = |i: usize| match toks.get(i) {
        Some((Token::Word(w), _)) => Some(w.clone()),
        _ => None,
    };
    let is = |i: usize, t: Token| toks.get(i).map(|(x, _)| x) == Some(&t);
    let mut inline: Vec<(usize, String)> = Vec::new();
    let mut depth = 0usize;
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let line = toks[i].1;
        match &toks[i].0 {
            Token::Open => depth += 1,
            Token::Close => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(d, _)| *d == depth) {
                    inline.pop();
                }
            }
            Token::Word(w) if w == "mod" && word(i + 1).is_some() && is(i + 2, Token::Open) => {
                inline.push((depth, word(i + 1).unwrap_or_default()));
            }
            // `pub(super)`, `pub(crate)`: visibility, no path.
            Token::Word(w)
                if (w == "crate" || w == "$crate" || w == "super") && is(i + 1, Token::Sep) =>
            {
                let mut at = i;
                let mut base: Vec<String> = if w == "super" {
                    let mut here: Vec<String> = module.to_vec();
                    here.extend(inline.iter().map(|(_, m)| m.clone()));
                    while word(at).as_deref() == Some("super") && is(at + 1, Token::Sep) {
                        here.pop();
                        at += 2;
                    }
                    here
                } else {
                    at += 2;
                    Vec::new()
                };
                // The path's words, then a group's members.
                while let Some(w) = word(at) {
                    base.push(w);
                    if is(at + 1, Token::Sep) {
                        at += 2;
                    } else {
                        break;
                    }
                }
                if is(at, Token::Open) {
                    let (mut j, mut level, mut expect) = (at + 1, 1, true);
                    while j < toks.len() && level > 0 {
                        match &toks[j].0 {
                            Token::Open => level += 1,
                            Token::Close => level -= 1,
                            Token::Comma if level == 1 => expect = true,
                            Token::Word(n) if expect && level == 1 => {
                                let mut p = base.clone();
                                p.push(n.clone());
                                out.push((p, toks[j].1));
                                expect = false;
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                } else if !base.is_empty() {
                    out.push((base, line));
                }
                i = at.max(i + 1);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// For each folder module of a crate's source (`mcp`, `capture`, …; `""` for the root),
/// the import graph among its child modules: child C imports sibling D when a file in C
/// imports a path through D.
fn sibling_graphs(src: &Path) -> BTreeMap<String, Graph> {
    let files = module_files(src);
    // Each folder's children: the next part of every module path under it.
    let mut children: BTreeMap<Vec<String>, BTreeSet<String>> = BTreeMap::new();
    for (_, module, _) in &files {
        for cut in 0..module.len() {
            children
                .entry(module[..cut].to_vec())
                .or_default()
                .insert(module[cut].clone());
        }
    }
    let mut graphs = BTreeMap::new();
    // The root's children are the units of the layers (`unit`), as in `graph`.
    graphs.insert(String::new(), graph(src));
    for (parent, kids) in &children {
        if kids.len() < 2 || parent.is_empty() {
            continue;
        }
        let mut g: Graph = kids.iter().map(|k| (k.clone(), BTreeMap::new())).collect();
        for (relative, module, text) in &files {
            if module.len() <= parent.len() || module[..parent.len()] != parent[..] {
                continue;
            }
            let from = &module[parent.len()];
            for (path, line) in import_paths(text, module) {
                if path.len() <= parent.len() || path[..parent.len()] != parent[..] {
                    continue;
                }
                let to = &path[parent.len()];
                if to != from && kids.contains(to) {
                    g.entry(from.clone())
                        .or_default()
                        .entry(to.clone())
                        .or_insert(format!("{}:{line}", relative.display()));
                }
            }
        }
        graphs.insert(parent.join("::"), g);
    }
    graphs
}

/// The `.rs` files under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// A file's module path below the crate's root: `judge/stage.rs` is `["judge", "stage"]`,
/// `judge/mod.rs` is `["judge"]`.
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// Every Rust file of a crate's source but its root (lib.rs, main.rs, no module of its
/// own): its path under `src`, its module path and its text.
fn module_files(src: &Path) -> Vec<(PathBuf, Vec<String>, String)> {
    rust_files(src)
        .into_iter()
        .filter_map(|path| {
            let relative = path.strip_prefix(src).ok()?.to_path_buf();
            let module = module_path(&relative);
            if module.len() == 1 && (module[0] == "lib" || module[0] == "main") {
                return None;
            }
            let text = std::fs::read_to_string(&path).ok()?;
            Some((relative, module, text))
        })
        .collect()
}

/// The unit of the layers a module path belongs to: its top-level module, except in
/// `agents`, where an agent's part of a layer above is kept beside its facts: a part of
/// `agents` named for a top-level module (`agents::capture`, `agents::codex::setup::trust`)
/// belongs to that module (docs/architecture.md#agents).
fn unit(path: &[String], modules: &BTreeSet<String>) -> String {
    if path.first().is_some_and(|m| m == "agents") {
        if let Some(part) = path[1..]
            .iter()
            .find(|p| modules.contains(*p) && *p != "agents")
        {
            return part.clone();
        }
    }
    path[0].clone()
}

/// The import graph of the units of a crate's source folder (`unit`).
fn graph(src: &Path) -> Graph {
    let files = module_files(src);
    let modules: BTreeSet<String> = files.iter().map(|f| f.1[0].clone()).collect();
    // Exported macros live at the root (`crate::say!`); they belong to where they are
    // written.
    let mut macros: BTreeMap<String, String> = BTreeMap::new();
    for (_, module, text) in &files {
        let toks = tokens(&code_only(text));
        for w in toks.windows(3) {
            if let [(Token::Word(m), _), (Token::Other, _), (Token::Word(name), _)] = w {
                if m == "macro_rules" {
                    macros.insert(name.clone(), unit(module, &modules));
                }
            }
        }
    }
    let mut g: Graph = files
        .iter()
        .map(|f| (unit(&f.1, &modules), BTreeMap::new()))
        .collect();
    let shown = src.strip_prefix(root()).unwrap_or(src).to_path_buf();
    for (relative, module, text) in &files {
        let from = unit(module, &modules);
        for (path, line) in import_paths(text, module) {
            let target = if modules.contains(&path[0]) {
                unit(&path, &modules)
            } else if let Some(m) = macros.get(&path[0]) {
                m.clone()
            } else {
                continue;
            };
            if target != from {
                let site = format!("{}:{line}", shown.join(relative).display());
                g.entry(from.clone())
                    .or_default()
                    .entry(target)
                    .or_insert(site);
            }
        }
    }
    g
}

/// The groups of modules that reach each other (strongly connected, two or more).
fn circles(g: &Graph) -> Vec<Vec<String>> {
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&str> = vec![from];
        while let Some(m) = todo.pop() {
            for next in g.get(m).into_iter().flat_map(|e| e.keys()) {
                if seen.insert(next.clone()) {
                    todo.push(next);
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> = g.keys().map(|m| (m, reach(m))).collect();
    let mut done = BTreeSet::new();
    let mut groups = Vec::new();
    for m in g.keys() {
        if done.contains(m) || !reached[m].contains(m) {
            continue;
        }
        let group: Vec<String> = g
            .keys()
            .filter(|o| reached[m].contains(*o) && reached[*o].contains(m))
            .cloned()
            .collect();
        done.extend(group.iter().cloned());
        groups.push(group);
    }
    groups
}

/// The shortest way from `from` back to itself, each step with where it is imported.
fn shortest_circle(g: &Graph, from: &str) -> Vec<String> {
    let mut came: BTreeMap<String, String> = BTreeMap::new();
    let mut todo = VecDeque::from([from.to_string()]);
    while let Some(m) = todo.pop_front() {
        for next in g.get(&m).into_iter().flat_map(|e| e.keys()) {
            if next == from {
                let mut path = vec![m.clone()];
                while let Some(p) = came.get(path.last().expect("a step")) {
                    path.push(p.clone());
                }
                path.reverse();
                path.push(from.to_string());
                return path
                    .windows(2)
                    .map(|w| format!("{} → {} ({})", w[0], w[1], g[&w[0]][&w[1]]))
                    .collect();
            }
            if !came.contains_key(next) && next != from {
                came.insert(next.clone(), m.clone());
                todo.push_back(next.clone());
            }
        }
    }
    Vec::new()
}

fn cli_graph() -> Graph {
    graph(&root().join("cli/src"))
}

#[test]
fn no_top_level_module_imports_itself_through_others() {
    let g = cli_graph();
    let found: Vec<String> = circles(&g)
        .iter()
        .map(|group| {
            let inside: Vec<String> = group
                .iter()
                .flat_map(|m| {
                    g[m].iter()
                        .filter(|(to, _)| group.contains(to))
                        .map(move |(to, site)| format!("{m} → {to} ({site})"))
                })
                .collect();
            format!(
                "{}\n    one circle: {}\n    every import among them:\n      {}",
                group.join(", "),
                shortest_circle(&g, &group[0]).join(", "),
                inside.join("\n      ")
            )
        })
        .collect();
    assert!(
        found.is_empty(),
        "import circles among the top-level modules of cli/src:\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn the_mcp_server_does_not_import_the_commands() {
    let g = cli_graph();
    let site = g.get("mcp").and_then(|deps| deps.get("commands"));
    assert!(
        site.is_none(),
        "mcp imports commands ({}): both front ends call the layers below instead",
        site.map(String::as_str).unwrap_or_default()
    );
}

/// The review page shares with the MCP server and the command line what lies below
/// them (the tools and the readers and writer of `serve`, the status's text of
/// `status`), never their own parts.
#[test]
fn the_review_page_imports_neither_the_mcp_server_nor_the_commands() {
    let g = cli_graph();
    let found: Vec<String> = ["mcp", "commands"]
        .iter()
        .filter_map(|m| {
            let site = g.get("ui").and_then(|deps| deps.get(*m))?;
            Some(format!("ui imports {m} ({site})"))
        })
        .collect();
    assert!(
        found.is_empty(),
        "{}: what the page shares with a front end belongs below it (serve, status)",
        found.join("\n")
    );
}

/// The write services run their SQL through the storage layer's runner
/// (`library::sql_file`), as the read path does, and never borrow from the read path.
#[test]
fn the_writes_do_not_import_the_read_path() {
    let g = cli_graph();
    let borrowed: Vec<String> = ["items", "capture", "embed"]
        .iter()
        .filter_map(|m| {
            let site = g.get(*m).and_then(|deps| deps.get("query"))?;
            Some(format!("{m} imports query ({site})"))
        })
        .collect();
    assert!(borrowed.is_empty(), "{}", borrowed.join("\n"));
}

#[test]
fn imports_are_read_from_code_only() {
    let src = r##"
        //! `crate::nowhere` in a comment
        use crate::{alpha, beta::{x, y}, gamma::Z};
        use crate::delta::Thing;
        /* crate::block /* nested */ crate::still */
        fn f() -> &'static str { let _c = '{'; let _q = '"'; "crate::string {" }
        fn g() { let _ = r#"crate::raw "quoted" {"#; $crate::epsilon::line(); }
        mod tests {
            use super::*;
            use super::super::zeta;
        }
        use super::eta;
    "##;
    let paths: Vec<String> = import_paths(src, &["m".to_string()])
        .into_iter()
        .map(|(p, _)| p.join("::"))
        .collect();
    assert_eq!(
        paths,
        [
            "alpha",
            "beta",
            "gamma",
            "delta::Thing",
            "epsilon::line",
            "m",
            "zeta",
            "eta"
        ]
    );
    // Inside a folder, `super` names the folder's own module.
    let nested = import_paths(
        "use super::store; use super::super::theta;",
        &["a".into(), "b".into()],
    );
    assert_eq!(
        nested,
        [
            (vec!["a".to_string(), "store".to_string()], 1),
            (vec!["theta".to_string()], 1)
        ]
    );
    // An agent's part of a layer belongs to that layer's module.
    let modules: BTreeSet<String> = ["agents", "capture", "setup", "project"]
        .map(String::from)
        .into();
    for (path, expected) in [
        ("agents", "agents"),
        ("agents::claude", "agents"),
        ("agents::claude::folders", "agents"),
        ("agents::capture", "capture"),
        ("agents::claude::capture", "capture"),
        ("agents::codex::setup::trust", "setup"),
        ("agents::codex::setup::app::Version", "setup"),
        ("capture::agents", "capture"),
        ("project", "project"),
    ] {
        let path: Vec<String> = path.split("::").map(String::from).collect();
        assert_eq!(unit(&path, &modules), expected, "{path:?}");
    }
    let mut g = Graph::new();
    for (a, b) in [
        ("a", "b"),
        ("b", "c"),
        ("c", "a"),
        ("c", "d"),
        ("d", "e"),
        ("e", "d"),
    ] {
        g.entry(a.into())
            .or_default()
            .insert(b.into(), format!("{a}.rs:1"));
        g.entry(b.into()).or_default();
    }
    assert_eq!(circles(&g), [vec!["a", "b", "c"], vec!["d", "e"]]);
    assert_eq!(
        shortest_circle(&g, "d"),
        ["d → e (d.rs:1)", "e → d (e.rs:1)"]
    );
}

/// The lines of a crate root's code that are not module declarations (`mod x;`,
/// `pub mod x;`, `pub(crate) mod x;`, each alone on its line, an attribute line such as
/// `#[cfg(test)]` before one), with their numbers. Comments are not code.
fn not_declarations(src: &str) -> Vec<String> {
    let declares = |line: &str| {
        let rest = ["pub(crate) ", "pub "]
            .iter()
            .find_map(|p| line.strip_prefix(p))
            .unwrap_or(line);
        let name = rest
            .strip_prefix("mod ")
            .and_then(|r| r.strip_suffix(';'))
            .unwrap_or("");
        let mut chars = name.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
            && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    };
    let attribute = |line: &str| line.starts_with("#[") && line.ends_with(']');
    code_only(src)
        .lines()
        .enumerate()
        .map(|(n, line)| (n + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !declares(line) && !attribute(line))
        .map(|(n, line)| format!("line {n}: {line}"))
        .collect()
}

/// The crate root declares the modules and does nothing else: the front door is
/// `entry`, a module of the top layer, and the macros are exported by their own files,
/// so that no module hangs from the root.
#[test]
fn the_crate_root_only_declares_modules() {
    let lib = std::fs::read_to_string(root().join("cli/src/lib.rs")).expect("cli/src/lib.rs");
    let found = not_declarations(&lib);
    assert!(
        found.is_empty(),
        "cli/src/lib.rs holds more than module declarations (move it to a module):\n  {}",
        found.join("\n  ")
    );
}

/// The check refuses every kind of item but a module's declaration, and not comments.
#[test]
fn a_crate_root_that_does_more_than_declare_is_seen() {
    let declarations = "//! The crate.\npub mod a;\nmod b;\n\n// Why c.\npub(crate) mod c_2;\n#[cfg(test)]\nmod tests;\n/// fn f() {}\npub mod d; // use e;\n";
    assert_eq!(not_declarations(declarations), Vec::<String>::new());
    let more = [
        "pub fn run() -> i32 {\n    0\n}\n",
        "fn fail(message: &str) {}\n",
        "use std::ffi::OsString;\n",
        "pub use error::Error;\n",
        "const FLAGS: [&str; 1] = [\"RECALL_DB\"];\n",
        "static SEEN: u8 = 0;\n",
        "struct Cli;\n",
        "impl Cli {}\n",
        "#[macro_export]\nmacro_rules! err { () => {} }\n",
        "mod tests {\n    #[test]\n    fn t() {}\n}\n",
        "pub mod a; fn f() {}\n",
    ];
    for src in more {
        let found = not_declarations(&format!("pub mod a;\n{src}pub mod z;\n"));
        assert!(!found.is_empty(), "{src:?}");
        assert!(found.iter().all(|l| !l.ends_with("mod z;")), "{found:?}");
    }
}

/// The layers of docs/architecture.md: each module named in its table, with its layer.
fn documented_layers() -> BTreeMap<String, u32> {
    let mut layers = BTreeMap::new();
    for cells in doc_table("docs/architecture.md", "## The layers of the CLI", "| ") {
        let Ok(layer) = cells[0].parse::<u32>() else {
            continue;
        };
        for module in cells[1].split('`').skip(1).step_by(2) {
            let before = layers.insert(module.to_string(), layer);
            assert!(before.is_none(), "{module} is in two layers");
        }
    }
    layers
}

#[test]
fn every_module_imports_only_its_own_layer_and_those_below() {
    let g = cli_graph();
    let layers = documented_layers();
    let unlisted: Vec<&String> = g.keys().filter(|m| !layers.contains_key(*m)).collect();
    assert!(
        unlisted.is_empty(),
        "modules of cli/src in no layer of docs/architecture.md: {unlisted:?}"
    );
    let gone: Vec<&String> = layers.keys().filter(|m| !g.contains_key(*m)).collect();
    assert!(
        gone.is_empty(),
        "docs/architecture.md's layers name modules cli/src does not have: {gone:?}"
    );
    let upward: Vec<String> = g
        .iter()
        .flat_map(|(from, deps)| {
            let layers = &layers;
            deps.iter()
                .filter(move |(to, _)| layers[*to] > layers[from])
                .map(move |(to, site)| {
                    format!(
                        "{from} (layer {}) imports {to} (layer {}) at {site}",
                        layers[from], layers[to]
                    )
                })
        })
        .collect();
    assert!(
        upward.is_empty(),
        "imports up the layers of docs/architecture.md:\n  {}",
        upward.join("\n  ")
    );
}

/// Class: a circle below the top level. Among the modules of each folder, in the CLI
/// and in the core crate, no module imports itself through its siblings.
#[test]
fn no_inner_module_imports_itself_through_its_siblings() {
    let mut found = Vec::new();
    for (crate_dir, name) in [("cli/src", "cli"), ("extension/core/src", "core")] {
        for (parent, g) in sibling_graphs(&root().join(crate_dir)) {
            for group in circles(&g) {
                found.push(format!(
                    "{name} {}: {}\n    one circle: {}",
                    if parent.is_empty() { "(root)" } else { &parent },
                    group.join(", "),
                    shortest_circle(&g, &group[0]).join(", ")
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "import circles:\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn inner_imports_are_resolved_through_super_crate_and_groups() {
    let module = vec!["mcp".to_string(), "http".to_string()];
    let src = "use super::server::Server;\nuse crate::mcp::{calls, http::limits};\nfn f() { super::super::query::run(); }\nmod tests { use super::super::x; }\n// super::commented::out\n";
    let got: Vec<Vec<String>> = import_paths(src, &module)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    let want: Vec<Vec<&str>> = vec![
        vec!["mcp", "server", "Server"],
        vec!["mcp", "calls"],
        vec!["mcp", "http"],
        vec!["query", "run"],
        vec!["mcp", "x"],
    ];
    assert_eq!(
        got,
        want.iter()
            .map(|p| p.iter().map(|s| s.to_string()).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    );
}

/// The contents of a Rust source's string literals ("…", r"…", r#"…"#), each with its
/// line.
fn string_literals(src: &str) -> Vec<(String, usize)> {
    let c: Vec<char> = src.chars().collect();
    literal_spans(&c)
        .into_iter()
        .filter_map(|(span, range)| match span {
            Span::Text(text) => {
                let line = c[..range.start].iter().filter(|&&ch| ch == '\n').count() + 1;
                Some((c[text].iter().collect(), line))
            }
            Span::Comment | Span::Char => None,
        })
        .collect()
}

/// Where `src` opens SQLite or holds SQL: a connection, a statement or a transaction of
/// rusqlite's used in code, or a string literal that begins as a statement does.
fn sql_sites(src: &str) -> Vec<String> {
    let code = code_only(src);
    let mut sites = Vec::new();
    for (n, line) in code.lines().enumerate() {
        for word in [
            "Connection",
            "Batch",
            "Statement",
            "Transaction",
            ".prepare(",
            ".prepare_cached(",
            ".execute(",
            ".execute_batch(",
            ".query_row(",
            ".query_map(",
            ".pragma_update(",
            ".pragma_query_value(",
        ] {
            if line.contains(word) {
                sites.push(format!("line {}: {word}", n + 1));
            }
        }
    }
    sites.extend(sql_literals(src));
    sites
}

/// The string literals of `src` that begin as a statement does, each with its line.
fn sql_literals(src: &str) -> Vec<String> {
    const STATEMENTS: [&str; 13] = [
        "select", "insert", "update", "delete", "replace", "create", "drop", "alter", "pragma",
        "with", "begin", "vacuum", "attach",
    ];
    let mut sites = Vec::new();
    for (text, line) in string_literals(src) {
        let first = text.split_whitespace().next().unwrap_or("");
        if STATEMENTS.contains(&first.to_lowercase().as_str())
            && text.trim_start().len() > first.len()
        {
            sites.push(format!(
                "line {line}: {:?}",
                text.chars().take(40).collect::<String>()
            ));
        }
    }
    sites
}

/// The command line resolves, calls and prints: the work with SQLite lives below it.
/// No file under `cli/src/commands` opens a connection, prepares a statement or holds
/// SQL (`recall sql` hands the user's script to `library::script`).
#[test]
fn the_commands_hold_no_sql_and_open_no_sqlite() {
    let dir = root().join("cli/src/commands");
    let found: Vec<String> = rust_files(&dir)
        .iter()
        .flat_map(|path| {
            let src = std::fs::read_to_string(path).expect("source");
            let shown = path
                .strip_prefix(root())
                .unwrap_or(path)
                .display()
                .to_string();
            sql_sites(&src)
                .into_iter()
                .map(move |site| format!("{shown} {site}"))
        })
        .collect();
    assert!(
        found.is_empty(),
        "SQL in the command line (move it to the layer below):\n  {}",
        found.join("\n  ")
    );
}

/// The hook's session state is a SQLite file of its own, and its SQL lives in
/// `sql/sessions/` as the library's lives in `sql/`: the code that writes and reads it
/// holds none (its tests may make a file of an old version by hand).
#[test]
fn the_session_state_s_sql_is_in_its_files() {
    let mut found = Vec::new();
    for file in ["cli/src/library/sessions.rs", "cli/src/status/sessions.rs"] {
        let src = std::fs::read_to_string(root().join(file)).expect("source");
        let code = src.split("#[cfg(test)]").next().unwrap_or("");
        assert!(code.contains("fn "), "{file} holds code");
        found.extend(
            sql_literals(code)
                .into_iter()
                .map(|s| format!("{file} {s}")),
        );
    }
    assert!(
        found.is_empty(),
        "SQL of the session state outside sql/sessions/ (move it to a file there):\n  {}",
        found.join("\n  ")
    );
}

/// The check sees each way SQL can be held, and not the words in prose or comments.
#[test]
fn sql_in_source_is_seen() {
    let held = [
        "fn f(c: &rusqlite::Connection) {}\n",
        "fn f() { lib.conn.prepare(q); }\n",
        "const Q: &str = \"SELECT id FROM items\";\n",
        "const Q: &str = \"\n    select id from items\";\n",
        "const Q: &str = r#\"insert into items(title) values (\"x\")\"#;\n",
        "fn f() { let _ = format!(\"pragma {}\", name); }\n",
    ];
    for src in held {
        assert_eq!(sql_sites(src).len(), 1, "{src:?}: {:?}", sql_sites(src));
    }
    let prose = [
        "// let conn = Connection::open(path); select * from items\n",
        "fn f() { err!(\"no SQL given: `recall sql \\\"select …\\\"`\"); }\n",
        "fn f() { let q = '\"'; let s = \"selected items\"; let t = \"update\"; }\n",
        "/// SELECT the rows\nfn f<'a>(x: &'a str) -> &'a str { x }\n",
    ];
    for src in prose {
        assert_eq!(sql_sites(src), Vec::<String>::new(), "{src:?}");
    }
}

/// The string literals of `src` equal to one of `names`, each with its line, but a JSON
/// object's key (a literal followed by `:`, as in `json!({"get": …})`), which names a
/// field of an answer, and the tests (from `#[cfg(test)]` on).
fn names_spelled(src: &str, names: &[&str]) -> Vec<(String, usize)> {
    let code = src.split("#[cfg(test)]").next().unwrap_or("");
    let c: Vec<char> = code.chars().collect();
    literal_spans(&c)
        .into_iter()
        .filter_map(|(span, range)| {
            let Span::Text(text) = span else { return None };
            let text: String = c[text].iter().collect();
            let key = c[range.end..].iter().find(|ch| !ch.is_whitespace()) == Some(&':');
            let line = c[..range.start].iter().filter(|&&ch| ch == '\n').count() + 1;
            (names.contains(&text.as_str()) && !key).then_some((text, line))
        })
        .collect()
}

/// Where the files under `dirs`, but `table`, spell one of `names` in code.
fn spelled_outside(dirs: &[&str], table: &str, names: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for dir in dirs {
        for path in rust_files(&root().join(dir)) {
            if path.ends_with(table) {
                continue;
            }
            let src = std::fs::read_to_string(&path).expect("source");
            for (name, line) in names_spelled(&src, names) {
                found.push(format!("{}:{line}: {name:?}", path.display()));
            }
        }
    }
    found
}

/// A tool's name is spelled once, in the table of tools: the catalog, the server's
/// dispatch, its signals, the tools' answers and the review page's actions read it from
/// there.
#[test]
fn the_tools_names_are_spelled_only_in_their_table() {
    let names: Vec<&str> = recall_cli::serve::table::TOOLS
        .iter()
        .map(|t| t.name)
        .collect();
    let found = spelled_outside(
        &["cli/src/mcp", "cli/src/serve", "cli/src/ui"],
        "serve/table.rs",
        &names,
    );
    assert!(
        found.is_empty(),
        "tools' names spelled outside cli/src/serve/table.rs (read them from its table):\n  {}",
        found.join("\n  ")
    );
}

/// An event's name is spelled once in the hook, in its table of events: the payload's
/// reading, the printed answers, the logs and the note on an unanswered event read it
/// from there.
#[test]
fn the_hook_events_names_are_spelled_only_in_their_table() {
    let names: Vec<&str> = recall_cli::hook::table::EVENTS
        .iter()
        .flat_map(|e| e.names.iter().copied())
        .collect();
    for name in [
        "SessionStart",
        "UserPromptSubmit",
        "PostToolUseFailure",
        "Stop",
    ] {
        assert!(names.contains(&name), "{name} is not in the hook's table");
    }
    let found = spelled_outside(&["cli/src/hook"], "hook/table.rs", &names);
    assert!(
        found.is_empty(),
        "hook events' names spelled outside cli/src/hook/table.rs (read them from its table):\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn a_tools_name_is_seen_wherever_code_spells_it() {
    let names = ["get", "forget"];
    let spelled = [
        "fn f() { match name { \"get\" => 1, _ => 0 }; }\n",
        "const WRITE: [&str; 1] = [\"forget\"];\n",
        "fn f() { split(\"get\", body); }\n",
        "fn f() { if tool == r#\"forget\"# {} }\n",
    ];
    for src in spelled {
        assert_eq!(names_spelled(src, &names).len(), 1, "{src:?}");
    }
    let not = [
        "fn f() { json!({\"get\": item, \"forget\" : 1}); }\n",
        "// \"get\" in a comment\nfn f() { let _ = \"getting\"; }\n",
        "fn f() {}\n#[cfg(test)]\nmod tests { fn t() { call(\"get\"); } }\n",
    ];
    for src in not {
        assert_eq!(names_spelled(src, &names), Vec::new(), "{src:?}");
    }
}

/// Where code names one agent (its variant, its folder) outside the agents' own
/// folder: its site and what it names. Code of tests (after `#[cfg(test)]`) aside.
fn agents_named(src: &str, variants: &[String], folders: &[String]) -> Vec<(String, usize)> {
    let code = src.split("#[cfg(test)]").next().unwrap_or("");
    let toks = tokens(&code_only(code));
    toks.windows(3)
        .filter_map(|w| match w {
            [(Token::Word(a), line), (Token::Sep, _), (Token::Word(b), _)]
                if (a == "Agent" && variants.contains(b))
                    || (a == "agents" && folders.contains(b)) =>
            {
                Some((format!("{a}::{b}"), *line))
            }
            _ => None,
        })
        .collect()
}

/// A third agent is its folder of `cli/src/agents` and the lines that list it there
/// (docs/architecture.md#agents): no code elsewhere tells one agent from another, by
/// its variant or by a path into its folder. The one exception is named with its reason.
#[test]
fn an_agent_is_named_only_in_its_folder() {
    let variants: Vec<String> = recall_cli::agents::Agent::ALL
        .iter()
        .map(|a| format!("{a:?}"))
        .collect();
    let agents = root().join("cli/src/agents");
    let mut folders: Vec<String> = std::fs::read_dir(&agents)
        .expect("cli/src/agents")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    // The unit test of this check, below, would pass on an empty list.
    assert_eq!(
        folders.len(),
        variants.len(),
        "one folder an agent: {folders:?}"
    );
    // Setup's report of the hook trust is Codex's types, the one agent that trusts hooks
    // so far: setup names them for every agent that may.
    let allowed = [("setup/mod.rs", "agents::codex")];
    let mut found = Vec::new();
    for path in rust_files(&root().join("cli/src")) {
        if path.starts_with(&agents) {
            continue;
        }
        let relative = path
            .strip_prefix(root().join("cli/src"))
            .expect("under cli/src");
        let src = std::fs::read_to_string(&path).expect("source");
        for (named, line) in agents_named(&src, &variants, &folders) {
            if !allowed.contains(&(relative.to_str().unwrap_or(""), named.as_str())) {
                found.push(format!("cli/src/{}:{line}: {named}", relative.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "one agent named outside cli/src/agents (ask the agent: `Agent::ALL`, its facts, \
         its part of the layer):\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn an_agent_named_in_code_is_seen() {
    let (variants, folders) = (vec!["Codex".to_string()], vec!["codex".to_string()]);
    for (src, expected) in [
        (
            "fn f(a: Agent) -> bool { a == Agent::Codex }\n",
            vec!["Agent::Codex"],
        ),
        (
            "use crate::agents::codex::setup::Trust;\n",
            vec!["agents::codex"],
        ),
        (
            "fn f() { match a { Agent :: Codex => 1 } }\n",
            vec!["Agent::Codex"],
        ),
        (
            "// Agent::Codex in a comment\nfn f() { g(\"agents::codex\"); }\n",
            vec![],
        ),
        ("fn f() { Agent::ALL; agents::Agent::name; }\n", vec![]),
        (
            "fn f() {}\n#[cfg(test)]\nmod tests { fn t() { Agent::Codex; } }\n",
            vec![],
        ),
    ] {
        let found: Vec<String> = agents_named(src, &variants, &folders)
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(found, expected, "{src:?}");
    }
}
