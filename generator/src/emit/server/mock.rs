//! `mock.rs` of the server crate: every group's trait implemented for the runtime's
//! `MockService`, which answers every operation through one function (feature `mock`).

use super::ServerEmitter;
use super::handlers::context_ty;
use crate::emit::features;
use crate::emit::rust::ident;
use crate::model::{ResponseBody, TypeRef, sample};
use proc_macro2::TokenStream;
use quote::quote;

impl ServerEmitter<'_> {
    pub(super) fn mock_module(&self) -> TokenStream {
        let impls = self.api.tags_with_operations().map(|tag| {
            let trait_ident = ident(&tag.names.server_trait);
            let methods = self.api.operations_of(&tag.name).map(|op| {
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
            });
            let cfg = features::cfg_group(tag);
            quote! {
                #cfg
                impl crate::#trait_ident for MockService {
                    #(#methods)*
                }
            }
        });
        let samples = self.samples_table();
        quote! {
            //! [`MockService`] answers every operation through one function: a mock server for
            //! tests of clients, or a quick stand-in while the real service grows.

            pub use ::apigen_runtime::server::{MockAnswer, MockCall, MockService};

            /// A [`MockService`] answering every operation with the spec's sample of its
            /// success response (`null` where it has no body), accepting every credential:
            /// what the API promises, for client tests and OpenAPI conformance runs
            /// (`router(mock::samples())`).
            pub fn samples() -> MockService {
                MockService::answering(SAMPLES)
            }

            #samples

            #(#impls)*
        }
    }

    /// `SAMPLES`: each operation's sample response (body as JSON text, and the headers it
    /// declares), by its name in the spec.
    fn samples_table(&self) -> TokenStream {
        let entries = self.api.operations.iter().map(|op| {
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
            quote! { MockAnswer { operation: #name, body: #body, headers: &[#(#headers),*] } }
        });
        quote! {
            /// Each operation's sample response.
            const SAMPLES: &[MockAnswer] = &[#(#entries),*];
        }
    }
}
