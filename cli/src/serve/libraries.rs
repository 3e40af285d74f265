//! The server's connections to its library: reads each take one of a small pool, so a
//! slow call (a judge, an embedder) never holds up another; writes share one connection,
//! one at a time. Before each call the path is looked at again: a library deleted or
//! replaced under the server (another file at the same path) is never written into or
//! read from its old, unlinked file; the new one is opened as at start, or the call is
//! refused. Each call then sees the library as it is now (`refresh`), and a write runs
//! under the signals' watch (`signals::writing`).
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use serde_json::Value as Json;

use super::signals;
use crate::error::{err, Error, Result};
use crate::library::{self, Library, Mode};

/// Idle read connections kept for the next calls; more are opened when calls overlap.
const IDLE_READERS: usize = 4;

/// Which file a path names: device and inode.
type FileId = (u64, u64);

pub struct Libraries {
    path: PathBuf,
    /// `--tokenizer` or the configuration's, checked at each open.
    tokenizer: Option<String>,
    state: Mutex<State>,
    /// The one connection that writes, with `--allow-writes`.
    writer: Mutex<Option<Library>>,
}

struct State {
    file: FileId,
    /// Bumped when the library is opened again: connections of an older one are dropped.
    generation: u64,
    readers: Vec<(u64, Library)>,
}

/// A read connection, back to the pool when dropped.
pub struct Reader<'a> {
    owner: &'a Libraries,
    generation: u64,
    library: Option<Library>,
}

impl Libraries {
    /// Opens the library as the server starts: for writing with `writes`.
    pub fn open(path: &Path, tokenizer: Option<&str>, writes: bool) -> Result<Libraries> {
        let mode = if writes { Mode::Write } else { Mode::Read };
        let mut first = library::open(path, mode, tokenizer)?;
        if writes {
            watch_commits(&mut first)?;
        }
        let file = file_id(path)?;
        let (writer, readers) = if writes {
            (Some(first), Vec::new())
        } else {
            (None, vec![(0, first)])
        };
        Ok(Libraries {
            path: path.to_path_buf(),
            tokenizer: tokenizer.map(str::to_string),
            state: Mutex::new(State {
                file,
                generation: 0,
                readers,
            }),
            writer: Mutex::new(writer),
        })
    }

    /// A connection for reading the library the path names now.
    pub fn reader(&self) -> Result<Reader<'_>> {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if file_id(&self.path).ok() != Some(state.file) {
            // The writer's lock is always taken before the state's.
            drop(state);
            let mut writer = self.writer.lock().unwrap_or_else(|p| p.into_inner());
            state = self.state.lock().unwrap_or_else(|p| p.into_inner());
            self.follow(&mut writer, &mut state)?;
        }
        let generation = state.generation;
        let idle = state.readers.pop().map(|(_, l)| l);
        drop(state);
        let library = match idle {
            Some(library) => library,
            None => library::open(&self.path, Mode::Read, self.tokenizer.as_deref())?,
        };
        Ok(Reader {
            owner: self,
            generation,
            library: Some(library),
        })
    }

    /// The write connection, once the writes before it have ended; None on a server
    /// that only reads.
    pub fn writer(&self) -> Result<MutexGuard<'_, Option<Library>>> {
        let mut writer = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        self.follow(&mut writer, &mut state)?;
        drop(state);
        Ok(writer)
    }

    /// Runs `read` on a reader of the library as it is now.
    pub fn read<T>(&self, read: impl FnOnce(&mut Library) -> Result<T>) -> Result<T> {
        let mut reader = self.reader()?;
        refresh(&mut reader, self.tokenizer.as_deref())?;
        read(&mut reader)
    }

    /// Runs `write` on the write connection as it is now, once the writes before it
    /// have ended, under the signals' watch: `name` is the call's, `done` what its
    /// answer says it did, `request` the id of the request it answers (for a signal's
    /// line). `unwritable` is the error of a library opened only for reading.
    pub fn write(
        &self,
        unwritable: impl FnOnce() -> Error,
        name: &'static str,
        done: fn(&Json) -> String,
        request: Json,
        write: impl FnOnce(&mut Library) -> Result<Json>,
    ) -> Result<Json> {
        // A panic while the connection was held leaves it as SQLite left it: any open
        // transaction is rolled back when its guard unwinds, so it stays usable.
        let mut writer = self.writer()?;
        let lib = writer.as_mut().ok_or_else(unwritable)?;
        refresh(lib, self.tokenizer.as_deref())?;
        signals::writing(name, done, request, || write(lib))
    }

    /// Opens the library again, as at start, when the path names another file than the
    /// one open; the caller holds both locks, so nothing reads or writes meanwhile.
    fn follow(&self, writer: &mut Option<Library>, state: &mut State) -> Result<()> {
        if file_id(&self.path).ok() == Some(state.file) {
            return Ok(());
        }
        let replaced = |e: crate::error::Error| {
            err!(
                "{} is no longer the library this server opened (it was deleted or replaced while the server ran), and {}; nothing was read or written",
                self.path.display(),
                e.message
            )
        };
        let mode = if writer.is_some() {
            Mode::Write
        } else {
            Mode::Read
        };
        let mut fresh =
            library::open(&self.path, mode, self.tokenizer.as_deref()).map_err(replaced)?;
        state.file = file_id(&self.path).map_err(replaced)?;
        state.generation += 1;
        state.readers.clear();
        match writer {
            Some(old) => {
                watch_commits(&mut fresh)?;
                *old = fresh;
            }
            None => {
                let generation = state.generation;
                state.readers.push((generation, fresh));
            }
        }
        Ok(())
    }
}

impl std::ops::Deref for Reader<'_> {
    type Target = Library;
    fn deref(&self) -> &Library {
        self.library
            .as_ref()
            .expect("a reader holds its library until dropped")
    }
}

impl std::ops::DerefMut for Reader<'_> {
    fn deref_mut(&mut self) -> &mut Library {
        self.library
            .as_mut()
            .expect("a reader holds its library until dropped")
    }
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        let Some(library) = self.library.take() else {
            return;
        };
        let mut state = self.owner.state.lock().unwrap_or_else(|p| p.into_inner());
        if state.generation == self.generation && state.readers.len() < IDLE_READERS {
            state.readers.push((self.generation, library));
        }
    }
}

/// The library as it is now: another process may have rebuilt it with another tokenizer
/// since the server opened it.
fn refresh(lib: &mut Library, configured: Option<&str>) -> Result<()> {
    library::ensure_recorded(lib)?;
    if let Some(recorded) = library::schema::recorded_tokenizer(&lib.conn) {
        lib.tokenizer = recorded;
    }
    library::check_configured(lib, configured)
}

/// A signal during a write waits once its commit has begun (`signals`).
fn watch_commits(writer: &mut Library) -> Result<()> {
    writer
        .conn
        .commit_hook(Some(signals::committing))
        .map_err(|e| err!("cannot watch the library's commits: {e}"))
}

fn file_id(path: &Path) -> Result<FileId> {
    let meta = std::fs::metadata(path).map_err(|e| err!("cannot read {}: {e}", path.display()))?;
    Ok((meta.dev(), meta.ino()))
}
