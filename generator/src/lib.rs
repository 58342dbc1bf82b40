//! apigen: a YAML description of an HTTP+JSON API in, checked-in Rust and docs out.
//!
//! The pipeline is `load -> lower -> emit -> write | check`, one folder per phase, each
//! importing only the phases below it; diagnostics are collected in each phase and checked at
//! its boundary, so a broken spec reports every problem at once:
//!
//! - [`mod@load`] reads the YAML files into raw structures (the only serde_yaml user);
//! - [`lower`] checks them and lowers them into the [`model::Api`] every emitter reads;
//! - [`import`] (run once, when a team adopts apigen) turns an OpenAPI document into spec
//!   files;
//! - [`emit`] turns the model into an [`emit::Output`], written or checked byte for byte,
//!   with the stamp of the output directory deciding what needs emitting at all.
//!
//! The functions below are the commands a user runs, one each; `main.rs` only parses
//! arguments, reads `apigen.toml` ([`config`]) and prints what they return.

pub mod config;
pub mod diag;
pub mod diff;
pub mod emit;
pub mod hash;
pub mod import;
pub mod init;
pub mod input;
pub mod listing;
pub mod load;
pub mod lower;
pub mod model;
pub mod par;

pub use emit::RUNTIME_VERSION;

use config::Settings;
use diag::Diagnostics;
use emit::{Drift, Output, WriteError, WriteReport};
use model::Api;
use std::path::Path;

/// Loads and lowers the spec in `spec_dir`: the model and the warnings, or every problem.
pub fn load(spec_dir: &Path) -> Result<(Api, Diagnostics), Diagnostics> {
    let mut diags = Diagnostics::new();
    let spec = load::load(spec_dir, &mut diags);
    if !spec.complete {
        return Err(diags); // Lowering would report references to what could not be read.
    }
    match lower::lower(&spec, &mut diags) {
        Some(api) => Ok((api, diags)),
        None => Err(diags),
    }
}

/// `apigen lint` (and the first step of every command): the spec of `settings`, loaded and
/// lowered, its crates named with the settings' crate prefix when they set one.
pub fn lint(settings: &Settings) -> Result<(Api, Diagnostics), Diagnostics> {
    let (mut api, warnings) = load(&settings.spec)?;
    if let Some(prefix) = &settings.crate_prefix {
        api.name.clone_from(prefix);
    }
    Ok((api, warnings))
}

/// How much of the output to trust the stamp for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Trust {
    /// Skip emission when the stamp proves the output current, and reuse every printed Rust
    /// file whose tokens and bytes the stamp vouches for.
    #[default]
    Stamp,
    /// Print every file and compare or write it, relying on nothing the stamp says.
    Nothing,
}

/// Why a command that writes or checks the output failed.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// The spec has errors (every one, located).
    #[error("{}", .0.render())]
    Spec(Diagnostics),
    /// The output directory could not be written or read.
    #[error("error: {0}")]
    Output(#[from] WriteError),
}

impl From<Diagnostics> for Failure {
    fn from(diags: Diagnostics) -> Self {
        Failure::Spec(diags)
    }
}

/// What `apigen generate` did.
#[derive(Debug)]
pub struct Generated {
    /// The spec's warnings.
    pub warnings: Diagnostics,
    /// The files written, unchanged, removed and left alone.
    pub report: WriteReport,
}

/// `apigen generate`: writes the output directory of `settings`, only the files whose bytes
/// changed, and removes the files an earlier run wrote that the spec no longer produces.
pub fn generate(settings: &Settings, trust: Trust) -> Result<Generated, Failure> {
    let (api, warnings) = lint(settings)?;
    if let Some(unchanged) = proven_current(&api, settings, trust) {
        return Ok(Generated { warnings, report: WriteReport { unchanged, ..WriteReport::default() } });
    }
    let report = emit(&api, settings, trust).write(&settings.out)?;
    Ok(Generated { warnings, report })
}

/// What `apigen check` found.
#[derive(Debug)]
pub struct Checked {
    /// The spec's warnings.
    pub warnings: Diagnostics,
    /// How many files the spec produces.
    pub files: usize,
    /// How the output directory differs from them (clean when it matches).
    pub drift: Drift,
}

/// `apigen check`: compares the output directory of `settings` with what the spec produces.
pub fn check(settings: &Settings, trust: Trust) -> Result<Checked, Failure> {
    let (api, warnings) = lint(settings)?;
    if let Some(files) = proven_current(&api, settings, trust) {
        return Ok(Checked { warnings, files, drift: Drift::default() });
    }
    let output = emit(&api, settings, trust);
    let drift = output.check(&settings.out)?;
    Ok(Checked { warnings, files: output.files().len(), drift })
}

/// The number of files in the output directory when its stamp proves it is exactly what
/// `api` produces (the common case on save and in CI), so nothing needs emitting.
fn proven_current(api: &Api, settings: &Settings, trust: Trust) -> Option<usize> {
    match trust {
        Trust::Stamp => emit::unchanged(&settings.out, api, &settings.options),
        Trust::Nothing => None,
    }
}

/// Every file the spec produces: printed in full, or reusing the printed Rust files the
/// stamp in the output directory vouches for.
fn emit(api: &Api, settings: &Settings, trust: Trust) -> Output {
    match trust {
        Trust::Stamp => emit::emit_into(&settings.out, api, &settings.options),
        Trust::Nothing => emit::emit(api, &settings.options),
    }
}

/// Why `apigen import` failed.
#[derive(Debug, thiserror::Error)]
pub enum ImportFailure {
    /// The document could not be read or parsed (located).
    #[error("{path}{}: {}", location(.error), .error.message)]
    Unreadable {
        /// The document as the user named it.
        path: String,
        /// What is wrong, and where.
        error: load::document::DocumentError,
    },
    /// The document is not OpenAPI 3.0 or 3.1.
    #[error("{0}: {1}")]
    NotOpenApi(String, import::ImportError),
    /// The output directory is not empty and replacing it was not asked for, or is not a
    /// directory.
    #[error("{0}")]
    Refused(String),
    /// Writing failed.
    #[error("cannot write {0}: {1}")]
    Io(String, std::io::Error),
}

fn location(error: &load::document::DocumentError) -> String {
    match (error.line, error.column) {
        (Some(line), Some(column)) => format!(":{line}:{column}"),
        (Some(line), None) => format!(":{line}"),
        _ => String::new(),
    }
}

/// What `apigen import` did.
#[derive(Debug)]
pub struct ImportReport {
    /// The files written, relative to the output directory.
    pub written: Vec<String>,
    /// What was kept and left out.
    pub summary: import::Summary,
    /// The imported spec, loaded back: its warnings, or every error (which would be a fault of
    /// the import).
    pub lint: Result<Diagnostics, Diagnostics>,
}

/// `apigen import DOC --out DIR`: reads an OpenAPI document, writes the spec into `out` (which
/// must be empty or absent unless `replace`), and lints it.
pub fn import(document: &Path, out: &Path, replace: bool) -> Result<ImportReport, ImportFailure> {
    let shown = document.display().to_string();
    let doc = load::document::read_document(document)
        .map_err(|error| ImportFailure::Unreadable { path: shown.clone(), error })?;
    let name = document.file_name().map_or(shown.clone(), |n| n.to_string_lossy().into_owned());
    let imported = import::import(&doc, &name).map_err(|e| ImportFailure::NotOpenApi(shown.clone(), e))?;
    let written = import::write::replace_dir(out, &imported.files, replace)?;
    let lint = load(out).map(|(_, warnings)| warnings);
    if lint.is_err() && imported.shared_shapes > 0 {
        // A shared shape may name a type a later pass dropped: every copy declared instead.
        let unshared = import::import_sharing(&doc, &name, false).map_err(|e| ImportFailure::NotOpenApi(shown, e))?;
        let written = import::write::replace_dir(out, &unshared.files, true)?;
        let lint = load(out).map(|(_, warnings)| warnings);
        return Ok(ImportReport { written, summary: unshared.summary, lint });
    }
    Ok(ImportReport { written, summary: imported.summary, lint })
}

/// Which spec `apigen diff` compares: a directory, or a git revision whose spec directory is
/// read from git's objects.
#[derive(Debug, Clone)]
pub enum SpecSource {
    /// A spec directory.
    Dir(std::path::PathBuf),
    /// A git revision (`HEAD~1`, a branch, a commit).
    Revision(String),
}

impl SpecSource {
    /// `name` as the command line gives it: a directory when one exists at that path, else a
    /// revision.
    pub fn named(name: &str) -> SpecSource {
        let path = Path::new(name);
        if path.is_dir() { SpecSource::Dir(path.to_path_buf()) } else { SpecSource::Revision(name.to_owned()) }
    }

    /// The spec, with its warnings; `spec` is the spec directory a revision is read at.
    fn load(&self, spec: &Path) -> Result<(Api, Diagnostics), String> {
        match self {
            SpecSource::Dir(dir) => load(dir).map_err(|diags| diags.render()),
            SpecSource::Revision(rev) => {
                diff::git::load_at_revision(rev, spec).map_err(|error| format!("error: {error}\n"))
            }
        }
    }
}

/// What `apigen diff` found: every classified change, and the warnings of both specs.
#[derive(Debug)]
pub struct Diffed {
    /// The changes, classified.
    pub changes: Vec<diff::Change>,
    /// Warnings of loading either spec (a link not followed).
    pub warnings: Diagnostics,
}

/// `apigen diff BASE [HEAD]`: loads both specs (HEAD defaults to the directory `spec`) and
/// classifies every change. Fails with the rendered problems of a spec that does not load.
pub fn diff_specs(base: &SpecSource, head: &SpecSource, spec: &Path) -> Result<Diffed, String> {
    let (old, mut warnings) = base.load(spec)?;
    let (new, head_warnings) = head.load(spec)?;
    warnings.extend(head_warnings);
    Ok(Diffed { changes: diff::diff(&old, &new), warnings })
}
