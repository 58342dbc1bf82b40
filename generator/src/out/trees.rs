//! The parsed YAML tree of each spec file `generate` read ([`crate::load::tree`]), kept in the
//! cache directory (`trees/` below it), so a file unchanged since an earlier run is not parsed
//! again: after one operation's summary changed in GitHub's API, one of its 34 files is parsed.
//!
//! A tree is stored under the key of the file's text ([`crate::load::tree::key`]: the text's
//! hash with this build of apigen's), one file per key, written once and shared by every output
//! directory (a tree depends on the text only). What a tree file is believed for is bounded as
//! the cache's entries are ([`super::cache`]):
//! - it is read only under this machine's seal ([`super::seal`]): a file edited, forged or
//!   copied from elsewhere is no tree, and the spec file is parsed;
//! - it names its key inside the sealed bytes: a tree renamed to another file's key is no tree;
//! - the tree is decoded with every length and tag checked ([`crate::load::tree::decode`]) and
//!   then decoded into the spec's raw structures like a parsed one, every key checked; the
//!   output is made from it as from a parse, and `check` never reads a tree.
//!
//! The store keeps the [`KEPT`] trees written last; older ones (the texts of files since
//! edited) are removed, at most once per run, when a run writes a tree.

use super::seal::Key;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// How many trees the store keeps (Microsoft Graph's import is a few hundred files).
pub const KEPT: usize = 4096;

/// The first bytes of every tree file, then its key and a line break.
const HEADER: &[u8] = b"apigen yaml tree\n";

/// The file ending of a tree.
const EXTENSION: &str = "tree";

/// The trees of a cache directory.
pub struct TreeStore {
    /// `trees/` below the cache directory, and the seal's key; `None` without a cache.
    at: Option<(PathBuf, Key)>,
    /// Whether this run has removed the oldest trees already.
    pruned: AtomicBool,
}

impl TreeStore {
    /// The store in `dir` sealed with `key`, or none.
    pub(super) fn new(at: Option<(PathBuf, Key)>) -> Self {
        TreeStore { at, pruned: AtomicBool::new(false) }
    }

    fn path(dir: &Path, key: &str) -> Option<PathBuf> {
        // Keys are hex digests; anything else names no file.
        let hex = key.len() == 16 && key.bytes().all(|b| b.is_ascii_hexdigit());
        hex.then(|| dir.join(format!("{key}.{EXTENSION}")))
    }
}

impl crate::load::tree::Trees for TreeStore {
    fn get(&self, key: &str) -> Option<Vec<u8>> {
        let (dir, seal) = self.at.as_ref()?;
        let bytes = crate::input::read_regular(&Self::path(dir, key)?)?;
        let body = seal.opened_bytes(&bytes)?;
        let tree = body.strip_prefix(HEADER)?.strip_prefix(key.as_bytes())?.strip_prefix(b"\n")?;
        Some(tree.to_vec())
    }

    fn put(&self, key: &str, tree: &[u8]) {
        let Some((dir, seal)) = self.at.as_ref() else { return };
        let Some(path) = Self::path(dir, key) else { return };
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        if !self.pruned.swap(true, Ordering::Relaxed) {
            forget_oldest(dir);
        }
        let mut body = Vec::with_capacity(HEADER.len() + key.len() + 1 + tree.len() + 8);
        body.extend_from_slice(HEADER);
        body.extend_from_slice(key.as_bytes());
        body.push(b'\n');
        body.extend_from_slice(tree);
        // A store that cannot be written only saves no work.
        let _ = super::files::replace_file(&path, &seal.sealed_bytes(body));
    }
}

/// Removes the trees written longest ago beyond [`KEPT`] (one is about to be written). Only
/// the store's own files are removed: named `<16 hex digits>.tree`, regular, starting with
/// [`HEADER`].
fn forget_oldest(dir: &Path) {
    let Ok(listing) = std::fs::read_dir(dir) else { return };
    let mut trees: Vec<(std::time::SystemTime, PathBuf)> = listing
        .flatten()
        .filter(|e| is_tree(&e.path()))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if trees.len() < KEPT {
        return;
    }
    trees.sort();
    for (_, path) in &trees[..=trees.len() - KEPT] {
        let _ = std::fs::remove_file(path);
    }
}

/// True when `path` is a tree this store wrote (see [`forget_oldest`]).
fn is_tree(path: &Path) -> bool {
    use std::io::Read;
    let named = path.extension().is_some_and(|e| e == EXTENSION)
        && path.file_stem().and_then(|s| s.to_str()).is_some_and(|s| TreeStore::path(Path::new(""), s).is_some());
    let regular = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file());
    let mut start = vec![0; HEADER.len()];
    named && regular && std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut start)).is_ok() && start == HEADER
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::tree::Trees;

    fn store(dir: &Path) -> TreeStore {
        TreeStore::new(Some((dir.join("trees"), Key::at(&dir.join("apigen.key")).unwrap())))
    }

    #[test]
    fn a_tree_is_read_back_only_as_sealed_under_its_own_key() {
        let dir = tempfile::tempdir().unwrap();
        let trees = store(dir.path());
        let (a, b) = ("00000000000000aa", "00000000000000bb");
        trees.put(a, b"tree of a");
        trees.put(b, b"tree of b");
        assert_eq!(trees.get(a).as_deref(), Some(&b"tree of a"[..]));
        assert_eq!(trees.get("00000000000000cc"), None, "none stored");
        assert_eq!(trees.get("../apigen"), None, "not a key");
        let path = |key: &str| dir.path().join(format!("trees/{key}.tree"));
        // Renamed to another key: sealed, but its own key inside says otherwise.
        std::fs::copy(path(a), path(b)).unwrap();
        assert_eq!(trees.get(b), None);
        // Edited without sealing again.
        let mut bytes = std::fs::read(path(a)).unwrap();
        let last_of_tree = bytes.len() - 9;
        bytes[last_of_tree] ^= 1;
        std::fs::write(path(a), bytes).unwrap();
        assert_eq!(trees.get(a), None);
        // Another machine's key.
        let other = TreeStore::new(Some((dir.path().join("trees"), Key::at(&dir.path().join("other.key")).unwrap())));
        other.put(a, b"tree of a");
        assert_eq!(other.get(a).as_deref(), Some(&b"tree of a"[..]));
        assert_eq!(trees.get(a), None);
        // No cache: nothing kept.
        let none = TreeStore::new(None);
        none.put(a, b"x");
        assert_eq!(none.get(a), None);
    }

    #[test]
    fn only_the_newest_trees_are_kept_and_only_trees_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let trees = dir.path().join("trees");
        std::fs::create_dir_all(&trees).unwrap();
        let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1);
        for name in ["notes.txt", "0123456789abcdef.tree"] {
            std::fs::write(trees.join(name), "someone else's").unwrap();
            std::fs::File::options().write(true).open(trees.join(name)).unwrap().set_modified(old).unwrap();
        }
        let store = store(dir.path());
        for i in 0..KEPT {
            store.put(&format!("{i:016x}"), b"t");
            let at = old + std::time::Duration::from_secs(1_000 + i as u64);
            let path = trees.join(format!("{i:016x}.tree"));
            std::fs::File::options().write(true).open(path).unwrap().set_modified(at).unwrap();
        }
        // A new run writes one more: the oldest goes, so KEPT remain.
        let next = TreeStore::new(store.at.clone());
        next.put(&format!("{KEPT:016x}"), b"t");
        assert!(!trees.join(format!("{:016x}.tree", 0)).exists(), "the oldest tree goes");
        assert!(trees.join(format!("{:016x}.tree", 1)).exists());
        assert!(trees.join("notes.txt").exists() && trees.join("0123456789abcdef.tree").exists());
        let kept = std::fs::read_dir(&trees).unwrap().filter(|e| is_tree(&e.as_ref().unwrap().path())).count();
        assert_eq!(kept, KEPT);
    }
}
