//! Loading: reads every YAML file of a spec directory into raw structures.
//!
//! This is the only module that touches serde_yaml (feature-frozen, so kept behind one door).
//! Files are read in sorted path order, so the result never depends on directory listing
//! order. Each file is parsed once for syntax (errors carry line and column), then each entry
//! (a type, an operation, a gap, ...) is decoded on its own: a broken entry does not hide the
//! problems of the others, and every unknown key is reported, not only the first.

mod budget;
pub mod document;
mod keys;
pub mod locate;
pub mod raw;
pub mod tree;

/// The JSON Schema of a spec file (draft 2020-12), for editors: `apigen schema` prints it,
/// `init` writes it beside `apigen.toml` as [`SCHEMA_FILE`], and the spec files `init` and
/// `import` write name it on their first line ([`schema_modeline`]), so an editor with a YAML
/// language server completes and checks keys as the user types. It mirrors [`raw`] key for key
/// (`generator/tests/schema.rs` keeps the two in step and checks every fixture against it);
/// what a schema cannot say (references, names, routes) is `apigen lint`'s.
pub const SCHEMA: &str = include_str!("../../schema/spec.schema.json");

/// The schema's file name in a user's repository, beside `apigen.toml`.
pub const SCHEMA_FILE: &str = "apigen-spec.schema.json";

/// The first line of a spec file naming the schema at `relative` (from the spec file's
/// directory), read by the YAML language server (VS Code's YAML extension, Helix, Neovim, Zed).
pub fn schema_modeline(relative: &str) -> String {
    format!("# yaml-language-server: $schema={relative}\n")
}

use crate::diag::{Diagnostics, Location, SpecPath};
use raw::*;
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A spec file as read: where it is and its text (for locating diagnostics).
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path as shown to the user (`spec/spaces.yaml`).
    pub display: String,
    /// The text, line endings normalized to `\n`.
    pub text: String,
    /// The file's default tag for its operations.
    pub tag: Option<String>,
    /// Where the YAML lines of `text` are, for locating diagnostics.
    pub lines: locate::LineIndex,
}

/// Where an entry comes from: a file and a path inside it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Origin {
    /// Index into [`Spec::files`].
    pub file: usize,
    /// The entry's path in the file (`types.Collection`).
    pub path: SpecPath,
}

impl Origin {
    /// The same file, a path below this one.
    pub fn key(&self, key: impl Into<String>) -> Origin {
        Origin { file: self.file, path: self.path.key(key) }
    }

    /// The same file, an item of the list at this path.
    pub fn index(&self, index: usize) -> Origin {
        Origin { file: self.file, path: self.path.index(index) }
    }
}

/// A named entry of a section, with its origin.
#[derive(Debug)]
pub struct Entry<T> {
    /// The key it was declared under.
    pub name: String,
    /// Where it was declared.
    pub origin: Origin,
    /// Its content.
    pub value: T,
}

/// Every file of a spec, decoded into raw structures, in file order then document order.
#[derive(Debug, Default)]
pub struct Spec {
    /// The files read.
    pub files: Vec<SourceFile>,
    /// `api:` sections (exactly one is valid).
    pub api: Vec<Entry<RawApi>>,
    /// Tags.
    pub tags: Vec<Entry<RawTag>>,
    /// Shared parameters.
    pub parameters: Vec<Entry<RawField>>,
    /// `pagination:` sections (at most one is valid).
    pub pagination: Vec<Entry<RawPagination>>,
    /// Named types.
    pub types: Vec<Entry<RawType>>,
    /// Operations.
    pub operations: Vec<Entry<RawOperation>>,
    /// Gaps.
    pub gaps: Vec<Entry<RawGap>>,
    /// A hash of every file's path and text, shown in generated headers.
    pub hash: String,
    /// False when a whole file could not be read or parsed: lowering would report
    /// references to everything it declares, so the pipeline stops after loading.
    pub complete: bool,
    /// Entries that could not be decoded (a value of the wrong type), by section then name.
    /// Lowering knows they exist, so references to them are not reported as unknown.
    pub dropped: BTreeMap<String, BTreeSet<String>>,
}

impl Spec {
    /// True when an entry of `section` named `name` exists but could not be decoded.
    pub fn was_dropped(&self, section: &str, name: &str) -> bool {
        self.dropped.get(section).is_some_and(|names| names.contains(name))
    }
}

impl Spec {
    /// The location of `origin` for a diagnostic: file, line and column found in the text,
    /// and the spec path.
    pub fn locate(&self, origin: &Origin) -> Location {
        let file = &self.files[origin.file];
        let (line, column) = match file.lines.locate(&file.text, &origin.path) {
            Some((line, column)) => (Some(line), Some(column)),
            None => (None, None),
        };
        Location { file: file.display.clone(), line, column, path: Some(origin.path.clone()) }
    }
}

/// Reads and decodes every `.yaml` file under `dir`. Problems are added to `diags`; entries
/// that could not be decoded are left out of the result.
pub fn load(dir: &Path, diags: &mut Diagnostics) -> Spec {
    load_with(dir, diags, &tree::NoTrees)
}

/// [`load`], taking the parsed tree of each file whose text `trees` holds one for (keyed by
/// that text: [`tree::key`]) instead of parsing it, and giving `trees` the tree of each file
/// parsed. Every file is still read, decoded and located in its text as [`load`] does.
pub fn load_with(dir: &Path, diags: &mut Diagnostics, trees: &dyn tree::Trees) -> Spec {
    let mut spec = Spec { complete: true, ..Spec::default() };
    let listing = crate::input::list(dir, &["yaml", "yml"]);
    for link in listing.iter().flat_map(|listing| &listing.linked_dirs) {
        diags
            .warning(
                crate::diag::Lint::UnfollowedLink,
                Location::file(link.display().to_string()),
                "a link to a directory: not followed, so no file in it is read",
            )
            .hint("move the directory into the spec directory, or link each file");
    }
    let paths = match listing {
        Ok(listing) if !listing.files.is_empty() => listing.files,
        Ok(_) => {
            diags
                .error(Location::file(dir.display().to_string()), "no .yaml file in the spec directory")
                .hint("pass the directory holding api.yaml with --spec");
            spec.complete = false;
            return spec;
        }
        Err(error) => {
            let problem = diags
                .error(Location::file(dir.display().to_string()), format!("cannot read the spec directory: {error}"));
            if error.kind() == std::io::ErrorKind::NotFound {
                // Most often: apigen run outside a project (no apigen.toml here or above).
                problem.hint(
                    "no spec here: `apigen init` starts a project (apigen.toml, spec/), `apigen init --from DOC` \
                     imports an OpenAPI document; or name the spec with --spec or `spec` in apigen.toml",
                );
            }
            spec.complete = false;
            return spec;
        }
    };
    let read = paths.into_iter().map(|path| {
        let relative = path.strip_prefix(dir).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        let text = read_spec_file(dir, &path);
        ReadFile { display: path.display().to_string(), relative, text }
    });
    load_read(read.collect(), spec, diags, trees)
}

/// The hash of what [`load`] would read below `dir`, read but not parsed: each spec file's
/// path and bytes, in the order `load` reads them, and the links to directories it would warn
/// about. `generate`'s fast path compares it with the hash remembered for the last run
/// ([`crate::out::cache`]). `None` when the directory or a file cannot be read as `load` reads
/// it (then `load` reports why).
pub fn inputs_hash(dir: &Path) -> Option<String> {
    let listing = crate::input::list(dir, &["yaml", "yml"]).ok()?;
    let mut hasher = crate::hash::Hasher::new();
    for link in &listing.linked_dirs {
        hasher.write(b"link\0");
        hasher.write(link.as_os_str().as_encoded_bytes());
        hasher.write(&[0]);
    }
    for path in &listing.files {
        let text = read_spec_file(dir, path).ok()?;
        hasher.write(path.as_os_str().as_encoded_bytes());
        hasher.write(&[0]);
        hasher.write(text.as_bytes());
        hasher.write(&[0]);
    }
    Some(hasher.hex())
}

thread_local! {
    /// How many spec files [`load`] and [`load_memory`] read and decoded on this thread: what
    /// the tests of `generate`'s fast path observe (it reads none).
    static FILES_READ: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    /// How many of those were handed to the YAML parser (the others' trees were remembered:
    /// [`load_with`]).
    static FILES_PARSED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many spec files were read and decoded by loads started on this thread so far.
pub fn files_read() -> usize {
    FILES_READ.with(std::cell::Cell::get)
}

/// How many spec files were parsed as YAML by loads started on this thread so far.
pub fn files_parsed() -> usize {
    FILES_PARSED.with(std::cell::Cell::get)
}

/// A spec file held in memory (the spec at a git revision, read from git's objects).
#[derive(Debug, Clone)]
pub struct MemoryFile {
    /// The name shown in diagnostics and locations (`HEAD:spec/pets.yaml`).
    pub display: String,
    /// Its path below the spec directory, `/`-separated (part of the spec's hash).
    pub relative: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// Loads spec files held in memory as [`load`] loads a directory's: in sorted path order,
/// UTF-8 required, each problem located.
pub fn load_memory(mut files: Vec<MemoryFile>, diags: &mut Diagnostics) -> Spec {
    files.sort_by(|a, b| Path::new(&a.relative).cmp(Path::new(&b.relative)));
    let read = files.into_iter().map(|file| ReadFile {
        display: file.display,
        relative: file.relative,
        text: crate::input::decode_text(file.bytes).map_err(unreadable),
    });
    load_read(read.collect(), Spec { complete: true, ..Spec::default() }, diags, &tree::NoTrees)
}

/// A spec file as read: its names, and its text or why it has none.
struct ReadFile {
    display: String,
    relative: String,
    text: Result<String, Unreadable>,
}

/// Parses and decodes files read, in their order, into `spec`; refuses a spec whose files hold
/// more than [`crate::input::MAX_SPEC_BYTES`] together. A file whose tree `trees` remembers is
/// not parsed.
fn load_read(files: Vec<ReadFile>, mut spec: Spec, diags: &mut Diagnostics, trees: &dyn tree::Trees) -> Spec {
    let total: u64 = files.iter().filter_map(|f| f.text.as_ref().ok()).map(|t| t.len() as u64).sum();
    if total > crate::input::MAX_SPEC_BYTES {
        let first = files.first().map(|f| f.display.clone()).unwrap_or_default();
        let mib = crate::input::MAX_SPEC_BYTES / (1024 * 1024);
        diags
            .error(Location::file(first), format!("the spec's files hold {total} bytes together, more than {mib} MiB"))
            .hint("a spec this large is a mistake: the largest public APIs need a quarter of it");
        spec.complete = false;
        return spec;
    }
    FILES_READ.with(|read| read.set(read.get() + files.len()));
    // Parsing YAML is most of loading: files are parsed (or their trees decoded) on all
    // threads, then decoded into raw structures in order.
    let parsed = crate::par::map(files, |file| {
        let mut fresh = false;
        let parsed = file.text.map(|text| {
            let text = text.replace("\r\n", "\n");
            let (yaml, parsed) = parse_remembered(&text, trees);
            fresh = parsed;
            (text, yaml)
        });
        (file.display, file.relative, parsed, fresh)
    });
    let fresh = parsed.iter().filter(|(_, _, _, fresh)| *fresh).count();
    FILES_PARSED.with(|count| count.set(count.get() + fresh));
    let mut hasher = crate::hash::Hasher::new();
    for (display, relative, parsed, _) in parsed {
        let (text, yaml) = match parsed {
            Ok(parsed) => parsed,
            Err(unreadable) => {
                let location = Location { file: display, line: unreadable.line, column: unreadable.column, path: None };
                let diag = diags.error(location, unreadable.message);
                if let Some(hint) = unreadable.hint {
                    diag.hint(hint);
                }
                spec.complete = false;
                continue;
            }
        };
        hasher.write(relative.as_bytes());
        hasher.write(&[0]);
        hasher.write(text.as_bytes());
        hasher.write(&[0]);
        let index = spec.files.len();
        let lines = locate::LineIndex::new(&text);
        spec.files.push(SourceFile { display, text, tag: None, lines });
        load_file(&mut spec, index, yaml, diags);
    }
    spec.hash = hasher.hex();
    spec
}

/// Why a spec file could not be read, located where that is possible.
struct Unreadable {
    message: String,
    hint: Option<&'static str>,
    line: Option<usize>,
    column: Option<usize>,
}

/// Reads one spec file through the reader every input takes ([`crate::input`]): a regular file
/// of at most [`crate::input::MAX_SPEC_FILE_BYTES`] holding UTF-8, or a link to one that stays
/// in the spec directory.
fn read_spec_file(dir: &Path, path: &Path) -> Result<String, Unreadable> {
    crate::input::read_text_within(dir, path, crate::input::MAX_SPEC_FILE_BYTES).map_err(unreadable)
}

/// Why a spec file could not be read, with the hint for a spec.
fn unreadable(error: crate::input::ReadError) -> Unreadable {
    use crate::input::ReadError;
    let hint = match &error {
        ReadError::NotRegular(_) => Some("the spec directory holds regular .yaml files only"),
        ReadError::TooLarge(_) => Some("split the spec into several files, one per area"),
        ReadError::LinkOutside { .. } => {
            Some("copy the file into the spec directory, or point --spec at the directory holding it")
        }
        ReadError::NotUtf8 { .. } => Some("save the file as UTF-8"),
        ReadError::Io(_) => None,
    };
    let (line, column) = error.position().unzip();
    Unreadable { message: error.to_string(), hint, line, column }
}

/// How deeply flow collections (`[...]`, `{...}`) may nest. A real spec nests two or three;
/// the YAML parser takes time quadratic in the depth (100,000 `[` took 46 s), so deeper text
/// is refused before it is parsed.
pub const MAX_FLOW_NESTING: usize = 64;

/// The line and column where flow collections first nest deeper than [`MAX_FLOW_NESTING`].
/// Every `[`/`{` outside comments counts, quoted or not: a count that quoted text can inflate
/// may refuse an absurd file, but none that the parser would find deep can slip through.
fn too_deep_flow(text: &str) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    for (i, line) in text.split('\n').enumerate() {
        let mut previous = ' ';
        for (column, c) in line.chars().enumerate() {
            match c {
                '#' if previous == ' ' || previous == '\t' => break, // a comment runs to the end of the line
                '[' | '{' => {
                    depth += 1;
                    if depth > MAX_FLOW_NESTING {
                        return Some((i + 1, column + 1));
                    }
                }
                ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            previous = c;
        }
    }
    None
}

/// What parsing a file's text as YAML gave.
enum Yaml {
    /// The document.
    Value(serde_yaml::Value),
    /// Flow collections nest too deep to parse safely, first at this line and column.
    TooDeep(usize, usize),
    /// A syntax error.
    Invalid(serde_yaml::Error),
}

/// Why `text` is not a spec file, if it is not: a spec file is a YAML mapping whose keys are
/// the format's own top-level keys (`api`, `types`, `operations`, ...). `import --replace` asks
/// this of every file of a directory before replacing it, so that a folder another program
/// wrote (docker-compose's `services`, Kubernetes' `apiVersion`) is never taken for a spec
/// because its files end in `.yaml`.
pub fn not_a_spec_file(text: &str) -> Option<String> {
    let value = match parse_yaml(text) {
        Yaml::Value(value) => value,
        Yaml::TooDeep(..) | Yaml::Invalid(_) => return Some("it does not read as YAML".into()),
    };
    let mapping = match value {
        serde_yaml::Value::Mapping(mapping) => mapping,
        serde_yaml::Value::Null => return None,
        _ => return Some("it is not a mapping".into()),
    };
    let known = keys::known_at(&[]);
    mapping.keys().find_map(|key| {
        let key = key.as_str().unwrap_or_default();
        (!known.contains(key)).then(|| format!("its key `{key}` is none of the spec format's"))
    })
}

/// The tree of `text`: the one `trees` remembers for it, or parsed (and then given to `trees`
/// when it is a tree); true when parsed.
fn parse_remembered(text: &str, trees: &dyn tree::Trees) -> (Yaml, bool) {
    let key = tree::key(text);
    if let Some(value) = trees.get(&key).as_deref().and_then(tree::decode) {
        return (Yaml::Value(value), false);
    }
    let yaml = parse_yaml(text);
    if let Yaml::Value(value) = &yaml {
        trees.put(&key, &tree::encode(value));
    }
    (yaml, true)
}

/// Parses a file's text, refusing flow nesting that would exhaust the parser's stack first.
fn parse_yaml(text: &str) -> Yaml {
    if let Some((line, column)) = too_deep_flow(text) {
        return Yaml::TooDeep(line, column);
    }
    match budget::from_str(text) {
        Ok(value) => Yaml::Value(value),
        Err(error) => Yaml::Invalid(error),
    }
}

/// Decodes the parsed file `index` into `spec`, reporting what cannot be decoded.
fn load_file(spec: &mut Spec, index: usize, yaml: Yaml, diags: &mut Diagnostics) {
    let file = &spec.files[index];
    let value = match yaml {
        Yaml::Value(value) => value,
        Yaml::TooDeep(line, column) => {
            let location = Location { file: file.display.clone(), line: Some(line), column: Some(column), path: None };
            diags
                .error(
                    location,
                    format!("flow collections (`[...]`, `{{...}}`) nest more than {MAX_FLOW_NESTING} levels deep"),
                )
                .hint("write deep structures as indented blocks, or flatten them into named types");
            spec.complete = false;
            return;
        }
        Yaml::Invalid(error) => {
            let location = error.location();
            let at = Location {
                file: file.display.clone(),
                line: location.as_ref().map(|l| l.line()),
                column: location.as_ref().map(|l| l.column()),
                path: None,
            };
            let message = strip_position(&error.to_string());
            if message.contains(budget::EXPANDS) {
                diags.error(at, message).hint("write the repeated parts once as named types or shared parameters");
            } else {
                diags.error(at, format!("YAML syntax error: {message}"));
            }
            spec.complete = false;
            return;
        }
    };
    if value.is_null() {
        return; // An empty file declares nothing.
    }
    let root = Origin { file: index, path: SpecPath::root() };
    let mut dropped = Vec::new();
    load_root(spec, &root, value, &mut dropped, diags);
    for (section, name) in dropped {
        spec.dropped.entry(section).or_default().insert(name);
    }
}

/// Decodes the sections of one file; `complete` turns false when an entry is dropped.
fn load_root(
    spec: &mut Spec,
    root: &Origin,
    value: serde_yaml::Value,
    dropped: &mut Vec<(String, String)>,
    diags: &mut Diagnostics,
) {
    let index = root.file;
    let Some(raw) = decode::<RawFile>(spec, root, value, diags) else {
        spec.complete = false; // The file's sections are not even mappings.
        return;
    };
    spec.files[index].tag = raw.tag;
    if let Some(api) = raw.api {
        match decode(spec, &root.key("api"), api, diags) {
            Some(value) => spec.api.push(Entry { name: "api".into(), origin: root.key("api"), value }),
            None => dropped.push(("api".into(), "api".into())),
        }
    }
    if let Some(pagination) = raw.pagination {
        let origin = root.key("pagination");
        match decode(spec, &origin, pagination, diags) {
            Some(value) => spec.pagination.push(Entry { name: "pagination".into(), origin, value }),
            None => dropped.push(("pagination".into(), "pagination".into())),
        }
    }
    let mut tags = decode_entries(spec, root, "tags", raw.tags, dropped, diags);
    let mut parameters = decode_entries(spec, root, "parameters", raw.parameters, dropped, diags);
    let mut types = decode_entries(spec, root, "types", raw.types, dropped, diags);
    let mut operations = decode_entries(spec, root, "operations", raw.operations, dropped, diags);
    let mut gaps = decode_entries(spec, root, "gaps", raw.gaps, dropped, diags);
    spec.tags.append(&mut tags);
    spec.parameters.append(&mut parameters);
    spec.types.append(&mut types);
    spec.operations.append(&mut operations);
    spec.gaps.append(&mut gaps);
}

/// Decodes each entry of a section on its own.
fn decode_entries<T: DeserializeOwned>(
    spec: &Spec,
    root: &Origin,
    section: &str,
    mapping: Option<serde_yaml::Mapping>,
    dropped: &mut Vec<(String, String)>,
    diags: &mut Diagnostics,
) -> Vec<Entry<T>> {
    let mut entries = Vec::new();
    for (key, value) in mapping.into_iter().flatten() {
        let section_origin = root.key(section);
        let Some(name) = key.as_str().map(str::to_owned) else {
            diags
                .error(spec.locate(&section_origin), format!("a key of `{section}` is not a string: {key:?}"))
                .hint("names are plain strings");
            continue;
        };
        let origin = section_origin.key(&name);
        match decode(spec, &origin, value, diags) {
            Some(value) => entries.push(Entry { name, origin, value }),
            None => dropped.push((section.to_owned(), name)),
        }
    }
    entries
}

/// Decodes one value, reporting every unknown key and the first type error with its path.
fn decode<T: DeserializeOwned>(
    spec: &Spec,
    origin: &Origin,
    value: serde_yaml::Value,
    diags: &mut Diagnostics,
) -> Option<T> {
    let mut unknown: Vec<SpecPath> = Vec::new();
    let mut track = serde_path_to_error::Track::new();
    let result = {
        let tracked = serde_path_to_error::Deserializer::new(value, &mut track);
        serde_ignored::deserialize(tracked, |path| unknown.push(ignored_path(&origin.path, &path)))
    };
    let mut meant: Vec<(SpecPath, String)> = Vec::new();
    for path in unknown {
        let (key, suggestion) = unknown_key(&path);
        let at = Origin { file: origin.file, path };
        let hint = match &suggestion {
            Some(known) => format!("did you mean `{known}`?"),
            None if key.contains(' ') => {
                "a comma inside `{ ... }` starts a new entry: quote text holding commas or `: `".to_owned()
            }
            None => "spec/README.md lists the keys each element accepts".to_owned(),
        };
        if let Some(known) = suggestion {
            meant.push((parent(&at.path), known));
        }
        diags.error(spec.locate(&at), format!("unknown key `{key}`")).hint(hint);
    }
    match result {
        Ok(value) => Some(value),
        Err(error) => {
            let path = track.path().to_string();
            let at = Origin { file: origin.file, path: origin.path.join_serde(&path) };
            let message = strip_position(&error.to_string());
            // A required key written misspelled is missing too: the unknown key's "did you
            // mean" says it already, once.
            let said =
                missing_field(&message).is_some_and(|field| meant.contains(&(at.path.clone(), field.to_owned())));
            if !said {
                diags.error(spec.locate(&at), message);
            }
            None
        }
    }
}

/// An unknown key's text, and the known key of its place it most likely meant.
fn unknown_key(path: &SpecPath) -> (String, Option<String>) {
    let Some((crate::diag::Segment::Key(key), place)) = path.segments().split_last() else {
        return (String::new(), None);
    };
    let known = keys::known_at(place);
    (key.clone(), crate::diag::closest(key, known.iter().map(String::as_str)).map(str::to_owned))
}

/// The path of the mapping holding the key at `path`.
fn parent(path: &SpecPath) -> SpecPath {
    let segments = path.segments();
    segments[..segments.len().saturating_sub(1)].iter().fold(SpecPath::root(), |at, segment| match segment {
        crate::diag::Segment::Key(key) => at.key(key.clone()),
        crate::diag::Segment::Index(index) => at.index(*index),
    })
}

/// The field serde says is missing (`missing field `summary``).
fn missing_field(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `")?.split('`').next()
}

/// `base` followed by the structured path serde_ignored reports (keys may hold dots).
fn ignored_path(base: &SpecPath, path: &serde_ignored::Path<'_>) -> SpecPath {
    use serde_ignored::Path;
    match path {
        Path::Root => base.clone(),
        Path::Seq { parent, index } => ignored_path(base, parent).index(*index),
        Path::Map { parent, key } => ignored_path(base, parent).key(key.clone()),
        Path::Some { parent } | Path::NewtypeStruct { parent } | Path::NewtypeVariant { parent } => {
            ignored_path(base, parent)
        }
    }
}

/// serde_yaml appends " at line L column C" to messages; the location is shown separately.
fn strip_position(message: &str) -> String {
    match message.find(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message.to_owned(),
    }
}
