//! The library's files as the file system sees them: what a path holds, the files
//! beside it, and whether this process may write them.
use std::path::{Path, PathBuf};

use crate::error::{err, Result};

/// What a path holds, followed through links: only a regular file can be a library.
pub(super) fn kind_of(path: &Path) -> Result<Option<std::fs::Metadata>> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(err!(
            "{} is a directory: give the path of a library file",
            path.display()
        )),
        Ok(m) if !m.is_file() => Err(err!(
            "{} is not a regular file (a device, pipe or socket): give the path of a library file",
            path.display()
        )),
        Ok(m) => Ok(Some(m)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(err!("cannot read {}: {e}", path.display())),
    }
}

/// `path` with a suffix appended: the `-wal`, `-shm` and `-journal` files beside a library.
pub fn sidecar(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    PathBuf::from(p)
}

pub(super) const SIDECARS: [&str; 3] = ["-wal", "-shm", "-journal"];

/// Whether this process may write `path` (as the kernel decides: owner, mode, mount).
fn writable(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `c` is a valid NUL-terminated path for the duration of the call.
    unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
}

fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A writing command needs the file, its `-wal` and `-shm` (where they exist) and the
/// directory (where they do not) to be writable: name the one that is not.
pub fn ensure_writable(path: &Path) -> Result<()> {
    // A file without any write bit is write-protected on purpose, even for root.
    let protected = std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly());
    if protected || !writable(path) {
        return Err(err!(
            "{} is read-only for you and this command writes to it: make it writable (chmod u+w), run as its owner, or use a read command",
            path.display()
        ));
    }
    let unwritable: Vec<String> = ["-wal", "-shm"]
        .iter()
        .map(|s| sidecar(path, s))
        .filter(|side| side.exists() && !writable(side))
        .map(|side| side.display().to_string())
        .collect();
    if !unwritable.is_empty() {
        return Err(err!(
            "{} not writable for you, and writes to the library go through {}: make {} writable, or run as the user who owns {}",
            match unwritable.len() {
                1 => format!("{} is", unwritable[0]),
                _ => format!("{} are", unwritable.join(" and ")),
            },
            if unwritable.len() == 1 { "it" } else { "them" },
            if unwritable.len() == 1 { "it" } else { "them" },
            if unwritable.len() == 1 { "it" } else { "them" },
        ));
    }
    let dir = directory_of(path);
    let missing = ["-wal", "-shm"].iter().any(|s| !sidecar(path, s).exists());
    if missing && !writable(&dir) {
        return Err(err!(
            "the directory {} is read-only for you, and a write must create the library's -wal and -shm files there: make it writable, or use a read command",
            dir.display()
        ));
    }
    Ok(())
}

/// A path as a `file:` URI path: `%`, `?` and `#` are escaped, so that any file name works.
pub(super) fn uri_path(path: &Path) -> String {
    let mut out = String::new();
    for b in path.as_os_str().as_encoded_bytes() {
        match b {
            b'%' | b'?' | b'#' => out.push_str(&format!("%{b:02X}")),
            _ if b.is_ascii() => out.push(char::from(*b)),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}
