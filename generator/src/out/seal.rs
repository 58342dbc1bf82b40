//! The seal on the cache's entries: a keyed hash (SipHash-2-4 under a random 128-bit key) of
//! an entry's text. An entry is believed only under this machine's seal, so a forged or
//! copied entry reads as no entry at all and everything is printed again (issue 50: an entry
//! forged to name a tampered file's hash made `generate` keep the file after a spec change).
//!
//! The key is made at random on first use and kept beside the cache directory, not in it
//! (`~/.cache/apigen.key` for `~/.cache/apigen`), readable by its owner only: a cache folder
//! restored from elsewhere (a CI cache, a copy, another user's folder) was sealed under
//! another key and vouches for nothing. Without a key (it cannot be read or made) nothing is
//! remembered and every run prints everything. The seal guards against a folder written by
//! others; a program running as the user can read the key, as it could rewrite apigen itself.

use std::hash::Hasher;
use std::io::Write;
use std::path::Path;

/// A sealing key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Key(u64, u64);

impl Key {
    /// The key kept at `path`, made there first when there is none; `None` when it cannot be
    /// read or made.
    pub(super) fn at(path: &Path) -> Option<Key> {
        if let Some(key) = read(path) {
            return Some(key);
        }
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        match options.open(path) {
            Ok(mut file) => {
                let key = Key::random();
                file.write_all(format!("{:016x}{:016x}\n", key.0, key.1).as_bytes()).ok()?;
                Some(key)
            }
            // Two runs making the key at once: the first one's is the key.
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => read(path),
            Err(_) => None,
        }
    }

    /// A new key: the standard library's per-process random hash keys (seeded by the
    /// operating system), drawn twice.
    fn random() -> Key {
        use std::hash::BuildHasher;
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let word = |salt: u64| {
            let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
            hasher.write_u64(salt);
            hasher.write_u128(nanos);
            hasher.finish()
        };
        Key(word(1), word(2))
    }

    /// The seal of `text`: 16 hex digits.
    pub(super) fn seal(&self, text: &str) -> String {
        format!("{:016x}", self.mac(text.as_bytes()))
    }

    /// The keyed hash of `bytes`.
    fn mac(&self, bytes: &[u8]) -> u64 {
        // SipHash-2-4 under a secret key is a keyed hash; the type is deprecated only as the
        // hasher of hash tables.
        #[allow(deprecated)]
        let mut hasher = std::hash::SipHasher::new_with_keys(self.0, self.1);
        hasher.write(bytes);
        hasher.finish()
    }

    /// `bytes` followed by their seal (eight bytes).
    pub(super) fn sealed_bytes(&self, mut bytes: Vec<u8>) -> Vec<u8> {
        let seal = self.mac(&bytes).to_le_bytes();
        bytes.extend_from_slice(&seal);
        bytes
    }

    /// What `bytes` hold without their seal, when the seal is this key's.
    pub(super) fn opened_bytes<'b>(&self, bytes: &'b [u8]) -> Option<&'b [u8]> {
        let (body, seal) = bytes.split_at_checked(bytes.len().checked_sub(8)?)?;
        (self.mac(body).to_le_bytes() == seal).then_some(body)
    }

    /// `text` with its seal as its last line.
    pub(super) fn sealed(&self, text: &str) -> String {
        format!("{text}seal = \"{}\"\n", self.seal(text))
    }

    /// What `text` says without its seal, when the seal is this key's.
    pub(super) fn opened<'t>(&self, text: &'t str) -> Option<&'t str> {
        let (body, seal) = text.rsplit_once("seal = \"")?;
        let seal = seal.strip_suffix("\"\n")?;
        (body.ends_with('\n') && self.seal(body) == seal).then_some(body)
    }
}

/// The key written at `path`: 32 hex digits.
fn read(path: &Path) -> Option<Key> {
    let text = crate::input::read_regular_text(path)?;
    let hex = text.trim_end();
    if hex.len() != 32 {
        return None;
    }
    let word = |range: std::ops::Range<usize>| u64::from_str_radix(hex.get(range)?, 16).ok();
    Some(Key(word(0..16)?, word(16..32)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_made_once_and_opens_only_what_it_sealed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("apigen.key");
        let key = Key::at(&path).unwrap();
        assert_eq!(Key::at(&path), Some(key), "the key kept is read back");
        let other = Key::at(&dir.path().join("other.key")).unwrap();
        assert_ne!(key, other, "each key is drawn anew");
        let sealed = key.sealed("stamp = \"1\"\n");
        assert_eq!(key.opened(&sealed), Some("stamp = \"1\"\n"));
        assert_eq!(other.opened(&sealed), None, "another key's seal");
        assert_eq!(key.opened(&sealed.replace("\"1\"", "\"2\"")), None, "an edited entry");
        assert_eq!(key.opened("stamp = \"1\"\n"), None, "no seal");
        let sealed = key.sealed_bytes(b"tree".to_vec());
        assert_eq!(key.opened_bytes(&sealed), Some(&b"tree"[..]));
        assert_eq!(other.opened_bytes(&sealed), None, "another key's seal");
        assert_eq!(key.opened_bytes(&sealed[1..]), None, "cut");
        assert_eq!(key.opened_bytes(b"tree"), None, "no seal");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
    }
}
