//! `apigen diff` cross-checked by the compiler. Two crates are written once against the crates
//! generated from the *base* spec: an implementer (a service implementing every operation on
//! the generated server) and a caller (calling every operation through the generated client).
//! For every fixture case the diff classes as safe for implementers, the implementer still
//! compiles against the crates generated from the changed spec; for every case safe for
//! callers, the caller does. A case classed as breaking makes the crate fail, so the check can
//! fail.
//!
//! The crates are type-checked (`cargo check`) in a workspace under cargo's temporary
//! directory for tests, with a target directory of its own that persists between runs (the
//! dependencies are checked once), pinned by this repository's `Cargo.lock`.

use apigen::CacheDir;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const BASE: &str = "fixtures/diff/base";
const CASES: &str = "fixtures/diff/cases";

/// Written once against the base spec's generated server; never changed per case.
const IMPLEMENTER: &str = r#"
use petstore_server::types::{Ball, Owner, Pet, PetKind, Size, Toy};
use petstore_server::{
    ApiError, Authenticator, Context, DeletePetRequest, Download, GetPetPhotoRequest, GetPetRequest, ListPetsRequest,
    PetsApi, TagPetRequest, UpdatePetRequest,
};

pub struct Shop;

fn pet(id: String) -> Pet {
    Pet {
        id,
        name: "Rex".into(),
        kind: PetKind::Dog,
        size: Size::Small,
        tags: Some(vec!["good".into()]),
        born: None,
        owner: Some(Owner { name: "Ada".into(), secret: None }),
        toy: Some(Toy::from(Ball { colour: "red".into() })),
    }
}

impl Authenticator for Shop {
    type Principal = String;
    async fn authenticate(&self, credential: apigen_runtime::server::Credential<'_>) -> Result<String, ApiError> {
        Ok(credential.token().unwrap_or_default().to_owned())
    }
}

impl PetsApi for Shop {
    async fn list_pets(
        &self,
        _context: Context<String>,
        request: ListPetsRequest,
    ) -> Result<apigen_runtime::Page<Pet>, ApiError> {
        let small = matches!(request.size, Some(Size::Small));
        Ok(apigen_runtime::Page::new(vec![pet(format!("{small}-{}", request.page_size))], request.cursor))
    }
    async fn get_pet(&self, context: Context<String>, request: GetPetRequest) -> Result<Pet, ApiError> {
        if request.pet_id.is_empty() {
            return Err(ApiError::not_found(context.operation));
        }
        Ok(pet(request.pet_id))
    }
    async fn update_pet(&self, _context: Context<String>, request: UpdatePetRequest) -> Result<Pet, ApiError> {
        let mut changed = pet(request.pet_id);
        if let Some(name) = request.body.name {
            changed.name = name;
        }
        Ok(changed)
    }
    async fn delete_pet(&self, _context: Context<String>, request: DeletePetRequest) -> Result<(), ApiError> {
        let _ = request.pet_id;
        Ok(())
    }
    async fn get_pet_photo(&self, context: Context<String>, request: GetPetPhotoRequest) -> Result<Download, ApiError> {
        Ok(Download::bytes(format!("{} as {}", request.pet_id, context.media_type())))
    }
    async fn tag_pet(&self, _context: Context<String>, request: TagPetRequest) -> Result<(), ApiError> {
        let _ = (request.pet_id, request.body.tag);
        Ok(())
    }
}

pub fn app() -> apigen_runtime::server::axum::Router {
    petstore_server::router(Shop)
}

"#;

/// Written once against the base spec's generated client; never changed per case.
const CALLER: &str = r#"
use petstore_client::types::Size;
use petstore_client::{GetPetPhotoAccept, TagPetContentType};

pub async fn caller(client: &petstore_client::Client) -> Result<String, petstore_client::Error> {
    let pet = client.pets().get("pet_1").send().await?;
    let page = client.pets().list().size(Size::Large).send().await?;
    client.pets().update("pet_1").name("Rex").send().await?;
    client.pets().delete("pet_1").send().await?;
    let photo = client.pets().get_photo("pet_1").accept(GetPetPhotoAccept::ImagePng).send().await?;
    let photo = photo.bytes(1 << 20).await?;
    client.pets().tag("pet_1", "good").content_type(TagPetContentType::ApplicationJson).send().await?;
    Ok(format!("{} {} {:?} {} {}", pet.id, pet.name, pet.size, page.items.len(), photo.len()))
}
"#;

fn manifest(name: &str, dependency: &str) -> String {
    let runtime = fs::canonicalize("../runtime").unwrap();
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\napigen-runtime = {{ path = {runtime:?}, features = [\"server\", \"client\"] }}\n\
         {dependency} = {{ path = \"../generated/{}\" }}\n",
        dependency.trim_start_matches("petstore-")
    )
}

/// The scratch workspace: `generated/` (rewritten per case), `implementer/` and `caller/`.
fn workspace() -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("diff-compiles");
    let members = [("implementer", "petstore-server", IMPLEMENTER), ("caller", "petstore-client", CALLER)];
    for (name, dependency, code) in members {
        fs::create_dir_all(root.join(name).join("src")).unwrap();
        fs::write(root.join(name).join("Cargo.toml"), manifest(name, dependency)).unwrap();
        fs::write(root.join(name).join("src/lib.rs"), code).unwrap();
    }
    let workspace = "[workspace]\nmembers = [\"implementer\", \"caller\"]\nresolver = \"3\"\n";
    fs::write(root.join("Cargo.toml"), workspace).unwrap();
    fs::copy("../Cargo.lock", root.join("Cargo.lock")).unwrap();
    root
}

/// Generates `spec` into the workspace and type-checks `package`; the compiler's complaint on
/// failure.
fn check_against(root: &Path, spec: &Path, package: &str) -> Result<(), String> {
    let out = root.join("generated");
    let runtime = fs::canonicalize("../runtime").unwrap();
    let generator = apigen::Generator::new().spec(spec).out(&out).runtime_path(runtime).cache(CacheDir::none());
    generator.generate().map_err(|e| e.to_string())?;
    forget_generated_builds(&root.join("target"));
    let result = Command::new(env!("CARGO"))
        .args(["check", "--quiet", "--offline", "--package", package])
        .current_dir(root)
        .env("CARGO_TARGET_DIR", root.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    if result.status.success() { Ok(()) } else { Err(String::from_utf8_lossy(&result.stderr).into_owned()) }
}

/// Cargo decides a crate is fresh by modification times, which two cases written within one
/// tick of the clock share: the generated crates' fingerprints are dropped so each case is
/// checked against what it wrote (the dependencies stay built).
fn forget_generated_builds(target: &Path) {
    let Ok(entries) = fs::read_dir(target.join("debug/.fingerprint")) else { return };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with("petstore-") {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// A copy of the base with the case's edits applied (`apigen_tests::edits`).
fn edited(case: &str, into: &Path) -> PathBuf {
    let dir = into.join(case);
    fs::create_dir_all(&dir).unwrap();
    for name in ["api.yaml", "pets.yaml"] {
        fs::copy(Path::new(BASE).join(name), dir.join(name)).unwrap();
    }
    let edits = fs::read_to_string(Path::new(CASES).join(format!("{case}.edit"))).unwrap();
    apigen_tests::edits::apply(&apigen_tests::edits::parse(&edits), &dir).unwrap_or_else(|e| panic!("{case}: {e}"));
    dir
}

/// The cases `apigen diff` classes as safe (or docs only) for `side` (`callers`,
/// `implementers`).
fn safe_for(side: &str) -> Vec<String> {
    let mut cases: Vec<String> = fs::read_dir(CASES)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "expected"))
        .filter(|p| !breaks(&fs::read_to_string(p).unwrap(), side))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    cases.sort();
    cases
}

/// True when an expected classification holds a change breaking for `side`. A change line
/// reads `<class> callers, <class> implementers  <subject>: <kind>`.
fn breaks(expected: &str, side: &str) -> bool {
    expected.lines().any(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        match (words.as_slice(), side) {
            ([class, "callers,", ..], "callers") => *class == "breaking",
            ([_, "callers,", class, "implementers", ..], "implementers") => *class == "breaking",
            _ => false,
        }
    })
}

/// Checks `package` against every case safe for `side`, then against `breaking`, which must
/// fail with `complaint`.
fn cross_check(package: &str, side: &str, breaking: &str, complaint: &str) {
    let root = workspace();
    let specs = tempfile::tempdir().unwrap();
    check_against(&root, Path::new(BASE), package)
        .unwrap_or_else(|e| panic!("{package} must compile against the base:\n{e}"));
    let cases = safe_for(side);
    assert!(cases.len() >= 10, "{cases:?}");
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            check_against(&root, &edited(case, specs.path()), package).err().map(|e| format!("{case}:\n{e}"))
        })
        .collect();
    assert!(failures.is_empty(), "diff said safe for {side}, the compiler disagreed:\n{}", failures.join("\n"));
    let expected = fs::read_to_string(Path::new(CASES).join(format!("{breaking}.expected"))).unwrap();
    assert!(breaks(&expected, side), "{breaking} is not breaking for {side}");
    let error = check_against(&root, &edited(breaking, specs.path()), package).expect_err("a breaking change");
    assert!(error.contains(complaint), "{error}");
}

/// One test drives both crates: they share the scratch workspace and its `generated/`.
#[test]
#[ignore = "heavy tier: builds crates outside the workspace; run with `cargo test --workspace -- --ignored` (CI does)"]
fn what_diff_calls_safe_compiles_against_code_written_for_the_base() {
    // A field added to a response breaks the implementer's struct literal.
    cross_check("implementer", "implementers", "response-field-added-optional", "missing field");
    // A required parameter added breaks the caller's call.
    cross_check("caller", "callers", "param-added-required", "argument");
}
