//! How a request's answer is read: the operation's answer kind (`send` and
//! `send_with_response` are the generic `Request`'s, written once in the crate root), the
//! decoding by status of an operation whose statuses answer different bodies, and `.stream()`
//! following the pages of a list.

use super::ClientEmitter;
use crate::emit::rust::{doc, ident, paging};
use crate::model::shape::AnswerKind;
use crate::model::{Operation, PageStyle, ResponseBody};
use proc_macro2::TokenStream;
use quote::quote;

impl ClientEmitter<'_> {
    /// `type Kind = ..;` of the operation's parameters: how its answer is read.
    pub(super) fn kind(&self, op: &Operation) -> TokenStream {
        let kind = match op.client.answer {
            AnswerKind::Varied => quote!(Varied<Self>),
            AnswerKind::Download => quote!(Raw),
            AnswerKind::Text => quote!(Text),
            AnswerKind::Empty => quote!(Empty),
            AnswerKind::Json => {
                let response = self.paths.response_ty(self.api, op);
                quote!(Json<#response>)
            }
        };
        quote! { type Kind = rt::#kind; }
    }

    /// For an operation whose statuses answer different bodies: the answer decoded by its
    /// status into the answer enumeration (a success status the spec does not list is read as
    /// the default status's body).
    pub(super) fn decode_answer(&self, op: &Operation) -> Option<TokenStream> {
        if !matches!(op.client.answer, AnswerKind::Varied) {
            return None;
        }
        let params = ident(&op.names.request);
        let response = self.paths.response_ty(self.api, op);
        let variant_of = |status: u16, body: &ResponseBody| {
            let variant = ident(&crate::model::status_variant(status));
            match body {
                ResponseBody::Value(ty) => {
                    let ty = self.paths.ty(self.api, ty);
                    quote! { #response::#variant(rt::variant::<#ty>(answer)?) }
                }
                _ => quote! { #response::#variant },
            }
        };
        let arms = op.response.bodies().skip(1).map(|(status, body)| {
            let value = variant_of(status, body);
            quote! { #status => #value, }
        });
        let fallback = variant_of(op.response.status, &op.response.body);
        Some(quote! {
            impl rt::DecodeAnswer for #params {
                type Value = #response;
                fn decode(answer: &rt::Answer) -> ::core::result::Result<#response, ::apigen_runtime::client::Error> {
                    ::core::result::Result::Ok(match answer.status { #(#arms)* _ => #fallback })
                }
            }
        })
    }

    /// `.stream()`: every item of every page, as the operation's pagination style says.
    pub(super) fn stream(&self, op: &Operation) -> Option<TokenStream> {
        if !op.client.streams {
            return None;
        }
        let ResponseBody::Page { item, .. } = &op.response.body else { return None };
        let pagination = op.pagination.as_ref()?;
        let item = self.paths.ty(self.api, item);
        let cursor = &pagination.cursor;
        let follows = match &pagination.style {
            PageStyle::Cursor { next } => format!("the cursor at `{next}` of each page, passed as `{cursor}`"),
            PageStyle::HasMore { has_more, item_id } => {
                format!("`{item_id}` of each page's last item, passed as `{cursor}`, while `{has_more}` is true")
            }
            PageStyle::Offset => format!("the offset `{cursor}`, until a page is empty"),
            PageStyle::Page => format!("the page number `{cursor}`, until a page is empty"),
            PageStyle::Link => "the `Link` header's `rel=\"next\"` URL".to_owned(),
        };
        let paging = paging(pagination);
        let text = format!(
            "Every item of every page, following {follows}, with the same query. Fails after the client's page guard (1000 pages unless set), or when the service repeats a cursor."
        );
        let docs = doc(&text);
        Some(quote! {
            #docs
            pub fn stream(self) -> ::apigen_runtime::client::Items<#item> {
                const PAGING: ::apigen_runtime::codegen::Paging = #paging;
                self.core.try_stream::<#item>(self.call(), &PAGING)
            }
        })
    }
}
