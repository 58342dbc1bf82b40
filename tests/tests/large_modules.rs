//! A spec file of more types than one generated file should hold (GitHub's `schemas.yaml`
//! holds 1,800): the types crate prints it as parts by name prefix, each a file of its own,
//! and the crate is the same crate to its users (every type at its root), warnings denied.

use apigen::emit::Options;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// 150 `If…` and 60 `Ice…` types (the `i` part is too large, and `If` is a keyword once
/// lowercased), 230 `Alpha…` (split down to `Alpha1`, `Alpha2`, ...) and 10 `Beta…`.
fn spec(dir: &Path) {
    let api = "api: { name: many, title: Many, version: \"1\" }\n\
               tags: { things: { title: Things, description: Things. } }\n";
    let mut things = String::from(
        "tag: things\noperations:\n  getAlpha:\n    method: GET\n    path: /alpha\n    \
         summary: Gets an alpha.\n    response: { status: 200, type: Alpha0, description: The alpha. }\n    \
         auth: none\ntypes:\n",
    );
    let families = [("If", 150), ("Ice", 60), ("Alpha", 230), ("Beta", 10)];
    for (family, count) in families {
        for i in 0..count {
            let _ = write!(
                things,
                "  {family}{i}:\n    description: {family} number {i}.\n    fields:\n      \
                 name: {{ type: string, description: Its name. }}\n"
            );
        }
    }
    std::fs::write(dir.join("api.yaml"), api).unwrap();
    std::fs::write(dir.join("things.yaml"), things).unwrap();
}

/// Uses one type of each part through the crate's root.
const MAIN: &str = r#"
fn main() {
    let names = [
        many_types::If3 { name: "if".into() }.name,
        many_types::Ice59 { name: "ice".into() }.name,
        many_types::Alpha229 { name: "alpha".into() }.name,
        many_types::Alpha0 { name: "zero".into() }.name,
        many_types::Beta9 { name: "beta".into() }.name,
    ];
    println!("{}", names.join(" "));
}
"#;

#[test]
#[ignore = "heavy tier: builds crates outside the workspace; run with `cargo test --workspace -- --ignored` (CI does)"]
fn a_module_of_many_types_is_printed_in_parts_and_builds_as_one() {
    let dir = tempfile::tempdir().unwrap();
    let spec_dir = dir.path().join("spec");
    std::fs::create_dir(&spec_dir).unwrap();
    spec(&spec_dir);
    let (api, _) = apigen::load(&spec_dir).unwrap_or_else(|diags| panic!("{}", diags.render()));
    let out = dir.path().join("generated");
    let runtime = std::fs::canonicalize("../runtime").unwrap();
    let output = apigen::emit::emit(&api, &Options::new(&out, &runtime));

    let parts: Vec<&str> = output.files().keys().filter_map(|path| path.strip_prefix("types/src/things/")).collect();
    let mut expected = vec!["alpha0.rs"];
    expected.extend((1..10).map(|d| format!("alpha{d}.rs").leak() as &str));
    expected.extend(["b.rs", "ic.rs", "if_.rs"]);
    assert_eq!(parts, expected);
    let module = &output.files()["types/src/things.rs"];
    let declared =
        "#[cfg(feature = \"things\")]\n#[rustfmt::skip]\nmod if_;\n#[cfg(feature = \"things\")]\npub use if_::*;\n";
    assert!(module.contains(declared), "{module}");
    let part = &output.files()["types/src/things/if_.rs"];
    assert!(part.contains("//! Types declared in `things.yaml` whose Rust names start with `If`.\n"), "{part}");
    assert_eq!(part.matches("pub struct If").count(), 150);

    let output = apigen::out::stamp::stamped(&api, &Options::new(&out, &runtime), output);
    apigen::out::OutputDir::open(&out, apigen::CacheDir::none()).unwrap().write(&output).unwrap();
    let user = dir.path().join("user");
    std::fs::create_dir_all(user.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"user\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n[workspace]\n\n\
         [dependencies]\nmany-types = {{ path = {:?} }}\n",
        out.join("types")
    );
    std::fs::write(user.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(user.join("src/main.rs"), MAIN).unwrap();
    std::fs::copy("../Cargo.lock", user.join("Cargo.lock")).unwrap();
    // The target directory of the other tests that build outside the workspace.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("outside-target");
    let cargo = |args: &[&str]| {
        Command::new(env!("CARGO"))
            .args(args)
            .current_dir(&user)
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("RUSTFLAGS")
            .output()
            .unwrap()
    };
    let clippy = cargo(&["clippy", "--quiet", "--offline", "-p", "many-types", "--", "-D", "warnings"]);
    assert!(clippy.status.success(), "{}", String::from_utf8_lossy(&clippy.stderr));
    let run = cargo(&["run", "--quiet", "--offline"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(String::from_utf8_lossy(&run.stdout), "if ice alpha zero beta\n");
}
