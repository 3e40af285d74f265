//! Reading and writing the agents' files: every write is atomic (a temporary file beside
//! the real one, then a rename), keeps the file's permissions, goes through a symbolic
//! link to the file it names (a settings file kept in a dotfiles repository stays
//! there), and is preceded by a backup of what the file held.
use std::io::Write;
use std::path::{Path, PathBuf};

/// A file's text; None when there is none. The error is one line.
pub fn read(path: &Path) -> Result<Option<String>, String> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| "is not UTF-8 text".to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot be read: {e}")),
    }
}

/// The backup of `path`: `PATH.recall-backup`, beside it.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".recall-backup");
    PathBuf::from(name)
}

/// The file a write of `path` changes: the one a symbolic link names, followed link by
/// link, so that a link whose file does not exist yet (a dotfiles repository not filled
/// in) is written where it points, not replaced by a file.
fn real(path: &Path) -> PathBuf {
    let mut at = path.to_path_buf();
    // As many links as Linux follows (MAXSYMLINKS); a loop beyond it stays a link, and
    // the write fails on it with the system's word.
    for _ in 0..40 {
        match std::fs::read_link(&at) {
            Ok(target) => {
                at = match at.parent() {
                    Some(dir) => dir.join(target),
                    None => target,
                }
            }
            Err(_) => return at,
        }
    }
    at
}

/// Whether setup may write `path` (before any file is written, so that a setup that
/// cannot finish changes nothing): a file there that is read-only is not replaced (an
/// atomic rename would replace it all the same), and the folder it is written in (or
/// the nearest one that exists, to be created under) must be writable. The error
/// completes "PATH …" and says how to fix it.
pub fn writable(path: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let file = real(path);
    let shown = match file.as_path() == path {
        true => String::new(),
        false => format!(" (a link to {})", file.display()),
    };
    match std::fs::metadata(&file) {
        Ok(m) if m.is_dir() => return Err(format!("{shown} is a folder: move it away")),
        Ok(m) if m.permissions().mode() & 0o200 == 0 => {
            return Err(format!(
                "{shown} is read-only: make it writable (`chmod u+w`) if recall may change it"
            ))
        }
        _ => {}
    }
    let mut dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
    if dir.as_os_str().is_empty() {
        dir = PathBuf::from(".");
    }
    let existing = dir
        .ancestors()
        .find(|d| std::fs::symlink_metadata(d).is_ok())
        .unwrap_or(Path::new("/"));
    if !existing.is_dir() {
        return Err(format!(
            "{shown} cannot be written: {} is not a folder",
            existing.display()
        ));
    }
    let name = std::ffi::CString::new(existing.as_os_str().as_encoded_bytes())
        .map_err(|_| format!("{shown} has a NUL in its path"))?;
    // SAFETY: `name` is a NUL-terminated path that lives through the call.
    if unsafe { libc::access(name.as_ptr(), libc::W_OK) } != 0 {
        return Err(format!(
            "{shown} cannot be written: {}: {}",
            existing.display(),
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
}

/// Writes `text` to `path` atomically, with the permissions of `like` when it exists.
pub fn write(path: &Path, text: &str, like: Option<&Path>) -> std::io::Result<()> {
    let path = real(path);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = dir.join(format!(".{name}.recall-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&temporary)?;
        f.write_all(text.as_bytes())?;
        if let Some(m) = like.and_then(|l| std::fs::metadata(l).ok()) {
            f.set_permissions(m.permissions())?;
        }
        f.sync_all()?;
        std::fs::rename(&temporary, &path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    result
}

/// Removes the file (for a link, the file it names: the link stays, as it was before
/// setup wrote through it).
pub fn delete(path: &Path) -> std::io::Result<()> {
    std::fs::remove_file(real(path))
}
