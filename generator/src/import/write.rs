//! Writing an imported spec: into a staging directory beside the target, then renamed into
//! place, so a failed import leaves the target as it was and nothing is written outside it.

use std::path::{Path, PathBuf};

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
