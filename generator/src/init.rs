//! `apigen init`: a repository that generates and builds with no edits.
//!
//! Writes `apigen.toml`, a starter spec (an `api.yaml` and one area with a resource, a list
//! and a create), a copy of apigen-runtime (unless the config names another source), and a
//! workspace `Cargo.toml` and `.gitignore` when there are none. Never overwrites a file: an
//! existing one is reported and left alone.

use std::path::{Path, PathBuf};

/// The runtime's sources, copied by `init` into `apigen-runtime/`: the runtime this apigen
/// was built with, so the two always match. `build.rs` lists every file of `runtime/` (its
/// manifest, README and `src/`), so a new runtime module cannot be left out of the copy.
pub const RUNTIME_FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/runtime_files.rs"));

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

/// What `init` did.
#[derive(Debug, Default)]
pub struct Report {
    /// Files written, relative to the directory.
    pub written: Vec<String>,
    /// Files that existed and were left alone.
    pub kept: Vec<String>,
}

/// Writes a starter repository into `dir` (created if needed) for an API named `name`.
pub fn init(dir: &Path, name: &str, runtime: &Runtime) -> std::io::Result<Report> {
    let mut report = Report::default();
    let mut write = |path: &str, text: &str| -> std::io::Result<()> {
        let target = dir.join(path);
        if target.exists() {
            report.kept.push(path.to_owned());
            return Ok(());
        }
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&target, text)?;
        report.written.push(path.to_owned());
        Ok(())
    };
    write(crate::config::FILE, &config_text(runtime))?;
    write("spec/api.yaml", &api_yaml(name))?;
    write("spec/notes.yaml", NOTES_YAML)?;
    if *runtime == Runtime::Vendored {
        for (path, text) in RUNTIME_FILES {
            write(&format!("apigen-runtime/{path}"), text)?;
        }
    }
    write("Cargo.toml", WORKSPACE_TOML)?;
    write(".gitignore", "/target\n")?;
    Ok(report)
}

/// A crate-name prefix from a directory name (`My Service` gives `my-service`), or `my-api`.
pub fn name_from_dir(dir: &Path) -> String {
    let stem = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let name = heck::ToKebabCase::to_kebab_case(stem.as_str());
    let name: String = name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
    if crate::model::valid_crate_prefix(&name) { name } else { "my-api".to_owned() }
}

fn config_text(runtime: &Runtime) -> String {
    let source = match runtime {
        Runtime::Vendored => "path = \"apigen-runtime\"".to_owned(),
        Runtime::Path(path) => format!("path = {:?}", path.to_string_lossy()),
        Runtime::Version(version) => format!("version = {version:?}"),
    };
    format!(
        "# apigen's settings: every command (lint, generate, check, list, gaps, diff) reads them from\n\
         # this directory or a subdirectory; flags override them.\n\
         spec = \"spec\"\n\
         out = \"generated\"\n\
         \n\
         # Where the generated crates take apigen-runtime from: `path`, `git` (with `rev`, `branch`\n\
         # or `tag`) or only `version` (a registry).\n\
         [runtime]\n\
         {source}\n"
    )
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

const WORKSPACE_TOML: &str =
    "# The generated crates are members, so building them leaves no Cargo.lock inside generated/.
[workspace]
resolver = \"3\"
members = [\"generated/types\", \"generated/server\", \"generated/client\"]
";
