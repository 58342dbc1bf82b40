//! Printing generated files in parallel.
//!
//! Most of emission is building, parsing and pretty-printing the tokens of each Rust file, and
//! files are independent, so each is a job run on one of the machine's threads. proc_macro2
//! tokens cannot cross threads, so a job does everything from the model to the text; the
//! output is a sorted map, so the order jobs finish in never shows.

use super::Output;
use std::sync::Mutex;

/// A file to compute: its path and the work that gives its text.
pub type Job<'a> = (String, Box<dyn FnOnce() -> String + Send + 'a>);

/// A job from a path and a closure.
pub fn job<'a>(path: impl Into<String>, work: impl FnOnce() -> String + Send + 'a) -> Job<'a> {
    (path.into(), Box::new(work))
}

/// Runs every job, on as many threads as the machine has (at most one per job), and adds
/// the files to `output`.
pub fn run(jobs: Vec<Job<'_>>, output: &mut Output) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(jobs.len());
    if threads <= 1 {
        for (path, work) in jobs {
            output.add(path, work());
        }
        return;
    }
    let queue = Mutex::new(jobs.into_iter());
    let next = || queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner).next();
    let done: Vec<(String, String)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut files = Vec::new();
                    while let Some((path, work)) = next() {
                        files.push((path, work()));
                    }
                    files
                })
            })
            .collect();
        // A panicking job is an emitter bug: re-raise it on this thread, as without threads.
        workers.into_iter().flat_map(|w| w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    for (path, text) in done {
        output.add(path, text);
    }
}
