//! The file system, carefully: listing an output directory without following links,
//! replacing a file atomically without writing through a link, removing empty directories.

use super::WriteError;
use std::io;
use std::path::Path;

pub(super) fn io_error(path: &Path) -> impl FnOnce(io::Error) -> WriteError + '_ {
    move |source| WriteError::Io { path: path.to_path_buf(), source }
}

/// What building a generated crate on its own leaves beside it (`Cargo.lock`, `target/`):
/// neither drift nor apigen's to remove.
pub(super) fn is_build_leftover(path: &str) -> bool {
    path.split('/').any(|part| part == "target") || path == "Cargo.lock" || path.ends_with("/Cargo.lock")
}

/// The hash of the regular file at `path` (a link is not followed: `None`), read through
/// `buffer`: proving a large output unchanged then allocates nothing per file (reading
/// GitHub's 40 MB into a new vector each time cost as much as hashing it).
pub(super) fn hash_regular(path: &Path, buffer: &mut [u8]) -> Option<String> {
    use std::io::Read;
    if !std::fs::symlink_metadata(path).ok()?.file_type().is_file() {
        return None;
    }
    let mut file = std::fs::File::open(path).ok()?;
    let mut hasher = crate::hash::Hasher::new();
    loop {
        match file.read(buffer) {
            Ok(0) => return Some(hasher.hex()),
            Ok(read) => hasher.write(&buffer[..read]),
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

/// Every file below `dir` as a relative path with `/`, sorted; empty when `dir` is absent.
/// Refuses a directory holding anything but regular files and directories: a symbolic link
/// could lead writes or removals outside it, and a FIFO would block a read.
pub(super) fn list_files(dir: &Path) -> Result<Vec<String>, WriteError> {
    match std::fs::symlink_metadata(dir) {
        Err(_) => return Ok(Vec::new()),
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(WriteError::NotRegular {
                dir: dir.to_path_buf(),
                entries: vec![". (the directory itself is a symbolic link)".into()],
            });
        }
        Ok(_) => {}
    }
    let found = crate::input::files_below(dir).map_err(io_error(dir))?;
    let relative = |path: &Path| path.strip_prefix(dir).unwrap_or(path).to_string_lossy().replace('\\', "/");
    let mut files = Vec::new();
    let mut refused = Vec::new();
    for path in &found {
        let kind = std::fs::symlink_metadata(path).map_err(io_error(path))?.file_type();
        if kind.is_file() {
            files.push(relative(path));
        } else if kind.is_symlink() {
            refused.push(format!("{} (a symbolic link)", relative(path)));
        } else {
            refused.push(format!("{} (not a regular file)", relative(path)));
        }
    }
    if refused.is_empty() {
        Ok(files)
    } else {
        Err(WriteError::NotRegular { dir: dir.to_path_buf(), entries: refused })
    }
}

/// Writes `contents` to a new file beside `target` (created, never opened through a link),
/// then renames it over `target`; the temporary file is removed when anything fails.
pub(crate) fn replace_file(target: &Path, contents: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let dir = target.parent().unwrap_or(Path::new("."));
    let name = target.file_name().map_or("file".into(), |n| n.to_string_lossy().into_owned());
    let mut attempt = 0u32;
    let (temporary, mut file) = loop {
        let candidate = dir.join(format!(".{name}.apigen-{}-{attempt}", std::process::id()));
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&candidate) {
            Ok(file) => break (candidate, file),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
            Err(error) => return Err(error),
        }
    };
    let written = file.write_all(contents).and_then(|()| std::fs::rename(&temporary, target));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// Removes the directories left empty by a removal, up to (not including) `root`.
pub(super) fn remove_empty_parents(root: &Path, file: &Path) {
    let mut current = file.parent();
    while let Some(dir) = current {
        if dir == root || std::fs::remove_dir(dir).is_err() {
            break;
        }
        current = dir.parent();
    }
}
