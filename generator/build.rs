//! Fingerprints the generator's own sources and templates into `APIGEN_SOURCE_HASH`, so a
//! stamp written by one build of apigen is not taken as current by another build of the
//! same version (a changed emitter must regenerate, even in development).

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let mut paths = Vec::new();
    for dir in ["src", "../templates", "../runtime/src"] {
        println!("cargo::rerun-if-changed={dir}");
        files(Path::new(dir), &mut paths);
    }
    println!("cargo::rerun-if-changed=../runtime/Cargo.toml");
    paths.push(PathBuf::from("../runtime/Cargo.toml"));
    paths.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for path in paths {
        let bytes = std::fs::read(&path).unwrap_or_default();
        for byte in path.to_string_lossy().bytes().chain([0]).chain(bytes).chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    println!("cargo::rustc-env=APIGEN_SOURCE_HASH={hash:016x}");
}
