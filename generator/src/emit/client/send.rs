//! Sending a builder's request: `send` and `send_with_response` as the answer's kind says,
//! and `.stream()` following the pages of a list.

use super::ClientEmitter;
use crate::emit::rust::{doc, ident};
use crate::model::shape::AnswerKind;
use crate::model::{Operation, PageStyle, ResponseBody};
use proc_macro2::TokenStream;
use quote::quote;

impl ClientEmitter<'_> {
    /// `self.call()`, with `?` when building the request can fail (a body, an object query
    /// parameter).
    fn call_expr(&self, op: &Operation) -> TokenStream {
        if self.api.call_can_fail(op) {
            quote! { self.call()? }
        } else {
            quote! { self.call() }
        }
    }

    pub(super) fn send(&self, op: &Operation) -> TokenStream {
        let core = ident(&op.client.members.core);
        let call = self.call_expr(op);
        match op.client.answer {
            AnswerKind::Varied => self.send_varied(op),
            AnswerKind::Download => quote! {
                /// Sends the request; the answer's bytes arrive as they are read from the
                /// returned download (never held whole unless asked).
                pub async fn send(self) -> ::core::result::Result<::apigen_runtime::client::Download, ::apigen_runtime::client::Error> {
                    self.#core.send_download(#call).await
                }
            },
            AnswerKind::Text => quote! {
                /// Sends the request and reads the answer's text.
                pub async fn send(self) -> ::core::result::Result<::std::string::String, ::apigen_runtime::client::Error> {
                    self.#core.send_text(#call).await
                }
            },
            AnswerKind::Empty | AnswerKind::Json => self.send_decoded(op),
        }
    }

    /// `send` and `send_with_response` of an answer decoded from JSON (or without body).
    fn send_decoded(&self, op: &Operation) -> TokenStream {
        let core = ident(&op.client.members.core);
        let response = self.paths.response_ty(self.api, op);
        let text = match &op.response.body {
            ResponseBody::Empty => "Sends the request; `Ok(())` when the service answered with success.",
            ResponseBody::Page { .. } => "Sends the request: one page (`.stream()` reads them all).",
            ResponseBody::Value(_) => "Sends the request and decodes the answer.",
        };
        let docs = doc(text);
        let (body, with_response) = match op.client.answer {
            AnswerKind::Empty => (
                quote! { self.#core.send_empty(call).await },
                quote! { self.#core.send_empty_with_response(call).await },
            ),
            _ => (
                quote! { self.#core.send::<#response>(call).await },
                quote! { self.#core.send_with_response::<#response>(call).await },
            ),
        };
        let call = self.call_expr(op);
        quote! {
            #docs
            pub async fn send(self) -> ::core::result::Result<#response, ::apigen_runtime::client::Error> {
                let call = #call;
                #body
            }
            /// Like `send`, with the status and headers of the answer.
            pub async fn send_with_response(self) -> ::core::result::Result<::apigen_runtime::client::Response<#response>, ::apigen_runtime::client::Error> {
                let call = #call;
                #with_response
            }
        }
    }

    /// `send` of an operation whose statuses answer different bodies: the answer decoded by
    /// its status into the answer enumeration (a success status the spec does not list is
    /// read as the default status's body).
    fn send_varied(&self, op: &Operation) -> TokenStream {
        let core = ident(&op.client.members.core);
        let response = self.paths.response_ty(self.api, op);
        let variant_of = |status: u16, body: &ResponseBody| {
            let variant = ident(&crate::model::status_variant(status));
            match body {
                ResponseBody::Value(ty) => {
                    let ty = self.paths.ty(self.api, ty);
                    quote! { #response::#variant(::apigen_runtime::codegen::client::decode_body::<#ty>(&answer.body)?) }
                }
                _ => quote! { #response::#variant },
            }
        };
        let arms = op.response.bodies().skip(1).map(|(status, body)| {
            let value = variant_of(status, body);
            quote! { #status => #value, }
        });
        let fallback = variant_of(op.response.status, &op.response.body);
        let call = self.call_expr(op);
        let docs = doc("Sends the request and decodes the answer by its status (one variant per status).");
        quote! {
            fn decode_answer(answer: &::apigen_runtime::codegen::client::Answer) -> ::core::result::Result<#response, ::apigen_runtime::client::Error> {
                ::core::result::Result::Ok(match answer.status { #(#arms)* _ => #fallback })
            }

            #docs
            pub async fn send(self) -> ::core::result::Result<#response, ::apigen_runtime::client::Error> {
                let answer = self.#core.send_raw(#call).await?;
                Self::decode_answer(&answer)
            }

            /// Like `send`, with the status and headers of the answer.
            pub async fn send_with_response(self) -> ::core::result::Result<::apigen_runtime::client::Response<#response>, ::apigen_runtime::client::Error> {
                let answer = self.#core.send_raw(#call).await?;
                let body = Self::decode_answer(&answer)?;
                ::core::result::Result::Ok(::apigen_runtime::client::Response { status: answer.status, headers: answer.headers, body, not_understood: ::std::vec::Vec::new() })
            }
        }
    }

    /// `.stream()`: every item of every page, as the operation's pagination style says.
    pub(super) fn stream(&self, op: &Operation) -> Option<TokenStream> {
        let core = ident(&op.client.members.core);
        if !op.client.streams {
            return None;
        }
        let ResponseBody::Page { item, .. } = &op.response.body else { return None };
        let pagination = op.pagination.as_ref()?;
        let item = self.paths.ty(self.api, item);
        let (cursor, items) = (&pagination.cursor, &pagination.items);
        let (style, follows) = match &pagination.style {
            PageStyle::Cursor { next } => {
                (quote!(Cursor { next: #next }), format!("the cursor at `{next}` of each page, passed as `{cursor}`"))
            }
            PageStyle::HasMore { has_more, item_id } => (
                quote!(HasMore { has_more: #has_more, item_id: #item_id }),
                format!("`{item_id}` of each page's last item, passed as `{cursor}`, while `{has_more}` is true"),
            ),
            PageStyle::Offset => (quote!(Offset), format!("the offset `{cursor}`, until a page is empty")),
            PageStyle::Page => (quote!(Page), format!("the page number `{cursor}`, until a page is empty")),
            PageStyle::Link => (quote!(Link), "the `Link` header's `rel=\"next\"` URL".to_owned()),
        };
        let text = format!(
            "Every item of every page, following {follows}, with the same query. Fails after the client's page guard (1000 pages unless set), or when the service repeats a cursor."
        );
        let docs = doc(&text);
        let stream = if self.api.call_can_fail(op) { quote!(try_stream) } else { quote!(stream) };
        Some(quote! {
            #docs
            pub fn stream(self) -> ::apigen_runtime::client::Items<#item> {
                const PAGING: ::apigen_runtime::codegen::Paging = ::apigen_runtime::codegen::Paging {
                    cursor: #cursor,
                    items: #items,
                    style: ::apigen_runtime::codegen::PageStyle::#style,
                };
                self.#core.#stream::<#item>(self.call(), &PAGING)
            }
        })
    }
}
