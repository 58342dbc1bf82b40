//! Writing an imported spec: into a staging directory beside the target, then renamed into
//! place, so a failed import leaves the target as it was and nothing is written outside it.

use std::path::{Path, PathBuf};

/// Writes `files` (relative paths and contents) as the whole content of directory `dir`:
/// into a new directory beside it, then renamed into place, so `dir` never holds half of
/// them and nothing is written outside `dir` and that sibling. `dir` must be absent or empty
/// unless `replace`; a link or a file there is refused either way. With `replace`, only a
/// directory that holds a spec and nothing else is replaced (see [`refuse_replacing`]):
/// never the current directory or one holding it, a repository, the file system's root, or
/// the directory of `document`, the file being imported.
pub(crate) fn replace_dir(
    dir: &Path,
    files: &[(String, String)],
    replace: bool,
    document: &Path,
) -> Result<Vec<String>, super::ImportFailure> {
    use super::ImportFailure::{Io, Refused};
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
        if let Some(reason) = refuse_replacing(dir, document) {
            return Err(Refused(format!("refusing to replace {shown}: {reason}")));
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
    let Some(parent) = absolute.parent().map(Path::to_path_buf) else {
        return Err(Refused(format!("refusing to write into {shown}: it is the root of the file system")));
    };
    let base = absolute.file_name().map_or("spec".into(), |n| n.to_string_lossy().into_owned());
    std::fs::create_dir_all(&parent).map_err(|e| Io(parent.display().to_string(), e))?;
    let staging = unique_sibling(&parent, &format!(".{base}.import"));
    std::fs::create_dir(&staging).map_err(|e| Io(staging.display().to_string(), e))?;
    // From here on, every way out removes the staging directory.
    let swapped = write_files(&staging, files).and_then(|()| swap(&absolute, &staging, existing.is_some(), &shown));
    if swapped.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    swapped?;
    Ok(files.iter().map(|(name, _)| name.clone()).collect())
}

/// Writes every file into the staging directory.
fn write_files(staging: &Path, files: &[(String, String)]) -> Result<(), super::ImportFailure> {
    for (name, text) in files {
        let path = staging.join(name);
        std::fs::write(&path, text).map_err(|e| super::ImportFailure::Io(path.display().to_string(), e))?;
    }
    Ok(())
}

/// Puts the staging directory in the place of `target` (the old content moved aside, then
/// removed; put back if the swap fails).
fn swap(target: &Path, staging: &Path, existing: bool, shown: &str) -> Result<(), super::ImportFailure> {
    use super::ImportFailure::Io;
    let parent = target.parent().unwrap_or(Path::new("."));
    let base = target.file_name().map_or("spec".into(), |n| n.to_string_lossy().into_owned());
    let old = unique_sibling(parent, &format!(".{base}.old"));
    if existing {
        std::fs::rename(target, &old).map_err(|e| Io(shown.to_owned(), e))?;
    }
    if let Err(e) = std::fs::rename(staging, target) {
        if existing {
            let _ = std::fs::rename(&old, target);
        }
        return Err(Io(shown.to_owned(), e));
    }
    if existing {
        std::fs::remove_dir_all(&old).map_err(|e| Io(old.display().to_string(), e))?;
    }
    Ok(())
}

/// Why the existing directory `dir` must not be replaced by an import of `document`: `--replace`
/// replaces a spec apigen could have written, recognised by what it holds (`.yaml` files and
/// nothing else), and never a place whose loss would be someone's work.
pub(crate) fn refuse_replacing(dir: &Path, document: &Path) -> Option<String> {
    let Ok(canonical) = dir.canonicalize() else {
        return Some("it cannot be resolved".into());
    };
    if canonical.parent().is_none() {
        return Some("it is the root of the file system".into());
    }
    if std::env::current_dir().is_ok_and(|cwd| cwd.starts_with(&canonical)) {
        return Some("it is the current directory, or holds it".into());
    }
    if document.canonicalize().is_ok_and(|doc| doc.starts_with(&canonical)) {
        return Some(format!("it holds {}, the document being imported", document.display()));
    }
    if canonical.join(".git").symlink_metadata().is_ok() {
        return Some("it holds .git: it is a repository".into());
    }
    let entries = match crate::input::files_below(&canonical) {
        Ok(entries) => entries,
        Err(error) => return Some(format!("it cannot be listed: {error}")),
    };
    for entry in entries {
        let relative = entry.strip_prefix(&canonical).unwrap_or(&entry).display().to_string();
        let regular = entry.symlink_metadata().is_ok_and(|m| m.file_type().is_file());
        let yaml = entry.extension().is_some_and(|e| e == "yaml" || e == "yml");
        if !regular || !yaml {
            return Some(format!(
                "it holds {relative}, which is not a spec file (a spec directory holds .yaml files only)"
            ));
        }
        // A `.yaml` file is a spec file only when it reads as one (issue 50: `--out deploy
        // --replace` removed docker-compose.yaml and k8s/).
        let problem = match crate::input::read_regular_text(&entry) {
            Some(text) => crate::load::not_a_spec_file(&text),
            None => Some("it cannot be read as text".into()),
        };
        if let Some(problem) = problem {
            return Some(format!("it holds {relative}, which is not a spec file: {problem}"));
        }
    }
    None
}

/// A path in `parent` named `stem` plus a number, that does not exist yet.
fn unique_sibling(parent: &Path, stem: &str) -> PathBuf {
    let pid = std::process::id();
    (0..)
        .map(|n| parent.join(format!("{stem}-{pid}-{n}")))
        .find(|path| std::fs::symlink_metadata(path).is_err())
        .unwrap_or_else(|| parent.join(stem))
}
