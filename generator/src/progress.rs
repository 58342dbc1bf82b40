//! Progress of long work (an import, a generate or check that prints many files): which phase
//! runs and, where it has items, how many are done. The library only reports; the command line
//! draws it on a terminal (indicatif, behind the `cli` feature), and nothing is drawn when the
//! output is not a terminal or the work ends within a second.

use std::fmt;
use std::sync::Arc;

/// What receives the progress of a run. Called from the threads that do the work.
pub trait Progress: Send + Sync {
    /// A phase starts (`reading the spec`, `printing files`), with its number of items when it
    /// counts any.
    fn phase(&self, name: &'static str, items: Option<u64>);
    /// One item of the current phase is done.
    fn item(&self);
}

/// Reports nothing: the library's default.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Progress for Silent {
    fn phase(&self, _: &'static str, _: Option<u64>) {}
    fn item(&self) {}
}

/// A shared [`Progress`], as a [`crate::Generator`] holds it.
#[derive(Clone)]
pub struct Reporter(Arc<dyn Progress>);

impl Reporter {
    /// Reports to `progress`.
    pub fn new(progress: impl Progress + 'static) -> Self {
        Reporter(Arc::new(progress))
    }

    /// The progress receiver.
    pub fn get(&self) -> &dyn Progress {
        &*self.0
    }
}

impl Default for Reporter {
    fn default() -> Self {
        Reporter::new(Silent)
    }
}

impl fmt::Debug for Reporter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Reporter")
    }
}

/// The phases, as reported (and as the command line shows them).
pub mod phase {
    /// Reading and checking the spec's files.
    pub const SPEC: &str = "reading the spec";
    /// Printing the generated files (one item per file).
    pub const PRINT: &str = "printing files";
    /// Writing the changed files into the output directory.
    pub const WRITE: &str = "writing files";
    /// Comparing the files with the output directory.
    pub const COMPARE: &str = "comparing files";
    /// Reading the OpenAPI document.
    pub const DOCUMENT: &str = "reading the document";
    /// Turning the document into spec files.
    pub const IMPORT: &str = "importing";
    /// Writing the spec files and linting them.
    pub const SPEC_FILES: &str = "writing and linting the spec";
}
