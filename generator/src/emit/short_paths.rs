//! Short paths in a group's files (issue 52, item 2: bytes per operation). The emitters write
//! every path in full (`::core::option::Option`, `::apigen_runtime::server::Handled`, the
//! types crate's `::docs_api_types::Space`), so what they build means the same wherever it
//! lands. In a group's client and server modules, their parts and its route table, those full
//! paths were a tenth of the bytes of an operation; this pass names them shortly there:
//!
//! - the standard prelude's items by their name (`Option`, `String`, `Vec`, `None`, `Ok`, ...);
//! - a few items of the runtime's surface by their name, through a private `use` at the top of
//!   the file, only when the file names them (an unused import is a warning, and warnings are
//!   denied);
//! - the types crate through the private alias `ty` (`ty::Space`), its items keeping their
//!   crate's namespace: a type of the spec named like a request cannot meet one.
//!
//! This is sound because nothing a group's module defines is named like these: its items are
//! Pascal case names with a suffix (`<Operation>Request`, `<Operation>Builder`,
//! `<Group>Client`, `<Group>Api`, `<Operation>Status`, ...), its modules `part_<n>`, and no
//! binding is Pascal case. A path this pass does not know is left as it was, which is always
//! correct; `tests/tests/seams.rs` reads a private `use` as the path it stands for.

use proc_macro2::{Delimiter, Group, Ident, Spacing, Span, TokenStream, TokenTree};
use quote::quote;

/// The prelude's items, named bare: longer paths first, so `Option::None` becomes `None`.
const PRELUDE: &[(&[&str], &str)] = &[
    (&["core", "option", "Option", "None"], "None"),
    (&["core", "option", "Option", "Some"], "Some"),
    (&["core", "result", "Result", "Ok"], "Ok"),
    (&["core", "result", "Result", "Err"], "Err"),
    (&["core", "option", "Option"], "Option"),
    (&["core", "result", "Result"], "Result"),
    (&["std", "string", "String"], "String"),
    (&["std", "vec", "Vec"], "Vec"),
    (&["std", "boxed", "Box"], "Box"),
    (&["core", "convert", "Into"], "Into"),
    (&["core", "convert", "From"], "From"),
    (&["core", "default", "Default"], "Default"),
    (&["core", "iter", "IntoIterator"], "IntoIterator"),
];

/// The runtime's items a group's files name in every operation, imported by name when used.
const IMPORTED: &[&[&str]] = &[
    &["apigen_runtime", "server", "Authenticator"],
    &["apigen_runtime", "server", "Handled"],
    &["apigen_runtime", "server", "Handler"],
    &["apigen_runtime", "server", "NoParams"],
    &["apigen_runtime", "server", "OperationInfo"],
    &["apigen_runtime", "serde", "Serialize"],
    &["apigen_runtime", "serde", "Serializer"],
    &["apigen_runtime", "codegen", "Fields"],
    &["apigen_runtime", "codegen", "Paging"],
    &["apigen_runtime", "codegen", "PageStyle"],
    &["apigen_runtime", "client", "Items"],
];

/// The alias of the types crate in a group's files.
const TYPES_ALIAS: &str = "ty";

/// `tokens` (a group's file) with its known full paths shortened, and the `use`s that needs
/// after its inner attributes (the file's `//!` docs). `types` is the types crate's name.
pub fn shorten(tokens: TokenStream, types: &str) -> TokenStream {
    let mut used = Used::default();
    let body = rewrite(tokens, types, &mut used);
    let mut trees: Vec<TokenTree> = body.into_iter().collect();
    let start = inner_attributes_end(&trees);
    let imports = used.imports(types);
    trees.splice(start..start, imports);
    trees.into_iter().collect()
}

/// What a file's shortened paths need imported: indices into [`IMPORTED`], and the types crate.
#[derive(Default)]
struct Used {
    imported: Vec<bool>,
    types: bool,
}

impl Used {
    fn import(&mut self, index: usize) {
        self.imported.resize(IMPORTED.len(), false);
        self.imported[index] = true;
    }

    /// The `use` items, in the order of [`IMPORTED`] (deterministic), the types alias last.
    fn imports(&self, types: &str) -> TokenStream {
        let names = self.imported.iter().enumerate().filter(|(_, used)| **used).map(|(index, _)| {
            let segments = IMPORTED[index].iter().map(|s| Ident::new(s, Span::call_site()));
            quote! { use #(::#segments)*; }
        });
        let alias = self.types.then(|| {
            let (crate_name, alias) =
                (Ident::new(types, Span::call_site()), Ident::new(TYPES_ALIAS, Span::call_site()));
            quote! { use ::#crate_name as #alias; }
        });
        quote! { #(#names)* #alias }
    }
}

/// The index after the file's leading inner attributes (`#![...]`), where items may start.
fn inner_attributes_end(trees: &[TokenTree]) -> usize {
    let mut at = 0;
    while matches!(trees.get(at), Some(TokenTree::Punct(p)) if p.as_char() == '#')
        && matches!(trees.get(at + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!')
        && matches!(trees.get(at + 2), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket)
    {
        at += 3;
    }
    at
}

/// `tokens` with each known absolute path shortened, groups included.
fn rewrite(tokens: TokenStream, types: &str, used: &mut Used) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    let mut at = 0;
    while at < trees.len() {
        if starts_absolute_path(&trees, at)
            && let Some((consumed, replacement)) = shortened(&trees[at..], types, used)
        {
            out.extend(replacement);
            at += consumed;
            continue;
        }
        out.push(match &trees[at] {
            TokenTree::Group(group) => {
                let mut inner = Group::new(group.delimiter(), rewrite(group.stream(), types, used));
                inner.set_span(group.span());
                TokenTree::Group(inner)
            }
            other => other.clone(),
        });
        at += 1;
    }
    out.into_iter().collect()
}

/// Whether `trees[at..]` opens an absolute path (`::name`): a `::` not continuing a path
/// (after an identifier that is no keyword, `foo::bar`), nor a `use` (the file's own aliases).
fn starts_absolute_path(trees: &[TokenTree], at: usize) -> bool {
    let colons = matches!(&trees[at], TokenTree::Punct(p) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
        && matches!(trees.get(at + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
    let after_path = at > 0
        && match &trees[at - 1] {
            TokenTree::Ident(ident) => !OPENING_KEYWORDS.contains(&ident.to_string().as_str()),
            TokenTree::Punct(p) => p.as_char() == ':' && p.spacing() == Spacing::Joint,
            _ => false,
        };
    colons && !after_path
}

/// The keywords after which a `::` opens a path (`impl ::x`, `as ::x`, `-> ...` is punctuation).
const OPENING_KEYWORDS: &[&str] = &["as", "impl", "dyn", "for", "in", "mut", "return", "let", "where", "else", "move"];

/// The segments of the absolute path at the start of `trees` (after its `::`), and the number
/// of tokens they take.
fn path_segments(trees: &[TokenTree]) -> Vec<(String, usize)> {
    let mut segments = Vec::new();
    let mut at = 0;
    loop {
        let colons = matches!(trees.get(at), Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
            && matches!(trees.get(at + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
        match trees.get(at + 2) {
            Some(TokenTree::Ident(ident)) if colons => {
                at += 3;
                segments.push((ident.to_string(), at));
            }
            _ => return segments,
        }
    }
}

/// The short form of the absolute path at the start of `trees`, if known: how many tokens it
/// replaces, and its tokens.
fn shortened(trees: &[TokenTree], types: &str, used: &mut Used) -> Option<(usize, Vec<TokenTree>)> {
    let segments = path_segments(trees);
    let names: Vec<&str> = segments.iter().map(|(name, _)| name.as_str()).collect();
    let bare = |name: &str, count: usize| {
        let span = trees[segments[count - 1].1 - 1].span();
        Some((segments[count - 1].1, vec![TokenTree::Ident(Ident::new(name, span))]))
    };
    if let Some((path, name)) = PRELUDE.iter().find(|(path, _)| names.starts_with(path)) {
        return bare(name, path.len());
    }
    if let Some(index) = IMPORTED.iter().position(|path| names.starts_with(path)) {
        used.import(index);
        return bare(IMPORTED[index].last().expect("a path has a name"), IMPORTED[index].len());
    }
    // The types crate's items: `ty::Name` (the crate alone, `::types`, is left as it is).
    if names.first() == Some(&types) && names.len() > 1 {
        used.types = true;
        return bare(TYPES_ALIAS, 1);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn short(tokens: TokenStream) -> String {
        shorten(tokens, "docs_types").to_string()
    }

    #[test]
    fn known_paths_are_named_shortly_and_imported_once() {
        let tokens = quote! {
            #![doc = "group"]
            pub struct A { x: ::core::option::Option<::std::string::String>, s: ::docs_types::Space }
            impl ::apigen_runtime::serde::Serialize for A {}
            impl ::apigen_runtime::serde::Serialize for B {}
            fn f() { let n = ::core::option::Option::None; crate::core::option::Option::x(); }
        };
        let expected = quote! {
            #![doc = "group"]
            use ::apigen_runtime::serde::Serialize;
            use ::docs_types as ty;
            pub struct A { x: Option<String>, s: ty::Space }
            impl Serialize for A {}
            impl Serialize for B {}
            fn f() { let n = None; crate::core::option::Option::x(); }
        };
        assert_eq!(short(tokens), expected.to_string());
    }

    #[test]
    fn unknown_paths_and_uses_are_left_as_they_are() {
        let tokens = quote! {
            use ::apigen_runtime::codegen::server as rt;
            fn f(x: impl ::core::convert::Into<::apigen_runtime::Bytes>) -> <T as ::core::convert::From<u8>>::Output {}
        };
        let expected = quote! {
            use ::apigen_runtime::codegen::server as rt;
            fn f(x: impl Into<::apigen_runtime::Bytes>) -> <T as From<u8>>::Output {}
        };
        assert_eq!(short(tokens), expected.to_string());
    }
}
