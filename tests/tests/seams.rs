//! The seam between generated code and the runtime: generated code reaches what only it needs
//! through one module, `apigen_runtime::codegen` (runtime/src/codegen.rs), so the runtime's
//! modules can move without the generator following them. This test reads every Rust file of
//! `generated/` and `tests/fixtures/generated/*` with `syn` and fails on each path that goes
//! around the seam.
//!
//! The rule, precisely:
//!
//! - **Codegen items** are the items `codegen` re-exports (read from codegen.rs: its `pub use`s
//!   and those of its `client` and `server` modules), each known at the path it re-exports it
//!   from (`apigen_runtime::client::Call` for `crate::client::Call`) and, when lib.rs
//!   re-exports its name, at the crate root (`apigen_runtime::ErrorShape`). Every other item of the runtime is its public API, what
//!   users meet (`FromJson`, `Patch`, `ApiError`, the re-exported `serde`, ...): generated code
//!   names those by their public paths, in code too.
//! - **Code** is what runs: the bodies of functions (free, inherent, trait defaults; closures
//!   and items inside them included) and the initializers of consts and statics (the
//!   `OPERATIONS`, `SCHEMES` and `ERRORS` tables).
//! - **The public surface** is everything else, never checked: signatures (arguments, results,
//!   generics, bounds), the types of fields, consts, statics and aliases, impl headers, and
//!   `pub use` re-exports. There a codegen item may keep its public path: it is what users
//!   read (`Request::call` returns an `apigen_runtime::client::Call`). A type written inside
//!   code (`let x: T`, a turbofish) is allowed too: it names what a signature could.
//! - **In code, a path naming a codegen item goes through `apigen_runtime::codegen`**, the
//!   call of a trait's method by its qualified path (`<K as Kind>::send`) included, unless the
//!   crate re-exports that item with a `pub use` (the server's `OperationInfo`): the item is
//!   then the crate's own, and code names it at the path it re-exports it from.
//! - A private `use` is an alias, neither surface nor code: a path in code that starts with a
//!   name it brings in is checked as the path it stands for.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::punctuated::Punctuated;
use syn::visit::{self, Visit};

/// A path as its identifiers, without `::` or generic arguments (`apigen_runtime::client::Call`).
type Segments = Vec<String>;

/// The identifiers of `path`.
fn segments(path: &syn::Path) -> Segments {
    path.segments.iter().map(|segment| segment.ident.to_string()).collect()
}

/// The codegen items, each at every path it is known by (see the module docs).
struct Seam {
    items: Vec<Segments>,
}

impl Seam {
    /// The codegen items of `codegen` (the text of runtime/src/codegen.rs), with the names
    /// the crate root re-exports (`lib`, the text of runtime/src/lib.rs).
    fn read(codegen: &str, lib: &str) -> Seam {
        let mut at_root = Vec::new();
        for item in syn::parse_file(lib).expect("lib.rs parses").items {
            if let syn::Item::Use(item) = item
                && matches!(item.vis, syn::Visibility::Public(_))
            {
                use_leaves(&item.tree, Vec::new(), &mut at_root);
            }
        }
        let file = syn::parse_file(codegen).expect("codegen.rs parses");
        let mut leaves = Vec::new();
        for item in &file.items {
            match item {
                syn::Item::Use(item) => use_leaves(&item.tree, Vec::new(), &mut leaves),
                // A test module's imports are its own, not what the generated code reaches.
                syn::Item::Mod(module) if !is_test_module(module) => {
                    for item in module.content.iter().flat_map(|(_, items)| items) {
                        if let syn::Item::Use(item) = item {
                            use_leaves(&item.tree, Vec::new(), &mut leaves);
                        }
                    }
                }
                _ => {}
            }
        }
        let mut items = Vec::new();
        for (path, _) in leaves {
            let Some(("crate", inside)) = path.split_first().map(|(first, rest)| (first.as_str(), rest)) else {
                panic!("codegen.rs re-exports {path:?}, not a path of the crate");
            };
            let name = inside.last().expect("a re-export names an item").clone();
            items.push(runtime_path(inside));
            if at_root.iter().any(|(_, root)| *root == name) {
                items.push(runtime_path(&[name]));
            }
        }
        Seam { items }
    }

    /// The codegen item `path` names (`apigen_runtime::client::Call` for
    /// `apigen_runtime::client::Call::new`), if it names one.
    fn item_of<'a>(&'a self, path: &[String]) -> Option<&'a Segments> {
        self.items.iter().filter(|item| path.starts_with(item)).max_by_key(|item| item.len())
    }
}

/// `apigen_runtime::` followed by `inside`.
fn runtime_path(inside: &[String]) -> Segments {
    std::iter::once("apigen_runtime".to_owned()).chain(inside.iter().cloned()).collect()
}

/// Every leaf of a `use` tree: the path it imports and the name it is known by here.
fn use_leaves(tree: &syn::UseTree, prefix: Segments, out: &mut Vec<(Segments, String)>) {
    let with = |ident: &syn::Ident| prefix.iter().cloned().chain([ident.to_string()]).collect::<Segments>();
    match tree {
        syn::UseTree::Path(path) => use_leaves(&path.tree, with(&path.ident), out),
        syn::UseTree::Name(name) => out.push((with(&name.ident), name.ident.to_string())),
        syn::UseTree::Rename(rename) => out.push((with(&rename.ident), rename.rename.to_string())),
        syn::UseTree::Group(group) => group.items.iter().for_each(|tree| use_leaves(tree, prefix.clone(), out)),
        syn::UseTree::Glob(_) => {}
    }
}

/// What one file says about the runtime: the paths it re-exports (`pub use`), and the paths
/// its code names, with the aliases of its `use`s resolved.
#[derive(Default)]
struct Reading {
    reexported: BTreeSet<Segments>,
    code: Vec<Segments>,
    aliases: BTreeMap<String, Segments>,
    in_code: bool,
    in_type: usize,
}

impl Reading {
    /// The reading of one file: the `use`s at its top first, so that code above one of them
    /// is read with its alias too.
    fn of(file: &syn::File) -> Reading {
        let mut reading = Reading::default();
        for item in &file.items {
            if let syn::Item::Use(item) = item {
                reading.read_use(item);
            }
        }
        reading.visit_file(file);
        reading
    }

    /// A `use`: an alias for the paths of code; a `pub use` also re-exports.
    fn read_use(&mut self, item: &syn::ItemUse) {
        let mut leaves = Vec::new();
        use_leaves(&item.tree, Vec::new(), &mut leaves);
        for (path, name) in leaves {
            if path.first().is_some_and(|first| first == "apigen_runtime") {
                if matches!(item.vis, syn::Visibility::Public(_)) {
                    self.reexported.insert(path.clone());
                }
                self.aliases.insert(name, path);
            }
        }
    }

    /// `path` with an alias of a `use` at its start replaced by the path it stands for.
    fn resolved(&self, path: &syn::Path) -> Segments {
        let mut path = segments(path);
        if let Some(full) = path.first().and_then(|first| self.aliases.get(first)) {
            path.splice(..1, full.iter().cloned());
        }
        path
    }

    /// Visits `visit` in code (`true`) or in the public surface (`false`).
    fn within(&mut self, in_code: bool, visit: impl FnOnce(&mut Self)) {
        let outer = std::mem::replace(&mut self.in_code, in_code);
        visit(self);
        self.in_code = outer;
    }
}

impl<'ast> Visit<'ast> for Reading {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        // An item inside code (an impl in a const block, a function in a function) has a
        // surface of its own.
        self.within(false, |reading| visit::visit_item(reading, item));
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        // Those at the top of the file were read already; this reads those inside modules and
        // bodies.
        self.read_use(item);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit::visit_macro(self, mac);
        // What a macro of code takes is code too, when it reads as expressions
        // (`format!("/v1/{}", segment(&id))`, `vec![..]`).
        if self.in_code
            && let Ok(exprs) = mac.parse_body_with(Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated)
        {
            exprs.iter().for_each(|expr| self.visit_expr(expr));
        }
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        self.within(true, |reading| visit::visit_block(reading, block));
    }

    fn visit_expr(&mut self, expr: &'ast syn::Expr) {
        self.within(true, |reading| visit::visit_expr(reading, expr));
    }

    fn visit_type(&mut self, ty: &'ast syn::Type) {
        self.in_type += 1;
        visit::visit_type(self, ty);
        self.in_type -= 1;
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let resolved = self.resolved(path);
        if self.in_code && self.in_type == 0 && resolved.first().is_some_and(|first| first == "apigen_runtime") {
            self.code.push(resolved);
        }
        visit::visit_path(self, path);
    }
}

/// The paths of the crates' code that go around the seam, as `file: path`. Each crate is the
/// files under one directory holding a `Cargo.toml`; what it re-exports, its files' `pub use`s.
fn around_the_seam(seam: &Seam, crates: &BTreeMap<PathBuf, Vec<(PathBuf, String)>>) -> Vec<String> {
    let mut found = Vec::new();
    for files in crates.values() {
        let readings: Vec<(&PathBuf, Reading)> = files
            .iter()
            .map(|(path, text)| {
                let file = syn::parse_file(text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                (path, Reading::of(&file))
            })
            .collect();
        let reexported: BTreeSet<&Segments> = readings.iter().flat_map(|(_, reading)| &reading.reexported).collect();
        for (path, reading) in &readings {
            for code in &reading.code {
                if code.get(1).is_some_and(|second| second == "codegen") {
                    continue;
                }
                if let Some(item) = seam.item_of(code).filter(|item| !reexported.contains(item)) {
                    found.push(format!("{}: {} (names {})", path.display(), code.join("::"), item.join("::")));
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// The Rust files under `dir`, by the crate (directory holding a `Cargo.toml`) they belong to.
fn crates_under(dir: &Path, crate_dir: Option<&Path>, out: &mut BTreeMap<PathBuf, Vec<(PathBuf, String)>>) {
    let crate_dir = if dir.join("Cargo.toml").is_file() { Some(dir) } else { crate_dir };
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() && path.file_name().is_some_and(|name| name != "target") {
            crates_under(&path, crate_dir, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let owner = crate_dir.unwrap_or(dir).to_path_buf();
            let text = std::fs::read_to_string(&path).unwrap();
            out.entry(owner).or_default().push((path, text));
        }
    }
}

/// The seam of this checkout's runtime.
fn seam() -> Seam {
    let read = |file: &str| std::fs::read_to_string(Path::new("../runtime/src").join(file)).unwrap();
    Seam::read(&read("codegen.rs"), &read("lib.rs"))
}

#[test]
fn generated_code_names_what_only_it_needs_through_codegen() {
    let mut crates = BTreeMap::new();
    crates_under(Path::new("../generated"), None, &mut crates);
    crates_under(Path::new("fixtures/generated"), None, &mut crates);
    let files: usize = crates.values().map(Vec::len).sum();
    assert!(crates.len() >= 30 && files >= 100, "found {} crates, {files} files", crates.len());
    let found = around_the_seam(&seam(), &crates);
    assert!(found.is_empty(), "{} paths go around apigen_runtime::codegen:\n{}", found.len(), found.join("\n"));
}

/// The rule on small files: what it refuses and what it leaves alone.
#[test]
fn the_rule_refuses_code_around_the_seam_and_leaves_the_surface_alone() {
    let check = |text: &str| {
        let crates = BTreeMap::from([(PathBuf::from("c"), vec![(PathBuf::from("c/lib.rs"), text.to_owned())])]);
        around_the_seam(&seam(), &crates)
    };
    let refused = [
        // A call built at the public path, in a body.
        "fn f() -> Made { Ok(::apigen_runtime::client::Call::new(\"op\", M, p, h)) }",
        // A selector at the public path, in a static table.
        "pub const OPS: &[Info] = &[Info { select: &[::apigen_runtime::server::Selector::Query(\"A\", \"b\")] }];",
        // Through a private alias, in a closure.
        "use ::apigen_runtime::client::segment as s;\nfn f() { let g = |x: &str| s(x); }",
        // In a method of an impl inside a const block.
        "const _: () = { impl T for X { fn f() { ::apigen_runtime::Paging::new(); } } };",
        // A codegen item a signature names at its public path, built there in the body.
        "pub fn call() -> ::apigen_runtime::client::Call { ::apigen_runtime::client::Call::new(o, m, p, h) }",
        // A trait's method called by its qualified path.
        "async fn send(self) -> <P::Kind as ::apigen_runtime::client::Kind>::Value { <P::Kind as ::apigen_runtime::client::Kind>::send(c, call).await }",
        // In what a macro of code takes.
        "fn f() -> String { ::std::format!(\"/v1/{}\", ::apigen_runtime::client::segment(&id)) }",
    ];
    for text in refused {
        assert_eq!(check(text).len(), 1, "{text}");
    }
    let allowed = [
        // Through the seam.
        "fn f() -> Made { Ok(::apigen_runtime::codegen::client::Call::new(\"op\", M, p, h)) }",
        // The runtime's public API, in code.
        "fn f() { ::apigen_runtime::server::ApiError::bad_request(\"x\"); ::apigen_runtime::serde_json::to_value(1); }",
        // Codegen items in signatures, types (in code too) and impl headers.
        "pub fn f(c: &::apigen_runtime::client::Call) -> ::apigen_runtime::client::Made { let x: ::apigen_runtime::server::Status = s; }",
        "impl ::apigen_runtime::Paginated for X {}",
        // A codegen item the crate re-exports, named at that path in code too.
        "pub use ::apigen_runtime::server::OperationInfo;\npub const OPS: &[OperationInfo] = &[OperationInfo { ..::apigen_runtime::server::OperationInfo::BASE }];",
    ];
    for text in allowed {
        assert_eq!(check(text), Vec::<String>::new(), "{text}");
    }
}

/// Whether a module is compiled for tests only (`#[cfg(test)]`, `#[cfg(all(test, ..))]`).
fn is_test_module(module: &syn::ItemMod) -> bool {
    module.attrs.iter().any(|attr| {
        attr.path().is_ident("cfg") && {
            let tokens = attr.meta.require_list().map(|list| list.tokens.to_string()).unwrap_or_default();
            tokens.split(|c: char| !c.is_alphanumeric() && c != '_').any(|word| word == "test")
        }
    })
}
