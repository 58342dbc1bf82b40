//! Determinism and the drift check: the same spec gives the same bytes wherever it lives, and
//! `check` finds every edited, missing and extra file.

use apigen::emit::{Options, Output};
use std::fs;
use std::path::Path;

/// Paths below are relative to the `tests` crate, where cargo runs these tests; the options
/// name the same places relative to the repository root, as `apigen` run from there would.
fn generate(spec: &str, out_from_root: &str) -> Output {
    let options = Options::new(Path::new(out_from_root), Path::new("runtime"));
    match apigen::generate(Path::new(spec), &options) {
        Ok((output, warnings)) => {
            assert!(warnings.is_empty(), "{spec}:\n{}", warnings.render());
            output
        }
        Err(diags) => panic!("{spec}:\n{}", diags.render()),
    }
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() { copy_dir(&path, &target) } else { fs::copy(&path, &target).map(|_| ()).unwrap() }
    }
}

#[test]
fn generating_twice_gives_the_same_bytes() {
    let first = generate("../spec", "generated");
    let second = generate("../spec", "generated");
    assert_eq!(first, second);
    assert!(first.files().len() > 10, "{:?}", first.files().keys());
}

#[test]
fn the_output_does_not_depend_on_where_the_spec_lives() {
    let copy = tempfile::tempdir().unwrap();
    copy_dir(Path::new("../spec"), &copy.path().join("nested/spec"));
    let here = generate("../spec", "generated");
    let there = generate(copy.path().join("nested/spec").to_str().unwrap(), "generated");
    assert_eq!(here, there, "an absolute path or a directory listing order leaked into the output");
    let absolute = copy.path().to_string_lossy().into_owned();
    for (path, contents) in here.files() {
        assert!(!contents.contains(&absolute), "{path} holds an absolute path");
    }
}

#[test]
fn the_checked_in_outputs_match_their_specs() {
    let cases = [
        ("../spec", "../generated", "generated"),
        ("fixtures/valid/petstore", "fixtures/generated/petstore", "tests/fixtures/generated/petstore"),
        ("fixtures/valid/traps", "fixtures/generated/traps", "tests/fixtures/generated/traps"),
    ];
    for (spec, dir, from_root) in cases {
        let drift = generate(spec, from_root).check(Path::new(dir)).unwrap();
        assert!(drift.is_clean(), "{dir} is stale; run apigen generate:\n{}", drift.render());
    }
}

#[test]
fn check_reports_an_edited_a_missing_and_an_extra_file_and_generate_repairs_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("generated");
    let output = generate("fixtures/valid/petstore", "generated");
    let report = output.write(&out).unwrap();
    assert_eq!(report.written.len(), output.files().len());
    assert!(output.check(&out).unwrap().is_clean());

    let edited = "types/src/pets.rs";
    let missing = "types/Cargo.toml";
    let original = fs::read_to_string(out.join(edited)).unwrap();
    fs::write(out.join(edited), original.replacen("pub struct Pet {", "pub struct Pet { // hand edit", 1)).unwrap();
    fs::remove_file(out.join(missing)).unwrap();
    fs::create_dir_all(out.join("types/src/extra")).unwrap();
    fs::write(out.join("types/src/extra/stale.rs"), "// left over\n").unwrap();

    let drift = output.check(&out).unwrap();
    assert_eq!(drift.changed.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(), [edited]);
    assert_eq!(drift.missing, [missing]);
    assert_eq!(drift.extra, ["types/src/extra/stale.rs"]);
    let rendered = drift.render();
    assert!(
        rendered.contains("--- a/types/src/pets.rs (on disk)\n+++ b/types/src/pets.rs (from the spec)"),
        "{rendered}"
    );
    assert!(rendered.contains("-pub struct Pet { // hand edit\n+pub struct Pet {\n"), "{rendered}");
    assert!(rendered.contains("missing: types/Cargo.toml"), "{rendered}");
    assert!(rendered.contains("extra: types/src/extra/stale.rs"), "{rendered}");
    assert!(
        rendered.ends_with("drift: 1 changed, 1 missing, 1 extra; run `cargo run -p apigen -- generate`\n"),
        "{rendered}"
    );

    let report = output.write(&out).unwrap();
    assert_eq!(report.written, [missing, edited]);
    assert_eq!(report.removed, ["types/src/extra/stale.rs"]);
    assert!(!out.join("types/src/extra").exists(), "the emptied directory is removed too");
    assert!(output.check(&out).unwrap().is_clean());
}

#[test]
fn an_unchanged_file_is_not_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let output = generate("fixtures/valid/petstore", "generated");
    output.write(dir.path()).unwrap();
    let path = dir.path().join("types/src/lib.rs");
    let before = fs::metadata(&path).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let report = output.write(dir.path()).unwrap();
    assert!(report.written.is_empty(), "{:?}", report.written);
    assert_eq!(report.unchanged, output.files().len());
    assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), before);
}

#[test]
fn generate_refuses_to_clean_a_directory_it_did_not_write() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("precious.txt"), "someone's work").unwrap();
    let error = generate("fixtures/valid/petstore", "generated").write(dir.path()).unwrap_err();
    assert!(error.to_string().starts_with("refusing to write into "), "{error}");
    assert!(dir.path().join("precious.txt").exists());
}
