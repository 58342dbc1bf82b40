//! The 64-bit hash of specs, generated files and the tokens they are printed from. Not
//! cryptographic: it tells a changed input from an unchanged one, deterministically on every
//! machine, and it is fast (eight bytes per step, in the style of FxHash, with a final mix so
//! every bit of the input reaches every bit of the hash), because `generate` hashes every
//! file it reads, prints or reuses.

/// A running hash. The result depends on the bytes written, not on how they were split into
/// writes.
pub struct Hasher {
    state: u64,
    /// Bytes not yet mixed in (fewer than eight), little-endian in `pending`.
    pending: u64,
    pending_len: u32,
    total: u64,
}

const SEED: u64 = 0xcbf2_9ce4_8422_2325;
const K: u64 = 0x517c_c1b7_2722_0a95;

fn mix(state: u64, word: u64) -> u64 {
    (state.rotate_left(5) ^ word).wrapping_mul(K)
}

impl Hasher {
    /// The empty hash.
    pub fn new() -> Self {
        Hasher { state: SEED, pending: 0, pending_len: 0, total: 0 }
    }

    /// Adds bytes.
    pub fn write(&mut self, mut bytes: &[u8]) {
        self.total = self.total.wrapping_add(bytes.len() as u64);
        while self.pending_len > 0 && !bytes.is_empty() {
            self.push_byte(bytes[0]);
            bytes = &bytes[1..];
        }
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let word: [u8; 8] = word.try_into().unwrap_or_default();
            self.state = mix(self.state, u64::from_le_bytes(word));
        }
        for &byte in words.remainder() {
            self.push_byte(byte);
        }
    }

    fn push_byte(&mut self, byte: u8) {
        self.pending |= u64::from(byte) << (8 * self.pending_len);
        self.pending_len += 1;
        if self.pending_len == 8 {
            self.state = mix(self.state, self.pending);
            self.pending = 0;
            self.pending_len = 0;
        }
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        let mut h = mix(mix(self.state, self.pending), self.total);
        // A final avalanche (MurmurHash3's), so a change in the last word moves the low bits too.
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }

    /// The hash so far as 16 hex digits.
    pub fn hex(&self) -> String {
        format!("{:016x}", self.finish())
    }
}

impl Default for Hasher {
    fn default() -> Self {
        Hasher::new()
    }
}

/// Hashing text written with `write!`, without building the string.
impl std::fmt::Write for Hasher {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        self.write(text.as_bytes());
        Ok(())
    }
}

/// The hash of several parts (each ended by a zero byte, so parts cannot run into each
/// other) as 16 hex digits.
pub fn parts(parts: &[&str]) -> String {
    let mut hasher = Hasher::new();
    for part in parts {
        hasher.write(part.as_bytes());
        hasher.write(&[0]);
    }
    hasher.hex()
}

/// The hash of `bytes` as 16 hex digits.
pub fn hex(bytes: &[u8]) -> String {
    let mut hasher = Hasher::new();
    hasher.write(bytes);
    hasher.hex()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitting_the_input_does_not_change_the_hash() {
        let text: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let whole = hex(&text);
        for split in [0, 1, 7, 8, 9, 500, 999, 1000] {
            let mut hasher = Hasher::new();
            hasher.write(&text[..split]);
            for byte in &text[split..] {
                hasher.write(&[*byte]);
            }
            assert_eq!(hasher.hex(), whole, "split at {split}");
        }
    }

    #[test]
    fn every_single_byte_change_and_every_length_changes_the_hash() {
        let text = b"pub struct Pet { pub name: String }".to_vec();
        let mut seen = std::collections::BTreeSet::new();
        assert!(seen.insert(hex(&text)));
        for at in 0..text.len() {
            let mut changed = text.clone();
            changed[at] ^= 1;
            assert!(seen.insert(hex(&changed)), "byte {at}");
        }
        for len in 0..text.len() {
            assert!(seen.insert(hex(&text[..len])), "prefix {len}");
        }
        // Trailing zero bytes are not padding.
        assert_ne!(hex(b"a"), hex(b"a\0"));
    }
}
