//! The output directory's own room: opened once, its stamp and this build's memory of it read
//! once; whether it is already current, writing only the files whose bytes changed, removing
//! only the files apigen wrote, comparing byte for byte and reporting drift.
//!
//! Emission ([`crate::emit`]) never touches the disk: it asks [`OutputDir::printed`] for what
//! an earlier run printed, and during `generate` hands each finished file to a sink of this
//! room ([`OutputDir::streaming`]), which writes it at once, so the whole output is never held
//! in memory (the stamp is written last). Writing is careful with the directory it is given: it refuses one
//! holding symbolic links or special files (it never writes through, follows or removes them,
//! so a link cannot lead it outside), and it removes only regular files that the previous
//! run's stamp lists. The stamp ([`stamp`]) is committed with the output; what one build of
//! apigen remembers of the directory ([`cache`]) is not.

pub mod cache;
mod files;
mod report;
mod seal;
pub mod stamp;
pub mod trees;

pub use cache::{Build, CacheDir, Inputs};
pub use report::{Drift, WriteError, WriteReport};
pub use stamp::{STAMP, Stamp};

use crate::emit::Output;
use crate::emit::jobs::Printed;
use files::{hash_regular, io_error, is_build_leftover, list_files, remove_empty_parents, replace_file};
use std::io;
use std::path::{Path, PathBuf};

/// An output directory, opened: its files listed and its stamp read, once.
#[derive(Debug)]
pub struct OutputDir {
    path: PathBuf,
    /// Every file below it, sorted (build leftovers included).
    on_disk: Vec<String>,
    /// The stamp of the run that wrote it, when there is one.
    stamp: Option<Stamp>,
    /// The hash of the stamp's text.
    stamp_hash: Option<String>,
    /// Where this build's memory of directories lives.
    cache: CacheDir,
    /// What it remembers of this one.
    remembered: cache::Entry,
}

impl OutputDir {
    /// Opens `path` (absent is fine: an empty directory), remembering in `cache`. Refuses a
    /// directory holding symbolic links or special files.
    pub fn open(path: &Path, cache: CacheDir) -> Result<Self, WriteError> {
        let on_disk = list_files(path)?;
        let stamp_text =
            on_disk.iter().any(|p| p == STAMP).then(|| crate::input::read_regular_text(&path.join(STAMP))).flatten();
        let remembered = cache.read(path).unwrap_or_default();
        Ok(OutputDir {
            path: path.to_path_buf(),
            on_disk,
            stamp_hash: stamp_text.as_deref().map(|text| crate::hash::hex(text.as_bytes())),
            stamp: stamp_text.as_deref().map(stamp::read),
            cache,
            remembered,
        })
    }

    /// The directory's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The number of files in the directory when it is exactly what `build` produces, known
    /// without emitting: this build remembers writing (or checking) it from the same
    /// fingerprint with the stamp now there, every file the stamp lists is on disk with the
    /// recorded hash, and nothing else is (build leftovers aside). `None` when anything
    /// differs or cannot be read: then emit and compare.
    pub fn current(&self, build: &Build) -> Option<usize> {
        if self.remembered.fingerprint.as_ref() != Some(&build.fingerprint) {
            return None;
        }
        self.as_remembered()
    }

    /// `generate`'s fast path ([`cache`]): the number of files in the directory and the
    /// warnings to report again, when this build remembers writing (or checking) it from inputs
    /// hashing to `inputs` and it holds what it held then. `None` when anything differs.
    pub fn unchanged_since(&mut self, inputs: &str) -> Option<(usize, crate::diag::Diagnostics)> {
        if self.remembered.inputs.as_deref() != Some(inputs) || self.remembered.warnings.is_none() {
            return None;
        }
        let files = self.as_remembered()?;
        Some((files, self.remembered.decoded_warnings()?))
    }

    /// The number of files in the directory when its stamp hashes to the one remembered, every
    /// file the stamp lists hashes (now) to its line, and nothing else is there (build
    /// leftovers aside).
    fn as_remembered(&self) -> Option<usize> {
        let stamp = self.stamp.as_ref()?;
        if self.remembered.stamp.is_none() || self.remembered.stamp != self.stamp_hash {
            return None;
        }
        let listed: Vec<&String> = self.on_disk.iter().filter(|p| !is_build_leftover(p) && *p != STAMP).collect();
        if listed.len() != stamp.files.len() {
            return None;
        }
        let mut buffer = vec![0; 256 * 1024];
        for (path, hash) in &stamp.files {
            if hash.as_deref() != Some(hash_regular(&self.path.join(path), &mut buffer)?.as_str()) {
                return None;
            }
        }
        Some(stamp.files.len() + 1)
    }

    /// What an earlier run of this very printer printed here, for emission to reuse, and which
    /// files it wrote from which keys (believed only while the stamp on disk is the one the
    /// entry remembers: the stamp's line of each file is what its bytes are checked against).
    pub fn printed(&self, build: &Build) -> impl Printed + '_ {
        let same_printer = self.remembered.printer.as_ref() == Some(&build.printer);
        let stamped = self.remembered.stamp.is_some() && self.remembered.stamp == self.stamp_hash;
        Earlier {
            dir: &self.path,
            files: same_printer.then_some(&self.remembered.files),
            stamp: self.stamp.as_ref().filter(|_| same_printer && stamped),
        }
    }

    /// Writes every file of `output` (stamped) whose bytes differ, and removes the files of
    /// the directory that the previous stamp lists and `output` no longer holds.
    ///
    /// Each file goes to a new temporary file in its directory, renamed over the target: a
    /// reader never sees half a file, and a target that is a hard link to another file is
    /// replaced, never written through. The directory is apigen's only when it is empty or
    /// holds the stamp of an earlier run, and only the files that stamp lists are removed.
    pub fn write(&self, output: &Output) -> Result<WriteReport, WriteError> {
        let written_before = self.owned()?;
        let mut report = WriteReport::default();
        for (path, contents) in output.files() {
            if output.is_taken(path) {
                continue; // Written (or found unchanged) by the sink already.
            }
            if self.write_one(path, contents.as_bytes())? {
                report.written.push(path.clone());
            } else {
                report.unchanged += 1;
            }
        }
        for path in &self.on_disk {
            if output.files().contains_key(path) || is_build_leftover(path) {
                continue;
            }
            if !written_before.files.contains_key(path) {
                report.kept.push(path.clone());
                continue;
            }
            let target = self.path.join(path);
            std::fs::remove_file(&target).map_err(io_error(&target))?;
            remove_empty_parents(&self.path, &target);
            report.removed.push(path.clone());
        }
        Ok(report)
    }

    /// The stamp proving the directory is apigen's (the previous run's, or an empty one for an
    /// empty directory), or why it is not.
    fn owned(&self) -> Result<&Stamp, WriteError> {
        // The stamp alone proves ownership; a marker line anyone can copy proves nothing.
        self.stamp
            .as_ref()
            .or(self.on_disk.is_empty().then_some(&EMPTY))
            .ok_or_else(|| WriteError::NotOurs(self.path.clone()))
    }

    /// Writes `bytes` at `path` unless the file holds them already; true when written.
    fn write_one(&self, path: &str, bytes: &[u8]) -> Result<bool, WriteError> {
        let target = self.path.join(path);
        if crate::input::read_regular(&target).is_some_and(|on_disk| on_disk == bytes) {
            return Ok(false);
        }
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(io_error(parent))?;
        }
        replace_file(&target, bytes).map_err(io_error(&target))?;
        Ok(true)
    }

    /// A sink writing each file of an emission as it is done ([`crate::emit::jobs::Sink`]), so
    /// `generate` holds the largest files in flight instead of the whole output; then
    /// [`Streamed::finish`] writes the stamp and removes stale files. Refuses a directory that
    /// is not apigen's before anything is written. An empty directory receives an empty stamp
    /// first, so a run cut short leaves a directory the next run still owns.
    pub fn streaming(&self) -> Result<Streamed<'_>, WriteError> {
        self.owned()?;
        if self.stamp.is_none() {
            self.write_one(STAMP, b"# apigen: being written; `apigen generate` finishes it\nfiles = [\n]\n")?;
        }
        Ok(Streamed { dir: self, written: std::sync::Mutex::new(Vec::new()), unchanged: 0.into(), failed: None.into() })
    }

    /// Compares the directory with `output` (stamped), byte for byte.
    pub fn check(&self, output: &Output) -> Result<Drift, WriteError> {
        let mut drift = Drift::default();
        for (path, expected) in output.files() {
            match std::fs::read(self.path.join(path)) {
                Ok(bytes) if bytes == expected.as_bytes() => {}
                Ok(bytes) => drift.changed.push((path.clone(), report::unified_diff(path, &bytes, expected))),
                Err(error) if error.kind() == io::ErrorKind::NotFound => drift.missing.push(path.clone()),
                Err(error) => return Err(io_error(&self.path.join(path))(error)),
            }
        }
        drift.extra = self
            .on_disk
            .iter()
            .filter(|p| !output.files().contains_key(*p) && !is_build_leftover(p))
            .cloned()
            .collect();
        Ok(drift)
    }

    /// Remembers, in the cache, that the directory now holds `output` (stamped) as `build`
    /// produced it: call it once `output` is written, or checked and found equal. A cache
    /// that cannot be written is no failure (it only saves work).
    pub fn remember(&self, output: &Output, build: &Build) {
        self.remember_run(output, build, None);
    }

    /// Remembers `inputs` for the directory as it is remembered already (a run that found it
    /// current without emitting: the spec's bytes changed, not what it says).
    pub fn remember_inputs(&self, inputs: Option<Inputs>) {
        if inputs.is_some() {
            self.cache.write(&self.path, &self.remembered.clone().with_inputs(inputs));
        }
    }

    /// [`OutputDir::remember`], with the run's inputs when it knew them unchanged while it
    /// ran: what lets the next `generate` stop without reading the spec ([`cache`]).
    pub fn remember_run(&self, output: &Output, build: &Build, inputs: Option<Inputs>) {
        self.cache.write(&self.path, &cache::Entry::of(build, output).with_inputs(inputs));
    }
}

/// Files written as emission finished them (see [`OutputDir::streaming`]).
pub struct Streamed<'d> {
    dir: &'d OutputDir,
    written: std::sync::Mutex<Vec<String>>,
    unchanged: std::sync::atomic::AtomicUsize,
    /// The first failure: later files are then kept in memory and not written.
    failed: std::sync::Mutex<Option<WriteError>>,
}

impl crate::emit::jobs::Sink for Streamed<'_> {
    fn unchanged(&self, _path: &str) -> bool {
        if lock(&self.failed).is_some() {
            return false;
        }
        self.unchanged.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        true
    }

    fn take(&self, path: &str, text: &str) -> bool {
        if lock(&self.failed).is_some() {
            return false;
        }
        match self.dir.write_one(path, text.as_bytes()) {
            Ok(true) => lock(&self.written).push(path.to_owned()),
            Ok(false) => {
                self.unchanged.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            Err(error) => {
                *lock(&self.failed) = Some(error);
                return false;
            }
        }
        true
    }
}

impl Streamed<'_> {
    /// Writes what the sink did not take (the stamp, last) and removes stale files: the
    /// report of the whole write, its lists sorted. The first failure of the sink, if any.
    pub fn finish(self, output: &Output) -> Result<WriteReport, WriteError> {
        if let Some(error) = self.failed.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
            return Err(error);
        }
        let mut report = self.dir.write(output)?;
        report.written.extend(self.written.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner));
        report.written.sort();
        report.unchanged += self.unchanged.into_inner();
        Ok(report)
    }
}

/// A lock that a panic on another thread does not make unusable (the data is a list).
fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The stamp of an empty directory: nothing is apigen's to remove.
static EMPTY: Stamp = Stamp { files: std::collections::BTreeMap::new() };

/// The files an earlier run wrote into a directory, as the cache remembers them.
struct Earlier<'a> {
    dir: &'a Path,
    files: Option<&'a std::collections::BTreeMap<String, cache::Remembered>>,
    /// The stamp on disk, when it is the one the entry remembers.
    stamp: Option<&'a Stamp>,
}

impl Printed for Earlier<'_> {
    fn printed(&self, path: &str, source: &str) -> Option<(String, String)> {
        let file = self.files?.get(path)?;
        if file.source.as_deref() != Some(source) {
            return None;
        }
        let text = crate::input::read_regular_text(&self.dir.join(path))?;
        (crate::hash::hex(text.as_bytes()) == file.hash).then(|| (text, file.hash.clone()))
    }

    fn fragments(&self, path: &str) -> Option<(String, String)> {
        let file = self.files?.get(path)?;
        let index = file.fragments.clone()?;
        let text = crate::input::read_regular_text(&self.dir.join(path))?;
        (crate::hash::hex(text.as_bytes()) == file.hash).then_some((text, index))
    }

    fn index(&self, path: &str) -> Option<String> {
        self.files?.get(path)?.fragments.clone()
    }

    fn unchanged(&self, path: &str, key: &str) -> Option<(String, Option<String>)> {
        let file = self.files?.get(path)?;
        let stamped = self.stamp?.files.get(path)?.as_deref()?;
        if file.key.as_deref() != Some(key) || stamped != file.hash {
            return None;
        }
        let on_disk = hash_regular(&self.dir.join(path), &mut vec![0; 64 * 1024])?;
        (on_disk == file.hash).then(|| (file.hash.clone(), file.source.clone()))
    }
}
