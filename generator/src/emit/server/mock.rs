//! `mock.rs` of the server crate: every group's trait implemented for the runtime's
//! `MockService`, which answers every operation through one function (feature `mock`).

use super::ServerEmitter;
use super::handlers::context_ty;
use crate::emit::features;
use crate::emit::rust::ident;
use crate::model::{ResponseBody, TypeRef};
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
                    ) -> impl ::core::future::Future<
                        Output = ::core::result::Result<#response, ::apigen_runtime::server::ApiError>,
                    > + ::core::marker::Send {
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
        quote! {
            //! [`MockService`] answers every operation through one function: a mock server for
            //! tests of clients, or a quick stand-in while the real service grows.

            pub use ::apigen_runtime::server::{MockCall, MockService};

            #(#impls)*
        }
    }
}
