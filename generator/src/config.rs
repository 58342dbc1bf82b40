//! `apigen.toml`: a repository's settings, so every command runs without flags.
//!
//! The file is looked up in the current directory, then in each parent; paths in it are
//! relative to its own directory, paths given as flags to the current directory, and flags
//! win. Without a file: `spec/`, `generated/`, the runtime from the registry.
//!
//! ```toml
//! spec = "spec"                 # the spec's directory
//! out = "generated"             # where generated files go
//! crate-prefix = "acme-api"     # crate names (default: `api.name` of the spec)
//! regenerate = "apigen generate" # the command headers and drift reports name
//!
//! [runtime]                     # how generated crates depend on apigen-runtime: one of
//! path = "apigen-runtime"       #   a directory,
//! # git = "https://...", rev = "..."   a git repository (with rev, branch or tag),
//! # version = "0.1"             #   or only a version (a registry)
//!
//! [outputs]                     # which outputs to write (all by default)
//! client = false
//!
//! [lint]                        # each warning class: "allow", "warn" or "deny"
//! missing-description = "allow" #   (default "warn"; unused-type defaults to "allow")
//! ```

use crate::diag::{Level, Levels, Lint};
use crate::emit::{Outputs, RuntimeSource};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The file's name.
pub const FILE: &str = "apigen.toml";

/// What `apigen.toml` holds.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Config {
    /// The spec's directory.
    pub spec: Option<PathBuf>,
    /// The output directory.
    pub out: Option<PathBuf>,
    /// Prefix of the generated crates' names, instead of the spec's `api.name`.
    pub crate_prefix: Option<String>,
    /// The command that regenerates the output, named in headers and drift reports.
    pub regenerate: Option<String>,
    /// The generated crates' license (an SPDX expression), over the spec's `api.license`.
    pub license: Option<String>,
    /// How generated crates depend on the runtime.
    #[serde(default)]
    pub runtime: RuntimeConfig,
    /// Which outputs to write.
    #[serde(default)]
    pub outputs: OutputsConfig,
    /// The level of each warning class.
    #[serde(default)]
    pub lint: LintConfig,
}

/// `[lint]`: the level of each warning class ([`crate::diag::Lint`]); unset, its default.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct LintConfig {
    /// A type, field, parameter or header without `description`.
    pub missing_description: Option<Level>,
    /// A named type no operation takes or answers.
    pub unused_type: Option<Level>,
    /// A link in the spec directory (or a git tree) that is not followed.
    pub unfollowed_link: Option<Level>,
}

impl LintConfig {
    /// The levels, each class's default where unset.
    pub fn levels(&self) -> Levels {
        let set = [
            (Lint::MissingDescription, self.missing_description),
            (Lint::UnusedType, self.unused_type),
            (Lint::UnfollowedLink, self.unfollowed_link),
        ];
        set.into_iter().fold(Levels::default(), |levels, (lint, level)| match level {
            Some(level) => levels.with(lint, level),
            None => levels,
        })
    }
}

/// `[runtime]`: at most one of `path` and `git`; `version` alone means a registry.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuntimeConfig {
    /// A directory holding apigen-runtime.
    pub path: Option<PathBuf>,
    /// A git repository holding apigen-runtime.
    pub git: Option<String>,
    /// With `git`: a commit.
    pub rev: Option<String>,
    /// With `git`: a branch.
    pub branch: Option<String>,
    /// With `git`: a tag.
    pub tag: Option<String>,
    /// The version requirement (default: the runtime version this apigen was built with).
    pub version: Option<String>,
}

/// `[outputs]`: each `true` unless set.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputsConfig {
    /// The types crate.
    pub types: Option<bool>,
    /// The server crate (needs the types).
    pub server: Option<bool>,
    /// The client crate (needs the types).
    pub client: Option<bool>,
    /// `openapi.json`.
    pub openapi: Option<bool>,
    /// `REFERENCE.md`.
    pub reference: Option<bool>,
}

/// What the command line gave; each overrides the file.
#[derive(Debug, Default)]
pub struct Flags {
    /// `--config`: the file to read, instead of looking for one.
    pub config: Option<PathBuf>,
    /// `--spec`.
    pub spec: Option<PathBuf>,
    /// `--out`.
    pub out: Option<PathBuf>,
    /// `--runtime`: a directory holding apigen-runtime.
    pub runtime: Option<PathBuf>,
}

/// Why the settings could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{}: {source}", located(path, source))]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: crate::input::ReadError,
    },
    /// The file is not valid.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, with its place when TOML says it.
        message: String,
    },
}

/// `path`, followed by the line and column of the problem when it has one.
fn located(path: &Path, error: &crate::input::ReadError) -> String {
    match error.position() {
        Some((line, column)) => format!("{}:{line}:{column}", path.display()),
        None => path.display().to_string(),
    }
}

/// The nearest `apigen.toml`, from `dir` up. Anything by that name counts (a FIFO, a dangling
/// link): reading it then says what is wrong, instead of settings from elsewhere being used.
pub fn find(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().map(|d| d.join(FILE)).find(|f| f.symlink_metadata().is_ok())
}

/// Reads a config file, through the reader every input takes ([`crate::input`]): a FIFO or
/// device is refused before it is opened, and at most [`crate::input::MAX_FILE_BYTES`] are read.
pub fn read(path: &Path) -> Result<Config, ConfigError> {
    let text = crate::input::read_text(path).map_err(|source| ConfigError::Read { path: path.into(), source })?;
    parse(&text).map_err(|message| ConfigError::Invalid { path: path.into(), message })
}

/// Parses the text of a config file.
pub fn parse(text: &str) -> Result<Config, String> {
    toml::from_str(text).map_err(|e| e.to_string().trim_end().to_owned())
}

/// Everything a command needs, resolved from the file and the flags; `apigen::Generator`
/// is made from it.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The file read, if any.
    pub file: Option<PathBuf>,
    /// The spec's directory.
    pub spec: PathBuf,
    /// The output directory.
    pub out: PathBuf,
    /// Where generated crates take apigen-runtime from.
    pub runtime: Runtime,
    /// The crate-name prefix, when the file sets one.
    pub crate_prefix: Option<String>,
    /// The command that regenerates the output, when the file sets one.
    pub regenerate: Option<String>,
    /// The generated crates' license, when the file sets one.
    pub license: Option<String>,
    /// Which outputs to write.
    pub outputs: Outputs,
    /// The level of each warning class.
    pub lint: Levels,
}

/// The settings for a command run in `cwd` with `flags`.
pub fn resolve(flags: Flags, cwd: &Path) -> Result<Settings, ConfigError> {
    let file = match flags.config {
        Some(path) => Some(cwd.join(path)),
        None => find(cwd),
    };
    let config = match &file {
        Some(path) => read(path)?,
        None => Config::default(),
    };
    let invalid = |message: String| ConfigError::Invalid { path: file.clone().unwrap_or_else(|| FILE.into()), message };
    // Paths in the file are relative to its directory; shown relative to `cwd` when they can be.
    let base = file.as_ref().and_then(|f| f.parent()).map(|dir| display_relative(dir, cwd)).unwrap_or_default();
    let from_file = |path: &Option<PathBuf>| path.as_ref().map(|p| base.join(p));
    let spec = flags.spec.or_else(|| from_file(&config.spec)).unwrap_or_else(|| base.join("spec"));
    let out = clean(&flags.out.or_else(|| from_file(&config.out)).unwrap_or_else(|| base.join("generated")));
    let runtime_dir = flags.runtime.or_else(|| from_file(&config.runtime.path));
    let outputs = outputs(&config.outputs).map_err(invalid)?;
    if let Some(prefix) = &config.crate_prefix
        && !crate::model::valid_crate_prefix(prefix)
    {
        return Err(invalid(format!(
            "`crate-prefix = {prefix:?}` cannot prefix a crate name: use lower-case letters, digits and dashes"
        )));
    }
    let runtime = runtime_source(&config.runtime, runtime_dir, &out, cwd).map_err(invalid)?;
    Ok(Settings {
        file,
        spec: clean(&spec),
        out,
        runtime,
        crate_prefix: config.crate_prefix,
        regenerate: config.regenerate,
        license: config.license.map(|l| l.trim().to_owned()).filter(|l| !l.is_empty()),
        outputs,
        lint: config.lint.levels(),
    })
}

/// `dir` relative to `cwd` when it is below or beside it, else as it is.
fn display_relative(dir: &Path, cwd: &Path) -> PathBuf {
    let relative = crate::emit::relative_path(cwd, dir);
    if relative.is_empty() { PathBuf::new() } else { PathBuf::from(relative) }
}

/// `path` without `.` components (`./spec` is `spec`).
fn clean(path: &Path) -> PathBuf {
    let cleaned: PathBuf = path.components().filter(|c| !matches!(c, std::path::Component::CurDir)).collect();
    if cleaned.as_os_str().is_empty() { PathBuf::from(".") } else { cleaned }
}

/// Where the runtime comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runtime {
    /// A directory (relative to the current directory when the output directory is,
    /// absolute when it is, so the manifests' path is computed from one base), and the
    /// version required of the crate there.
    Dir(PathBuf, String),
    /// A git repository or a registry.
    Source(RuntimeSource),
    /// Nothing names one (no `[runtime]`, no `--runtime`): the manifests would ask a registry
    /// for this apigen's runtime version, which crates.io does not have, so `generate` refuses
    /// to write crates.
    Unnamed,
}

fn runtime_source(config: &RuntimeConfig, path: Option<PathBuf>, out: &Path, cwd: &Path) -> Result<Runtime, String> {
    let refs = [&config.rev, &config.branch, &config.tag].iter().filter(|r| r.is_some()).count();
    if refs > 0 && config.git.is_none() {
        return Err("`rev`, `branch` and `tag` of [runtime] go with `git`".into());
    }
    if refs > 1 {
        return Err("[runtime] takes one of `rev`, `branch` and `tag`".into());
    }
    let version = config.version.clone().unwrap_or_else(|| crate::emit::RUNTIME_VERSION.to_owned());
    match (path, &config.git) {
        (Some(_), Some(_)) => Err("[runtime] takes `path` or `git`, not both".into()),
        (Some(path), None) if out.is_absolute() == path.is_absolute() => Ok(Runtime::Dir(path, version)),
        (Some(path), None) => {
            let cwd = std::path::absolute(cwd).unwrap_or_else(|_| cwd.to_path_buf());
            let path = if path.is_absolute() {
                PathBuf::from(crate::emit::relative_path(&cwd, &path))
            } else {
                cwd.join(path)
            };
            Ok(Runtime::Dir(path, version))
        }
        (None, Some(url)) => {
            let reference = [("rev", &config.rev), ("branch", &config.branch), ("tag", &config.tag)]
                .into_iter()
                .find_map(|(key, value)| value.clone().map(|v| (key, v)));
            Ok(Runtime::Source(RuntimeSource::Git { url: url.clone(), reference, version }))
        }
        (None, None) if config.version.is_some() => Ok(Runtime::Source(RuntimeSource::Registry { version })),
        (None, None) => Ok(Runtime::Unnamed),
    }
}

fn outputs(config: &OutputsConfig) -> Result<Outputs, String> {
    let on = |value: Option<bool>| value.unwrap_or(true);
    let outputs = Outputs {
        types: on(config.types),
        server: on(config.server),
        client: on(config.client),
        openapi: on(config.openapi),
        reference: on(config.reference),
    };
    if (outputs.server || outputs.client) && !outputs.types {
        return Err("[outputs] the server and client crates need `types = true`".into());
    }
    Ok(outputs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(text: &str, flags: Flags) -> Result<crate::Generator, ConfigError> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE), text).unwrap();
        let nested = dir.path().join("a/b");
        std::fs::create_dir_all(&nested).unwrap();
        resolve(flags, &nested).map(crate::Generator::from)
    }

    #[test]
    fn paths_in_the_file_are_relative_to_it_and_flags_to_the_current_directory() {
        let s = settings("spec = \"api\"\nout = \"gen\"\n[runtime]\npath = \"vendor/rt\"\n", Flags::default()).unwrap();
        assert_eq!((s.spec_dir(), s.out_dir()), (Path::new("../../api"), Path::new("../../gen")));
        assert_eq!(
            s.options().runtime,
            RuntimeSource::Path { from_crate: "../../vendor/rt".into(), version: crate::emit::RUNTIME_VERSION.into() }
        );
        let flags = Flags { spec: Some("here".into()), ..Flags::default() };
        assert_eq!(settings("", flags).unwrap().spec_dir(), Path::new("here"));
    }

    #[test]
    fn an_absolute_runtime_with_a_relative_output_gives_a_relative_manifest_path() {
        let dir = tempfile::tempdir().unwrap();
        let runtime = dir.path().join("rt");
        let flags = Flags { runtime: Some(runtime), out: Some("gen".into()), ..Flags::default() };
        let s = crate::Generator::from(resolve(flags, dir.path()).unwrap());
        let RuntimeSource::Path { from_crate, .. } = s.options().runtime else { panic!() };
        assert_eq!(from_crate, "../../rt");
    }

    #[test]
    fn git_and_registry_sources_and_their_errors() {
        let s = settings("[runtime]\ngit = \"https://example.com/apigen\"\nrev = \"abc\"\n", Flags::default()).unwrap();
        assert_eq!(
            s.options().runtime,
            RuntimeSource::Git {
                url: "https://example.com/apigen".into(),
                reference: Some(("rev", "abc".into())),
                version: crate::emit::RUNTIME_VERSION.into()
            }
        );
        let s = settings("[runtime]\nversion = \"0.1\"\n", Flags::default()).unwrap();
        assert_eq!(s.options().runtime, RuntimeSource::Registry { version: "0.1".into() });
        for (text, message) in [
            ("[runtime]\npath = \"a\"\ngit = \"b\"\n", "[runtime] takes `path` or `git`, not both"),
            ("[runtime]\nrev = \"a\"\n", "`rev`, `branch` and `tag` of [runtime] go with `git`"),
            ("[outputs]\ntypes = false\n", "[outputs] the server and client crates need `types = true`"),
            (
                "crate-prefix = \"Acme\"\n",
                "`crate-prefix = \"Acme\"` cannot prefix a crate name: use lower-case letters, digits and dashes",
            ),
        ] {
            let error = settings(text, Flags::default()).unwrap_err().to_string();
            assert!(error.ends_with(message), "{text}: {error}");
        }
        let error = settings("sepc = \"x\"\n", Flags::default()).unwrap_err().to_string();
        assert!(error.contains("unknown field `sepc`"), "{error}");
    }

    #[test]
    fn lint_levels_are_read_and_unknown_classes_or_levels_refused() {
        let s =
            settings("[lint]\nmissing-description = \"allow\"\nunused-type = \"deny\"\n", Flags::default()).unwrap();
        let levels = s.levels();
        assert_eq!(
            Lint::ALL.map(|lint| levels.of(lint)),
            [Level::Allow, Level::Deny, Level::Warn],
            "missing-description, unused-type, unfollowed-link"
        );
        let error = settings("[lint]\nmissing-descriptions = \"allow\"\n", Flags::default()).unwrap_err().to_string();
        assert!(error.contains("unknown field `missing-descriptions`, expected one of"), "{error}");
        let error = settings("[lint]\nunused-type = \"off\"\n", Flags::default()).unwrap_err().to_string();
        assert!(error.contains("unknown variant `off`, expected one of `allow`, `warn`, `deny`"), "{error}");
    }
}
