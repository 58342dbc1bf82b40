//! `mock.rs` of the server crate and its parts, `mock/<group>.rs`: every group's trait
//! implemented for the runtime's `MockService`, which answers every operation through one
//! function (feature `mock`), and each operation's sample response.

use super::ServerEmitter;
use super::handlers::context_ty;
use crate::emit::features;
use crate::emit::rust::{ident, inner_doc, paging};
use crate::model::{Operation, Pagination, ResponseBody, Tag, TypeKind, TypeRef, sample};
use proc_macro2::TokenStream;
use quote::quote;

impl ServerEmitter<'_> {
    /// `mock.rs`: the service, `samples()`, and one module per group (a file each, declared
    /// under the group's feature), so a build with some groups reads only theirs and no file
    /// holds the whole API's samples (Microsoft Graph's were 21 MB of Rust in one table).
    pub(super) fn mock_module(&self) -> TokenStream {
        let (parts, tables): (Vec<TokenStream>, Vec<TokenStream>) = self
            .api
            .tags_with_operations()
            .map(|tag| {
                let cfg = features::cfg_group(tag);
                let part = ident(&tag.rust);
                // A group printed in parts has a table in each.
                let parts = crate::emit::rust::part_count(self.api.operations_of(&tag.name).count());
                let tables = if parts == 1 {
                    vec![quote! { #cfg #part::SAMPLES }]
                } else {
                    let names = (1..=parts).map(|n| ident(&format!("part_{n}")));
                    names.map(|name| quote! { #cfg #part::#name::SAMPLES }).collect()
                };
                (quote! { #cfg #[rustfmt::skip] mod #part; }, quote! { #(#tables),* })
            })
            .unzip();
        quote! {
            //! [`MockService`] answers every operation through one function: a mock server for
            //! tests of clients, or a quick stand-in while the real service grows.

            pub use ::apigen_runtime::server::{MockAnswer, MockCall, MockService};

            /// A [`MockService`] answering every operation with the spec's sample of its
            /// success response (`null` where it has no body), accepting every credential:
            /// what the API promises, for client tests and OpenAPI conformance runs
            /// (`router(mock::samples())`).
            pub fn samples() -> MockService {
                MockService::answering_groups(GROUPS)
            }

            /// Each group's sample responses.
            const GROUPS: &[&[MockAnswer]] = &[#(#tables),*];

            #(#parts)*
        }
    }

    /// `mock/<group>.rs` (`part` 0): the sample response of each operation of the group, and
    /// the group's trait implemented for `MockService`; for a group of more than
    /// [`OPERATIONS_PER_PART`] operations, the samples are in its parts, part `part` (from 1)
    /// `mock/<group>/part_<part>.rs`.
    ///
    /// [`OPERATIONS_PER_PART`]: crate::emit::rust::OPERATIONS_PER_PART
    pub(super) fn mock_part(&self, tag: &Tag, part: usize) -> TokenStream {
        let ops: Vec<&Operation> = self.api.operations_of(&tag.name).collect();
        let parts = crate::emit::rust::part_count(ops.len());
        if part > 0 {
            let ops = crate::emit::rust::part_of(&ops, part);
            let samples = ops.iter().map(|op| self.mock_answer(op, quote!(crate::mock::MockAnswer)));
            let docs =
                inner_doc(&format!("The mock's answers to the operations of {}, part {part} of {parts}.", tag.title));
            return quote! {
                #docs

                /// The sample response of each operation of the part.
                pub(in crate::mock) const SAMPLES: &[crate::mock::MockAnswer] = &[#(#samples),*];
            };
        }
        let trait_ident = ident(&tag.names.server_trait);
        let methods = ops.iter().map(|op| self.mock_method(op));
        let samples = if parts == 1 {
            let samples = ops.iter().map(|op| self.mock_answer(op, quote!(super::MockAnswer)));
            quote! {
                /// The sample response of each operation of the group.
                pub(super) const SAMPLES: &[super::MockAnswer] = &[#(#samples),*];
            }
        } else {
            crate::emit::rust::part_modules(parts, false)
        };
        let docs = inner_doc(&format!("The mock's answers to the operations of {}.", tag.title));
        quote! {
            #docs

            #samples

            impl crate::#trait_ident for super::MockService {
                #(#methods)*
            }
        }
    }

    /// The trait method answering `op` through the mock's function.
    fn mock_method(&self, op: &Operation) -> TokenStream {
        let method = ident(&op.rust);
        let request = ident(&op.names.request);
        let response = self.response_ty(op);
        let name = &op.name;
        let call = match (&op.response.body, op.response.is_varied()) {
            (ResponseBody::Value(TypeRef::Bytes), false) => quote! { self.call_download(#name, &context, &request) },
            (ResponseBody::Empty, false) => quote! { self.call_empty(#name, &context, &request) },
            (_, false) => quote! { self.call(#name, &context, &request) },
            // The mock's JSON answers the default status; its variant wraps it.
            (ResponseBody::Empty, true) => {
                let variant = ident(&crate::model::status_variant(op.response.status));
                quote! { ::std::future::ready(self.call_empty(#name, &context, &request).into_inner().map(|()| #response::#variant)) }
            }
            (ResponseBody::Value(ty), true) => {
                let variant = ident(&crate::model::status_variant(op.response.status));
                let body = self.paths.ty(self.api, ty);
                quote! { ::std::future::ready(self.call::<#body>(#name, &context, &request).into_inner().map(#response::#variant)) }
            }
            (ResponseBody::Page { .. }, true) => unreachable!("lowering refuses a varied page"),
        };
        let allow = op.deprecated.as_ref().map(|_| quote!(#[allow(deprecated)]));
        let context = context_ty(op, quote!(::std::string::String));
        quote! {
            #allow
            fn #method(
                &self,
                context: #context,
                request: crate::#request,
            ) -> impl ::apigen_runtime::server::Handled<#response> {
                #call
            }
        }
    }

    /// `op`'s sample response: its body as JSON text, and the headers it declares.
    fn mock_answer(&self, op: &Operation, answer: TokenStream) -> TokenStream {
        let name = &op.name;
        let body = sample::of_response(self.api, op).unwrap_or(serde_json::Value::Null).to_string();
        let headers = op.response.headers.iter().map(|header| {
            let wire = &header.wire;
            let value = match sample::of_response_header(self.api, header) {
                serde_json::Value::String(text) => text,
                other => other.to_string(),
            };
            quote! { (#wire, #value) }
        });
        // A list's sample is its first page; the mock answers a following one as the last.
        let paging = match (&op.response.body, &op.pagination) {
            (ResponseBody::Page { envelope, .. }, Some(pagination)) => {
                let min_items =
                    op.response.min_items.unwrap_or_else(|| self.envelope_min_items(envelope.as_deref(), pagination));
                let min_items = proc_macro2::Literal::u64_unsuffixed(min_items);
                let paging = paging(pagination);
                quote!(::std::option::Option::Some(::apigen_runtime::server::MockPaging {
                    paging: #paging,
                    min_items: #min_items,
                }))
            }
            _ => quote!(::std::option::Option::None),
        };
        quote! {
            #answer { operation: #name, body: #body, headers: &[#(#headers),*], paging: #paging }
        }
    }
}

impl ServerEmitter<'_> {
    /// The fewest items a page in a named envelope holds: its list field's `min_items` (or
    /// `exact_items`), when the items are a field of the envelope itself; else 0.
    fn envelope_min_items(&self, envelope: Option<&str>, pagination: &Pagination) -> u64 {
        let Some(envelope) = envelope else { return 0 };
        let Some(field) = pagination.items.strip_prefix('/').filter(|f| !f.contains('/')) else { return 0 };
        let TypeKind::Object(object) = &self.api.ty(envelope).kind else { return 0 };
        let list = object.fields.iter().find(|f| f.wire == field);
        list.and_then(|f| f.constraints.exact_items.or(f.constraints.min_items)).unwrap_or(0)
    }
}
