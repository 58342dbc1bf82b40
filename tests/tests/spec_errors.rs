//! Every kind of broken spec gives its located diagnostics, exactly; a valid spec gives none.
//!
//! Each directory under `fixtures/broken/` is a spec with one kind of problem (often several
//! instances of it) and an `expected.txt` holding the exact rendered diagnostics.

use apigen_tests::{assert_all, snapshot, subdirs};
use std::path::Path;

#[test]
fn every_broken_fixture_reports_its_located_diagnostics() {
    let mut failures = Vec::new();
    let fixtures = subdirs(Path::new("fixtures/broken"));
    assert!(fixtures.len() >= 14, "fixtures missing: {fixtures:?}");
    for dir in fixtures {
        let rendered = match apigen::load(&dir) {
            Ok(_) => {
                failures.push(format!("{}: loaded without error", dir.display()));
                continue;
            }
            Err(diags) => diags.render(),
        };
        if let Err(diff) = snapshot(&dir.join("expected.txt"), &rendered) {
            failures.push(format!("{}:\n{diff}", dir.display()));
        }
    }
    assert_all(failures);
}

#[test]
fn the_valid_fixtures_load_without_any_diagnostic() {
    for dir in subdirs(Path::new("fixtures/valid")) {
        match apigen::load(&dir) {
            Ok((_, warnings)) => {
                // At the default levels (`unused-type` is allowed: the library declares
                // webhook payloads no operation uses).
                let warnings = warnings.leveled(&apigen::diag::Levels::default());
                assert!(warnings.is_empty(), "{}:\n{}", dir.display(), warnings.render())
            }
            Err(diags) => panic!("{}:\n{}", dir.display(), diags.render()),
        }
    }
}

#[test]
fn a_missing_spec_directory_is_an_error_not_a_panic() {
    let diags = apigen::load(Path::new("fixtures/does-not-exist")).expect_err("no spec there");
    assert!(
        diags.render().starts_with("error: fixtures/does-not-exist: cannot read the spec directory:"),
        "{}",
        diags.render()
    );
}

/// A spec directory in a temporary place holding a copy of the petstore fixture.
fn petstore_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in ["api.yaml", "pets.yaml"] {
        std::fs::copy(Path::new("fixtures/valid/petstore").join(name), dir.path().join(name)).unwrap();
    }
    dir
}

/// Loads `dir` and returns its rendered diagnostics with the directory shown as `SPEC`.
fn load_errors(dir: &Path) -> String {
    let diags = apigen::load(dir).expect_err("the spec must be refused");
    diags.render().replace(&dir.display().to_string(), "SPEC")
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_device_named_like_a_spec_file_is_refused_without_reading_it() {
    let dir = petstore_copy();
    let fifo = dir.path().join("fifo.yaml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.yaml")).unwrap();
    // Reading either would block forever or fill memory; the test finishing is the proof.
    assert_eq!(
        load_errors(dir.path()),
        "error: SPEC/fifo.yaml: not a regular file (a FIFO)\n  \
         hint: the spec directory holds regular .yaml files only\n\
         error: SPEC/zero.yaml: not a regular file (a character device)\n  \
         hint: the spec directory holds regular .yaml files only\n\
         2 error(s), 0 warning(s)\n"
    );
}

#[test]
fn an_oversized_spec_file_is_refused_before_it_is_read() {
    let dir = petstore_copy();
    let big = std::fs::File::create(dir.path().join("big.yaml")).unwrap();
    big.set_len(apigen::input::MAX_SPEC_FILE_BYTES + 1).unwrap(); // sparse: costs no disk
    assert_eq!(
        load_errors(dir.path()),
        "error: SPEC/big.yaml: the file is larger than 16 MiB\n  \
         hint: split the spec into several files, one per area\n\
         1 error(s), 0 warning(s)\n"
    );
}

#[test]
fn spec_files_holding_more_than_the_cap_together_are_refused_before_they_are_parsed() {
    let dir = petstore_copy();
    // Five files of 15 MiB of comments: each under the cap of a file, 75 MiB together.
    let comment = format!("# {}\n", "x".repeat(1022));
    let file = comment.repeat(15 * 1024);
    for n in 0..5 {
        std::fs::write(dir.path().join(format!("big{n}.yaml")), &file).unwrap();
    }
    let errors = load_errors(dir.path());
    assert!(errors.ends_with("together, more than 64 MiB\n  hint: a spec this large is a mistake: the largest public APIs need a quarter of it\n1 error(s), 0 warning(s)\n"), "{errors}");
}

#[test]
fn yaml_aliases_expanding_past_the_budget_are_refused_where_the_anchor_is() {
    let dir = petstore_copy();
    let mut text = String::from("x-lol: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..9 {
        text.push_str(&format!("x-lol{level}: &a{level} [{}]\n", vec![format!("*a{}", level - 1); 10].join(", ")));
    }
    std::fs::write(dir.path().join("laughs.yaml"), text).unwrap();
    let errors = load_errors(dir.path());
    // Located at the node being expanded (the last `lol` of the first anchor), with its path.
    assert!(
        errors.starts_with("error: SPEC/laughs.yaml:1:48: x-lol4[0][")
            && errors.contains("the YAML expands past its budget through aliases (`*name`) (more than ")
            && errors.ends_with(
                "  hint: write the repeated parts once as named types or shared parameters\n1 error(s), 0 warning(s)\n"
            ),
        "{errors}"
    );
}

#[cfg(unix)]
#[test]
fn symbolic_links_to_directories_are_named_and_not_followed_so_a_loop_cannot_hang_the_loader() {
    let dir = petstore_copy();
    std::os::unix::fs::symlink(".", dir.path().join("again")).unwrap();
    std::os::unix::fs::symlink("..", dir.path().join("up")).unwrap();
    let (api, warnings) = apigen::load(dir.path()).unwrap_or_else(|d| panic!("{}", d.render()));
    assert_eq!(api.operations.len(), 6, "each file is read once");
    // Each link not followed is named, so files missing from the spec do not go unnoticed.
    assert_eq!(
        warnings.render().replace(&dir.path().display().to_string(), "SPEC"),
        "warning: SPEC/again: a link to a directory: not followed, so no file in it is read\n  \
         hint: move the directory into the spec directory, or link each file\n\
         warning: SPEC/up: a link to a directory: not followed, so no file in it is read\n  \
         hint: move the directory into the spec directory, or link each file\n\
         0 error(s), 2 warning(s)\n"
    );
}
