//! Reading the spec as it was at a git revision: its files are copied out of git with
//! `git show` into a temporary directory, loaded like any spec, and the directory removed.
//! Locations are relabelled `REV:spec/file.yaml` so output names no temporary path.

use crate::model::Api;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Why the spec at a revision could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RevisionError {
    /// git failed (unknown revision, not a repository).
    #[error("git {args}: {message}")]
    Git {
        /// The git arguments.
        args: String,
        /// What git said.
        message: String,
    },
    /// The revision holds no file below the spec directory.
    #[error("no spec files at {rev}:{dir}")]
    Empty {
        /// The revision.
        rev: String,
        /// The spec directory.
        dir: String,
    },
    /// Writing the temporary copy failed.
    #[error("copying the spec at {rev}: {source}")]
    Io {
        /// The revision.
        rev: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The spec at that revision does not load.
    #[error("the spec at {rev} does not load:\n{rendered}")]
    Spec {
        /// The revision.
        rev: String,
        /// The rendered diagnostics.
        rendered: String,
    },
}

fn git(args: &[&str]) -> Result<Vec<u8>, RevisionError> {
    let failed = |message: String| RevisionError::Git { args: args.join(" "), message };
    let output = Command::new("git").args(args).output().map_err(|e| failed(e.to_string()))?;
    if !output.status.success() {
        return Err(failed(String::from_utf8_lossy(&output.stderr).trim().to_owned()));
    }
    Ok(output.stdout)
}

/// Loads the spec directory `dir` (relative to the repository root of the working directory)
/// as it is at `rev`.
pub fn load_at_revision(rev: &str, dir: &Path) -> Result<Api, RevisionError> {
    let dir_name = dir.to_string_lossy().trim_end_matches('/').to_owned();
    let listing = git(&["ls-tree", "-r", "--name-only", &format!("{rev}:{dir_name}")])?;
    let files: Vec<String> = String::from_utf8_lossy(&listing).lines().map(str::to_owned).collect();
    if files.is_empty() {
        return Err(RevisionError::Empty { rev: rev.to_owned(), dir: dir_name });
    }
    let temp = temp_dir(rev);
    let io = |source| RevisionError::Io { rev: rev.to_owned(), source };
    let copied = copy_files(rev, &dir_name, &files, &temp).map_err(|e| match e {
        CopyError::Git(e) => e,
        CopyError::Io(e) => io(e),
    });
    let temp_name = temp.to_string_lossy().into_owned();
    let label = format!("{rev}:{dir_name}");
    let loaded = copied.and_then(|()| {
        crate::load(&temp).map_err(|diags| RevisionError::Spec {
            rev: rev.to_owned(),
            rendered: diags.render().replace(&temp_name, &label),
        })
    });
    // Best effort: a leftover temporary directory must not hide the result.
    let _ = std::fs::remove_dir_all(&temp);
    let (mut api, _warnings) = loaded?;
    relabel(&mut api, &temp_name, &label);
    Ok(api)
}

enum CopyError {
    Git(RevisionError),
    Io(std::io::Error),
}

fn copy_files(rev: &str, dir: &str, files: &[String], temp: &Path) -> Result<(), CopyError> {
    for file in files {
        let bytes = git(&["show", &format!("{rev}:{dir}/{file}")]).map_err(CopyError::Git)?;
        let target = temp.join(file);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(CopyError::Io)?;
        }
        std::fs::write(target, bytes).map_err(CopyError::Io)?;
    }
    Ok(())
}

/// A directory unique to this process and revision.
fn temp_dir(rev: &str) -> PathBuf {
    let safe: String = rev.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    std::env::temp_dir().join(format!("apigen-diff-{}-{safe}", std::process::id()))
}

/// Replaces the temporary directory at the start of every location with `label`.
fn relabel(api: &mut Api, temp: &str, label: &str) {
    let fix = |file: &mut String| {
        if let Some(rest) = file.strip_prefix(temp) {
            *file = format!("{label}{rest}");
        }
    };
    for op in &mut api.operations {
        fix(&mut op.origin.file);
    }
    for ty in api.types.values_mut() {
        fix(&mut ty.origin.file);
    }
}
