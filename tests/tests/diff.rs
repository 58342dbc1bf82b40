//! `apigen diff`: every fixture case edits a copy of `fixtures/diff/base` and compares the
//! classification with `fixtures/diff/cases/NAME.expected`; the two properties check that a
//! spec diffed with itself, or with a reformatted copy of itself, reports nothing.
//!
//! A case file (`NAME.edit`) is a list of edits in the format of `apigen_tests::edits`.

use apigen::diff::{self, render};
use apigen::model::Api;
use apigen_tests::edits::{apply, parse as parse_edits};
use apigen_tests::snapshot;
use std::fs;
use std::path::{Path, PathBuf};

const BASE: &str = "fixtures/diff/base";
const CASES: &str = "fixtures/diff/cases";

fn try_load(dir: &Path) -> Result<Api, String> {
    apigen::load(dir).map(|(api, _warnings)| api).map_err(|diags| format!("{}:\n{}", dir.display(), diags.render()))
}

fn load(dir: &Path) -> Api {
    try_load(dir).unwrap_or_else(|e| panic!("{e}"))
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
    }
}

/// The rendered diff of the base with the case applied, with the temporary directory removed
/// from locations so they read `old/pets.yaml:3:3`.
fn run_case(case: &Path) -> Result<String, String> {
    let temp = tempfile::tempdir().unwrap();
    let (old, new) = (temp.path().join("old"), temp.path().join("new"));
    copy_dir(Path::new(BASE), &old);
    copy_dir(Path::new(BASE), &new);
    apply(&parse_edits(&fs::read_to_string(case).unwrap()), &new)?;
    let (old_api, new_api) = (try_load(&old)?, try_load(&new)?);
    assert!(diff::diff(&new_api, &new_api).is_empty(), "{}: the edited spec differs from itself", case.display());
    let changes = diff::diff(&old_api, &new_api);
    let prefix = format!("{}/", temp.path().display());
    Ok(render::text(&changes).replace(&prefix, ""))
}

fn cases() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(CASES)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "edit"))
        .collect();
    found.sort();
    found
}

#[test]
fn every_case_is_classified_exactly_as_expected() {
    let cases = cases();
    assert!(cases.len() >= 30, "only {} cases", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let result = run_case(case).and_then(|text| snapshot(&case.with_extension("expected"), &text));
            result.err().map(|e| format!("{}: {e}", case.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_spec_diffed_with_itself_reports_nothing() {
    for dir in [BASE, "../spec", "fixtures/valid/petstore", "fixtures/valid/traps"] {
        let api = load(Path::new(dir));
        let changes = diff::diff(&api, &api);
        assert!(changes.is_empty(), "{dir}:\n{}", render::text(&changes));
        assert_eq!(diff::bump(&changes), diff::Bump::None);
    }
}

#[test]
fn a_reformatted_copy_reports_nothing() {
    // Same spec: files split differently, keys reordered, flow YAML written as block and back.
    let (base, reformatted) = (load(Path::new(BASE)), load(Path::new("fixtures/diff/reformatted")));
    for (old, new) in [(&base, &reformatted), (&reformatted, &base)] {
        let changes = diff::diff(old, new);
        assert!(changes.is_empty(), "{}", render::text(&changes));
    }
}

#[test]
fn json_output_carries_every_change_and_the_bump() {
    let temp = tempfile::tempdir().unwrap();
    let new = temp.path().join("new");
    copy_dir(Path::new(BASE), &new);
    apply(&parse_edits("@ pets.yaml\n- enum: [small, large]\n+ enum: [small]\n"), &new).unwrap();
    let changes = diff::diff(&load(Path::new(BASE)), &load(&new));
    let json: serde_json::Value = serde_json::from_str(&render::json(&changes)).unwrap();
    assert_eq!(json["summary"]["bump"], "major");
    assert_eq!(json["summary"]["total"], 1);
    assert_eq!(json["changes"][0]["kind"], "enum-value-removed");
    assert_eq!(json["changes"][0]["callers"], "breaking");
    assert_eq!(json["changes"][0]["implementers"], "breaking");
    assert_eq!(json["changes"][0]["old"], "fixtures/diff/base/pets.yaml:20:3: types.Size");
    assert!(diff::is_breaking(&changes));
}

/// The oauth fixture and a copy with `edits` (text replaced in its files) applied: every
/// change as `kind callers/implementers`.
fn oauth_changes(edits: &[(&str, &str, &str)]) -> Vec<String> {
    let temp = tempfile::tempdir().unwrap();
    let new = temp.path().join("new");
    copy_dir(Path::new("fixtures/valid/oauth"), &new);
    for (file, from, to) in edits {
        let text = fs::read_to_string(new.join(file)).unwrap();
        assert!(text.contains(from), "{file} has no {from:?}");
        fs::write(new.join(file), text.replacen(from, to, 1)).unwrap();
    }
    let (old_api, new_api) = (load(Path::new("fixtures/valid/oauth")), load(&new));
    let changes = diff::diff(&old_api, &new_api);
    changes.iter().map(|c| format!("{} {} {:?}/{:?}", c.subject, c.kind, c.callers, c.implementers)).collect()
}

#[test]
fn scopes_required_more_break_callers_and_scopes_dropped_or_alternatives_added_do_not() {
    let added = oauth_changes(&[(
        "secrets.yaml",
        "auth: { vault: [secrets:write] }",
        "auth: { vault: [secrets:write, admin] }",
    )]);
    assert_eq!(added, ["operation putSecret auth-scope-added Breaking/Breaking"]);
    let dropped = oauth_changes(&[("secrets.yaml", "[secrets:read, secrets:write]", "[secrets:write]")]);
    assert_eq!(dropped, ["operation rotateSecret auth-scope-removed Safe/Breaking"]);
    let alternative = oauth_changes(&[(
        "secrets.yaml",
        "auth: { vault: [secrets:write] }",
        "auth: [{ vault: [secrets:write] }, { vault: admin }]",
    )]);
    assert_eq!(alternative, ["operation putSecret auth-scheme-added Safe/Breaking"]);
    // How a client gets its token is not how it sends it.
    let flows = oauth_changes(&[("api.yaml", "oauth/refresh", "oauth/renew")]);
    assert_eq!(flows, ["auth scheme vault auth-scheme-flows-changed Safe/Safe"]);
}

#[test]
fn a_raw_body_replaced_by_a_typed_one_and_back_breaks_callers_and_implementers_both_ways() {
    let temp = tempfile::tempdir().unwrap();
    let raw = temp.path().join("raw");
    copy_dir(Path::new(BASE), &raw);
    apply(&parse_edits(&fs::read_to_string(format!("{CASES}/body-typed-to-raw.edit")).unwrap()), &raw).unwrap();
    let (typed, raw) = (load(Path::new(BASE)), load(&raw));
    let kinds = |changes: &[diff::Change]| -> Vec<String> {
        changes.iter().map(|c| format!("{} {:?}/{:?}: {}", c.kind, c.callers, c.implementers, c.reason)).collect()
    };
    let to_raw = kinds(&diff::diff(&typed, &raw));
    assert!(
        to_raw.contains(&"body-type-changed Breaking/Breaking: request body `TagPetBody` becomes `string`".to_owned()),
        "{to_raw:?}"
    );
    let to_typed = kinds(&diff::diff(&raw, &typed));
    assert!(
        to_typed
            .contains(&"body-type-changed Breaking/Breaking: request body `string` becomes `TagPetBody`".to_owned()),
        "{to_typed:?}"
    );
}

/// The errstatus fixture and a copy with `edits` applied: every change as `subject kind
/// callers/implementers`.
fn errstatus_changes(edits: &[(&str, &str, &str)]) -> Vec<String> {
    let temp = tempfile::tempdir().unwrap();
    let new = temp.path().join("new");
    copy_dir(Path::new("fixtures/valid/errstatus"), &new);
    for (file, from, to) in edits {
        let text = fs::read_to_string(new.join(file)).unwrap();
        assert!(text.contains(from), "{file} has no {from:?}");
        fs::write(new.join(file), text.replacen(from, to, 1)).unwrap();
    }
    let (old_api, new_api) = (load(Path::new("fixtures/valid/errstatus")), load(&new));
    let changes = diff::diff(&old_api, &new_api);
    changes.iter().map(|c| format!("{} {} {:?}/{:?}", c.subject, c.kind, c.callers, c.implementers)).collect()
}

#[test]
fn an_error_body_of_a_status_moved_or_dropped_breaks_callers_and_one_added_only_them() {
    let moved = errstatus_changes(&[("api.yaml", "message: /error_description, fill", "fill")]);
    assert_eq!(moved, ["error body ErrorBody401 error-body-changed Breaking/Breaking"]);
    let dropped = errstatus_changes(&[(
        "api.yaml",
        "      ErrorBody404: { media_type: application/json, fill: [/error, /errorDescription] }\n",
        "",
    )]);
    assert_eq!(dropped, ["error body ErrorBody404 error-body-removed Breaking/Breaking"]);
    // The default body untouched: only the bodies count.
    assert!(errstatus_changes(&[]).is_empty());
}

#[test]
fn an_alternative_of_a_body_removed_or_retyped_breaks_callers_and_implementers() {
    // The reqmedia fixture's raw-bytes alternative of `importItems` removed, and its XML one
    // retyped as bytes.
    let temp = tempfile::tempdir().unwrap();
    let (old, new) = (temp.path().join("old"), temp.path().join("new"));
    copy_dir(Path::new("fixtures/valid/reqmedia"), &old);
    copy_dir(Path::new("fixtures/valid/reqmedia"), &new);
    let orders = fs::read_to_string(new.join("orders.yaml")).unwrap();
    let edited = orders
        .replace(
            "      alternatives:\n        - type: bytes\n          media_type: application/octet-stream\n          description: The items as an export file.\n",
            "",
        )
        .replace("        - type: string\n          media_type: [application/xml, text/xml]", "        - type: bytes\n          media_type: [application/xml, text/xml]");
    assert_ne!(edited, orders);
    fs::write(new.join("orders.yaml"), edited).unwrap();
    let changes = diff::diff(&load(&old), &load(&new));
    let text = render::text(&changes).replace(&format!("{}/", temp.path().display()), "");
    assert!(
        text.contains("breaking callers, breaking implementers  operation placeOrder: body-alternative-type-changed"),
        "{text}"
    );
    assert!(text.contains("why: the body's `ApplicationXml` alternative `string` becomes `bytes`"), "{text}");
    assert!(
        text.contains("breaking callers, breaking implementers  operation importItems: body-alternative-removed"),
        "{text}"
    );
    assert!(
        text.contains("why: the body is no longer taken as application/octet-stream (`ApplicationOctetStream`); callers sending it get 415"),
        "{text}"
    );
}
