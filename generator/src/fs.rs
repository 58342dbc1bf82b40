//! The file system as apigen reads it: directories walked in a fixed order without following
//! links, and files read only when they are regular files.

use std::path::{Path, PathBuf};

/// Every entry below `dir` that is not a directory (files, symbolic links, FIFOs, ...),
/// recursively, sorted by path, so nothing depends on the order of directory listings.
/// Symbolic links are listed, never followed: a link to a parent cannot make the walk loop or
/// lead it out of `dir`; callers decide what a listed link means to them.
pub(crate) fn files_below(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current)? {
            let entry = entry?;
            if entry.file_type()?.is_dir() {
                pending.push(entry.path());
            } else {
                found.push(entry.path());
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The bytes of `path` when it is a regular file: never read through a link, and never from a
/// FIFO or device, which could block or never end.
pub(crate) fn read_regular(path: &Path) -> Option<Vec<u8>> {
    if !std::fs::symlink_metadata(path).ok()?.file_type().is_file() {
        return None;
    }
    std::fs::read(path).ok()
}

/// The text of `path` when it is a regular file holding UTF-8 (see [`read_regular`]).
pub(crate) fn read_regular_text(path: &Path) -> Option<String> {
    String::from_utf8(read_regular(path)?).ok()
}
