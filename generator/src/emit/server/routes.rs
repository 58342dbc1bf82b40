//! Each group's routes, a file of the root module's own (`<root>/groups/<group>.rs`): the
//! group's entries of `OPERATIONS` and the setting of its handlers from its trait. The root
//! declares the files and puts the tables one after the other; no file holds the whole API's.

use crate::emit::features;
use crate::emit::rust::{ident, inner_doc};
use crate::model::{Api, Operation, Tag};
use proc_macro2::TokenStream;
use quote::quote;

/// Operations whose handlers one function of a group's file sets.
const HANDLERS_PER_FN: usize = 64;

/// What the root module says of the groups' files: the declaration of each (under its group's
/// feature), its table in `GROUP_OPERATIONS`, and `router_with`'s call of its `set_handlers`.
pub(super) fn groups(api: &Api) -> (Vec<TokenStream>, Vec<TokenStream>, Vec<TokenStream>) {
    let mut declarations = Vec::new();
    let mut tables = Vec::new();
    let mut calls = Vec::new();
    for tag in api.tags_with_operations() {
        let cfg = features::cfg_group(tag);
        let name = ident(&tag.rust);
        declarations.push(quote! { #cfg #[rustfmt::skip] pub(super) mod #name; });
        tables.push(quote! { #cfg group_tables::#name::OPERATIONS });
        calls.push(quote! { #cfg let builder = group_tables::#name::set_handlers(builder); });
    }
    (declarations, tables, calls)
}

/// `<root>/groups/<group>.rs`: the group's entries of `OPERATIONS`, and `set_handlers`, setting
/// each of its handlers from its trait, a function per [`HANDLERS_PER_FN`] operations.
pub(super) fn group_routes(api: &Api, tag: &Tag) -> TokenStream {
    let ops: Vec<&Operation> = api.operations_of(&tag.name).collect();
    let docs = inner_doc(&format!(
        "The routes of {}: its operations' entries of `OPERATIONS` and the setting of their handlers.",
        tag.title
    ));
    // The entries name their schemes in the root's `SCHEMES`.
    let schemes =
        ops.iter().any(|op| !op.auth.alternatives().is_empty()).then(|| quote! { use super::super::SCHEMES; });
    // And their other error bodies in the root's `ERROR_BODIES`.
    let bodies = ops
        .iter()
        .any(|op| !crate::emit::rust::error_bodies(api, op).is_empty())
        .then(|| quote! { use super::super::ERROR_BODIES; });
    let infos = ops.iter().map(|op| operation_info(api, op));
    let setting = set_handlers(tag, &ops);
    quote! {
        #docs

        #schemes

        #bodies

        /// The group's operations.
        pub(crate) const OPERATIONS: &[::apigen_runtime::server::OperationInfo] = &[#(#infos),*];

        #setting
    }
}

/// `set_handlers`: the group's handlers set from its trait, a function per
/// [`HANDLERS_PER_FN`] operations (`set_<n>`) when it has more.
fn set_handlers(tag: &Tag, ops: &[&Operation]) -> TokenStream {
    let trait_ident = ident(&tag.names.server_trait);
    let function = |name: &proc_macro2::Ident, visibility: TokenStream, chunk: &[&Operation], docs: &str| {
        let allow = chunk.iter().any(|op| op.deprecated.is_some()).then(|| quote!(#[allow(deprecated)]));
        let calls = chunk.iter().map(|op| {
            let setter = ident(&op.rust);
            quote! {
                .#setter(|service, context, request| async move {
                    crate::#trait_ident::#setter(&*service, context, request).await
                })
            }
        });
        quote! {
            #[doc = #docs]
            #allow
            #visibility fn #name<S: crate::#trait_ident>(builder: crate::RouterBuilder<S>) -> crate::RouterBuilder<S> {
                builder #(#calls)*
            }
        }
    };
    let all = ident("set_handlers");
    let docs = " Sets each handler of the group from its trait.";
    if ops.len() <= HANDLERS_PER_FN {
        return function(&all, quote!(pub(crate)), ops, docs);
    }
    let names: Vec<proc_macro2::Ident> =
        (1..=ops.len().div_ceil(HANDLERS_PER_FN)).map(|n| ident(&format!("set_{n}"))).collect();
    let chunks = names.iter().zip(ops.chunks(HANDLERS_PER_FN)).map(|(name, chunk)| {
        function(name, TokenStream::new(), chunk, " Sets these handlers of the group from its trait.")
    });
    let (last, first) = names.split_last().expect("more than one function");
    quote! {
        #[doc = #docs]
        pub(crate) fn #all<S: crate::#trait_ident>(builder: crate::RouterBuilder<S>) -> crate::RouterBuilder<S> {
            #(let builder = #first(builder);)*
            #last(builder)
        }

        #(#chunks)*
    }
}

/// An operation's entry in `OPERATIONS`: its name, tag and path, and what differs from
/// `OperationInfo::BASE` (`GET`, 200, no selectors, other statuses, schemes, body, media types,
/// required headers or `Link` paging).
fn operation_info(api: &Api, op: &Operation) -> TokenStream {
    let (name, tag, method, path, status) = (&op.name, &op.tag, op.method.as_str(), &op.path.raw, op.response.status);
    let mut fields = vec![quote!(name: #name), quote!(tag: #tag)];
    if method != "GET" {
        fields.push(quote!(method: #method));
    }
    fields.push(quote!(path: #path));
    if !op.select.is_empty() {
        let select = selectors(&op.select);
        fields.push(quote!(select: #select));
    }
    if status != 200 {
        fields.push(quote!(status: #status));
    }
    let also: Vec<u16> = op.response.statuses().skip(1).collect();
    if !also.is_empty() {
        fields.push(quote!(also: &[#(#also),*]));
    }
    if op.auth.is_public() {
        fields.push(quote!(public: true));
    }
    let auth: Vec<TokenStream> = op
        .auth
        .alternatives()
        .iter()
        .map(|set| {
            let schemes = set.iter().map(|need| {
                let index = api.auth_schemes.iter().position(|s| s.name == need.scheme).expect("lowered scheme");
                quote!(SCHEMES[#index])
            });
            quote!(&[#(#schemes),*])
        })
        .collect();
    if !auth.is_empty() {
        fields.push(quote!(auth: &[#(#auth),*]));
    }
    if op.auth.has_scopes() {
        let scopes = op.auth.alternatives().iter().map(|set| {
            let per_scheme = set.iter().map(|need| {
                let scopes = &need.scopes;
                quote!(&[#(#scopes),*])
            });
            quote!(&[#(#per_scheme),*])
        });
        fields.push(quote!(scopes: &[#(#scopes),*]));
    }
    if let Some(body) = &op.body {
        let consumes = body.all_media_types();
        fields.push(quote!(has_body: true));
        fields.push(quote!(consumes: &[#(#consumes),*]));
    }
    // JSON is `OperationInfo::BASE`'s (a bodiless answer says it produces nothing).
    let produces = &op.response.media_types;
    if produces.len() != 1 || produces[0] != "application/json" {
        fields.push(quote!(produces: &[#(#produces),*]));
    }
    if op.server.streams_body {
        fields.push(quote!(streams: true));
    }
    let required: Vec<&String> = op.response.headers.iter().filter(|h| h.required).map(|h| &h.wire).collect();
    if !required.is_empty() {
        fields.push(quote!(headers: &[#(#required),*]));
    }
    if let Some(pagination) = op.pagination.as_ref().filter(|p| p.style == crate::model::PageStyle::Link) {
        let cursor = &pagination.cursor;
        fields.push(quote!(link_cursor: ::core::option::Option::Some(#cursor)));
    }
    let bodies = crate::emit::rust::error_bodies(api, op)
        .into_iter()
        .map(|(status, index)| quote!((#status, &ERROR_BODIES[#index])));
    let bodies: Vec<TokenStream> = bodies.collect();
    if !bodies.is_empty() {
        fields.push(quote!(errors: &[#(#bodies),*]));
    }
    // The runtime parses the path template into its segments once, when it builds the router.
    quote! {
        ::apigen_runtime::server::OperationInfo {
            #(#fields,)*
            ..::apigen_runtime::server::OperationInfo::BASE
        }
    }
}

/// `OperationInfo::select`.
fn selectors(select: &[crate::model::Selector]) -> TokenStream {
    let selectors = select.iter().map(|s| {
        let (name, value) = (&s.name, &s.value);
        match s.location {
            crate::model::SelectIn::Header => {
                quote!(::apigen_runtime::codegen::server::Selector::Header(#name, #value))
            }
            crate::model::SelectIn::Query => quote!(::apigen_runtime::codegen::server::Selector::Query(#name, #value)),
        }
    });
    quote!(&[#(#selectors),*])
}
