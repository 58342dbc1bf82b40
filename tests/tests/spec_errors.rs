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
            Ok((_, warnings)) => assert!(warnings.is_empty(), "{}:\n{}", dir.display(), warnings.render()),
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
