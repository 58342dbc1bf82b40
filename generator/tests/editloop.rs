//! The edit loop (issue 52, item 1): `generate` with nothing changed stops after hashing the
//! spec's files and the output, parsing no spec file and repeating the last run's warnings; a
//! one-byte edit of a spec file, an output file edited by hand, another setting or an entry
//! not under the cache's seal each take the full path, which restores the output.

use apigen::diag::{Level, Levels, Lint};
use apigen::load::files_parsed;
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
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/valid/petstore");
        fs::create_dir_all(dir.path().join("spec")).unwrap();
        for entry in fs::read_dir(fixture).unwrap() {
            let path = entry.unwrap().path();
            fs::copy(&path, dir.path().join("spec").join(path.file_name().unwrap())).unwrap();
        }
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
    /// how many spec files it parsed.
    fn generate_with(&self, generator: Generator) -> (Vec<String>, usize, String, usize) {
        let before = files_parsed();
        let generated = generator.generate().unwrap();
        (generated.report.written, generated.report.unchanged, generated.warnings.render(), files_parsed() - before)
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
    let (written, _, warnings, parsed) = project.generate();
    assert_eq!(parsed, 2, "the first run parses both spec files");
    assert!(warnings.contains("type `Leftover` is taken or answered by no operation"), "{warnings}");
    let (again, unchanged, repeated, parsed) = project.generate();
    assert_eq!(parsed, 0, "no spec file parsed");
    assert!(again.is_empty(), "{again:?}");
    assert_eq!(unchanged, written.len());
    assert_eq!(repeated, warnings, "the same warnings, rendered the same");
    // `check` prints and compares every file: it reads the spec whatever the cache says.
    let before = files_parsed();
    assert!(project.generator().check().unwrap().drift.is_clean());
    assert_eq!(files_parsed() - before, 2);
}

#[test]
fn a_one_byte_edit_of_a_spec_file_is_noticed() {
    let project = Project::new();
    project.generate();
    project.edit("spec/pets.yaml", |text| text.replacen("summary: Get a pet.", "summary: Get a pet!", 1));
    let (written, _, _, parsed) = project.generate();
    assert_eq!(parsed, 2);
    assert!(written.iter().any(|path| path == "client/src/pets.rs"), "{written:?}");
    let client = fs::read_to_string(project.path("generated/client/src/pets.rs")).unwrap();
    assert!(client.contains("Get a pet!"));
    assert!(project.generator().check().unwrap().drift.is_clean());
    assert_eq!(project.generate().3, 0, "the edit is remembered: the next run parses nothing");
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
    let entries: Vec<PathBuf> = fs::read_dir(project.path("cache")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    // The remembered warnings rewritten (not sealed again): the entry reads as none.
    let text = fs::read_to_string(&entries[0]).unwrap();
    assert!(text.contains("Leftover"), "{text}");
    fs::write(&entries[0], text.replace("Leftover", "Forged")).unwrap();
    let (_, _, warnings, parsed) = project.generate();
    assert_eq!(parsed, 2);
    assert!(warnings.contains("`Leftover`") && !warnings.contains("Forged"), "{warnings}");
}
