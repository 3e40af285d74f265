//! What `recall sql` refuses without `--write`, decided by SQLite's authorizer as each
//! statement is compiled, before it runs. The read-only connection already refuses
//! writes to the library, but not everything that writes a file: `VACUUM INTO` writes a
//! full copy of the library wherever it is told to (a copy `recall forget` can never
//! wipe), `ATTACH` opens another database file (a WAL one gets its `-wal` and `-shm`),
//! and a read-only connection reports some refused writes (`pragma journal_mode=delete`)
//! as an I/O error. So without `--write` every statement that would write a database
//! file other than the temporary one is refused, with a reason the error names. With or
//! without it, `VACUUM INTO` and `load_extension` are refused, and with it the script
//! may not end the transaction it runs in.
use std::sync::{Arc, Mutex, MutexGuard};

use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::Connection;

use crate::error::{Error, Result};

/// The advice of every write refused without `--write`.
pub const WRITE_ADVICE: &str = "add --write to allow it";

#[derive(Default)]
struct State {
    /// Why the last statement was refused.
    refusal: Option<String>,
    /// Whether the user's script is being compiled or run (not recall's own statements,
    /// such as the transaction of --write).
    script: bool,
    /// Whether a statement is running (an ATTACH then comes from VACUUM).
    running: bool,
}

/// The authorizer installed on a `recall sql` connection; `write` is `--write`.
pub struct Guard {
    state: Arc<Mutex<State>>,
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    // The state is a flag and a message: one left by a panicking callback is still sound.
    state.lock().unwrap_or_else(|e| e.into_inner())
}

impl Guard {
    pub fn install(conn: &mut Connection, write: bool) -> Result<Guard> {
        let state = Arc::new(Mutex::new(State::default()));
        let shared = Arc::clone(&state);
        conn.authorizer(Some(move |ctx: AuthContext<'_>| {
            let mut state = lock(&shared);
            if !state.script {
                return Authorization::Allow;
            }
            match refusal(&ctx, write, state.running) {
                Some(reason) => {
                    state.refusal = Some(reason);
                    Authorization::Deny
                }
                None => Authorization::Allow,
            }
        }))
        .map_err(|e| Error::sqlite("sql: setting up the statement checks", &e))?;
        Ok(Guard { state })
    }

    /// Runs the user's script: the checks apply inside `f` only.
    pub fn script<T>(&self, f: impl FnOnce() -> T) -> T {
        lock(&self.state).script = true;
        let result = f();
        lock(&self.state).script = false;
        result
    }

    /// Marks the statements as running (true) or being compiled (false).
    pub fn running(&self, running: bool) {
        lock(&self.state).running = running;
    }

    /// Why the statement that just failed was refused, if it was.
    pub fn take_refusal(&self) -> Option<String> {
        lock(&self.state).refusal.take()
    }
}

/// Whether an action touches a database other than the temporary one, where the
/// connection's own scratch tables live.
fn outside_temp(ctx: &AuthContext<'_>) -> bool {
    ctx.database_name
        .is_some_and(|db| !db.eq_ignore_ascii_case("temp"))
}

/// The reason to refuse an action, or None to allow it.
fn refusal(ctx: &AuthContext<'_>, write: bool, running: bool) -> Option<String> {
    let writes = || format!("the statement writes to the library: {WRITE_ADVICE}");
    match ctx.action {
        // No extension is loaded: every recall_* function is registered already.
        AuthAction::Function { function_name } if function_name.eq_ignore_ascii_case("load_extension") => {
            Some("load_extension is off in recall sql: every recall_* function is registered already".into())
        }
        // VACUUM runs by attaching its output: INTO a file, or a temporary copy. A
        // script of --write can end its transaction and VACUUM INTO after it.
        AuthAction::Attach { filename } if running && !filename.is_empty() => Some(format!(
            "VACUUM INTO writes a copy of the library to {filename:?}, which `recall forget` cannot wipe: recall sql writes no other file; copy the library file itself if you need a copy"
        )),
        // The script of --write is one transaction: ending it half-way would keep the
        // first statements of a script that fails later.
        AuthAction::Transaction { .. } if write => Some(
            "with --write the script runs in one transaction of its own: leave out BEGIN, COMMIT, END and ROLLBACK (SAVEPOINT and RELEASE work inside it)".into(),
        ),
        _ if write => None,
        AuthAction::Attach { .. } if running => Some(writes()),
        AuthAction::Attach { filename } => Some(format!(
            "ATTACH opens the database file {filename:?} and can create or change it: {WRITE_ADVICE}"
        )),
        AuthAction::Pragma { pragma_name, pragma_value } => {
            let name = pragma_name.to_ascii_lowercase();
            let changes_file = match name.as_str() {
                // Setting it rewrites the library's header and log; reading it is a read.
                "journal_mode" => pragma_value.is_some(),
                "wal_checkpoint" | "incremental_vacuum" | "optimize" => true,
                _ => false,
            };
            changes_file.then(|| {
                format!("the statement writes to the library (pragma {name}): {WRITE_ADVICE}")
            })
        }
        AuthAction::Insert { .. }
        | AuthAction::Update { .. }
        | AuthAction::Delete { .. }
        | AuthAction::CreateIndex { .. }
        | AuthAction::CreateTable { .. }
        | AuthAction::CreateTrigger { .. }
        | AuthAction::CreateView { .. }
        | AuthAction::DropIndex { .. }
        | AuthAction::DropTable { .. }
        | AuthAction::DropTrigger { .. }
        | AuthAction::DropView { .. }
        | AuthAction::AlterTable { .. }
        | AuthAction::Reindex { .. }
        | AuthAction::Analyze { .. }
        | AuthAction::CreateVtable { .. }
        | AuthAction::DropVtable { .. }
            if outside_temp(ctx) =>
        {
            Some(writes())
        }
        _ => None,
    }
}
