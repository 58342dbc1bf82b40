//! `apigen import` of hostile documents: compositions that name each other or fan out, YAML
//! that expands through aliases, names by the ten thousand, and `--replace` pointed at what
//! is not a spec. Each run has the deadline of `common::run_in`: a hang fails the test.

use super::common::{failed, ok, run_in, text, tree};
use serde_json::{Value, json};
use std::path::Path;

/// A document with `schemas` as components and one operation answering `answer`.
fn document(schemas: Value, answer: &str) -> Value {
    json!({
        "openapi": "3.0.0",
        "info": { "title": "Hostile", "version": "1" },
        "paths": { "/a": { "get": { "operationId": "getA", "responses": { "200": {
            "description": "ok",
            "content": { "application/json": { "schema": { "$ref": format!("#/components/schemas/{answer}") } } }
        } } } } },
        "components": { "schemas": schemas }
    })
}

/// Imports `doc` (written as `doc.json` in `dir`) into `dir/spec`; the run's stdout.
fn import(dir: &Path, doc: &Value) -> String {
    std::fs::write(dir.join("doc.json"), doc.to_string()).unwrap();
    ok(&run_in(dir, &["import", "doc.json", "--out", "spec"], &[]))
}

#[test]
fn components_whose_allof_names_each_other_import_without_hanging() {
    let dir = tempfile::tempdir().unwrap();
    let both = |other: &str| json!({ "allOf": [{ "$ref": format!("#/components/schemas/{other}") }, { "$ref": format!("#/components/schemas/{other}") }] });
    let printed = import(dir.path(), &document(json!({ "A": both("B"), "B": both("A") }), "A"));
    assert!(printed.contains("1 of 1 operations kept") && printed.contains("deep-schemas"), "{printed}");
    ok(&run_in(dir.path(), &["lint", "--spec", "spec"], &[]));
}

#[test]
fn components_including_each_other_are_merged_with_the_cycle_cut() {
    let dir = tempfile::tempdir().unwrap();
    let object = |other: &str, field: &str| {
        json!({ "type": "object", "allOf": [{ "$ref": format!("#/components/schemas/{other}") }],
                "properties": { field: { "type": "string" } } })
    };
    let printed = import(dir.path(), &document(json!({ "A": object("B", "x"), "B": object("A", "y") }), "A"));
    assert!(printed.contains("2 types"), "{printed}");
    let schemas = std::fs::read_to_string(dir.path().join("spec/schemas.yaml")).unwrap();
    assert!(schemas.contains("  A:\n    fields:\n      x: { type: string, optional: true }\n      \"y\": { type: string, optional: true }\n"), "{schemas}");
    ok(&run_in(dir.path(), &["lint", "--spec", "spec"], &[]));
}

#[test]
fn compositions_naming_the_next_twice_at_every_level_stay_linear() {
    // 22 levels, each `allOf` naming the next component twice: 2^22 merges before, one each now.
    let mut schemas = serde_json::Map::new();
    for level in 0..22 {
        let next = json!({ "$ref": format!("#/components/schemas/S{}", level + 1) });
        let own = json!({ "type": "object", "properties": { format!("p{level}"): { "type": "string" } } });
        schemas.insert(format!("S{level}"), json!({ "allOf": [next.clone(), next, own] }));
    }
    schemas.insert("S22".into(), json!({ "type": "object", "properties": { "last": { "type": "string" } } }));
    let dir = tempfile::tempdir().unwrap();
    let printed = import(dir.path(), &document(Value::Object(schemas), "S0"));
    assert!(printed.contains("1 of 1 operations kept"), "{printed}");
}

#[test]
fn a_yaml_document_expanding_through_aliases_is_refused_where_it_expands() {
    let dir = tempfile::tempdir().unwrap();
    let mut doc = String::from("openapi: 3.0.0\ninfo: { title: Laughs, version: '1' }\npaths: {}\n");
    doc.push_str("x-a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..10 {
        doc.push_str(&format!("x-a{level}: &a{level} [{}]\n", vec![format!("*a{}", level - 1); 10].join(", ")));
    }
    assert!(doc.len() < 6 * 1024);
    std::fs::write(dir.path().join("laughs.yaml"), doc).unwrap();
    let stderr = failed(&run_in(dir.path(), &["import", "laughs.yaml", "--out", "spec"], &[]), 1);
    assert!(stderr.starts_with("error: laughs.yaml:4:"), "{stderr}");
    assert!(stderr.contains("the YAML expands past its budget through aliases (`*name`)"), "{stderr}");
    assert!(!dir.path().join("spec").exists());
}

/// `count` names that all give one Rust name: `w0-w1-..`, `w0_w1-..`, `w0.w1-..`, ...
fn colliding_names(count: usize) -> Vec<String> {
    let separators = ['-', '_', '.', ' '];
    (0..count)
        .map(|mut n| {
            let mut name = String::from("w0");
            for word in 1..8 {
                name.push(separators[n % 4]);
                n /= 4;
                name.push_str(&format!("w{word}"));
            }
            name
        })
        .collect()
}

/// A document of `count` operations, each named by `op(i)` and tagged by `tag(i)`, and
/// `schemas` as components. (Quadratic naming took 53 s for 10,000 of one name, release: a
/// quarter of that for these 5,000, many times the deadline in a debug build.)
fn many(count: usize, op: impl Fn(usize) -> String, tag: impl Fn(usize) -> String, schemas: Value) -> Value {
    let mut paths = serde_json::Map::new();
    for i in 0..count {
        let operation =
            json!({ "operationId": op(i), "tags": [tag(i)], "responses": { "200": { "description": "ok" } } });
        paths.insert(format!("/p{i}"), json!({ "get": operation }));
    }
    json!({ "openapi": "3.0.0", "info": { "title": "Many", "version": "1" }, "paths": paths,
            "components": { "schemas": schemas } })
}

#[test]
fn five_thousand_operations_of_one_id_import_in_linear_time() {
    let dir = tempfile::tempdir().unwrap();
    let printed = import(dir.path(), &many(5000, |_| "same".into(), |_| "one".into(), json!({})));
    assert!(printed.contains("5000 of 5000 operations kept"), "{printed}");
    let ops = std::fs::read_to_string(dir.path().join("spec/one.yaml")).unwrap();
    assert!(ops.contains("\n  same:\n") && ops.contains("\n  same5000:\n"), "every one named, in order");
}

#[test]
fn two_thousand_tags_giving_one_module_name_import_in_linear_time() {
    // A file per tag: 2,000 (quadratic, 10,000 took 114 s, release).
    let names = colliding_names(2000);
    let dir = tempfile::tempdir().unwrap();
    let printed = import(dir.path(), &many(2000, |i| format!("op{i}"), |i| names[i].clone(), json!({})));
    assert!(printed.contains("2000 of 2000 operations kept"), "{printed}");
}

#[test]
fn five_thousand_component_names_giving_one_type_name_import_in_linear_time() {
    let names = colliding_names(5000);
    let object = json!({ "type": "object", "properties": { "x": { "type": "string" } } });
    let schemas: serde_json::Map<String, Value> = names.iter().map(|n| (n.clone(), object.clone())).collect();
    let dir = tempfile::tempdir().unwrap();
    let printed = import(dir.path(), &many(1, |_| "a".into(), |_| "a".into(), Value::Object(schemas)));
    assert!(printed.contains("1 of 1 operations kept, 0 of 0 parameters kept, 5000 types"), "{printed}");
}

#[test]
fn an_enumeration_of_100000_values_imports_in_linear_time() {
    let values: Vec<String> = (0..100_000).map(|i| format!("v{i}")).collect();
    let dir = tempfile::tempdir().unwrap();
    let printed = import(dir.path(), &document(json!({ "E": { "type": "string", "enum": values } }), "E"));
    assert!(printed.contains("1 of 1 operations kept, 0 of 0 parameters kept, 1 type"), "{printed}");
}

#[test]
fn replace_refuses_the_current_directory_and_deletes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    std::fs::write(dir.path().join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::write(dir.path().join("notes.yaml"), "mine: true\n").unwrap();
    std::fs::write(dir.path().join("doc.json"), document(json!({}), "A").to_string()).unwrap();
    let before = tree(dir.path());
    let stderr = failed(&run_in(dir.path(), &["import", "doc.json", "--out", ".", "--replace"], &[]), 1);
    assert_eq!(stderr, "error: refusing to replace .: it is the current directory, or holds it\n");
    assert_eq!(tree(dir.path()), before, "nothing deleted, nothing left beside");
}

#[test]
fn replace_refuses_the_directory_of_the_document_being_imported() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("spec")).unwrap();
    std::fs::write(dir.path().join("spec/openapi.json"), document(json!({}), "A").to_string()).unwrap();
    std::fs::write(dir.path().join("apigen.toml"), "").unwrap();
    let before = tree(dir.path());
    // In a project (an apigen.toml), the default output directory is `spec`.
    let stderr = failed(&run_in(dir.path(), &["import", "spec/openapi.json", "--replace"], &[]), 1);
    assert_eq!(stderr, "error: refusing to replace spec: it holds spec/openapi.json, the document being imported\n");
    assert_eq!(tree(dir.path()), before);
}

#[test]
fn replace_refuses_a_repository_a_directory_holding_other_files_and_the_root_without_litter() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("doc.json"), document(json!({}), "A").to_string()).unwrap();
    std::fs::create_dir_all(dir.path().join("repo/.git")).unwrap();
    std::fs::write(dir.path().join("repo/api.yaml"), "api: {}\n").unwrap();
    std::fs::create_dir_all(dir.path().join("docs")).unwrap();
    std::fs::write(dir.path().join("docs/api.yaml"), "api: {}\n").unwrap();
    std::fs::write(dir.path().join("docs/README.md"), "someone's work\n").unwrap();
    // Another program's YAML, every file ending in .yaml (issue 50: this was replaced).
    std::fs::create_dir_all(dir.path().join("deploy/k8s")).unwrap();
    std::fs::write(dir.path().join("deploy/docker-compose.yaml"), "services:\n  web: { image: nginx }\n").unwrap();
    std::fs::write(dir.path().join("deploy/k8s/deployment.yaml"), "apiVersion: apps/v1\nkind: Deployment\n").unwrap();
    std::fs::create_dir_all(dir.path().join("lists")).unwrap();
    std::fs::write(dir.path().join("lists/hosts.yaml"), "- a\n- b\n").unwrap();
    let before = tree(dir.path());
    let cases = [
        ("repo", "error: refusing to replace repo: it holds .git: it is a repository\n"),
        (
            "docs",
            "error: refusing to replace docs: it holds README.md, which is not a spec file (a spec directory holds .yaml files only)\n",
        ),
        ("/", "error: refusing to replace /: it is the root of the file system\n"),
        (
            "deploy",
            "error: refusing to replace deploy: it holds docker-compose.yaml, which is not a spec file: its key \
             `services` is none of the spec format's\n",
        ),
        (
            "lists",
            "error: refusing to replace lists: it holds hosts.yaml, which is not a spec file: it is not a mapping\n",
        ),
    ];
    for (out, expected) in cases {
        let stderr = failed(&run_in(dir.path(), &["import", "doc.json", "--out", out, "--replace"], &[]), 1);
        assert_eq!(stderr, expected, "{out}");
    }
    assert_eq!(tree(dir.path()), before, "nothing deleted, no staging directory left");
    // A spec apigen wrote is replaced.
    std::fs::create_dir(dir.path().join("spec")).unwrap();
    std::fs::write(dir.path().join("spec/old.yaml"), "api: {}\n").unwrap();
    let printed = text(&run_in(dir.path(), &["import", "doc.json", "--out", "spec", "--replace"], &[]).stdout);
    assert!(printed.contains("wrote spec/api.yaml"), "{printed}");
    assert!(!dir.path().join("spec/old.yaml").exists());
}

#[test]
fn names_past_yamls_key_limit_and_file_names_past_the_systems_import_lint_and_generate() {
    let long_property = "p".repeat(2000);
    let long_id = "get".to_owned() + &"x".repeat(1500);
    let long_tag = "t".repeat(300);
    let long_segment = "s".repeat(300);
    let response = json!({ "200": { "description": "ok", "content": { "application/json": { "schema": {
        "type": "object", "properties": { long_property.clone(): { "type": "string" } } } } } } });
    let doc = json!({
        "openapi": "3.0.0",
        "info": { "title": "Long", "version": "1" },
        "paths": {
            "/a": { "get": { "operationId": long_id, "tags": [long_tag], "responses": response } },
            format!("/{long_segment}/b"): { "get": { "operationId": "untagged", "responses": response } }
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let printed = import(dir.path(), &doc);
    assert!(printed.contains("2 of 2 operations kept"), "{printed}");
    ok(&run_in(dir.path(), &["lint", "--spec", "spec"], &[]));
    let runtime = super::common::repository().join("runtime");
    ok(&run_in(
        dir.path(),
        &["generate", "--spec", "spec", "--out", "out", "--runtime", runtime.to_str().unwrap()],
        &[],
    ));
    // The wire keeps every character of the property's name.
    let openapi = std::fs::read_to_string(dir.path().join("out/openapi.json")).unwrap();
    assert!(openapi.contains(&format!("\"{long_property}\"")));
}
