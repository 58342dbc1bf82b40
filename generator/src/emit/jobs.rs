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
//!
//! Before that, every job has a key: what its file is made from, hashed from the model without
//! building anything ([`super::inputs`]; each job says what it reads, everything by default).
//! When an earlier run wrote the file from the same key and it is on disk as written
//! ([`Printed::unchanged`]) and the sink can account for it without its text
//! ([`Sink::unchanged`]), the job is not run at all: after one operation changed, only the
//! files that read it are built.

use super::Output;
pub use super::fragments::FragmentsDone;
use super::fragments::{Assembled, Fragments, Index};
use super::inputs::Digests;
pub use super::inputs::Reads;
use super::rust::print_file;
use proc_macro2::TokenStream;

/// A file to compute: its path, the work that gives its contents and what that work reads.
pub struct Job<'a> {
    path: String,
    work: Work<'a>,
    reads: Reads,
}

enum Work<'a> {
    /// A Rust file: its header line and the work that gives its tokens.
    Rust { header: String, tokens: Box<dyn FnOnce() -> TokenStream + Send + 'a> },
    /// Any other file: the work that gives its text.
    Text(Box<dyn FnOnce() -> String + Send + 'a>),
    /// A file of the whole API assembled from fragments ([`super::fragments`]).
    Assembled(Assemble<'a>),
}

/// The work that assembles a file from its fragments.
type Assemble<'a> = Box<dyn FnOnce(&dyn Fragments) -> Assembled + Send + 'a>;

/// A Rust file printed under `header` from the tokens `tokens` gives.
pub fn rust<'a>(path: impl Into<String>, header: &str, tokens: impl FnOnce() -> TokenStream + Send + 'a) -> Job<'a> {
    Job {
        path: path.into(),
        work: Work::Rust { header: header.to_owned(), tokens: Box::new(tokens) },
        reads: Reads::Everything,
    }
}

/// A file whose text `text` gives.
pub fn text<'a>(path: impl Into<String>, text: impl FnOnce() -> String + Send + 'a) -> Job<'a> {
    Job { path: path.into(), work: Work::Text(Box::new(text)), reads: Reads::Everything }
}

/// A file assembled from fragments by `assemble`, which takes each fragment an earlier run
/// made under the same key ([`super::fragments`]).
pub fn assembled<'a>(
    path: impl Into<String>,
    assemble: impl FnOnce(&dyn Fragments) -> Assembled + Send + 'a,
) -> Job<'a> {
    Job { path: path.into(), work: Work::Assembled(Box::new(assemble)), reads: Reads::Everything }
}

impl Job<'_> {
    /// This job, reading only `reads` of the operations (see [`super::inputs`]): its work must
    /// read no other operation, nor anything derived from one but what `reads` names.
    #[must_use]
    pub fn reading(mut self, reads: Reads) -> Self {
        self.reads = reads;
        self
    }

    /// The key of this job's file (see [`super::inputs`]).
    fn key(&self, digests: &Digests) -> String {
        let header = match &self.work {
            Work::Rust { header, .. } => Some(header.as_str()),
            Work::Text(_) | Work::Assembled(_) => None,
        };
        digests.key(&self.path, header, &self.reads)
    }
}

/// Where a finished file can go at once (the output directory, during `generate`), so its text
/// is not held until every file is done: the memory emission needs is then its largest files
/// in flight, not the whole output.
pub trait Sink: Sync {
    /// Takes the file at `path`: true when it is handled (written, or found unchanged), and the
    /// output keeps only its hashes; false to keep its text.
    fn take(&self, path: &str, text: &str) -> bool;

    /// Accounts for the file at `path` as found on disk unchanged, its job not run: true when
    /// the sink needs no text for it (the output keeps only its hashes); false (the default)
    /// to have the job run.
    fn unchanged(&self, _path: &str) -> bool {
        false
    }
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
    /// The key of what it is made from.
    key: String,
    /// What was done: 0 found unchanged, 1 reused printed text, 2 built (text or printed).
    cost: u8,
    /// For an assembled file, where its fragments are and how many were taken from an
    /// earlier run ([`super::fragments::Assembled`]).
    fragments: Option<(String, FragmentsDone)>,
}

impl Job<'_> {
    fn run(self, printed: &dyn Printed, sink: &dyn Sink, digests: &Digests) -> Done {
        let key = self.key(digests);
        if let Some((hash, source)) = printed.unchanged(&self.path, &key)
            && sink.unchanged(&self.path)
        {
            // An unchanged file keeps the index of its fragments.
            let fragments = printed.index(&self.path).map(|index| (index, FragmentsDone::default()));
            return Done { path: self.path, text: String::new(), hash, source, taken: true, key, cost: 0, fragments };
        }
        let mut done = self.build(printed, digests);
        done.key = key;
        if sink.take(&done.path, &done.text) {
            done.text = String::new();
            done.taken = true;
        }
        done
    }

    fn build(self, printed: &dyn Printed, digests: &Digests) -> Done {
        let path = self.path;
        match self.work {
            Work::Text(text) => {
                let text = text();
                let hash = crate::hash::hex(text.as_bytes());
                Done { path, text, hash, source: None, taken: false, key: String::new(), cost: 2, fragments: None }
            }
            Work::Assembled(assemble) => {
                let earlier = printed.fragments(&path).map(|(text, index)| Index::of(text, &index));
                let Assembled { text, index, done } = assemble(&Keyed { digests, earlier });
                let hash = crate::hash::hex(text.as_bytes());
                let fragments = Some((index, done));
                Done { path, text, hash, source: None, taken: false, key: String::new(), cost: 2, fragments }
            }
            Work::Rust { header, tokens } => {
                let tokens = tokens();
                let source = source_hash(&header, &tokens);
                let (text, hash, cost) = match printed.printed(&path, &source) {
                    Some((text, hash)) => (text, hash, 1),
                    None => {
                        let text = print_file(&header, tokens);
                        let hash = crate::hash::hex(text.as_bytes());
                        (text, hash, 2)
                    }
                };
                Done { path, text, hash, source: Some(source), taken: false, key: String::new(), cost, fragments: None }
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

/// Runs every job (see [`crate::par::map`]) and adds the files, the source hash of each Rust
/// file and each file's key to `output`, handing each file to `sink` as its job finishes (on
/// the job's thread) and reporting the phase and each job done to `progress`. A job whose file
/// `printed` and `sink` both find unchanged under its key ([`digests`](Digests)) is not run.
pub fn run_reporting(
    jobs: Vec<Job<'_>>,
    digests: &Digests,
    printed: &dyn Printed,
    sink: &dyn Sink,
    output: &mut Output,
    progress: &dyn crate::progress::Progress,
) {
    progress.phase(crate::progress::phase::PRINT, Some(jobs.len() as u64));
    let done_one = |job: Job<'_>| {
        let done = job.run(printed, sink, digests);
        progress.item();
        done
    };
    let mut counts = [0; 3];
    let mut fragments = FragmentsDone::default();
    for done in crate::par::map(jobs, done_one) {
        counts[usize::from(done.cost)] += 1;
        if done.taken {
            output.add_taken(done.path.clone(), done.hash, done.source);
        } else {
            output.add_hashed(done.path.clone(), done.text, done.hash, done.source);
        }
        if let Some((index, counted)) = done.fragments {
            output.set_fragments(done.path.clone(), index);
            fragments.taken += counted.taken;
            fragments.built += counted.built;
        }
        output.set_key(done.path, done.key);
    }
    COUNTS.with(|cell| {
        let mut total = cell.get();
        for (sum, count) in total.iter_mut().zip(counts) {
            *sum += count;
        }
        cell.set(total);
    });
    FRAGMENTS.with(|cell| {
        let total = cell.get();
        cell.set(FragmentsDone { taken: total.taken + fragments.taken, built: total.built + fragments.built });
    });
}

thread_local!(static COUNTS: std::cell::Cell<[usize; 3]> = const { std::cell::Cell::new([0; 3]) });

thread_local!(static FRAGMENTS: std::cell::Cell<FragmentsDone> = const {
    std::cell::Cell::new(FragmentsDone { taken: 0, built: 0 })
});

/// How many fragments of assembled files ([`super::fragments`]) emissions run on this thread
/// so far took from an earlier run and built.
pub fn fragments_done() -> FragmentsDone {
    FRAGMENTS.with(std::cell::Cell::get)
}

/// How many files emissions run on this thread so far found unchanged on disk without running
/// their jobs, took as printed by an earlier run (tokens built, not printed), and built
/// (printed, or a text file made): the edit loop's cost, counted where tests can see it.
pub fn files_done() -> FilesDone {
    let [unchanged, reused, built] = COUNTS.with(std::cell::Cell::get);
    FilesDone { unchanged, reused, built }
}

/// See [`files_done`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FilesDone {
    /// Found unchanged on disk: nothing built.
    pub unchanged: usize,
    /// Tokens built, the printed text taken from disk.
    pub reused: usize,
    /// Built: a Rust file printed, or a text file made.
    pub built: usize,
}

/// What an earlier run printed, which a Rust job takes instead of printing again. Emission
/// never reads the disk: the output directory's room ([`crate::out::OutputDir::printed`])
/// answers, from what this build remembers of the directory.
pub trait Printed: Sync {
    /// The text printed at `path` from the header and tokens hashing to `source`, and the
    /// hash of that text, when an earlier run printed exactly that and it is still there.
    fn printed(&self, path: &str, source: &str) -> Option<(String, String)>;

    /// The hash of the file at `path` (and the source of a Rust file), when an earlier run
    /// wrote it from what hashes to `key` and it is on disk exactly as written.
    fn unchanged(&self, _path: &str, _key: &str) -> Option<(String, Option<String>)> {
        None
    }

    /// The text an earlier run assembled at `path` and the index of its fragments
    /// ([`super::fragments`]), when it is on disk exactly as written.
    fn fragments(&self, _path: &str) -> Option<(String, String)> {
        None
    }

    /// The index of the fragments of the file an earlier run assembled at `path`, as
    /// remembered (for a file found unchanged, whose index stays true).
    fn index(&self, _path: &str) -> Option<String> {
        None
    }
}

/// The keys of an assembled file's fragments (this run's digests) and the earlier run's
/// fragments.
struct Keyed<'d> {
    digests: &'d Digests,
    earlier: Option<Index>,
}

impl Fragments for Keyed<'_> {
    fn key(&self, kind: &str, operations: &[usize], extra: &str) -> Option<String> {
        Some(self.digests.fragment_key(kind, operations, extra))
    }

    fn earlier(&self, key: &str) -> Option<&str> {
        self.earlier.as_ref()?.get(key)
    }
}

/// Nothing printed earlier: every file is printed.
pub struct Nothing;

impl Printed for Nothing {
    fn printed(&self, _: &str, _: &str) -> Option<(String, String)> {
        None
    }
}
