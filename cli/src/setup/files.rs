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

/// The file a write of `path` changes: the one a symbolic link names.
fn real(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
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

/// Removes the file (the link's target, for a link, and the link).
pub fn delete(path: &Path) -> std::io::Result<()> {
    let target = real(path);
    std::fs::remove_file(&target)?;
    if target != path {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}
