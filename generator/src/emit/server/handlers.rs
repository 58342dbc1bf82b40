//! An operation's handler: its method of the group's trait, the router builder's setter of
//! it, how its answer is written, and the statuses it chooses among.

use super::ServerEmitter;
use crate::emit::rust::{doc, ident};
use crate::emit::text::operation_doc;
use crate::model::shape::AnswerKind;
use crate::model::{Operation, ResponseBody, TypeRef};
use proc_macro2::TokenStream;
use quote::quote;

impl ServerEmitter<'_> {
    pub(super) fn trait_method(&self, op: &Operation) -> TokenStream {
        let method = ident(&op.rust);
        let request = ident(&op.names.request);
        let response = self.response_ty(op);
        let context = context_ty(op, quote!(Self::Principal));
        let docs = doc(&operation_doc(self.api, op));
        let deprecated = op.deprecated.as_ref().map(|d| {
            let note = match (&d.replacement, &d.note) {
                (Some(r), Some(n)) => format!("replaced by `{r}`: {n}"),
                (Some(r), None) => format!("replaced by `{r}`"),
                (None, Some(n)) => n.clone(),
                (None, None) => "deprecated by the spec".to_owned(),
            };
            quote! { #[deprecated(note = #note)] }
        });
        quote! {
            #docs
            #deprecated
            fn #method(
                &self,
                context: #context,
                request: #request,
            ) -> impl ::apigen_runtime::server::Handled<#response>;
        }
    }

    /// The builder's setter of an operation's handler.
    pub(super) fn setter(&self, op: &Operation) -> TokenStream {
        let method = ident(&op.rust);
        let request = ident(&op.names.request);
        let response = self.response_ty(op);
        let context = context_ty(op, quote!(S::Principal));
        let name = &op.name;
        let access = if op.auth.is_public() { quote!(rt::Public) } else { quote!(rt::Authenticated) };
        let (answer, answer_fn) = self.answer(op);
        let docs = doc(&format!(
            "Serves `{}` (`{} {}`) with `handler`: {}",
            op.name,
            op.method.as_str(),
            op.path.raw,
            op.summary
        ));
        quote! {
            #docs
            #[must_use]
            pub fn #method(
                mut self,
                handler: impl ::apigen_runtime::server::Handler<S, #context, #request, #response>,
            ) -> Self {
                #answer_fn
                self.routes.set(#access, #name, #request::from_input, #answer, handler);
                self
            }
        }
    }

    /// What the handler answers: the operation's response type, or a [`Download`] for raw
    /// bytes (as the crate re-exports it).
    ///
    /// [`Download`]: https://docs.rs/apigen-runtime/latest/apigen_runtime/server/struct.Download.html
    pub(super) fn response_ty(&self, op: &Operation) -> TokenStream {
        match &op.response.body {
            ResponseBody::Value(TypeRef::Bytes) if !op.response.is_varied() => {
                quote!(crate::Download)
            }
            _ => self.paths.response_ty(self.api, op),
        }
    }

    /// How the router writes the handler's value: JSON, no body, or (for an operation whose
    /// statuses answer different bodies) a function matching the answer's variant, defined
    /// in the setter.
    fn answer(&self, op: &Operation) -> (TokenStream, TokenStream) {
        let answer = match op.server.answer {
            // A HEAD answer says the media type its GET would send.
            AnswerKind::Empty if !op.response.media_types.is_empty() => {
                quote!(rt::bodiless)
            }
            AnswerKind::Empty => quote!(rt::empty),
            AnswerKind::Download => quote!(rt::download),
            AnswerKind::Text => quote!(rt::text),
            AnswerKind::Json => quote!(rt::json),
            AnswerKind::Varied => return (quote!(answer), self.answer_function(op)),
        };
        (answer, TokenStream::new())
    }

    /// The function writing an answer enumeration's variant with its status.
    fn answer_function(&self, op: &Operation) -> TokenStream {
        let response = self.response_ty(op);
        let arms = op.response.bodies().map(|(status, body)| {
            let variant = ident(&crate::model::status_variant(status));
            match body {
                ResponseBody::Empty => {
                    quote! { #response::#variant => rt::empty((), #status, media), }
                }
                _ => quote! { #response::#variant(body) => rt::json(body, #status, media), },
            }
        });
        quote! {
            fn answer(
                value: #response,
                _: u16,
                media: &'static str,
            ) -> ::core::result::Result<rt::axum::response::Response, crate::ApiError> {
                match value { #(#arms)* }
            }
        }
    }
}

/// The context type of an operation's handler: the principal (none when public) and the
/// statuses it may choose. `Context` and `Anonymous` are named as the crate re-exports them
/// (its root's names, reserved: `model::crates::SERVER_ROOT`), the path a handler's author
/// writes, and 39 bytes shorter in each of an operation's two signatures than the runtime's.
pub(super) fn context_ty(op: &Operation, principal: TokenStream) -> TokenStream {
    let principal = if op.auth.is_public() { quote!(crate::Anonymous) } else { principal };
    if !op.server.chooses_status {
        // `OnlyStatus` is the default.
        return quote!(crate::Context<#principal>);
    }
    let status = ident(&op.names.status);
    quote!(crate::Context<#principal, crate::#status>)
}

/// The enumeration of an operation's success statuses, when it declares more than one.
pub(super) fn status_enum(op: &Operation) -> Option<TokenStream> {
    if !op.server.chooses_status {
        return None;
    }
    let name = ident(&op.names.status);
    let variants: Vec<(proc_macro2::Ident, u16)> =
        op.response.statuses().map(|code| (ident(&crate::model::status_variant(code)), code)).collect();
    let decls = variants.iter().enumerate().map(|(i, (variant, code))| {
        let text = if i == 0 { format!("{code}, the default.") } else { format!("{code}.") };
        let default = (i == 0).then(|| quote!(#[default]));
        quote! { #[doc = #text] #default #variant, }
    });
    let arms = variants.iter().map(|(variant, code)| quote! { #name::#variant => #code, });
    let docs = doc(&format!("The success statuses of `{}`: a handler chooses one with `context.set_status`.", op.name));
    Some(quote! {
        #docs
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub enum #name { #(#decls)* }

        impl ::apigen_runtime::server::Status for #name {
            fn code(self) -> u16 {
                match self { #(#arms)* }
            }
        }
    })
}
