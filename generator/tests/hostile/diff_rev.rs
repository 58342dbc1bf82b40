//! `apigen diff --base-rev` reads the base spec straight from git's objects: nothing is
//! written to disk (no temporary directory to race or escape), a tree entry named `..` is
//! refused, any file name git can hold is read, and it runs from any subdirectory.

use crate::common::{copy_fixture, failed, ok, run_in, text, tree};
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs git in `dir` (no user or system configuration) and returns its stdout, trimmed.
fn git(dir: &Path, args: &[&str], input: Option<&[u8]>) -> String {
    let mut child = Command::new("git")
        .args(["-c", "user.name=apigen", "-c", "user.email=dev@apigen.invalid", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.unwrap_or_default()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "git {args:?}: {}", text(&output.stderr));
    text(&output.stdout).trim().to_owned()
}

/// A repository holding the petstore in `spec/` (files renamed by `rename`) and an
/// `apigen.toml`, committed; then its `Pet` description edited in the working tree.
fn repository(rename: &[(&str, &str)]) -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    let spec = repo.path().join("spec");
    copy_fixture("petstore", &spec);
    for (from, to) in rename {
        std::fs::rename(spec.join(from), spec.join(to)).unwrap();
    }
    std::fs::write(repo.path().join("apigen.toml"), "spec = \"spec\"\n").unwrap();
    git(repo.path(), &["init", "-q"], None);
    git(repo.path(), &["add", "."], None);
    git(repo.path(), &["commit", "-q", "-m", "petstore"], None);
    let pets = spec.join(rename.iter().find(|(from, _)| *from == "pets.yaml").map_or("pets.yaml", |(_, to)| to));
    let text = std::fs::read_to_string(&pets).unwrap();
    std::fs::write(&pets, text.replacen("description: A pet.", "description: A pet of the store.", 1)).unwrap();
    repo
}

#[test]
fn the_base_revision_is_read_without_writing_to_the_temporary_directory() {
    let repo = repository(&[]);
    // A temporary directory that cannot hold anything: a copy of the base would fail.
    let not_a_dir = repo.path().join("tmp-file");
    std::fs::write(&not_a_dir, "").unwrap();
    let output = run_in(repo.path(), &["diff", "--base-rev", "HEAD"], &[("TMPDIR", &not_a_dir)]);
    let stdout = ok(&output);
    assert!(
        stdout.contains("type Pet: description-changed\n    old: HEAD:spec/pets.yaml:3:3: types.Pet\n"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(
            "1 change: 0 breaking callers, 0 breaking implementers, 0 safe, 1 docs only; semver bump: patch\n"
        ),
        "{stdout}"
    );
}

#[test]
fn a_dotdot_entry_in_the_base_tree_is_refused_and_nothing_is_written_outside() {
    let repo = repository(&[]);
    let dir = repo.path();
    // spec/ as committed, plus an entry `..` holding `x.yaml`: `git mktree` makes what a
    // checkout never would.
    let blob = git(dir, &["hash-object", "-w", "--stdin"], Some(b"types: {}\n"));
    let inner = git(dir, &["mktree"], Some(format!("100644 blob {blob}\tx.yaml\n").as_bytes()));
    let listing = git(dir, &["ls-tree", "HEAD:spec"], None);
    let spec = git(dir, &["mktree"], Some(format!("{listing}\n040000 tree {inner}\t..\n").as_bytes()));
    let root = git(dir, &["mktree"], Some(format!("040000 tree {spec}\tspec\n").as_bytes()));
    let commit = git(dir, &["commit-tree", &root, "-m", "hostile"], None);
    let tmp = tempfile::tempdir().unwrap();
    let output = run_in(dir, &["diff", "--base-rev", &commit], &[("TMPDIR", tmp.path())]);
    let stderr = failed(&output, 2);
    assert_eq!(
        stderr,
        format!(
            "error: {commit}:spec/../x.yaml: a tree entry named `..`: git fsck calls such a tree malformed, and no checkout holds it\n"
        )
    );
    assert_eq!(tree(tmp.path()), Vec::<String>::new(), "written into the temporary directory");
}

#[test]
fn any_file_name_git_can_hold_is_read() {
    let repo = repository(&[("api.yaml", "é.yaml"), ("pets.yaml", "a b\"c.yaml")]);
    let stdout = ok(&run_in(repo.path(), &["diff", "--base-rev", "HEAD"], &[]));
    assert!(stdout.contains("    old: HEAD:spec/a b\"c.yaml:3:3: types.Pet\n"), "{stdout}");
    assert!(
        stdout.ends_with(
            "1 change: 0 breaking callers, 0 breaking implementers, 0 safe, 1 docs only; semver bump: patch\n"
        ),
        "{stdout}"
    );
}

#[test]
fn diff_runs_from_a_subdirectory_of_the_repository() {
    let repo = repository(&[]);
    let deep = repo.path().join("crates/notes");
    std::fs::create_dir_all(&deep).unwrap();
    let stdout = ok(&run_in(&deep, &["diff", "--base-rev", "HEAD"], &[]));
    assert!(
        stdout.contains("    old: HEAD:spec/pets.yaml:3:3: types.Pet\n    new: ../../spec/pets.yaml:3:3: types.Pet\n"),
        "{stdout}"
    );
    // A revision as BASE and HEAD, from the subdirectory too.
    let same = ok(&run_in(&deep, &["diff", "HEAD", "HEAD"], &[]));
    assert_eq!(
        same,
        "0 changes: 0 breaking callers, 0 breaking implementers, 0 safe, 0 docs only; semver bump: none\n"
    );
}

#[test]
fn a_revision_that_looks_like_an_option_is_refused() {
    let repo = repository(&[]);
    let stderr = failed(&run_in(repo.path(), &["diff", "--base-rev=--output=x"], &[]), 2);
    assert_eq!(stderr, "error: `--output=x` is not a revision (a revision does not start with `-`)\n");
    assert!(!repo.path().join("x").exists());
}

#[test]
fn a_link_in_the_base_tree_is_not_followed() {
    let repo = repository(&[]);
    let dir = repo.path();
    std::os::unix::fs::symlink("/etc/hostname", dir.join("spec/host.yaml")).unwrap();
    git(dir, &["add", "spec/host.yaml"], None);
    git(dir, &["commit", "-q", "-m", "a link"], None);
    let stderr = failed(&run_in(dir, &["diff", "--base-rev", "HEAD"], &[]), 2);
    assert_eq!(stderr, "error: HEAD:spec/host.yaml: a symbolic link in the tree: not followed\n");
}
