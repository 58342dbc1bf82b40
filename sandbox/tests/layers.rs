//! The sandbox's layers import only downward: a handler module (`src/api/*.rs`) imports the
//! prelude, the domain and the store, never another handler module; the domain imports no
//! handler; and handlers never run SQLite on an async worker. Read from the source, so a new
//! import that closes a loop, or a blocking store call in a handler, fails here.

use std::path::Path;

/// `(module, what it imports)` for every `crate::api::<module>` or `super::<module>` path in
/// the `.rs` files of `dir` that names a module other than the prelude.
fn handler_imports(dir: &Path, handlers: &[String]) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let Some(module) = path.file_stem().and_then(|s| s.to_str()).map(str::to_owned) else { continue };
        // Code only: a doc comment may name a sibling module.
        let text: String = std::fs::read_to_string(&path)
            .unwrap()
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for prefix in ["crate::api::", "super::"] {
            for (at, _) in text.match_indices(prefix) {
                let rest = &text[at + prefix.len()..];
                let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                let names_a_handler = handlers.contains(&name) && name != "prelude";
                let from_domain = dir.ends_with("domain") && prefix == "crate::api::";
                if (names_a_handler && name != module && !dir.ends_with("domain")) || from_domain {
                    found.push((module.clone(), name));
                }
            }
        }
    }
    found.sort();
    found
}

fn modules(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|entry| entry.unwrap().path().file_stem().and_then(|s| s.to_str()).map(str::to_owned))
        .filter(|name| name != "mod")
        .collect()
}

#[test]
fn handler_modules_import_no_other_handler_module_and_the_domain_imports_no_handler() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let handlers = modules(&src.join("api"));
    assert!(handlers.len() > 10, "the handler modules are found: {handlers:?}");
    assert_eq!(handler_imports(&src.join("api"), &handlers), Vec::<(String, String)>::new());
    assert_eq!(handler_imports(&src.join("domain"), &handlers), Vec::<(String, String)>::new());
}

#[test]
fn handlers_reach_the_database_only_through_its_thread() {
    let api = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/api");
    let mut blocking = Vec::new();
    for entry in std::fs::read_dir(&api).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        for call in ["store().read(", "store().write("] {
            if text.contains(call) {
                blocking.push(format!("{} calls {call}", path.display()));
            }
        }
    }
    assert_eq!(blocking, Vec::<String>::new(), "handlers use read_async and write_async");
}
