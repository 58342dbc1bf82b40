//! `--demo` loads its data set whole and once: a load that fails midway, or a process killed
//! midway, leaves nothing of it and the next start loads it; two sandboxes starting at once
//! on one new file both start, with one copy of it.

mod common;

use apigen_runtime::server::ApiError;
use docs_api_sandbox::clock::Clock;
use docs_api_sandbox::store::Store;
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What the database holds of the demo data set: the rows of each kind it makes in the first
/// organization, the users, and the marker.
fn demo_rows(store: &Store) -> Vec<(String, usize)> {
    store
        .read(|tx| {
            let mut rows = Vec::new();
            for kind in ["collection", "space", "site", "team", "openapi-spec", "change-request"] {
                rows.push((kind.to_owned(), tx.all_in_org(kind, "org_1")?.len()));
            }
            rows.push(("user".to_owned(), tx.count("user", "users")? as usize));
            rows.push((format!("marker {:?}", tx.meta("demo")?), 1));
            Ok::<_, ApiError>(rows)
        })
        .unwrap()
}

/// One copy of the demo data set (the admin is the fourth user).
fn one_copy() -> Vec<(String, usize)> {
    let kinds = [("collection", 2), ("space", 3), ("site", 1), ("team", 1), ("openapi-spec", 1), ("change-request", 1)];
    let mut rows: Vec<(String, usize)> = kinds.iter().map(|(kind, n)| (kind.to_string(), *n)).collect();
    rows.push(("user".to_owned(), 4));
    rows.push(("marker Some(\"loaded\")".to_owned(), 1));
    rows
}

fn rows_in_file(path: &Path) -> Vec<(String, usize)> {
    demo_rows(&Store::open(Some(path), Clock::default()).unwrap())
}

#[tokio::test]
async fn a_demo_load_that_fails_midway_leaves_nothing_and_the_next_load_makes_one_copy() {
    let sb = common::start().await;
    let store = sb.sandbox.store();
    // The demo's last step creates the OpenAPI spec `acme-api`: one already there fails it (409).
    let spec = json!({"object": "openapi-spec", "id": "org_1/acme-api", "slug": "acme-api"});
    store.write(|tx| tx.insert("openapi-spec", "org_1/acme-api", "org_1", "org_1", &spec)).unwrap();
    let failed = docs_api_sandbox::demo::load(&sb.sandbox, &sb.boot).await.unwrap_err();
    assert!(failed.contains("answered 409 Conflict"), "{failed}");
    let nothing: Vec<(String, usize)> = [
        ("collection", 0),
        ("space", 0),
        ("site", 0),
        ("team", 0),
        ("openapi-spec", 1),
        ("change-request", 0),
        ("user", 1),
        ("marker None", 1),
    ]
    .iter()
    .map(|(kind, n)| (kind.to_string(), *n))
    .collect();
    assert_eq!(demo_rows(store), nothing, "the failed load left nothing of its own");

    store.write(|tx| tx.delete("openapi-spec", "org_1/acme-api")).unwrap();
    docs_api_sandbox::demo::load(&sb.sandbox, &sb.boot).await.unwrap();
    assert_eq!(demo_rows(store), one_copy());
    docs_api_sandbox::demo::load(&sb.sandbox, &sb.boot).await.unwrap();
    assert_eq!(demo_rows(store), one_copy(), "loaded once per database");
    let mut titles: Vec<String> = store
        .read(|tx| tx.all_in_org("collection", "org_1"))
        .unwrap()
        .iter()
        .map(|row| row.data["title"].as_str().unwrap_or_default().to_owned())
        .collect();
    titles.sort();
    assert_eq!(titles, ["Engineering", "Product"]);
}

/// A sandbox process on `db` with `--demo`, its first line of output sent to the returned
/// channel (`listening on …` once it serves, else what it printed before it stopped).
fn sandbox_process(db: &Path, token: &str) -> (Child, mpsc::Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_docs-api-sandbox"))
        .args(["--listen", "127.0.0.1:0", "--token", token, "--demo", "--db"])
        .arg(db)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (lines, first) = mpsc::channel();
    for output in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let lines = lines.clone();
        std::thread::spawn(move || {
            if let Some(Ok(line)) = BufReader::new(output).lines().next() {
                let _ = lines.send(line);
            }
        });
    }
    (child, first)
}

/// Waits until the process serves; panics with what it printed otherwise.
fn serves(first: &mpsc::Receiver<String>) {
    let line = first.recv_timeout(Duration::from_secs(60)).expect("the sandbox printed nothing in 60 s");
    assert!(line.starts_with("listening on "), "the sandbox did not start: {line}");
}

fn stop(mut child: Child) {
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn two_sandboxes_started_at_once_on_one_new_file_both_start_with_one_copy() {
    for trial in 0..5 {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("shared.db");
        let (first, first_out) = sandbox_process(&db, "token-a");
        let (second, second_out) = sandbox_process(&db, "token-b");
        serves(&first_out);
        serves(&second_out);
        stop(first);
        stop(second);
        assert_eq!(rows_in_file(&db), one_copy(), "trial {trial}");
    }
}

#[test]
fn a_sandbox_killed_while_loading_the_demo_restarts_with_one_copy() {
    // How long a start takes here, so the kills fall before, during and after the load.
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let (child, out) = sandbox_process(&dir.path().join("timed.db"), "token");
    serves(&out);
    let start_time = started.elapsed();
    stop(child);
    for eighth in 1..=8 {
        let db = dir.path().join(format!("killed-{eighth}.db"));
        let (child, _) = sandbox_process(&db, "token");
        std::thread::sleep(start_time * eighth / 8);
        stop(child);
        let (restarted, out) = sandbox_process(&db, "token");
        serves(&out);
        stop(restarted);
        assert_eq!(rows_in_file(&db), one_copy(), "killed after {:?}", start_time * eighth / 8);
    }
}
