//! The `apigen` command as a user runs it: exit codes and what it prints.

use std::path::Path;
use std::process::{Command, Output};

/// Runs apigen from the repository root, as the README says to.
fn apigen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_apigen"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .env("APIGEN_CACHE_DIR", Path::new(env!("CARGO_TARGET_TMPDIR")).join("apigen-cache"))
        .output()
        .expect("apigen runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn lint_is_clean_on_the_spec_and_fails_on_a_broken_one() {
    let ok = apigen(&["lint"]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    assert!(stdout(&ok).starts_with("ok: 145 operations, "), "{}", stdout(&ok));
    assert_eq!(stderr(&ok), "", "the spec has no warning");

    let broken = apigen(&["lint", "--spec", "tests/fixtures/broken/path-params"]);
    assert_eq!(broken.status.code(), Some(1));
    assert!(stderr(&broken).contains("tests/fixtures/broken/path-params/things.yaml:5:5: operations.undeclared.path: path parameter `partId` of `undeclared` is not declared"), "{}", stderr(&broken));
    assert!(stderr(&broken).ends_with("5 error(s), 0 warning(s)\n"), "{}", stderr(&broken));
}

#[test]
fn list_prints_operations_sorted_by_path_then_method() {
    let output = apigen(&["list", "--spec", "tests/fixtures/valid/petstore"]);
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "GET    /v2/health health\nGET    /v2/pets listPets\nDELETE /v2/pets/{petId} deletePet\nGET    /v2/pets/{petId} getPet\nPATCH  /v2/pets/{petId} updatePet\nPUT    /v2/pets/{petId} putPet\n"
    );
}

#[test]
fn list_types_prints_one_line_per_type() {
    let output = apigen(&["list", "--types", "--spec", "tests/fixtures/valid/petstore"]);
    assert_eq!(
        stdout(&output),
        "object Health (1 fields)\nobject Owner (2 fields)\nobject Pet (7 fields)\nenum   PetKind (open: cat, dog)\nobject PutPetBody (2 fields)\nobject UpdatePetBody (2 fields)\n"
    );
}

#[test]
fn gaps_prints_each_gap_with_its_decision_and_users() {
    let output = apigen(&["gaps", "--spec", "tests/fixtures/valid/petstore"]);
    assert_eq!(
        stdout(&output),
        "pet-kinds (Pet store notes)\n  gap:      Kinds of pet other than cats and dogs are not shown.\n  decision: The kind is an open enumeration.\n  used by:  type `PetKind`\n1 gap\n"
    );
}

#[test]
fn check_passes_on_the_repository_and_fails_with_a_diff_on_drift() {
    let ok = apigen(&["check"]);
    assert!(ok.status.success(), "{}{}", stdout(&ok), stderr(&ok));

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let spec = "tests/fixtures/valid/petstore";
    assert!(apigen(&["generate", "--spec", spec, "--out", out]).status.success());
    std::fs::write(dir.path().join("types/src/lib.rs"), "// edited\n").unwrap();
    let drift = apigen(&["check", "--spec", spec, "--out", out]);
    assert_eq!(drift.status.code(), Some(1));
    assert!(stdout(&drift).contains("-// edited\n"), "{}", stdout(&drift));
    assert!(stdout(&drift).ends_with("drift: 1 changed, 0 missing, 0 extra; run `cargo run -p apigen -- generate`\n"));
}

#[test]
fn import_writes_the_spec_where_spec_says_even_beside_out() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let spec = dir.path().join("spec");
    let out = dir.path().join("generated");
    let output = apigen(&[
        "import",
        "tests/fixtures/directory/quarantine.country.json",
        "--spec",
        spec.to_str().expect("UTF-8 path"),
        "--out",
        out.to_str().expect("UTF-8 path"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(spec.join("api.yaml").is_file(), "the spec is written under --spec");
    assert!(!out.exists(), "nothing is written under --out: generate writes there");
}

/// Runs apigen in `dir`.
fn apigen_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_apigen"))
        .args(args)
        .current_dir(dir)
        .env("APIGEN_CACHE_DIR", "")
        .output()
        .expect("apigen runs")
}

/// A spec whose type `Thing` has `fields` fields without a description, and a type `Spare`
/// no operation uses.
fn undescribed(dir: &Path, fields: usize) {
    let spec = dir.join("spec");
    std::fs::create_dir_all(&spec).unwrap();
    std::fs::write(
        spec.join("api.yaml"),
        "api: { name: t, title: T, version: \"1\" }\ntags: { things: { title: Things } }\n",
    )
    .unwrap();
    let mut text = String::from("tag: things\ntypes:\n  Thing:\n    description: A thing.\n    fields:\n");
    for i in 0..fields {
        text.push_str(&format!("      f{i}: {{ type: string }}\n"));
    }
    text.push_str("  Spare:\n    description: Unused.\n    fields:\n      x: { type: string, description: X. }\n");
    text.push_str("operations:\n  getThing:\n    method: GET\n    path: /thing\n    summary: Get it.\n    response: { status: 200, type: Thing }\n");
    std::fs::write(spec.join("things.yaml"), text).unwrap();
}

#[test]
fn warnings_of_a_crowded_class_are_summarised_unless_verbose_and_lint_levels_apply() {
    let dir = tempfile::tempdir().unwrap();
    undescribed(dir.path(), 11);
    let summarised = apigen_in(dir.path(), &["lint"]);
    assert!(summarised.status.success());
    assert_eq!(
        stderr(&summarised),
        "warning: 11 missing-description warnings, the first at spec/things.yaml:6:7: types.Thing.fields.f0; \
         spec/things.yaml:7:7: types.Thing.fields.f1; spec/things.yaml:8:7: types.Thing.fields.f2, ...\n  \
         hint: `--verbose` lists them all; `missing-description = \"allow\"` under [lint] in apigen.toml silences them\n\
         0 error(s), 11 warning(s)\n"
    );
    let verbose = apigen_in(dir.path(), &["lint", "--verbose"]);
    let lines: Vec<&str> = std::str::from_utf8(&verbose.stderr).unwrap().lines().collect();
    assert_eq!(lines.len(), 12, "{lines:?}");
    assert_eq!(
        lines[10],
        "warning: spec/things.yaml:16:7: types.Thing.fields.f10: field `Thing.f10` has no description"
    );

    // Levels: descriptions allowed, unused types denied (an error, never summarised).
    std::fs::write(dir.path().join("apigen.toml"), "[lint]\nmissing-description = \"allow\"\nunused-type = \"deny\"\n")
        .unwrap();
    let denied = apigen_in(dir.path(), &["lint"]);
    assert_eq!(denied.status.code(), Some(1));
    assert_eq!(
        stderr(&denied),
        "error: spec/things.yaml:17:3: types.Spare: type `Spare` is taken or answered by no operation\n  hint: remove it, \
         or allow `unused-type` under [lint] in apigen.toml if it is there for users of the types (denied by \
         `unused-type = \"deny\"` in [lint] of apigen.toml)\n1 error(s), 0 warning(s)\n"
    );
    std::fs::write(dir.path().join("apigen.toml"), "[lint]\nmissing-description = \"allow\"\n").unwrap();
    let quiet = apigen_in(dir.path(), &["lint"]);
    assert!(quiet.status.success());
    assert_eq!((stderr(&quiet).as_str(), stdout(&quiet).as_str()), ("", "ok: 1 operation, 2 types, 0 gaps\n"));
}

#[test]
fn schema_prints_the_json_schema_that_init_and_import_name_in_every_spec_file() {
    let printed = apigen(&["schema"]);
    assert_eq!(stdout(&printed), apigen::load::SCHEMA);
    let home = tempfile::tempdir().unwrap();
    assert!(apigen_in(home.path(), &["init", "acme", "--spec", "api/v1"]).status.success());
    let dir = home.path().join("acme");
    assert_eq!(std::fs::read_to_string(dir.join("apigen-spec.schema.json")).unwrap(), apigen::load::SCHEMA);
    for file in ["api.yaml", "notes.yaml"] {
        let text = std::fs::read_to_string(dir.join("api/v1").join(file)).unwrap();
        assert!(text.starts_with("# yaml-language-server: $schema=../../apigen-spec.schema.json\n"), "{text}");
    }
    // An import into the repository names it too, from a subdirectory as well.
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/openapi/petstore-3.0.json");
    let imported = apigen_in(&dir.join("api"), &["import", doc.to_str().unwrap(), "--spec", "v1", "--replace"]);
    assert!(imported.status.success(), "{}", stderr(&imported));
    let text = std::fs::read_to_string(dir.join("api/v1/pets.yaml")).unwrap();
    assert!(text.starts_with("# yaml-language-server: $schema=../../apigen-spec.schema.json\n"), "{text}");
    assert!(stdout(&imported).ends_with("next: apigen generate --spec v1   (apigen gaps lists every gap)\n"));
    // Without a repository: no schema to name, and the way to start one.
    let bare = apigen_in(home.path(), &["import", doc.to_str().unwrap(), "--spec", "spec"]);
    let text = std::fs::read_to_string(home.path().join("spec/pets.yaml")).unwrap();
    assert!(!text.starts_with("# yaml-language-server"), "{text}");
    assert!(
        stdout(&bare).ends_with(&format!(
            "next: this directory has no apigen.toml; to generate crates that build, start a repository with \
             `apigen init --from {}` instead\n",
            doc.display()
        )),
        "{}",
        stdout(&bare)
    );
}

#[test]
fn an_import_keeps_the_documents_extensions_and_the_export_writes_them_back() {
    let dir = tempfile::tempdir().unwrap();
    let document = serde_json::json!({
        "openapi": "3.0.3",
        "info": { "title": "Tiny", "version": "1", "x-logo": { "url": "logo.png" }, "x-api-name": "ignored" },
        "x-tagGroups": [{ "name": "All", "tags": ["things"] }],
        "paths": { "/things": { "get": { "operationId": "listThings", "tags": ["things"],
            "responses": { "200": { "description": "ok", "content": { "application/json": { "schema": { "type": "string" } } } } } } } }
    });
    std::fs::write(dir.path().join("tiny.json"), serde_json::to_string(&document).unwrap()).unwrap();
    let imported = apigen_in(dir.path(), &["import", "tiny.json", "--spec", "spec"]);
    assert!(imported.status.success(), "{}", stderr(&imported));
    let api = std::fs::read_to_string(dir.path().join("spec/api.yaml")).unwrap();
    assert!(
        api.contains(
            "  extensions:\n    x-tagGroups:\n      - { name: All, tags: [things] }\n    info.x-logo: { url: logo.png }\n"
        ),
        "{api}"
    );
    assert!(api.contains("  name: ignored\n"), "apigen's own export names the crates: {api}");
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime");
    let generated = apigen_in(dir.path(), &["generate", "--runtime", runtime.to_str().unwrap()]);
    assert!(generated.status.success(), "{}", stderr(&generated));
    let openapi: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("generated/openapi.json")).unwrap()).unwrap();
    assert_eq!(openapi["info"]["x-logo"], document["info"]["x-logo"]);
    assert_eq!(openapi["x-tagGroups"], document["x-tagGroups"]);

    // A key that is no extension, or one the export writes itself, is refused where it is.
    let edited = api.replace("    x-tagGroups:", "    info.x-api-name: a\n    tagGroups:");
    std::fs::write(dir.path().join("spec/api.yaml"), edited).unwrap();
    let refused = apigen_in(dir.path(), &["lint"]);
    let text = stderr(&refused);
    assert!(
        text.contains(
            "api.extensions.info.x-api-name: extension `info.x-api-name` is written by apigen's export itself"
        ),
        "{text}"
    );
    assert!(text.contains("api.extensions.tagGroups: extension `tagGroups` is not an OpenAPI extension"), "{text}");
}

#[test]
fn outside_a_project_each_command_names_init_and_apigen_toml() {
    // A new directory: no apigen.toml here or above (the temporary directory's parents are
    // outside the repository), no spec/.
    let dir = tempfile::tempdir().unwrap();
    for command in ["generate", "check", "lint"] {
        let output = Command::new(env!("CARGO_BIN_EXE_apigen"))
            .arg(command)
            .current_dir(dir.path())
            .env("APIGEN_CACHE_DIR", dir.path().join("cache"))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{command}");
        assert_eq!(
            stderr(&output),
            "error: spec: cannot read the spec directory: No such file or directory (os error 2)\n  hint: no spec \
             here: `apigen init` starts a project (apigen.toml, spec/), `apigen init --from DOC` imports an OpenAPI \
             document; or name the spec with --spec or `spec` in apigen.toml\n1 error(s), 0 warning(s)\n",
            "{command}"
        );
    }
}

#[test]
fn a_failure_debugs_as_the_cli_prints_it() {
    // `fn main() -> Result<(), Box<dyn Error>>` prints an error's Debug: a build script using
    // `?` shows the located diagnostics, as `apigen generate` prints them.
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/broken/path-params");
    let dir = tempfile::tempdir().unwrap();
    let failure = apigen::Generator::new().spec(&spec).out(dir.path().join("out")).generate().unwrap_err();
    let boxed: Box<dyn std::error::Error> = Box::new(failure);
    let shown = format!("{boxed:?}");
    assert_eq!(shown, boxed.to_string());
    assert!(shown.contains("things.yaml:5:5: operations.undeclared.path: path parameter `partId`"), "{shown}");
    assert!(shown.ends_with("5 error(s), 0 warning(s)\n"), "{shown}");
    let diagnostics = apigen::load(&spec).unwrap_err();
    assert_eq!(format!("{diagnostics:?}"), diagnostics.render());
}

#[test]
fn import_outside_a_project_without_out_writes_nothing_and_names_init_from() {
    let dir = tempfile::tempdir().unwrap();
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/generated/petstore/openapi.json");
    std::fs::copy(doc, dir.path().join("pets.json")).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_apigen"))
        .args(["import", "pets.json"])
        .current_dir(dir.path())
        .env("APIGEN_CACHE_DIR", dir.path().join("cache"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output),
        "error: no apigen.toml here or above, and no --spec: nothing was written\n  hint: `apigen init --from pets.json \
         [DIR]` starts a project from the document (apigen.toml, spec/, the runtime); `apigen import DOC --spec DIR` \
         writes only the spec files\n"
    );
    let left: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(left, ["pets.json"], "nothing written beside the document");
}

#[test]
fn import_in_a_project_writes_into_its_spec_directory_from_any_subdirectory() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("apigen.toml"), "spec = \"api-spec\"\n").unwrap();
    std::fs::create_dir(dir.path().join("docs")).unwrap();
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/generated/petstore/openapi.json");
    std::fs::copy(doc, dir.path().join("docs/pets.json")).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_apigen"))
        .args(["import", "pets.json"])
        .current_dir(dir.path().join("docs"))
        .env("APIGEN_CACHE_DIR", dir.path().join("cache"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(dir.path().join("api-spec/api.yaml").is_file());
    assert!(stdout(&output).ends_with("next: apigen generate --spec ../api-spec   (apigen gaps lists every gap)\n"));
}

#[test]
fn list_rust_prints_each_operations_client_call_and_trait_method() {
    let output = apigen(&["list", "--rust", "--spec", "tests/fixtures/valid/petstore"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "GET    /v2/health health  client.pets().health()  PetsApi::health\n\
         GET    /v2/pets listPets  client.pets().list()  PetsApi::list_pets\n\
         DELETE /v2/pets/{petId} deletePet  client.pets().delete(pet_id)  PetsApi::delete_pet\n\
         GET    /v2/pets/{petId} getPet  client.pets().get(pet_id)  PetsApi::get_pet\n\
         PATCH  /v2/pets/{petId} updatePet  client.pets().update(pet_id)  PetsApi::update_pet\n\
         PUT    /v2/pets/{petId} putPet  client.pets().put(pet_id, body)  PetsApi::put_pet\n"
    );
}
