//! Running emission: every file of every emitter is a job on one queue, run on the machine's
//! threads, and a Rust file whose tokens did not change since the last run is not printed
//! again.
//!
//! Most of emission is parsing and pretty-printing the tokens of each Rust file (about four
//! fifths of it; building the tokens is the rest), and files are independent, so each is a
//! job. proc_macro2 tokens cannot cross threads, so a job does everything from the model to
//! the text; the output is a sorted map, so the order jobs finish in never shows.
//!
//! A Rust job first builds its tokens and hashes their text with the header (its *source*).
//! When the previous run's stamp ([`Reuse`]) says the same source printed the file now on
//! disk (the same source hash, the file's bytes hashing to what the stamp recorded, and the
//! same printer), that file is the output and the tokens are never parsed. Printing is a pure
//! function of the source, so the reused text is exactly what printing would give.

use super::Output;
use super::rust::print_file;
use proc_macro2::TokenStream;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A file to compute: its path and the work that gives its contents.
pub struct Job<'a> {
    path: String,
    work: Work<'a>,
}

enum Work<'a> {
    /// A Rust file: its header line and the work that gives its tokens.
    Rust { header: String, tokens: Box<dyn FnOnce() -> TokenStream + Send + 'a> },
    /// Any other file: the work that gives its text.
    Text(Box<dyn FnOnce() -> String + Send + 'a>),
}

/// A Rust file printed under `header` from the tokens `tokens` gives.
pub fn rust<'a>(path: impl Into<String>, header: &str, tokens: impl FnOnce() -> TokenStream + Send + 'a) -> Job<'a> {
    Job { path: path.into(), work: Work::Rust { header: header.to_owned(), tokens: Box::new(tokens) } }
}

/// A file whose text `text` gives.
pub fn text<'a>(path: impl Into<String>, text: impl FnOnce() -> String + Send + 'a) -> Job<'a> {
    Job { path: path.into(), work: Work::Text(Box::new(text)) }
}

/// What a finished job gives.
struct Done {
    path: String,
    text: String,
    /// The hash of `text` (hashing here spreads it over the threads).
    hash: String,
    /// For a Rust file, the hash of what it is printed from.
    source: Option<String>,
    /// True when `text` is the file on disk, reused instead of printed.
    reused: bool,
}

impl Job<'_> {
    fn run(self, reuse: &Reuse) -> Done {
        let path = self.path;
        match self.work {
            Work::Text(text) => {
                let text = text();
                let hash = crate::hash::hex(text.as_bytes());
                Done { path, text, hash, source: None, reused: false }
            }
            Work::Rust { header, tokens } => {
                let tokens = tokens();
                let source = source_hash(&header, &tokens);
                let (text, hash, reused) = match reuse.printed(&path, &source) {
                    Some((text, hash)) => (text, hash, true),
                    None => {
                        let text = print_file(&header, tokens);
                        let hash = crate::hash::hex(text.as_bytes());
                        (text, hash, false)
                    }
                };
                Done { path, text, hash, source: Some(source), reused }
            }
        }
    }
}

/// The hash of what a Rust file is printed from: its header and its tokens' text. Tokens
/// print the same text only when they parse the same, except inside groups without
/// delimiters, which no emitter produces (checked in debug builds).
fn source_hash(header: &str, tokens: &TokenStream) -> String {
    use std::fmt::Write;
    debug_assert!(!has_undelimited_group(tokens.clone()), "an emitter produced a group without delimiters");
    // Formatting writes many short pieces: collected first, they are hashed eight bytes at a
    // time.
    let mut text = String::with_capacity(64 * 1024);
    // Writing into a String cannot fail.
    let _ = write!(text, "{header}\0{tokens}");
    crate::hash::hex(text.as_bytes())
}

fn has_undelimited_group(tokens: TokenStream) -> bool {
    tokens.into_iter().any(|tree| match tree {
        proc_macro2::TokenTree::Group(group) => {
            group.delimiter() == proc_macro2::Delimiter::None || has_undelimited_group(group.stream())
        }
        _ => false,
    })
}

/// Runs every job (see [`crate::par::map`]) and adds the files, and the source hash of each
/// Rust file, to `output`.
pub fn run(jobs: Vec<Job<'_>>, reuse: &Reuse, output: &mut Output) {
    for done in crate::par::map(jobs, |job| job.run(reuse)) {
        if done.reused {
            output.mark_reused(&reuse.dir, &done.path);
        }
        output.add_hashed(done.path, done.text, done.hash, done.source);
    }
}

/// The Rust files of an earlier run that can stand for printing: from its stamp, each path
/// with the source hash it was printed from and the hash of the bytes printed. Empty unless
/// the stamp was written by this very printer (see [`super::printer`]).
#[derive(Debug, Default)]
pub struct Reuse {
    dir: PathBuf,
    files: BTreeMap<String, (String, String)>,
}

impl Reuse {
    /// Nothing to reuse: every file is printed.
    pub fn nothing() -> Self {
        Reuse::default()
    }

    /// What the stamp in `dir` allows to reuse, for output printed by `printer`.
    pub fn from_dir(dir: &Path, printer: &str) -> Self {
        let Some(text) = crate::input::read_regular_text(&dir.join(super::STAMP)) else {
            return Reuse::nothing();
        };
        let stamp = super::stamp::read_stamp(&text);
        if stamp.printer.as_deref() != Some(printer) {
            return Reuse::nothing();
        }
        let files =
            stamp.files.into_iter().filter_map(|(path, file)| Some((path, (file.source?, file.hash?)))).collect();
        Reuse { dir: dir.to_path_buf(), files }
    }

    /// The file on disk at `path` and its hash, when the stamp says `source` printed it and
    /// its bytes are still the ones printed.
    fn printed(&self, path: &str, source: &str) -> Option<(String, String)> {
        let (stamped_source, hash) = self.files.get(path)?;
        if stamped_source != source {
            return None;
        }
        let text = crate::input::read_regular_text(&self.dir.join(path))?;
        (crate::hash::hex(text.as_bytes()) == *hash).then(|| (text, hash.clone()))
    }
}
