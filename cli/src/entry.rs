//! The front door: the command line parsed, a usage error told as one line, and the
//! command routed to its front end (the commands, the review page, the session hook);
//! an error any of them returns is printed here, as one line. `main.rs` calls `run`.
use std::ffi::OsString;

use clap::Parser;

use crate::{args, commands, error, hook, interrupt, text, ui};

/// Environment variables that stand for flags. Set but empty, they count as unset, as
/// an empty `RECALL_DB=` in a script means "no library" rather than a path named "".
const FLAG_VARIABLES: [&str; 3] = ["RECALL_DB", "RECALL_CONFIG", "RECALL_TOKENIZER"];

/// Runs the command line; returns the process exit code. Errors print as one line on
/// stderr: text, or under `--json` one JSON object `{"error": …, "exit_code": …}`.
pub fn run<I: IntoIterator<Item = OsString>>(argv: I) -> i32 {
    let argv: Vec<OsString> = argv.into_iter().collect();
    let json = argv.iter().skip(1).any(|a| a == "--json");
    interrupt::ignore_file_size_limit_signal();
    crate::library::configure_sqlite();
    for name in FLAG_VARIABLES {
        if std::env::var_os(name).is_some_and(|v| v.is_empty()) {
            std::env::remove_var(name);
        }
    }
    let cli = match args::Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        // Help and version print as clap writes them; a usage error is one line.
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return 0;
        }
        Err(e) => {
            let text = e.to_string();
            let hook = subcommand(&argv).is_some_and(|c| c == "hook");
            let message: Vec<&str> = text
                .lines()
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            let message = format!(
                "{} (see `recall --help`)",
                message.join(" ").trim_start_matches("error: ")
            );
            if hook {
                return hook::usage_error(&message);
            }
            return fail(&message, error::EXIT_ERROR, json);
        }
    };
    let json = cli.json;
    // The review page and the hook are front ends of their own, so the commands do not
    // dispatch to them (nor to the start's cost, which the hook measures); the hook resolves its own configuration: a bad one must not fail
    // the prompt.
    let ran = match &cli.command {
        args::Command::Ui(a) => ui::run(&cli, a),
        args::Command::Hook(a) => Ok(hook::run(&cli, a)),
        // Measured with the start's own code: `recall eval --start-cost`.
        args::Command::Eval(a) if a.start_cost => hook::start_cost(&cli),
        _ => commands::dispatch(cli),
    };
    match ran {
        Ok(code) => code,
        Err(e) => fail(&e.message, error::EXIT_ERROR, json),
    }
}

/// The subcommand named on a command line clap refused: the first word after the
/// global options.
fn subcommand(argv: &[OsString]) -> Option<&std::ffi::OsStr> {
    let value_options = args::global_value_options();
    let mut args = argv.iter().skip(1);
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy();
        if value_options.iter().any(|o| *o == text) {
            args.next();
        } else if !text.starts_with('-') {
            return Some(arg);
        }
    }
    None
}

/// Prints an error as one line and returns its exit code.
fn fail(message: &str, code: i32, json: bool) -> i32 {
    if json {
        eprintln!(
            "{}",
            serde_json::json!({ "error": message, "exit_code": code })
        );
    } else {
        eprintln!("recall: {}", text::field(message));
    }
    code
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;
    use std::path::Path;

    use clap::{CommandFactory, Parser};

    use super::*;
    use crate::setup;

    /// The global options after which clap itself takes the next word as a value:
    /// `recall OPTION search hook` runs the hook.
    fn globals_clap_gives_a_value() -> Vec<String> {
        args::Cli::command()
            .get_arguments()
            .filter(|a| a.is_global_set())
            .filter_map(|a| a.get_long().map(|long| format!("--{long}")))
            .filter(|option| {
                let cli = args::Cli::try_parse_from(["recall", option, "search", "hook"]);
                matches!(cli.map(|c| c.command), Ok(args::Command::Hook(_)))
            })
            .collect()
    }

    #[test]
    fn every_global_option_with_a_value_is_known_to_each_reader_of_a_command_line() {
        let options = globals_clap_gives_a_value();
        assert!(options.contains(&"--db".to_string()), "{options:?}");
        assert!(!options.contains(&"--json".to_string()), "{options:?}");
        for option in &options {
            let argv: Vec<OsString> = ["recall", option, "search", "hook"]
                .iter()
                .map(OsString::from)
                .collect();
            assert_eq!(
                subcommand(&argv),
                Some(std::ffi::OsStr::new("hook")),
                "{option}"
            );
            assert!(
                setup::recall_hook(&format!("recall {option} search hook")),
                "{option}"
            );
        }
        // Each set, with a value of its own; the hook's capture gets every one again.
        let mut argv = vec!["recall".to_string()];
        for option in &options {
            argv.extend([option.clone(), format!("value of {option}")]);
        }
        argv.push("hook".to_string());
        let cli = args::Cli::try_parse_from(&argv).expect("the globals parse");
        let passed: Vec<(String, OsString)> =
            hook::end::passed_on(&cli, Path::new("value of --db"));
        let want: Vec<(String, OsString)> = options
            .iter()
            .map(|o| (o.clone(), OsString::from(format!("value of {o}"))))
            .collect();
        assert_eq!(passed, want);
    }
}
