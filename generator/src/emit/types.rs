//! The types crate: one Rust type per spec type, with JSON decoding, serialization and
//! validation, all through `apigen-runtime`.
//!
//! Per object: a struct, `FromJson` (one reader call per field), `Serialize` (one writer call
//! per field), a `Deserialize` that delegates to the runtime, and `Validate` (one check per
//! constraint). No serde derive: the expansion it would need for a few hundred types is what
//! makes generated clients slow to build. Enumerations keep unknown values and unions unknown
//! variants, so a response never fails to decode because the service added one.

use super::rust::{Paths, constraint_checks, doc, ident, inner_doc, param_text};
use super::text::describe_constraints;
use super::{features, jobs};
use crate::model::crates::TYPES_ROOT;
use crate::model::names::{Case, sanitize};
use crate::model::reach::Reach;
use crate::model::{
    Access, Api, Enum, Field, Object, Operation, Presence, ResponseBody, TypeDef, TypeKind, TypeRef, Union, sample,
};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The files of the types crate, under `types/`.
pub fn jobs<'a>(api: &'a Api, options: &'a super::Options, reach: &'a Reach<'a>) -> Vec<jobs::Job<'a>> {
    let header = &super::text::header_text(api, options);
    let validated = Arc::new(needs_validation(api));
    let envelopes = Arc::new(envelopes(api));
    let mut modules: BTreeMap<String, Vec<&TypeDef>> = BTreeMap::new();
    for def in api.types.values() {
        modules.entry(module_of(def)).or_default().push(def);
    }
    // Operations' answer enumerations and header structs go in the module of their file.
    let mut operations: BTreeMap<String, Vec<&Operation>> = BTreeMap::new();
    let mut positions: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let answering = |(_, op): &(usize, &Operation)| {
        op.response.is_varied()
            || !op.response.headers.is_empty()
            || op.body.as_ref().is_some_and(|b| !b.alternatives.is_empty())
    };
    for (at, op) in api.operations.iter().enumerate().filter(answering) {
        let module = crate::model::names::file_module(&op.origin.file);
        modules.entry(module.clone()).or_default();
        operations.entry(module.clone()).or_default().push(op);
        positions.entry(module).or_default().push(at);
    }
    // A module reads its own operations' answers and the envelopes every operation names.
    let envelopes_read = super::inputs::digest(&envelopes);
    let reads = |module: &str| {
        jobs::Reads::Operations(positions.get(module).cloned().unwrap_or_default(), envelopes_read.clone())
    };
    let mut jobs = vec![
        jobs::rust("types/src/lib.rs", header, {
            // A module is compiled where any of its items is.
            let modules: Vec<(String, Vec<&str>, Vec<&str>)> = modules
                .iter()
                .map(|(module, defs)| {
                    let types = defs.iter().map(|def| def.name.as_str()).collect();
                    let tags = operations.get(module).into_iter().flatten().map(|op| op.tag.as_str()).collect();
                    (module.clone(), types, tags)
                })
                .collect();
            move || {
                let gated = modules.into_iter().map(|(module, types, tags)| {
                    let cfg = features::cfg(&reach.of_any(types, tags));
                    (module, cfg)
                });
                crate_root(api, gated.collect())
            }
        }),
        // The samples' checks read the types only.
        jobs::rust("types/src/samples.rs", header, move || sample_tests(api)).reading(no_operation()),
    ];
    for part in 1..=sample_parts(api) {
        let job = jobs::rust(format!("types/src/samples/part_{part}.rs"), header, move || sample_part(api, part));
        jobs.push(job.reading(no_operation()));
    }
    for (module, defs) in modules {
        let ops = operations.remove(&module).unwrap_or_default();
        let parts = split(&defs);
        let part_cfgs: Vec<(String, Vec<&str>)> = parts
            .iter()
            .map(|(part, (_, defs))| (part.clone(), defs.iter().map(|def| def.name.as_str()).collect()))
            .collect();
        let module_job = jobs::rust(format!("types/src/{module}.rs"), header, {
            let module = module.clone();
            let (validated, envelopes) = (Arc::clone(&validated), Arc::clone(&envelopes));
            let own = if parts.is_empty() { defs } else { Vec::new() };
            move || {
                let emitter = TypesEmitter { api, paths: Paths::in_types_crate(), validated: &validated };
                let items = type_items(&emitter, &own, &envelopes, reach);
                let parts = part_cfgs.into_iter().map(|(part, types)| {
                    let cfg = features::cfg(&reach.of_any(types, []));
                    let part = ident(&part);
                    quote! { #cfg #[rustfmt::skip] mod #part; #cfg pub use #part::*; }
                });
                let gated =
                    |op: &&Operation, items: TokenStream| features::gate(&features::cfg_group(api.tag_of(op)), items);
                let answers = ops.iter().map(|op| gated(op, emitter.answer(op)));
                let headers = ops.iter().map(|op| gated(op, emitter.headers(op)));
                let contents = ops.iter().map(|op| gated(op, emitter.content(op)));
                let docs = inner_doc(&format!("Types declared in `{module}.yaml`."));
                quote! { #docs #(#parts)* #items #(#answers)* #(#headers)* #(#contents)* }
            }
        });
        jobs.push(module_job.reading(reads(&module)));
        for (part, (prefix, defs)) in parts {
            let (validated, envelopes) = (Arc::clone(&validated), Arc::clone(&envelopes));
            let docs = format!("Types declared in `{module}.yaml` whose Rust names start with `{prefix}`.");
            let part_job = jobs::rust(format!("types/src/{module}/{part}.rs"), header, move || {
                let emitter = TypesEmitter { api, paths: Paths::in_types_crate(), validated: &validated };
                let items = type_items(&emitter, &defs, &envelopes, reach);
                let docs = inner_doc(&docs);
                quote! { #docs #items }
            });
            jobs.push(part_job.reading(jobs::Reads::Operations(Vec::new(), envelopes_read.clone())));
        }
    }
    jobs.push(jobs::text("types/Cargo.toml", move || manifest(api, options, reach)));
    jobs
}

/// What a file reading no operation (the types only) reads.
fn no_operation() -> jobs::Reads {
    jobs::Reads::Operations(Vec::new(), String::new())
}

/// `types/Cargo.toml`.
fn manifest(api: &Api, options: &super::Options, reach: &Reach<'_>) -> String {
    let features = features::manifest(reach, None);
    // The server checks through the types crate's runtime: one crate turning the feature on
    // turns it on for the build.
    let runtime_features: &[&str] = if api.needs_backtracking_patterns() { &["extended-patterns"] } else { &[] };
    super::templates::cargo_toml(
        api,
        options,
        &super::templates::Manifest {
            name: &api.crates.types.package,
            description: &format!("Types of the {} (generated by apigen)", api.title),
            runtime_features,
            dependencies: &[],
            dev_dependencies: &[],
            features: &features,
        },
    )
}

/// A module of more types than this is printed as several files, each holding the types
/// whose Rust names share a prefix (`schemas/a.rs`, `schemas/webhookp.rs`, ...), split until
/// each holds at most this many: each file is a job of its own, so a change to one type
/// reprints one part (GitHub's `schemas.rs` would be 8.6 MB, 1.3 s of printing), and the parts
/// share the machine's threads. The parts depend only on the names, so adding a type moves
/// no other type to another file unless its part grows past the limit. The module's own
/// file declares and re-exports the parts.
const TYPES_PER_FILE: usize = 200;

/// The parts of a module's types, by part module name, or none when the module is one file.
fn split<'a>(defs: &[&'a TypeDef]) -> BTreeMap<String, (String, Vec<&'a TypeDef>)> {
    let mut parts = BTreeMap::new();
    if defs.len() > TYPES_PER_FILE {
        split_by_prefix(defs.to_vec(), 1, &mut parts);
    }
    parts
}

/// Groups `defs` by the first `len` characters of their Rust names, splitting a group of
/// more than [`TYPES_PER_FILE`] by one character more (names are unique, so it ends).
fn split_by_prefix<'a>(defs: Vec<&'a TypeDef>, len: usize, parts: &mut BTreeMap<String, (String, Vec<&'a TypeDef>)>) {
    let mut groups: BTreeMap<String, Vec<&TypeDef>> = BTreeMap::new();
    // Case is ignored: the parts are modules (`AB` and `Ab` go together).
    for def in defs {
        let prefix: String = def.rust.chars().take(len).collect();
        groups.entry(prefix.to_lowercase()).or_default().push(def);
    }
    for (prefix, group) in groups {
        let longer = group.iter().any(|def| def.rust.chars().count() > len);
        if group.len() > TYPES_PER_FILE && longer {
            split_by_prefix(group, len + 1, parts);
        } else {
            let mut module = sanitize(&prefix, Case::Snake);
            while parts.contains_key(&module) {
                module.push('_');
            }
            let shown = group[0].rust.chars().take(len).collect();
            parts.insert(module, (shown, group));
        }
    }
}

/// Each type's items (its declaration and impls, a page's accessors), compiled under the
/// features of the groups reaching it.
fn type_items(
    emitter: &TypesEmitter<'_>,
    defs: &[&TypeDef],
    envelopes: &BTreeMap<String, TypeRef>,
    reach: &Reach<'_>,
) -> TokenStream {
    let items = defs.iter().map(|def| {
        let mut item = emitter.item(def);
        if let Some(item_ty) = envelopes.get(&def.name) {
            item.extend(emitter.paginated(def, item_ty));
        }
        features::gate(&features::cfg(&reach.of_type(&def.name)), item)
    });
    quote! { #(#items)* }
}

/// The module a type goes in: the spec file it was declared in.
fn module_of(def: &TypeDef) -> String {
    crate::model::names::file_module(&def.origin.file)
}

/// The types whose `validate()` may find something: constrained fields, URLs, closed
/// enumerations and unions, and whatever holds one of those.
fn needs_validation(api: &Api) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    loop {
        let before = set.len();
        for def in api.types.values() {
            let needs = match &def.kind {
                TypeKind::Enum(e) => !e.open,
                TypeKind::Union(u) => !u.open || u.variants.iter().any(|v| ref_needs(&v.ty, &set)),
                TypeKind::Object(o) => {
                    o.fields.iter().any(|f| f.constant.is_none() && field_needs(f, &set))
                        || o.additional.as_ref().is_some_and(|t| ref_needs(t, &set))
                }
            };
            if needs {
                set.insert(def.name.clone());
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

fn field_needs(field: &Field, set: &BTreeSet<String>) -> bool {
    !field.constraints.is_empty() || field.ty == TypeRef::Url || ref_needs(&field.ty, set)
}

/// True when values of `ty` hold a named type that needs validation. (A `url` is checked
/// where it is a field's own value; URLs inside lists and maps are not.)
fn ref_needs(ty: &TypeRef, set: &BTreeSet<String>) -> bool {
    match ty {
        TypeRef::Named(name) => set.contains(name),
        TypeRef::List(inner) | TypeRef::Map(inner) => ref_needs(inner, set),
        _ => false,
    }
}

/// Named envelopes of the standard list convention (`LinkReportList`) with the item type they
/// page: they implement `Paginated`.
fn envelopes(api: &Api) -> BTreeMap<String, TypeRef> {
    let mut found = BTreeMap::new();
    for op in &api.operations {
        let standard = op.pagination.as_ref().is_some_and(|p| p.is_standard());
        if let (crate::model::ResponseBody::Page { item, envelope: Some(envelope) }, true) =
            (&op.response.body, standard)
        {
            found.insert(envelope.clone(), item.clone());
        }
    }
    found
}

struct TypesEmitter<'a> {
    api: &'a Api,
    paths: Paths,
    validated: &'a BTreeSet<String>,
}

impl TypesEmitter<'_> {
    fn item(&self, def: &TypeDef) -> TokenStream {
        match &def.kind {
            TypeKind::Object(object) => self.object(def, object),
            TypeKind::Enum(e) => self.enumeration(def, e),
            TypeKind::Union(u) => self.union(def, u),
        }
    }

    /// The answer enumeration of an operation whose statuses answer different bodies: a
    /// variant per status, named by its reason phrase, holding its body.
    fn answer(&self, op: &Operation) -> TokenStream {
        if !op.response.is_varied() {
            return TokenStream::new();
        }
        let name = ident(&op.names.answer);
        let mut variants = Vec::new();
        let mut arms = Vec::new();
        let mut serialize = Vec::new();
        for (status, body) in op.response.bodies() {
            let variant = ident(&crate::model::status_variant(status));
            let meaning = if status == op.response.status {
                op.response.description.clone()
            } else {
                op.response.others.iter().find(|o| o.status == status).and_then(|o| o.description.clone())
            };
            let text = format!("{status}{}", meaning.map(|m| format!(": {}", m.trim())).unwrap_or_default());
            match body {
                ResponseBody::Value(ty) => {
                    let ty = self.paths.ty(self.api, ty);
                    let docs = doc(&text);
                    variants.push(quote! { #docs #variant(#ty), });
                    arms.push(quote! { #name::#variant(_) => #status, });
                    serialize.push(quote! { #name::#variant(body) => ::apigen_runtime::serde::Serialize::serialize(body, serializer), });
                }
                _ => {
                    let docs = doc(&text);
                    variants.push(quote! { #docs #variant, });
                    arms.push(quote! { #name::#variant => #status, });
                    serialize.push(quote! { #name::#variant => serializer.serialize_unit(), });
                }
            }
        }
        let docs = doc(&format!(
            "What `{}` answers: one variant per success status, each with its own body. The server's handler returns one; the client receives one.",
            op.name
        ));
        // An answer is as large as its largest body, like the body the handler would return
        // alone: it is moved once, never stored, so a bodiless variant beside a large resource
        // (`Ok(Organization)`, `NoContent`) is no reason to box every answer.
        quote! {
            #docs
            #[derive(Clone, Debug, PartialEq)]
            #[allow(clippy::large_enum_variant)]
            pub enum #name { #(#variants)* }

            impl #name {
                /// The HTTP status of this answer.
                pub fn status(&self) -> u16 {
                    match self { #(#arms)* }
                }
            }

            /// The body of the answer (`null` for a status without one).
            impl ::apigen_runtime::serde::Serialize for #name {
                fn serialize<S: ::apigen_runtime::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                    match self { #(#serialize)* }
                }
            }
        }
    }

    /// The content enumeration of an operation whose body has alternatives: a variant per
    /// media type group, named after its first media type, holding the body as that media
    /// type carries it (JSON's or a form's value, text as a `String`, raw bytes as `Bytes`).
    /// The server's handler receives one; the client sends one.
    fn content(&self, op: &Operation) -> TokenStream {
        let Some(body) = op.body.as_ref().filter(|b| !b.alternatives.is_empty()) else { return TokenStream::new() };
        let name = ident(&op.names.content);
        let mut variants = Vec::new();
        let (mut media, mut serialize, mut froms) = (Vec::new(), Vec::new(), Vec::new());
        let count = |ty: &TypeRef| body.variants().filter(|v| v.ty == *ty).count();
        for variant in body.variants() {
            let member = ident(&variant.variant);
            let ty = match &variant.ty {
                TypeRef::Bytes => quote!(::apigen_runtime::Bytes),
                other => self.paths.ty(self.api, other),
            };
            // A JSON body whose schema has no `type` reads a value that is not an object as `None`.
            let ty = if variant.untyped { quote!(::core::option::Option<#ty>) } else { ty };
            let listed = variant.media_types.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", ");
            let how = match variant.encoding_of(&variant.media_types[0]) {
                crate::model::Encoding::Text => ": the text as it came, unchecked",
                crate::model::Encoding::Binary => ": the bytes as they came",
                _ => "",
            };
            let docs = doc(&format!("Sent as {listed}{how}."));
            variants.push(quote! { #docs #member(#ty), });
            let first = &variant.media_types[0];
            media.push(quote! { #name::#member(_) => #first, });
            serialize.push(if variant.ty == TypeRef::Bytes {
                quote! { #name::#member(body) => serializer.serialize_bytes(body), }
            } else {
                quote! { #name::#member(body) => ::apigen_runtime::serde::Serialize::serialize(body, serializer), }
            });
            // Each type carried by one variant alone converts into it (`client.place(order)`).
            if count(&variant.ty) == 1 && !variant.untyped {
                froms.push(quote! {
                    impl ::core::convert::From<#ty> for #name {
                        fn from(body: #ty) -> Self { #name::#member(body) }
                    }
                });
            }
        }
        let docs = doc(&format!(
            "The body of `{}` in the media type it travels in: a variant per alternative the operation takes. The server's handler receives one, told by `Content-Type`; the client sends one.",
            op.name
        ));
        quote! {
            #docs
            #[derive(Clone, Debug, PartialEq)]
            #[allow(clippy::large_enum_variant)]
            pub enum #name { #(#variants)* }

            impl #name {
                /// The media type this body is sent in (the first its alternative lists).
                pub fn media_type(&self) -> &'static str {
                    match self { #(#media)* }
                }
            }

            #(#froms)*

            /// The body's value (raw bytes as a list of bytes), for mocks and logs.
            impl ::apigen_runtime::serde::Serialize for #name {
                fn serialize<S: ::apigen_runtime::serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                    match self { #(#serialize)* }
                }
            }
        }
    }

    /// The typed response headers of an operation: a field per header (unset when absent),
    /// written by the server's handler (`context.set_headers`) and read by the client.
    fn headers(&self, op: &Operation) -> TokenStream {
        let headers = &op.response.headers;
        if headers.is_empty() {
            return TokenStream::new();
        }
        let name = ident(&op.names.headers);
        let mut fields = Vec::new();
        let mut writes = Vec::new();
        let mut reads = Vec::new();
        for header in headers {
            let member = ident(&header.rust);
            let wire = &header.wire;
            let mut text = header.description.clone().unwrap_or_else(|| format!("The `{wire}` header."));
            text.push_str(&format!("\n\nHeader `{wire}`{}.", if header.required { ", always sent" } else { "" }));
            let docs = doc(&text);
            match &header.ty {
                TypeRef::List(inner) => {
                    let ty = self.paths.ty(self.api, &header.ty);
                    fields.push(quote! { #docs pub #member: #ty, });
                    let item = param_text(quote!(item), inner);
                    writes.push(quote! {
                        if !self.#member.is_empty() {
                            let items: ::std::vec::Vec<::std::string::String> = self.#member.iter().map(|item| #item).collect();
                            pairs.push((#wire, items.join(",")));
                        }
                    });
                    let read = self.header_read(quote!(get(#wire)), inner, true);
                    reads.push(quote! { #member: #read, });
                }
                ty => {
                    let rust_ty = self.paths.ty(self.api, ty);
                    fields.push(quote! { #docs pub #member: ::core::option::Option<#rust_ty>, });
                    let value = param_text(quote!(value), ty);
                    writes.push(quote! {
                        if let ::core::option::Option::Some(value) = &self.#member { pairs.push((#wire, #value)); }
                    });
                    let read = self.header_read(quote!(get(#wire)), ty, false);
                    reads.push(quote! { #member: #read, });
                }
            }
        }
        let required = headers.iter().filter(|h| h.required).map(|h| &h.wire);
        let docs = doc(&format!(
            "The response headers of `{}`: the server's handler sets them with `context.set_headers(..)`; the client reads them with `response.headers_as()`.",
            op.name
        ));
        quote! {
            #docs
            #[derive(Clone, Debug, Default, PartialEq)]
            pub struct #name { #(#fields)* }

            impl ::apigen_runtime::HeaderSet for #name {
                const REQUIRED: &'static [&'static str] = &[#(#required),*];

                fn to_pairs(&self) -> ::std::vec::Vec<(&'static str, ::std::string::String)> {
                    let mut pairs = ::std::vec::Vec::new();
                    #(#writes)*
                    pairs
                }

                fn from_lookup(get: &dyn ::core::ops::Fn(&str) -> ::std::vec::Vec<::std::string::String>) -> Self {
                    #name { #(#reads)* }
                }
            }
        }
    }

    /// Reading a header's value (or, with `list`, its comma-separated items) as `inner` from
    /// the text `values` gives.
    fn header_read(&self, values: TokenStream, inner: &TypeRef, list: bool) -> TokenStream {
        let reader = if list { quote!(header_list) } else { quote!(header_value) };
        match inner {
            TypeRef::Named(_) => {
                let ty = self.paths.ty(self.api, inner);
                let convert =
                    quote! { |text: ::std::string::String| <#ty as ::core::convert::From<&str>>::from(text.as_str()) };
                if list {
                    quote! { ::apigen_runtime::codegen::header_list::<::std::string::String>(#values).into_iter().map(#convert).collect() }
                } else {
                    quote! { ::apigen_runtime::codegen::header_value::<::std::string::String>(#values).map(#convert) }
                }
            }
            TypeRef::Url => quote! { ::apigen_runtime::codegen::#reader::<::std::string::String>(#values) },
            other => {
                let ty = self.paths.ty(self.api, other);
                quote! { ::apigen_runtime::codegen::#reader::<#ty>(#values) }
            }
        }
    }

    /// `Paginated` for a named envelope: lowering checked it has `items`, and `next` with a
    /// required string `page`.
    fn paginated(&self, def: &TypeDef, item: &TypeRef) -> TokenStream {
        let name = ident(&def.rust);
        let item = self.paths.ty(self.api, item);
        quote! {
            impl ::apigen_runtime::Paginated for #name {
                type Item = #item;
                fn next_page(&self) -> ::core::option::Option<&str> {
                    self.next.as_ref().map(|next| next.page.as_str())
                }
                fn into_items(self) -> ::std::vec::Vec<#item> {
                    self.items
                }
            }
        }
    }

    fn type_doc(&self, def: &TypeDef) -> TokenStream {
        let mut text = def.description.clone().unwrap_or_else(|| format!("The `{}` type.", def.name));
        if let Some(source) = &def.source {
            text.push_str(&format!("\n\nSource: {source}."));
        }
        if let Some(inline_of) = &def.inline_of {
            text.push_str(&format!("\n\nThe shape of `{inline_of}`."));
        }
        for gap in &def.gaps {
            text.push_str(&format!("\n\nGap `{gap}`: {}", self.api.gaps[gap].decision.trim()));
        }
        doc(&text)
    }

    // ---- objects ------------------------------------------------------------------------

    fn object(&self, def: &TypeDef, object: &Object) -> TokenStream {
        let name = ident(&def.rust);
        let docs = self.type_doc(def);
        let stored: Vec<&Field> = object.fields.iter().filter(|f| f.constant.is_none()).collect();
        let fields = stored.iter().map(|f| {
            let field_name = ident(&f.rust);
            let ty = self.paths.field_ty(self.api, f, def.usage);
            let docs = doc(&field_doc(f, def));
            quote! { #docs pub #field_name: #ty, }
        });
        let extra = object.additional.as_ref().map(|ty| {
            let ty = self.paths.ty(self.api, ty);
            quote! {
                /// Keys the spec does not list, kept as they came so nothing is lost on a round trip.
                pub extra: ::std::collections::BTreeMap<::std::string::String, #ty>,
            }
        });
        let sensitive = stored.iter().any(|f| f.sensitive);
        let defaultable = stored
            .iter()
            .all(|f| matches!(f.presence(def.usage), Presence::Optional | Presence::Nullable | Presence::TriState));
        let mut derives = vec![quote!(Clone), quote!(PartialEq)];
        if !sensitive {
            derives.push(quote!(Debug));
        }
        if defaultable {
            derives.push(quote!(Default));
        }
        let debug = sensitive.then(|| self.redacted_debug(def, &stored, object.additional.is_some()));
        let from_json = self.object_from_json(def, object);
        let serialize = self.object_serialize(def, object);
        let validate = self.object_validate(def, object);
        let deserialize = deserialize_impl(&name);
        quote! {
            #docs
            #[derive(#(#derives),*)]
            pub struct #name {
                #(#fields)*
                #extra
            }
            #debug
            #from_json
            #serialize
            #deserialize
            #validate
        }
    }

    /// `FromJson` of an object: one struct literal of reader calls, in wire order, then
    /// `finish()?`. Each read gives its field a value (a placeholder when it failed, recorded)
    /// and `finish` refuses the object when anything failed: no branch per field, which is
    /// what keeps a big API's types crate cheap to compile (see the runtime's `Object`).
    fn object_from_json(&self, def: &TypeDef, object: &Object) -> TokenStream {
        let name = ident(&def.rust);
        let mut inits = Vec::new();
        // Constants are checked where they stand among the fields, so that violations come in
        // wire order: before the literal when they come first, else before the next field's
        // read, or after the literal when none follows.
        let mut leading = Vec::new();
        let mut constants = Vec::new();
        for field in &object.fields {
            let wire = &field.wire;
            if let Some(constant) = &field.constant {
                constants.push(quote! { __reader.constant(#wire, #constant); });
                continue;
            }
            let member = ident(&field.rust);
            let read = match (field.access, field.presence(def.usage)) {
                (Access::ReadOnly, _) => quote! { __reader.read_only(#wire) },
                (Access::WriteOnly, _) if !field.optional => quote! { __reader.required_in_requests(#wire) },
                (_, presence) => self.read_field(field, presence),
            };
            if inits.is_empty() {
                leading.append(&mut constants);
            }
            if constants.is_empty() {
                inits.push(quote! { #member: #read, });
            } else {
                inits.push(quote! { #member: { #(#constants)* #read }, });
                constants.clear();
            }
        }
        if object.additional.is_some() {
            if inits.is_empty() {
                leading.append(&mut constants);
            }
            if constants.is_empty() {
                inits.push(quote! { extra: __reader.rest(), });
            } else {
                inits.push(quote! { extra: { #(#constants)* __reader.rest() }, });
                constants.clear();
            }
        }
        // `unknown_fields: ignore`: a request's undeclared fields are dropped, not refused.
        let finish = if object.ignores_unknown { quote!(finish_open) } else { quote!(finish) };
        quote! {
            impl ::apigen_runtime::FromJson for #name {
                fn from_json(
                    __value: ::apigen_runtime::json::Source<'_>,
                    __decoder: &mut ::apigen_runtime::Decoder,
                ) -> ::core::option::Option<Self> {
                    let mut __reader = __decoder.object(__value)?;
                    #(#leading)*
                    let __decoded = Self { #(#inits)* };
                    #(#constants)*
                    __reader.#finish()?;
                    ::core::option::Option::Some(__decoded)
                }
            }
        }
    }

    /// How a field travelling both ways is read.
    fn read_field(&self, field: &Field, presence: Presence) -> TokenStream {
        let wire = &field.wire;
        match presence {
            // A value that is not an object fits an untyped field's schema: read as left out.
            Presence::Optional if field.untyped => quote! { __reader.untyped_optional(#wire) },
            Presence::Nullable if field.untyped => quote! { __reader.untyped_required(#wire) },
            Presence::Required => quote! { __reader.required(#wire) },
            Presence::Optional => quote! { __reader.optional(#wire) },
            Presence::Nullable => quote! { __reader.nullable(#wire) },
            Presence::TriState => quote! { __reader.patch(#wire) },
            Presence::Defaulted => {
                let default = self.paths.default_value(self.api, &field.ty, field.default.as_ref().expect("defaulted"));
                quote! { __reader.defaulted(#wire, || #default) }
            }
        }
    }

    /// `Serialize` of an object: one writer call per field, without `?` (the runtime's
    /// `Fields` keeps the first error and `end()` returns it; see `object_from_json` for why
    /// a `?` per field is worth avoiding).
    fn object_serialize(&self, def: &TypeDef, object: &Object) -> TokenStream {
        let name = ident(&def.rust);
        let writes = object.fields.iter().map(|field| {
            let wire = &field.wire;
            if let Some(constant) = &field.constant {
                return quote! { __fields.put(#wire, #constant); };
            }
            let member = ident(&field.rust);
            match (field.access, field.presence(def.usage)) {
                (Access::ReadOnly, _) => quote! { __fields.read_only(#wire, &self.#member); },
                (Access::WriteOnly, _) => quote! { __fields.write_only(#wire, &self.#member); },
                (_, Presence::Required | Presence::Defaulted | Presence::Nullable) => {
                    quote! { __fields.put(#wire, &self.#member); }
                }
                (_, Presence::Optional) => quote! { __fields.optional(#wire, &self.#member); },
                (_, Presence::TriState) => quote! { __fields.patch(#wire, &self.#member); },
            }
        });
        let extra = object.additional.as_ref().map(|_| quote! { __fields.rest(&self.extra); });
        super::rust::serialize_impl(&name, quote! { #(#writes)* #extra })
    }

    fn object_validate(&self, def: &TypeDef, object: &Object) -> TokenStream {
        let name = ident(&def.rust);
        let mut patterns = Vec::new();
        let mut checks = Vec::new();
        for field in object.fields.iter().filter(|f| f.constant.is_none()) {
            if !field_needs(field, self.validated) {
                continue;
            }
            let wire = &field.wire;
            let nested = ref_needs(&field.ty, self.validated);
            let field_checks = constraint_checks(&field.ty, &field.constraints, nested, &mut patterns);
            let member = ident(&field.rust);
            // A field whose only check is its own type's, or that it is a URL: one call on the
            // validator, keyed (no guard per field: a big API has thousands of URL fields).
            let single = if nested && field_checks.len() == 1 {
                Some(quote!(field))
            } else if field.ty == TypeRef::Url && field_checks.len() == 1 {
                Some(quote!(url_at))
            } else {
                None
            };
            let presence = field.presence(def.usage);
            if let (Some(method), Presence::Required | Presence::Defaulted) = (&single, presence) {
                checks.push(quote! { __v.#method(#wire, &self.#member); });
                continue;
            }
            let inner = match single {
                Some(method) => quote! { __v.#method(#wire, __value); },
                None => quote! { let __v = &mut __v.at(#wire); #(#field_checks)* },
            };
            checks.push(match presence {
                Presence::Required | Presence::Defaulted => quote! { { let __value = &self.#member; #inner } },
                Presence::Optional | Presence::Nullable => {
                    quote! { if let ::core::option::Option::Some(__value) = &self.#member { #inner } }
                }
                Presence::TriState => {
                    quote! { if let ::core::option::Option::Some(__value) = self.#member.value() { #inner } }
                }
            });
        }
        if object.additional.as_ref().is_some_and(|t| ref_needs(t, self.validated)) {
            checks.push(quote! { ::apigen_runtime::Validate::validate_into(&self.extra, __v); });
        }
        let v = if checks.is_empty() { quote!(_) } else { quote!(__v) };
        quote! {
            impl ::apigen_runtime::Validate for #name {
                fn validate_into(&self, #v: &mut ::apigen_runtime::Validator) {
                    #(#patterns)*
                    #(#checks)*
                }
            }
        }
    }

    fn redacted_debug(&self, def: &TypeDef, stored: &[&Field], has_extra: bool) -> TokenStream {
        let name = ident(&def.rust);
        let label = &def.rust;
        let fields = stored.iter().map(|f| {
            let label = &f.rust;
            let member = ident(&f.rust);
            if !f.sensitive {
                return quote! { .field(#label, &self.#member) };
            }
            match f.presence(def.usage) {
                Presence::Optional | Presence::Nullable => {
                    quote! { .field(#label, &::apigen_runtime::codegen::redact_option(&self.#member)) }
                }
                Presence::TriState => {
                    quote! { .field(#label, &::apigen_runtime::codegen::redact_patch(&self.#member)) }
                }
                Presence::Required | Presence::Defaulted => {
                    quote! { .field(#label, &::apigen_runtime::codegen::Redacted) }
                }
            }
        });
        let extra = has_extra.then(|| quote! { .field("extra", &self.extra) });
        quote! {
            impl ::core::fmt::Debug for #name {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.debug_struct(#label) #(#fields)* #extra .finish()
                }
            }
        }
    }

    // ---- enumerations -------------------------------------------------------------------

    fn enumeration(&self, def: &TypeDef, e: &Enum) -> TokenStream {
        let name = ident(&def.rust);
        let docs = self.type_doc(def);
        let fallback = ident(&e.fallback);
        let variants = e.values.iter().map(|v| {
            let variant = ident(&v.rust);
            let text = match &v.description {
                Some(description) => format!("`{}`: {description}", v.wire),
                None => format!("`{}`.", v.wire),
            };
            let docs = doc(&text);
            quote! { #docs #variant, }
        });
        let fallback_doc = if e.open {
            "A value the spec does not list (the documents show only samples), kept as sent."
        } else {
            "A value the spec does not list, kept as sent; `validate()` rejects it, as the list is closed."
        };
        let wires: Vec<&str> = e.values.iter().map(|v| v.wire.as_str()).collect();
        let idents: Vec<_> = e.values.iter().map(|v| ident(&v.rust)).collect();
        let validate = enum_validate(e, &fallback);
        let deserialize = deserialize_impl(&name);
        let json = enum_json(&name, &fallback, e.integer);
        let integer = e.integer.then(|| enum_integer(&name));
        let fallback_doc =
            if e.integer { format!("{fallback_doc} Held as its decimal text.") } else { fallback_doc.to_owned() };
        quote! {
            #docs
            #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub enum #name {
                #(#variants)*
                #[doc = #fallback_doc]
                #fallback(::std::string::String),
            }
            impl #name {
                /// Every value the spec lists, as sent on the wire.
                pub const VALUES: &'static [&'static str] = &[#(#wires),*];

                /// The value as sent on the wire.
                pub fn as_str(&self) -> &str {
                    match self {
                        #(Self::#idents => #wires,)*
                        Self::#fallback(__value) => __value,
                    }
                }
            }
            impl ::core::convert::From<&str> for #name {
                fn from(value: &str) -> Self {
                    match value {
                        #(#wires => Self::#idents,)*
                        __other => Self::#fallback(::std::string::String::from(__other)),
                    }
                }
            }
            impl ::core::fmt::Display for #name {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.write_str(self.as_str())
                }
            }
            #json
            #integer
            #deserialize
            impl ::apigen_runtime::Validate for #name {
                #validate
            }
        }
    }

    // ---- unions -------------------------------------------------------------------------

    fn union(&self, def: &TypeDef, u: &Union) -> TokenStream {
        let name = ident(&def.rust);
        let docs = self.type_doc(def);
        let fallback = ident(&u.fallback);
        let UnionParts { variants, names, decoders, serialize_arms, validate_arms, froms } = self.union_parts(&name, u);
        let open = u.open;
        let decode = match &u.tag {
            Some(tag) => quote! {
                ::apigen_runtime::codegen::tagged(__value, __decoder, #tag, &[#(#names),*], &[#(#decoders),*], Self::#fallback, #open)
            },
            None => quote! {
                ::apigen_runtime::codegen::untagged(__value, __decoder, &[#(#names),*], &[#(#decoders),*], Self::#fallback, #open)
            },
        };
        let fallback_doc = if u.open {
            "A variant the spec does not list, kept as the JSON sent and written back unchanged."
        } else {
            "A variant the spec does not list, kept as the JSON sent; `validate()` rejects it, as the list is closed."
        };
        let (v, validate_body) = union_validate(u, &fallback, &validate_arms);
        let deserialize = deserialize_impl(&name);
        let json = json_impls(
            &name,
            &fallback,
            &decode,
            &quote! {
                match self {
                    #(#serialize_arms)*
                    Self::#fallback(__value) => __value.serialize(serializer),
                }
            },
        );
        quote! {
            #docs
            #[derive(Clone, Debug, PartialEq)]
            pub enum #name {
                #(#variants)*
                #[doc = #fallback_doc]
                #fallback(::apigen_runtime::serde_json::Value),
            }
            #(#froms)*
            #json
            #deserialize
            impl ::apigen_runtime::Validate for #name {
                fn validate_into(&self, #v: &mut ::apigen_runtime::Validator) {
                    #validate_body
                }
            }
        }
    }

    /// The pieces of a union's items, variant by variant.
    fn union_parts(&self, name: &proc_macro2::Ident, u: &Union) -> UnionParts {
        let mut parts = UnionParts::default();
        for variant in &u.variants {
            let variant_name = ident(&variant.rust);
            let inner = self.paths.ty(self.api, &variant.ty);
            let is_object =
                matches!(&variant.ty, TypeRef::Named(n) if matches!(self.api.ty(n).kind, TypeKind::Object(_)));
            let payload = if is_object { quote!(::std::boxed::Box<#inner>) } else { inner.clone() };
            let text = match (&variant.ty, &variant.tag_value) {
                (TypeRef::Named(n), Some(tag)) => {
                    format!("`{tag}`: {}", first_line(&self.api.ty(n).description))
                }
                (TypeRef::Named(n), None) => first_line(&self.api.ty(n).description),
                (other, _) => format!("A value of type `{other}`."),
            };
            let variant_doc = doc(&text);
            parts.variants.push(quote! { #variant_doc #variant_name(#payload), });
            parts.names.push(variant.tag_value.clone().unwrap_or_else(|| variant.rust.clone()));
            parts.decoders.push(quote! {
                |__value, __decoder| {
                    ::core::option::Option::Some(Self::#variant_name(
                        <#payload as ::apigen_runtime::FromJson>::from_json(__value, __decoder)?,
                    ))
                }
            });
            parts.serialize_arms.push(quote! { Self::#variant_name(__value) => __value.serialize(serializer), });
            parts.validate_arms.push(if ref_needs(&variant.ty, self.validated) {
                quote! { Self::#variant_name(__value) => __value.validate_into(__v), }
            } else {
                quote! { Self::#variant_name(_) => {} }
            });
            if is_object {
                parts.froms.push(quote! {
                    impl ::core::convert::From<#inner> for #name {
                        fn from(value: #inner) -> Self {
                            Self::#variant_name(::std::boxed::Box::new(value))
                        }
                    }
                });
            }
        }
        parts
    }
}

/// The pieces of a union's items, one of each per variant.
#[derive(Default)]
struct UnionParts {
    variants: Vec<TokenStream>,
    names: Vec<String>,
    decoders: Vec<TokenStream>,
    serialize_arms: Vec<TokenStream>,
    validate_arms: Vec<TokenStream>,
    froms: Vec<TokenStream>,
}

/// The validator's binding of a union's `validate_into` (`_` when nothing is checked) and
/// its body: each variant's own checks, and a closed union's refusal of a variant not listed.
fn union_validate(
    u: &Union,
    fallback: &proc_macro2::Ident,
    validate_arms: &[TokenStream],
) -> (TokenStream, TokenStream) {
    let fallback_check = if u.open {
        quote! { Self::#fallback(_) => {} }
    } else {
        quote! { Self::#fallback(_) => __v.fail("is not a variant the spec lists"), }
    };
    if validate_arms.iter().all(|a| a.to_string().ends_with("{ }")) && u.open {
        return (quote!(_), TokenStream::new());
    }
    (quote!(__v), quote! { match self { #(#validate_arms)* #fallback_check } })
}

/// An enumeration's `validate_into`: an open enumeration of integers checks a kept value is
/// one, a closed one refuses a value not listed.
fn enum_validate(e: &Enum, fallback: &proc_macro2::Ident) -> TokenStream {
    if e.integer && e.open {
        quote! {
            fn validate_into(&self, __v: &mut ::apigen_runtime::Validator) {
                if let Self::#fallback(__value) = self && __value.parse::<i64>().is_err() {
                    __v.fail(::std::format!("{__value:?} is not an integer"));
                }
            }
        }
    } else if e.open {
        quote! { fn validate_into(&self, _: &mut ::apigen_runtime::Validator) {} }
    } else {
        quote! {
            fn validate_into(&self, __v: &mut ::apigen_runtime::Validator) {
                if let Self::#fallback(__value) = self {
                    __v.not_listed(__value, Self::VALUES);
                }
            }
        }
    }
}

/// The integer view of an enumeration of integers.
fn enum_integer(name: &proc_macro2::Ident) -> TokenStream {
    quote! {
        impl #name {
            /// The value as an integer (`None` for a kept value that is not one).
            pub fn value(&self) -> ::core::option::Option<i64> {
                self.as_str().parse().ok()
            }
        }
        impl ::core::convert::From<i64> for #name {
            fn from(value: i64) -> Self {
                Self::from(value.to_string().as_str())
            }
        }
    }
}

fn deserialize_impl(name: &proc_macro2::Ident) -> TokenStream {
    quote! {
        impl<'de> ::apigen_runtime::serde::Deserialize<'de> for #name {
            fn deserialize<D: ::apigen_runtime::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::core::result::Result<Self, D::Error> {
                ::apigen_runtime::codegen::deserialize(deserializer)
            }
        }
    }
}

/// The doc comment of a field: its description, then what the reader needs to know about
/// presence, constraints, default and secrecy.
fn field_doc(field: &Field, owner: &TypeDef) -> String {
    let mut text = field.description.clone().unwrap_or_else(|| format!("The `{}` field.", field.wire));
    let mut notes = Vec::new();
    if field.rust != field.wire {
        notes.push(format!("JSON name: `{}`.", field.wire));
    }
    match field.presence(owner.usage) {
        Presence::TriState => notes.push("Absent leaves the value unchanged; `Null` removes it.".to_owned()),
        Presence::Nullable if field.untyped => notes.push(
            "Required, but a value that is not an object (`null`, `3`, `[]`) fits the document's schema, \
             which gives no `type`: it reads as `None`, written `null`."
                .to_owned(),
        ),
        Presence::Nullable => notes.push("May be null.".to_owned()),
        Presence::Optional if field.untyped => notes.push(
            "A value that is not an object (`null`, `3`, `[]`) fits the document's schema, which gives no \
             `type`: it reads as `None`."
                .to_owned(),
        ),
        _ => {}
    }
    match field.access {
        Access::ReadWrite => {}
        Access::ReadOnly => {
            notes.push("Read-only: answered by the service, never sent (a request giving it is refused).".to_owned())
        }
        Access::WriteOnly if field.optional => notes.push("Write-only: sent, never answered.".to_owned()),
        Access::WriteOnly => notes.push("Write-only: required in requests, never answered.".to_owned()),
    }
    if let Some(constraints) = describe_constraints(&field.ty, &field.constraints) {
        notes.push(format!("Constraints: {constraints}."));
    }
    if let Some(default) = &field.default {
        notes.push(format!("Default when absent: `{default}`."));
    }
    if field.sensitive {
        notes.push("Sensitive: redacted in `Debug` output.".to_owned());
    }
    for gap in &field.gaps {
        notes.push(format!("Gap `{gap}`."));
    }
    if !notes.is_empty() {
        text.push_str("\n\n");
        text.push_str(&notes.join(" "));
    }
    text
}

fn first_line(description: &Option<String>) -> String {
    description.as_deref().and_then(|d| d.lines().next()).unwrap_or("A variant.").to_owned()
}

/// `lib.rs`: crate docs (the groups and what they use), the modules, their re-exports.
fn crate_root(api: &Api, modules: Vec<(String, TokenStream)>) -> TokenStream {
    let groups: Vec<minijinja::Value> = api
        .tags
        .iter()
        .map(|tag| {
            minijinja::context! {
                title => &tag.title,
                name => &tag.name,
                feature => (api.operations_of(&tag.name).next().is_some()).then(|| features::of_group(tag)),
                description => tag.description.as_deref().map(str::trim),
                types => types_used_by_tag(api, &tag.name),
            }
        })
        .collect();
    let text = super::templates::render(
        "types-lib.md.j2",
        minijinja::context! {
            title => &api.title,
            description => api.description.as_deref().map(str::trim),
            groups => groups,
        },
    );
    super::rust::crate_lib(
        &text,
        super::rust::re_exports(&TYPES_ROOT, &api.crates),
        &modules,
        quote! {
            // Every type's sample, so every type compiled: the default features.
            #[cfg(all(test, feature = "full"))]
            #[rustfmt::skip]
            mod samples;
        },
    )
}

/// The named types an operation of `tag` takes or returns directly.
fn types_used_by_tag(api: &Api, tag: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for op in api.operations_of(tag) {
        for body in op.body.iter().flat_map(crate::model::Body::variants) {
            used.extend(body.ty.named().map(|n| api.ty(n).rust.clone()));
        }
        match &op.response.body {
            crate::model::ResponseBody::Value(ty) => used.extend(ty.named().map(|n| api.ty(n).rust.clone())),
            crate::model::ResponseBody::Page { item, envelope } => {
                used.extend(item.named().map(|n| api.ty(n).rust.clone()));
                used.extend(envelope.iter().map(|n| api.ty(n).rust.clone()));
            }
            crate::model::ResponseBody::Empty => {}
        }
    }
    used
}

/// True for the object of a multipart body: a field is a file or a list of files.
fn holds_files(def: &crate::model::TypeDef) -> bool {
    let TypeKind::Object(object) = &def.kind else { return false };
    object.fields.iter().any(|f| match &f.ty {
        TypeRef::File => true,
        TypeRef::List(inner) => **inner == TypeRef::File,
        _ => false,
    })
}

/// Sample checks per function: a function of a few hundred lines at most (Microsoft Graph's
/// 2,600 types were one test function).
const CHECKS_PER_FN: usize = 100;

/// Sample checks per file: more types are checked in parts, a file each
/// (`samples/part_<n>.rs`); GitHub's samples run to 4 KB of Rust a type, so 200 keep a part
/// under a megabyte (500 made 2.1 MB).
const CHECKS_PER_FILE: usize = 200;

/// The types whose sample is checked: a multipart body's object holds files, which never
/// travel as JSON.
fn json_types(api: &Api) -> Vec<&crate::model::TypeDef> {
    api.types.values().filter(|def| !holds_files(def)).collect()
}

/// How many files of checks `samples.rs` has beside it: none when it holds every check.
fn sample_parts(api: &Api) -> usize {
    let count = json_types(api).len();
    if count > CHECKS_PER_FILE { count.div_ceil(CHECKS_PER_FILE) } else { 0 }
}

/// The checks of `defs`, calling `check` (a path) with `failures` (an expression): inline
/// when they are few, else a call of each private function of [`CHECKS_PER_FN`] checks
/// (the second part of the answer).
fn chunked_checks(
    api: &Api,
    defs: &[&crate::model::TypeDef],
    check: &TokenStream,
    failures: &TokenStream,
) -> (TokenStream, TokenStream) {
    let calls = |defs: &[&crate::model::TypeDef], failures: &TokenStream| -> TokenStream {
        let each = defs.iter().map(|def| {
            let rust = ident(&def.rust);
            let name = &def.name;
            let json = sample::of_type(api, &def.name).to_string();
            quote! { #check::<crate::#rust>(#name, #json, #failures); }
        });
        quote! { #(#each)* }
    };
    if defs.len() <= CHECKS_PER_FN {
        return (calls(defs, failures), TokenStream::new());
    }
    let names: Vec<_> = (1..=defs.len().div_ceil(CHECKS_PER_FN)).map(|n| ident(&format!("checks_{n}"))).collect();
    let bodies = defs.chunks(CHECKS_PER_FN).map(|chunk| calls(chunk, &quote!(failures)));
    (
        quote! { #(#names(#failures);)* },
        quote! {
            #(
                /// Checks these types' samples.
                fn #names(failures: &mut ::std::vec::Vec<::std::string::String>) {
                    #bodies
                }
            )*
        },
    )
}

/// `src/samples/part_<part>.rs`: the checks of the part's types.
fn sample_part(api: &Api, part: usize) -> TokenStream {
    // A part holds the types whose name hashes to it: a type added changes its part only.
    let parts = sample_parts(api);
    let defs: Vec<_> =
        json_types(api).into_iter().filter(|def| crate::emit::rust::part_of_name(&def.name, parts) == part).collect();
    let (calls, fns) = chunked_checks(api, &defs, &quote!(super::check), &quote!(failures));
    let docs = inner_doc(&format!("The sample checks of the spec's types, part {part} of {}.", sample_parts(api)));
    quote! {
        #docs

        /// Checks the samples of this part's types.
        pub(super) fn checks(failures: &mut ::std::vec::Vec<::std::string::String>) {
            #calls
        }

        #fns
    }
}

/// `src/samples.rs` (a test module): every type's sample decodes leniently and strictly,
/// validates, and serializes back to the same JSON.
fn sample_tests(api: &Api) -> TokenStream {
    let json_types = json_types(api);
    let parts: Vec<_> = (1..=sample_parts(api)).map(|n| ident(&format!("part_{n}"))).collect();
    let (checks, chunks) = if parts.is_empty() {
        chunked_checks(api, &json_types, &quote!(check), &quote!(&mut failures))
    } else {
        (quote! { #(#parts::checks(&mut failures);)* }, quote! { #(#[rustfmt::skip] mod #parts;)* })
    };
    let count = json_types.len();
    if count == 0 {
        // No test at all: an empty one would leave `check` unused and `failures` untyped.
        return quote! {
            //! The spec declares no type a JSON sample can build: nothing to round-trip.
        };
    }
    quote! {
        //! Every type of the spec, built from the spec's samples: it decodes leniently and
        //! (written as a request) strictly, passes `validate()`, and serializes back to the
        //! same JSON.

        use crate::runtime::{self, Mode, Validate};

        fn check<T>(name: &str, json: &str, failures: &mut ::std::vec::Vec<::std::string::String>)
        where
            T: runtime::FromJson + runtime::serde::Serialize + Validate,
        {
            let sample: runtime::serde_json::Value = runtime::serde_json::from_str(json).expect("samples are JSON");
            let lenient: T = match runtime::json::decode(sample.clone(), Mode::Lenient) {
                Ok(value) => value,
                Err(error) => return failures.push(format!("{name}: lenient decoding failed: {error}")),
            };
            // Strictly, as a request carries it: written as a request (read-only fields left
            // out), then read as the server reads requests.
            let request = runtime::json::writing(runtime::json::Direction::Request, || runtime::serde_json::to_value(&lenient))
                .expect("serializes");
            let strict: T = match runtime::json::decode(request, Mode::Strict) {
                Ok(value) => value,
                Err(error) => return failures.push(format!("{name}: strict decoding failed: {error}")),
            };
            if let Err(error) = strict.validate() {
                failures.push(format!("{name}: the sample does not validate: {error}"));
            }
            let written = runtime::serde_json::to_value(&lenient).expect("serializes");
            if !runtime::testing::json_eq(&written, &sample) {
                failures.push(format!("{name}: round trip changed the JSON:\n  sample:  {sample}\n  written: {written}"));
            }
        }

        #[test]
        fn every_type_round_trips_its_sample() {
            let mut failures = ::std::vec::Vec::new();
            #checks
            assert!(failures.is_empty(), "{} of {} types failed:\n{}", failures.len(), #count, failures.join("\n"));
        }

        #chunks
    }
}

/// JSON of an enumeration: a string both ways, or for one of integers an integer both ways
/// (its variants keep the decimal text, so parameters and forms read it like any other).
fn enum_json(name: &proc_macro2::Ident, fallback: &proc_macro2::Ident, integer: bool) -> TokenStream {
    let (read, write) = if integer {
        (
            quote! {
                ::core::option::Option::Some(Self::from(<i64 as ::apigen_runtime::FromJson>::from_json(__value, __decoder)?))
            },
            quote! {
                match self.value() {
                    ::core::option::Option::Some(__value) => serializer.serialize_i64(__value),
                    ::core::option::Option::None => serializer.serialize_str(self.as_str()),
                }
            },
        )
    } else {
        (
            quote! { ::core::option::Option::Some(Self::from(__decoder.string(__value)?.as_str())) },
            quote! { serializer.serialize_str(self.as_str()) },
        )
    };
    json_impls(name, fallback, &read, &write)
}

/// `FromJson` and `Serialize` of a generated enumeration or union, from the body of each;
/// the placeholder (what an object's reader gives a field that failed) is the fallback
/// variant.
fn json_impls(
    name: &proc_macro2::Ident,
    fallback: &proc_macro2::Ident,
    read: &TokenStream,
    write: &TokenStream,
) -> TokenStream {
    quote! {
        impl ::apigen_runtime::FromJson for #name {
            fn from_json(
                __value: ::apigen_runtime::json::Source<'_>,
                __decoder: &mut ::apigen_runtime::Decoder,
            ) -> ::core::option::Option<Self> {
                #read
            }
            fn placeholder() -> Self {
                Self::#fallback(::core::default::Default::default())
            }
        }
        impl ::apigen_runtime::serde::Serialize for #name {
            fn serialize<S: ::apigen_runtime::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                #write
            }
        }
    }
}
