//! Emission: the model becomes files, built in memory, then written or compared.
//!
//! Each emitter is a pure function from the [`Api`] to `(path, contents)` pairs collected in an
//! [`Output`]. [`Output::write`] writes only the files whose bytes changed and removes files
//! of an earlier run that are no longer produced; [`Output::check`] compares byte for byte
//! and reports drift without touching the disk.
//!
//! Writing is careful with the directory it is given: it refuses one holding symbolic links
//! or special files (it never writes through, follows or removes them, so a link cannot lead
//! it outside), and it removes only regular files that the previous run's [`STAMP`] lists.

pub mod client;
pub mod files;
pub mod openapi;
pub mod par;
pub mod reference;
pub mod rust;
pub mod server;
pub mod types;

use crate::model::Api;
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

/// The marker apigen writes at the top of the output directory. Its presence (with the header)
/// is what allows `generate` to delete stale files there.
pub const MARKER: &str = ".gitattributes";

/// The stamp apigen writes beside the marker: the spec hash and generator version the
/// directory was generated from, and every file apigen wrote there. Headers carry neither, so
/// a spec change touches the stamp and only the files whose content changed; `check` still
/// sees a stale directory after a generator upgrade (the stamp differs); `generate` removes
/// only files the previous stamp lists.
pub const STAMP: &str = ".apigen-stamp";

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

/// What emission needs to know beyond the spec (from `apigen.toml` and flags).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// How generated crates depend on apigen-runtime.
    pub runtime: RuntimeSource,
    /// The command that regenerates the output, named in every header and drift report.
    pub regenerate: String,
    /// Which outputs to write.
    pub outputs: Outputs,
}

/// Where generated manifests take apigen-runtime from; each states the version required, so
/// a runtime of another version is refused by cargo, not met as a type error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuntimeSource {
    /// A directory, relative to a generated crate's directory (`../../runtime`).
    Path {
        /// The path as the manifests write it.
        from_crate: String,
        /// The version requirement.
        version: String,
    },
    /// A git repository, at a `rev`, `branch` or `tag` when given.
    Git {
        /// The repository.
        url: String,
        /// `("rev", "abc123")`, `("branch", ..)` or `("tag", ..)`.
        reference: Option<(&'static str, String)>,
        /// The version requirement.
        version: String,
    },
    /// A registry (crates.io).
    Registry {
        /// The version requirement.
        version: String,
    },
}

/// Which outputs are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outputs {
    /// The types crate.
    pub types: bool,
    /// The server crate.
    pub server: bool,
    /// The client crate.
    pub client: bool,
    /// `openapi.json`.
    pub openapi: bool,
    /// `REFERENCE.md`.
    pub reference: bool,
}

impl Default for Outputs {
    fn default() -> Self {
        Outputs { types: true, server: true, client: true, openapi: true, reference: true }
    }
}

impl Options {
    /// Options for output written to `out` with the runtime crate in the directory
    /// `runtime`, every output, and `apigen generate` as the command to name.
    pub fn new(out: &Path, runtime: &Path) -> Self {
        Options {
            runtime: RuntimeSource::Path {
                from_crate: Options::runtime_path(out, runtime),
                version: crate::RUNTIME_VERSION.to_owned(),
            },
            regenerate: "apigen generate".to_owned(),
            outputs: Outputs::default(),
        }
    }

    /// The runtime's directory as a generated crate's manifest names it: relative, computed
    /// without touching the disk (no absolute path leaks into the output). Both paths are
    /// taken from one base; when only one is absolute, the other is made absolute from the
    /// current directory first.
    pub fn runtime_path(out: &Path, runtime: &Path) -> String {
        let (out, runtime) = match (out.is_absolute(), runtime.is_absolute()) {
            (true, false) | (false, true) => (
                std::path::absolute(out).unwrap_or_else(|_| out.to_path_buf()),
                std::path::absolute(runtime).unwrap_or_else(|_| runtime.to_path_buf()),
            ),
            _ => (out.to_path_buf(), runtime.to_path_buf()),
        };
        relative_path(&out.join("crate"), &runtime)
    }
}

impl Default for Options {
    /// The repository layout: output in `generated/`, the runtime in `runtime/`.
    fn default() -> Self {
        Options::new(Path::new("generated"), Path::new("runtime"))
    }
}

/// Runs every emitter, printing every Rust file.
pub fn emit(api: &Api, options: &Options) -> Output {
    emit_reusing(api, options, &par::Reuse::nothing())
}

/// Runs every emitter for output going to `dir`: Rust files printed there by an earlier run
/// from the same tokens are reused (see [`par`]), so a change to the spec costs the printing
/// of the files it changes only.
pub fn emit_into(dir: &Path, api: &Api, options: &Options) -> Output {
    emit_reusing(api, options, &par::Reuse::from_dir(dir, &printer(api, options)))
}

/// Runs every emitter; a Rust file whose tokens are those `reuse` recorded is taken from disk
/// instead of printed again (see [`par`]). Every file of every emitter is one job on one
/// queue, so the threads stay busy until the last file.
pub fn emit_reusing(api: &Api, options: &Options, reuse: &par::Reuse) -> Output {
    let outputs = options.outputs;
    let mut jobs = vec![par::text(MARKER, || files::gitattributes(api, options))];
    // The two largest single jobs go first, so no thread is left with one of them at the end.
    if outputs.openapi {
        jobs.push(par::text("openapi.json", || openapi::emit(api, options)));
    }
    if outputs.reference {
        jobs.push(par::text("REFERENCE.md", || reference::emit(api, options)));
    }
    if outputs.types {
        jobs.extend(types::jobs(api, options));
    }
    if outputs.server {
        jobs.extend(server::jobs(api, options));
    }
    if outputs.client {
        jobs.extend(client::jobs(api, options));
    }
    let mut output = Output::default();
    par::run(jobs, reuse, &mut output);
    let stamp = files::stamp(api, options, &output);
    output.add(STAMP, stamp);
    output
}

/// The path of `to` seen from the directory `from`, both relative to one base (or both
/// absolute), computed lexically: `relative_path("generated/types", "runtime")` is
/// `../../runtime`.
pub fn relative_path(from: &Path, to: &Path) -> String {
    use std::path::Component;
    let parts = |p: &Path| -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for component in p.components() {
            match component {
                Component::CurDir => {}
                Component::ParentDir if out.last().is_some_and(|l| l != "..") => {
                    out.pop();
                }
                other => out.push(other.as_os_str().to_string_lossy().into_owned()),
            }
        }
        out
    };
    let (from, to) = (parts(from), parts(to));
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut path: Vec<String> = vec!["..".to_owned(); from.len() - common];
    path.extend(to[common..].iter().cloned());
    if path.is_empty() { ".".to_owned() } else { path.join("/") }
}

/// The one-line header every generated file starts with, in the comment syntax given.
pub fn header_text(api: &Api, options: &Options) -> String {
    let text = format!(
        "@generated by apigen from the {} spec (v{}). Do not edit: change the spec and run `{}`.",
        api.title, api.version, options.regenerate
    );
    one_line(&text)
}

/// `text` with every line break and control character turned into a space. The header is a
/// line comment in every format (`//`, `#`): spec text in it (the API's title) must not be
/// able to end the comment and add code or manifest keys after it.
pub fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') { ' ' } else { c }).collect()
}

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
    /// The directory holds files but not apigen's marker: deleting stale files there could
    /// delete someone's work.
    #[error(
        "refusing to write into {0}: it holds files but no {MARKER} written by apigen; pass an empty directory or one apigen generated with --out"
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
    pub fn write(&self, dir: &Path) -> Result<WriteReport, WriteError> {
        let on_disk = list_files(dir)?;
        if !on_disk.is_empty() && !self.is_ours(dir) {
            return Err(WriteError::NotOurs(dir.to_path_buf()));
        }
        // Before the first run that wrote a stamp, the marker alone said the files are ours.
        let written_before = previous_stamp(dir);
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
            std::fs::write(&target, contents).map_err(io_error(&target))?;
            report.written.push(path.clone());
        }
        for path in on_disk {
            if self.files.contains_key(&path) || is_build_leftover(&path) {
                continue;
            }
            if written_before.as_ref().is_some_and(|listed| !listed.contains(&path)) {
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

    /// True when `dir` holds the marker this generator writes.
    fn is_ours(&self, dir: &Path) -> bool {
        let marker = std::fs::read_to_string(dir.join(MARKER)).unwrap_or_default();
        marker.lines().next().is_some_and(|line| line.contains("@generated by apigen"))
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
fn is_build_leftover(path: &str) -> bool {
    path.split('/').any(|part| part == "target") || path == "Cargo.lock" || path.ends_with("/Cargo.lock")
}

/// Every file below `dir` as a relative path with `/`, sorted; empty when `dir` is absent.
/// Refuses a directory holding anything but regular files and directories: a symbolic link
/// could lead writes or removals outside it, and a FIFO would block a read.
fn list_files(dir: &Path) -> Result<Vec<String>, WriteError> {
    if std::fs::symlink_metadata(dir).is_err() {
        return Ok(Vec::new());
    }
    let found = crate::files_below(dir).map_err(io_error(dir))?;
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

/// The files the stamp of an earlier run lists, or `None` when there is no stamp.
fn previous_stamp(dir: &Path) -> Option<std::collections::BTreeSet<String>> {
    let text = read_regular_text(&dir.join(STAMP))?;
    Some(files::read_stamp(&text).files.into_keys().collect())
}

/// What the output depends on besides the spec's text: this build of apigen (its sources'
/// hash, so a changed emitter never passes for the old one), the crate names and the options.
pub fn fingerprint(api: &Api, options: &Options) -> String {
    crate::hash::parts(&[&api.spec_hash, &printer(api, options)])
}

/// What printing depends on besides a file's tokens: this build of apigen (its sources, and
/// the versions of the crates that print: see `build.rs`), the crate names and the options.
/// A stamp written by another printer lends nothing to [`par::Reuse`].
pub fn printer(api: &Api, options: &Options) -> String {
    crate::hash::parts(&[env!("APIGEN_SOURCE_HASH"), &api.name, &format!("{options:?}")])
}

/// The number of files in `dir` when it is exactly what `api` and `options` produce, known
/// without emitting: its stamp has the same fingerprint, and every file it lists is on disk
/// with the recorded hash, and nothing else is (build leftovers aside). `None` when anything
/// differs or cannot be read: then emit and compare.
pub fn unchanged(dir: &Path, api: &Api, options: &Options) -> Option<usize> {
    let text = read_regular_text(&dir.join(STAMP))?;
    let files::Stamp { fingerprint: stamped, files, .. } = files::read_stamp(&text);
    if stamped? != fingerprint(api, options) {
        return None;
    }
    let on_disk = list_files(dir).ok()?;
    let on_disk: Vec<&String> = on_disk.iter().filter(|p| !is_build_leftover(p) && p.as_str() != STAMP).collect();
    if on_disk.len() != files.len() {
        return None;
    }
    for (path, file) in &files {
        let bytes = std::fs::read(dir.join(path)).ok()?;
        if file.hash.as_deref() != Some(crate::hash::hex(&bytes).as_str()) {
            return None;
        }
    }
    Some(files.len() + 1)
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

/// `200`, or `201 (or 200)` when the handler may choose among several statuses.
pub fn statuses_text(op: &crate::model::Operation) -> String {
    let status = op.response.status;
    if op.response.also.is_empty() {
        return status.to_string();
    }
    let others: Vec<String> = op.response.also.iter().map(u16::to_string).collect();
    format!("{status} (or {})", others.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_are_lexical() {
        assert_eq!(relative_path(Path::new("generated/types"), Path::new("runtime")), "../../runtime");
        assert_eq!(
            relative_path(Path::new("tests/fixtures/out/x/types"), Path::new("runtime")),
            "../../../../../runtime"
        );
        assert_eq!(relative_path(Path::new("./generated/./types"), Path::new("./runtime")), "../../runtime");
        assert_eq!(relative_path(Path::new("a/b"), Path::new("a/c")), "../c");
        assert_eq!(relative_path(Path::new("/abs/out/crate"), Path::new("/abs/runtime")), "../../runtime");
    }
}
