//! [`Output`]: every generated file, in memory, with what the output directory's room
//! ([`crate::out`]) needs to know of each: the hash of its bytes and, for a Rust file, the hash
//! of the header and tokens it was printed from.

use std::collections::BTreeMap;

/// The marker apigen writes at the top of the output directory (`.gitattributes` marking every
/// file generated, for review tools). It proves nothing about ownership: the stamp does.
pub const MARKER: &str = ".gitattributes";

/// Every generated file: relative path (with `/`) → contents. Two outputs are equal when their
/// files are.
#[derive(Debug, Default, Clone)]
pub struct Output {
    files: BTreeMap<String, String>,
    /// The hash of each file's contents, where known already (see [`Output::hash`]).
    hashes: BTreeMap<String, String>,
    /// For each Rust file, the hash of the header and tokens it was printed from.
    sources: BTreeMap<String, String>,
    /// The files a sink took as they were done ([`super::jobs::Sink`]): their text is not
    /// held (an empty string in `files`), only their hashes.
    taken: std::collections::BTreeSet<String>,
    /// Each file's key: what it is made from ([`super::inputs`]).
    keys: BTreeMap<String, String>,
    /// Where the fragments of each assembled file are ([`super::fragments`]).
    fragments: BTreeMap<String, String>,
}

impl PartialEq for Output {
    fn eq(&self, other: &Self) -> bool {
        self.files == other.files
    }
}

impl Eq for Output {}

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

    /// Adds a file a sink took: its path and hashes, without its text.
    pub(crate) fn add_taken(&mut self, path: String, hash: String, source: Option<String>) {
        self.taken.insert(path.clone());
        self.add_hashed(path, String::new(), hash, source);
    }

    /// Whether a sink took the file at `path` (its text is not held).
    pub fn is_taken(&self, path: &str) -> bool {
        self.taken.contains(path)
    }

    /// The hash of the contents of the file at `path`.
    pub fn hash(&self, path: &str) -> Option<String> {
        let known = self.hashes.get(path).cloned();
        known.or_else(|| self.files.get(path).map(|contents| crate::hash::hex(contents.as_bytes())))
    }

    /// The files, by path (a file a sink took holds no text: see [`Output::is_taken`]).
    pub fn files(&self) -> &BTreeMap<String, String> {
        &self.files
    }

    /// Records the key of the file at `path` (what it is made from: see [`super::inputs`]).
    pub(crate) fn set_key(&mut self, path: String, key: String) {
        self.keys.insert(path, key);
    }

    /// The key of the file at `path`, when emission recorded one.
    pub fn key(&self, path: &str) -> Option<&str> {
        self.keys.get(path).map(String::as_str)
    }

    /// Records where the fragments of the assembled file at `path` are.
    pub(crate) fn set_fragments(&mut self, path: String, index: String) {
        self.fragments.insert(path, index);
    }

    /// Where the fragments of the assembled file at `path` are, as [`super::fragments`] writes
    /// it.
    pub fn fragments(&self, path: &str) -> Option<&str> {
        self.fragments.get(path).map(String::as_str)
    }

    /// The hash of what the Rust file at `path` was printed from.
    pub fn source(&self, path: &str) -> Option<&str> {
        self.sources.get(path).map(String::as_str)
    }
}
