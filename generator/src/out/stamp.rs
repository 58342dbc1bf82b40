//! The stamp apigen writes into the output directory: what the output was generated from and
//! every file it wrote there, with the hash of each. It proves which files apigen owns and
//! which bytes it wrote. It holds nothing about the build of apigen beyond its version, so
//! editing the generator changes the stamp only where the output changes; what a build
//! remembers of the directory (to skip emission, or reuse printed files) is in the cache
//! ([`super::cache`]), outside the repository.

use crate::emit::escape::toml_string;
use crate::emit::{Options, Output, text};
use crate::model::Api;
use std::collections::BTreeMap;

/// The stamp's file name, beside the marker.
pub const STAMP: &str = ".apigen-stamp";

/// The stamp of `output` (see [`STAMP`]): TOML, one file per line with the hash of its
/// contents, so a change in the set of files or in one file reads as a one-line diff. A spec
/// change touches the stamp (its hash) and only the files whose content changed; `check`
/// still sees a stale directory after a generator upgrade (the version differs, or a file).
pub fn render(api: &Api, options: &Options, output: &Output) -> String {
    let mut out = format!(
        "# {}\n# What this directory was generated from, and every file apigen wrote here:\n# `apigen generate` removes only files listed below.\nspec-hash = \"{}\"\ngenerator = \"apigen {}\"\nruntime = \"apigen-runtime {}\"\nfiles = [\n",
        text::header_text(api, options),
        api.spec_hash,
        env!("CARGO_PKG_VERSION"),
        crate::emit::RUNTIME_VERSION,
    );
    for path in output.files().keys() {
        let hash = output.hash(path).unwrap_or_default();
        out.push_str(&format!("    {{ path = {}, hash = \"{hash}\" }},\n", toml_string(path)));
    }
    out.push_str("]\n");
    out
}

/// `output` with its stamp added: every file the output directory receives.
pub fn stamped(api: &Api, options: &Options, mut output: Output) -> Output {
    let stamp = render(api, options, &output);
    output.add(STAMP, stamp);
    output
}

/// What a stamp says (see [`render`]): every file written, by path, with the hash of its
/// contents (`None` in stamps written before hashes were recorded).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Stamp {
    /// The files, by path.
    pub files: BTreeMap<String, Option<String>>,
}

/// Reads what [`render`] writes (and the cache's lists, which have the same form); generated
/// paths need no unescaping.
pub fn read(text: &str) -> Stamp {
    Stamp { files: entries(text).into_iter().map(|(path, fields)| (path, fields.get("hash").cloned())).collect() }
}

/// The value of the line `key = "value"` of `text`.
pub(super) fn key(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|line| line.strip_prefix(key)?.strip_prefix(" = ").and_then(quoted))
}

fn quoted(text: &str) -> Option<String> {
    text.trim().strip_prefix('"').and_then(|t| t.split_once('"')).map(|(v, _)| v.to_owned())
}

/// The entries of `files = [...]`: each path with its other fields (`hash`, `source`, `key`).
pub(super) fn entries(text: &str) -> Vec<(String, BTreeMap<String, String>)> {
    let Some((_, list)) = text.split_once("files = [") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for line in list.lines() {
        let line = line.trim().trim_end_matches(',');
        let Some(entry) = line.strip_prefix("{ path = ") else {
            // The oldest stamps list bare paths.
            found.extend(quoted(line).map(|path| (path, BTreeMap::new())));
            continue;
        };
        let Some(path) = quoted(entry) else { continue };
        let mut fields = BTreeMap::new();
        for name in ["hash", "source", "key"] {
            if let Some(value) = entry.split_once(&format!("{name} = ")).and_then(|(_, v)| quoted(v)) {
                fields.insert(name.to_owned(), value);
            }
        }
        found.push((path, fields));
    }
    found
}
