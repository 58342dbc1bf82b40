//! `samples.rs` of the client crate: every operation called once through the typed client
//! with the spec's samples, for end-to-end tests against a server (feature `samples`).

use super::{ClientEmitter, is_copy};
use crate::emit::rust::{ident, inner_doc};
use crate::model::shape::{self, AnswerKind, ArgTarget, BodyStyle, SetterTarget};
use crate::model::{Operation, Tag, TypeRef};
use proc_macro2::TokenStream;
use quote::quote;

/// Sample calls per function: a function of a few hundred lines at most, whatever the group
/// (Microsoft Graph's one function of every call was 71,000 lines).
const CALLS_PER_FN: usize = 64;

/// Sample calls per file: a group of more operations is printed as parts, a file each
/// (`samples/<group>/part_<n>.rs`), so no file holds more than about a megabyte of Rust.
pub(super) const CALLS_PER_FILE: usize = 512;

/// A function adding sample calls to `calls`, with `body`.
fn calls_fn(visibility: TokenStream, name: &str, body: TokenStream) -> TokenStream {
    let name = ident(name);
    quote! {
        /// Adds these sample calls to `calls`.
        #visibility fn #name<'a>(client: &'a crate::Client, calls: &mut ::std::vec::Vec<crate::samples::Sample<'a>>) {
            #body
        }
    }
}

/// The files of a group's sample calls: `samples/<group>.rs`, and when the group has more than
/// [`CALLS_PER_FILE`] operations, one part each `samples/<group>/part_<n>.rs` (from 1).
pub(super) fn part_files(tag: &Tag, operations: usize) -> Vec<String> {
    let group = format!("client/src/samples/{}", tag.rust);
    let parts = operations.div_ceil(CALLS_PER_FILE);
    let mut files = vec![format!("{group}.rs")];
    if parts > 1 {
        files.extend((1..=parts).map(|n| format!("{group}/part_{n}.rs")));
    }
    files
}

impl ClientEmitter<'_> {
    /// `samples.rs`: the helpers, the sample client, and `calls()` gathering each group's
    /// calls from its module (a file each, `samples/<group>.rs`), in group order.
    pub(super) fn samples_module(&self) -> TokenStream {
        // An API whose every operation the import left out has no call to make.
        let client_arg = if self.api.operations.is_empty() { quote!(_client) } else { quote!(client) };
        // The helpers only where a call uses them: generated code has no dead code.
        let ops = &self.api.operations;
        let decodes = |op: &Operation| {
            op.body.as_ref().is_some_and(|b| b.ty != TypeRef::Bytes)
                || op.params.iter().any(|p| p.wire_form.is_decoded())
        };
        let sample_fn = ops.iter().any(decodes).then(|| {
            quote! {
                fn sample<T: ::apigen_runtime::FromJson>(json: &str) -> ::core::result::Result<T, Error> {
                    let value = ::apigen_runtime::serde_json::from_str(json).map_err(|e| Error::Config(e.to_string()))?;
                    ::apigen_runtime::codegen::decode(value, ::apigen_runtime::codegen::Mode::Lenient).map_err(|e| Error::Config(e.to_string()))
                }
            }
        });
        let to_json_fn = ops.iter().any(|op| !matches!(op.client.answer, AnswerKind::Empty | AnswerKind::Download)).then(|| {
            quote! {
                fn to_json<T: ::apigen_runtime::serde::Serialize>(value: &T) -> ::core::result::Result<::apigen_runtime::serde_json::Value, Error> {
                    ::apigen_runtime::serde_json::to_value(value).map_err(|e| Error::Config(e.to_string()))
                }
            }
        });
        let credentials = self.api.auth_schemes.iter().map(|scheme| {
            let name = &scheme.name;
            match scheme.kind {
                crate::model::SchemeKind::Basic => quote! { .basic(#name, "sample-user", "sample-password") },
                // Left to a signer, which the caller of the samples sets.
                crate::model::SchemeKind::Http { .. } => quote! {},
                _ => quote! { .token(#name, "sample-token") },
            }
        });
        let groups: Vec<_> = self.api.tags_with_operations().map(|tag| ident(&tag.rust)).collect();
        // No capacity from the count of operations: the file would change with every
        // operation added, and rebuild the client's crate root with it (issue 52, item 6).
        let gather = if groups.is_empty() {
            quote! { ::std::vec::Vec::new() }
        } else {
            quote! {
                let mut calls = ::std::vec::Vec::new();
                #(#groups::calls(client, &mut calls);)*
                calls
            }
        };
        quote! {
            //! Every operation called through the typed client with the spec's samples, for
            //! end-to-end tests against a server (feature `samples`).

            use crate::Client;
            use ::apigen_runtime::client::Error;

            /// A call in flight, answering the decoded response as JSON (`null` for
            /// operations without body).
            pub type SampleCall<'a> = ::std::pin::Pin<::std::boxed::Box<dyn ::core::future::Future<
                Output = ::core::result::Result<::apigen_runtime::serde_json::Value, Error>,
            > + ::core::marker::Send + 'a>>;

            /// An operation's name and its sample call.
            pub type Sample<'a> = (&'static str, SampleCall<'a>);

            #sample_fn
            #to_json_fn

            /// A client of the API at `base_url` holding a sample credential for every scheme
            /// (the token `sample-token`; the user `sample-user` with the password
            /// `sample-password`), so every sample call carries what its operation asks for.
            pub fn client(base_url: &str) -> ::core::result::Result<Client, Error> {
                crate::ClientBuilder::new(base_url, crate::USER_AGENT, crate::SCHEMES, &crate::ERRORS) #(#credentials)* .build()
            }

            /// Every operation of the spec, each called once with its samples, group by group.
            pub fn calls<'a>(#client_arg: &'a Client) -> ::std::vec::Vec<Sample<'a>> {
                #gather
            }

            #(#[rustfmt::skip] mod #groups;)*
        }
    }

    /// `samples/<group>.rs` (`part` 0), or its part `part` (from 1) when the group is printed
    /// in parts: the sample calls of the group's operations, [`CALLS_PER_FN`] to a function.
    pub(super) fn samples_part(&self, tag: &Tag, part: usize) -> TokenStream {
        let ops: Vec<&Operation> = self.api.operations_of(&tag.name).collect();
        let parts = ops.len().div_ceil(CALLS_PER_FILE);
        if parts > 1 && part == 0 {
            let modules: Vec<_> = (1..=parts).map(|n| ident(&format!("part_{n}"))).collect();
            let docs = inner_doc(&format!("The sample calls of the operations of {}, in {parts} parts.", tag.title));
            let calls = calls_fn(quote!(pub(super)), "calls", quote! { #(#modules::calls(client, calls);)* });
            return quote! {
                #docs

                #(#[rustfmt::skip] mod #modules;)*

                #calls
            };
        }
        // A part holds the operations whose name hashes to it, as a group module's parts do.
        let (ops, docs) = if parts > 1 {
            let own = ops.into_iter().filter(|op| crate::emit::rust::part_of_name(&op.name, parts) == part);
            (own.collect(), format!(", part {part} of {parts}"))
        } else {
            (ops, String::new())
        };
        let docs = inner_doc(&format!("The sample calls of the operations of {}{docs}.", tag.title));
        let chunks: Vec<TokenStream> = ops
            .chunks(CALLS_PER_FN)
            .map(|chunk| {
                let calls = chunk.iter().map(|op| self.sample_call(op));
                quote! { calls.extend([#(#calls)*]); }
            })
            .collect();
        if let [chunk] = chunks.as_slice() {
            let calls = calls_fn(quote!(pub(super)), "calls", chunk.clone());
            return quote! { #docs #calls };
        }
        let names: Vec<String> = (1..=chunks.len()).map(|n| format!("chunk_{n}")).collect();
        let each = names.iter().map(|name| ident(name));
        let calls = calls_fn(quote!(pub(super)), "calls", quote! { #(#each(client, calls);)* });
        let chunks = names.iter().zip(chunks).map(|(name, chunk)| calls_fn(TokenStream::new(), name, chunk));
        quote! {
            #docs
            #calls
            #(#chunks)*
        }
    }

    /// `let body = ..;`: the sample call's body, decoded from the body's sample.
    fn sample_body(&self, op: &Operation) -> TokenStream {
        let decode_body = match (&op.body, crate::model::sample::of_body(self.api, op)) {
            // A raw body's sample is a few bytes of text (its variant's `Bytes` beside
            // alternatives).
            (Some(body), _) if body.ty == TypeRef::Bytes && !body.alternatives.is_empty() => quote! {
                let body = ::apigen_runtime::Bytes::from_static(b"sample bytes");
            },
            (Some(body), _) if body.ty == TypeRef::Bytes => quote! {
                let body = ::apigen_runtime::client::Upload::bytes("sample bytes");
            },
            // A multipart body's files are sampled as text (`FilePart` reads a string leniently).
            (Some(body), Some(json)) => {
                let ty = self.paths.ty(self.api, &body.ty);
                let json = json.to_string();
                quote! {
                    let body: #ty = match crate::samples::sample(#json) {
                        ::core::result::Result::Ok(body) => body,
                        ::core::result::Result::Err(error) => return ::core::result::Result::Err(error),
                    };
                }
            }
            _ => TokenStream::new(),
        };
        // Beside alternatives, the sample is the body's own variant (its type may convert
        // into none: two variants holding text).
        match op.body.as_ref().filter(|b| !b.alternatives.is_empty() && !decode_body.is_empty()) {
            Some(body) => {
                let content = self.paths.content_ty(op);
                let variant = ident(&body.variant);
                let value = if body.untyped { quote!(::core::option::Option::Some(body)) } else { quote!(body) };
                quote! { #decode_body let body = #content::#variant(#value); }
            }
            None => decode_body,
        }
    }

    /// One operation's sample call: its name and the call in flight.
    fn sample_call(&self, op: &Operation) -> TokenStream {
        let name = &op.name;
        let tag = ident(&self.api.tag_of(op).rust);
        let method = ident(&op.client.method);
        // An object or JSON parameter's sample is decoded from its JSON, as a body's is.
        let objects = op.params.iter().filter(|p| p.wire_form.is_decoded()).map(|p| {
            let local = ident(&format!("__{}", p.rust));
            let ty = self.paths.ty(self.api, &p.ty);
            let json = crate::model::sample::of_param(self.api, p).to_string();
            quote! {
                let #local: #ty = match crate::samples::sample(#json) {
                    ::core::result::Result::Ok(value) => value,
                    ::core::result::Result::Err(error) => return ::core::result::Result::Err(error),
                };
            }
        });
        let objects: Vec<TokenStream> = objects.collect();
        let value_of = |param: &crate::model::Param| {
            if param.wire_form.is_decoded() {
                let local = ident(&format!("__{}", param.rust));
                quote!(#local)
            } else {
                self.sample_literal(param)
            }
        };
        let args = op.client.args.iter().map(|arg| match arg.target {
            ArgTarget::Param(index) => value_of(Self::param(op, index)),
            ArgTarget::Body => quote!(body.clone()),
            ArgTarget::Field(index) => {
                let field = &shape::body_object(self.api, op).expect("a body object").1.fields[index];
                let member = ident(&field.rust);
                match (field.boxed, is_copy(&field.ty)) {
                    (true, _) => quote!((*body.#member).clone()),
                    (false, true) => quote!(body.#member),
                    (false, false) => quote!(body.#member.clone()),
                }
            }
        });
        let decode_body = self.sample_body(op);
        let setters = op.client.setters.iter().filter_map(|setter| {
            let name = ident(&setter.name);
            match setter.target {
                SetterTarget::Param(index) => {
                    let value = value_of(Self::param(op, index));
                    Some(quote! { .#name(#value) })
                }
                SetterTarget::Body if matches!(op.client.body, BodyStyle::Fields | BodyStyle::Optional) => {
                    Some(quote! { .#name(body) })
                }
                _ => None,
            }
        });
        let deprecated = op.deprecated.as_ref().map(|_| quote!(#[allow(deprecated)]));
        let finish = match op.client.answer {
            AnswerKind::Empty => quote! { .map(|()| ::apigen_runtime::serde_json::Value::Null) },
            AnswerKind::Download => {
                quote! { .map(|download| ::apigen_runtime::serde_json::Value::from(download.status)) }
            }
            _ => quote! { .and_then(|value| crate::samples::to_json(&value)) },
        };
        quote! {
            (#name, ::std::boxed::Box::pin(async move {
                #(#objects)*
                #decode_body
                #deprecated
                let result = client.#tag().#method(#(#args),*) #(#setters)* .send().await;
                result #finish
            }) as crate::samples::SampleCall<'a>),
        }
    }
}
