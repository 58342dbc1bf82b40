//! What this build of apigen remembers of an output directory, kept outside the repository
//! (in the user's cache directory), so the committed stamp holds nothing specific to a build.
//!
//! One small file per output directory records the fingerprint of what it was generated
//! from (the spec's hash, this build of apigen, the crate names and the options), the hash of
//! the stamp it wrote, and for each file the hash of its bytes, its key (what it is made from,
//! hashed from the model: [`crate::emit::inputs`]) and, for a Rust file, the hash of the
//! header and tokens it was printed from. With it, `generate` skips emission when the
//! directory is proven current, does not build a file whose key did not change (its bytes on
//! disk are checked against the stamp instead), and reuses a printed Rust file whose tokens did
//! not change. Without it (a fresh clone, CI,
//! a cleared cache) everything is emitted and compared: the cache only ever saves work, it
//! never decides what the output is.
//!
//! What `generate` believes of an entry is bounded twice (issue 50):
//! - an entry is read only under this machine's seal ([`super::seal`]): a forged, edited or
//!   copied entry is no entry, and everything is printed again;
//! - it is keyed by what it summarises and only ever compared with hashes of what is on disk,
//!   taken now: the directory is current only when the stamp on disk hashes to the one the
//!   entry remembers for this very fingerprint and every file hashes to the stamp's line; a
//!   file is reused only when its tokens hash to the source it was printed from and its bytes
//!   on disk hash to what was printed; a file is left unbuilt only when its key is the one
//!   remembered, the stamp on disk is the one the entry remembers, and its bytes hash to the
//!   stamp's line and the entry's. Any mismatch means "print again", never "current".
//!
//! `check` never reads the cache's word at all: it prints every file.
//!
//! **The fast path of `generate`** (nothing changed since the last run): the entry also
//! records the hash of the run's inputs ([`Entry::inputs`]: every spec file's path and bytes,
//! the resolved settings of `apigen.toml` and the flags, and this build of apigen) and the
//! warnings that run reported. When the inputs hash the same now, the stamp on disk hashes to
//! the one the entry remembers, and every file the stamp lists hashes to its line (nothing
//! else in the directory), `generate` stops there: no spec file is parsed, nothing is emitted,
//! and the remembered warnings are reported again. What it trusts: the seal (the entry was
//! written by this user's apigen after it wrote or checked that very output from those very
//! inputs), that generation is a pure function of its inputs, and the 64-bit hash ([`crate::hash`])
//! to tell an edited file from the one written (not a cryptographic one: it catches any edit
//! by hand or by a tool, not a collision crafted on purpose; `check` compares bytes and is
//! what CI runs). An output file edited, added or removed by hand, a spec file touched by one
//! byte, a changed setting or another build of apigen each mean the slow path, which restores
//! the output. Hashing the output is most of what the fast path costs (GitHub's 40 MB, read
//! through one buffer), and it is kept: a check of sizes and times would leave a file edited
//! by hand in place. The warnings are the rest (GitHub's import has 16,237, 6 MB of JSON).

use super::files::replace_file;
use super::seal::Key;
use super::stamp;
use crate::diag::Diagnostics;
use crate::emit::{Options, Output, escape::toml_string};
use crate::model::Api;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How many directories the cache remembers; the least recently written are forgotten.
const KEPT: usize = 256;

/// Where the cache lives: `$APIGEN_CACHE_DIR`, else `$XDG_CACHE_HOME/apigen`, else
/// `$HOME/.cache/apigen`; or nowhere (nothing is remembered, every run emits everything).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheDir(Option<PathBuf>);

impl Default for CacheDir {
    /// The user's cache directory, from the environment.
    fn default() -> Self {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        if let Some(dir) = std::env::var_os("APIGEN_CACHE_DIR") {
            // Set but empty: no cache.
            return CacheDir((!dir.is_empty()).then(|| PathBuf::from(dir)));
        }
        let dir = var("XDG_CACHE_HOME").or_else(|| var("HOME").map(|home| home.join(".cache")));
        CacheDir(dir.map(|dir| dir.join("apigen")))
    }
}

impl CacheDir {
    /// A cache in `dir`.
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        CacheDir(Some(dir.into()))
    }

    /// No cache: nothing is remembered.
    pub fn none() -> Self {
        CacheDir(None)
    }

    /// The file remembering the output directory `out`, named by a hash of its absolute path.
    fn entry_path(&self, out: &Path) -> Option<(PathBuf, String)> {
        let dir = self.0.as_ref()?;
        let absolute = std::path::absolute(out).ok()?.to_string_lossy().into_owned();
        Some((dir.join(format!("{}.toml", crate::hash::hex(absolute.as_bytes()))), absolute))
    }

    /// The key sealing the entries, kept beside the cache directory (`apigen.key` beside
    /// `apigen/`), made on first use.
    fn key(&self) -> Option<Key> {
        let dir = self.0.as_ref()?;
        let mut name = dir.file_name()?.to_owned();
        name.push(".key");
        let path = dir.with_file_name(name);
        std::fs::create_dir_all(path.parent()?).ok()?;
        Key::at(&path)
    }

    /// The parsed trees of spec files kept here ([`super::trees`]), sealed with this machine's
    /// key; none without a cache or a key.
    pub fn trees(&self) -> super::trees::TreeStore {
        let at = self.0.as_ref().zip(self.key()).map(|(dir, key)| (dir.join("trees"), key));
        super::trees::TreeStore::new(at)
    }

    /// What is remembered of `out`, if anything: an entry under this machine's seal.
    pub(super) fn read(&self, out: &Path) -> Option<Entry> {
        let (path, absolute) = self.entry_path(out)?;
        let text = crate::input::read_regular_text(&path)?;
        let text = self.key()?.opened(&text)?;
        // Two directories whose paths hash alike never borrow each other's memory.
        (stamp::key(text, "dir")? == absolute).then(|| Entry::parse(text))
    }

    /// Remembers `entry` for `out`, sealed; a cache that cannot be written is no failure (it
    /// only saves work).
    pub(super) fn write(&self, out: &Path, entry: &Entry) {
        let Some((path, absolute)) = self.entry_path(out) else { return };
        let Some(dir) = path.parent() else { return };
        let Some(key) = self.key() else { return };
        let text = key.sealed(&entry.render(&absolute));
        if std::fs::create_dir_all(dir).is_ok() && replace_file(&path, text.as_bytes()).is_ok() {
            forget_oldest(dir);
        }
    }
}

/// The first line of every entry: what tells an entry from another program's file.
const HEADER: &str = "# What apigen remembers of an output directory; safe to delete.\n";

/// Removes the least recently written entries beyond [`KEPT`]. Only apigen's own entries
/// count and are removed (the cache directory may be shared: `APIGEN_CACHE_DIR` can name any
/// folder): a file named as [`CacheDir::entry_path`] names them, a regular file, starting
/// with [`HEADER`].
fn forget_oldest(dir: &Path) {
    let Ok(listing) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<(std::time::SystemTime, PathBuf)> = listing
        .flatten()
        .filter(|e| is_entry(&e.path()))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if entries.len() <= KEPT {
        return;
    }
    entries.sort();
    for (_, path) in &entries[..entries.len() - KEPT] {
        let _ = std::fs::remove_file(path);
    }
}

/// True when `path` is an entry this cache wrote: `<16 hex digits>.toml`, a regular file
/// (not a link) whose text starts with [`HEADER`].
fn is_entry(path: &Path) -> bool {
    let named =
        path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".toml")).is_some_and(|stem| {
            stem.len() == 16 && stem.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        });
    named && starts_with_header(path).unwrap_or(false)
}

/// Whether the regular file at `path` (a link is not followed) starts with [`HEADER`]; only
/// that many bytes are read.
fn starts_with_header(path: &Path) -> std::io::Result<bool> {
    use std::io::Read;
    if !std::fs::symlink_metadata(path)?.is_file() {
        return Ok(false);
    }
    let mut start = vec![0; HEADER.len()];
    std::fs::File::open(path)?.read_exact(&mut start)?;
    Ok(start == HEADER.as_bytes())
}

/// What the output was generated from beyond the spec's text, for this build of apigen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Build {
    /// The spec's hash, this build, the crate names and the options: equal fingerprints give
    /// equal output.
    pub fingerprint: String,
    /// What printing depends on besides a file's tokens: this build of apigen (its sources,
    /// and the versions of the crates that print: see `build.rs`), the crate names and the
    /// options.
    pub printer: String,
}

impl Build {
    /// The build of the output of `api` with `options` by this apigen.
    pub fn of(api: &Api, options: &Options) -> Self {
        let printer = crate::hash::parts(&[env!("APIGEN_SOURCE_HASH"), &api.name, &format!("{options:?}")]);
        Build { fingerprint: crate::hash::parts(&[&api.spec_hash, &printer]), printer }
    }
}

/// What is remembered of one output directory.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(super) struct Entry {
    /// The fingerprint of the last output written or checked there.
    pub fingerprint: Option<String>,
    /// The printer of its Rust files.
    pub printer: Option<String>,
    /// The hash of its stamp's text.
    pub stamp: Option<String>,
    /// Each file written or checked: the hash of its bytes, of what a Rust file was printed
    /// from, and its key (what it is made from: [`crate::emit::inputs`]).
    pub files: BTreeMap<String, Remembered>,
    /// The hash of the inputs of the run that wrote or checked the output (see the module's
    /// fast path), when that run knew them unchanged while it ran.
    pub inputs: Option<String>,
    /// The warnings of that run (at its levels, which are part of the inputs), as one line of
    /// JSON: decoded only when the fast path reports them again (GitHub's are 6 MB, which every
    /// other run would decode for nothing).
    pub warnings: Option<String>,
}

/// What is remembered of one file of an output directory.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(super) struct Remembered {
    /// The hash of its bytes.
    pub hash: String,
    /// For a Rust file, the hash of the header and tokens it was printed from.
    pub source: Option<String>,
    /// Its key: the hash of what it is made from.
    pub key: Option<String>,
    /// For a file assembled from fragments, where they are ([`crate::emit::fragments`]).
    pub fragments: Option<String>,
}

/// What a run knew of its inputs: their hash ([`crate::load::inputs_hash`] with the settings),
/// and the spec's warnings.
#[derive(Debug, Clone)]
pub struct Inputs {
    /// The hash of every spec file, the settings and this build of apigen.
    pub hash: String,
    /// The warnings of the spec, as reported.
    pub warnings: Diagnostics,
}

impl Entry {
    /// The entry for `output` (stamped), generated as `build` says.
    pub fn of(build: &Build, output: &Output) -> Self {
        let files = output
            .files()
            .keys()
            .filter_map(|path| {
                let remembered = Remembered {
                    hash: output.hash(path)?,
                    source: output.source(path).map(str::to_owned),
                    key: output.key(path).filter(|key| !key.is_empty()).map(str::to_owned),
                    fragments: output.fragments(path).map(str::to_owned),
                };
                Some((path.clone(), remembered))
            })
            .collect();
        Entry {
            fingerprint: Some(build.fingerprint.clone()),
            printer: Some(build.printer.clone()),
            stamp: output.hash(stamp::STAMP),
            files,
            inputs: None,
            warnings: None,
        }
    }

    /// This entry, remembering `inputs` too.
    pub fn with_inputs(mut self, inputs: Option<Inputs>) -> Self {
        if let Some(inputs) = inputs {
            self.inputs = Some(inputs.hash);
            self.warnings = serde_json::to_string(&inputs.warnings).ok();
        }
        self
    }

    fn parse(text: &str) -> Self {
        let mut files: BTreeMap<String, Remembered> = stamp::entries(text)
            .into_iter()
            .filter_map(|(path, mut fields)| {
                let hash = fields.remove("hash")?;
                let (source, key) = (fields.remove("source"), fields.remove("key"));
                Some((path, Remembered { hash, source, key, fragments: None }))
            })
            .collect();
        for line in text.lines().filter_map(|line| line.strip_prefix(FRAGMENTS)) {
            let Some((path, index)) = line.strip_prefix('"').and_then(|line| line.split_once("\" ")) else { continue };
            if let Some(file) = files.get_mut(path) {
                file.fragments = Some(index.to_owned());
            }
        }
        Entry {
            fingerprint: stamp::key(text, "fingerprint"),
            printer: stamp::key(text, "printer"),
            stamp: stamp::key(text, "stamp"),
            files,
            inputs: stamp::key(text, "inputs").filter(|hash| !hash.is_empty()),
            warnings: text.lines().find_map(|line| line.strip_prefix(WARNINGS)).map(str::to_owned),
        }
    }

    fn render(&self, absolute: &str) -> String {
        let field = |value: &Option<String>| value.clone().unwrap_or_default();
        let mut out = format!(
            "{HEADER}dir = {}\nfingerprint = \"{}\"\nprinter = \"{}\"\nstamp = \"{}\"\ninputs = \"{}\"\nfiles = [\n",
            toml_string(absolute),
            field(&self.fingerprint),
            field(&self.printer),
            field(&self.stamp),
            field(&self.inputs),
        );
        for (path, file) in &self.files {
            out.push_str(&format!("    {{ path = {}, hash = \"{}\"", toml_string(path), file.hash));
            for (name, value) in [("source", &file.source), ("key", &file.key)] {
                if let Some(value) = value {
                    out.push_str(&format!(", {name} = \"{value}\""));
                }
            }
            out.push_str(" },\n");
        }
        out.push_str("]\n");
        // The fragments' index of each assembled file, one line each (only digits, hex digits,
        // `:` and `,`), after the list; a path needing escapes has none remembered.
        for (path, file) in &self.files {
            if let Some(index) = file.fragments.as_ref().filter(|_| toml_string(path) == format!("\"{path}\"")) {
                out.push_str(&format!("{FRAGMENTS}\"{path}\" {index}\n"));
            }
        }
        // One line of JSON (its strings escape every line break), after the list.
        if let Some(json) = &self.warnings {
            out.push_str(&format!("{WARNINGS}{json}\n"));
        }
        out
    }
}

impl Entry {
    /// The remembered warnings, decoded.
    pub fn decoded_warnings(&self) -> Option<Diagnostics> {
        serde_json::from_str(self.warnings.as_deref()?).ok()
    }
}

/// The start of the line holding the remembered warnings.
const WARNINGS: &str = "warnings = ";

/// The start of a line holding the index of an assembled file's fragments.
const FRAGMENTS: &str = "fragments = ";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forgetting_removes_only_its_own_oldest_entries() {
        let dir = tempfile::tempdir().unwrap();
        let entry = |i: usize| dir.path().join(format!("{i:016x}.toml"));
        // Another program's TOML files, one named like an entry, in the same folder.
        let foreign = ["Cargo.toml", "config.toml", "0123456789abcdef.toml"];
        for name in foreign {
            // Older than every entry: the first to go if they counted.
            std::fs::write(dir.path().join(name), "[package]\nname = \"mine\"\n").unwrap();
            let at = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1);
            std::fs::File::options().write(true).open(dir.path().join(name)).unwrap().set_modified(at).unwrap();
        }
        for i in 0..KEPT + 3 {
            std::fs::write(entry(i), format!("{HEADER}dir = \"/{i}\"\n")).unwrap();
            let at = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000 + i as u64);
            std::fs::File::options().write(true).open(entry(i)).unwrap().set_modified(at).unwrap();
        }
        forget_oldest(dir.path());
        for name in foreign {
            assert!(dir.path().join(name).exists(), "{name} was removed");
        }
        let kept: Vec<bool> = (0..KEPT + 3).map(|i| entry(i).exists()).collect();
        assert_eq!(kept.iter().filter(|k| !**k).count(), 3);
        assert!(!kept[0] && !kept[1] && !kept[2] && kept[3], "the oldest three go");
    }
}
