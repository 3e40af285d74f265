//! The one rule by which a command, or an error line, is the same as an earlier one
//! (docs/cli.md#before-a-command): both sides are read through the same function and the
//! results compared whole.
//!
//! A command keeps its program (by its file name: `/usr/bin/git` is `git`), its
//! subcommands and other bare words, its options by name and its operators (`&&`, `|`);
//! it masks what changes from one run to the next: a path (a word with a `/`, or one
//! that opens with `.` or `~`) is `PATH`, a number `N`, a quoted word `'…'`, an option's
//! value (`--features=x`) `=…`, and a leading `NAME=value` is left out. Its lines are
//! joined into one, as capture stores a command.
//!
//! An error line keeps its words and masks its paths (`PATH`) and the digits in any word
//! (`#`), as `ls: cannot access 'x/1': No such file` and `…'y/2'…` are one error.

/// The command line as the rule reads it: its words joined by single spaces; None for a
/// line of no words.
pub fn command(text: &str) -> Option<String> {
    let one: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let words = words(&one.join(" "));
    let mut out: Vec<String> = Vec::new();
    for (word, quoted) in words {
        let first = out.is_empty();
        if first && !quoted && is_assignment(&word) {
            continue;
        }
        let masked = if quoted {
            "'…'".to_string()
        } else if first {
            word.rsplit('/').next().unwrap_or(&word).to_string()
        } else if word.starts_with('-') {
            match word.split_once('=') {
                Some((name, _)) => format!("{name}=…"),
                None => digits(&word),
            }
        } else if is_path(&word) {
            "PATH".to_string()
        } else if is_number(&word) {
            "N".to_string()
        } else {
            word
        };
        out.push(masked);
    }
    (!out.is_empty()).then(|| out.join(" "))
}

/// The error line as the rule reads it: paths `PATH`, digits `#`, whitespace single.
pub fn error(line: &str) -> String {
    line.split_whitespace()
        .map(|word| {
            // A path inside quotes or before a colon (`'src/a.rs':`, `src/a.rs:12:5`).
            let core = word.trim_matches(|c: char| "'\"`()[]{}<>,;".contains(c));
            let path = core.split(':').next().unwrap_or(core);
            match !path.is_empty() && is_path(path) {
                true => digits(&word.replacen(path, "PATH", 1)),
                false => digits(word),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The plain words of a masked line, for a full-text query that finds its candidates
/// (each is in the stored line the masked one came from); of three characters or more,
/// as the library's trigram index finds no shorter one.
pub fn plain_words(masked: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in masked.split(|c: char| !c.is_alphanumeric() && c != '_') {
        let keep = word.chars().count() >= 3
            && word != "PATH"
            && !word.chars().all(|c| c.is_ascii_digit());
        if keep && !out.iter().any(|w| w == word) {
            out.push(word.to_string());
        }
    }
    out
}

/// The words of a command line, each with whether any part of it was quoted; operators
/// (`&&`, `||`, `|`, `;`) are words of their own.
fn words(line: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let (mut word, mut quoted, mut open) = (String::new(), false, None::<char>);
    let mut chars = line.chars().peekable();
    let flush = |word: &mut String, quoted: &mut bool, out: &mut Vec<(String, bool)>| {
        if !word.is_empty() || *quoted {
            out.push((std::mem::take(word), *quoted));
        }
        *quoted = false;
    };
    while let Some(c) = chars.next() {
        match (open, c) {
            (Some(q), c) if c == q => open = None,
            (Some('"'), '\\') => word.extend(chars.next()),
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                open = Some(c);
                quoted = true;
            }
            (None, '\\') => word.extend(chars.next()),
            (None, c) if c.is_whitespace() => flush(&mut word, &mut quoted, &mut out),
            (None, '|' | '&' | ';') => {
                flush(&mut word, &mut quoted, &mut out);
                let mut op = c.to_string();
                if chars.peek() == Some(&c) {
                    chars.next();
                    op.push(c);
                }
                out.push((op, false));
            }
            (None, c) => word.push(c),
        }
    }
    flush(&mut word, &mut quoted, &mut out);
    out
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
    })
}

fn is_path(word: &str) -> bool {
    word.contains('/') || word.starts_with('.') && word.len() > 1 || word.starts_with('~')
}

fn is_number(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_digit())
        && word
            .chars()
            .all(|c| c.is_ascii_digit() || ".:,_-+".contains(c))
}

/// Each run of digits as one `#`.
fn digits(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    let mut last = false;
    for c in word.chars() {
        let d = c.is_ascii_digit();
        if !d {
            out.push(c);
        } else if !last {
            out.push('#');
        }
        last = d;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_alike_but_for_their_values_are_one() {
        let same = [
            (
                "cargo test -p shop --features x",
                "cargo test -p shop --features x",
            ),
            ("cargo test src/a.rs", "cargo test ./tests/b.rs"),
            (
                "pytest -k 'vat and round' -x",
                "pytest -k \"other words\" -x",
            ),
            ("sleep 5 && make build", "sleep 30 && make build"),
            ("/usr/bin/git status", "git status"),
            ("RUST_LOG=debug cargo run", "cargo run"),
            ("cargo build --jobs=4", "cargo build --jobs=16"),
            ("npm run\n  build", "npm run build"),
            ("cat ~/a.txt | wc -l", "cat ~/b.txt | wc -l"),
        ];
        for (a, b) in same {
            assert_eq!(command(a), command(b), "{a} / {b}");
        }
        let different = [
            ("cargo test", "cargo build"),
            ("git push origin", "git pull origin"),
            ("cargo test --release", "cargo test"),
            ("make && make install", "make || make install"),
            ("./run.sh", "./deploy.sh"),
        ];
        for (a, b) in different {
            assert_ne!(command(a), command(b), "{a} / {b}");
        }
        assert_eq!(
            command("pytest tests/test_vat.py -k 'round' --maxfail=2 -n 4").as_deref(),
            Some("pytest PATH -k '…' --maxfail=… -n N")
        );
        assert_eq!(command("  \n "), None);
    }

    #[test]
    fn error_lines_alike_but_for_paths_and_numbers_are_one() {
        assert_eq!(
            error("ls: cannot access '/srv/data/2024': No such file or directory"),
            error("ls: cannot access  '/tmp/x': No such file or directory")
        );
        assert_eq!(
            error("error[E0425]: cannot find value `x` in src/tax.rs:12:5"),
            "error[E#]: cannot find value `x` in PATH:#:#"
        );
        assert_ne!(
            error("error: could not compile `shop`"),
            error("error: could not compile `cart`")
        );
        assert_eq!(
            plain_words(&error(
                "error[E0425]: cannot find value `x` in src/tax.rs:12"
            )),
            vec!["error", "cannot", "find", "value"]
        );
    }
}
