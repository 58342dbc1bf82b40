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
//! When an earlier run printed the same source ([`Printed`]: the same source hash, the file's
//! bytes hashing to what was printed, and the same printer), that text is the output and the
//! tokens are never parsed. Printing is a pure function of the source, so the reused text is
//! exactly what printing would give.

use super::Output;
use super::rust::print_file;
use proc_macro2::TokenStream;

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

/// Where a finished file can go at once (the output directory, during `generate`), so its text
/// is not held until every file is done: the memory emission needs is then its largest files
/// in flight, not the whole output.
pub trait Sink: Sync {
    /// Takes the file at `path`: true when it is handled (written, or found unchanged), and the
    /// output keeps only its hashes; false to keep its text.
    fn take(&self, path: &str, text: &str) -> bool;
}

/// No sink: every file's text is kept in the output.
pub struct Keep;

impl Sink for Keep {
    fn take(&self, _: &str, _: &str) -> bool {
        false
    }
}

/// What a finished job gives.
struct Done {
    path: String,
    text: String,
    /// The hash of `text` (hashing here spreads it over the threads).
    hash: String,
    /// For a Rust file, the hash of what it is printed from.
    source: Option<String>,
    /// Whether the sink took it (`text` is then empty).
    taken: bool,
}

impl Job<'_> {
    fn run(self, printed: &dyn Printed) -> Done {
        let path = self.path;
        match self.work {
            Work::Text(text) => {
                let text = text();
                let hash = crate::hash::hex(text.as_bytes());
                Done { path, text, hash, source: None, taken: false }
            }
            Work::Rust { header, tokens } => {
                let tokens = tokens();
                let source = source_hash(&header, &tokens);
                let (text, hash) = printed.printed(&path, &source).unwrap_or_else(|| {
                    let text = print_file(&header, tokens);
                    let hash = crate::hash::hex(text.as_bytes());
                    (text, hash)
                });
                Done { path, text, hash, source: Some(source), taken: false }
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
pub fn run(jobs: Vec<Job<'_>>, printed: &dyn Printed, output: &mut Output) {
    run_reporting(jobs, printed, &Keep, output, &crate::progress::Silent);
}

/// [`run`], handing each file to `sink` as its job finishes (on the job's thread) and
/// reporting the phase and each job done to `progress`.
pub fn run_reporting(
    jobs: Vec<Job<'_>>,
    printed: &dyn Printed,
    sink: &dyn Sink,
    output: &mut Output,
    progress: &dyn crate::progress::Progress,
) {
    progress.phase(crate::progress::phase::PRINT, Some(jobs.len() as u64));
    let done_one = |job: Job<'_>| {
        let mut done = job.run(printed);
        if sink.take(&done.path, &done.text) {
            done.text = String::new();
            done.taken = true;
        }
        progress.item();
        done
    };
    for done in crate::par::map(jobs, done_one) {
        if done.taken {
            output.add_taken(done.path, done.hash, done.source);
        } else {
            output.add_hashed(done.path, done.text, done.hash, done.source);
        }
    }
}

/// What an earlier run printed, which a Rust job takes instead of printing again. Emission
/// never reads the disk: the output directory's room ([`crate::out::OutputDir::printed`])
/// answers, from what this build remembers of the directory.
pub trait Printed: Sync {
    /// The text printed at `path` from the header and tokens hashing to `source`, and the
    /// hash of that text, when an earlier run printed exactly that and it is still there.
    fn printed(&self, path: &str, source: &str) -> Option<(String, String)>;
}

/// Nothing printed earlier: every file is printed.
pub struct Nothing;

impl Printed for Nothing {
    fn printed(&self, _: &str, _: &str) -> Option<(String, String)> {
        None
    }
}
