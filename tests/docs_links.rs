//! The documentation is the reference, so its links must lead somewhere: every relative
//! link of README.md and docs/*.md names a file of the repository and, with a `#part`,
//! a heading of that file (as GitHub makes anchors of headings); every source file the
//! prose names in backquotes exists; every page of docs/ is listed in the README's
//! Documentation section.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use crate::common::{files_in, root};

fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    pages.extend(files_in("docs", "md"));
    pages
}

/// The text outside fenced code blocks, where a link is a link.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens, and
/// `-1`, `-2` … for repeats.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = BTreeSet::new();
    for line in prose(text).lines() {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let heading = heading.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let slug: String = heading
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.insert(if *n == 0 {
            slug.clone()
        } else {
            format!("{slug}-{n}")
        });
        *n += 1;
    }
    out
}

/// The targets of the inline links `[text](target)` of a page.
fn links(text: &str) -> Vec<String> {
    let text = prose(text);
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            out.push(rest[..end].to_string());
            rest = &rest[end..];
        }
    }
    out
}

#[test]
fn every_relative_link_leads_to_a_file_and_a_heading() {
    let mut broken = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("page");
        let dir = page.parent().expect("a directory");
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                page.clone()
            } else {
                dir.join(file)
            };
            let name = page.strip_prefix(root()).unwrap_or(&page).display();
            if !path.exists() {
                broken.push(format!("{name}: {target}: no such file"));
                continue;
            }
            if let Some(anchor) = anchor {
                let is_markdown = path.extension().is_some_and(|x| x == "md");
                if is_markdown {
                    let headings = anchors(&std::fs::read_to_string(&path).expect("target"));
                    if !headings.contains(anchor) {
                        broken.push(format!("{name}: {target}: no such heading"));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The files of the repository, as paths from its root (build outputs and installed
/// packages left out).
fn repository_files() -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if !["target", "node_modules", ".git", "corpus", "artifacts"]
                    .contains(&name.as_str())
                {
                    walk(&path, out);
                }
            } else if let Ok(relative) = path.strip_prefix(root()) {
                out.push(relative.to_string_lossy().into_owned());
            }
        }
    }
    let mut out = Vec::new();
    walk(&root(), &mut out);
    out
}

/// Names the docs use as examples of what a user's files are called, not as ours.
const EXAMPLE_NAMES: &[&str] = &[
    "ratelimit.rs",
    "src/importer.rs",
    "src/ratelimit.rs",
    "src/billing/tax.rs",
    "/home/b/shop2/src/billing/tax.rs",
];

/// A source file named in backquotes, `cli/src/judge/rules.rs` or `rules.rs`: with a
/// directory it is a path from the root; alone, some file of the repository is called
/// so. Placeholders (`NNNN_name.sql`) and globs are not names.
#[test]
fn every_source_file_the_prose_names_exists() {
    let files = repository_files();
    let mut missing = Vec::new();
    for page in pages() {
        let text = prose(&std::fs::read_to_string(&page).expect("page"));
        let name = page
            .strip_prefix(root())
            .unwrap_or(&page)
            .display()
            .to_string();
        for quoted in text.split('`').skip(1).step_by(2) {
            let is_source = [".rs", ".sql", ".py", ".mjs", ".sh"]
                .iter()
                .any(|ext| quoted.ends_with(ext));
            let placeholder = quoted.contains("NNNN") || quoted.contains('*');
            if !is_source
                || placeholder
                || quoted.contains(char::is_whitespace)
                || EXAMPLE_NAMES.contains(&quoted)
            {
                continue;
            }
            let found = if quoted.contains('/') {
                files.iter().any(|f| f == quoted)
            } else {
                files.iter().any(|f| f.rsplit('/').next() == Some(quoted))
            };
            if !found {
                missing.push(format!("{name}: `{quoted}`"));
            }
        }
    }
    assert!(missing.is_empty(), "no such file:\n{}", missing.join("\n"));
}

#[test]
fn the_readme_lists_every_page_of_docs() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
    let listed = &readme[readme
        .find("## Documentation")
        .expect("a Documentation section")..];
    for page in pages().iter().skip(1) {
        let name = Path::new("docs").join(page.file_name().expect("name"));
        assert!(
            listed.contains(&format!("]({})", name.display())),
            "README's Documentation section does not list {}",
            name.display()
        );
    }
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let text = "# Performance\n## Common-term pruning (optional, off by default)\n## `recall eval`\n## Set up\n## Set up\n```\n# not a heading\n```\n";
    let want: BTreeSet<String> = [
        "performance",
        "common-term-pruning-optional-off-by-default",
        "recall-eval",
        "set-up",
        "set-up-1",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(anchors(text), want);
}
