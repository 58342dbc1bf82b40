//! The house rules CONTRIBUTING.md states that a test can check, read from the sources with
//! `syn` (paths in `use` items, types and expressions; nothing inside macros, so the code
//! `quote!` prints is not read as the generator's own):
//!
//! - no function of generator/src over [`MAX_FUNCTION_LINES`] lines;
//! - no module loop among the sibling modules of [`LOOP_FREE`] directories, and no module of
//!   generator/src/import/ naming an item defined in generator/src/lib.rs;
//! - each phase of generator/src imports only the phases below it ([`PHASE_LAYERS`]);
//! - no emitter imports another ([`EMITTERS`]).
//!
//! What breaks a rule today is listed ([`KNOWN_LONG_FUNCTIONS`], [`KNOWN_LOOPS`],
//! [`KNOWN_LIB_ITEMS_IN_IMPORT`]): a test fails on an offender not listed, and on a listed one
//! that no longer is, so the lists only shrink.

use proc_macro2::Span;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::{self, Visit};

// ---- the rules, as data ------------------------------------------------------------------

/// The longest a function of the generator may be, from `fn` to its closing brace.
const MAX_FUNCTION_LINES: usize = 100;

/// Functions over [`MAX_FUNCTION_LINES`] today (file, function as `Type::method` or
/// `outer::inner`), being split on other branches.
const KNOWN_LONG_FUNCTIONS: &[(&str, &str)] = &[];

/// Directories whose sibling modules must not import each other in a loop.
const LOOP_FREE: &[&str] = &["generator/src/import", "runtime/src/client"];

/// Module loops today (directory, the modules of one loop, sorted), being broken on other
/// branches.
const KNOWN_LOOPS: &[(&str, &[&str])] = &[];

/// Items of generator/src/lib.rs a module of generator/src/import/ names today (file, item):
/// the import is a phase under the pipeline, not over it.
const KNOWN_LIB_ITEMS_IN_IMPORT: &[(&str, &str)] = &[];

/// The phases of generator/src (one folder each), bottom first: a phase imports only phases
/// of the layers before its own (CONTRIBUTING: `load -> lower -> emit -> write | check`, "each
/// importing only the phases below it"; the README's tour: the model "imports no phase").
/// `import` and `diff` are commands beside the pipeline, over lowering. The other modules
/// (`diag`, `input`, `config`, ...) are shared by all and are not phases.
const PHASE_LAYERS: &[&[&str]] = &[&["model", "load"], &["lower"], &["emit", "import", "diff"], &["out"]];

/// The emitters of generator/src/emit/: none imports another. The rest of emit/ is shared by
/// them (`rust`, `text`, `features`, `templates`, ...).
const EMITTERS: &[&str] = &["client", "server", "types", "openapi", "reference"];

// ---- the tests ---------------------------------------------------------------------------

#[test]
fn no_function_is_over_the_limit() {
    let sources = read_tree("generator/src", &[]);
    let mut long: BTreeMap<(String, String), (usize, usize)> = BTreeMap::new();
    for source in &sources {
        for function in functions(&source.file) {
            if function.lines > MAX_FUNCTION_LINES {
                long.insert((source.path.clone(), function.name), (function.line, function.lines));
            }
        }
    }
    let rule =
        format!("a function of the generator is at most {MAX_FUNCTION_LINES} lines (CONTRIBUTING.md: House rules)");
    let mut failures = Vec::new();
    for ((file, name), (line, lines)) in &long {
        if !KNOWN_LONG_FUNCTIONS.contains(&(file.as_str(), name.as_str())) {
            failures.push(format!("{file}:{line}: `{name}` is {lines} lines; {rule}"));
        }
    }
    for (file, name) in KNOWN_LONG_FUNCTIONS {
        if !long.contains_key(&((*file).to_owned(), (*name).to_owned())) {
            let found =
                sources.iter().filter(|s| s.path == *file).flat_map(|s| functions(&s.file)).find(|f| f.name == *name);
            let place = found.map_or(format!("{file}: `{name}` is gone"), |f| {
                format!("{file}:{}: `{name}` is {} lines", f.line, f.lines)
            });
            failures.push(format!("{place}, no longer over the limit: remove it from KNOWN_LONG_FUNCTIONS ({rule})"));
        }
    }
    report(failures);
}

#[test]
fn no_module_loop() {
    let mut failures = Vec::new();
    for dir in LOOP_FREE {
        let (krate, sources) = read_crate_of(dir);
        let graph = Siblings::of(&krate, dir, &sources);
        let loops = graph.loops();
        let rule = format!("the modules of {dir}/ import each other in no loop (CONTRIBUTING.md: House rules)");
        for members in &loops {
            if KNOWN_LOOPS.iter().any(|(d, known)| d == dir && same(known, members)) {
                continue;
            }
            let path = members.iter().map(String::as_str).collect::<Vec<_>>().join(", ");
            for ((from, to), at) in &graph.edges {
                if members.contains(from) && members.contains(to) {
                    failures.push(format!("{at}: {from} -> {to}, part of the loop of {path}; {rule}"));
                }
            }
        }
        for (_, known) in KNOWN_LOOPS.iter().filter(|(d, _)| d == dir) {
            if !loops.iter().any(|members| same(known, members)) {
                failures.push(format!(
                    "{dir}/: {} are no longer one loop: remove it from KNOWN_LOOPS (or list the loop left); {rule}",
                    known.join(", ")
                ));
            }
        }
    }
    report(failures);
}

#[test]
fn the_import_names_no_item_of_lib_rs() {
    let lib = parse("generator/src/lib.rs");
    let items: BTreeSet<String> = lib.items.iter().filter_map(defined_name).collect();
    // lib.rs has functions named as modules (`import`, `load`): `crate::import::gaps` and
    // `super` name the module, `crate::import` alone the function too.
    let modules: BTreeSet<String> = lib.items.iter().filter_map(module_name).collect();
    let names_item = |reference: &Reference| match reference.target.as_slice() {
        [only] => items.contains(only) && !(modules.contains(only) && reference.names_module),
        [first, ..] => items.contains(first) && !modules.contains(first),
        [] => false,
    };
    let rule = "the import names nothing defined in generator/src/lib.rs (CONTRIBUTING.md: House rules)";
    let mut named: BTreeMap<(String, String), Reference> = BTreeMap::new();
    for source in read_tree("generator/src/import", &["import"]) {
        for reference in references(&source).into_iter().filter(names_item) {
            named.entry((source.path.clone(), reference.target[0].clone())).or_insert(reference);
        }
    }
    let mut failures = Vec::new();
    for ((file, item), reference) in &named {
        if !KNOWN_LIB_ITEMS_IN_IMPORT.contains(&(file.as_str(), item.as_str())) {
            failures.push(format!("{}: `{}` names `crate::{item}`; {rule}", reference.at, reference.text));
        }
    }
    for (file, item) in KNOWN_LIB_ITEMS_IN_IMPORT {
        if !named.contains_key(&((*file).to_owned(), (*item).to_owned())) {
            failures.push(format!(
                "{file}: no longer names `crate::{item}`: remove it from KNOWN_LIB_ITEMS_IN_IMPORT ({rule})"
            ));
        }
    }
    report(failures);
}

#[test]
fn each_phase_imports_only_phases_below_it() {
    let layer = |name: &str| PHASE_LAYERS.iter().position(|layer| layer.contains(&name));
    let rule = "a phase imports only the phases below it (CONTRIBUTING.md: House rules; PHASE_LAYERS)";
    let mut failures = Vec::new();
    for folder in folders("generator/src") {
        if layer(&folder).is_none() {
            failures.push(format!("generator/src/{folder}/: a folder no layer of PHASE_LAYERS holds; {rule}"));
        }
    }
    for source in read_tree("generator/src", &[]) {
        let Some(own) = source.module.first().filter(|phase| layer(phase).is_some()) else { continue };
        for reference in references(&source) {
            let Some(phase) = reference.target.first().filter(|phase| *phase != own) else { continue };
            if layer(phase).is_some_and(|theirs| theirs >= layer(own).unwrap()) {
                failures.push(format!("{}: `{}`: {own} imports {phase}; {rule}", reference.at, reference.text));
            }
        }
    }
    report(failures);
}

#[test]
fn no_emitter_imports_another() {
    let sources = read_tree("generator/src", &[]);
    let graph = Siblings::of("generator/src", "generator/src/emit", &sources);
    let rule = "no emitter imports another; shared pieces live beside them in emit/ (CONTRIBUTING.md: House rules)";
    let failures = graph
        .edges
        .iter()
        .filter(|((from, to), _)| EMITTERS.contains(&from.as_str()) && EMITTERS.contains(&to.as_str()))
        .map(|((from, to), at)| format!("{at}: emitter {from} imports emitter {to}; {rule}"))
        .collect();
    report(failures);
}

/// The checks find what they look for: a long function and a loop in sources written here.
#[test]
fn the_checks_see_what_they_check() {
    let body = "    let x = 1;\n".repeat(MAX_FUNCTION_LINES);
    let file = syn::parse_file(&format!("impl A {{\n    fn long() {{\n{body}    }}\n    fn short() {{}}\n}}")).unwrap();
    let found: Vec<(String, usize)> = functions(&file).into_iter().map(|f| (f.name, f.lines)).collect();
    assert_eq!(found, [("A::long".to_owned(), MAX_FUNCTION_LINES + 2), ("A::short".to_owned(), 1)]);

    let source = |name: &str, text: &str| Source {
        path: format!("x/src/a/{name}.rs"),
        module: vec!["a".into(), name.into()],
        file: syn::parse_file(text).unwrap(),
    };
    let sources = [
        Source {
            path: "x/src/a/mod.rs".into(),
            module: vec!["a".into()],
            file: syn::parse_file("pub use c::C;").unwrap(),
        },
        source("b", "use super::C;"),
        source("c", "fn f() { crate::a::d::g(); }"),
        source("d", "use super::{b::B, e::*};"),
        source("e", "use super::super::a::f::F;"),
        source("f", "mod tests { use super::super::e::E; }"),
    ];
    let graph = Siblings::of("x/src", "x/src/a", &sources);
    assert_eq!(graph.loops(), [names(&["b", "c", "d"]), names(&["e", "f"])]);
    assert_eq!(graph.edges[&("b".to_owned(), "c".to_owned())].to_string(), "x/src/a/b.rs:1");
}

// ---- reading the sources -----------------------------------------------------------------

/// A parsed source file of a crate.
struct Source {
    /// Its path from the repository root (`generator/src/import/errors.rs`).
    path: String,
    /// Its module's path from the crate root (`["import", "errors"]`).
    module: Vec<String>,
    file: syn::File,
}

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn parse(path: &str) -> syn::File {
    let text = std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    syn::parse_file(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The crate root holding `dir` (`runtime/src` for `runtime/src/client`) and its sources.
fn read_crate_of(dir: &str) -> (String, Vec<Source>) {
    let (krate, module) = dir.split_once("/src").map(|(krate, rest)| (format!("{krate}/src"), rest)).unwrap();
    let module: Vec<&str> = module.split('/').filter(|m| !m.is_empty()).collect();
    (krate, read_tree(dir, &module))
}

/// Every `.rs` file under `dir`, whose module path is `module`, parsed.
fn read_tree(dir: &str, module: &[&str]) -> Vec<Source> {
    let mut sources = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(root().join(dir)).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for entry in entries {
        let name = entry.file_name().unwrap().to_string_lossy().into_owned();
        let path = format!("{dir}/{name}");
        let mut inner: Vec<&str> = module.to_vec();
        if entry.is_dir() {
            inner.push(&name);
            sources.extend(read_tree(&path, &inner));
        } else if let Some(stem) = name.strip_suffix(".rs") {
            let at_root = module.is_empty() && (stem == "lib" || stem == "main");
            if stem != "mod" && !at_root {
                inner.push(stem);
            }
            let file = parse(&path);
            sources.push(Source { path, module: inner.iter().map(|m| (*m).to_owned()).collect(), file });
        }
    }
    sources
}

/// The folders directly under `dir`.
fn folders(dir: &str) -> Vec<String> {
    let entries = std::fs::read_dir(root().join(dir)).unwrap().map(|e| e.unwrap().path());
    entries.filter(|p| p.is_dir()).map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect()
}

/// A place in a source file.
#[derive(Debug, Clone)]
struct At {
    file: String,
    line: usize,
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

fn line(span: Span) -> usize {
    span.start().line
}

// ---- functions ---------------------------------------------------------------------------

/// A function with a body: its name within the file, its first line and its length.
struct Function {
    name: String,
    line: usize,
    lines: usize,
}

/// Every function of a file with a body (items, methods, trait methods' defaults, functions
/// nested in others), each named by what holds it (`Type::method`, `outer::inner`).
fn functions(file: &syn::File) -> Vec<Function> {
    let mut finder = Functions::default();
    finder.visit_file(file);
    finder.found
}

#[derive(Default)]
struct Functions {
    within: Vec<String>,
    found: Vec<Function>,
}

impl Functions {
    fn enter(&mut self, sig: &syn::Signature, block: &syn::Block, walk: impl FnOnce(&mut Self)) {
        let name = self.within.iter().chain([&sig.ident.to_string()]).cloned().collect::<Vec<_>>().join("::");
        let (first, last) = (line(sig.fn_token.span), line(block.brace_token.span.close()));
        self.found.push(Function { name, line: first, lines: last - first + 1 });
        self.within.push(sig.ident.to_string());
        walk(self);
        self.within.pop();
    }

    fn within(&mut self, name: String, walk: impl FnOnce(&mut Self)) {
        self.within.push(name);
        walk(self);
        self.within.pop();
    }
}

impl<'ast> Visit<'ast> for Functions {
    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.enter(&item.sig, &item.block, |v| visit::visit_item_fn(v, item));
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        self.enter(&item.sig, &item.block, |v| visit::visit_impl_item_fn(v, item));
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        match &item.default {
            Some(block) => self.enter(&item.sig, block, |v| visit::visit_trait_item_fn(v, item)),
            None => visit::visit_trait_item_fn(self, item),
        }
    }

    fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
        let name = match &*item.self_ty {
            syn::Type::Path(ty) => ty.path.segments.last().map_or(String::new(), |s| s.ident.to_string()),
            _ => "impl".to_owned(),
        };
        self.within(name, |v| visit::visit_item_impl(v, item));
    }

    fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
        self.within(item.ident.to_string(), |v| visit::visit_item_trait(v, item));
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.within(item.ident.to_string(), |v| visit::visit_item_mod(v, item));
    }
}

// ---- paths -------------------------------------------------------------------------------

/// A path naming something of its own crate (from `crate::`, `self::` or `super::`).
#[derive(Debug, Clone)]
struct Reference {
    /// What it names, from the crate root (`["import", "errors", "Thing"]`).
    target: Vec<String>,
    /// As written.
    text: String,
    /// Whether it ends in `crate`, `self` or `super`: a module, whatever else shares its name.
    names_module: bool,
    at: At,
}

/// Every path of a source naming something of its own crate: in `use` items (a glob names its
/// module), types, expressions and patterns. Paths inside macros are not read.
fn references(source: &Source) -> Vec<Reference> {
    let mut finder = Paths { file: &source.path, module: source.module.clone(), found: Vec::new() };
    finder.visit_file(&source.file);
    finder.found
}

struct Paths<'a> {
    file: &'a str,
    /// The module the visitor is in (inline `mod`s pushed).
    module: Vec<String>,
    found: Vec<Reference>,
}

impl Paths<'_> {
    /// Records `segments` (with the span of the first) if it starts at this crate.
    fn record(&mut self, segments: &[String], span: Span) {
        let mut target = match segments.first().map(String::as_str) {
            Some("crate") => Vec::new(),
            Some("self" | "super") => self.module.clone(),
            _ => return,
        };
        let mut rest = &segments[usize::from(segments[0] != "super")..];
        while let Some(("super", after)) = rest.split_first().map(|(first, after)| (first.as_str(), after)) {
            target.pop();
            rest = after;
        }
        // `use super::x::{self}` names `x`.
        target.extend(rest.iter().filter(|segment| *segment != "self").cloned());
        let at = At { file: self.file.to_owned(), line: line(span) };
        let names_module = matches!(segments.last().map(String::as_str), Some("crate" | "self" | "super"));
        self.found.push(Reference { target, text: segments.join("::"), names_module, at });
    }

    /// Records each path a `use` tree ends in, `prefix` written before it.
    fn use_tree(&mut self, tree: &syn::UseTree, prefix: &mut Vec<String>, span: Option<Span>) {
        match tree {
            syn::UseTree::Path(path) => {
                prefix.push(path.ident.to_string());
                self.use_tree(&path.tree, prefix, span.or(Some(path.ident.span())));
                prefix.pop();
            }
            syn::UseTree::Name(syn::UseName { ident }) | syn::UseTree::Rename(syn::UseRename { ident, .. }) => {
                let mut whole = prefix.clone();
                whole.push(ident.to_string());
                self.record(&whole, span.unwrap_or(ident.span()));
            }
            syn::UseTree::Glob(glob) => self.record(prefix, span.unwrap_or(glob.star_token.span)),
            syn::UseTree::Group(group) => {
                for tree in &group.items {
                    self.use_tree(tree, prefix, span);
                }
            }
        }
    }
}

impl<'ast> Visit<'ast> for Paths<'_> {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if item.leading_colon.is_none() {
            self.use_tree(&item.tree, &mut Vec::new(), None);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() {
            let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
            self.record(&segments, path.segments[0].ident.span());
        }
        visit::visit_path(self, path);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        self.module.push(item.ident.to_string());
        visit::visit_item_mod(self, item);
        self.module.pop();
    }
}

/// The name of a module declared at a file's top.
fn module_name(item: &syn::Item) -> Option<String> {
    match item {
        syn::Item::Mod(item) => Some(item.ident.to_string()),
        _ => None,
    }
}

/// The name of an item defined (not imported, not a module) at a file's top.
fn defined_name(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Const(item) => &item.ident,
        syn::Item::Enum(item) => &item.ident,
        syn::Item::Fn(item) => &item.sig.ident,
        syn::Item::Static(item) => &item.ident,
        syn::Item::Struct(item) => &item.ident,
        syn::Item::Trait(item) => &item.ident,
        syn::Item::Type(item) => &item.ident,
        syn::Item::Union(item) => &item.ident,
        syn::Item::Macro(item) => item.ident.as_ref()?,
        _ => return None,
    };
    Some(ident.to_string())
}

// ---- the modules of a directory ----------------------------------------------------------

/// Which sibling modules of a directory import which: `a -> b` when a file of `a` (or of a
/// module under it) names `b` or something the parent re-exports from `b`.
struct Siblings {
    /// Each edge with the first place making it.
    edges: BTreeMap<(String, String), At>,
}

impl Siblings {
    /// The modules directly in `dir` (a directory of the crate whose root is `krate`), from
    /// `sources` (any files of that crate).
    fn of(krate: &str, dir: &str, sources: &[Source]) -> Self {
        let parent: Vec<String> =
            dir.strip_prefix(krate).unwrap().split('/').filter(|m| !m.is_empty()).map(str::to_owned).collect();
        let depth = parent.len();
        let children: BTreeSet<String> = sources
            .iter()
            .filter(|s| s.module.len() > depth && s.module.starts_with(&parent))
            .map(|s| s.module[depth].clone())
            .collect();
        let re_exported = re_exports(sources.iter().find(|s| s.module == parent), &children);
        let mut edges = BTreeMap::new();
        for source in sources.iter().filter(|s| s.module.len() > depth && s.module.starts_with(&parent)) {
            let from = &source.module[depth];
            for reference in references(source) {
                let target = &reference.target;
                if target.len() <= depth || !target.starts_with(&parent) {
                    continue;
                }
                let to = re_exported.get(&target[depth]).unwrap_or(&target[depth]);
                if children.contains(to) && to != from {
                    edges.entry((from.clone(), to.clone())).or_insert(reference.at);
                }
            }
        }
        Siblings { edges }
    }

    /// The loops: each set of modules that reach one another, of two or more, sorted.
    fn loops(&self) -> Vec<BTreeSet<String>> {
        let nodes: BTreeSet<&String> = self.edges.keys().flat_map(|(a, b)| [a, b]).collect();
        let reach: BTreeMap<&String, BTreeSet<&String>> = nodes.iter().map(|n| (*n, self.reachable(n))).collect();
        let mut loops: Vec<BTreeSet<String>> = Vec::new();
        for node in &nodes {
            let members: BTreeSet<String> = nodes
                .iter()
                .filter(|m| reach[*node].contains(*m) && reach[*m].contains(*node))
                .map(|m| (*m).clone())
                .collect();
            if members.len() > 1 && !loops.contains(&members) {
                loops.push(members);
            }
        }
        loops
    }

    /// Every module `from` reaches by one edge or more.
    fn reachable<'a>(&'a self, from: &'a String) -> BTreeSet<&'a String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from];
        while let Some(node) = stack.pop() {
            for (_, to) in self.edges.keys().filter(|(a, _)| a == node) {
                if seen.insert(to) {
                    stack.push(to);
                }
            }
        }
        seen
    }
}

/// What the parent module (`mod.rs`) re-exports from its children: name -> child.
fn re_exports(parent: Option<&Source>, children: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let Some(parent) = parent else { return found };
    for item in &parent.file.items {
        if let syn::Item::Use(item) = item {
            collect_re_exports(&item.tree, None, children, &mut found);
        }
    }
    found
}

fn collect_re_exports(
    tree: &syn::UseTree,
    child: Option<&str>,
    children: &BTreeSet<String>,
    found: &mut BTreeMap<String, String>,
) {
    match tree {
        syn::UseTree::Path(path) => {
            let ident = path.ident.to_string();
            let next = match child {
                Some(child) => Some(child),
                None => children.get(&ident).map(String::as_str),
            };
            // `self::core::Core` and `core::Core` alike; another root (`crate::defaults`) ends it.
            if next.is_some() || ident == "self" {
                collect_re_exports(&path.tree, next, children, found);
            }
        }
        syn::UseTree::Name(name) => {
            if let Some(child) = child {
                found.insert(name.ident.to_string(), child.to_owned());
            }
        }
        syn::UseTree::Rename(rename) => {
            if let Some(child) = child {
                found.insert(rename.rename.to_string(), child.to_owned());
            }
        }
        syn::UseTree::Glob(_) => {}
        syn::UseTree::Group(group) => {
            for tree in &group.items {
                collect_re_exports(tree, child, children, found);
            }
        }
    }
}

// ---- helpers -----------------------------------------------------------------------------

fn same(known: &[&str], members: &BTreeSet<String>) -> bool {
    names(known) == *members
}

fn names(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|n| (*n).to_owned()).collect()
}

/// Fails with every failure, one a line.
fn report(failures: Vec<String>) {
    assert!(failures.is_empty(), "{} house rule failure(s):\n{}", failures.len(), failures.join("\n"));
}
