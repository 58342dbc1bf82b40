//! Determinism and the drift check: the same spec gives the same bytes wherever it lives, and
//! `check` finds every edited, missing and extra file.

use apigen::config::Flags;
use apigen::emit::Output;
use std::fs;
use std::path::Path;

/// Paths below are relative to the `tests` crate, where cargo runs these tests; the options
/// are those `apigen --out <out_from_root>` run from the repository root would use (its
/// `apigen.toml` included).
fn generate(spec: &str, out_from_root: &str) -> Output {
    let flags = Flags { out: Some(out_from_root.into()), ..Flags::default() };
    let options = apigen::config::resolve(flags, Path::new("..")).unwrap().options;
    match apigen::load(Path::new(spec)) {
        Ok((api, warnings)) => {
            assert!(warnings.is_empty(), "{spec}:\n{}", warnings.render());
            apigen::emit::emit(&api, &options)
        }
        Err(diags) => panic!("{spec}:\n{}", diags.render()),
    }
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() { copy_dir(&path, &target) } else { fs::copy(&path, &target).map(|_| ()).unwrap() }
    }
}

#[test]
fn generating_twice_gives_the_same_bytes() {
    let first = generate("../spec", "generated");
    let second = generate("../spec", "generated");
    assert_eq!(first, second);
    assert!(first.files().len() > 10, "{:?}", first.files().keys());
}

#[test]
fn the_output_does_not_depend_on_where_the_spec_lives() {
    let copy = tempfile::tempdir().unwrap();
    copy_dir(Path::new("../spec"), &copy.path().join("nested/spec"));
    let here = generate("../spec", "generated");
    let there = generate(copy.path().join("nested/spec").to_str().unwrap(), "generated");
    assert_eq!(here, there, "an absolute path or a directory listing order leaked into the output");
    let absolute = copy.path().to_string_lossy().into_owned();
    for (path, contents) in here.files() {
        assert!(!contents.contains(&absolute), "{path} holds an absolute path");
    }
}

/// Every checked-in fixture output (`fixtures/generated/<name>`), found by directory, with its
/// spec (`fixtures/valid/<name>`): a fixture added there is drift-checked without a list to
/// keep.
fn fixture_outputs() -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir("fixtures/generated")
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_type().unwrap().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn the_checked_in_outputs_match_their_specs() {
    let fixtures = fixture_outputs();
    assert!(fixtures.len() >= 8 && fixtures.contains(&"library".to_owned()), "{fixtures:?}");
    let mut cases = vec![("../spec".to_owned(), "../generated".to_owned(), "generated".to_owned())];
    for name in fixtures {
        let spec = format!("fixtures/valid/{name}");
        assert!(Path::new(&spec).is_dir(), "fixtures/generated/{name} has no spec at {spec}");
        cases.push((spec, format!("fixtures/generated/{name}"), format!("tests/fixtures/generated/{name}")));
    }
    for (spec, dir, from_root) in cases {
        let drift = generate(&spec, &from_root).check(Path::new(&dir)).unwrap();
        assert!(drift.is_clean(), "{dir} is stale; run tests/regenerate.sh:\n{}", drift.render("tests/regenerate.sh"));
    }
}

#[test]
fn check_reports_an_edited_a_missing_and_an_extra_file_and_generate_repairs_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("generated");
    let output = generate("fixtures/valid/petstore", "generated");
    let report = output.write(&out).unwrap();
    assert_eq!(report.written.len(), output.files().len());
    assert!(output.check(&out).unwrap().is_clean());

    let edited = "types/src/pets.rs";
    let missing = "types/Cargo.toml";
    let original = fs::read_to_string(out.join(edited)).unwrap();
    fs::write(out.join(edited), original.replacen("pub struct Pet {", "pub struct Pet { // hand edit", 1)).unwrap();
    fs::remove_file(out.join(missing)).unwrap();
    fs::create_dir_all(out.join("types/src/extra")).unwrap();
    fs::write(out.join("types/src/extra/stale.rs"), "// left over\n").unwrap();
    // What building a generated crate alone leaves is no drift.
    fs::write(out.join("types/Cargo.lock"), "# lock\n").unwrap();
    fs::create_dir_all(out.join("types/target/debug")).unwrap();
    fs::write(out.join("types/target/debug/libpetstore_types.rlib"), "").unwrap();

    let drift = output.check(&out).unwrap();
    assert_eq!(drift.changed.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(), [edited]);
    assert_eq!(drift.missing, [missing]);
    assert_eq!(drift.extra, ["types/src/extra/stale.rs"]);
    let rendered = drift.render("apigen generate");
    assert!(
        rendered.contains("--- a/types/src/pets.rs (on disk)\n+++ b/types/src/pets.rs (from the spec)"),
        "{rendered}"
    );
    assert!(rendered.contains("-pub struct Pet { // hand edit\n+pub struct Pet {\n"), "{rendered}");
    assert!(rendered.contains("missing: types/Cargo.toml"), "{rendered}");
    assert!(rendered.contains("extra: types/src/extra/stale.rs"), "{rendered}");
    assert!(rendered.ends_with("drift: 1 changed, 1 missing, 1 extra; run `apigen generate`\n"), "{rendered}");

    // apigen did not write the extra file: it is left alone (and `check` keeps reporting it).
    let report = output.write(&out).unwrap();
    assert_eq!(report.written, [missing, edited]);
    assert_eq!(report.removed, Vec::<String>::new());
    assert_eq!(report.kept, ["types/src/extra/stale.rs"]);
    assert_eq!(output.check(&out).unwrap().extra, ["types/src/extra/stale.rs"]);
    fs::remove_dir_all(out.join("types/src/extra")).unwrap();
    assert!(output.check(&out).unwrap().is_clean());
}

#[test]
fn generate_removes_the_files_an_earlier_run_wrote_and_the_spec_no_longer_produces() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec");
    copy_dir(Path::new("fixtures/valid/petstore"), &spec);
    let out = dir.path().join("generated");
    generate(spec.to_str().unwrap(), "generated").write(&out).unwrap();
    // Moving the types to another file moves them to another module of the types crate.
    fs::rename(spec.join("pets.yaml"), spec.join("animals.yaml")).unwrap();
    let report = generate(spec.to_str().unwrap(), "generated").write(&out).unwrap();
    assert_eq!(report.removed, ["types/src/pets.rs"]);
    assert!(report.written.contains(&"types/src/animals.rs".to_owned()), "{:?}", report.written);
    assert!(report.kept.is_empty());
}

#[test]
fn a_one_word_summary_change_rewrites_only_the_files_that_show_it() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec");
    copy_dir(Path::new("fixtures/valid/petstore"), &spec);
    let out = dir.path().join("generated");
    let first = generate(spec.to_str().unwrap(), "generated");
    first.write(&out).unwrap();
    let pets = fs::read_to_string(spec.join("pets.yaml")).unwrap();
    fs::write(spec.join("pets.yaml"), pets.replacen("summary: Get a pet.", "summary: Fetch a pet.", 1)).unwrap();
    let report = generate(spec.to_str().unwrap(), "generated").write(&out).unwrap();
    // The summary is a doc comment of the server trait and the client method, an OpenAPI
    // summary and a line of the reference; the stamp records the new spec hash. Nothing else.
    assert_eq!(
        report.written,
        [".apigen-stamp", "REFERENCE.md", "client/src/pets.rs", "openapi.json", "server/src/pets.rs"]
    );
    assert_eq!(report.unchanged, first.files().len() - 5);
}

/// A directory holding `outside/precious.txt` and an output directory `out` written by apigen.
fn output_beside_precious_files() -> (tempfile::TempDir, Output) {
    let root = tempfile::tempdir().unwrap();
    fs::create_dir_all(root.path().join("outside")).unwrap();
    fs::write(root.path().join("outside/precious.txt"), "someone's work").unwrap();
    let output = generate("fixtures/valid/petstore", "generated");
    output.write(&root.path().join("out")).unwrap();
    (root, output)
}

/// Every file below `dir` with its bytes, not following links.
fn snapshot_of(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in fs::read_dir(&current).unwrap() {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                pending.push(entry.path());
            } else if kind.is_file() {
                found.push((entry.path(), fs::read(entry.path()).unwrap()));
            }
        }
    }
    found.sort();
    found
}

#[cfg(unix)]
#[test]
fn symbolic_links_in_the_output_are_refused_and_nothing_outside_it_changes() {
    use std::os::unix::fs::symlink;
    let (root, output) = output_beside_precious_files();
    let out = root.path().join("out");
    // A link to a parent, a generated file replaced by a link to a file outside, a loop.
    symlink("..", out.join("up")).unwrap();
    fs::remove_file(out.join("types/src/lib.rs")).unwrap();
    symlink("../../../outside/precious.txt", out.join("types/src/lib.rs")).unwrap();
    symlink(".", out.join("server/loop")).unwrap();
    let before = snapshot_of(root.path());

    let expected = format!(
        "refusing to use {}: it holds symbolic links or special files apigen never writes through, follows or removes: \
         server/loop (a symbolic link), types/src/lib.rs (a symbolic link), up (a symbolic link); remove them and run again",
        out.display()
    );
    assert_eq!(output.write(&out).unwrap_err().to_string(), expected);
    assert_eq!(output.check(&out).unwrap_err().to_string(), expected);
    assert_eq!(snapshot_of(root.path()), before, "nothing changed, inside or outside the output");
    assert_eq!(fs::read_to_string(root.path().join("outside/precious.txt")).unwrap(), "someone's work");
}

#[cfg(unix)]
#[test]
fn a_fifo_in_the_output_is_refused_instead_of_blocking_a_read() {
    let (root, output) = output_beside_precious_files();
    let out = root.path().join("out");
    fs::remove_file(out.join("openapi.json")).unwrap();
    let made = std::process::Command::new("mkfifo").arg(out.join("openapi.json")).status().unwrap();
    assert!(made.success());
    let error = output.check(&out).unwrap_err().to_string();
    assert!(error.ends_with("openapi.json (not a regular file); remove them and run again"), "{error}");
}

#[test]
fn an_unchanged_file_is_not_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let output = generate("fixtures/valid/petstore", "generated");
    output.write(dir.path()).unwrap();
    let path = dir.path().join("types/src/lib.rs");
    let before = fs::metadata(&path).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let report = output.write(dir.path()).unwrap();
    assert!(report.written.is_empty(), "{:?}", report.written);
    assert_eq!(report.unchanged, output.files().len());
    assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), before);
}

#[test]
fn generate_refuses_to_clean_a_directory_it_did_not_write() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("precious.txt"), "someone's work").unwrap();
    let error = generate("fixtures/valid/petstore", "generated").write(dir.path()).unwrap_err();
    assert!(error.to_string().starts_with("refusing to write into "), "{error}");
    assert!(dir.path().join("precious.txt").exists());
}

#[test]
fn a_marker_without_a_stamp_proves_nothing_and_nothing_is_deleted() {
    let dir = tempfile::tempdir().unwrap();
    // The old marker line, copied into someone's repository (or a stale checkout).
    fs::write(dir.path().join(".gitattributes"), "# @generated by apigen from something\n").unwrap();
    fs::write(dir.path().join("README.md"), "someone's work").unwrap();
    fs::create_dir_all(dir.path().join(".git")).unwrap();
    fs::write(dir.path().join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    let before = snapshot_of(dir.path());
    let error = generate("fixtures/valid/petstore", "generated").write(dir.path()).unwrap_err();
    assert!(error.to_string().contains("no .apigen-stamp of an earlier run of apigen"), "{error}");
    assert_eq!(snapshot_of(dir.path()), before, "nothing written, nothing removed");
}

#[cfg(unix)]
#[test]
fn an_output_directory_that_is_a_link_is_refused_and_what_it_points_to_is_untouched() {
    let (root, output) = output_beside_precious_files();
    fs::write(root.path().join("outside/.gitattributes"), "# @generated by apigen\n").unwrap();
    std::os::unix::fs::symlink("outside", root.path().join("linked")).unwrap();
    let before = snapshot_of(root.path());
    let error = output.write(&root.path().join("linked")).unwrap_err().to_string();
    assert!(error.contains("the directory itself is a symbolic link"), "{error}");
    assert_eq!(snapshot_of(root.path()), before);
}

#[cfg(unix)]
#[test]
fn a_generated_file_hard_linked_to_another_is_replaced_not_written_through() {
    let (root, output) = output_beside_precious_files();
    let out = root.path().join("out");
    let victim = root.path().join("outside/precious.txt");
    fs::remove_file(out.join("types/Cargo.toml")).unwrap();
    fs::hard_link(&victim, out.join("types/Cargo.toml")).unwrap();
    let report = output.write(&out).unwrap();
    assert_eq!(report.written, ["types/Cargo.toml"]);
    assert_eq!(fs::read_to_string(&victim).unwrap(), "someone's work", "the other name of the file kept its bytes");
    assert_eq!(fs::read(out.join("types/Cargo.toml")).unwrap(), output.files()["types/Cargo.toml"].as_bytes());
    let leftovers: Vec<_> = fs::read_dir(out.join("types"))
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.contains(".apigen-").then_some(name)
        })
        .collect();
    assert!(leftovers.is_empty(), "no temporary file left: {leftovers:?}");
}

#[test]
fn the_stamp_proves_an_untouched_output_current_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec");
    copy_dir(Path::new("fixtures/valid/petstore"), &spec);
    let out = dir.path().join("generated");
    let flags = Flags { out: Some("generated".into()), ..Flags::default() };
    let options = apigen::config::resolve(flags, Path::new("..")).unwrap().options;
    let load = |spec: &Path| apigen::load(spec).map_err(|d| d.render()).unwrap().0;
    let api = load(&spec);
    assert_eq!(apigen::emit::unchanged(&out, &api, &options), None, "no output yet");
    let output = generate(spec.to_str().unwrap(), "generated");
    output.write(&out).unwrap();
    assert_eq!(apigen::emit::unchanged(&out, &api, &options), Some(output.files().len()));

    // Build leftovers are not drift; a hand edit, an extra file or a spec change is.
    fs::write(out.join("types/Cargo.lock"), "# lock\n").unwrap();
    assert_eq!(apigen::emit::unchanged(&out, &api, &options), Some(output.files().len()));
    let pets = out.join("types/src/pets.rs");
    let original = fs::read(&pets).unwrap();
    fs::write(&pets, [original.as_slice(), b"// hand edit\n"].concat()).unwrap();
    assert_eq!(apigen::emit::unchanged(&out, &api, &options), None, "edited file");
    fs::write(&pets, &original).unwrap();
    fs::write(out.join("types/src/stale.rs"), "// left over\n").unwrap();
    assert_eq!(apigen::emit::unchanged(&out, &api, &options), None, "extra file");
    fs::remove_file(out.join("types/src/stale.rs")).unwrap();
    let text = fs::read_to_string(spec.join("pets.yaml")).unwrap();
    fs::write(spec.join("pets.yaml"), text.replacen("summary: Get a pet.", "summary: Fetch a pet.", 1)).unwrap();
    assert_eq!(apigen::emit::unchanged(&out, &load(&spec), &options), None, "spec changed");
    let other = apigen::emit::Options { regenerate: "make api".into(), ..options.clone() };
    assert_eq!(apigen::emit::unchanged(&out, &api, &other), None, "options changed");
}

/// Options and model of `spec` as `apigen --out generated` run from the repository root sees
/// them.
fn load_with_options(spec: &Path) -> (apigen::model::Api, apigen::emit::Options) {
    let flags = Flags { out: Some("generated".into()), ..Flags::default() };
    let options = apigen::config::resolve(flags, Path::new("..")).unwrap().options;
    (apigen::load(spec).map_err(|d| d.render()).unwrap().0, options)
}

#[test]
fn reusing_printed_files_gives_exactly_what_printing_gives() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec");
    copy_dir(Path::new("../spec"), &spec);
    let out = dir.path().join("generated");
    let (api, options) = load_with_options(&spec);
    apigen::emit::emit(&api, &options).write(&out).unwrap();
    let text = fs::read_to_string(spec.join("spaces.yaml")).unwrap();
    fs::write(spec.join("spaces.yaml"), text.replacen("summary: ", "summary: Newly ", 1)).unwrap();
    let (api, options) = load_with_options(&spec);
    let printed = apigen::emit::emit(&api, &options);
    // Every file, its hash and the stamp (which records what each was printed from).
    assert_eq!(apigen::emit::emit_into(&out, &api, &options), printed);
    // A hand-edited file is not taken for printed output: its bytes no longer hash to the
    // stamp's, so it is printed again and the drift shows.
    let pets = out.join("types/src/spaces.rs");
    let original = fs::read_to_string(&pets).unwrap();
    fs::write(&pets, format!("{original}// hand edit\n")).unwrap();
    let output = apigen::emit::emit_into(&out, &api, &options);
    assert_eq!(output, printed);
    let drift = output.check(&out).unwrap();
    assert!(drift.changed.iter().any(|(path, _)| path == "types/src/spaces.rs"), "{drift:?}");
}

/// Rewrites the stamp line of `path` with `edit`.
fn edit_stamp_entry(out: &Path, path: &str, edit: impl Fn(&str) -> String) {
    let stamp = fs::read_to_string(out.join(".apigen-stamp")).unwrap();
    let needle = format!("{{ path = \"{path}\"");
    let edited: Vec<String> = stamp
        .lines()
        .map(|line| if line.trim_start().starts_with(&needle) { edit(line) } else { line.to_owned() })
        .collect();
    assert_ne!(edited.join("\n") + "\n", stamp, "{path} is not in the stamp");
    fs::write(out.join(".apigen-stamp"), edited.join("\n") + "\n").unwrap();
}

#[test]
fn a_file_is_reused_only_for_the_same_tokens_and_the_same_printer() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec");
    copy_dir(Path::new("fixtures/valid/petstore"), &spec);
    let out = dir.path().join("generated");
    let (api, options) = load_with_options(&spec);
    let printed = apigen::emit::emit(&api, &options);
    printed.write(&out).unwrap();
    // Make the file on disk differ from what printing gives, and make the stamp vouch for it:
    // that it then comes back proves the file was reused, not printed.
    let path = "client/src/pets.rs";
    let marked = format!("{}// reused\n", printed.files()[path]);
    fs::write(out.join(path), &marked).unwrap();
    let vouch = |line: &str| {
        let old = printed.hash(path).unwrap();
        line.replace(&old, &apigen::hash::hex(marked.as_bytes()))
    };
    edit_stamp_entry(&out, path, vouch);
    assert_eq!(apigen::emit::emit_into(&out, &api, &options).files()[path], marked);
    // Other tokens (the summary shows in the client): printed again.
    let text = fs::read_to_string(spec.join("pets.yaml")).unwrap();
    fs::write(spec.join("pets.yaml"), text.replacen("summary: Get a pet.", "summary: Fetch a pet.", 1)).unwrap();
    let (changed, _) = load_with_options(&spec);
    let output = apigen::emit::emit_into(&out, &changed, &options);
    assert_eq!(output.files()[path], apigen::emit::emit(&changed, &options).files()[path]);
    // The same tokens from another printer (another build of apigen): printed again.
    let stamp = fs::read_to_string(out.join(".apigen-stamp")).unwrap();
    let printer = stamp.lines().find(|l| l.starts_with("printer = ")).unwrap().to_owned();
    fs::write(out.join(".apigen-stamp"), stamp.replace(&printer, "printer = \"0000000000000000\"")).unwrap();
    assert_eq!(apigen::emit::emit_into(&out, &api, &options).files()[path], printed.files()[path]);
}
