//! What emission needs to know beyond the spec: where the runtime comes from, which outputs to
//! write, the command that regenerates them.

use std::path::Path;

/// The version of apigen-runtime the generated code is written for; generated manifests
/// require it. Kept equal to `runtime/Cargo.toml`'s version by a test.
pub const RUNTIME_VERSION: &str = "0.1.0";

/// What emission needs to know beyond the spec (from `apigen.toml` and flags).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// How generated crates depend on apigen-runtime.
    pub runtime: RuntimeSource,
    /// The command that regenerates the output, named in every header and drift report.
    pub regenerate: String,
    /// Which outputs to write.
    pub outputs: Outputs,
    /// The generated crates' license, from `apigen.toml`: it wins over the spec's
    /// `api.license` (the repository decides how its crates are licensed).
    pub license: Option<String>,
}

/// Where generated manifests take apigen-runtime from; each states the version required, so
/// a runtime of another version is refused by cargo, not met as a type error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuntimeSource {
    /// A directory, relative to a generated crate's directory (`../../runtime`).
    Path {
        /// The path as the manifests write it.
        from_crate: String,
        /// The version requirement.
        version: String,
    },
    /// A git repository, at a `rev`, `branch` or `tag` when given.
    Git {
        /// The repository.
        url: String,
        /// `("rev", "abc123")`, `("branch", ..)` or `("tag", ..)`.
        reference: Option<(&'static str, String)>,
        /// The version requirement.
        version: String,
    },
    /// A registry (crates.io).
    Registry {
        /// The version requirement.
        version: String,
    },
}

/// Which outputs are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outputs {
    /// The types crate.
    pub types: bool,
    /// The server crate.
    pub server: bool,
    /// The client crate.
    pub client: bool,
    /// `openapi.json`.
    pub openapi: bool,
    /// `REFERENCE.md`.
    pub reference: bool,
}

impl Default for Outputs {
    fn default() -> Self {
        Outputs { types: true, server: true, client: true, openapi: true, reference: true }
    }
}

impl Options {
    /// Options for output written to `out` with the runtime crate in the directory
    /// `runtime`, every output, and `apigen generate` as the command to name.
    pub fn new(out: &Path, runtime: &Path) -> Self {
        Options {
            runtime: RuntimeSource::Path {
                from_crate: Options::runtime_path(out, runtime),
                version: RUNTIME_VERSION.to_owned(),
            },
            regenerate: "apigen generate".to_owned(),
            outputs: Outputs::default(),
            license: None,
        }
    }

    /// The runtime's directory as a generated crate's manifest names it: relative, computed
    /// without touching the disk (no absolute path leaks into the output). Both paths are
    /// taken from one base; when only one is absolute, the other is made absolute from the
    /// current directory first.
    pub fn runtime_path(out: &Path, runtime: &Path) -> String {
        let (out, runtime) = match (out.is_absolute(), runtime.is_absolute()) {
            (true, false) | (false, true) => (
                std::path::absolute(out).unwrap_or_else(|_| out.to_path_buf()),
                std::path::absolute(runtime).unwrap_or_else(|_| runtime.to_path_buf()),
            ),
            _ => (out.to_path_buf(), runtime.to_path_buf()),
        };
        relative_path(&out.join("crate"), &runtime)
    }
}

impl Default for Options {
    /// The repository layout: output in `generated/`, the runtime in `runtime/`.
    fn default() -> Self {
        Options::new(Path::new("generated"), Path::new("runtime"))
    }
}

/// The path of `to` seen from the directory `from`, both relative to one base (or both
/// absolute), computed lexically: `relative_path("generated/types", "runtime")` is
/// `../../runtime`.
pub fn relative_path(from: &Path, to: &Path) -> String {
    use std::path::Component;
    let parts = |p: &Path| -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for component in p.components() {
            match component {
                Component::CurDir => {}
                Component::ParentDir if out.last().is_some_and(|l| l != "..") => {
                    out.pop();
                }
                other => out.push(other.as_os_str().to_string_lossy().into_owned()),
            }
        }
        out
    };
    let (from, to) = (parts(from), parts(to));
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut path: Vec<String> = vec!["..".to_owned(); from.len() - common];
    path.extend(to[common..].iter().cloned());
    if path.is_empty() { ".".to_owned() } else { path.join("/") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_are_lexical() {
        assert_eq!(relative_path(Path::new("generated/types"), Path::new("runtime")), "../../runtime");
        assert_eq!(
            relative_path(Path::new("tests/fixtures/out/x/types"), Path::new("runtime")),
            "../../../../../runtime"
        );
        assert_eq!(relative_path(Path::new("./generated/./types"), Path::new("./runtime")), "../../runtime");
        assert_eq!(relative_path(Path::new("a/b"), Path::new("a/c")), "../c");
        assert_eq!(relative_path(Path::new("/abs/out/crate"), Path::new("/abs/runtime")), "../../runtime");
    }
}
