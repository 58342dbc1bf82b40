//! `apigen init`: a repository that generates and builds with no edits.
//!
//! Writes `apigen.toml`, a starter spec (an `api.yaml` and one area with a resource, a list
//! and a create) into the spec directory (`spec`, or `--spec`), a copy of apigen-runtime into
//! `apigen-runtime/` (unless another source is named), and a workspace `Cargo.toml` (whose
//! members are the crates in the output directory, `generated` or `--out`), a `Cargo.lock`
//! holding the versions this apigen is built and tested with, and `.gitignore` when there are
//! none: an existing one, of any kind, is left alone and reported. With `--from DOC` the spec
//! is the document's import instead of the starter (`crate::init_from`).
//!
//! Only into a new or empty place. Before anything is written, every path init would write is
//! inspected, and init refuses, naming each path and what to do, when `apigen.toml` exists,
//! the spec or runtime directory holds anything, or a path on the way is a link or a file.
//! Nothing is written through a link or outside the directory: `--spec` and `--out` are
//! relative paths without `.` or `..` (as `apigen.toml` holds them), directories are created
//! one step at a time, and each file is created new (`create_new`, which fails on any
//! existing entry, a dangling link included).

// Beside this file, not in an `init/` folder: a folder of src/ is a phase (house rules).
#[path = "init_lock.rs"]
mod lock;

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// The runtime's sources, copied by `init` into `apigen-runtime/`: the runtime this apigen
/// was built with, so the two always match. `build.rs` lists every file of `runtime/` (its
/// manifest, README, licenses, `src/` and `assets/`), so a new runtime module cannot be left
/// out of the copy.
pub const RUNTIME_FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/runtime_files.rs"));

/// The lock file of apigen's own workspace: every version the generated crates and the runtime
/// are built and tested with here (CI builds them from it).
const WORKSPACE_LOCK: &str = include_str!("../embedded/workspace.lock");

/// The lock file `init` writes first: apigen's own, less the packages of its workspace (those
/// without a `source`), so the user's first build resolves the versions apigen is tested with
/// instead of the newest (cargo keeps a locked version while it fits, adds the user's own
/// crates and drops what nothing uses). Init then settles it to exactly what cargo keeps
/// ([`lock`]'s module documentation); this stays when that cannot be done offline.
pub fn lock_file() -> String {
    let (head, packages) = WORKSPACE_LOCK.split_once("[[package]]").unwrap_or((WORKSPACE_LOCK, ""));
    let mut out = String::from(head);
    for package in packages.split("[[package]]") {
        if package.lines().any(|line| line.starts_with("source = ")) {
            out.push_str("[[package]]");
            out.push_str(package);
        }
    }
    out
}

/// Where the starter repository takes the runtime from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runtime {
    /// A copy in `apigen-runtime/` (the default: builds offline, matches this apigen).
    Vendored,
    /// An existing directory (written into `apigen.toml` as given).
    Path(PathBuf),
    /// A registry version requirement.
    Version(String),
}

/// What `init` writes, as the command line gave it.
#[derive(Debug, Clone)]
pub struct Options {
    /// The API's name, which prefixes the crates.
    pub name: String,
    /// The spec directory, relative to the directory written into.
    pub spec: PathBuf,
    /// The output directory, relative to the directory written into.
    pub out: PathBuf,
    /// Where the generated crates take the runtime from.
    pub runtime: Runtime,
    /// The spec files to write instead of the starter (an imported document's, by name
    /// relative to the spec directory); `[lint]` then allows missing descriptions.
    pub imported: Option<Vec<(String, String)>>,
}

/// `init`'s flags as the command line gives them: its own and the global ones it honours.
#[derive(Debug, Clone, Default)]
pub struct Flags {
    /// The directory written into.
    pub dir: PathBuf,
    /// `--name`.
    pub name: Option<String>,
    /// `--runtime-path`, the name `--runtime` had before (hidden, kept for scripts).
    pub runtime_path: Option<PathBuf>,
    /// `--runtime-version`.
    pub runtime_version: Option<String>,
    /// `--config`, which init refuses (it writes the settings file).
    pub config: Option<PathBuf>,
    /// `--spec`: the spec directory inside `dir`.
    pub spec: Option<PathBuf>,
    /// `--out`: the output directory inside `dir`.
    pub out: Option<PathBuf>,
    /// `--runtime`: the runtime's directory, relative to `dir`.
    pub runtime: Option<PathBuf>,
}

impl Options {
    /// What `init` writes, from its flags: every flag shown is honoured or refused with why.
    pub fn from_flags(flags: &Flags) -> Result<Options, String> {
        if flags.config.is_some() {
            let written = flags.dir.join(crate::config::FILE);
            return Err(format!(
                "--config names the settings file other commands read; init writes {}",
                written.display()
            ));
        }
        if flags.runtime.is_some() && flags.runtime_path.is_some() {
            return Err("--runtime and --runtime-path both name the runtime's directory: give one".into());
        }
        if flags.runtime.is_some() && flags.runtime_version.is_some() {
            return Err("--runtime and --runtime-version name two sources of the runtime: give one".into());
        }
        let runtime = match (flags.runtime.as_ref().or(flags.runtime_path.as_ref()), &flags.runtime_version) {
            (Some(path), _) => Runtime::Path(path.clone()),
            (None, Some(version)) => Runtime::Version(version.clone()),
            (None, None) => Runtime::Vendored,
        };
        let absolute = std::path::absolute(&flags.dir).unwrap_or_else(|_| flags.dir.clone());
        let name = flags.name.clone().unwrap_or_else(|| name_from_dir(&absolute));
        if !crate::model::valid_crate_prefix(&name) {
            return Err(format!("`{name}` cannot prefix a crate name: use lower-case letters, digits and dashes"));
        }
        Ok(Options {
            name,
            spec: flags.spec.clone().unwrap_or_else(|| "spec".into()),
            out: flags.out.clone().unwrap_or_else(|| "generated".into()),
            runtime,
            imported: None,
        })
    }
}

/// Where `init` puts the vendored runtime.
pub const RUNTIME_DIR: &str = "apigen-runtime";

/// What `init` did.
#[derive(Debug, Default)]
pub struct Report {
    /// Files written, relative to the directory.
    pub written: Vec<String>,
    /// Files that existed and were left alone.
    pub kept: Vec<String>,
    /// Why the `Cargo.lock` written holds apigen's versions of every package rather than only
    /// those the workspace needs (cargo could not resolve it offline); `None` when it is exact,
    /// or when init wrote no `Cargo.lock` or left an existing `Cargo.toml` alone (whose
    /// members it does not know: the lock is then apigen's, as [`lock_file`] makes it).
    pub lock_unsettled: Option<String>,
}

/// A path `init` will not write, and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The path, relative to the directory, with `/` separators.
    pub path: String,
    /// What is there.
    pub problem: String,
    /// What to do.
    pub hint: String,
}

/// Why `init` wrote nothing, or stopped.
#[derive(Debug, thiserror::Error)]
pub enum InitError {
    /// A flag names something init cannot honour.
    #[error("{0}")]
    Flag(String),
    /// Paths init would write hold something; nothing was written.
    #[error("{} path(s) hold something already", .0.len())]
    Refused(Vec<Refusal>),
    /// The file system failed (or changed while init ran).
    #[error("{}: {source}", path.display())]
    Io {
        /// Where.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// The parts of the starter repository, for the hints of a refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Settings,
    Spec,
    Runtime,
    Workspace,
}

/// One file to write.
struct Planned {
    path: String,
    text: String,
    part: Part,
}

/// Writes a starter repository into `dir` (created if needed), or refuses before writing
/// anything (see the module's documentation).
pub fn init(dir: &Path, options: &Options) -> Result<Report, InitError> {
    let spec = inside(dir, "--spec", &options.spec)?;
    let out = inside(dir, "--out", &options.out)?;
    no_overlap(&spec, &out, &options.runtime)?;
    if dir.exists() && !dir.is_dir() {
        return Err(InitError::Flag(format!("{} is not a directory", dir.display())));
    }
    let files = starter(options, &spec, &out)?;
    let mut report = Report::default();
    let refusals = inspect(dir, &spec, &files, &mut report)?;
    if !refusals.is_empty() {
        return Err(InitError::Refused(refusals));
    }
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    for file in files.iter().filter(|f| !report.kept.contains(&f.path)) {
        write_new(dir, &file.path, &file.text)?;
        report.written.push(file.path.clone());
    }
    // Settled only in a workspace init wrote: an existing Cargo.toml may have members of its own,
    // which the scratch workspace would not hold.
    let wrote = |file: &str| report.written.iter().any(|path| path == file);
    if wrote("Cargo.lock") && wrote("Cargo.toml") {
        report.lock_unsettled = lock::settle(dir).err();
    }
    Ok(report)
}

/// `path` as `apigen.toml` will hold it: relative, below `dir`, UTF-8, `/`-separated.
fn inside(dir: &Path, flag: &str, path: &Path) -> Result<String, InitError> {
    let steps: Option<Vec<&str>> = path
        .components()
        .map(|c| match c {
            Component::Normal(name) => name.to_str(),
            _ => None,
        })
        .collect();
    match steps {
        Some(steps) if !steps.is_empty() => Ok(steps.join("/")),
        _ => Err(InitError::Flag(format!(
            "{flag} {}: not a directory inside {}: give a relative path without `.` or `..` (apigen.toml holds \
             it, relative to itself)",
            path.display(),
            dir.display()
        ))),
    }
}

/// Refuses a spec or output directory that is, holds or lies in another part of the starter.
fn no_overlap(spec: &str, out: &str, runtime: &Runtime) -> Result<(), InitError> {
    let mut fixed = vec![
        ("the settings file", crate::config::FILE),
        ("the workspace file", "Cargo.toml"),
        ("the lock file", "Cargo.lock"),
        ("the spec's schema", crate::load::SCHEMA_FILE),
        ("the ignore file", ".gitignore"),
    ];
    if *runtime == Runtime::Vendored {
        fixed.push(("the runtime copy", RUNTIME_DIR));
    }
    let flags = [("--spec", spec), ("--out", out)];
    let others = flags.iter().skip(1).copied().chain(fixed);
    for (i, (flag, path)) in flags.iter().enumerate() {
        for (label, other) in others.clone().skip(i) {
            if Path::new(path).starts_with(other) || Path::new(other).starts_with(path) {
                return Err(InitError::Flag(format!(
                    "{flag} {path} and {label} {other} overlap: give each its own directory"
                )));
            }
        }
    }
    Ok(())
}

/// Every file of the starter repository.
fn starter(options: &Options, spec: &str, out: &str) -> Result<Vec<Planned>, InitError> {
    let planned = |path: String, text: String, part| Planned { path, text, part };
    let imported = options.imported.is_some();
    let mut files =
        vec![planned(crate::config::FILE.into(), config_text(spec, out, &options.runtime, imported)?, Part::Settings)];
    match &options.imported {
        Some(spec_files) => {
            for (name, text) in spec_files {
                files.push(planned(format!("{spec}/{name}"), text.clone(), Part::Spec));
            }
        }
        None => {
            let modeline = crate::load::schema_modeline(&schema_from(spec));
            files.push(planned(format!("{spec}/api.yaml"), modeline.clone() + &api_yaml(&options.name), Part::Spec));
            files.push(planned(format!("{spec}/notes.yaml"), modeline + NOTES_YAML, Part::Spec));
        }
    }
    files.push(planned(crate::load::SCHEMA_FILE.into(), crate::load::SCHEMA.into(), Part::Workspace));
    if options.runtime == Runtime::Vendored {
        for (path, text) in RUNTIME_FILES {
            files.push(planned(format!("{RUNTIME_DIR}/{path}"), (*text).into(), Part::Runtime));
        }
    }
    let vendored = options.runtime == Runtime::Vendored;
    files.push(planned("Cargo.toml".into(), workspace_toml(out, vendored), Part::Workspace));
    files.push(planned("Cargo.lock".into(), lock_file(), Part::Workspace));
    files.push(planned(".gitignore".into(), "/target\n".into(), Part::Workspace));
    Ok(files)
}

/// The schema file `init` writes beside `apigen.toml`, as named from the spec directory `spec`
/// (a relative `/`-separated path inside the directory written into).
pub fn schema_from(spec: &str) -> String {
    "../".repeat(spec.split('/').count()) + crate::load::SCHEMA_FILE
}

/// What is at a path, without following a link.
enum Found {
    Nothing,
    Dir,
    Link(PathBuf),
    /// A file, FIFO, socket or device.
    Other,
}

fn found(path: &Path) -> Result<Found, InitError> {
    match std::fs::symlink_metadata(path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Found::Nothing),
        Err(error) => Err(InitError::Io { path: path.to_path_buf(), source: error }),
        Ok(m) if m.is_symlink() => Ok(Found::Link(std::fs::read_link(path).unwrap_or_default())),
        Ok(m) if m.is_dir() => Ok(Found::Dir),
        Ok(_) => Ok(Found::Other),
    }
}

/// The first step of `path` (below `dir`) that holds something: a step on the way that is not a
/// directory, or the path itself. `None` when the path is free.
fn first_taken(dir: &Path, path: &str) -> Result<Option<(String, Found)>, InitError> {
    let steps: Vec<&str> = path.split('/').collect();
    for depth in 1..=steps.len() {
        let step = steps[..depth].join("/");
        match found(&dir.join(&step))? {
            Found::Nothing => return Ok(None),
            Found::Dir if depth < steps.len() => {}
            taken => return Ok(Some((step, taken))),
        }
    }
    Ok(None)
}

/// Every path init would write that holds something, each refused once; the workspace files
/// that exist go to `report.kept`.
fn inspect(dir: &Path, spec: &str, files: &[Planned], report: &mut Report) -> Result<Vec<Refusal>, InitError> {
    // An existing apigen.toml says it all: the directory is set up (or the path is a link).
    if let Some((step, taken)) = first_taken(dir, crate::config::FILE)? {
        return Ok(vec![refusal(step, taken, Part::Settings)]);
    }
    let mut refusals: BTreeMap<String, Refusal> = BTreeMap::new();
    let mut directories = vec![(spec.to_owned(), Part::Spec)];
    if files.iter().any(|f| f.part == Part::Runtime) {
        directories.push((RUNTIME_DIR.to_owned(), Part::Runtime));
    }
    for (path, part) in &directories {
        if let Some((step, taken)) = first_taken(dir, path)? {
            let refusal = match taken {
                Found::Dir => non_empty(dir, &step, *part)?,
                taken => Some(refusal(step, taken, *part)),
            };
            refusals.extend(refusal.map(|r| (r.path.clone(), r)));
        }
    }
    for file in files.iter().filter(|f| f.part == Part::Workspace) {
        if first_taken(dir, &file.path)?.is_some() {
            report.kept.push(file.path.clone());
        }
    }
    Ok(refusals.into_values().collect())
}

/// The refusal for a spec or runtime directory that holds entries, if it does.
fn non_empty(dir: &Path, path: &str, part: Part) -> Result<Option<Refusal>, InitError> {
    let full = dir.join(path);
    let count = std::fs::read_dir(&full).map_err(io_error(&full))?.count();
    if count == 0 {
        return Ok(None);
    }
    let entries = if count == 1 { "1 entry".to_owned() } else { format!("{count} entries") };
    let (problem, hint) = if part == Part::Spec {
        (
            format!("holds {entries} already: init writes its starter spec only into a new or empty directory"),
            format!(
                "to keep this spec, write {} by hand (`spec = \"{path}\"`, see `apigen --help`), or name another \
                 directory with --spec",
                dir.join(crate::config::FILE).display()
            ),
        )
    } else {
        (
            format!("holds {entries} already: init copies the runtime only into a new or empty directory"),
            format!("take the runtime from it with --runtime {path}, or remove it to copy this apigen's runtime"),
        )
    };
    Ok(Some(Refusal { path: path.to_owned(), problem, hint }))
}

/// The refusal for a link, a file where a directory goes, or an existing settings file.
fn refusal(path: String, taken: Found, part: Part) -> Refusal {
    let elsewhere = match part {
        Part::Spec => "name another directory with --spec",
        Part::Runtime => "take the runtime from elsewhere with --runtime",
        Part::Settings | Part::Workspace => "",
    };
    let (problem, hint) = match taken {
        Found::Link(target) if elsewhere.is_empty() => (link_problem(&target), "remove the link".to_owned()),
        Found::Link(target) => (link_problem(&target), format!("remove the link, or {elsewhere}")),
        _ if part == Part::Settings => (
            "exists: this directory is set up already".to_owned(),
            format!("run `apigen generate` there, or remove {} to start again", crate::config::FILE),
        ),
        _ => ("is a file, not a directory".to_owned(), elsewhere.to_owned()),
    };
    Refusal { path, problem, hint }
}

fn link_problem(target: &Path) -> String {
    format!("is a link (to {}): init never writes through a link", target.display())
}

fn io_error(path: &Path) -> impl Fn(std::io::Error) -> InitError + '_ {
    move |source| InitError::Io { path: path.to_path_buf(), source }
}

/// Writes a new file at `path` below `dir`, creating the directories on the way one at a time;
/// fails rather than write through anything that appeared since the inspection.
fn write_new(dir: &Path, path: &str, text: &str) -> Result<(), InitError> {
    use std::io::Write;
    let steps: Vec<&str> = path.split('/').collect();
    for depth in 1..steps.len() {
        let step = dir.join(steps[..depth].join("/"));
        match found(&step)? {
            Found::Dir => {}
            Found::Nothing => std::fs::create_dir(&step).map_err(io_error(&step))?,
            _ => {
                let source = std::io::Error::new(std::io::ErrorKind::AlreadyExists, "appeared while init ran");
                return Err(InitError::Io { path: step, source });
            }
        }
    }
    let target = dir.join(path);
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&target).map_err(io_error(&target))?;
    file.write_all(text.as_bytes()).map_err(io_error(&target))
}

/// A crate-name prefix from a directory name (`My Service` gives `my-service`), or `my-api`.
pub fn name_from_dir(dir: &Path) -> String {
    let stem = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let name = heck::ToKebabCase::to_kebab_case(stem.as_str());
    let name: String = name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
    if crate::model::valid_crate_prefix(&name) { name } else { "my-api".to_owned() }
}

/// `text` as one TOML basic string, whatever it holds.
fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

fn config_text(spec: &str, out: &str, runtime: &Runtime, imported: bool) -> Result<String, InitError> {
    let source = match runtime {
        Runtime::Vendored => format!("path = {}", toml_string(RUNTIME_DIR)),
        Runtime::Path(path) => {
            let Some(path) = path.to_str() else {
                return Err(InitError::Flag(format!("--runtime {}: not UTF-8", path.display())));
            };
            format!("path = {}", toml_string(path))
        }
        Runtime::Version(version) => format!("version = {}", toml_string(version)),
    };
    let lint = if imported {
        "\n# Each warning class: \"allow\", \"warn\" or \"deny\". An imported document describes few of its\n\
         # fields; set \"warn\" to list them as you describe them.\n\
         [lint]\n\
         missing-description = \"allow\"\n"
    } else {
        "\n# Each warning class: \"allow\", \"warn\" or \"deny\" (missing-description, unused-type,\n\
         # unfollowed-link).\n\
         [lint]\n\
         unused-type = \"warn\"\n"
    };
    Ok(format!(
        "# apigen's settings: every command (lint, generate, check, list, gaps, diff) reads them from\n\
         # this directory or a subdirectory; flags override them.\n\
         spec = {}\n\
         out = {}\n\
         \n\
         # Where the generated crates take apigen-runtime from: `path`, `git` (with `rev`, `branch`\n\
         # or `tag`) or only `version` (a registry).\n\
         [runtime]\n\
         {source}\n{lint}",
        toml_string(spec),
        toml_string(out)
    ))
}

fn api_yaml(name: &str) -> String {
    format!(
        "# What is global to the API. Each other file describes one area; see apigen's spec/README.md.\n\
         api:\n  name: {name}\n  title: {name} API\n  version: \"1\"\n  description: Notes, as a start.\n\n\
         tags:\n  notes: {{ title: Notes, description: Short notes. }}\n\n\
         pagination:\n  params: [page, limit]\n  cursor: page\n  description: A page of a list; pass `next.page` as `page` to read the next one.\n\n\
         parameters:\n\
         \x20 page: {{ in: query, type: string, description: The page to read (`next.page` of the previous one). }}\n\
         \x20 limit: {{ in: query, type: integer, minimum: 1, maximum: 100, default: 20, description: Most items on one page. }}\n\
         \x20 noteId: {{ in: path, description: Id of the note., sample: note_1 }}\n"
    )
}

const NOTES_YAML: &str = "tag: notes
types:
  Note:
    description: A short note.
    fields:
      object: { const: note, description: Always `note`. }
      id: { type: string, description: Id of the note., sample: note_1 }
      text: { type: string, min_length: 1, max_length: 500, description: What the note says., sample: Buy milk }
      createdAt: { type: date-time, description: When the note was written. }

operations:
  listNotes:
    method: GET
    path: /v1/notes
    summary: List the notes, newest first.
    response: { status: 200, items: Note }
  createNote:
    method: POST
    path: /v1/notes
    summary: Write a note.
    body:
      type_name: CreateNoteBody
      description: The note.
      fields:
        text: { type: string, min_length: 1, max_length: 500, description: What the note says., sample: Buy milk }
    response: { status: 201, type: Note }
  getNote:
    method: GET
    path: /v1/notes/{noteId}
    summary: Read a note.
    params: [noteId]
    response: { status: 200, type: Note }
    errors: [{ status: 404, when: no note has this id }]
";

/// The workspace manifest: the generated crates in `out` are its members. The runtime copy
/// (`vendored`) is left out: a path dependency inside the workspace would otherwise be a
/// member, and `cargo test` would run the runtime's own unit tests and doctests as the
/// owner's.
fn workspace_toml(out: &str, vendored: bool) -> String {
    let members: Vec<String> =
        ["types", "server", "client"].iter().map(|c| toml_string(&format!("{out}/{c}"))).collect();
    let exclude = if vendored {
        format!(
            "# The runtime copy is a dependency, not a member: `cargo test` leaves its own tests.\n\
             exclude = [{}]\n",
            toml_string(RUNTIME_DIR)
        )
    } else {
        String::new()
    };
    format!(
        "# The generated crates are members, so building them leaves no Cargo.lock in the output.\n\
         [workspace]\n\
         resolver = \"3\"\n\
         members = [{}]\n\
         {exclude}\
         \n\
         [profile.dev]\n\
         # Debug info is the largest part of a debug build (apigen's guide: Performance); line tables\n\
         # are enough for backtraces.\n\
         debug = \"line-tables-only\"\n",
        members.join(", ")
    )
}
