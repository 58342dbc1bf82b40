//! The edit loop (issue 52, item 1): `generate` with nothing changed stops after hashing the
//! spec's files and the output, parsing no spec file and repeating the last run's warnings; a
//! one-byte edit of a spec file, an output file edited by hand, another setting or an entry
//! not under the cache's seal each take the full path, which restores the output.
//!
//! After an edit, only the files that read what changed are built ([`files_done`]): an edit to
//! one operation builds the files of its group and those reading every operation, and never
//! yields other bytes than a run from an empty cache. Only the spec files edited are parsed as
//! YAML ([`files_parsed`]); the others' trees are taken from the cache, under its seal, and
//! decoded and located as parsed ones ([`files_read`]).

use apigen::diag::{Level, Levels, Lint};
use apigen::emit::jobs::{FilesDone, files_done, fragments_done};
use apigen::load::{files_parsed, files_read};
use apigen::{CacheDir, Generator};
use std::fs;
use std::path::{Path, PathBuf};

/// A copy of the petstore fixture with a type no operation uses (an `unused-type` warning at
/// the level set below, so the warnings repeated are not empty), its output directory and the
/// cache, in a temporary directory.
struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    /// A copy of the fixture `name`'s spec.
    fn fixture(name: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/valid").join(name);
        fs::create_dir_all(dir.path().join("spec")).unwrap();
        for entry in fs::read_dir(fixture).unwrap() {
            let path = entry.unwrap().path();
            fs::copy(&path, dir.path().join("spec").join(path.file_name().unwrap())).unwrap();
        }
        Project { dir }
    }

    fn new() -> Self {
        let Project { dir } = Project::fixture("petstore");
        let unused = "\n  Leftover:\n    description: Used by nothing.\n    fields:\n      id: { type: string, description: Id. }\n";
        let pets = fs::read_to_string(dir.path().join("spec/pets.yaml")).unwrap();
        let pets = pets.replacen("types:\n", &format!("types:{unused}"), 1);
        fs::write(dir.path().join("spec/pets.yaml"), pets).unwrap();
        Project { dir }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    fn generator(&self) -> Generator {
        Generator::new()
            .spec(self.path("spec"))
            .out(self.path("generated"))
            .runtime_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime"))
            .cache(CacheDir::at(self.path("cache")))
            .lint_levels(Levels::default().with(Lint::UnusedType, Level::Warn))
    }

    /// `generate`: what it wrote, how many files it found unchanged, the warnings rendered, and
    /// how many spec files it read (the fast path reads none).
    fn generate_with(&self, generator: Generator) -> (Vec<String>, usize, String, usize) {
        let before = files_read();
        let generated = generator.generate().unwrap();
        (generated.report.written, generated.report.unchanged, generated.warnings.render(), files_read() - before)
    }

    fn generate(&self) -> (Vec<String>, usize, String, usize) {
        self.generate_with(self.generator())
    }

    fn edit(&self, relative: &str, edit: impl Fn(String) -> String) {
        let path = self.path(relative);
        let text = fs::read_to_string(&path).unwrap();
        let edited = edit(text.clone());
        assert_ne!(edited, text, "{relative} unchanged by the edit");
        fs::write(path, edited).unwrap();
    }
}

#[test]
fn nothing_changed_parses_no_spec_file_and_repeats_the_warnings() {
    let project = Project::new();
    let before = files_parsed();
    let (written, _, warnings, parsed) = project.generate();
    assert_eq!((parsed, files_parsed() - before), (2, 2), "the first run reads and parses both spec files");
    assert!(warnings.contains("type `Leftover` is taken or answered by no operation"), "{warnings}");
    let (again, unchanged, repeated, parsed) = project.generate();
    assert_eq!(parsed, 0, "no spec file read");
    assert!(again.is_empty(), "{again:?}");
    assert_eq!(unchanged, written.len());
    assert_eq!(repeated, warnings, "the same warnings, rendered the same");
    // `check` prints and compares every file: it reads and parses the spec whatever the cache
    // says.
    let before = files_parsed();
    assert!(project.generator().check().unwrap().drift.is_clean());
    assert_eq!(files_parsed() - before, 2);
}

#[test]
fn a_one_byte_edit_of_a_spec_file_is_noticed() {
    let project = Project::new();
    project.generate();
    project.edit("spec/pets.yaml", |text| text.replacen("summary: Get a pet.", "summary: Get a pet!", 1));
    let before = files_parsed();
    let (written, _, _, read) = project.generate();
    assert_eq!(read, 2, "both files read");
    assert_eq!(files_parsed() - before, 1, "only the file edited is parsed: the other's tree is remembered");
    assert!(written.iter().any(|path| path == "client/src/pets.rs"), "{written:?}");
    let client = fs::read_to_string(project.path("generated/client/src/pets.rs")).unwrap();
    assert!(client.contains("Get a pet!"));
    assert!(project.generator().check().unwrap().drift.is_clean());
    assert_eq!(project.generate().3, 0, "the edit is remembered: the next run reads nothing");
}

#[test]
fn an_output_file_edited_by_hand_is_restored_though_the_spec_is_unchanged() {
    let project = Project::new();
    project.generate();
    let path = "types/src/pets.rs";
    let printed = fs::read_to_string(project.path(&format!("generated/{path}"))).unwrap();
    project.edit(&format!("generated/{path}"), |text| format!("{text}pub fn backdoor() {{}}\n"));
    let (written, _, _, parsed) = project.generate();
    assert_eq!(parsed, 2, "not the fast path");
    assert_eq!(written, [path]);
    assert_eq!(fs::read_to_string(project.path(&format!("generated/{path}"))).unwrap(), printed);
    // A file removed, and one added beside the output's: the same.
    fs::remove_file(project.path("generated/client/src/pets.rs")).unwrap();
    assert_eq!(project.generate().0, ["client/src/pets.rs"]);
    fs::write(project.path("generated/types/src/extra.rs"), "pub fn extra() {}\n").unwrap();
    assert_eq!(project.generate().3, 2, "an extra file is no proof either");
}

#[test]
fn another_setting_or_full_takes_the_full_path() {
    let project = Project::new();
    project.generate();
    let (written, _, _, parsed) = project.generate_with(project.generator().regenerate_command("make api"));
    assert_eq!(parsed, 2);
    assert!(written.iter().any(|path| path == ".apigen-stamp"), "{written:?}");
    let (_, _, _, parsed) = project.generate_with(project.generator().regenerate_command("make api").full(true));
    assert_eq!(parsed, 2, "--full relies on nothing remembered");
    let allowed = project.generator().lint_levels(Levels::default());
    let (_, _, warnings, parsed) = project.generate_with(allowed);
    assert_eq!((parsed, warnings.as_str()), (2, ""), "lint levels are inputs too");
}

#[test]
fn an_entry_edited_outside_apigen_is_no_entry() {
    let project = Project::new();
    project.generate();
    let entries = cache_entries(&project);
    assert_eq!(entries.len(), 1, "{entries:?}");
    // The remembered warnings rewritten (not sealed again): the entry reads as none.
    let text = fs::read_to_string(&entries[0]).unwrap();
    assert!(text.contains("Leftover"), "{text}");
    fs::write(&entries[0], text.replace("Leftover", "Forged")).unwrap();
    let (_, _, warnings, parsed) = project.generate();
    assert_eq!(parsed, 2);
    assert!(warnings.contains("`Leftover`") && !warnings.contains("Forged"), "{warnings}");
}

/// The cache's entries (one per output directory), without its store of parsed trees.
fn cache_entries(project: &Project) -> Vec<PathBuf> {
    let entries = fs::read_dir(project.path("cache")).unwrap().map(|e| e.unwrap().path());
    entries.filter(|path| path.is_file()).collect()
}

/// What a `generate` did: the files written, and how many files it found unchanged without
/// building them, reused as printed and built.
fn generate_counted(generator: Generator) -> (Vec<String>, FilesDone) {
    let before = files_done();
    let written = generator.generate().unwrap().report.written;
    let after = files_done();
    let done = FilesDone {
        unchanged: after.unchanged - before.unchanged,
        reused: after.reused - before.reused,
        built: after.built - before.built,
    };
    (written, done)
}

/// Every file below `dir`, by relative path, with its bytes.
fn tree(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                files.insert(relative, fs::read(&path).unwrap());
            }
        }
    }
    files
}

/// The files of the library fixture (three groups) that read every operation: the crate
/// roots (with the client's root and samples modules, the server's root and mock modules, the
/// client's test against the mock), the manifests, `openapi.json`, the reference and the
/// marker.
const READ_EVERY_OPERATION: usize = 14;
/// The files of one of its groups: the client's module and samples, the server's module, mock
/// and routes.
const GROUP_FILES: usize = 5;

#[test]
fn an_edit_to_one_operation_builds_only_the_files_that_read_it() {
    let project = Project::fixture("library");
    let (written, first) = generate_counted(project.generator());
    let files = written.len() - 1; // The stamp is written, not built.
    assert_eq!(first, FilesDone { unchanged: 0, reused: 0, built: files }, "the first run builds every file");
    project.edit("spec/books.yaml", |text| text.replacen("summary: Get a book.", "summary: Get one book.", 1));
    let (written, done) = generate_counted(project.generator());
    let run = READ_EVERY_OPERATION + GROUP_FILES;
    assert_eq!(
        (done.unchanged, done.reused + done.built),
        (files - run, run),
        "the books group's files and those reading every operation are made, no other: {done:?}, {written:?}"
    );
    // Of those, the Rust files whose tokens did not change are taken as printed.
    assert_eq!(done.built, 8, "the text files, the group's two modules: {done:?}");
    for changed in ["client/src/books.rs", "server/src/books.rs", "openapi.json", "REFERENCE.md"] {
        assert!(written.iter().any(|path| path == changed), "{changed} not written: {written:?}");
    }
    assert!(!written.iter().any(|path| path.contains("shelves") || path.contains("loans")), "{written:?}");
    assert!(project.generator().check().unwrap().drift.is_clean());
}

#[test]
fn an_edit_to_one_operation_builds_one_fragment_of_openapi_json() {
    let project = Project::fixture("library");
    let before = fragments_done();
    project.generate();
    let first = fragments_done();
    assert_eq!(first.taken - before.taken, 0, "nothing to take on the first run");
    let fragments = first.built - before.built;
    project.edit("spec/books.yaml", |text| text.replacen("summary: Get a book.", "summary: Get one book.", 1));
    project.generate();
    let after = fragments_done();
    assert_eq!(
        (after.taken - first.taken, after.built - first.built),
        (fragments - 1, 1),
        "the edited operation's path is built, every other path and schema taken from the earlier openapi.json"
    );
    let scratch = tempfile::tempdir().unwrap();
    project.generator().out(scratch.path().join("out")).cache(CacheDir::none()).generate().unwrap();
    let (incremental, fresh) = (tree(&project.path("generated")), tree(&scratch.path().join("out")));
    assert!(incremental["openapi.json"] == fresh["openapi.json"], "the bytes of an empty cache");
    // openapi.json edited by hand (its fragments' text no longer what the cache remembers),
    // then the spec edited again: no fragment is taken from it.
    project.edit("generated/openapi.json", |text| text.replacen("\"openapi\"", "\"x-forged\": 1,\n  \"openapi\"", 1));
    project.edit("spec/books.yaml", |text| text.replacen("summary: Get one book.", "summary: Get a book.", 1));
    let before = fragments_done();
    project.generate();
    let last = fragments_done();
    assert_eq!((last.taken - before.taken, last.built - before.built), (0, fragments), "every fragment built again");
    assert!(project.generator().check().unwrap().drift.is_clean());
}

#[test]
fn a_file_edited_by_hand_is_restored_though_its_inputs_are_unchanged() {
    let project = Project::fixture("library");
    project.generate();
    let path = "generated/server/src/shelves.rs";
    let printed = fs::read_to_string(project.path(path)).unwrap();
    project.edit(path, |text| format!("{text}pub fn backdoor() {{}}\n"));
    // The spec changes too, elsewhere: the run takes the path that skips unchanged files.
    project.edit("spec/books.yaml", |text| text.replacen("summary: Get a book.", "summary: Get one book.", 1));
    let (written, done) = generate_counted(project.generator());
    assert_eq!(done.reused + done.built, READ_EVERY_OPERATION + GROUP_FILES + 1, "the edited file is made again");
    assert!(written.iter().any(|p| p == "server/src/shelves.rs"), "{written:?}");
    assert_eq!(fs::read_to_string(project.path(path)).unwrap(), printed);
}

/// An edit: what it does, the spec file it edits, and how.
type Edit = (&'static str, &'static str, fn(String) -> String);

/// Generates `project` after each edit (through the cache), and from an empty cache into an
/// empty directory: the same bytes, file for file, after every edit.
fn same_bytes_as_from_scratch(project: &Project, edits: &[Edit]) {
    for (what, file, edit) in edits {
        project.edit(file, edit);
        let (_, done) = generate_counted(project.generator());
        let scratch = tempfile::tempdir().unwrap();
        project.generator().out(scratch.path().join("out")).cache(CacheDir::none()).generate().unwrap();
        let (incremental, fresh) = (tree(&project.path("generated")), tree(&scratch.path().join("out")));
        assert_eq!(
            incremental.keys().collect::<Vec<_>>(),
            fresh.keys().collect::<Vec<_>>(),
            "after {what}: the same files"
        );
        for (path, bytes) in &fresh {
            assert!(incremental[path] == *bytes, "after {what}: {path} differs from a run from an empty cache");
        }
        // The types are read by every file: an edit of one makes every file again.
        if !what.contains("type") {
            assert!(done.unchanged > 0, "after {what}: nothing skipped ({done:?})");
        }
    }
}

#[test]
fn a_sequence_of_edits_gives_the_bytes_of_an_empty_cache() {
    let project = Project::fixture("library");
    project.generate();
    same_bytes_as_from_scratch(
        &project,
        &[
            ("a summary changed", "spec/books.yaml", |t| {
                t.replacen("summary: Get a book.", "summary: Get one book.", 1)
            }),
            ("an operation added", "spec/loans.yaml", |t| {
                t.replacen(
                    "operations:\n",
                    "operations:\n  getLoan:\n    method: GET\n    path: /loans/{loanId}\n    summary: Get a loan.\n    \
                     params:\n      - { name: loanId, in: path, type: string, description: Id of the loan., sample: loan_1 }\n    \
                     response: { status: 200, type: Loan }\n",
                    1,
                )
            }),
            ("an operation removed", "spec/shelves.yaml", |t| {
                let start = t.find("  getShelf:").unwrap();
                format!(
                    "{}{}",
                    &t[..start],
                    &t[start..].split_once("response: { status: 200, type: Shelf }\n").unwrap().1
                )
            }),
            ("a type renamed", "spec/loans.yaml", |t| {
                t.replace("Loan:\n", "Lending:\n")
                    .replace("type: Loan ", "type: Lending ")
                    .replace("items: Loan ", "items: Lending ")
            }),
            ("a shared type changed", "spec/common.yaml", |t| {
                t.replacen("name: { type: string, min_length: 1,", "name: { type: string, min_length: 2,", 1)
            }),
        ],
    );
}

#[test]
fn a_stale_entry_put_back_yields_the_bytes_of_an_empty_cache() {
    let project = Project::fixture("library");
    project.generate();
    let entries = cache_entries(&project);
    assert_eq!(entries.len(), 1, "{entries:?}");
    let old_entry = fs::read(&entries[0]).unwrap();
    let old_output = tree(&project.path("generated"));
    project.edit("spec/books.yaml", |text| text.replacen("summary: Get a book.", "summary: Get one book.", 1));
    project.generate();
    // The entry of the run before the edit, under this machine's seal, and the output of that
    // run put back file for file: the entry now vouches for the old bytes, the spec says
    // otherwise.
    fs::write(&entries[0], old_entry).unwrap();
    for (path, bytes) in &old_output {
        fs::write(project.path("generated").join(path), bytes).unwrap();
    }
    project.generate();
    assert!(project.generator().check().unwrap().drift.is_clean(), "the edit is in the output again");
    // An entry naming other keys, not sealed again: no entry, every file built.
    let text = fs::read_to_string(&entries[0]).unwrap();
    let forged: String = text.lines().map(|line| format!("{}\n", line.replace("key = \"", "key = \"0"))).collect();
    fs::write(&entries[0], forged).unwrap();
    project.edit("spec/books.yaml", |text| text.replacen("summary: Get one book.", "summary: Get a book.", 1));
    let (written, done) = generate_counted(project.generator());
    assert_eq!((done.unchanged, done.reused), (0, 0), "{done:?}");
    assert!(written.iter().any(|path| path == "client/src/books.rs"), "{written:?}");
    assert!(project.generator().check().unwrap().drift.is_clean());
}

/// The trees of parsed spec files the project's cache holds.
fn trees(project: &Project) -> Vec<PathBuf> {
    let mut trees: Vec<PathBuf> =
        fs::read_dir(project.path("cache/trees")).unwrap().map(|e| e.unwrap().path()).collect();
    trees.sort();
    trees
}

/// `generate` as it ends: its warnings or its errors rendered.
fn rendered(generator: Generator) -> String {
    match generator.generate() {
        Ok(generated) => generated.warnings.render(),
        Err(failure) => failure.to_string(),
    }
}

#[test]
fn a_broken_spec_lists_every_problem_with_its_line_in_files_not_parsed_again() {
    let project = Project::fixture("library");
    project.generate();
    // `Author`, which books.yaml names, removed from common.yaml, and books.yaml not edited:
    // its tree is taken from the cache, and its problems are located in its text.
    project.edit("spec/common.yaml", |t| {
        t.replacen(
            "  Author:\n    description: Who wrote a book.\n    fields:\n",
            "  Writer:\n    description: Who wrote a book.\n    fields:\n",
            1,
        )
    });
    project.edit("spec/loans.yaml", |t| t.replacen("operations:\n", "operations:\n  brokenOp: { methd: GET }\n", 1));
    let before = files_parsed();
    let cached = rendered(project.generator());
    assert_eq!(files_parsed() - before, 2, "the two files edited are parsed, no other");
    let fresh = rendered(project.generator().cache(CacheDir::none()));
    assert_eq!(cached, fresh, "the same problems, at the same lines, as from an empty cache");
    assert!(cached.contains("books.yaml:8:"), "located in the file not parsed again: {cached}");
    assert!(cached.contains("unknown key `methd`") && cached.contains("loans.yaml:"), "{cached}");
}

#[test]
fn a_tree_edited_or_renamed_in_the_cache_is_no_tree() {
    let project = Project::fixture("library");
    let before = files_parsed();
    project.generate();
    assert_eq!(files_parsed() - before, 5);
    let stored = trees(&project);
    assert_eq!(stored.len(), 5, "one tree per spec file: {stored:?}");
    // Each tree's last byte before its seal flipped (not sealed again), but one; that one copied
    // over another tree (sealed, but naming its own key inside).
    for tree in &stored[1..] {
        let mut bytes = fs::read(tree).unwrap();
        let at = bytes.len() - 9;
        bytes[at] ^= 1;
        fs::write(tree, bytes).unwrap();
    }
    fs::copy(&stored[0], &stored[1]).unwrap();
    // Another setting: not the fast path, so every spec file is read.
    let generator = || project.generator().regenerate_command("make api");
    let before = files_parsed();
    generator().generate().unwrap();
    assert_eq!(files_parsed() - before, 4, "only the intact tree is taken: the other four files are parsed");
    assert!(generator().check().unwrap().drift.is_clean());
    let scratch = tempfile::tempdir().unwrap();
    generator().out(scratch.path().join("out")).cache(CacheDir::none()).generate().unwrap();
    assert_eq!(tree(&project.path("generated")), tree(&scratch.path().join("out")), "the bytes of an empty cache");
}
