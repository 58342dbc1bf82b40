//! apigen: a YAML description of an HTTP+JSON API in, checked-in Rust and docs out.
//!
//! [`Generator`] is the front door, for the command line, the tests and a user's build script
//! or xtask alike, the way prost-build's `Config` is:
//!
//! ```no_run
//! // In an xtask, or a build script with `apigen = { version = "0.1", default-features = false }`:
//! let generated = apigen::Generator::new()
//!     .spec("spec")
//!     .out("generated")
//!     .runtime_path("apigen-runtime")
//!     .generate()
//!     .unwrap_or_else(|failure| panic!("{failure}"));
//! println!("{} files written", generated.report.written.len());
//! // Or every setting from the `apigen.toml` found from a directory up, as `apigen` reads it:
//! let checked = apigen::Generator::from_config(".")?.check().unwrap_or_else(|failure| panic!("{failure}"));
//! assert!(checked.drift.is_clean(), "{}", checked.drift.render("apigen generate"));
//! # Ok::<(), apigen::config::ConfigError>(())
//! ```
//!
//! The pipeline is `load -> lower -> emit -> write | check`, one folder per phase, each
//! importing only the phases below it; diagnostics are collected in each phase and checked at
//! its boundary, so a broken spec reports every problem at once:
//!
//! - [`mod@load`] reads the YAML files into raw structures (the only serde_yaml user);
//! - [`lower`] checks them and lowers them into the [`model::Api`] every emitter reads;
//! - [`emit`] turns the model into an [`Output`] (files in memory, nothing read or written);
//! - [`out`] owns the output directory: whether it is current, writing only what changed,
//!   checking byte for byte;
//! - [`import`] (run once, when a team adopts apigen) turns an OpenAPI document into spec
//!   files; [`mod@diff`] compares two specs.
//!
//! What a user needs is re-exported here; the phase modules are public for the tests and
//! benchmarks of this repository (those a user has no use for are hidden from these docs), and
//! carry no stability promise.

pub mod config;
pub mod diag;
pub mod diff;
pub mod emit;
#[doc(hidden)]
pub mod hash;
pub mod import;
#[doc(hidden)]
pub mod init;
#[doc(hidden)]
pub mod input;
#[doc(hidden)]
pub mod listing;
#[doc(hidden)]
pub mod load;
#[doc(hidden)]
pub mod lower;
pub mod model;
pub mod out;
#[doc(hidden)]
pub mod par;
mod phases;
pub mod progress;

pub use config::ConfigError;
pub use diag::Diagnostics;
pub use emit::{Options, Output, Outputs, RUNTIME_VERSION, RuntimeSource};
pub use import::{ImportFailure, imported_levels};
pub use out::{CacheDir, Drift, WriteError, WriteReport};

use model::Api;
use out::{Build, OutputDir};
use std::path::{Path, PathBuf};

/// Loads and lowers the spec in `spec_dir`: the model and the warnings, or every problem.
pub fn load(spec_dir: &Path) -> Result<(Api, Diagnostics), Diagnostics> {
    load_timed(spec_dir, &mut phases::Phases::off(), &load::tree::NoTrees)
}

/// [`load`], timing its two phases, taking the parsed tree of each spec file `trees` remembers
/// instead of parsing it ([`load::load_with`]).
fn load_timed(
    spec_dir: &Path,
    phases: &mut phases::Phases,
    trees: &dyn load::tree::Trees,
) -> Result<(Api, Diagnostics), Diagnostics> {
    let mut diags = Diagnostics::new();
    let spec = load::load_with(spec_dir, &mut diags, trees);
    phases.end("load: spec files read and parsed (YAML)");
    if !spec.complete {
        return Err(diags); // Lowering would report references to what could not be read.
    }
    let lowered = lower::lower(&spec, &mut diags);
    phases.end("lower: checked and lowered into the model");
    match lowered {
        Some(api) => Ok((api, diags)),
        None => Err(diags),
    }
}

// Where generated manifests take apigen-runtime from: a directory is kept as given until the
// output directory is known, so the manifests' relative path is computed from wherever the
// output goes.
use config::Runtime;

/// The generator, set up: where the spec is, where the output goes, where the generated
/// crates take apigen-runtime from, and how much to trust what is on disk. Every command of
/// the CLI is one method; a build script or an xtask calls the same ones.
#[derive(Debug, Clone)]
pub struct Generator {
    spec: PathBuf,
    out: PathBuf,
    runtime: Runtime,
    crate_prefix: Option<String>,
    regenerate: String,
    outputs: Outputs,
    license: Option<String>,
    full: bool,
    cache: CacheDir,
    config_file: Option<PathBuf>,
    levels: diag::Levels,
    progress: progress::Reporter,
}

impl Default for Generator {
    fn default() -> Self {
        Generator::new()
    }
}

impl Generator {
    /// The defaults of a repository without `apigen.toml`: the spec in `spec/`, the output in
    /// `generated/`, no source of apigen-runtime named (manifests would ask a registry for the
    /// version this apigen writes for; [`Generator::generate`] refuses to write crates until
    /// [`Generator::runtime_path`] or [`Generator::runtime`] names one),
    /// every output, `apigen generate` named as the command that regenerates, the stamp
    /// trusted and the user's cache directory ([`CacheDir`]).
    pub fn new() -> Self {
        Generator {
            spec: PathBuf::from("spec"),
            out: PathBuf::from("generated"),
            runtime: Runtime::Unnamed,
            crate_prefix: None,
            regenerate: "apigen generate".to_owned(),
            outputs: Outputs::default(),
            license: None,
            full: false,
            cache: CacheDir::default(),
            config_file: None,
            levels: diag::Levels::default(),
            progress: progress::Reporter::default(),
        }
    }

    /// The settings of the `apigen.toml` found in `dir` or its nearest parent holding one
    /// (paths in it are relative to it), as every command of the CLI reads them; the defaults
    /// of [`Generator::new`] (with `dir/spec` and `dir/generated`) when there is none.
    /// [`Generator::settings_file`] says which file was read, or `None` when none was.
    ///
    /// Paths are made relative to the current directory (a build script runs in its package's
    /// directory, not where `apigen.toml` is).
    pub fn from_config(dir: impl AsRef<Path>) -> Result<Self, ConfigError> {
        let dir = dir.as_ref();
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        match config::find(dir) {
            Some(file) => {
                let file = std::path::absolute(&file).unwrap_or(file);
                let flags = config::Flags { config: Some(file), ..config::Flags::default() };
                config::resolve(flags, &cwd).map(Generator::from)
            }
            None => Ok(Generator::new().spec(dir.join("spec")).out(dir.join("generated"))),
        }
    }

    /// The directory holding the spec's YAML files.
    #[must_use]
    pub fn spec(mut self, dir: impl Into<PathBuf>) -> Self {
        self.spec = dir.into();
        self
    }

    /// The directory the generated files go to: empty, absent, or written by apigen before.
    #[must_use]
    pub fn out(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out = dir.into();
        self
    }

    /// Take apigen-runtime from this directory (relative to the current directory, or
    /// absolute); the manifests name it relative to themselves.
    #[must_use]
    pub fn runtime_path(mut self, dir: impl Into<PathBuf>) -> Self {
        self.runtime = Runtime::Dir(dir.into(), RUNTIME_VERSION.to_owned());
        self
    }

    /// Take apigen-runtime from a git repository or a registry.
    #[must_use]
    pub fn runtime(mut self, source: RuntimeSource) -> Self {
        self.runtime = Runtime::Source(source);
        self
    }

    /// Prefix the crates' names with `prefix` (`acme-api` gives `acme-api-types`, ...) instead
    /// of the spec's `api.name`.
    #[must_use]
    pub fn crate_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.crate_prefix = Some(prefix.into());
        self
    }

    /// The generated crates' license (their `license`: an SPDX expression), over the spec's
    /// `api.license` (`apigen.toml`'s `license`).
    #[must_use]
    pub fn license(mut self, license: impl Into<String>) -> Self {
        self.license = Some(license.into());
        self
    }

    /// The command every generated header and drift report names (`apigen generate`).
    #[must_use]
    pub fn regenerate_command(mut self, command: impl Into<String>) -> Self {
        self.regenerate = command.into();
        self
    }

    /// Which outputs to write (all by default).
    #[must_use]
    pub fn outputs(mut self, outputs: Outputs) -> Self {
        self.outputs = outputs;
        self
    }

    /// Print every file and write it, relying on nothing the stamp and the cache vouch for
    /// (`generate --full`); by default `generate` does not emit a directory proven current
    /// again, and does not print again a Rust file whose tokens and bytes did not change.
    /// [`check`](Self::check) always prints every file.
    #[must_use]
    pub fn full(mut self, full: bool) -> Self {
        self.full = full;
        self
    }

    /// The level of each warning class (`[lint]` of `apigen.toml`): an allowed class is not
    /// reported, a denied one fails the command like an error.
    #[must_use]
    pub fn lint_levels(mut self, levels: diag::Levels) -> Self {
        self.levels = levels;
        self
    }

    /// Report the progress of each command to `progress` (the command line draws it on a
    /// terminal); nothing is reported by default.
    #[must_use]
    pub fn progress(mut self, progress: progress::Reporter) -> Self {
        self.progress = progress;
        self
    }

    /// The level of each warning class.
    pub fn levels(&self) -> &diag::Levels {
        &self.levels
    }

    /// Where this build remembers output directories ([`CacheDir`]).
    #[must_use]
    pub fn cache(mut self, cache: CacheDir) -> Self {
        self.cache = cache;
        self
    }

    /// The spec's directory.
    pub fn spec_dir(&self) -> &Path {
        &self.spec
    }

    /// The output directory.
    pub fn out_dir(&self) -> &Path {
        &self.out
    }

    /// The settings file these settings came from, if any.
    pub fn settings_file(&self) -> Option<&Path> {
        self.config_file.as_deref()
    }

    /// The crate-name prefix set instead of the spec's name, if any.
    pub fn prefix(&self) -> Option<&str> {
        self.crate_prefix.as_deref()
    }

    /// What emission needs beyond the spec: the runtime source as the manifests name it, the
    /// command to regenerate, the outputs.
    pub fn options(&self) -> Options {
        let runtime = match &self.runtime {
            Runtime::Dir(dir, version) => {
                RuntimeSource::Path { from_crate: Options::runtime_path(&self.out, dir), version: version.clone() }
            }
            Runtime::Source(source) => source.clone(),
            Runtime::Unnamed => RuntimeSource::Registry { version: RUNTIME_VERSION.to_owned() },
        };
        Options { runtime, regenerate: self.regenerate.clone(), outputs: self.outputs, license: self.license.clone() }
    }

    /// `apigen lint` (and the first step of every command): the spec loaded and lowered, its
    /// crates named with the crate prefix when one is set; the warnings at their levels, or
    /// every problem (a warning of a denied class is one).
    pub fn lint(&self) -> Result<(Api, Diagnostics), Diagnostics> {
        self.lint_timed(&mut phases::Phases::off(), &load::tree::NoTrees)
    }

    /// [`Generator::lint`], timing its phases, taking the trees `trees` remembers.
    fn lint_timed(
        &self,
        phases: &mut phases::Phases,
        trees: &dyn load::tree::Trees,
    ) -> Result<(Api, Diagnostics), Diagnostics> {
        self.progress.get().phase(progress::phase::SPEC, None);
        let (mut api, warnings) = load_timed(&self.spec, phases, trees).map_err(|diags| diags.leveled(&self.levels))?;
        let warnings = warnings.leveled(&self.levels);
        if warnings.has_errors() {
            return Err(warnings);
        }
        if let Some(prefix) = &self.crate_prefix {
            api.name.clone_from(prefix);
        }
        Ok((api, warnings))
    }

    /// Every file the spec produces, stamped, in memory: nothing is read from or written to
    /// the output directory.
    pub fn emit(&self) -> Result<(Output, Diagnostics), Failure> {
        let (api, warnings) = self.lint()?;
        let options = self.options();
        Ok((out::stamp::stamped(&api, &options, emit::emit(&api, &options)), warnings))
    }

    /// `apigen generate`: writes the output directory, only the files whose bytes changed,
    /// and removes the files an earlier run wrote that the spec no longer produces.
    ///
    /// Refuses ([`Failure::Runtime`]) to write crates whose runtime cannot be resolved: none
    /// named, or a directory without a `Cargo.toml`.
    pub fn generate(&self) -> Result<Generated, Failure> {
        let mut phases = phases::Phases::start();
        // Nothing changed since the last run: proven by hashing the spec's files and the
        // output, without parsing (see `out::cache`).
        let inputs = self.inputs_hash();
        let mut opened = OutputDir::open(&self.out, self.cache.clone()).ok();
        phases.end("inputs hashed, output directory listed, cache entry read");
        if let (Some(dir), Some(inputs), false) = (&mut opened, &inputs, self.full)
            && let Some((unchanged, warnings)) = dir.unchanged_since(inputs)
        {
            self.runtime_resolves()?;
            phases.end("nothing changed: output hashed against the stamp");
            return Ok(Generated { warnings, report: WriteReport { unchanged, ..WriteReport::default() } });
        }
        phases.end("fast path refused (output hashed when the inputs matched)");
        // The spec files unchanged since an earlier run are not parsed again (`--full`
        // relies on nothing remembered).
        let trees = if self.full { CacheDir::none() } else { self.cache.clone() }.trees();
        let (api, warnings) = self.lint_timed(&mut phases, &trees)?;
        self.runtime_resolves()?;
        let options = self.options();
        let build = Build::of(&api, &options);
        let dir = match opened {
            Some(dir) => dir,
            None => OutputDir::open(&self.out, self.cache.clone())?,
        };
        if let Some(unchanged) = self.proven_current(&dir, &build) {
            dir.remember_inputs(self.unchanged_inputs(inputs, &warnings));
            return Ok(Generated { warnings, report: WriteReport { unchanged, ..WriteReport::default() } });
        }
        phases.end("levels, fingerprint, proof of a current directory refused");
        // Each file is written as it is printed: the output is never held whole.
        let streamed = dir.streaming()?;
        let output = self.emit_for(&api, &options, &dir, &build, &streamed);
        phases.end("emit: files keyed, built, printed, written as done");
        self.progress.get().phase(progress::phase::WRITE, None);
        let report = streamed.finish(&output)?;
        phases.end("stamp written, stale files removed");
        dir.remember_run(&output, &build, self.unchanged_inputs(inputs, &warnings));
        phases.end("spec hashed again, cache entry written");
        drop((api, output));
        phases.end("model and output dropped");
        Ok(Generated { warnings, report })
    }

    /// `apigen check`: compares the output directory with what the spec produces, every file
    /// printed now and compared byte for byte. The cache never vouches for a check (issue 50:
    /// an entry forged to match an edited stamp made `check` pass over injected code): it
    /// only saves `generate` work, and what `generate` wrote is what `check` then compares.
    pub fn check(&self) -> Result<Checked, Failure> {
        let inputs = self.inputs_hash();
        let (api, warnings) = self.lint()?;
        let (dir, options, build) = self.open(&api)?;
        let printed = emit::emit_into(&api, &options, &emit::jobs::Nothing, &emit::jobs::Keep, self.progress.get());
        let output = out::stamp::stamped(&api, &options, printed);
        self.progress.get().phase(progress::phase::COMPARE, None);
        let drift = dir.check(&output)?;
        if drift.is_clean() {
            dir.remember_run(&output, &build, self.unchanged_inputs(inputs, &warnings));
        }
        Ok(Checked { warnings, files: output.files().len(), drift })
    }

    /// `apigen diff BASE [HEAD]`: `base` and `head` (the spec directory unless given)
    /// compared, every change classified. Fails with the rendered problems of a spec that does
    /// not load.
    pub fn diff(&self, base: &SpecSource, head: Option<&SpecSource>) -> Result<Diffed, String> {
        let (old, mut warnings) = base.load(&self.spec)?;
        let (new, head_warnings) = match head {
            Some(head) => head.load(&self.spec)?,
            None => SpecSource::Dir(self.spec.clone()).load(&self.spec)?,
        };
        warnings.extend(head_warnings);
        Ok(Diffed { changes: diff::diff(&old, &new), warnings })
    }

    /// Whether the crates written could find apigen-runtime (when crates are written at all).
    fn runtime_resolves(&self) -> Result<(), Failure> {
        if !(self.outputs.types || self.outputs.server || self.outputs.client) {
            return Ok(());
        }
        let named = "name it under [runtime] in apigen.toml (`path = \"apigen-runtime\"` beside a copy of the \
                     runtime, which `apigen init` writes; or `git = \"...\"`; or `version = \"...\"` for a registry \
                     that has it), or pass --runtime DIR";
        match &self.runtime {
            Runtime::Unnamed => Err(Failure::Runtime(format!(
                "no [runtime] names where the generated crates take apigen-runtime from, and it is not on \
                 crates.io: nothing was written\n  hint: {named}"
            ))),
            Runtime::Dir(dir, _) if !dir.join("Cargo.toml").is_file() => Err(Failure::Runtime(format!(
                "[runtime] path {} holds no Cargo.toml: the generated crates could not build against it; nothing \
                 was written\n  hint: {named}",
                dir.components().filter(|c| !matches!(c, std::path::Component::CurDir)).collect::<PathBuf>().display()
            ))),
            _ => Ok(()),
        }
    }

    /// The output directory opened, with the options and the build of `api`'s output.
    fn open(&self, api: &Api) -> Result<(OutputDir, Options, Build), Failure> {
        let options = self.options();
        let build = Build::of(api, &options);
        Ok((OutputDir::open(&self.out, self.cache.clone())?, options, build))
    }

    /// The hash of what the output depends on, read without parsing: every spec file's path
    /// and bytes ([`load::inputs_hash`]), the settings (resolved from `apigen.toml` and the
    /// flags: hashing what they resolve to, not the file, so a comment added to `apigen.toml`
    /// costs nothing), and this build of apigen. `None` when a spec file cannot be read.
    fn inputs_hash(&self) -> Option<String> {
        let spec = load::inputs_hash(&self.spec)?;
        let settings = format!("{:?} {:?} {:?}", self.crate_prefix, self.options(), self.levels);
        Some(hash::parts(&[&spec, env!("APIGEN_SOURCE_HASH"), &settings]))
    }

    /// What this run may remember of its inputs: their hash taken before it read them, when
    /// the spec still hashes the same now (an edit saved while the run read the spec would
    /// otherwise be remembered as generated), with the warnings reported.
    fn unchanged_inputs(&self, before: Option<String>, warnings: &Diagnostics) -> Option<out::Inputs> {
        let before = before?;
        (self.inputs_hash().as_ref() == Some(&before)).then(|| out::Inputs { hash: before, warnings: warnings.clone() })
    }

    /// The number of files in the output directory when this build remembers it as exactly
    /// what `build` produces (the common case on save), so nothing needs emitting.
    fn proven_current(&self, dir: &OutputDir, build: &Build) -> Option<usize> {
        if self.full { None } else { dir.current(build) }
    }

    /// Every file the spec produces, stamped: printed in full, or reusing the printed Rust
    /// files this build remembers printing into `dir`.
    fn emit_for(
        &self,
        api: &Api,
        options: &Options,
        dir: &OutputDir,
        build: &Build,
        sink: &dyn emit::jobs::Sink,
    ) -> Output {
        let progress = self.progress.get();
        let output = if self.full {
            emit::emit_into(api, options, &emit::jobs::Nothing, sink, progress)
        } else {
            emit::emit_into(api, options, &dir.printed(build), sink, progress)
        };
        out::stamp::stamped(api, options, output)
    }
}

impl From<config::Settings> for Generator {
    /// The generator of resolved settings (`apigen.toml` and flags).
    fn from(settings: config::Settings) -> Self {
        Generator {
            spec: settings.spec,
            out: settings.out,
            runtime: settings.runtime,
            crate_prefix: settings.crate_prefix,
            regenerate: settings.regenerate.unwrap_or_else(|| "apigen generate".to_owned()),
            outputs: settings.outputs,
            license: settings.license,
            config_file: settings.file,
            levels: settings.lint,
            ..Generator::new()
        }
    }
}

/// Why a command that writes or checks the output failed. Its `Debug` is its `Display`, the
/// text the CLI prints: `fn main() -> Result<(), Box<dyn Error>>` in a build script or an xtask
/// shows the located diagnostics, not the structs holding them.
#[derive(thiserror::Error)]
pub enum Failure {
    /// The spec has errors (every one, located).
    #[error("{}", .0.render())]
    Spec(Diagnostics),
    /// The output directory could not be written or read.
    #[error("error: {0}")]
    Output(#[from] WriteError),
    /// The generated crates' runtime cannot be resolved (none named, or a directory without
    /// the crate): what to write under `[runtime]`.
    #[error("error: {0}")]
    Runtime(String),
}

impl std::fmt::Debug for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
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
    import_named(document, out, replace, None, None, &progress::Silent)
}

/// [`import`], the crates named `name` (`--name`) instead of from the document's file name,
/// each spec file naming the spec format's JSON Schema at `schema` (a path relative to the spec
/// directory) on its first line when given ([`load::schema_modeline`]), reporting its phases to
/// `progress`.
pub fn import_named(
    document: &Path,
    out: &Path,
    replace: bool,
    name: Option<&str>,
    schema: Option<&str>,
    progress: &dyn progress::Progress,
) -> Result<ImportReport, ImportFailure> {
    let mut read = ReadDocument::read(document, name, progress)?;
    read.schema = schema.map(str::to_owned);
    progress.phase(progress::phase::SPEC_FILES, None);
    let written = import::write::replace_dir(out, &read.files(&read.imported), replace, document)?;
    read.linted(written, out, document)
}

/// A document read and imported in memory.
struct ReadDocument {
    doc: serde_json::Value,
    shown: String,
    file_name: String,
    name: Option<String>,
    imported: import::Imported,
    /// The schema's path from the spec directory, named on each file's first line.
    schema: Option<String>,
}

impl ReadDocument {
    fn read(
        document: &Path,
        name: Option<&str>,
        progress: &dyn progress::Progress,
    ) -> Result<ReadDocument, ImportFailure> {
        if let Some(name) = name.filter(|name| !model::valid_crate_prefix(name)) {
            return Err(ImportFailure::Refused(format!(
                "--name {name}: cannot prefix a crate name: use lower-case letters, digits and dashes"
            )));
        }
        let shown = document.display().to_string();
        progress.phase(progress::phase::DOCUMENT, None);
        let doc = load::document::read_document(document)
            .map_err(|error| ImportFailure::Unreadable { path: shown.clone(), error })?;
        let file_name = document.file_name().map_or(shown.clone(), |n| n.to_string_lossy().into_owned());
        progress.phase(progress::phase::IMPORT, None);
        let imported = import::import_named(&doc, &file_name, true, name)
            .map_err(|e| ImportFailure::NotOpenApi(shown.clone(), e))?;
        Ok(ReadDocument { doc, shown, file_name, name: name.map(str::to_owned), imported, schema: None })
    }

    /// The spec files of `imported`, each naming the schema first when one is set.
    fn files(&self, imported: &import::Imported) -> Vec<(String, String)> {
        spec_files(self.schema.as_deref(), imported)
    }

    /// The spec written into `out` linted; when it does not lint and shapes were shared, the
    /// document imported again declaring every copy (a shared shape may name a type a later
    /// pass dropped), written over it.
    ///
    /// The document's tree and the spec's text are dropped before the lint, which loads the
    /// spec again: Microsoft Graph's lint peaks at about 430 MB by itself, and the tree and the
    /// text held beside it made the import's peak 613 MB. The second import, when one is
    /// needed, reads the document again.
    fn linted(self, written: Vec<String>, out: &Path, document: &Path) -> Result<ImportReport, ImportFailure> {
        let ReadDocument { doc, shown, file_name, name, imported, schema } = self;
        let import::Imported { summary, shared_shapes, .. } = imported;
        drop(doc);
        let lint = load(out).map(|(_, warnings)| warnings);
        if lint.is_err() && shared_shapes > 0 {
            let doc = load::document::read_document(document)
                .map_err(|error| ImportFailure::Unreadable { path: shown.clone(), error })?;
            let unshared = import::import_named(&doc, &file_name, false, name.as_deref())
                .map_err(|e| ImportFailure::NotOpenApi(shown.clone(), e))?;
            drop(doc);
            let written = import::write::replace_dir(out, &spec_files(schema.as_deref(), &unshared), true, document)?;
            let lint = load(out).map(|(_, warnings)| warnings);
            return Ok(ImportReport { written, summary: unshared.summary, lint });
        }
        Ok(ImportReport { written, summary, lint })
    }
}

/// The spec files of `imported`, each naming the schema at `schema` first when one is set.
fn spec_files(schema: Option<&str>, imported: &import::Imported) -> Vec<(String, String)> {
    let Some(schema) = schema else { return imported.files.clone() };
    let modeline = load::schema_modeline(schema);
    imported.files.iter().map(|(name, text)| (name.clone(), format!("{modeline}{text}"))).collect()
}

/// Why `apigen init --from` failed.
#[derive(Debug, thiserror::Error)]
pub enum InitFromFailure {
    /// The document could not be imported (nothing was written).
    #[error("{0}")]
    Import(#[from] ImportFailure),
    /// The repository could not be set up (nothing was written when it was refused).
    #[error("{0}")]
    Init(#[from] init::InitError),
}

/// What `apigen init --from` did.
#[derive(Debug)]
pub struct InitFromReport {
    /// The crate-name prefix the spec names (`--name`, or from the document).
    pub name: String,
    /// The files `init` wrote (the imported spec's among them) and left alone.
    pub init: init::Report,
    /// The import: its summary, and the spec linted at [`imported_levels`].
    pub import: ImportReport,
}

/// `apigen init --from DOC [DIR]`: a repository set up as `init` sets it up (`apigen.toml` with
/// the runtime's source and `[lint]` levels that fit an imported document, the runtime's copy,
/// the workspace manifest and lock file), whose spec is the document's import. The document is
/// read and imported before anything is written; `options.name` is replaced by `name`, or the
/// name the import gives. Its phases are reported to `progress`.
pub fn init_from(
    dir: &Path,
    options: &init::Options,
    document: &Path,
    name: Option<&str>,
    progress: &dyn progress::Progress,
) -> Result<InitFromReport, InitFromFailure> {
    let mut read = ReadDocument::read(document, name, progress)?;
    read.schema = options.spec.to_str().map(|spec| init::schema_from(&spec.replace('\\', "/")));
    let options = init::Options {
        name: read.imported.crate_name.clone(),
        imported: Some(read.files(&read.imported)),
        ..options.clone()
    };
    progress.phase(progress::phase::SPEC_FILES, None);
    let report = init::init(dir, &options)?;
    let spec = dir.join(&options.spec);
    let written = read.imported.files.iter().map(|(file, _)| file.clone()).collect();
    let mut import = read.linted(written, &spec, document)?;
    import.lint = import.lint.map(|warnings| warnings.leveled(&imported_levels()));
    Ok(InitFromReport { name: options.name, init: report, import })
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
