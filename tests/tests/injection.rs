//! Spec text reaches every output only as data. A spec whose every free-text field holds
//! comment terminators, line breaks, quotes, `#![...]` attributes, TOML keys and HTML is
//! generated next to the same spec with plain text of the same line structure: the Rust files
//! must have the same tokens but for literals (so no attribute, item or macro was added), the
//! manifests and the OpenAPI document the same keys, the marker file the same lines, and the
//! reference no more raw HTML.

use apigen::emit::{Options, Output};
use std::path::Path;
use std::str::FromStr;

/// Five lines, each an attack on one output format.
const HOSTILE: &str = "Evil */ \"quoted\" \\ back\n\
    #![doc = include_str!(\"/etc/hostname\")]\n\
    build = \"../../evil-build.rs\"\n\
    [lib] <!-- --> <script>alert(1)</script>\n\
    */ fn injected() {} /* ``` \"\"\" '''";

/// The same line structure, nothing to escape.
const PLAIN: &str = "a\nb\nc\nd\ne";

/// A small API with `TEXT` wherever the format takes free text.
const SPEC: &str = r#"
api: { name: hostile, title: TEXT, version: "1", description: TEXT, source: TEXT }
tags:
  things: { title: TEXT, description: TEXT, source: TEXT }
gaps:
  some-gap: { source: TEXT, gap: TEXT, decision: TEXT }
tag: things
types:
  Thing:
    description: TEXT
    source: TEXT
    gaps: [some-gap]
    fields:
      object: { const: thing, description: TEXT }
      id: { type: string, description: TEXT, sample: TEXT }
      kind: { type: ThingKind, description: TEXT }
      size: { type: integer, optional: true, description: TEXT, gaps: [some-gap] }
  ThingKind:
    description: TEXT
    open: false
    enum:
      - big: TEXT
      - small: TEXT
operations:
  getThing:
    method: GET
    path: /v1/things/{thingId}
    summary: TEXT
    description: TEXT
    source: TEXT
    params: [{ name: thingId, in: path, description: TEXT, sample: TEXT }]
    response: { status: 200, type: Thing, description: TEXT }
    errors: [{ status: 404, when: TEXT }]
    gaps: [some-gap]
  createThing:
    method: POST
    path: /v1/things
    summary: TEXT
    body:
      description: TEXT
      fields:
        name: { type: string, description: TEXT, sample: TEXT }
    response: { status: 201, type: Thing }
    deprecated: { replacement: getThing, note: TEXT }
"#;

fn generate_with(text: &str) -> Output {
    let dir = tempfile::tempdir().unwrap();
    // A JSON string is a YAML double-quoted scalar: the text arrives exactly as written.
    let quoted = serde_json::to_string(text).unwrap();
    std::fs::write(dir.path().join("api.yaml"), SPEC.replace("TEXT", &quoted)).unwrap();
    let options = Options::new(Path::new("generated"), Path::new("runtime"));
    match apigen::load(dir.path()) {
        Ok((api, _)) => apigen::emit::emit(&api, &options),
        Err(diags) => panic!("{}", diags.render()),
    }
}

/// The tokens of a Rust file with every literal made the same, runs of doc attributes folded
/// into one (line comments are not tokens; doc comments are `#[doc = "..."]`) and trailing
/// commas dropped.
fn rust_shape(source: &str) -> Vec<String> {
    let tokens = proc_macro2::TokenStream::from_str(source).expect("generated Rust tokenizes");
    let mut shape = Vec::new();
    flatten(tokens, &mut shape);
    shape.dedup_by(|next, previous| next == "#[doc = LIT]" && previous == "#[doc = LIT]");
    // prettyplease adds a trailing comma where it breaks a list over lines, which depends on
    // the length of the literals: layout, not structure.
    let trailing = |i: usize| shape[i] == "," && shape.get(i + 1).is_some_and(|n| n == ")" || n == ">");
    (0..shape.len()).filter(|&i| !trailing(i)).map(|i| shape[i].clone()).collect()
}

fn flatten(tokens: proc_macro2::TokenStream, shape: &mut Vec<String>) {
    use proc_macro2::TokenTree;
    let mut iter = tokens.into_iter().peekable();
    while let Some(token) = iter.next() {
        match token {
            TokenTree::Punct(p) if p.as_char() == '#' => {
                // Fold a doc attribute `#[doc = "..."]` into one marker; keep any other.
                if let Some(TokenTree::Group(group)) = iter.peek() {
                    let inner: Vec<String> = group.stream().into_iter().map(|t| t.to_string()).collect();
                    if inner.first().map(String::as_str) == Some("doc") && inner.len() == 3 {
                        shape.push("#[doc = LIT]".into());
                        iter.next();
                        continue;
                    }
                }
                shape.push("#".into());
            }
            TokenTree::Group(group) => {
                shape.push(format!("{:?}(", group.delimiter()));
                flatten(group.stream(), shape);
                shape.push(")".into());
            }
            TokenTree::Literal(_) => shape.push("LIT".into()),
            TokenTree::Ident(ident) => shape.push(ident.to_string()),
            TokenTree::Punct(punct) => shape.push(punct.as_char().to_string()),
        }
    }
}

/// Every key path of a TOML document, strings replaced by their type.
fn toml_shape(source: &str) -> String {
    let value: toml::Table = toml::from_str(source).expect("generated TOML parses");
    format!("{:?}", strip_toml(toml::Value::Table(value)))
}

fn strip_toml(value: toml::Value) -> toml::Value {
    match value {
        toml::Value::String(_) => toml::Value::String(String::new()),
        toml::Value::Array(items) => toml::Value::Array(items.into_iter().map(strip_toml).collect()),
        toml::Value::Table(table) => toml::Value::Table(table.into_iter().map(|(k, v)| (k, strip_toml(v))).collect()),
        other => other,
    }
}

fn json_shape(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::String(_) => Value::String(String::new()),
        Value::Array(items) => Value::Array(items.into_iter().map(json_shape).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, json_shape(v))).collect()),
        other => other,
    }
}

#[test]
fn hostile_spec_text_changes_no_token_key_or_line_of_any_output() {
    let plain = generate_with(PLAIN);
    let hostile = generate_with(HOSTILE);
    assert_eq!(plain.files().keys().collect::<Vec<_>>(), hostile.files().keys().collect::<Vec<_>>(), "the same files");
    let mut checked = 0;
    for (path, text) in hostile.files() {
        let reference = &plain.files()[path];
        if path.ends_with(".rs") {
            assert_eq!(rust_shape(text), rust_shape(reference), "{path}: spec text changed the Rust tokens");
            assert!(text.lines().next().is_some_and(|l| l.starts_with("// ")), "{path}: one header line");
        } else if path.ends_with(".toml") {
            assert_eq!(toml_shape(text), toml_shape(reference), "{path}: spec text changed the manifest's keys");
            let description = toml::from_str::<toml::Table>(text).unwrap()["package"]["description"].clone();
            assert!(description.as_str().unwrap().contains(HOSTILE), "{path}: the text is kept, as data");
        } else if path.ends_with(".json") {
            let parse = |s: &str| json_shape(serde_json::from_str(s).expect("generated JSON parses"));
            assert_eq!(parse(text), parse(reference), "{path}: spec text changed the JSON's keys");
        } else if path.ends_with(".md") {
            let raw_html = |s: &str| s.matches('<').count();
            assert_eq!(raw_html(text), raw_html(reference), "{path}: spec text added raw HTML");
            assert!(!text.contains("<script>"), "{path}");
        } else {
            assert_eq!(text.lines().count(), reference.lines().count(), "{path}: spec text added lines");
        }
        checked += 1;
    }
    assert!(checked >= 15, "{checked} files checked");
}

#[test]
fn the_reference_keeps_its_opening_comment_shut_and_no_escaped_backtick_opens_a_code_span() {
    // A title holding a code span that would end the header comment; the regenerate command
    // of apigen.toml doing the same; a description whose escaped backticks are no code span.
    let dir = tempfile::tempdir().unwrap();
    let title = serde_json::to_string("`--> <img src=x onerror=alert(1)> <!--`").unwrap();
    let description = serde_json::to_string("\\`<img src=x onerror=alert(2)>\\`").unwrap();
    std::fs::write(dir.path().join("api.yaml"), SPEC.replace("TEXT", &description).replacen(&description, &title, 1))
        .unwrap();
    let mut options = Options::new(Path::new("generated"), Path::new("runtime"));
    options.regenerate = "make --> <img src=x onerror=alert(3)>".into();
    let (api, _) = apigen::load(dir.path()).unwrap_or_else(|d| panic!("{}", d.render()));
    assert!(api.title.contains("-->"), "the title arrived as written");
    let reference = apigen::emit::emit(&api, &options).files()["REFERENCE.md"].clone();
    let first = reference.lines().next().unwrap();
    assert!(first.starts_with("<!-- ") && first.ends_with(" -->"), "{first}");
    assert_eq!((first.matches("<!--").count(), first.matches("-->").count()), (1, 1), "one comment, shut: {first}");
    // The title's code span shows as code; the escaped backticks and the command as text.
    assert!(!reference.contains("<img src=x onerror=alert(2)>"), "escaped backticks opened a code span:\n{reference}");
    assert!(!reference.contains("<img src=x onerror=alert(3)>"), "the regenerate command reached HTML:\n{reference}");
}
