//! Reading input files: the one door every file apigen reads from a user goes through (spec
//! files, `apigen.toml`, and the OpenAPI documents `import` will read).
//!
//! A file is read only when it is a regular file (or a link to one): a FIFO would block the
//! reader forever, a device may never end, a directory is a mistake; each is refused before it
//! is opened. At most [`MAX_FILE_BYTES`] are read, whatever the file claims or grows to. Text
//! must be UTF-8, and the first bad byte is located by line and column. Where the file belongs
//! to a directory (a spec file in the spec directory), [`read_text_within`] also refuses a
//! link leading out of that directory: a spec cannot pull in `/etc/passwd` or a file of
//! another repository by a link.

use std::path::{Path, PathBuf};

/// The largest input file read: 64 MiB. The whole Documentation Platform spec is about 400 KB
/// and the largest public OpenAPI documents about 30 MB; a larger file is a mistake, or an
/// endless stream behind a link, and must not exhaust memory.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// The largest spec file read: 16 MiB. Microsoft Graph's imported spec, the largest public
/// API, has no file above 3 MB; YAML costs about 25 times its size in memory once read.
pub const MAX_SPEC_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The most the files of one spec hold together: 64 MiB.
pub const MAX_SPEC_BYTES: u64 = 64 * 1024 * 1024;

/// Why an input file was not read. The message names no path: the caller shows it.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The operating system refused (missing, no permission, a dangling link).
    #[error("cannot read the file: {0}")]
    Io(#[from] std::io::Error),
    /// A directory, FIFO, socket or device.
    #[error("not a regular file (a {0})")]
    NotRegular(&'static str),
    /// Larger than the cap (in MiB) of its kind of file.
    #[error("the file is larger than {0} MiB")]
    TooLarge(u64),
    /// A link whose target is outside the directory the file belongs to.
    #[error("a link leading out of {root} (to {}): not followed", target.display())]
    LinkOutside {
        /// The directory, as the caller named it.
        root: String,
        /// Where the link leads, resolved.
        target: PathBuf,
    },
    /// Not UTF-8.
    #[error("the file is not UTF-8: byte 0x{byte:02x} is not valid here")]
    NotUtf8 {
        /// The first byte that is not valid.
        byte: u8,
        /// Its 1-based line.
        line: usize,
        /// Its 1-based column, in characters.
        column: usize,
    },
}

impl ReadError {
    /// Line and column of the problem, when it has a place in the file.
    pub fn position(&self) -> Option<(usize, usize)> {
        match self {
            ReadError::NotUtf8 { line, column, .. } => Some((*line, *column)),
            _ => None,
        }
    }
}

/// The text of the file at `path`, which the user named: a link is followed wherever it leads.
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    decode_text(read_bytes(path)?)
}

/// The text of `path`, a file below `root`: a link (the file or a directory on the way) must
/// lead to a place inside `root`; at most `cap` bytes.
pub fn read_text_within(root: &Path, path: &Path, cap: u64) -> Result<String, ReadError> {
    // Checked first, so the message for a link to a device says what the device is.
    kind_of(path)?;
    let target = path.canonicalize()?;
    if !target.starts_with(root.canonicalize()?) {
        return Err(ReadError::LinkOutside { root: root.display().to_string(), target });
    }
    decode_text(read_capped(path, cap)?)
}

/// The bytes of the regular file at `path`, at most [`MAX_FILE_BYTES`].
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, ReadError> {
    read_capped(path, MAX_FILE_BYTES)
}

/// The bytes of the regular file at `path`, at most `cap`.
fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let length = kind_of(path)?;
    check_size_within(length, cap)?;
    let file = std::fs::File::open(path)?;
    // The file may have been swapped between the check and the open.
    if !file.metadata()?.is_file() {
        return Err(ReadError::NotRegular("file that changed while it was opened"));
    }
    let mut bytes = Vec::with_capacity(length as usize);
    // It may also grow: never read past the cap.
    file.take(cap + 1).read_to_end(&mut bytes)?;
    check_size_within(bytes.len() as u64, cap)?;
    Ok(bytes)
}

/// Refuses a size above [`MAX_FILE_BYTES`] (for files read from elsewhere, such as git).
pub fn check_size(length: u64) -> Result<(), ReadError> {
    check_size_within(length, MAX_FILE_BYTES)
}

/// Refuses a size above `cap`.
pub fn check_size_within(length: u64, cap: u64) -> Result<(), ReadError> {
    if length > cap { Err(ReadError::TooLarge(cap / (1024 * 1024))) } else { Ok(()) }
}

/// The text of bytes read from an input, with the first byte that is not UTF-8 located.
pub fn decode_text(bytes: Vec<u8>) -> Result<String, ReadError> {
    String::from_utf8(bytes).map_err(|error| not_utf8(error.as_bytes(), error.utf8_error().valid_up_to()))
}

/// The length of the regular file at `path` (a link followed), or why it is not one. Looks at
/// the metadata only: nothing is opened, so a FIFO cannot block.
fn kind_of(path: &Path) -> Result<u64, ReadError> {
    let metadata = std::fs::metadata(path)?;
    if metadata.is_file() {
        return Ok(metadata.len());
    }
    Err(ReadError::NotRegular(describe(&metadata.file_type())))
}

#[cfg(unix)]
fn describe(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_dir() {
        "directory"
    } else if kind.is_fifo() {
        "FIFO"
    } else if kind.is_socket() {
        "socket"
    } else if kind.is_char_device() {
        "character device"
    } else if kind.is_block_device() {
        "block device"
    } else {
        "special file"
    }
}

#[cfg(not(unix))]
fn describe(kind: &std::fs::FileType) -> &'static str {
    if kind.is_dir() { "directory" } else { "special file" }
}

/// The error for bytes that are not UTF-8: line and column of the first bad byte.
fn not_utf8(bytes: &[u8], valid_up_to: usize) -> ReadError {
    let before = &bytes[..valid_up_to];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |at| at + 1);
    // `before` is valid UTF-8 by definition, so the column counts characters.
    let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
    ReadError::NotUtf8 { byte: bytes[valid_up_to], line, column }
}

/// What a directory of inputs holds: the files to read, and the links to directories that
/// were not followed (a link loop cannot hang a walk that never follows one, and a linked
/// folder could lead anywhere), which the caller reports.
#[derive(Debug, Default)]
pub struct Listing {
    /// Entries whose extension is wanted (files, or links and special files to refuse when
    /// read), sorted by path.
    pub files: Vec<PathBuf>,
    /// Links to directories, sorted by path.
    pub linked_dirs: Vec<PathBuf>,
}

/// Every entry below `dir` with one of `extensions`, and the links to directories not followed.
pub fn list(dir: &Path, extensions: &[&str]) -> std::io::Result<Listing> {
    let mut listing = Listing::default();
    for path in files_below(dir)? {
        if path.extension().is_some_and(|e| extensions.iter().any(|wanted| e == *wanted)) {
            listing.files.push(path);
        } else if path.is_symlink() && path.is_dir() {
            listing.linked_dirs.push(path);
        }
    }
    Ok(listing)
}

/// Every entry below `dir` that is not a directory (files, symbolic links, FIFOs, ...),
/// recursively, sorted by path, so nothing depends on the order of directory listings.
/// Symbolic links are listed, never followed: a link to a parent cannot make the walk loop or
/// lead it out of `dir`; callers decide what a listed link means to them.
pub(crate) fn files_below(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current)? {
            let entry = entry?;
            if entry.file_type()?.is_dir() {
                pending.push(entry.path());
            } else {
                found.push(entry.path());
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The bytes of `path` when it is a regular file: never read through a link, and never from a
/// FIFO or device, which could block or never end.
pub(crate) fn read_regular(path: &Path) -> Option<Vec<u8>> {
    if !std::fs::symlink_metadata(path).ok()?.file_type().is_file() {
        return None;
    }
    read_bytes(path).ok()
}

/// The text of `path` when it is a regular file holding UTF-8 (see [`read_regular`]).
pub(crate) fn read_regular_text(path: &Path) -> Option<String> {
    String::from_utf8(read_regular(path)?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_byte_is_located_by_line_and_character_column() {
        let error = decode_text(b"a: 1\n\xc3\xa9t\xe9\n".to_vec()).unwrap_err();
        assert_eq!(error.position(), Some((2, 3)));
        assert_eq!(error.to_string(), "the file is not UTF-8: byte 0xe9 is not valid here");
    }

    #[test]
    fn the_cap_is_inclusive() {
        assert!(check_size(MAX_FILE_BYTES).is_ok());
        assert_eq!(check_size(MAX_FILE_BYTES + 1).unwrap_err().to_string(), "the file is larger than 64 MiB");
        let spec_cap = check_size_within(MAX_SPEC_FILE_BYTES + 1, MAX_SPEC_FILE_BYTES).unwrap_err();
        assert_eq!(spec_cap.to_string(), "the file is larger than 16 MiB");
    }
}
