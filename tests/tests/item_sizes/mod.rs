//! The sizes of generated items (issue 52, "no giant items"): no generated function over
//! 2,000 lines and no generated Rust file over 2 MB, measured on the printed files. Used by
//! the default tier's synthetic API and the heavy tier's real ones.
//!
//! The limit on files is on Rust files, what rustc compiles: `openapi.json` and the
//! reference are the whole API's documents, one file each by design (Graph's `openapi.json`
//! is 83 MB), and are only reported.

use syn::spanned::Spanned;
use syn::visit::Visit;

/// The most lines a generated function may span (its attributes and doc comments included).
pub const MAX_FN_LINES: usize = 2_000;

/// The most bytes a generated file may hold: 2 MB.
pub const MAX_FILE_BYTES: usize = 2_000_000;

/// What the files of one output measure.
#[derive(Debug, Default)]
pub struct Sizes {
    /// The largest Rust file: its path and bytes.
    pub largest_file: (String, usize),
    /// The largest other file (`openapi.json`, the reference, manifests): its path and bytes.
    pub largest_other: (String, usize),
    /// The longest function: where (`path: name`) and its lines.
    pub longest_fn: (String, usize),
    /// Every file over [`MAX_FILE_BYTES`] and every function over [`MAX_FN_LINES`].
    pub over: Vec<String>,
}

impl Sizes {
    /// Measures `text`, the file at `path`: its bytes, and for a Rust file every function
    /// (free, in an impl, in a trait) by the lines its span covers.
    pub fn add(&mut self, path: &str, text: &str) {
        if !path.ends_with(".rs") {
            if text.len() > self.largest_other.1 {
                self.largest_other = (path.to_owned(), text.len());
            }
            return;
        }
        if text.len() > self.largest_file.1 {
            self.largest_file = (path.to_owned(), text.len());
        }
        if text.len() > MAX_FILE_BYTES {
            self.over.push(format!("{path}: {} bytes", text.len()));
        }
        let file = syn::parse_file(text).unwrap_or_else(|e| panic!("{path} does not parse: {e}"));
        let mut functions = Functions::default();
        functions.visit_file(&file);
        for (name, lines) in functions.0 {
            if lines > self.longest_fn.1 {
                self.longest_fn = (format!("{path}: {name}"), lines);
            }
            if lines > MAX_FN_LINES {
                self.over.push(format!("{path}: fn {name} spans {lines} lines"));
            }
        }
    }
}

/// Each function's name and the lines its span covers.
#[derive(Default)]
struct Functions(Vec<(String, usize)>);

impl Functions {
    fn record(&mut self, name: &syn::Ident, span: proc_macro2::Span) {
        self.0.push((name.to_string(), span.end().line - span.start().line + 1));
    }
}

impl<'ast> Visit<'ast> for Functions {
    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.record(&item.sig.ident, item.span());
        syn::visit::visit_item_fn(self, item);
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        self.record(&item.sig.ident, item.span());
        syn::visit::visit_impl_item_fn(self, item);
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        self.record(&item.sig.ident, item.span());
        syn::visit::visit_trait_item_fn(self, item);
    }
}
