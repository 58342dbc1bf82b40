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

/// A commit of `repo`'s HEAD with `files` (name, bytes) added to `spec/`, made from git's
/// objects alone (nothing checked out): its hash.
fn commit_with(repo: &Path, files: &[(&str, &[u8])]) -> String {
    let mut listing = git(repo, &["ls-tree", "HEAD:spec"], None);
    for (name, bytes) in files {
        let blob = git(repo, &["hash-object", "-w", "--stdin"], Some(bytes));
        listing.push_str(&format!("\n100644 blob {blob}\t{name}"));
    }
    let spec = git(repo, &["mktree"], Some(format!("{listing}\n").as_bytes()));
    let root = git(repo, &["mktree"], Some(format!("040000 tree {spec}\tspec\n").as_bytes()));
    git(repo, &["commit-tree", &root, "-m", "hostile"], None)
}

/// "Billion laughs": ten levels of ten aliases each, 10^10 values from 600 bytes.
fn laughs() -> String {
    let mut text = String::from("x-laughs:\n  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..10 {
        let aliases = vec![format!("*a{}", level - 1); 10].join(", ");
        text.push_str(&format!("  a{level}: &a{level} [{aliases}]\n"));
    }
    text
}

#[test]
fn a_revision_whose_spec_holds_an_alias_bomb_is_refused_where_it_expands() {
    let repo = repository(&[]);
    let commit = commit_with(repo.path(), &[("laughs.yaml", laughs().as_bytes())]);
    // `run_in` bounds the CPU time: expanding the aliases would take it all.
    let stderr = failed(&run_in(repo.path(), &["diff", "--base-rev", &commit], &[]), 2);
    assert_eq!(
        stderr,
        format!(
            "error: the spec at {commit} does not load:\n\
             error: {commit}:spec/laughs.yaml:2:32: x-laughs.a4[0][4][1][8][4]: the YAML expands past its budget \
             through aliases (`*name`) (more than 17004 values or 263384 bytes of text for a file of this size)\n  \
             hint: write the repeated parts once as named types or shared parameters\n1 error(s), 0 warning(s)\n\n"
        )
    );
}

#[test]
fn a_revision_is_read_under_the_working_trees_caps_before_any_blob_is_read() {
    // A spec file past 16 MiB was read at a revision (up to 64 MiB, the cap of other inputs):
    // four times the values an alias bomb may expand to in the working tree.
    let repo = repository(&[]);
    let comment = "# padding\n".repeat(1_700_000);
    let commit = commit_with(repo.path(), &[("big.yaml", comment.as_bytes())]);
    let stderr = failed(&run_in(repo.path(), &["diff", "--base-rev", &commit], &[]), 2);
    assert_eq!(stderr, format!("error: {commit}:spec/big.yaml: the file is larger than 16 MiB\n"));
    // Five files of 15 MiB (one blob, five names): past the 64 MiB of a whole spec, refused
    // from the sizes the tree lists, before 75 MB are read.
    let part = "# padding\n".repeat(1_500_000);
    let names = ["a.yaml", "b.yaml", "c.yaml", "d.yaml", "e.yaml"];
    let files: Vec<(&str, &[u8])> = names.iter().map(|name| (*name, part.as_bytes())).collect();
    let commit = commit_with(repo.path(), &files);
    let stderr = failed(&run_in(repo.path(), &["diff", "--base-rev", &commit], &[]), 2);
    let total = 5 * part.len() + ["api.yaml", "pets.yaml"].iter().map(|f| spec_size(repo.path(), f)).sum::<usize>();
    assert_eq!(
        stderr,
        format!("error: the spec's files at {commit}:spec hold {total} bytes together, more than 64 MiB\n")
    );
}

/// The size of `spec/<name>` as committed at HEAD.
fn spec_size(repo: &Path, name: &str) -> usize {
    git(repo, &["cat-file", "-s", &format!("HEAD:spec/{name}")], None).parse().unwrap()
}
