//! The lock file `init` leaves: exactly what cargo keeps for the new workspace, so the first
//! build changes nothing.
//!
//! apigen's own lock holds every package of its workspace's graph (the command line's clap and
//! mimalloc, the tests' dependencies, optional dependencies of features nothing here enables);
//! what a workspace needs is decided by cargo's resolver, which no copy of it here would follow
//! exactly. So init asks cargo: once its files are written, the crates `apigen generate` will
//! write are emitted in memory, their manifests (with an empty `src/lib.rs` each) put in a
//! scratch workspace inside the directory (`.apigen-init-<pid>`, removed afterwards) beside
//! apigen's lock less its own packages, and `cargo metadata --offline` resolves it: cargo keeps
//! each locked version, drops what nothing uses and adds the user's crates. That lock replaces
//! the one written.
//!
//! Never the network (`--offline`): when cargo is missing, the spec does not generate yet, or
//! the packages are not in cargo's local cache, the lock written stays (apigen's versions, the
//! first build then settles it) and [`settle`] says why.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Replaces `dir/Cargo.lock` (written by init) with what cargo keeps of it for the workspace
/// `apigen generate` will complete; why not, when it cannot.
pub fn settle(dir: &Path) -> Result<(), String> {
    let scratch = Scratch::create(dir)?;
    let generator = scratch_generator(dir, &scratch.path)?;
    let (output, _) = generator.emit().map_err(|_| "the spec does not generate yet".to_owned())?;
    let members = write_crates(&scratch.path, output.files())?;
    write(&scratch.path.join("Cargo.toml"), &scratch_workspace(&members))?;
    let lock = dir.join("Cargo.lock");
    let written = std::fs::read_to_string(&lock).map_err(|e| format!("{}: {e}", lock.display()))?;
    write(&scratch.path.join("Cargo.lock"), &written)?;
    resolve_offline(&scratch.path)?;
    let settled = std::fs::read_to_string(scratch.path.join("Cargo.lock")).map_err(|e| e.to_string())?;
    write(&lock, &settled)
}

/// A directory removed when dropped.
struct Scratch {
    path: PathBuf,
}

impl Scratch {
    /// `.apigen-init-<pid>` in `dir`, new (init never writes into what it did not create).
    fn create(dir: &Path) -> Result<Scratch, String> {
        let path = dir.join(format!(".apigen-init-{}", std::process::id()));
        std::fs::create_dir(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Scratch { path })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The generator of `dir`'s `apigen.toml`, writing into `scratch` and naming the runtime by an
/// absolute path (a manifest in the scratch workspace reaches the same runtime directory).
fn scratch_generator(dir: &Path, scratch: &Path) -> Result<crate::Generator, String> {
    let absolute = |path: &Path| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut generator = crate::Generator::from_config(dir).map_err(|e| e.to_string())?;
    if let crate::config::Runtime::Dir(runtime, version) = &generator.runtime {
        generator.runtime = crate::config::Runtime::Dir(absolute(runtime), version.clone());
    }
    Ok(generator.out(absolute(&scratch.join("generated"))))
}

/// Each generated crate's manifest and an empty `src/lib.rs` (cargo resolves from manifests;
/// a package needs a target); the members, as the scratch workspace lists them.
fn write_crates(scratch: &Path, files: &std::collections::BTreeMap<String, String>) -> Result<Vec<String>, String> {
    let manifests = files.iter().filter_map(|(path, text)| Some((path.strip_suffix("/Cargo.toml")?, text)));
    let mut members = Vec::new();
    for (member, manifest) in manifests {
        let member = format!("generated/{member}");
        std::fs::create_dir_all(scratch.join(&member).join("src")).map_err(|e| e.to_string())?;
        write(&scratch.join(&member).join("Cargo.toml"), manifest)?;
        write(&scratch.join(&member).join("src/lib.rs"), "")?;
        members.push(member);
    }
    Ok(members)
}

/// The scratch workspace's manifest: the generated crates as members, the resolver of the
/// workspace init writes.
fn scratch_workspace(members: &[String]) -> String {
    let members: Vec<String> = members.iter().map(|m| super::toml_string(m)).collect();
    format!("[workspace]\nresolver = \"3\"\nmembers = [{}]\n", members.join(", "))
}

/// `cargo metadata --offline` in `scratch`: resolves its workspace and rewrites its lock file.
fn resolve_offline(scratch: &Path) -> Result<(), String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(&cargo)
        .args(["metadata", "--offline", "--format-version", "1", "--manifest-path"])
        .arg(scratch.join("Cargo.toml"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", Path::new(&cargo).display()))?;
    if output.status.success() {
        return Ok(());
    }
    Err(format!(
        "cargo cannot resolve the workspace offline ({})",
        cargo_cause(&String::from_utf8_lossy(&output.stderr))
    ))
}

/// What a cargo failure comes down to: its two deepest causes (`failed to read
/// `../rt/Cargo.toml``: `No such file or directory`), or its error line when it gives no cause.
/// The outer lines name the scratch workspace, gone by the time the user reads them.
fn cargo_cause(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().map(str::trim).collect();
    let causes: Vec<&str> = lines.windows(2).filter(|pair| pair[0] == "Caused by:").map(|pair| pair[1]).collect();
    match causes.as_slice() {
        [.., outer, inner] => format!("{outer}: {inner}"),
        _ => lines.iter().find(|line| line.starts_with("error")).unwrap_or(&"cargo metadata failed").to_string(),
    }
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
