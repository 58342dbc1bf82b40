//! Reading the spec as it was at a git revision, straight from git's objects into memory.
//!
//! The spec directory's tree is listed with `git ls-tree -r -z -l` (NUL-terminated entries, so
//! any name git can hold arrives as it is, never quoted) and its blobs are read through one
//! `git cat-file --batch`. Nothing is written to disk: no temporary directory can be
//! predicted, raced or escaped. An entry a checkout never holds (`..`, `.`, an empty name) is
//! refused, a symbolic link is not followed, and the spec is read under the working tree's
//! caps, from the sizes the tree lists before any blob is read: each file at most
//! [`crate::input::MAX_SPEC_FILE_BYTES`], all of them [`crate::input::MAX_SPEC_BYTES`]; its
//! YAML is then parsed under the same budget ([`crate::load`]), so an alias bomb at a revision
//! is refused where it expands, as in the working tree. Files are named `REV:path/in/the/repository`, so output
//! names no temporary path, and the spec directory is found from the working directory, so
//! `diff` runs from any subdirectory of the repository.

use crate::diag::{Diagnostics, Location};
use crate::input::ReadError;
use crate::load::MemoryFile;
use crate::model::Api;
use std::io::{BufRead, BufReader, Write};
use std::path::{Component, Path};
use std::process::{Command, Stdio};

/// Why the spec at a revision could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RevisionError {
    /// The revision would be taken for an option of git.
    #[error("`{0}` is not a revision (a revision does not start with `-`)")]
    NotARevision(String),
    /// git failed (unknown revision, not a repository).
    #[error("git {args}: {message}")]
    Git {
        /// The git arguments.
        args: String,
        /// What git said.
        message: String,
    },
    /// The spec directory is not inside the repository of the working directory.
    #[error("{dir}: not inside the git repository at {top}")]
    Outside {
        /// The spec directory.
        dir: String,
        /// The repository's root.
        top: String,
    },
    /// The revision holds no file below the spec directory.
    #[error("no spec files at {rev}:{dir}")]
    Empty {
        /// The revision.
        rev: String,
        /// The spec directory, relative to the repository's root.
        dir: String,
    },
    /// An entry of the tree that is not read: a name no checkout holds, a link, a submodule,
    /// or a file above the size cap.
    #[error("{file}: {problem}")]
    Entry {
        /// The entry, `REV:path`.
        file: String,
        /// Why it is not read.
        problem: String,
    },
    /// The spec files at that revision hold more than a spec may, together.
    #[error("the spec's files at {rev}:{dir} hold {total} bytes together, more than {mib} MiB")]
    TooLarge {
        /// The revision.
        rev: String,
        /// The spec directory, relative to the repository's root.
        dir: String,
        /// Their size together.
        total: u64,
        /// The cap, in MiB.
        mib: u64,
    },
    /// The spec at that revision does not load.
    #[error("the spec at {rev} does not load:\n{rendered}")]
    Spec {
        /// The revision.
        rev: String,
        /// The rendered diagnostics.
        rendered: String,
    },
}

fn git_error(args: &[&str], message: impl Into<String>) -> RevisionError {
    RevisionError::Git { args: args.join(" "), message: message.into() }
}

fn git(args: &[&str]) -> Result<Vec<u8>, RevisionError> {
    let output = Command::new("git").args(args).output().map_err(|e| git_error(args, e.to_string()))?;
    if !output.status.success() {
        return Err(git_error(args, String::from_utf8_lossy(&output.stderr).trim()));
    }
    Ok(output.stdout)
}

/// Loads the spec directory `dir` (as the working directory names it) as it is at `rev`, with
/// the warnings of loading it.
pub fn load_at_revision(rev: &str, dir: &Path) -> Result<(Api, Diagnostics), RevisionError> {
    if rev.starts_with('-') {
        return Err(RevisionError::NotARevision(rev.to_owned()));
    }
    let in_repository = repository_path(dir)?;
    let entries = spec_entries(rev, &in_repository)?;
    let label = |relative: &str| match in_repository.as_str() {
        "" => format!("{rev}:{relative}"),
        prefix => format!("{rev}:{prefix}/{relative}"),
    };
    let files = read_blobs(&entries, &label)?;
    let mut diags = Diagnostics::new();
    for link in entries.iter().filter(|e| e.kind == Kind::Unfollowed) {
        diags
            .warning(
                crate::diag::Lint::UnfollowedLink,
                Location::file(label(&link.path)),
                "a link or submodule in the tree: not followed",
            )
            .hint("diff reads the regular files of the spec directory only");
    }
    let spec = crate::load::load_memory(files, &mut diags);
    let lowered = if spec.complete { crate::lower::lower(&spec, &mut diags) } else { None };
    match lowered {
        Some(api) => Ok((api, diags)),
        None => Err(RevisionError::Spec { rev: rev.to_owned(), rendered: diags.render() }),
    }
}

/// `dir`, relative to the root of the working directory's repository, `/`-separated (empty
/// for the root itself).
fn repository_path(dir: &Path) -> Result<String, RevisionError> {
    let (base, dir) = if dir.is_absolute() {
        let top = String::from_utf8_lossy(&git(&["rev-parse", "--show-toplevel"])?).trim_end().to_owned();
        let canonical = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        let outside = || RevisionError::Outside { dir: dir.display().to_string(), top: top.clone() };
        let relative = canonical.strip_prefix(&top).map_err(|_| outside())?.to_path_buf();
        (String::new(), relative)
    } else {
        let prefix = String::from_utf8_lossy(&git(&["rev-parse", "--show-prefix"])?).trim_end().to_owned();
        (prefix, dir.to_path_buf())
    };
    let mut steps: Vec<String> = base.split('/').filter(|s| !s.is_empty()).map(str::to_owned).collect();
    for component in dir.components() {
        match component {
            Component::Normal(name) => steps.push(name.to_string_lossy().into_owned()),
            Component::ParentDir if steps.pop().is_some() => {}
            Component::CurDir => {}
            _ => {
                let top = String::from_utf8_lossy(&git(&["rev-parse", "--show-toplevel"])?).trim_end().to_owned();
                return Err(RevisionError::Outside { dir: dir.display().to_string(), top });
            }
        }
    }
    Ok(steps.join("/"))
}

/// What a tree entry is to the loader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A regular file to read.
    File,
    /// A link or submodule with another name: not followed, reported.
    Unfollowed,
}

/// One entry of the spec directory's tree.
#[derive(Debug)]
struct Entry {
    kind: Kind,
    object: String,
    /// Below the spec directory, `/`-separated; bytes that are not UTF-8 shown as U+FFFD.
    path: String,
    /// Its size in bytes, as the tree lists it (0 for an entry not read).
    size: u64,
}

/// The entries of the spec directory at `rev` that the loader reads or reports.
fn spec_entries(rev: &str, dir: &str) -> Result<Vec<Entry>, RevisionError> {
    let listing = git(&["ls-tree", "--full-tree", "-r", "-z", "-l", &format!("{rev}:{dir}")])?;
    let label = |path: &str| if dir.is_empty() { format!("{rev}:{path}") } else { format!("{rev}:{dir}/{path}") };
    let mut entries = Vec::new();
    for record in listing.split(|&b| b == 0).filter(|r| !r.is_empty()) {
        let Some(tab) = record.iter().position(|&b| b == b'\t') else {
            return Err(git_error(&["ls-tree"], "an entry without a path"));
        };
        let path = String::from_utf8_lossy(&record[tab + 1..]).into_owned();
        let meta = String::from_utf8_lossy(&record[..tab]).into_owned();
        let fields: Vec<&str> = meta.split_whitespace().collect();
        let [mode, _kind, object, size] = fields[..] else {
            return Err(git_error(&["ls-tree"], format!("an entry that is not `mode type object size`: {meta}")));
        };
        let refuse = |problem: &str| RevisionError::Entry { file: label(&path), problem: problem.to_owned() };
        if let Some(step) = path.split('/').find(|s| matches!(*s, "" | "." | "..")) {
            return Err(refuse(&format!(
                "a tree entry named `{step}`: git fsck calls such a tree malformed, and no checkout holds it"
            )));
        }
        let is_spec = Path::new(&path).extension().is_some_and(|e| e == "yaml" || e == "yml");
        let kind = match mode {
            "100644" | "100755" if !is_spec => continue,
            "100644" | "100755" => Kind::File,
            "120000" if is_spec => return Err(refuse("a symbolic link in the tree: not followed")),
            "160000" if is_spec => return Err(refuse("a submodule in the tree: not read")),
            _ => Kind::Unfollowed,
        };
        let size = if kind == Kind::File { size.parse().unwrap_or(u64::MAX) } else { 0 };
        if let Err(error) = check_spec_file(size) {
            return Err(refuse(&error.to_string()));
        }
        entries.push(Entry { kind, object: object.to_owned(), path, size });
    }
    if !entries.iter().any(|e| e.kind == Kind::File) {
        return Err(RevisionError::Empty { rev: rev.to_owned(), dir: dir.to_owned() });
    }
    let total = entries.iter().map(|e| e.size).fold(0u64, u64::saturating_add);
    if total > crate::input::MAX_SPEC_BYTES {
        let mib = crate::input::MAX_SPEC_BYTES / (1024 * 1024);
        return Err(RevisionError::TooLarge { rev: rev.to_owned(), dir: dir.to_owned(), total, mib });
    }
    Ok(entries)
}

/// Refuses a spec file larger than the working tree's loader reads one.
fn check_spec_file(size: u64) -> Result<(), ReadError> {
    crate::input::check_size_within(size, crate::input::MAX_SPEC_FILE_BYTES)
}

/// The bytes of every file entry, read through one `git cat-file --batch`.
fn read_blobs(entries: &[Entry], label: &dyn Fn(&str) -> String) -> Result<Vec<MemoryFile>, RevisionError> {
    const ARGS: [&str; 2] = ["cat-file", "--batch"];
    let files: Vec<&Entry> = entries.iter().filter(|e| e.kind == Kind::File).collect();
    let mut child = Command::new("git")
        .args(ARGS)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| git_error(&ARGS, e.to_string()))?;
    let requests: String = files.iter().map(|e| format!("{}\n", e.object)).collect();
    let mut stdin = child.stdin.take().ok_or_else(|| git_error(&ARGS, "no stdin"))?;
    // Written on another thread: git answers while it reads, and a full pipe must not block us.
    let writer = std::thread::spawn(move || stdin.write_all(requests.as_bytes()));
    let mut stdout = BufReader::new(child.stdout.take().ok_or_else(|| git_error(&ARGS, "no stdout"))?);
    let read = files
        .iter()
        .map(|entry| {
            let bytes = read_blob(&mut stdout, &entry.object).map_err(|message| git_error(&ARGS, message))?;
            Ok(MemoryFile { display: label(&entry.path), relative: entry.path.clone(), bytes })
        })
        .collect::<Result<Vec<_>, RevisionError>>();
    drop(stdout);
    let written = writer.join().map_err(|_| git_error(&ARGS, "the writer failed"))?;
    let status = child.wait().map_err(|e| git_error(&ARGS, e.to_string()))?;
    let files = read?;
    written.map_err(|e| git_error(&ARGS, e.to_string()))?;
    if !status.success() {
        return Err(git_error(&ARGS, format!("exited with {status}")));
    }
    Ok(files)
}

/// One answer of `git cat-file --batch`: `<object> <type> <size>\n<bytes>\n`.
fn read_blob(stdout: &mut impl BufRead, object: &str) -> Result<Vec<u8>, String> {
    let mut header = String::new();
    stdout.read_line(&mut header).map_err(|e| e.to_string())?;
    let fields: Vec<&str> = header.split_whitespace().collect();
    let size = match fields[..] {
        [answered, "blob", size] if answered == object => size.parse::<u64>().map_err(|e| e.to_string())?,
        _ => return Err(format!("asked for {object}, got `{}`", header.trim_end())),
    };
    check_spec_file(size).map_err(|e| e.to_string())?;
    let mut bytes = vec![0; size as usize + 1];
    stdout.read_exact(&mut bytes).map_err(|e| e.to_string())?;
    bytes.pop(); // the newline after the contents
    Ok(bytes)
}
