//! Rust names: the one place a spec name becomes an identifier, and where collisions are
//! caught.
//!
//! [`sanitize`] recases with heck, drops characters an identifier cannot hold, prefixes a
//! leading digit and suffixes keywords with `_` (`type` gives `type_`, `Self` gives `Self_`;
//! raw identifiers would fail for `self`, `Self`, `super` and `crate`). [`Scope`] records
//! which spec element took each Rust name so a collision names both places.

use crate::diag::{Diagnostics, Location};
use heck::{ToPascalCase, ToSnakeCase};
use std::collections::BTreeMap;

/// The case an identifier is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Case {
    /// `snake_case`: fields, methods, modules.
    Snake,
    /// `PascalCase`: types, variants.
    Pascal,
}

/// Rust's keywords in the 2024 edition, strict and reserved, plus the weak ones that cannot
/// name items in every position.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate", "do", "dyn", "else",
    "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro", "match", "mod",
    "move", "mut", "override", "priv", "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait",
    "true", "try", "type", "typeof", "union", "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Turns any spec name into a valid Rust identifier in the given case.
pub fn sanitize(name: &str, case: Case) -> String {
    // Words split on case changes and on non-alphanumeric characters, as heck splits them, so
    // `share-link`, `builtin:openapi` and `entityID` all split where a reader expects.
    let cased = if name.is_ascii() { recase_ascii(name, case) } else { recase_unicode(name, case) };
    let mut ident: String = cased.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    if ident.is_empty() {
        ident = match case {
            Case::Snake => "empty".into(),
            Case::Pascal => "Empty".into(),
        };
    }
    if ident.starts_with(|c: char| c.is_ascii_digit()) {
        ident.insert_str(0, if case == Case::Snake { "n" } else { "N" });
    }
    // Clippy's `disallowed_names` refuses placeholder bindings (`let foo`): moved aside like
    // keywords.
    if KEYWORDS.contains(&ident.as_str()) || (case == Case::Snake && PLACEHOLDERS.contains(&ident.as_str())) {
        ident.push('_');
    }
    ident
}

/// heck's case conversion, for any text.
fn recase_unicode(name: &str, case: Case) -> String {
    match case {
        Case::Snake => name.to_snake_case(),
        Case::Pascal => name.to_pascal_case(),
    }
}

/// The case of the last cased character of a word so far (heck's `WordMode`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum WordMode {
    Boundary,
    Lowercase,
    Uppercase,
}

/// heck's case conversion of an ASCII name, byte for byte what [`recase_unicode`] gives, without
/// heck's formatting of each character (which made `sanitize` a tenth of an import's CPU). The
/// words are heck's: split on every non-alphanumeric character, after a lowercase letter (or a
/// digit following one) followed by an uppercase one, and before the last capital of a run
/// followed by a lowercase letter (`HTTPServer` gives `HTTP`, `Server`).
fn recase_ascii(name: &str, case: Case) -> String {
    let mut out = String::with_capacity(name.len() + 8);
    let mut first = true;
    for word in name.split(|c: char| !c.is_ascii_alphanumeric()) {
        let bytes = word.as_bytes();
        let (mut start, mut mode) = (0, WordMode::Boundary);
        for (i, &c) in bytes.iter().enumerate() {
            let Some(&next) = bytes.get(i + 1) else {
                push_word(&mut out, &word[start..], case, &mut first);
                break;
            };
            let next_mode = if c.is_ascii_lowercase() {
                WordMode::Lowercase
            } else if c.is_ascii_uppercase() {
                WordMode::Uppercase
            } else {
                mode
            };
            if next_mode == WordMode::Lowercase && next.is_ascii_uppercase() {
                push_word(&mut out, &word[start..=i], case, &mut first);
                (start, mode) = (i + 1, WordMode::Boundary);
            } else if mode == WordMode::Uppercase && c.is_ascii_uppercase() && next.is_ascii_lowercase() {
                push_word(&mut out, &word[start..i], case, &mut first);
                (start, mode) = (i, WordMode::Boundary);
            } else {
                mode = next_mode;
            }
        }
    }
    out
}

/// One word of [`recase_ascii`]: lowercase after a `_` in snake case, capitalized in Pascal case.
fn push_word(out: &mut String, word: &str, case: Case, first: &mut bool) {
    match case {
        Case::Snake => {
            if !*first {
                out.push('_');
            }
            out.extend(word.chars().map(|c| c.to_ascii_lowercase()));
        }
        Case::Pascal => {
            let mut chars = word.chars();
            out.extend(chars.next().map(|c| c.to_ascii_uppercase()));
            out.extend(chars.map(|c| c.to_ascii_lowercase()));
        }
    }
    *first = false;
}

/// True when `name` is a variant name as written (a capital letter, then letters, digits and
/// `_`; not `Self`): what an enumeration value's `rust_name` must be.
pub fn is_variant_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "Self"
}

/// The names clippy's `disallowed_names` lint refuses by default.
const PLACEHOLDERS: &[&str] = &["foo", "baz", "quux"];

/// Module names a group (tag) cannot take as they are: the files every generated crate has
/// (`lib`, `main`, `mod`, `build`, `mock`, `samples`), the modules the generated crates export
/// (`types`, `runtime`, the client's `servers`), the crates generated code names by path (`std`, `core`, ...),
/// which a module of the same name at the crate root would make ambiguous, the methods the
/// generated `Client` has beside one accessor per group (`new`, `builder`, `settings`), and
/// the cargo features the generated crates have beside one per group (`default`, `full`;
/// `mock` and `samples` are files too).
const RESERVED_MODULES: &[&str] = &[
    "lib",
    "main",
    "mod",
    "build",
    "mock",
    "samples",
    "types",
    "runtime",
    "std",
    "core",
    "alloc",
    "proc_macro",
    "test",
    "serde",
    "serde_json",
    "chrono",
    "http",
    "axum",
    "tower",
    "tokio",
    "reqwest",
    "futures_util",
    "apigen_runtime",
    // The generated `Client`'s own methods, beside one accessor per group.
    "new",
    "builder",
    "settings",
    // The client's module of the spec's servers.
    "servers",
    // The server's module of each group's table and handler setting (`root::group_tables`):
    // a group of the same name inside it is a module within a module of its own name.
    "group_tables",
    // Cargo features of the generated crates, beside one per group (named as its module).
    "default",
    "full",
];

/// The longest module name: a group's module is also a file of the client and server crates
/// and a cargo feature, and a file name of 300 characters is refused by file systems.
pub const MAX_MODULE_NAME: usize = 64;

/// The Rust name of a group's module: snake case, moved out of the way of
/// `RESERVED_MODULES` with a `_` suffix, as keywords are (`std` gives `std_`).
pub fn module_name(name: &str) -> String {
    let mut snake = sanitize(name, Case::Snake);
    if RESERVED_MODULES.contains(&snake.as_str()) {
        snake.push('_');
    }
    snake
}

/// The module of the types declared in the spec file at `path`: its stem, as a
/// [`module_name`] (`spec/site-structure.yaml` gives `site_structure`).
pub fn file_module(path: &str) -> String {
    let stem = std::path::Path::new(path).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    module_name(&stem)
}

/// Method names every Rust type may already have, or that clippy reserves for constructors
/// and conversions: an operation's method must not take them.
const RESERVED_METHODS: &[&str] = &[
    "new",
    // The server's RouterBuilder has these beside one setter per operation.
    "build",
    "build_partial",
    "unimplemented",
    "with_config",
    "default",
    "clone",
    "clone_from",
    "fmt",
    "eq",
    "ne",
    "hash",
    "drop",
    "deref",
    "borrow",
    "to_owned",
    "to_string",
    "as_ref",
    "as_mut",
    "type_id",
    // std's operator traits take `self` and a value, as the RouterBuilder's setters do:
    // clippy's `should_implement_trait` would take `add(self, handler)` for `Add::add`.
    "add",
    "sub",
    "mul",
    "div",
    "rem",
    "shl",
    "shr",
    "bitand",
    "bitor",
    "bitxor",
    "neg",
    "not",
];

/// The Rust name of an operation's method (server trait, client handle): snake case, and
/// moved out of the way of `RESERVED_METHODS` (suffix `_`) and of the `from_`/`into_`
/// conversion prefixes clippy holds to (prefix `op_`).
pub fn method_name(name: &str) -> String {
    let snake = sanitize(name, Case::Snake);
    if RESERVED_METHODS.contains(&snake.as_str()) {
        format!("{snake}_")
    } else if snake.starts_with("from_") || snake.starts_with("into_") {
        format!("op_{snake}")
    } else {
        snake
    }
}

/// The name of an operation's method on its group's client handle: the operation name without
/// the group's noun right after the verb (`getSpace` in `spaces` gives `get`, `listSpaceLinks`
/// gives `list_links`). `None` when the noun does not follow the verb (`listOrganizationSpaces`):
/// the full name is kept then.
pub fn short_method_name(operation: &str, tag: &str) -> Option<String> {
    let words: Vec<String> = sanitize(operation, Case::Snake).split('_').map(str::to_owned).collect();
    let plural: String = tag.split(['-', '_']).map(str::to_lowercase).collect();
    let singular = plural.strip_suffix('s').unwrap_or(&plural).to_owned();
    let (verb, rest) = words.split_first()?;
    let mut joined = String::new();
    for (k, word) in rest.iter().enumerate() {
        joined.push_str(word);
        if joined == plural || joined == singular {
            let remaining = &rest[k + 1..];
            let name = if remaining.is_empty() { verb.clone() } else { format!("{verb}_{}", remaining.join("_")) };
            return Some(method_name(&name));
        }
        if !plural.starts_with(&joined) {
            return None;
        }
    }
    None
}

/// The Rust names taken in one namespace (fields of a type, types of a crate, ...), with the
/// element that took each.
#[derive(Debug, Default)]
pub struct Scope {
    taken: BTreeMap<String, (String, Location)>,
}

impl Scope {
    /// An empty namespace.
    pub fn new() -> Self {
        Scope::default()
    }

    /// A namespace whose names are already taken by the generator itself.
    pub fn reserving(names: &[&str], by: &str) -> Self {
        let mut scope = Scope::new();
        for name in names {
            scope.taken.insert((*name).to_owned(), (by.to_owned(), Location::default()));
        }
        scope
    }

    /// A namespace whose names are already taken by the generator, each by what it names
    /// (a crate root's [`reserved`](super::crates::CrateRoot::reserved) names).
    pub fn reserving_each<'a>(names: impl IntoIterator<Item = (&'a str, String)>) -> Self {
        let mut scope = Scope::new();
        for (name, by) in names {
            scope.taken.insert(name.to_owned(), (by, Location::default()));
        }
        scope
    }

    /// Takes `rust` for `element` (a description such as "field `fooBar`"), or reports the
    /// collision naming both elements and places. Returns false on collision.
    pub fn claim(&mut self, rust: &str, element: &str, at: &Location, diags: &mut Diagnostics) -> bool {
        match self.taken.get(rust) {
            None => {
                self.taken.insert(rust.to_owned(), (element.to_owned(), at.clone()));
                true
            }
            Some((first, first_at)) => {
                let place = if first_at.file.is_empty() { String::new() } else { format!(" at {first_at}") };
                diags
                    .error(
                        at.clone(),
                        format!("{element} becomes the Rust name `{rust}`, already taken by {first}{place}"),
                    )
                    .hint("rename one of them in the spec (a field, parameter, response header or enumeration value whose wire name is fixed takes `rust_name`; an inline type `type_name`)");
                false
            }
        }
    }

    /// True when `rust` is taken.
    pub fn contains(&self, rust: &str) -> bool {
        self.taken.contains_key(rust)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_table() {
        let cases: &[(&str, Case, &str)] = &[
            ("ssoURL", Case::Snake, "sso_url"),
            ("entityID", Case::Snake, "entity_id"),
            ("photoURL", Case::Snake, "photo_url"),
            ("internal_billingMigration", Case::Snake, "internal_billing_migration"),
            ("toggeable", Case::Snake, "toggeable"),
            ("space_selection", Case::Snake, "space_selection"),
            ("type", Case::Snake, "type_"),
            ("ref", Case::Snake, "ref_"),
            ("self", Case::Snake, "self_"),
            ("foo", Case::Snake, "foo_"),
            ("Foo", Case::Pascal, "Foo"),
            ("crate", Case::Snake, "crate_"),
            ("gen", Case::Snake, "gen_"),
            ("async", Case::Snake, "async_"),
            ("default", Case::Snake, "default"),
            ("Self", Case::Pascal, "Self_"),
            ("self", Case::Pascal, "Self_"),
            ("share-link", Case::Pascal, "ShareLink"),
            ("in-app", Case::Pascal, "InApp"),
            ("builtin:openapi", Case::Pascal, "BuiltinOpenapi"),
            ("FETCH_TIMEOUT", Case::Pascal, "FetchTimeout"),
            ("free_2024", Case::Pascal, "Free2024"),
            ("2024", Case::Pascal, "N2024"),
            ("3d", Case::Snake, "n3d"),
            ("a.b-c", Case::Snake, "a_b_c"),
            ("", Case::Pascal, "Empty"),
            ("---", Case::Snake, "empty"),
            ("Box", Case::Pascal, "Box"),
            ("Result", Case::Pascal, "Result"),
            ("listOrgCollections", Case::Snake, "list_org_collections"),
            ("site-structure", Case::Snake, "site_structure"),
            ("émoji", Case::Snake, "moji"),
        ];
        for (input, case, expected) in cases {
            assert_eq!(sanitize(input, *case), *expected, "sanitize({input:?}, {case:?})");
        }
    }

    /// The ASCII path must split and case exactly as heck does: every name of up to six
    /// characters over letters of both cases, a digit and separators, in both cases, where
    /// word boundaries fall after a digit, inside a run of capitals and between separators.
    #[test]
    fn ascii_recasing_is_hecks_on_every_short_name() {
        let alphabet = ['a', 'B', 'c', 'D', '1', '-'];
        let mut names = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..6 {
            last = last.iter().flat_map(|name| alphabet.iter().map(move |c| format!("{name}{c}"))).collect();
            names.extend(last.iter().cloned());
        }
        for name in &names {
            for case in [Case::Snake, Case::Pascal] {
                assert_eq!(recase_ascii(name, case), recase_unicode(name, case), "{name:?} in {case:?}");
            }
        }
    }

    #[test]
    fn ascii_recasing_splits_runs_of_capitals_and_digits_as_heck() {
        let cases: &[(&str, Case, &str)] = &[
            ("HTTPServer", Case::Snake, "http_server"),
            ("HTTPServer", Case::Pascal, "HttpServer"),
            ("getV2APIKeys", Case::Snake, "get_v2api_keys"),
            ("a1B", Case::Snake, "a1_b"),
            ("ABc", Case::Pascal, "ABc"),
            ("x--y__z", Case::Snake, "x_y_z"),
            ("__init__", Case::Pascal, "Init"),
            ("deviceIDs", Case::Snake, "device_i_ds"),
        ];
        for (input, case, expected) in cases {
            assert_eq!(sanitize(input, *case), *expected, "sanitize({input:?}, {case:?})");
            assert_eq!(recase_unicode(input, *case), recase_ascii(input, *case), "{input:?}");
        }
    }

    #[test]
    fn method_names_stay_clear_of_conventions() {
        let cases = [
            ("listSpaces", "list_spaces"),
            ("new", "new_"),
            ("clone", "clone_"),
            ("default", "default_"),
            ("fromTemplate", "op_from_template"),
            ("intoDraft", "op_into_draft"),
            ("toPdf", "to_pdf"),
            ("add", "add_"),
            ("not", "not_"),
            ("type", "type_"),
        ];
        for (input, expected) in cases {
            assert_eq!(method_name(input), expected, "method_name({input:?})");
        }
    }

    #[test]
    fn module_names_stay_clear_of_generated_files_and_crates() {
        let cases = [
            ("spaces", "spaces"),
            ("site-structure", "site_structure"),
            ("lib", "lib_"),
            ("samples", "samples_"),
            ("mock", "mock_"),
            ("std", "std_"),
            ("core", "core_"),
            ("types", "types_"),
            ("self", "self_"),
        ];
        for (input, expected) in cases {
            assert_eq!(module_name(input), expected, "module_name({input:?})");
        }
    }

    #[test]
    fn short_method_names_drop_the_group_noun_after_the_verb() {
        let cases: &[(&str, &str, Option<&str>)] = &[
            ("getSpace", "spaces", Some("get")),
            ("listSpaceLinks", "spaces", Some("list_links")),
            ("moveSpace", "spaces", Some("move_")),
            ("listOrganizations", "organizations", Some("list")),
            ("listOrganizationsByEmailDomain", "organizations", Some("list_by_email_domain")),
            ("getOpenApiSpec", "openapi-specs", Some("get")),
            ("updateChangeRequestFromMain", "change-requests", Some("update_from_main")),
            ("listOrganizationCollections", "collections", None),
            ("getSpaceContent", "content", None),
            ("importSpaceFromGit", "git", None),
            ("get", "spaces", None),
        ];
        for (operation, tag, expected) in cases {
            assert_eq!(short_method_name(operation, tag).as_deref(), *expected, "{operation} in {tag}");
        }
    }

    #[test]
    fn every_keyword_is_escaped_in_both_cases() {
        for keyword in KEYWORDS {
            let snake = sanitize(keyword, Case::Snake);
            assert!(!KEYWORDS.contains(&snake.as_str()), "{keyword} -> {snake}");
            let pascal = sanitize(keyword, Case::Pascal);
            assert!(!KEYWORDS.contains(&pascal.as_str()), "{keyword} -> {pascal}");
        }
    }

    #[test]
    fn variant_names_are_capitalised_identifiers() {
        for ok in ["AB2", "Visa", "EMail_Legacy", "N1"] {
            assert!(is_variant_name(ok), "{ok}");
        }
        for bad in ["ab", "shareLink2", "2x", "A-B", "", "Self", "Émail"] {
            assert!(!is_variant_name(bad), "{bad}");
        }
    }

    #[test]
    fn a_collision_names_both_elements() {
        let mut diags = Diagnostics::new();
        let mut scope = Scope::new();
        let first = Location { file: "spec/a.yaml".into(), line: Some(3), ..Location::default() };
        let second = Location { file: "spec/a.yaml".into(), line: Some(4), ..Location::default() };
        assert!(scope.claim("foo_bar", "field `fooBar`", &first, &mut diags));
        assert!(!scope.claim("foo_bar", "field `foo_bar`", &second, &mut diags));
        assert_eq!(
            diags.render(),
            "error: spec/a.yaml:4: field `foo_bar` becomes the Rust name `foo_bar`, already taken by field `fooBar` at spec/a.yaml:3\n  hint: rename one of them in the spec (a field, parameter, response header or enumeration value whose wire name is fixed takes `rust_name`; an inline type `type_name`)\n1 error(s), 0 warning(s)\n"
        );
    }
}
