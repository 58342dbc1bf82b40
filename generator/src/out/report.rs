//! What writing and checking the output directory tell: the files written, kept and removed,
//! the drift found, and why a directory was refused.

use super::stamp::STAMP;
use std::io;
use std::path::PathBuf;

/// What `write` did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct WriteReport {
    /// Files created or changed.
    pub written: Vec<String>,
    /// Files already up to date.
    pub unchanged: usize,
    /// Stale files removed.
    pub removed: Vec<String>,
    /// Files the spec does not produce and no earlier run of apigen wrote: left alone.
    pub kept: Vec<String>,
}

/// How the directory differs from what the spec produces.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Drift {
    /// Files whose contents differ, with a unified diff (on disk → expected).
    pub changed: Vec<(String, String)>,
    /// Files the spec produces that are not on disk.
    pub missing: Vec<String>,
    /// Files on disk the spec does not produce.
    pub extra: Vec<String>,
}

impl Drift {
    /// True when the directory matches.
    pub fn is_clean(&self) -> bool {
        self.changed.is_empty() && self.missing.is_empty() && self.extra.is_empty()
    }

    /// A report for humans: diffs, then missing and extra files, then a summary.
    pub fn render(&self, regenerate: &str) -> String {
        let mut out = String::new();
        for (_, diff) in &self.changed {
            out.push_str(diff);
            if !diff.ends_with('\n') {
                out.push('\n');
            }
        }
        for path in &self.missing {
            out.push_str(&format!("missing: {path} (the spec produces it; it is not on disk)\n"));
        }
        for path in &self.extra {
            out.push_str(&format!("extra: {path} (on disk; the spec does not produce it)\n"));
        }
        out.push_str(&format!(
            "drift: {} changed, {} missing, {} extra; run `{regenerate}`\n",
            self.changed.len(),
            self.missing.len(),
            self.extra.len()
        ));
        out
    }
}

/// A unified diff of a file from what is on disk to what the spec produces.
pub(super) fn unified_diff(path: &str, on_disk: &[u8], expected: &str) -> String {
    let actual = String::from_utf8_lossy(on_disk);
    similar::TextDiff::from_lines(actual.as_ref(), expected)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path} (on disk)"), &format!("b/{path} (from the spec)"))
        .to_string()
}

/// Why the output directory was refused, or could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The directory holds files but no stamp of an earlier run: deleting stale files there
    /// could delete someone's work.
    #[error(
        "refusing to write into {0}: it holds files but no {STAMP} of an earlier run of apigen; pass an empty directory or one apigen generated with --out"
    )]
    NotOurs(PathBuf),
    /// The directory holds symbolic links or special files, which apigen never writes
    /// through, follows or removes.
    #[error(
        "refusing to use {dir}: it holds symbolic links or special files apigen never writes through, follows or removes: {}; remove them and run again",
        .entries.join(", ")
    )]
    NotRegular {
        /// The output directory.
        dir: PathBuf,
        /// The offending entries, relative to it.
        entries: Vec<String>,
    },
    /// An I/O error, with the path it concerns.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
}
