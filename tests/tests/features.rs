//! Cargo features per group: a build enabling some groups compiles their operations and the
//! types they reach, and nothing else (fixture `library`: shelves, books and loans, sharing
//! types, with webhook payloads no operation uses).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn library() -> apigen::model::Api {
    let spec = repository().join("tests/fixtures/valid/library");
    apigen::load(&spec).unwrap_or_else(|diags| panic!("{}", diags.render())).0
}

#[test]
fn each_type_is_compiled_by_the_features_of_the_groups_reaching_it() {
    let api = library();
    let reach = api.reach();
    let compiled_by = |name: &str| apigen::emit::features::cfg(&reach.of_type(name)).to_string();
    let table = [
        // The error body: every group answers it, so every build has it.
        ("Failure", ""),
        // Held by a book, which two groups answer and a webhook payload holds.
        ("Author", r#"# [cfg (any (feature = "books" , feature = "loans" , feature = "unreferenced-types"))]"#),
        ("Book", r#"# [cfg (any (feature = "books" , feature = "loans" , feature = "unreferenced-types"))]"#),
        // No operation takes it: its file's group.
        ("BookDraft", r#"# [cfg (feature = "books")]"#),
        // Webhook payloads: no operation, and declared apart from every operation.
        ("BookEvent", r#"# [cfg (feature = "unreferenced-types")]"#),
        ("BookEventKind", r#"# [cfg (feature = "unreferenced-types")]"#),
        ("Shelf", r#"# [cfg (feature = "shelves")]"#),
        ("CreateShelfBody", r#"# [cfg (feature = "shelves")]"#),
        ("Loan", r#"# [cfg (feature = "loans")]"#),
    ];
    for (name, expected) in table {
        assert_eq!(compiled_by(name), expected, "{name}");
    }
    assert_eq!(api.types.len(), table.len(), "a type of the fixture is missing from the table");
}

#[test]
fn the_manifests_declare_a_feature_per_group_and_forward_them() {
    let generated = repository().join("tests/fixtures/generated/library");
    let types = std::fs::read_to_string(generated.join("types/Cargo.toml")).unwrap();
    assert!(
        types.contains(
            "[features]\ndefault = [\"full\"]\nfull = [\"shelves\", \"books\", \"loans\", \"unreferenced-types\"]\n\
             shelves = []\nbooks = []\nloans = []\nunreferenced-types = []\n"
        ),
        "{types}"
    );
    let client = std::fs::read_to_string(generated.join("client/Cargo.toml")).unwrap();
    assert!(
        client
            .contains("library_types = { path = \"../types\", package = \"library-types\", default-features = false }"),
        "{client}"
    );
    assert!(
        client.contains(
            "shelves = [\"library_types/shelves\"]\nbooks = [\"library_types/books\"]\nloans = [\"library_types/loans\"]\n\
             unreferenced-types = [\"library_types/unreferenced-types\"]\nsamples = [\"full\"]\n"
        ),
        "{client}"
    );
}

/// A user's crate taking the client and server with the `loans` group only.
const MANIFEST: &str = r#"[package]
name = "loans-only"
version = "0.1.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
library-client = { path = "CLIENT", default-features = false, features = ["loans"] }
library-server = { path = "SERVER", default-features = false, features = ["loans", "mock"] }
apigen-runtime = { path = "RUNTIME", features = ["server"] }
tokio = { version = "1", features = ["macros", "rt-multi-thread", "net"] }
"#;

/// Serves the loans group with the mock service (which implements no other group: the router
/// asks for none), calls it through the client, and asks for a shelf, which this build does
/// not know; then serves the spec's samples, which this build holds for the loans group only.
const MAIN: &str = r#"
use library_client::types::{Book, Failure, Loan};

#[tokio::main]
async fn main() {
    let names: Vec<&str> = library_server::OPERATIONS.iter().map(|op| op.name).collect();
    println!("operations: {}", names.join(", "));
    let service = library_server::mock::MockService::new(|call| {
        assert_eq!(call.operation, "listLoans");
        Ok(apigen_runtime::serde_json::json!({"items": [{"id": "loan_1", "due": "2026-12-24T12:00:00Z",
            "book": {"id": "book_1", "title": "The Dispossessed", "author": {"name": "Ursula K. Le Guin"}}}]}))
    });
    let listener = apigen_runtime::listener::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = library_server::router(service);
    tokio::spawn(apigen_runtime::listener::serve(listener, app, Default::default()));
    let client = library_client::Client::new(&base, "card").unwrap();
    let page = client.loans().list().send().await.unwrap();
    let loan: &Loan = &page.items[0];
    let book: &Book = &loan.book;
    println!("loan: {} of {} by {}", loan.id, book.title, book.author.name);
    let shelf = reqwest_get(&format!("{base}/shelves")).await;
    println!("shelves: {shelf}");
    // The spec's samples, of this build's group only (`mock/loans.rs`).
    let listener = apigen_runtime::listener::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let samples = format!("http://{}", listener.local_addr().unwrap());
    let app = library_server::router(library_server::mock::samples());
    tokio::spawn(apigen_runtime::listener::serve(listener, app, Default::default()));
    let sampled = library_client::Client::new(&samples, "card").unwrap().loans().list().send().await.unwrap();
    println!("samples: {} loan(s), the first {}", sampled.items.len(), sampled.items[0].id);
    let _: Option<Failure> = None;
}

async fn reqwest_get(url: &str) -> String {
    let client = library_client::http_client_builder().build().unwrap();
    let response = client.get(url).bearer_auth("card").send().await.unwrap();
    format!("{} {}", response.status().as_u16(), response.text().await.unwrap())
}
"#;

/// What the same crate cannot name: the shelves group and the webhook payloads.
const OTHER_GROUPS: &str = r#"
fn main() {
    let client = library_client::Client::new("http://localhost", "card").unwrap();
    let _ = client.shelves();
    let _: Option<library_client::types::Shelf> = None;
    let _: Option<library_client::types::BookEvent> = None;
}
"#;

fn cargo(args: &[&str], dir: &Path) -> Output {
    // The target directory of the other tests that build outside the workspace: dependencies
    // are built once for all of them.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("outside-target");
    Command::new(env!("CARGO"))
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap()
}

#[test]
#[ignore = "heavy tier: builds crates outside the workspace; run with `cargo test --workspace -- --ignored` (CI does)"]
fn a_build_with_one_group_serves_and_calls_it_and_knows_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let generated = repository().join("tests/fixtures/generated/library");
    let manifest = MANIFEST
        .replace("CLIENT", generated.join("client").to_str().unwrap())
        .replace("SERVER", generated.join("server").to_str().unwrap())
        .replace("RUNTIME", repository().join("runtime").to_str().unwrap());
    std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::create_dir_all(dir.path().join("examples")).unwrap();
    std::fs::write(dir.path().join("src/main.rs"), MAIN).unwrap();
    std::fs::write(dir.path().join("examples/other_groups.rs"), OTHER_GROUPS).unwrap();
    std::fs::copy(repository().join("Cargo.lock"), dir.path().join("Cargo.lock")).unwrap();

    let run = cargo(&["run", "--quiet", "--offline"], dir.path());
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(
        stdout,
        "operations: listLoans, lendBook\n\
         loan: loan_1 of The Dispossessed by Ursula K. Le Guin\n\
         shelves: 404 {\"status\":404,\"message\":\"no operation matches this path\"}\n\
         samples: 1 loan(s), the first loan_1\n"
    );

    let check = cargo(&["check", "--quiet", "--offline", "--example", "other_groups"], dir.path());
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert!(!check.status.success(), "{stderr}");
    // Only what the example names is missing: the build itself raises nothing.
    assert!(!stderr.contains("warning"), "{stderr}");
    for missing in [
        "no method named `shelves` found for struct `library_client::Client`",
        "cannot find type `Shelf` in crate `library_client::types`",
        "cannot find type `BookEvent` in crate `library_client::types`",
    ] {
        assert!(stderr.contains(missing), "{missing}:\n{stderr}");
    }
}
