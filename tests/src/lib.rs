//! Shared helpers of the workspace-level tests in `tests/`.

use std::path::{Path, PathBuf};

/// Compares `actual` with the snapshot file at `path`. With `UPDATE_EXPECT=1` in the
/// environment the file is (re)written instead. Returns a readable diff on mismatch, so a
/// test can check every fixture before failing.
pub fn snapshot(path: &Path, actual: &str) -> Result<(), String> {
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(path, actual).map_err(|e| format!("{}: {e}", path.display()))?;
        return Ok(());
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return Ok(());
    }
    let diff = similar::TextDiff::from_lines(&expected, actual)
        .unified_diff()
        .header(&format!("{} (expected)", path.display()), "actual")
        .to_string();
    Err(format!("{diff}\n(run with UPDATE_EXPECT=1 to accept)"))
}

/// Sub-directories of `dir`, sorted.
pub fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// Fails with every message collected, or passes when there is none.
pub fn assert_all(failures: Vec<String>) {
    assert!(failures.is_empty(), "{} failure(s):\n\n{}", failures.len(), failures.join("\n\n"));
}
