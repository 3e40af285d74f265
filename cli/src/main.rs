//! `recall`: create, check, rebuild and search a sqlite-recall library.
fn main() {
    std::process::exit(recall_cli::entry::run(std::env::args_os()));
}
