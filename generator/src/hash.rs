//! FNV-1a, 64 bits: the fingerprints of specs and generated files. Not cryptographic; it
//! tells a changed input from an unchanged one, deterministically on every machine.

/// A running FNV-1a hash.
pub struct Fnv64(u64);

impl Fnv64 {
    /// The empty hash.
    pub fn new() -> Self {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }

    /// Adds bytes.
    pub fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for Fnv64 {
    fn default() -> Self {
        Fnv64::new()
    }
}

/// The hash of `bytes` as 16 hex digits.
pub fn hex(bytes: &[u8]) -> String {
    let mut hasher = Fnv64::new();
    hasher.write(bytes);
    format!("{:016x}", hasher.finish())
}
