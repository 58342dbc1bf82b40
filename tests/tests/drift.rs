//! Determinism and the drift check: the same spec gives the same bytes wherever it lives, and
//! `check` finds every edited, missing and extra file.

use apigen::config::Flags;
use apigen::out::{Build, CacheDir, OutputDir, WriteReport};
use apigen::{Drift, Generator, Output, WriteError};
use std::fs;
use std::path::Path;

/// The generator `apigen --spec <spec> --out <out_from_root>` run from the repository root
/// would be (its `apigen.toml` included), remembering nothing. `spec` is relative to the
/// `tests` crate, where cargo runs these tests.
fn generator(spec: &str, out_from_root: &str) -> Generator {
    let flags = Flags { out: Some(out_from_root.into()), ..Flags::default() };
    Generator::from(apigen::config::resolve(flags, Path::new("..")).unwrap()).spec(spec).cache(CacheDir::none())
}

/// Every file the spec produces, stamped.
fn generate(spec: &str, out_from_root: &str) -> Output {
    match generator(spec, out_from_root).emit() {
        Ok((output, warnings)) => {
            assert!(warnings.is_empty(), "{spec}:\n{}", warnings.render());
            output
        }
        Err(failure) => panic!("{spec}:\n{failure}"),
    }
}

/// `output` written into `dir`.
fn write(output: &Output, dir: &Path) -> Result<WriteReport, WriteError> {
    OutputDir::open(dir, CacheDir::none())?.write(output)
}

/// `dir` compared with `output`.
fn check(output: &Output, dir: &Path) -> Result<Drift, WriteError> {
    OutputDir::open(dir, CacheDir::none())?.check(output)
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
        let drift = check(&generate(&spec, &from_root), Path::new(&dir)).unwrap();
        assert!(drift.is_clean(), "{dir} is stale; run tests/regenerate.sh:\n{}", drift.render("tests/regenerate.sh"));
    }
}

#[test]
fn check_reports_an_edited_a_missing_and_an_extra_file_and_generate_repairs_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("generated");
    let output = generate("fixtures/valid/petstore", "generated");
    let report = write(&output, &out).unwrap();
    assert_eq!(report.written.len(), output.files().len());
    assert!(check(&output, &out).unwrap().is_clean());

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

    let drift = check(&output, &out).unwrap();
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
    let report = write(&output, &out).unwrap();
    assert_eq!(report.written, [missing, edited]);
    assert_eq!(report.removed, Vec::<String>::new());
    assert_eq!(report.kept, ["types/src/extra/stale.rs"]);
    assert_eq!(check(&output, &out).unwrap().extra, ["types/src/extra/stale.rs"]);
    fs::remove_dir_all(out.join("types/src/extra")).unwrap();
    assert!(check(&output, &out).unwrap().is_clean());
}

#[test]
fn generate_removes_the_files_an_earlier_run_wrote_and_the_spec_no_longer_produces() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec");
    copy_dir(Path::new("fixtures/valid/petstore"), &spec);
    let out = dir.path().join("generated");
    write(&generate(spec.to_str().unwrap(), "generated"), &out).unwrap();
    // Moving the types to another file moves them to another module of the types crate.
    fs::rename(spec.join("pets.yaml"), spec.join("animals.yaml")).unwrap();
    let report = write(&generate(spec.to_str().unwrap(), "generated"), &out).unwrap();
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
    write(&first, &out).unwrap();
    let pets = fs::read_to_string(spec.join("pets.yaml")).unwrap();
    fs::write(spec.join("pets.yaml"), pets.replacen("summary: Get a pet.", "summary: Fetch a pet.", 1)).unwrap();
    let report = write(&generate(spec.to_str().unwrap(), "generated"), &out).unwrap();
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
    write(&output, &root.path().join("out")).unwrap();
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
    assert_eq!(write(&output, &out).unwrap_err().to_string(), expected);
    assert_eq!(check(&output, &out).unwrap_err().to_string(), expected);
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
    let error = check(&output, &out).unwrap_err().to_string();
    assert!(error.ends_with("openapi.json (not a regular file); remove them and run again"), "{error}");
}

#[test]
fn an_unchanged_file_is_not_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let output = generate("fixtures/valid/petstore", "generated");
    write(&output, dir.path()).unwrap();
    let path = dir.path().join("types/src/lib.rs");
    let before = fs::metadata(&path).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let report = write(&output, dir.path()).unwrap();
    assert!(report.written.is_empty(), "{:?}", report.written);
    assert_eq!(report.unchanged, output.files().len());
    assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), before);
}

#[test]
fn generate_refuses_to_clean_a_directory_it_did_not_write() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("precious.txt"), "someone's work").unwrap();
    let error = write(&generate("fixtures/valid/petstore", "generated"), dir.path()).unwrap_err();
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
    let error = write(&generate("fixtures/valid/petstore", "generated"), dir.path()).unwrap_err();
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
    let error = write(&output, &root.path().join("linked")).unwrap_err().to_string();
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
    let report = write(&output, &out).unwrap();
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

/// The model of `spec`, the options `apigen --out generated` run from the repository root
/// uses, and the build of that output by this apigen.
fn load_with_options(spec: &Path) -> (apigen::model::Api, apigen::Options, Build) {
    let generator = generator(spec.to_str().unwrap(), "generated");
    let (api, _) = generator.lint().map_err(|d| d.render()).unwrap();
    let options = generator.options();
    let build = Build::of(&api, &options);
    (api, options, build)
}

/// `output` of `api` stamped.
fn stamped(api: &apigen::model::Api, options: &apigen::Options, output: Output) -> Output {
    apigen::out::stamp::stamped(api, options, output)
}

#[test]
fn the_cache_proves_an_untouched_output_current_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec");
    copy_dir(Path::new("fixtures/valid/petstore"), &spec);
    let out = dir.path().join("generated");
    let cache = CacheDir::at(dir.path().join("cache"));
    let (api, options, build) = load_with_options(&spec);
    let current = |build: &Build| OutputDir::open(&out, cache.clone()).unwrap().current(build);
    assert_eq!(current(&build), None, "no output yet");
    let output = generate(spec.to_str().unwrap(), "generated");
    let opened = OutputDir::open(&out, cache.clone()).unwrap();
    opened.write(&output).unwrap();
    assert_eq!(current(&build), None, "written, but not remembered");
    opened.remember(&output, &build);
    assert_eq!(current(&build), Some(output.files().len()));
    assert_eq!(OutputDir::open(&out, CacheDir::none()).unwrap().current(&build), None, "without a cache");

    // Build leftovers are not drift; a hand edit, an extra file or a spec change is.
    fs::write(out.join("types/Cargo.lock"), "# lock\n").unwrap();
    assert_eq!(current(&build), Some(output.files().len()));
    let pets = out.join("types/src/pets.rs");
    let original = fs::read(&pets).unwrap();
    fs::write(&pets, [original.as_slice(), b"// hand edit\n"].concat()).unwrap();
    assert_eq!(current(&build), None, "edited file");
    fs::write(&pets, &original).unwrap();
    fs::write(out.join("types/src/stale.rs"), "// left over\n").unwrap();
    assert_eq!(current(&build), None, "extra file");
    fs::remove_file(out.join("types/src/stale.rs")).unwrap();
    let stamp = out.join(".apigen-stamp");
    let stamp_text = fs::read_to_string(&stamp).unwrap();
    fs::write(&stamp, stamp_text.replacen("spec-hash", "spec-hash-edited", 1)).unwrap();
    assert_eq!(current(&build), None, "another stamp than the one remembered");
    fs::write(&stamp, &stamp_text).unwrap();
    assert_eq!(current(&build), Some(output.files().len()));
    let text = fs::read_to_string(spec.join("pets.yaml")).unwrap();
    fs::write(spec.join("pets.yaml"), text.replacen("summary: Get a pet.", "summary: Fetch a pet.", 1)).unwrap();
    assert_eq!(current(&load_with_options(&spec).2), None, "spec changed");
    let other = apigen::Options { regenerate: "make api".into(), ..options.clone() };
    assert_eq!(current(&Build::of(&api, &other)), None, "options changed");
}

#[test]
fn the_committed_stamp_holds_nothing_of_the_build_of_apigen() {
    let (api, options, build) = load_with_options(Path::new("fixtures/valid/petstore"));
    let output = generate("fixtures/valid/petstore", "generated");
    let stamp = &output.files()[".apigen-stamp"];
    for word in [build.fingerprint.as_str(), build.printer.as_str(), "fingerprint", "printer", "source ="] {
        assert!(!stamp.contains(word), "{word} in the stamp:\n{stamp}");
    }
    // Its lines: the header, what it was generated from, then one line per file.
    let keys: Vec<&str> = stamp
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("    "))
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(keys, ["spec-hash", "generator", "runtime", "files", "]"]);
    assert_eq!(stamp, &apigen::out::stamp::render(&api, &options, &apigen::emit::emit(&api, &options)));
}

#[test]
fn generate_with_a_cache_skips_emission_and_check_still_sees_an_edit() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("generated");
    let cache = CacheDir::at(dir.path().join("cache"));
    let generator = generator("fixtures/valid/petstore", out.to_str().unwrap()).cache(cache);
    let generated = generator.generate().unwrap();
    assert_eq!(generated.report.unchanged, 0);
    let files = generated.report.written.len();
    let entries = fs::read_dir(dir.path().join("cache")).unwrap().filter(|e| e.as_ref().unwrap().path().is_file());
    assert_eq!(entries.count(), 1, "one entry, for the one directory (beside the spec files' trees)");
    let again = generator.generate().unwrap();
    assert_eq!((again.report.written.len(), again.report.unchanged), (0, files));
    assert_eq!(generator.check().unwrap().files, files);
    fs::write(out.join("types/src/pets.rs"), "// hand edit\n").unwrap();
    let checked = generator.check().unwrap();
    assert_eq!(checked.drift.changed.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(), ["types/src/pets.rs"]);
    assert_eq!(generator.generate().unwrap().report.written, ["types/src/pets.rs"]);
    assert!(generator.check().unwrap().drift.is_clean());
}

#[test]
fn reusing_printed_files_gives_exactly_what_printing_gives() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec");
    copy_dir(Path::new("../spec"), &spec);
    let out = dir.path().join("generated");
    let cache = CacheDir::at(dir.path().join("cache"));
    let (api, options, build) = load_with_options(&spec);
    let first = stamped(&api, &options, apigen::emit::emit(&api, &options));
    let opened = OutputDir::open(&out, cache.clone()).unwrap();
    opened.write(&first).unwrap();
    opened.remember(&first, &build);
    let text = fs::read_to_string(spec.join("spaces.yaml")).unwrap();
    fs::write(spec.join("spaces.yaml"), text.replacen("summary: ", "summary: Newly ", 1)).unwrap();
    let (api, options, build) = load_with_options(&spec);
    let printed = apigen::emit::emit(&api, &options);
    let reusing = |build: &Build| {
        let opened = OutputDir::open(&out, cache.clone()).unwrap();
        apigen::emit::emit_reusing(&api, &options, &opened.printed(build))
    };
    assert_eq!(reusing(&build), printed);
    // A hand-edited file is not taken for printed output: its bytes no longer hash to what
    // was printed, so it is printed again and the drift shows.
    let spaces = out.join("types/src/spaces.rs");
    let original = fs::read_to_string(&spaces).unwrap();
    fs::write(&spaces, format!("{original}// hand edit\n")).unwrap();
    let output = stamped(&api, &options, reusing(&build));
    assert_eq!(output, stamped(&api, &options, printed));
    let drift = check(&output, &out).unwrap();
    assert!(drift.changed.iter().any(|(path, _)| path == "types/src/spaces.rs"), "{drift:?}");
}

/// The one cache entry below `cache` (its only file: the spec files' trees are in a folder).
fn the_cache_entry(cache: &Path) -> std::path::PathBuf {
    let mut files = fs::read_dir(cache).unwrap().map(|e| e.unwrap().path()).filter(|path| path.is_file());
    files.next().unwrap()
}

/// Rewrites the line of `path` in the one cache entry below `cache` with `edit`.
fn edit_cache_entry(cache: &Path, path: &str, edit: impl Fn(&str) -> String) {
    let entry = the_cache_entry(cache);
    let text = fs::read_to_string(&entry).unwrap();
    let needle = format!("{{ path = \"{path}\"");
    let edited: Vec<String> = text
        .lines()
        .map(|line| if line.trim_start().starts_with(&needle) { edit(line) } else { line.to_owned() })
        .collect();
    assert_ne!(edited.join("\n") + "\n", text, "{path} is not in the cache");
    fs::write(&entry, edited.join("\n") + "\n").unwrap();
}

/// Seals the one cache entry below `cache` again with the key kept beside it (SipHash-2-4,
/// as apigen seals): what a forger holding the key could do.
fn reseal_cache_entry(cache: &Path) {
    use std::hash::Hasher;
    let entry = the_cache_entry(cache);
    let text = fs::read_to_string(&entry).unwrap();
    let (body, _) = text.rsplit_once("seal = \"").unwrap();
    let key = fs::read_to_string(cache.with_extension("key")).unwrap();
    let word = |range: std::ops::Range<usize>| u64::from_str_radix(&key[range], 16).unwrap();
    #[allow(deprecated)]
    let mut hasher = std::hash::SipHasher::new_with_keys(word(0..16), word(16..32));
    hasher.write(body.as_bytes());
    fs::write(&entry, format!("{body}seal = \"{:016x}\"\n", hasher.finish())).unwrap();
}

#[test]
fn a_forged_cache_entry_never_keeps_a_tampered_file_through_a_spec_change() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec");
    copy_dir(Path::new("fixtures/valid/petstore"), &spec);
    let out = dir.path().join("generated");
    let cache_dir = dir.path().join("cache");
    let generator = || generator(spec.to_str().unwrap(), out.to_str().unwrap()).cache(CacheDir::at(&cache_dir));
    generator().generate().unwrap();
    // Injected code, and the cache's line for the file forged to name its hash (issue 50):
    // the types do not show the summary changed below, so the tokens match the entry.
    let path = "types/src/pets.rs";
    let printed = fs::read_to_string(out.join(path)).unwrap();
    let tampered = format!("{printed}pub fn backdoor() {{}}\n");
    fs::write(out.join(path), &tampered).unwrap();
    let (old, new) = (apigen::hash::hex(printed.as_bytes()), apigen::hash::hex(tampered.as_bytes()));
    edit_cache_entry(&cache_dir, path, |line| line.replace(&old, &new));
    let text = fs::read_to_string(spec.join("pets.yaml")).unwrap();
    fs::write(spec.join("pets.yaml"), text.replacen("summary: Get a pet.", "summary: Fetch a pet.", 1)).unwrap();

    let generated = generator().generate().unwrap();
    assert!(generated.report.written.iter().any(|p| p == path), "{:?}", generated.report.written);
    assert_eq!(fs::read_to_string(out.join(path)).unwrap(), printed);
    assert!(generator().check().unwrap().drift.is_clean());
}

#[test]
fn a_file_is_reused_only_for_the_same_tokens_and_the_same_printer() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec");
    copy_dir(Path::new("fixtures/valid/petstore"), &spec);
    let out = dir.path().join("generated");
    let cache_dir = dir.path().join("cache");
    let cache = CacheDir::at(&cache_dir);
    let (api, options, build) = load_with_options(&spec);
    let printed = stamped(&api, &options, apigen::emit::emit(&api, &options));
    let opened = OutputDir::open(&out, cache.clone()).unwrap();
    opened.write(&printed).unwrap();
    opened.remember(&printed, &build);
    let reusing = |api: &apigen::model::Api, build: &Build| {
        let opened = OutputDir::open(&out, cache.clone()).unwrap();
        apigen::emit::emit_reusing(api, &options, &opened.printed(build))
    };
    // Make the file on disk differ from what printing gives, and make the cache vouch for it:
    // that it then comes back proves the file was reused, not printed.
    let path = "client/src/pets.rs";
    let marked = format!("{}// reused\n", printed.files()[path]);
    fs::write(out.join(path), &marked).unwrap();
    let old = printed.hash(path).unwrap();
    edit_cache_entry(&cache_dir, path, |line| line.replace(&old, &apigen::hash::hex(marked.as_bytes())));
    // An edited entry is no entry (its seal no longer matches): printed again...
    assert_eq!(reusing(&api, &build).files()[path], printed.files()[path]);
    // ...unless sealed again with the key.
    reseal_cache_entry(&cache_dir);
    assert_eq!(reusing(&api, &build).files()[path], marked);
    // Other tokens (the summary shows in the client): printed again.
    let text = fs::read_to_string(spec.join("pets.yaml")).unwrap();
    fs::write(spec.join("pets.yaml"), text.replacen("summary: Get a pet.", "summary: Fetch a pet.", 1)).unwrap();
    let (changed, _, changed_build) = load_with_options(&spec);
    let output = reusing(&changed, &changed_build);
    assert_eq!(output.files()[path], apigen::emit::emit(&changed, &options).files()[path]);
    // The same tokens from another printer (another build of apigen): printed again.
    let other = Build { printer: "0000000000000000".into(), ..build.clone() };
    assert_eq!(reusing(&api, &other).files()[path], printed.files()[path]);
}

#[test]
fn generate_writes_each_file_as_it_is_printed_with_the_bytes_emission_gives() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out_text = out.to_str().unwrap();
    let expected = generate("fixtures/valid/shapes", out_text);
    // `generate` streams: each file goes to disk as its job ends, the stamp last.
    let generated = generator("fixtures/valid/shapes", out_text).generate().unwrap();
    let mut all: Vec<String> = expected.files().keys().cloned().collect();
    all.sort();
    assert_eq!(generated.report.written, all, "every file, listed in path order whatever order jobs ended in");
    assert!(check(&expected, &out).unwrap().is_clean(), "the streamed bytes are the in-memory ones");
    let again = generator("fixtures/valid/shapes", out_text).generate().unwrap();
    assert!(again.report.written.is_empty(), "{:?}", again.report.written);
    assert_eq!(again.report.unchanged, all.len());
}
