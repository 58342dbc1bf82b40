//! Shared pieces of Rust emission: printing, doc comments, type paths.
//!
//! Tokens from `quote` are parsed with `syn` and printed with `prettyplease`, so every
//! generated Rust file parses by construction. Generated code names everything by absolute
//! path (`::std::string::String`, `crate::Collection`), so a spec type called `Result`,
//! `Box` or `Option` cannot shadow what the code means.

use crate::model::crates::{CrateNames, CrateRoot, Source};
use crate::model::{
    Api, Constraints, ErrorConvention, Field, Operation, PageStyle, Pagination, Param, ParamIn, Presence, ResponseBody,
    SchemeKind, TypeRef, Usage,
};
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// Prints a file of Rust items under the generated header.
pub fn print_file(header: &str, tokens: TokenStream) -> String {
    use syn::parse::Parser;
    // No copy of the tokens is kept for the message below: sharing them would make syn's
    // walk copy every group (a third of the time of printing).
    let print = |input: syn::parse::ParseStream<'_>| print_items(header, input);
    match print.parse2(tokens) {
        Ok(text) => text,
        // Unparseable tokens are a bug in an emitter, found by the drift and fixture tests.
        Err(error) => panic!("generated tokens do not parse: {error} (at {:?})", error.span()),
    }
}

/// Parses a file's items and prints each as it is parsed, so one item's syntax tree is alive
/// at a time, not the file's: the memory a printing job touches stays small and warm (a file of
/// Microsoft Graph's holds up to a megabyte of Rust). prettyplease prints a file as its inner
/// attributes, then each item in turn, each ending its own line in a box of its own, so the
/// text is the same as printing the whole file at once (`print_file_prints_what_prettyplease_prints_of_the_file`).
fn print_items(header: &str, input: syn::parse::ParseStream<'_>) -> syn::Result<String> {
    let unparse = |attrs, items| prettyplease::unparse(&syn::File { shebang: None, frontmatter: None, attrs, items });
    let mut text = format!("// {header}\n\n");
    text.push_str(&unparse(input.call(syn::Attribute::parse_inner)?, Vec::new()));
    while !input.is_empty() {
        let item: syn::Item = input.parse()?;
        text.push_str(&unparse(Vec::new(), vec![item]));
    }
    Ok(text)
}

/// The runtime's `Paging` of a paginated operation, as a constant expression: how the client's
/// `.stream()` follows its pages and how the mock ends them.
pub fn paging(pagination: &Pagination) -> TokenStream {
    let (cursor, items) = (&pagination.cursor, &pagination.items);
    let style = match &pagination.style {
        PageStyle::Cursor { next } => quote!(Cursor { next: #next }),
        PageStyle::HasMore { has_more, item_id } => quote!(HasMore { has_more: #has_more, item_id: #item_id }),
        PageStyle::Offset => quote!(Offset),
        PageStyle::Page => quote!(Page),
        PageStyle::Link => quote!(Link),
    };
    quote! {
        ::apigen_runtime::codegen::Paging {
            cursor: #cursor,
            items: #items,
            style: ::apigen_runtime::codegen::PageStyle::#style,
        }
    }
}

/// An identifier. Names come from `model::names::sanitize`, so they are always valid.
pub fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// `#[doc = ...]` attributes for a text, one per line, as `///` comments print.
pub fn doc(text: &str) -> TokenStream {
    let lines = doc_lines(text);
    quote! { #(#[doc = #lines])* }
}

/// Inner `#![doc = ...]` attributes (module and crate docs).
pub fn inner_doc(text: &str) -> TokenStream {
    let lines = doc_lines(text);
    quote! { #(#![doc = #lines])* }
}

/// The lines of a doc comment, each after a space as `///` prints it. A code block without a
/// language is marked `text`: rustdoc would compile it as a Rust test, and spec text (an
/// imported description) shows JSON or shell there; blocks meant as Rust say `rust`.
///
/// A line continuing a list item without indentation (`- a` then `b`) is indented to the
/// item's text, and a line continuing a block quote without its `>` (`> a` then `b`) gets the
/// marker: that is how Markdown reads both anyway, and what clippy's `doc_lazy_continuation`
/// asks.
fn doc_lines(text: &str) -> Vec<String> {
    let mut open: Option<&str> = None; // The fence of the code block we are in.
    let mut item: Option<usize> = None; // The column of the current list item's text.
    let mut quote = false; // Inside a block quote.
    let mut lines = Vec::new();
    // Tabs print at no fixed width (clippy's `tabs_in_doc_comments`): four spaces each.
    let text = super::escape::comment_text(text).replace('\t', "    ");
    for line in text.trim_end().lines() {
        let mut suffix = "";
        let mut indent = String::new();
        if let Some((fence, info)) = code_fence(line) {
            item = None;
            match open {
                None => {
                    suffix = if info.is_empty() { "text" } else { "" };
                    open = Some(fence);
                }
                Some(outer) if info.is_empty() && fence.starts_with(outer) => open = None,
                Some(_) => {}
            }
        } else if open.is_none() {
            if line.trim().is_empty() {
                item = None;
                quote = false;
            } else if line.trim_start().starts_with('>') {
                quote = true;
            } else if quote {
                indent = "> ".to_owned();
            } else if let Some(column) = list_item_text(line) {
                item = Some(column);
            } else if let Some(column) = item {
                let leading = line.len() - line.trim_start().len();
                if leading < column {
                    indent = " ".repeat(column - leading);
                }
            }
        }
        lines.push(if line.is_empty() { String::new() } else { format!(" {indent}{line}{suffix}") });
    }
    lines
}

/// The column where the text of a Markdown list item starts (`- `, `* `, `+ `, `1. `, `1) `),
/// `None` for a line that is not one.
fn list_item_text(line: &str) -> Option<usize> {
    let trimmed = line.trim_start();
    let leading = line.len() - trimmed.len();
    let marker = if trimmed.starts_with("- ") || trimmed.starts_with("* ") || trimmed.starts_with("+ ") {
        1
    } else {
        let digits = trimmed.chars().take_while(char::is_ascii_digit).count();
        let rest = &trimmed[digits..];
        if digits == 0 || digits > 9 || !(rest.starts_with(". ") || rest.starts_with(") ")) {
            return None;
        }
        digits + 1
    };
    // The text starts after the spaces following the marker (`*   item` at column 4).
    let spaces = trimmed[marker..].chars().take_while(|c| *c == ' ').count();
    Some(leading + marker + spaces)
}

/// The fence (three or more backticks or tildes) and info string of a line that opens or
/// closes a Markdown code block.
fn code_fence(line: &str) -> Option<(&str, &str)> {
    let trimmed = line.trim_start();
    let mark = trimmed.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let length = trimmed.len() - trimmed.trim_start_matches(mark).len();
    (length >= 3).then(|| (&trimmed[..length], trimmed[length..].trim()))
}

/// How generated code reaches the types crate: `crate` inside it, the crate name elsewhere.
#[derive(Clone)]
pub struct Paths {
    /// The path of the types crate's root (`crate` or `::docs_api_types`).
    pub types: TokenStream,
}

impl Paths {
    /// Paths for code inside the types crate.
    pub fn in_types_crate() -> Self {
        Paths { types: quote!(crate) }
    }

    /// Paths for code in another generated crate, the types crate being `crates.types`.
    pub fn from_crate(crates: &CrateNames) -> Self {
        let name = ident(&crates.types.rust);
        Paths { types: quote!(::#name) }
    }

    /// The Rust type of a type reference.
    pub fn ty(&self, api: &Api, ty: &TypeRef) -> TokenStream {
        match ty {
            TypeRef::String | TypeRef::Url => quote!(::std::string::String),
            TypeRef::Integer => quote!(i64),
            TypeRef::Number => quote!(f64),
            TypeRef::Boolean => quote!(bool),
            TypeRef::DateTime => {
                quote!(::apigen_runtime::chrono::DateTime<::apigen_runtime::chrono::Utc>)
            }
            TypeRef::Json => quote!(::apigen_runtime::serde_json::Value),
            TypeRef::Bytes => quote!(::apigen_runtime::Bytes),
            TypeRef::File => quote!(::apigen_runtime::FilePart),
            TypeRef::Named(name) => {
                let root = &self.types;
                let rust = ident(&api.ty(name).rust);
                quote!(#root::#rust)
            }
            TypeRef::List(inner) => {
                let inner = self.ty(api, inner);
                quote!(::std::vec::Vec<#inner>)
            }
            TypeRef::Map(inner) => {
                let inner = self.ty(api, inner);
                quote!(::std::collections::BTreeMap<::std::string::String, #inner>)
            }
        }
    }

    /// The content enumeration of an operation whose body has alternatives (`<Op>Content`).
    pub fn content_ty(&self, op: &Operation) -> TokenStream {
        let root = &self.types;
        let content = ident(&op.names.content);
        quote!(#root::#content)
    }

    /// The Rust type of an operation's success body: `()` without body, `Page<T>` for the
    /// standard list envelope.
    pub fn response_ty(&self, api: &Api, op: &Operation) -> TokenStream {
        if op.response.is_varied() {
            let root = &self.types;
            let answer = ident(&op.names.answer);
            return quote!(#root::#answer);
        }
        match &op.response.body {
            ResponseBody::Empty => quote!(()),
            ResponseBody::Value(ty) if op.response.nullable => {
                let ty = self.ty(api, ty);
                quote!(::core::option::Option<#ty>)
            }
            ResponseBody::Value(ty) => self.ty(api, ty),
            // A page whose body is the list itself (its convention reads nothing else there).
            ResponseBody::Page { item, envelope: None } if op.pagination.as_ref().is_some_and(|p| !p.is_standard()) => {
                let item = self.ty(api, item);
                quote!(::std::vec::Vec<#item>)
            }
            ResponseBody::Page { item, envelope: None } => {
                let item = self.ty(api, item);
                quote!(::apigen_runtime::Page<#item>)
            }
            ResponseBody::Page { envelope: Some(envelope), .. } => self.ty(api, &TypeRef::Named(envelope.clone())),
        }
    }

    /// A Rust expression for a default value: lowering lets only scalars and enumeration
    /// values through (a string for an enumeration converts with `From<&str>`).
    pub fn default_value(&self, api: &Api, ty: &TypeRef, value: &serde_json::Value) -> TokenStream {
        use serde_json::Value;
        match (ty, value) {
            (TypeRef::Named(_), Value::String(s)) => {
                let ty = self.ty(api, ty);
                quote! { <#ty as ::core::convert::From<&str>>::from(#s) }
            }
            (TypeRef::Named(_), Value::Number(n)) => {
                // An integer enumeration's value, by its text.
                let ty = self.ty(api, ty);
                let text = n.to_string();
                quote! { <#ty as ::core::convert::From<&str>>::from(#text) }
            }
            (_, Value::String(s)) => quote! { ::std::string::String::from(#s) },
            (_, Value::Bool(b)) => quote! { #b },
            (TypeRef::Integer, Value::Number(n)) => {
                let n = n.as_i64().unwrap_or_default();
                quote! { #n }
            }
            (_, Value::Number(n)) => {
                let n = n.as_f64().unwrap_or_default();
                quote! { #n }
            }
            (_, other) => panic!("lowering lets only scalar defaults through, found {other}"),
        }
    }

    /// The Rust type of a field, with its presence (`Option`, `Patch`) and box.
    pub fn field_ty(&self, api: &Api, field: &Field, usage: Usage) -> TokenStream {
        let mut inner = self.ty(api, &field.ty);
        if field.boxed {
            inner = quote!(::std::boxed::Box<#inner>);
        }
        match field.presence(usage) {
            Presence::Required | Presence::Defaulted => inner,
            Presence::Optional | Presence::Nullable => quote!(::core::option::Option<#inner>),
            Presence::TriState => quote!(::apigen_runtime::Patch<#inner>),
        }
    }
}

/// The checks of the spec's constraints `c` on a value of type `ty`: statements on `__value`
/// (a reference to it) recording violations in the validator `__v`, one runtime method per
/// constraint. With `nested`, the value's own [`Validate`] runs too (a named type with
/// constraints of its own, a closed enumeration). Patterns become statics pushed on
/// `patterns`, compiled once. Every emitter that checks a value builds its checks here.
///
/// [`Validate`]: https://docs.rs/apigen-runtime/latest/apigen_runtime/trait.Validate.html
pub fn constraint_checks(
    ty: &TypeRef,
    c: &Constraints,
    nested: bool,
    patterns: &mut Vec<TokenStream>,
) -> Vec<TokenStream> {
    let mut checks = Vec::new();
    if c.min_length.is_some() || c.max_length.is_some() {
        let (min, max) = (option_u64(c.min_length), option_u64(c.max_length));
        let value = if matches!(ty, TypeRef::Named(_)) { quote!(__value.as_str()) } else { quote!(__value) };
        checks.push(quote! { __v.length(#value, #min, #max); });
    }
    if let Some(pattern) = &c.pattern {
        let name = ident(&format!("PATTERN_{}", patterns.len()));
        patterns.push(quote! { static #name: ::apigen_runtime::codegen::Pattern = ::apigen_runtime::codegen::Pattern::new(#pattern); });
        checks.push(quote! { __v.pattern(__value, &#name); });
    }
    if *ty == TypeRef::Url {
        checks.push(quote! { __v.url(__value); });
    }
    if let Some(format) = c.format {
        let variant = ident(&format!("{format:?}"));
        let value = if matches!(ty, TypeRef::Named(_)) { quote!(__value.as_str()) } else { quote!(__value) };
        checks.push(quote! { __v.format(#value, ::apigen_runtime::codegen::Format::#variant); });
    }
    if c.minimum.is_some() || c.maximum.is_some() {
        checks.push(if *ty == TypeRef::Integer {
            let bound = |n: &Option<serde_json::Number>| option(n.as_ref().and_then(serde_json::Number::as_i64));
            let (min, max) = (bound(&c.minimum), bound(&c.maximum));
            quote! { __v.int_range(*__value, #min, #max); }
        } else {
            let bound = |n: &Option<serde_json::Number>| option(n.as_ref().and_then(serde_json::Number::as_f64));
            let (min, max) = (bound(&c.minimum), bound(&c.maximum));
            quote! { __v.num_range(*__value, #min, #max); }
        });
    }
    if c.min_items.is_some() || c.max_items.is_some() || c.exact_items.is_some() {
        let (min, max, exact) = (option_u64(c.min_items), option_u64(c.max_items), option_u64(c.exact_items));
        checks.push(if matches!(ty, TypeRef::Map(_)) {
            quote! { __v.entry_count(__value.len(), #min, #max); }
        } else {
            quote! { __v.item_count(__value.len(), #min, #max, #exact); }
        });
    }
    if c.unique_items {
        checks.push(quote! { __v.unique(__value); });
    }
    if let (Some(item), TypeRef::List(inner) | TypeRef::Map(inner)) = (&c.item, ty) {
        let item_checks = constraint_checks(inner, item, false, patterns);
        // A list's items are named by their index, a map's values by their key.
        let each = if matches!(ty, TypeRef::Map(_)) { quote!(each_value) } else { quote!(each) };
        if !item_checks.is_empty() {
            checks.push(quote! { __v.#each(__value, |__v, __value| { #(#item_checks)* }); });
        }
    }
    if nested {
        checks.push(quote! { ::apigen_runtime::Validate::validate_into(__value, __v); });
    }
    checks
}

fn option_u64(n: Option<u64>) -> TokenStream {
    option(n)
}

/// `Some(n)` or `None`, as tokens.
fn option<T: quote::ToTokens>(n: Option<T>) -> TokenStream {
    match n {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    }
}

/// A `Serialize` impl writing an object through the runtime's `Fields`; `writes` are
/// statements on `__fields`, each without `?` (`Fields` keeps the first error for `end()`).
pub fn serialize_impl(name: &Ident, writes: TokenStream) -> TokenStream {
    quote! {
        impl ::apigen_runtime::serde::Serialize for #name {
            fn serialize<S: ::apigen_runtime::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                let mut __fields = ::apigen_runtime::codegen::Fields::begin(serializer)?;
                #writes
                __fields.end()
            }
        }
    }
}

/// `pub const SCHEMES`: the API's auth schemes as the runtime reads them, for the root
/// module of the server and the client.
pub fn schemes_const(api: &Api) -> TokenStream {
    let schemes = api.auth_schemes.iter().map(|scheme| {
        let name = &scheme.name;
        let kind = match &scheme.kind {
            // OAuth 2.0 and OpenID Connect tokens travel as bearer tokens: the runtime needs no more.
            SchemeKind::Bearer | SchemeKind::OAuth2 { .. } | SchemeKind::OpenIdConnect { .. } => {
                quote!(::apigen_runtime::codegen::SchemeKind::Bearer)
            }
            SchemeKind::Basic => quote!(::apigen_runtime::codegen::SchemeKind::Basic),
            SchemeKind::ApiKey { location, name } => {
                let location = match location {
                    ParamIn::Query => quote!(Query),
                    ParamIn::Cookie => quote!(Cookie),
                    _ => quote!(Header),
                };
                quote!(::apigen_runtime::codegen::SchemeKind::ApiKey { location: ::apigen_runtime::codegen::KeyIn::#location, name: #name })
            }
            SchemeKind::Http { scheme } => quote!(::apigen_runtime::codegen::SchemeKind::Http { scheme: #scheme }),
        };
        quote! { ::apigen_runtime::codegen::Scheme { name: #name, kind: #kind } }
    });
    let count = api.auth_schemes.len();
    quote! {
        /// The auth schemes of the API, as the spec declares them (`api.auth`).
        pub const SCHEMES: &[::apigen_runtime::auth::Scheme; #count] = &[#(#schemes),*];
    }
}

/// `pub const ERRORS`: where the API's error body carries the status, the message and the
/// violations, for the root module of the server and the client; and `pub const
/// ERROR_BODIES`, the same of each other error body (`api.errors.bodies`, in name order), when
/// the spec declares any.
pub fn errors_const(api: &Api) -> TokenStream {
    let e = &api.errors;
    let text = match &e.ty {
        Some(ty) => format!("Where the API's error body (`{ty}`) carries the status, the message and the violations."),
        None => "The API's error body: `{\"error\": {\"code\", \"message\", \"violations\"?}}`.".to_owned(),
    };
    let docs = doc(&text);
    let shape = error_shape(e);
    let bodies = (!e.bodies.is_empty()).then(|| {
        let count = e.bodies.len();
        let shapes = e.bodies.values().map(error_shape);
        let names: Vec<String> = e.bodies.keys().map(|name| format!("`{name}`")).collect();
        let docs = doc(&format!(
            "Where each other error body ({}) carries the status, the message and the violations: the router writes an operation's refusals of a status it answers in one of them in that one.",
            names.join(", ")
        ));
        quote! {
            #docs
            pub const ERROR_BODIES: &[::apigen_runtime::ErrorShape; #count] = &[#(#shapes),*];
        }
    });
    quote! {
        #docs
        pub const ERRORS: ::apigen_runtime::ErrorShape = #shape;
        #bodies
    }
}

/// The statuses of the operation's failure cases answered in another error body
/// (`api.errors.bodies`), each with the index of that body in `ERROR_BODIES` (`0` stands for
/// `default`), the first case of a status deciding.
pub fn error_bodies(api: &Api, op: &Operation) -> Vec<(u16, usize)> {
    let mut found: Vec<(u16, usize)> = Vec::new();
    for case in &op.errors {
        let Some(name) = case.ty.as_ref().and_then(crate::model::TypeRef::named) else { continue };
        let Some(index) = api.errors.bodies.keys().position(|body| body == name) else { continue };
        let status = match case.status {
            crate::model::ErrorStatus::Code(code) => code,
            crate::model::ErrorStatus::Default => 0,
        };
        if !found.iter().any(|(s, _)| *s == status) {
            found.push((status, index));
        }
    }
    found
}

/// An `ErrorShape` literal of one error body's convention.
fn error_shape(e: &ErrorConvention) -> TokenStream {
    let option = |value: &Option<String>| match value {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    };
    let (media_type, message, path, violation_message) =
        (&e.media_type, &e.message, &e.violation_path, &e.violation_message);
    let (status, code, violations) = (option(&e.status), option(&e.code), option(&e.violations));
    // Each fixed value as JSON text, parsed when a body is written (refusals are rare).
    let fill = e.fill.iter().map(|(pointer, value)| {
        let text = value.to_string();
        quote! { (#pointer, #text) }
    });
    quote! {
        ::apigen_runtime::codegen::ErrorShape {
            media_type: #media_type,
            status: #status,
            message: #message,
            code: #code,
            violations: #violations,
            violation_path: #path,
            violation_message: #violation_message,
            fill: &[#(#fill),*],
        }
    }
}

/// A parameter's value as the text it travels as in a path or query.
pub fn param_text(value: TokenStream, ty: &TypeRef) -> TokenStream {
    match ty {
        TypeRef::Named(_) => quote! { #value.as_str().to_owned() },
        TypeRef::String | TypeRef::Url => quote! { #value.clone() },
        TypeRef::DateTime => quote! { #value.to_rfc3339() },
        _ => quote! { #value.to_string() },
    }
}

/// A parameter is held as an `Option` when it is an optional scalar query, header or cookie
/// parameter without default; path parameters, required ones, defaulted ones and lists
/// (empty when absent) are plain values.
pub fn param_is_option(param: &Param) -> bool {
    param.location != ParamIn::Path
        && !param.required
        && param.default.is_none()
        && !matches!(param.ty, TypeRef::List(_))
}

/// A `Debug` impl for a struct holding an operation's parameters (and `body`) under their
/// Rust names, with sensitive parameters redacted. `ty` is the type as the impl names it;
/// `hidden` says the struct holds more than it shows (printed as `..`).
pub fn params_debug(ty: TokenStream, label: &str, params: &[Param], body: bool, hidden: bool) -> TokenStream {
    let fields = params.iter().map(|p| {
        let field = ident(&p.rust);
        let label = &p.rust;
        if !p.sensitive {
            quote! { .field(#label, &self.#field) }
        } else if param_is_option(p) {
            quote! { .field(#label, &::apigen_runtime::codegen::redact_option(&self.#field)) }
        } else {
            quote! { .field(#label, &::apigen_runtime::codegen::Redacted) }
        }
    });
    let body = body.then(|| quote! { .field("body", &self.body) });
    let finish = if hidden { quote!(finish_non_exhaustive) } else { quote!(finish) };
    quote! {
        impl ::core::fmt::Debug for #ty {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct(#label) #(#fields)* #body .#finish()
            }
        }
    }
}

/// The module holding a generated crate's own root items (the client, the router, ...), next
/// to the tag modules: `root`, or `root_` when a tag took that name. A crate's `lib.rs` then
/// holds only docs, attributes and module declarations, which rustfmt leaves as prettyplease
/// prints them; every module is `rustfmt::skip`, so `cargo fmt --all` cannot cause drift.
pub fn root_module(api: &Api) -> Ident {
    let taken = api.tags.iter().any(|t| t.rust == "root");
    ident(if taken { "root_" } else { "root" })
}

/// A crate root's `pub use`s, from its list in the model (which lowering reserves the names
/// of), in order.
pub fn re_exports(root: &CrateRoot, crates: &CrateNames) -> TokenStream {
    let items = root.re_exports.iter().map(|re_export| {
        let docs = re_export.doc.map(doc).unwrap_or_default();
        let path = match &re_export.from {
            Source::Runtime { module, names } => {
                let names: Vec<Ident> = names.iter().map(|name| ident(name)).collect();
                // One name stands alone, as rustfmt would leave it.
                let names = match names.as_slice() {
                    [one] => quote!(#one),
                    many => quote!({ #(#many),* }),
                };
                if module.is_empty() {
                    quote!(::apigen_runtime::#names)
                } else {
                    let module = ident(module);
                    quote!(::apigen_runtime::#module::#names)
                }
            }
            Source::RuntimeCrate { alias } => {
                let alias = ident(alias);
                quote!(::apigen_runtime as #alias)
            }
            Source::TypesCrate { alias } => {
                let (krate, alias) = (ident(&crates.types.rust), ident(alias));
                quote!(::#krate as #alias)
            }
        };
        quote! { #docs pub use #path; }
    });
    quote! { #(#items)* }
}

/// A generated crate's `lib.rs`: its docs, the lints every generated crate holds to, `head`,
/// its modules (each `rustfmt::skip`, each re-exported whole, each under its `#[cfg]` when it
/// has one), then `tail`. A `use` in `head` stays apart from the modules' re-exports, which
/// rustfmt would otherwise reorder.
pub fn crate_lib(docs: &str, head: TokenStream, modules: &[(String, TokenStream)], tail: TokenStream) -> TokenStream {
    let docs = inner_doc(docs);
    let modules = modules.iter().map(|(m, cfg)| {
        let m = ident(m);
        // rustfmt would break a long `cfg` differently from prettyplease: `cargo fmt --all`
        // must not cause drift.
        let skip = (!cfg.is_empty()).then(|| quote!(#[rustfmt::skip]));
        quote! { #cfg #[rustfmt::skip] mod #m; #cfg #skip pub use #m::*; }
    });
    quote! {
        #docs
        #![deny(missing_docs)]
        #![forbid(unsafe_code)]
        // Proving a future `Send` walks every type a request or answer holds: an API's types
        // nest deeper than rustc's default of 128 allows (Stripe's do).
        #![recursion_limit = "512"]

        #head

        #(#modules)*

        #tail
    }
}

#[cfg(test)]
mod tests {
    use super::doc_lines;

    #[test]
    fn code_blocks_without_a_language_are_text_and_others_are_kept() {
        let cases = [
            ("```\n{}\n```", vec![" ```text", " {}", " ```"]),
            ("```rust\nlet x = 1;\n```", vec![" ```rust", " let x = 1;", " ```"]),
            ("~~~~\n```\n~~~~\n```", vec![" ~~~~text", " ```", " ~~~~", " ```text"]),
            ("  ```json\n[]\n  ```\nafter", vec!["   ```json", " []", "   ```", " after"]),
            ("a\n\nb", vec![" a", "", " b"]),
        ];
        for (text, expected) in cases {
            assert_eq!(doc_lines(text), expected, "{text:?}");
        }
    }
}

#[cfg(test)]
mod print_tests {
    use quote::quote;

    /// Printing item by item must give what prettyplease gives of the whole file: inner
    /// attributes, items of every kind the emitters write, doc comments, nested modules and
    /// items long enough to break over lines.
    #[test]
    fn print_file_prints_what_prettyplease_prints_of_the_file() {
        let tokens = quote! {
            #![doc = " The crate."]
            #![deny(missing_docs)]
            #[doc = " A type."]
            #[derive(Debug, Clone)]
            pub struct Space { pub id: ::std::string::String, pub title: ::core::option::Option<::std::string::String> }
            pub const ERRORS: ::apigen_runtime::ErrorShape = ::apigen_runtime::codegen::ErrorShape { media_type: "application/json", status: ::core::option::Option::None, message: "/error/message", fill: &[] };
            #[rustfmt::skip]
            mod part_1;
            pub use part_1::*;
            impl Space {
                pub fn with_a_rather_long_name(self, first_argument: ::std::string::String, second_argument: i64) -> Self { let _ = (first_argument, second_argument); self }
            }
            static PATTERN_0: ::apigen_runtime::codegen::Pattern = ::apigen_runtime::codegen::Pattern::new("^a$");
            mod inner { pub fn f() {} }
            pub enum Kind { A, B(i64), C { x: bool } }
        };
        let whole: syn::File = syn::parse2(tokens.clone()).unwrap();
        let expected = format!("// header\n\n{}", prettyplease::unparse(&whole));
        assert_eq!(super::print_file("header", tokens), expected);
        assert_eq!(super::print_file("empty", quote!()), "// empty\n\n");
    }
}

#[cfg(test)]
mod list_tests {
    use super::doc_lines;

    #[test]
    fn lines_continuing_a_block_quote_get_its_marker() {
        let cases: [(&str, &[&str]); 3] = [
            ("> Note: the limit\nis per key.\n\nAfter.", &[" > Note: the limit", " > is per key.", "", " After."]),
            ("  > quoted\n  > again\nlazy", &["   > quoted", "   > again", " > lazy"]),
            ("a > b\nc", &[" a > b", " c"]),
        ];
        for (text, expected) in cases {
            assert_eq!(doc_lines(text), expected, "{text:?}");
        }
    }

    #[test]
    fn lines_continuing_a_list_item_are_indented_to_its_text() {
        let cases: [(&str, &[&str]); 5] = [
            ("- one\ncontinued\n\nafter", &[" - one", "   continued", "", " after"]),
            ("1. first\nmore\n  2. nested\nx", &[" 1. first", "    more", "   2. nested", "      x"]),
            ("- item\n      deeper", &[" - item", "       deeper"]),
            ("*   wide\n  next\tcell", &[" *   wide", "     next    cell"]),
            ("text\n- a\n```\ncode\n```", &[" text", " - a", " ```text", " code", " ```"]),
        ];
        for (text, expected) in cases {
            assert_eq!(doc_lines(text), expected, "{text:?}");
        }
    }
}

/// Operations per part of a group's modules: a group of more is printed as parts, a file each
/// (`<group>/part_<n>.rs` beside `<group>.rs`), so no file grows with the group. Microsoft
/// Graph's operations print to about 7.3 KB of client Rust each (their docs, builders and
/// setters), so a part is about a megabyte, half the 2 MB a generated file may hold; a group of
/// this many or fewer is one file, as before.
pub const OPERATIONS_PER_PART: usize = 128;

/// How many parts a group of `operations` operations is printed in (1: its one file).
pub fn part_count(operations: usize) -> usize {
    operations.div_ceil(OPERATIONS_PER_PART).max(1)
}

/// The operations of part `part` (from 1) of a group's `ops`, in their order: those whose
/// name hashes to it ([`part_of_name`]). A part is not a run of positions: an operation added
/// to a group (or removed) changes its own part's file only, so the user's incremental build
/// recompiles that part and not every part after it (issue 52, item 6). The number of parts
/// still follows the count ([`part_count`]); a group crossing a multiple of
/// [`OPERATIONS_PER_PART`] is cut again.
pub fn part_of<'a>(ops: &[&'a Operation], part: usize) -> Vec<&'a Operation> {
    let parts = part_count(ops.len());
    ops.iter().copied().filter(|op| part_of_name(&op.name, parts) == part).collect()
}

/// The part (from 1, of `parts`) an operation named `name` is in: FNV-1a of the name, which
/// is the same on every machine and Rust release (std's hasher promises neither). The parts'
/// sizes vary around their mean (GitHub's `repos`, 216 operations in 2 parts: 107 and 109).
pub fn part_of_name(name: &str, parts: usize) -> usize {
    let hash = name
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3));
    // The remainder is below `parts`, a `usize`.
    usize::try_from(hash % parts as u64).expect("below the part count") + 1
}

/// The files of a group's parts, `<dir>/<group>/part_<n>.rs` (from 1), when it has more than one.
pub fn part_files(dir: &str, group: &str, operations: usize) -> Vec<(usize, String)> {
    let parts = part_count(operations);
    if parts == 1 {
        return Vec::new();
    }
    (1..=parts).map(|n| (n, format!("{dir}/{group}/part_{n}.rs"))).collect()
}

/// A group module's declarations of its `parts` parts (`mod part_<n>;`), each re-exported
/// (`pub use part_<n>::*;`) when `re_export`, so the items keep their public paths.
pub fn part_modules(parts: usize, re_export: bool) -> TokenStream {
    let modules = (1..=parts).map(|n| {
        let name = ident(&format!("part_{n}"));
        let re_export = re_export.then(|| quote! { pub use #name::*; });
        let visibility = if re_export.is_some() { TokenStream::new() } else { quote!(pub(super)) };
        quote! {
            #[rustfmt::skip]
            #visibility mod #name;
            #re_export
        }
    });
    quote! { #(#modules)* }
}
