//! `apigen init` writes only into a new or empty place: a directory whose config, spec or
//! runtime paths already hold something, or whose paths are links, is refused before anything
//! is written, naming each path and what to do; and every flag `init --help` shows is
//! honoured or refused.

use crate::common::{copy_fixture, failed, ok, run_in, text, tree};
use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Output;

/// Runs `apigen init` with `args` in `home`; returns its stderr after checking that it failed
/// and that nothing under `home` changed.
fn refused(home: &Path, args: &[&str]) -> String {
    let before = tree(home);
    let stderr = failed(&run_in(home, args, &[]), 1);
    assert_eq!(tree(home), before, "init wrote something before refusing:\n{stderr}");
    assert!(stderr.ends_with("error: nothing was written\n"), "{stderr}");
    stderr
}

#[test]
fn a_spec_directory_holding_the_users_api_is_refused() {
    let home = tempfile::tempdir().unwrap();
    copy_fixture("petstore", &home.path().join("acme/spec"));
    let stderr = refused(home.path(), &["init", "acme"]);
    assert_eq!(
        stderr,
        "error: acme/spec: holds 2 entries already: init writes its starter spec only into a new or empty directory\n  \
         hint: to keep this spec, write acme/apigen.toml by hand (`spec = \"spec\"`, see `apigen --help`), or name another directory with --spec\n\
         error: nothing was written\n"
    );
}

#[test]
fn a_spec_link_is_refused_and_nothing_is_written_through_it() {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join("elsewhere")).unwrap();
    std::fs::create_dir_all(home.path().join("acme")).unwrap();
    symlink("../elsewhere", home.path().join("acme/spec")).unwrap();
    let stderr = refused(home.path(), &["init", "acme"]);
    assert_eq!(
        stderr,
        "error: acme/spec: is a link (to ../elsewhere): init never writes through a link\n  \
         hint: remove the link, or name another directory with --spec\n\
         error: nothing was written\n"
    );
}

#[test]
fn a_dangling_config_link_is_refused_and_its_target_not_created() {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join("elsewhere")).unwrap();
    std::fs::create_dir_all(home.path().join("acme")).unwrap();
    symlink("../elsewhere/x.toml", home.path().join("acme/apigen.toml")).unwrap();
    let stderr = refused(home.path(), &["init", "acme"]);
    assert_eq!(
        stderr,
        "error: acme/apigen.toml: is a link (to ../elsewhere/x.toml): init never writes through a link\n  \
         hint: remove the link\n\
         error: nothing was written\n"
    );
    assert!(!home.path().join("elsewhere/x.toml").exists());
}

#[test]
fn a_spec_that_is_a_file_is_refused_before_apigen_toml_is_written() {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join("acme")).unwrap();
    std::fs::write(home.path().join("acme/spec"), "my notes\n").unwrap();
    let stderr = refused(home.path(), &["init", "acme"]);
    assert_eq!(
        stderr,
        "error: acme/spec: is a file, not a directory\n  \
         hint: name another directory with --spec\n\
         error: nothing was written\n"
    );
}

#[test]
fn an_existing_runtime_directory_is_refused_not_mixed_into() {
    let home = tempfile::tempdir().unwrap();
    let runtime = home.path().join("acme/apigen-runtime");
    std::fs::create_dir_all(&runtime).unwrap();
    std::fs::write(runtime.join("Cargo.toml"), "[package]\nname = \"apigen-runtime\"\nversion = \"0.0.9\"\n").unwrap();
    let stderr = refused(home.path(), &["init", "acme"]);
    assert_eq!(
        stderr,
        "error: acme/apigen-runtime: holds 1 entry already: init copies the runtime only into a new or empty directory\n  \
         hint: take the runtime from it with --runtime apigen-runtime, or remove it to copy this apigen's runtime\n\
         error: nothing was written\n"
    );
}

#[test]
fn a_second_init_is_refused_naming_the_settings_file() {
    let home = tempfile::tempdir().unwrap();
    ok(&run_in(home.path(), &["init", "acme"], &[]));
    let stderr = refused(home.path(), &["init", "acme"]);
    assert!(
        stderr.starts_with(
            "error: acme/apigen.toml: exists: this directory is set up already\n  \
             hint: run `apigen generate` there, or remove apigen.toml to start again\n"
        ),
        "{stderr}"
    );
}

#[test]
fn an_existing_workspace_file_is_left_alone_even_as_a_dangling_link() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("acme");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("Cargo.toml"), "[workspace]\n").unwrap();
    symlink("../elsewhere/ignored", dir.join(".gitignore")).unwrap();
    let stdout = ok(&run_in(home.path(), &["init", "acme"], &[]));
    assert!(stdout.contains("left alone: acme/Cargo.toml (it exists)\n"), "{stdout}");
    assert!(stdout.contains("left alone: acme/.gitignore (it exists)\n"), "{stdout}");
    assert_eq!(std::fs::read_to_string(dir.join("Cargo.toml")).unwrap(), "[workspace]\n");
    assert!(!home.path().join("elsewhere").exists(), "written through the dangling link");
    // Beside a workspace of the user's, whose members init does not know, the lock file is
    // apigen's (not settled for the generated crates alone), without a note.
    assert_eq!(std::fs::read_to_string(dir.join("Cargo.lock")).unwrap(), apigen::init::lock_file());
}

#[test]
fn spec_and_out_flags_are_honoured() {
    let home = tempfile::tempdir().unwrap();
    let stdout = ok(&run_in(home.path(), &["init", "acme", "--spec", "api", "--out", "gen"], &[]));
    assert!(stdout.contains("wrote acme/api/api.yaml\n"), "{stdout}");
    assert!(
        stdout.contains("  apigen generate     # writes gen/: acme-types, -server, -client, openapi.json\n"),
        "{stdout}"
    );
    let dir = home.path().join("acme");
    assert!(!dir.join("spec").exists());
    let config = std::fs::read_to_string(dir.join("apigen.toml")).unwrap();
    assert!(config.contains("\nspec = \"api\"\nout = \"gen\"\n"), "{config}");
    let workspace = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    assert!(workspace.contains("members = [\"gen/types\", \"gen/server\", \"gen/client\"]"), "{workspace}");
    let generated = ok(&run_in(&dir, &["generate"], &[]));
    assert!(generated.contains("wrote gen/types/Cargo.toml\n"), "{generated}");
    assert_eq!(ok(&run_in(&dir, &["check"], &[])), "ok: 22 files match the spec\n");
}

#[test]
fn a_nested_spec_flag_is_honoured_and_a_link_on_its_way_refused() {
    let home = tempfile::tempdir().unwrap();
    ok(&run_in(home.path(), &["init", "acme", "--spec", "docs/api"], &[]));
    assert!(home.path().join("acme/docs/api/notes.yaml").is_file());

    std::fs::create_dir_all(home.path().join("elsewhere")).unwrap();
    std::fs::create_dir_all(home.path().join("other")).unwrap();
    symlink("../elsewhere", home.path().join("other/docs")).unwrap();
    let stderr = refused(home.path(), &["init", "other", "--spec", "docs/api"]);
    assert!(
        stderr.starts_with("error: other/docs: is a link (to ../elsewhere): init never writes through a link\n"),
        "{stderr}"
    );
}

#[test]
fn paths_leading_out_of_the_directory_or_overlapping_are_refused() {
    let home = tempfile::tempdir().unwrap();
    for (args, message) in [
        (
            vec!["init", "acme", "--spec", "../api"],
            "error: --spec ../api: not a directory inside acme: give a relative path without `.` or `..` (apigen.toml holds it, relative to itself)\n",
        ),
        (
            vec!["init", "acme", "--out", "/tmp/gen"],
            "error: --out /tmp/gen: not a directory inside acme: give a relative path without `.` or `..` (apigen.toml holds it, relative to itself)\n",
        ),
        (
            vec!["init", "acme", "--spec", "."],
            "error: --spec .: not a directory inside acme: give a relative path without `.` or `..` (apigen.toml holds it, relative to itself)\n",
        ),
        (
            vec!["init", "acme", "--spec", "gen", "--out", "gen/x"],
            "error: --spec gen and --out gen/x overlap: give each its own directory\n",
        ),
        (
            vec!["init", "acme", "--spec", "apigen-runtime"],
            "error: --spec apigen-runtime and the runtime copy apigen-runtime overlap: give each its own directory\n",
        ),
        (
            vec!["init", "acme", "--out", "Cargo.toml"],
            "error: --out Cargo.toml and the workspace file Cargo.toml overlap: give each its own directory\n",
        ),
        (
            vec!["init", "acme", "--config", "x.toml"],
            "error: --config names the settings file other commands read; init writes acme/apigen.toml\n",
        ),
        (
            vec!["init", "acme", "--runtime", "rt", "--runtime-path", "rt"],
            "error: --runtime and --runtime-path both name the runtime's directory: give one\n",
        ),
        (
            vec!["init", "acme", "--runtime", "rt", "--runtime-version", "0.1"],
            "error: --runtime and --runtime-version name two sources of the runtime: give one\n",
        ),
    ] {
        let before = tree(home.path());
        let stderr = failed(&run_in(home.path(), &args, &[]), 1);
        assert_eq!(stderr, message, "{args:?}");
        assert_eq!(tree(home.path()), before, "{args:?}");
    }
}

#[test]
fn the_runtime_flag_is_honoured_like_runtime_path() {
    let home = tempfile::tempdir().unwrap();
    ok(&run_in(home.path(), &["init", "acme", "--runtime", "../vendor/rt"], &[]));
    let config = std::fs::read_to_string(home.path().join("acme/apigen.toml")).unwrap();
    assert!(config.contains("[runtime]\npath = \"../vendor/rt\"\n"), "{config}");
    assert!(!home.path().join("acme/apigen-runtime").exists());
}

#[test]
fn the_crates_license_is_the_documents_then_apigen_tomls_and_none_when_neither_says() {
    let home = tempfile::tempdir().unwrap();
    let document = r#"{"openapi": "3.1.0",
        "info": {"title": "Ping", "version": "1", "license": {"name": "Apache License 2.0", "identifier": "Apache-2.0"}},
        "paths": {"/ping": {"get": {"operationId": "ping", "responses": {"204": {"description": "Alive."}}}}}}"#;
    std::fs::write(home.path().join("ping.json"), document).unwrap();
    ok(&run_in(home.path(), &["init", "acme", "--from", "ping.json"], &[]));
    let dir = home.path().join("acme");
    let spec = std::fs::read_to_string(dir.join("spec/api.yaml")).unwrap();
    assert!(spec.contains(", license: Apache-2.0 }"), "{spec}");
    let manifest = || std::fs::read_to_string(dir.join("generated/types/Cargo.toml")).unwrap();
    ok(&run_in(&dir, &["generate"], &[]));
    assert!(manifest().contains("\nlicense = \"Apache-2.0\"\n"), "{}", manifest());
    // apigen.toml's `license` wins: the repository decides how its crates are licensed.
    let config = std::fs::read_to_string(dir.join("apigen.toml")).unwrap();
    std::fs::write(dir.join("apigen.toml"), format!("license = \"MPL-2.0\"\n{config}")).unwrap();
    ok(&run_in(&dir, &["generate"], &[]));
    assert!(manifest().contains("\nlicense = \"MPL-2.0\"\n"), "{}", manifest());
    // The starter spec says none, and neither does its apigen.toml: nor do the crates.
    ok(&run_in(home.path(), &["init", "plain"], &[]));
    ok(&run_in(&home.path().join("plain"), &["generate"], &[]));
    let manifest = std::fs::read_to_string(home.path().join("plain/generated/types/Cargo.toml")).unwrap();
    assert!(!manifest.contains("license"), "{manifest}");
}

#[test]
fn the_runtime_copy_is_no_member_so_the_owners_cargo_test_leaves_its_tests() {
    let home = tempfile::tempdir().unwrap();
    ok(&run_in(home.path(), &["init", "acme"], &[]));
    let dir = home.path().join("acme");
    ok(&run_in(&dir, &["generate"], &[]));
    // A path dependency inside the workspace is a member unless excluded; `--no-deps` reads
    // the manifests only (no registry, no build).
    let metadata = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--offline", "--no-deps", "--format-version", "1"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(metadata.status.success(), "{}", String::from_utf8_lossy(&metadata.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&metadata.stdout).unwrap();
    let mut members: Vec<&str> =
        metadata["packages"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    members.sort_unstable();
    assert_eq!(members, ["acme-client", "acme-server", "acme-types"]);
}

/// `cargo metadata --offline` in `dir` (it resolves the workspace and rewrites its lock file
/// when that is not what cargo keeps); killed past ten minutes of wall time, a bound no load
/// short of a stalled machine reaches (it takes about half a second).
fn cargo_metadata_offline(dir: &Path) -> Output {
    let mut child = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--offline", "--format-version", "1"])
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(600) {
            child.kill().unwrap();
            panic!("cargo metadata --offline in {} hung", dir.display());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn packages(lock: &str) -> usize {
    lock.matches("[[package]]").count()
}

#[test]
fn the_lock_file_init_writes_is_the_one_cargo_keeps_so_the_first_build_changes_nothing() {
    let home = tempfile::tempdir().unwrap();
    let init = run_in(home.path(), &["init", "acme"], &[]);
    ok(&init);
    assert_eq!(text(&init.stderr), "", "init settled the lock file without a note");
    let dir = home.path().join("acme");
    let written = std::fs::read_to_string(dir.join("Cargo.lock")).unwrap();
    ok(&run_in(&dir, &["generate"], &[]));
    let metadata = cargo_metadata_offline(&dir);
    assert!(metadata.status.success(), "{}", text(&metadata.stderr));
    let kept = std::fs::read_to_string(dir.join("Cargo.lock")).unwrap();
    // Counted first, for a readable failure: apigen's whole lock has about 250 packages, the
    // workspace needs about 150 (the user's 3 crates and the runtime copy among them).
    assert_eq!(packages(&written), packages(&kept), "packages in Cargo.lock before and after cargo resolved it");
    assert_eq!(written, kept);
    assert!(written.contains("[[package]]\nname = \"acme-server\"\nversion = \"1.0.0\"\n"), "{written}");
    assert!(!written.contains("name = \"clap\""), "apigen's command line is no dependency of the workspace");
    assert_eq!(tree(&dir).iter().filter(|path| path.starts_with(".apigen-init")).count(), 0, "scratch left");
}

#[test]
fn a_lock_file_cargo_cannot_settle_offline_is_apigens_with_a_note() {
    let home = tempfile::tempdir().unwrap();
    // The runtime directory named does not exist (yet): cargo cannot resolve the workspace.
    let init = run_in(home.path(), &["init", "acme", "--runtime", "../vendor/rt"], &[]);
    ok(&init);
    assert!(
        text(&init.stderr).starts_with(
            "note: Cargo.lock holds the versions apigen is tested with, not yet only those this workspace needs: \
             cargo cannot resolve the workspace offline (failed to read `"
        ),
        "{}",
        text(&init.stderr)
    );
    assert!(
        text(&init.stderr).ends_with(
            "/vendor/rt/Cargo.toml`: No such file or directory (os error 2)); the first build drops the rest\n"
        ),
        "{}",
        text(&init.stderr)
    );
    let lock = std::fs::read_to_string(home.path().join("acme/Cargo.lock")).unwrap();
    assert_eq!(lock, apigen::init::lock_file());
}
