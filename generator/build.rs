//! Fingerprints the generator's own sources and templates into `APIGEN_SOURCE_HASH`, so a
//! stamp written by one build of apigen is not taken as current by another build of the
//! same version (a changed emitter must regenerate, even in development). The versions of
//! the crates that shape the output (syn, prettyplease, proc-macro2, quote, serde_json,
//! minijinja) are part of it, read from the workspace's `Cargo.lock`: a stamp is no proof
//! for a build that prints with another prettyplease. (`cargo install --locked` builds with
//! that lock file; without it the versions are not known here.)
//!
//! The files apigen embeds from outside its package directory are read through `embedded/`:
//! in this repository links to `../runtime` and `../Cargo.lock` (checked here, so a copy cannot
//! drift), in the packaged crate the copies `cargo package` makes of them.

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

/// `name version` of each crate that shapes the output, from a `Cargo.lock`.
fn printing_crates(lock: &str) -> String {
    const PRINTING: [&str; 6] = ["syn", "prettyplease", "proc-macro2", "quote", "serde_json", "minijinja"];
    let mut found = Vec::new();
    for package in lock.split("[[package]]") {
        let field = |key: &str| {
            package.lines().find_map(|line| line.strip_prefix(key)?.strip_prefix(" = \"")?.strip_suffix('"'))
        };
        if let (Some(name), Some(version)) = (field("name"), field("version"))
            && PRINTING.contains(&name)
        {
            found.push(format!("{name} {version}"));
        }
    }
    found.sort();
    found.join("\n")
}

fn main() {
    let in_repository = check_embedded_links();
    let mut paths = Vec::new();
    for dir in ["src", "templates", "embedded/runtime/src", "embedded/runtime/assets"] {
        println!("cargo::rerun-if-changed={dir}");
        files(Path::new(dir), &mut paths);
    }
    println!("cargo::rerun-if-changed=embedded/runtime/Cargo.toml.in");
    paths.push(PathBuf::from("embedded/runtime/Cargo.toml.in"));
    if in_repository {
        // Where the links lead, watched too: a change inside a linked directory is seen there.
        for (_, target) in EMBEDDED_LINKS {
            println!("cargo::rerun-if-changed={target}");
        }
    }
    paths.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut add = |bytes: &[u8]| {
        for &byte in bytes.iter().chain(&[0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for path in paths {
        add(path.to_string_lossy().as_bytes());
        add(&std::fs::read(&path).unwrap_or_default());
    }
    println!("cargo::rerun-if-changed=../Cargo.lock");
    add(printing_crates(&std::fs::read_to_string("../Cargo.lock").unwrap_or_default()).as_bytes());
    println!("cargo::rustc-env=APIGEN_SOURCE_HASH={hash:016x}");
    write_runtime_files();
}

/// Each link of `embedded/` and what it leads to in this repository.
const EMBEDDED_LINKS: [(&str, &str); 7] = [
    ("embedded/runtime/src", "../runtime/src"),
    ("embedded/runtime/assets", "../runtime/assets"),
    ("embedded/runtime/README.md", "../runtime/README.md"),
    ("embedded/runtime/LICENSE-MIT", "../runtime/LICENSE-MIT"),
    ("embedded/runtime/LICENSE-APACHE", "../runtime/LICENSE-APACHE"),
    ("embedded/runtime/Cargo.toml.in", "../runtime/Cargo.toml"),
    ("embedded/workspace.lock", "../Cargo.lock"),
];

/// In this repository (`../runtime` beside the generator), each entry of `embedded/` must lead
/// to its original: a checkout without symbolic links (git's `core.symlinks = false`) would
/// otherwise embed a file holding a path. Whether this is the repository.
fn check_embedded_links() -> bool {
    if !Path::new("../runtime/Cargo.toml").is_file() {
        return false;
    }
    for (link, target) in EMBEDDED_LINKS {
        let same = matches!(
            (std::fs::canonicalize(link), std::fs::canonicalize(target)),
            (Ok(a), Ok(b)) if a == b
        );
        assert!(
            same,
            "generator/{link} must be a symbolic link to {target} (generator/embedded/ is what the package \
             carries from outside generator/); check out with `git config core.symlinks true`"
        );
    }
    true
}

/// `runtime_files.rs` in `OUT_DIR`: every file `apigen init` copies into a new repository's
/// `apigen-runtime/` (its manifest, README, licenses, `src/` and `assets/`, the vendored
/// reference page), as `(path, include_str!(..))` pairs sorted by path.
fn write_runtime_files() {
    let root = std::fs::canonicalize("embedded/runtime").expect("the package carries embedded/runtime");
    let mut found =
        ["Cargo.toml.in", "README.md", "LICENSE-MIT", "LICENSE-APACHE"].map(|name| root.join(name)).to_vec();
    files(&root.join("src"), &mut found);
    files(&root.join("assets"), &mut found);
    // The manifest is embedded as `Cargo.toml.in`: a directory of the package holding a
    // `Cargo.toml` would be taken for another package and left out of it.
    let relative = |path: &Path| {
        let name = path.strip_prefix(&root).unwrap_or(path).to_string_lossy().replace('\\', "/");
        if name == "Cargo.toml.in" { "Cargo.toml".to_owned() } else { name }
    };
    let mut entries: Vec<(String, PathBuf)> = found.into_iter().map(|path| (relative(&path), path)).collect();
    entries.sort();
    let mut out = String::from("&[\n");
    for (relative, path) in entries {
        out.push_str(&format!("    ({relative:?}, include_str!({:?})),\n", path.to_string_lossy()));
    }
    out.push_str("]\n");
    let target = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("runtime_files.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
