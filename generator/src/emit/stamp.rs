//! The stamp apigen writes into the output directory: what the output was generated from and
//! every file it wrote there, with their hashes. It proves which files apigen owns, lets
//! `generate` and `check` skip emission when nothing changed, and vouches for the printed Rust
//! files that [`super::jobs`] may reuse.

use super::escape::toml_string;
use super::output::{Output, is_build_leftover, list_files};
use super::{Options, text};
use crate::input::read_regular_text;
use crate::model::Api;
use std::path::Path;

/// The stamp apigen writes beside the marker: the spec hash and generator version the
/// directory was generated from, and every file apigen wrote there. Headers carry neither, so
/// a spec change touches the stamp and only the files whose content changed; `check` still
/// sees a stale directory after a generator upgrade (the stamp differs); `generate` removes
/// only files the previous stamp lists.
pub const STAMP: &str = ".apigen-stamp";

/// The files the stamp of an earlier run lists, or `None` when there is no stamp.
pub(super) fn previous_stamp(dir: &Path) -> Option<std::collections::BTreeSet<String>> {
    let text = read_regular_text(&dir.join(STAMP))?;
    Some(read_stamp(&text).files.into_keys().collect())
}

/// What the output depends on besides the spec's text: this build of apigen (its sources'
/// hash, so a changed emitter never passes for the old one), the crate names and the options.
pub fn fingerprint(api: &Api, options: &Options) -> String {
    crate::hash::parts(&[&api.spec_hash, &printer(api, options)])
}

/// What printing depends on besides a file's tokens: this build of apigen (its sources, and
/// the versions of the crates that print: see `build.rs`), the crate names and the options.
/// A stamp written by another printer lends nothing to [`super::jobs::Reuse`].
pub fn printer(api: &Api, options: &Options) -> String {
    crate::hash::parts(&[env!("APIGEN_SOURCE_HASH"), &api.name, &format!("{options:?}")])
}

/// The number of files in `dir` when it is exactly what `api` and `options` produce, known
/// without emitting: its stamp has the same fingerprint, and every file it lists is on disk
/// with the recorded hash, and nothing else is (build leftovers aside). `None` when anything
/// differs or cannot be read: then emit and compare.
pub fn unchanged(dir: &Path, api: &Api, options: &Options) -> Option<usize> {
    let text = read_regular_text(&dir.join(STAMP))?;
    let Stamp { fingerprint: stamped, files, .. } = read_stamp(&text);
    if stamped? != fingerprint(api, options) {
        return None;
    }
    let on_disk = list_files(dir).ok()?;
    let on_disk: Vec<&String> = on_disk.iter().filter(|p| !is_build_leftover(p) && p.as_str() != STAMP).collect();
    if on_disk.len() != files.len() {
        return None;
    }
    for (path, file) in &files {
        let bytes = std::fs::read(dir.join(path)).ok()?;
        if file.hash.as_deref() != Some(crate::hash::hex(&bytes).as_str()) {
            return None;
        }
    }
    Some(files.len() + 1)
}

/// The stamp file (see [`STAMP`]): TOML, one file per line with the hash of its
/// contents (and, for a Rust file, of the tokens it was printed from), so a change in the set
/// of files or in one file reads as a one-line diff.
pub fn stamp(api: &Api, options: &Options, output: &Output) -> String {
    let mut out = format!(
        "# {}\n# What this directory was generated from, and every file apigen wrote here:\n# `apigen generate` removes only files listed below.\nspec-hash = \"{}\"\ngenerator = \"apigen {}\"\nruntime = \"apigen-runtime {}\"\nfingerprint = \"{}\"\nprinter = \"{}\"\nfiles = [\n",
        text::header_text(api, options),
        api.spec_hash,
        env!("CARGO_PKG_VERSION"),
        crate::emit::RUNTIME_VERSION,
        super::fingerprint(api, options),
        super::printer(api, options),
    );
    for path in output.files().keys() {
        let hash = output.hash(path).unwrap_or_default();
        out.push_str(&format!("    {{ path = {}, hash = \"{hash}\"", toml_string(path)));
        if let Some(source) = output.source(path) {
            out.push_str(&format!(", source = \"{source}\""));
        }
        out.push_str(" },\n");
    }
    out.push_str("]\n");
    out
}

/// What a stamp says (see [`stamp`]).
#[derive(Debug, Default)]
pub struct Stamp {
    /// What the whole output was generated from.
    pub fingerprint: Option<String>,
    /// Which printer printed its Rust files.
    pub printer: Option<String>,
    /// Every file written, by path.
    pub files: std::collections::BTreeMap<String, StampedFile>,
}

/// A file a stamp lists.
#[derive(Debug, Default)]
pub struct StampedFile {
    /// The hash of its contents (`None` in stamps written before hashes were recorded).
    pub hash: Option<String>,
    /// For a Rust file, the hash of its header and tokens.
    pub source: Option<String>,
}

/// Reads what [`stamp`] writes; generated paths need no unescaping.
pub fn read_stamp(text: &str) -> Stamp {
    let quoted = |text: &str| text.trim().strip_prefix('"').and_then(|t| t.split_once('"')).map(|(v, _)| v.to_owned());
    let key = |key: &str| text.lines().find_map(|line| line.strip_prefix(key).and_then(quoted));
    let mut stamp = Stamp { fingerprint: key("fingerprint = "), printer: key("printer = "), ..Stamp::default() };
    let Some((_, list)) = text.split_once("files = [") else {
        return stamp;
    };
    for line in list.lines() {
        let line = line.trim().trim_end_matches(',');
        let field = |entry: &str, name: &str| entry.split_once(&format!("{name} = ")).and_then(|(_, v)| quoted(v));
        let (path, file) = match line.strip_prefix("{ path = ") {
            Some(entry) => (quoted(entry), StampedFile { hash: field(entry, "hash"), source: field(entry, "source") }),
            None => (quoted(line), StampedFile::default()),
        };
        if let Some(path) = path {
            stamp.files.insert(path, file);
        }
    }
    stamp
}
