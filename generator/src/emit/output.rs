//! Writing and checking: an [`Output`] (every generated file in memory) written into the output
//! directory, only the files whose bytes changed, or compared with it byte for byte.
//!
//! Writing is careful with the directory it is given: it refuses one holding symbolic links
//! or special files (it never writes through, follows or removes them, so a link cannot lead
//! it outside), and it removes only regular files that the previous run's stamp lists.

use super::stamp::{STAMP, previous_stamp};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

/// The marker apigen writes at the top of the output directory (`.gitattributes` marking every
/// file generated, for review tools). It proves nothing about ownership: the stamp does.
pub const MARKER: &str = ".gitattributes";

/// Every generated file: relative path (with `/`) → contents. Two outputs are equal when their
/// files are (hashes and sources show in the stamp, one of the files).
#[derive(Debug, Default, Clone)]
pub struct Output {
    files: BTreeMap<String, String>,
    /// The hash of each file's contents, where known already (see [`Output::hash`]).
    hashes: BTreeMap<String, String>,
    /// For each Rust file, the hash of the header and tokens it was printed from.
    sources: BTreeMap<String, String>,
    /// The directory files were taken from (see [`par::Reuse`]), and those files: they are on
    /// disk there as they are here, so writing and checking that directory skip them.
    reused: Option<(PathBuf, std::collections::BTreeSet<String>)>,
}

impl PartialEq for Output {
    fn eq(&self, other: &Self) -> bool {
        self.files == other.files
    }
}

impl Eq for Output {}

/// What `write` did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct WriteReport {
    /// Files created or changed.
    pub written: Vec<String>,
    /// Files already up to date.
    pub unchanged: usize,
    /// Stale files removed.
    pub removed: Vec<String>,
    /// Files the spec does not produce and no earlier run of apigen wrote: left alone.
    pub kept: Vec<String>,
}

/// How the directory differs from what the spec produces.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Drift {
    /// Files whose contents differ, with a unified diff (on disk → expected).
    pub changed: Vec<(String, String)>,
    /// Files the spec produces that are not on disk.
    pub missing: Vec<String>,
    /// Files on disk the spec does not produce.
    pub extra: Vec<String>,
}

impl Drift {
    /// True when the directory matches.
    pub fn is_clean(&self) -> bool {
        self.changed.is_empty() && self.missing.is_empty() && self.extra.is_empty()
    }

    /// A report for humans: diffs, then missing and extra files, then a summary.
    pub fn render(&self, regenerate: &str) -> String {
        let mut out = String::new();
        for (_, diff) in &self.changed {
            out.push_str(diff);
            if !diff.ends_with('\n') {
                out.push('\n');
            }
        }
        for path in &self.missing {
            out.push_str(&format!("missing: {path} (the spec produces it; it is not on disk)\n"));
        }
        for path in &self.extra {
            out.push_str(&format!("extra: {path} (on disk; the spec does not produce it)\n"));
        }
        out.push_str(&format!(
            "drift: {} changed, {} missing, {} extra; run `{regenerate}`\n",
            self.changed.len(),
            self.missing.len(),
            self.extra.len()
        ));
        out
    }
}

/// Why `write` refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The directory holds files but no stamp of an earlier run: deleting stale files there
    /// could delete someone's work.
    #[error(
        "refusing to write into {0}: it holds files but no {STAMP} of an earlier run of apigen; pass an empty directory or one apigen generated with --out"
    )]
    NotOurs(PathBuf),
    /// The directory holds symbolic links or special files, which apigen never writes
    /// through, follows or removes.
    #[error(
        "refusing to use {dir}: it holds symbolic links or special files apigen never writes through, follows or removes: {}; remove them and run again",
        .entries.join(", ")
    )]
    NotRegular {
        /// The output directory.
        dir: PathBuf,
        /// The offending entries, relative to it.
        entries: Vec<String>,
    },
    /// An I/O error, with the path it concerns.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> WriteError + '_ {
    move |source| WriteError::Io { path: path.to_path_buf(), source }
}

impl Output {
    /// Adds a file. A path produced twice is a bug in an emitter.
    pub fn add(&mut self, path: impl Into<String>, contents: String) {
        let path = path.into();
        assert!(!self.files.contains_key(&path), "two emitters produce {path}");
        self.files.insert(path, contents);
    }

    /// Adds a file with the hash of its contents and, for a Rust file, the hash of what it
    /// was printed from.
    pub(crate) fn add_hashed(&mut self, path: String, contents: String, hash: String, source: Option<String>) {
        if let Some(source) = source {
            self.sources.insert(path.clone(), source);
        }
        self.hashes.insert(path.clone(), hash);
        self.add(path, contents);
    }

    /// Records that the file at `path` was taken from `dir`, where it is as it is here.
    pub(crate) fn mark_reused(&mut self, dir: &Path, path: &str) {
        let (_, files) = self.reused.get_or_insert_with(|| (dir.to_path_buf(), Default::default()));
        files.insert(path.to_owned());
    }

    /// The hash of the contents of the file at `path`.
    pub fn hash(&self, path: &str) -> Option<String> {
        let known = self.hashes.get(path).cloned();
        known.or_else(|| self.files.get(path).map(|contents| crate::hash::hex(contents.as_bytes())))
    }

    /// The files, by path.
    pub fn files(&self) -> &BTreeMap<String, String> {
        &self.files
    }

    /// The hash of what the Rust file at `path` was printed from.
    pub fn source(&self, path: &str) -> Option<&str> {
        self.sources.get(path).map(String::as_str)
    }

    /// Writes every file whose bytes differ, and removes files of `dir` the spec no longer
    /// produces.
    /// Each file goes to a new temporary file in its directory, renamed over the target: a
    /// reader never sees half a file, and a target that is a hard link to another file is
    /// replaced, never written through. The directory is apigen's only when it is empty or
    /// holds the stamp of an earlier run, and only the files that stamp lists are removed.
    pub fn write(&self, dir: &Path) -> Result<WriteReport, WriteError> {
        let on_disk = list_files(dir)?;
        // The stamp alone proves ownership; a marker line anyone can copy proves nothing.
        let written_before = previous_stamp(dir);
        if !on_disk.is_empty() && written_before.is_none() {
            return Err(WriteError::NotOurs(dir.to_path_buf()));
        }
        let written_before = written_before.unwrap_or_default();
        let mut report = WriteReport::default();
        for (path, contents) in &self.files {
            let target = dir.join(path);
            if self.reused_from(dir, path) || std::fs::read(&target).is_ok_and(|bytes| bytes == contents.as_bytes()) {
                report.unchanged += 1;
                continue;
            }
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(io_error(parent))?;
            }
            replace_file(&target, contents.as_bytes()).map_err(io_error(&target))?;
            report.written.push(path.clone());
        }
        for path in on_disk {
            if self.files.contains_key(&path) || is_build_leftover(&path) {
                continue;
            }
            if !written_before.contains(&path) {
                report.kept.push(path);
                continue;
            }
            let target = dir.join(&path);
            std::fs::remove_file(&target).map_err(io_error(&target))?;
            remove_empty_parents(dir, &target);
            report.removed.push(path);
        }
        Ok(report)
    }

    /// True when the file at `path` was taken from `dir` (so it is there as it is here).
    fn reused_from(&self, dir: &Path, path: &str) -> bool {
        self.reused.as_ref().is_some_and(|(from, files)| from == dir && files.contains(path))
    }

    /// Compares `dir` with this output, byte for byte.
    pub fn check(&self, dir: &Path) -> Result<Drift, WriteError> {
        let on_disk = list_files(dir)?;
        let mut drift = Drift::default();
        for (path, expected) in self.files.iter().filter(|(path, _)| !self.reused_from(dir, path)) {
            match std::fs::read(dir.join(path)) {
                Ok(bytes) if bytes == expected.as_bytes() => {}
                Ok(bytes) => {
                    let actual = String::from_utf8_lossy(&bytes);
                    let diff = similar::TextDiff::from_lines(actual.as_ref(), expected.as_str())
                        .unified_diff()
                        .context_radius(3)
                        .header(&format!("a/{path} (on disk)"), &format!("b/{path} (from the spec)"))
                        .to_string();
                    drift.changed.push((path.clone(), diff));
                }
                Err(error) if error.kind() == io::ErrorKind::NotFound => drift.missing.push(path.clone()),
                Err(error) => return Err(io_error(&dir.join(path))(error)),
            }
        }
        drift.extra = on_disk.into_iter().filter(|p| !self.files.contains_key(p) && !is_build_leftover(p)).collect();
        Ok(drift)
    }
}

/// What building a generated crate on its own leaves beside it (`Cargo.lock`, `target/`):
/// neither drift nor apigen's to remove.
pub(super) fn is_build_leftover(path: &str) -> bool {
    path.split('/').any(|part| part == "target") || path == "Cargo.lock" || path.ends_with("/Cargo.lock")
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
fn remove_empty_parents(root: &Path, file: &Path) {
    let mut current = file.parent();
    while let Some(dir) = current {
        if dir == root || std::fs::remove_dir(dir).is_err() {
            break;
        }
        current = dir.parent();
    }
}
