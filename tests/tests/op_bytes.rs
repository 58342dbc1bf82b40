//! Bytes per operation (issue 52, item 2) of the repository's own generated client and server:
//! what repeats in every operation lives in the runtime (setters through `Request::with`,
//! enumeration parameters through `from_text` and `Input::validate`) and each group module
//! names the runtime's seam through one private alias, `rt`, the prelude's items by their name and
//! the types crate through `ty` (`emit::short_paths`). Counted as `bench/op-bytes.sh`
//! counts: the Rust of the client's and the server's modules and parts, doc comments, the
//! samples and the mock left out.

use std::path::Path;

/// Every `.rs` file under `dir`, in order.
fn rust_files(dir: &Path, found: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The code of a side (`client`, `server`) of `generated/`, file by file: the samples and the
/// mock apart, doc comments left out.
fn code(side: &str) -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../generated").join(side).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files
        .into_iter()
        .filter_map(|path| {
            let name = path.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
            if name.starts_with("samples") || name.starts_with("mock") {
                return None;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let code: String = text
                .split_inclusive('\n')
                .filter(|line| !line.trim_start().starts_with("///") && !line.trim_start().starts_with("//!"))
                .collect();
            Some((name, code))
        })
        .collect()
}

#[test]
fn an_operation_of_the_docs_api_costs_at_most_4700_bytes_of_client_and_server() {
    let (client, server) = (code("client"), code("server"));
    let operations: usize = client.iter().map(|(_, code)| code.matches("Builder<'a> = crate::Request<").count()).sum();
    assert_eq!(operations, 145, "the operations of spec/, one builder each");
    let bytes: usize = client.iter().chain(&server).map(|(_, code)| code.len()).sum();
    // 6,143 bytes before the runtime took the setters and enumeration parameters and the seam
    // was named through `rt`; 5,409 after; 4,594 since a group's files name the prelude's
    // items, a few of the runtime's and the types crate's shortly.
    assert!(bytes / operations <= 4_700, "{} bytes per operation", bytes / operations);
}

#[test]
fn group_modules_name_the_runtime_seam_through_their_alias() {
    for (side, alias) in [("client", "client"), ("server", "server")] {
        let long = format!("::apigen_runtime::codegen::{alias}::");
        for (name, code) in code(side) {
            if name == "lib.rs" || name.starts_with("root") {
                continue;
            }
            assert!(!code.contains(&long), "{side}/src/{name} names `{long}` in full");
        }
    }
    let setters_taking_mut_self: usize = code("client")
        .iter()
        .filter(|(name, _)| name != "root.rs")
        .map(|(_, code)| code.matches("mut self").count())
        .sum();
    assert_eq!(setters_taking_mut_self, 0, "every setter goes through `Request::with`");
}

#[test]
fn group_modules_name_the_prelude_and_the_types_crate_shortly() {
    for side in ["client", "server"] {
        for (name, code) in code(side) {
            if name == "lib.rs" || name == "root.rs" {
                continue;
            }
            for long in ["::core::option::Option", "::std::string::String", "::docs_api_types::"] {
                assert!(!code.contains(long), "{side}/src/{name} names `{long}` in full");
            }
        }
    }
}
