//! Every input file goes through one reader: only regular files, at most
//! `apigen::input::MAX_FILE_BYTES`, and a link in the spec directory never leads out of it.

use crate::common::{copy_fixture, failed, ok, run_in};
use std::os::unix::fs::symlink;
use std::path::Path;

fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

/// The config file apigen finds in `dir`, as it names it (the absolute path of the directory).
fn found(dir: &Path) -> String {
    dir.canonicalize().unwrap().join("apigen.toml").display().to_string()
}

#[test]
fn a_fifo_given_as_the_config_file_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    copy_fixture("petstore", &dir.path().join("spec"));
    mkfifo(&dir.path().join("fifo.toml"));
    let output = run_in(dir.path(), &["--config", "fifo.toml", "lint"], &[]);
    let stderr = failed(&output, 1);
    assert!(stderr.ends_with("fifo.toml: not a regular file (a FIFO)\n"), "{stderr}");
}

#[test]
fn a_fifo_named_apigen_toml_is_refused_not_skipped() {
    let dir = tempfile::tempdir().unwrap();
    copy_fixture("petstore", &dir.path().join("spec"));
    mkfifo(&dir.path().join("apigen.toml"));
    let stderr = failed(&run_in(dir.path(), &["lint"], &[]), 1);
    assert_eq!(stderr, format!("error: {}: not a regular file (a FIFO)\n", found(dir.path())));
}

#[test]
fn a_config_file_larger_than_the_cap_is_refused_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let big = std::fs::File::create(dir.path().join("apigen.toml")).unwrap();
    big.set_len(apigen::input::MAX_FILE_BYTES + 1).unwrap(); // sparse: costs no disk
    let stderr = failed(&run_in(dir.path(), &["lint"], &[]), 1);
    assert_eq!(stderr, format!("error: {}: the file is larger than 64 MiB\n", found(dir.path())));
}

#[test]
fn a_config_file_that_is_not_utf8_is_located() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("apigen.toml"), b"spec = \"spec\"\nout = \"g\xffen\"\n").unwrap();
    let stderr = failed(&run_in(dir.path(), &["lint"], &[]), 1);
    let expected = format!("error: {}:2:9: the file is not UTF-8: byte 0xff is not valid here\n", found(dir.path()));
    assert_eq!(stderr, expected);
}

#[test]
fn a_link_in_the_spec_directory_to_a_file_outside_it_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec");
    copy_fixture("petstore", &spec);
    std::fs::write(dir.path().join("secret.yaml"), "types: {}\n").unwrap();
    symlink("../secret.yaml", spec.join("extra.yaml")).unwrap();
    // A link to a file inside the directory is read like the file.
    std::fs::create_dir(spec.join("areas")).unwrap();
    std::fs::rename(spec.join("pets.yaml"), spec.join("areas/pets.txt")).unwrap();
    symlink("areas/pets.txt", spec.join("pets.yaml")).unwrap();
    let stderr = failed(&run_in(dir.path(), &["lint"], &[]), 1);
    assert_eq!(
        stderr,
        format!(
            "error: spec/extra.yaml: a link leading out of spec (to {}): not followed\n  \
             hint: copy the file into the spec directory, or point --spec at the directory holding it\n\
             1 error(s), 0 warning(s)\n",
            dir.path().canonicalize().unwrap().join("secret.yaml").display()
        )
    );
    std::fs::remove_file(spec.join("extra.yaml")).unwrap();
    assert_eq!(ok(&run_in(dir.path(), &["lint"], &[])), "ok: 6 operations, 6 types (3 named, 3 inline), 1 gap\n");
}

#[test]
fn a_linked_folder_in_the_spec_directory_is_reported_not_skipped_silently() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec");
    copy_fixture("petstore", &spec);
    std::fs::create_dir(dir.path().join("shared")).unwrap();
    symlink("../shared", spec.join("shared")).unwrap();
    let output = run_in(dir.path(), &["lint"], &[]);
    assert_eq!(ok(&output), "ok: 6 operations, 6 types (3 named, 3 inline), 1 gap\n");
    assert_eq!(
        crate::common::text(&output.stderr),
        "warning: spec/shared: a link to a directory: not followed, so no file in it is read\n  \
         hint: move the directory into the spec directory, or link each file\n\
         0 error(s), 1 warning(s)\n"
    );
}
