//! apigen: a YAML description of an HTTP+JSON API in, checked-in Rust and docs out.
//!
//! The pipeline is load → lower → emit, with diagnostics collected in each phase and checked
//! at its boundary, so a broken spec reports every problem at once:
//!
//! - [`spec`] reads the YAML files into raw structures (the only serde_yaml user);
//! - [`model`] checks them and lowers them into the [`model::Api`] every emitter reads;
//! - [`emit`] turns the model into an [`emit::Output`], written or checked byte for byte.

pub mod config;
pub mod diag;
pub mod diff;
pub mod emit;
pub mod hash;
pub mod init;
pub mod input;
pub mod model;
pub mod par;
pub mod spec;

/// Every entry below `dir` that is not a directory (files, symbolic links, FIFOs, ...),
/// recursively, sorted by path, so nothing depends on the order of directory listings.
/// Symbolic links are listed, never followed: a link to a parent cannot make the walk loop or
/// lead it out of `dir`; callers decide what a listed link means to them.
pub(crate) fn files_below(dir: &Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current)? {
            let entry = entry?;
            if entry.file_type()?.is_dir() {
                pending.push(entry.path());
            } else {
                found.push(entry.path());
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The version of apigen-runtime the generated code is written for; generated manifests
/// require it. Kept equal to `runtime/Cargo.toml`'s version by a test.
pub const RUNTIME_VERSION: &str = "0.1.0";

use diag::Diagnostics;
use std::path::Path;

/// Loads and validates the spec in `spec_dir`. On success, also returns the warnings.
pub fn load(spec_dir: &Path) -> Result<(model::Api, Diagnostics), Diagnostics> {
    let mut diags = Diagnostics::new();
    let spec = spec::load(spec_dir, &mut diags);
    if !spec.complete {
        return Err(diags); // Lowering would report references to what could not be read.
    }
    match model::lower::lower(&spec, &mut diags) {
        Some(api) => Ok((api, diags)),
        None => Err(diags),
    }
}

/// Runs the whole pipeline in memory: the files the spec produces, and the warnings.
pub fn generate(spec_dir: &Path, options: &emit::Options) -> Result<(emit::Output, Diagnostics), Diagnostics> {
    let (api, warnings) = load(spec_dir)?;
    Ok((emit::emit(&api, options), warnings))
}
