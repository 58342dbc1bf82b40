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

/// Writes `files` (relative paths and contents) as the whole content of directory `dir`:
/// into a new directory beside it, then renamed into place, so `dir` never holds half of
/// them and nothing is written outside `dir` and that sibling. `dir` must be absent or empty
/// unless `replace`; a link or a file there is refused either way.
pub(crate) fn replace_dir(
    dir: &Path,
    files: &[(String, String)],
    replace: bool,
) -> Result<Vec<String>, crate::ImportFailure> {
    use crate::ImportFailure::{Io, Refused};
    let shown = dir.display().to_string();
    let existing = std::fs::symlink_metadata(dir).ok();
    if let Some(meta) = &existing {
        if !meta.file_type().is_dir() {
            return Err(Refused(format!("{shown} exists and is not a directory")));
        }
        let empty = std::fs::read_dir(dir).map_err(|e| Io(shown.clone(), e))?.next().is_none();
        if !empty && !replace {
            return Err(Refused(format!("{shown} is not empty: pass --replace to replace its content")));
        }
    }
    for (name, _) in files {
        let path = Path::new(name);
        let plain = path.components().all(|c| matches!(c, std::path::Component::Normal(_)));
        if !plain || path.components().count() != 1 {
            return Err(Refused(format!("refusing to write `{name}`: not a plain file name")));
        }
    }
    let absolute = std::path::absolute(dir).map_err(|e| Io(shown.clone(), e))?;
    let parent = absolute.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
    let base = absolute.file_name().map_or("spec".into(), |n| n.to_string_lossy().into_owned());
    std::fs::create_dir_all(&parent).map_err(|e| Io(parent.display().to_string(), e))?;
    let staging = unique_sibling(&parent, &format!(".{base}.import"));
    std::fs::create_dir(&staging).map_err(|e| Io(staging.display().to_string(), e))?;
    let write_all = || -> Result<(), crate::ImportFailure> {
        for (name, text) in files {
            let path = staging.join(name);
            std::fs::write(&path, text).map_err(|e| Io(path.display().to_string(), e))?;
        }
        Ok(())
    };
    if let Err(error) = write_all() {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(error);
    }
    let old = unique_sibling(&parent, &format!(".{base}.old"));
    if existing.is_some() {
        std::fs::rename(&absolute, &old).map_err(|e| Io(shown.clone(), e))?;
    }
    if let Err(e) = std::fs::rename(&staging, &absolute) {
        if existing.is_some() {
            let _ = std::fs::rename(&old, &absolute);
        }
        let _ = std::fs::remove_dir_all(&staging);
        return Err(Io(shown, e));
    }
    if existing.is_some() {
        std::fs::remove_dir_all(&old).map_err(|e| Io(old.display().to_string(), e))?;
    }
    Ok(files.iter().map(|(name, _)| name.clone()).collect())
}

/// A path in `parent` named `stem` plus a number, that does not exist yet.
fn unique_sibling(parent: &Path, stem: &str) -> PathBuf {
    let pid = std::process::id();
    (0..)
        .map(|n| parent.join(format!("{stem}-{pid}-{n}")))
        .find(|path| std::fs::symlink_metadata(path).is_err())
        .unwrap_or_else(|| parent.join(stem))
}
