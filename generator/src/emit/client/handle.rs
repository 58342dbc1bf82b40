//! An operation's method on its group's handle, and its builder: members, setters and media
//! type enumerations, as its [`ClientShape`](crate::model::ClientShape) says.

use super::{ClientEmitter, field_init};
use crate::emit::rust::{doc, ident};
use crate::model::shape::{self, ArgTarget, BodyStyle, MediaChoice, SetterTarget};
use crate::model::{Field, Operation, Param, ParamIn, Presence, TypeRef, Usage};
use proc_macro2::{Ident, TokenStream};
use quote::quote;

impl ClientEmitter<'_> {
    /// The Rust type of an argument or setter taking a value of `ty`, and the expression
    /// converting the variable `var` into the stored value.
    pub(super) fn argument(&self, ty: &TypeRef, var: &Ident) -> (TokenStream, TokenStream) {
        let rust = self.paths.ty(self.api, ty);
        match ty {
            TypeRef::Bytes => {
                (quote!(impl ::core::convert::Into<::apigen_runtime::client::Upload>), quote!(#var.into()))
            }
            TypeRef::String | TypeRef::Url | TypeRef::Named(_) => {
                (quote!(impl ::core::convert::Into<#rust>), quote!(#var.into()))
            }
            TypeRef::List(inner) => {
                let inner = self.paths.ty(self.api, inner);
                (
                    quote!(impl ::core::iter::IntoIterator<Item = impl ::core::convert::Into<#inner>>),
                    quote!(#var.into_iter().map(::core::convert::Into::into).collect()),
                )
            }
            _ => (rust, quote!(#var)),
        }
    }

    /// The argument or setter type of a body field, and the conversion of `var` (a boxed
    /// field takes its value whole).
    fn field_argument(&self, field: &Field, var: &Ident) -> (TokenStream, TokenStream) {
        if field.boxed {
            (self.paths.ty(self.api, &field.ty), quote!(::std::boxed::Box::new(#var)))
        } else {
            self.argument(&field.ty, var)
        }
    }

    /// The method of the group's handle starting a call: the positional arguments, every
    /// other member at its initial value.
    pub(super) fn handle_method(&self, op: &Operation) -> TokenStream {
        let shape = &op.client;
        let (method, builder, params) = (ident(&shape.method), ident(&op.names.builder), ident(&op.names.request));
        let docs = doc(&crate::emit::text::operation_doc(self.api, op));
        let mut args = Vec::new();
        let mut inits = Vec::new();
        let mut field_args = Vec::new();
        let mut body_init = None;
        for arg in &shape.args {
            let name = ident(&arg.name);
            match arg.target {
                ArgTarget::Param(index) => {
                    let (ty, convert) = self.argument(&Self::param(op, index).ty, &name);
                    args.push(quote! { #name: #ty });
                    inits.push(field_init(&ident(&Self::param(op, index).rust), convert));
                }
                ArgTarget::Field(index) => {
                    let field = &shape::body_object(self.api, op).expect("a body object").1.fields[index];
                    let (ty, convert) = self.field_argument(field, &name);
                    args.push(quote! { #name: #ty });
                    field_args.push((index, convert));
                }
                ArgTarget::Body => {
                    let (arg, init) = self.body_argument(op);
                    args.push(arg);
                    body_init = Some(init);
                }
            }
        }
        for choice in &shape.media {
            let member = ident(&choice.member);
            inits.push(quote! { #member: ::core::default::Default::default(), });
        }
        inits.extend(shape::ClientShape::optional_params(op).map(|(_, param)| optional_init(param)));
        match shape.body {
            BodyStyle::Fields => inits.push(self.body_literal(op, &field_args)),
            BodyStyle::Optional => inits.push(quote! { body: ::core::option::Option::None, }),
            BodyStyle::None | BodyStyle::Positional => inits.extend(body_init),
        }
        let deprecated = op.deprecated.as_ref().map(|d| {
            let note =
                d.replacement.as_ref().map_or("deprecated by the spec".to_owned(), |r| format!("replaced by `{r}`"));
            quote! { #[deprecated(note = #note)] }
        });
        // Every path parameter and required query parameter is an argument, as the API has
        // them: an operation with many says so rather than hiding them in setters.
        let many = (args.len() + 1 > 7).then(|| quote! { #[allow(clippy::too_many_arguments)] });
        // An operation with nothing to set holds a unit struct.
        let value = if inits.is_empty() { quote!(#params) } else { quote!(#params { #(#inits)* }) };
        quote! {
            #docs
            #deprecated
            #many
            pub fn #method(&self, #(#args),*) -> #builder<'a> {
                crate::Request::new(self.core, #value)
            }
        }
    }

    /// The argument taking the whole body, and its member's initial value.
    fn body_argument(&self, op: &Operation) -> (TokenStream, TokenStream) {
        let body = op.body.as_ref().expect("a body");
        if !body.alternatives.is_empty() {
            // Any value one variant alone carries converts (`place(order)`, `place(xml)`).
            let ty = self.paths.content_ty(op);
            (quote! { body: impl ::core::convert::Into<#ty> }, quote! { body: body.into(), })
        } else if body.ty == TypeRef::Bytes {
            let (ty, convert) = self.argument(&body.ty, &ident("body"));
            (quote! { body: #ty }, quote! { body: #convert, })
        } else {
            let ty = self.paths.ty(self.api, &body.ty);
            (quote! { body: #ty }, quote! { body, })
        }
    }

    /// The body of a [`BodyStyle::Fields`] call, as a struct literal: the required field from
    /// its argument, the others at their defaults.
    fn body_literal(&self, op: &Operation, field_args: &[(usize, TokenStream)]) -> TokenStream {
        let (def, object) = shape::body_object(self.api, op).expect("an object body");
        let mut members = Vec::new();
        for (index, field) in object.fields.iter().enumerate().filter(|(_, f)| f.constant.is_none()) {
            let member = ident(&field.rust);
            let value = match field.presence(def.usage) {
                Presence::Required => field_args.iter().find(|(i, _)| *i == index).expect("an argument").1.clone(),
                Presence::Optional | Presence::Nullable => quote!(::core::option::Option::None),
                Presence::TriState => quote!(::apigen_runtime::Patch::Absent),
                Presence::Defaulted => {
                    let default = field.default.as_ref().expect("defaulted");
                    self.paths.default_value(self.api, &field.ty, default)
                }
            };
            members.push(field_init(&member, value));
        }
        if object.additional.is_some() {
            members.push(quote! { extra: ::std::collections::BTreeMap::new(), });
        }
        let body_ty = ident(&def.rust);
        let root = &self.paths.types;
        quote! { body: #root::#body_ty { #(#members)* }, }
    }

    /// An operation's parameters and its builder (the crate's `Request` over them): the
    /// members, how they make the request, the setters, paging, and the media type
    /// enumerations.
    pub(super) fn builder(&self, op: &Operation) -> TokenStream {
        let shape = &op.client;
        let (name, params) = (ident(&op.names.builder), ident(&op.names.request));
        let members = self.builder_members(op);
        let fields = if members.is_empty() { quote!(;) } else { quote!({ #(#members)* }) };
        let setters: Vec<TokenStream> = shape.setters.iter().filter_map(|setter| self.setter(op, setter)).collect();
        let media_enums = shape.media.iter().map(|choice| media_enum(op, choice));
        let kind = self.kind(op);
        let call = self.call(op);
        let decode = self.decode_answer(op);
        let stream = self.stream(op);
        let sensitive = op.params.iter().any(|p| p.sensitive);
        let derive = if sensitive { quote!(#[derive(Clone)]) } else { quote!(#[derive(Debug, Clone)]) };
        let debug = sensitive.then(|| {
            crate::emit::rust::params_debug(quote!(#params), &params.to_string(), &op.params, op.body.is_some(), true)
        });
        let (method, path) = (op.method.as_str(), &op.path.raw);
        let docs = doc(&format!("A `{}` request (`{method} {path}`): set optional values, then `.send()`.", op.name));
        let params_docs = doc(&format!("The parameters of a `{}` request, set through [`{name}`].", op.name));
        let own = (!setters.is_empty() || stream.is_some()).then(|| {
            quote! {
                impl #name<'_> {
                    #(#setters)*
                    #stream
                }
            }
        });
        quote! {
            #params_docs
            #derive
            pub struct #params #fields
            #debug
            #docs
            pub type #name<'a> = crate::Request<'a, #params>;
            impl rt::Operation for #params {
                #kind
                #call
            }
            #decode
            #own
            #(#media_enums)*
        }
    }

    /// The builder's members holding the parameters, the body and the media type choices.
    fn builder_members(&self, op: &Operation) -> Vec<TokenStream> {
        let mut fields = Vec::new();
        for param in &op.params {
            let field = ident(&param.rust);
            let ty = self.paths.ty(self.api, &param.ty);
            let ty = if param.location == ParamIn::Path || param.required || matches!(param.ty, TypeRef::List(_)) {
                ty
            } else {
                quote!(::core::option::Option<#ty>)
            };
            fields.push(quote! { #field: #ty, });
        }
        if let Some(body) = &op.body {
            let ty = self.body_ty(op, body);
            fields.push(if op.client.body == BodyStyle::Optional {
                quote! { body: ::core::option::Option<#ty>, }
            } else {
                quote! { body: #ty, }
            });
        }
        for choice in &op.client.media {
            let (member, enumeration) = (ident(&choice.member), ident(&choice.enumeration));
            fields.push(quote! { #member: #enumeration, });
        }
        fields
    }

    /// One setter of a builder (`header` is the generic `Request`'s).
    fn setter(&self, op: &Operation, setter: &shape::Setter) -> Option<TokenStream> {
        let name = ident(&setter.name);
        Some(match setter.target {
            SetterTarget::Header => return None,
            SetterTarget::Param(index) => self.param_setter(Self::param(op, index), &name),
            SetterTarget::Body => self.body_setter(op, &name),
            SetterTarget::Field(index) | SetterTarget::Clear(index) => {
                let (def, object) = shape::body_object(self.api, op).expect("a body object");
                let place = match op.client.body {
                    BodyStyle::Optional => {
                        quote!(p.body.get_or_insert_with(::core::default::Default::default))
                    }
                    _ => quote!(p.body),
                };
                let field = &object.fields[index];
                let clear = matches!(setter.target, SetterTarget::Clear(_));
                self.field_setter(field, def.usage, &name, place, clear)
            }
            SetterTarget::Media(index) => {
                let choice = &op.client.media[index];
                let (member, enumeration) = (ident(&choice.member), ident(&choice.enumeration));
                let docs = doc(if choice.accept {
                    "The media type to answer in (`Accept`); the first the spec lists unless set."
                } else {
                    "The media type to send the body as; the first the spec lists unless set."
                });
                quote! {
                    #docs
                    pub fn #name(self, value: #enumeration) -> Self {
                        self.with(|p| p.#member = value)
                    }
                }
            }
        })
    }

    fn param_setter(&self, param: &Param, setter: &Ident) -> TokenStream {
        let field = ident(&param.rust);
        let (ty, convert) = self.argument(&param.ty, &ident("value"));
        let mut text = param.description.clone().unwrap_or_else(|| format!("Sets `{}`.", param.wire));
        if let Some(default) = &param.default {
            text.push_str(&format!("\n\nThe service assumes `{default}` when it is not set."));
        }
        let docs = doc(&text);
        let value =
            if matches!(param.ty, TypeRef::List(_)) { convert } else { quote!(::core::option::Option::Some(#convert)) };
        quote! {
            #docs
            pub fn #setter(self, value: #ty) -> Self {
                self.with(|p| p.#field = #value)
            }
        }
    }

    /// `.body(..)`: replaces the whole body, or gives the optional one.
    fn body_setter(&self, op: &Operation, name: &Ident) -> TokenStream {
        let body = op.body.as_ref().expect("a body");
        if op.client.body == BodyStyle::Optional && !body.alternatives.is_empty() {
            let ty = self.body_ty(op, body);
            return quote! {
                /// Sends this body, in the media type of its variant (none is sent otherwise).
                pub fn #name(self, body: impl ::core::convert::Into<#ty>) -> Self {
                    self.with(|p| p.body = ::core::option::Option::Some(body.into()))
                }
            };
        }
        if op.client.body == BodyStyle::Optional {
            let ty = self.body_ty(op, body);
            let docs = if body.optional {
                " Sends this body (none is sent otherwise)."
            } else {
                " Sends this body (`null` is sent otherwise, which the document's schema admits)."
            };
            return quote! {
                #[doc = #docs]
                pub fn #name(self, body: #ty) -> Self {
                    self.with(|p| p.body = ::core::option::Option::Some(body))
                }
            };
        }
        let ty = self.paths.ty(self.api, &body.ty);
        quote! {
            /// Replaces the whole body.
            pub fn #name(self, body: #ty) -> Self {
                self.with(|p| p.body = body)
            }
        }
    }

    /// The setter of one body field of `body` (the place of the body object in the builder),
    /// or with `clear`, the one sending it as `null`.
    fn field_setter(&self, field: &Field, usage: Usage, name: &Ident, body: TokenStream, clear: bool) -> TokenStream {
        let member = ident(&field.rust);
        let presence = field.presence(usage);
        if clear {
            let null = if presence == Presence::TriState {
                quote!(::apigen_runtime::Patch::Null)
            } else {
                quote!(::core::option::Option::None)
            };
            let text = format!("Sends `{}` as `null` (removes the value).", field.wire);
            return quote! {
                #[doc = #text]
                pub fn #name(self) -> Self {
                    self.with(|p| #body.#member = #null)
                }
            };
        }
        let (ty, convert) = self.field_argument(field, &ident("value"));
        let docs = doc(&field.description.clone().unwrap_or_else(|| format!("Sets `{}`.", field.wire)));
        let value = match presence {
            Presence::TriState => quote! { ::apigen_runtime::Patch::Value(#convert) },
            Presence::Optional | Presence::Nullable => quote! { ::core::option::Option::Some(#convert) },
            Presence::Required | Presence::Defaulted => convert,
        };
        quote! {
            #docs
            pub fn #name(self, value: #ty) -> Self {
                self.with(|p| #body.#member = #value)
            }
        }
    }
}

/// The initial value of an optional parameter's member: empty or unset.
fn optional_init(param: &Param) -> TokenStream {
    let name = ident(&param.rust);
    if matches!(param.ty, TypeRef::List(_)) {
        quote! { #name: ::std::vec::Vec::new(), }
    } else {
        quote! { #name: ::core::option::Option::None, }
    }
}

/// The enumeration of a media type choice.
fn media_enum(op: &Operation, choice: &MediaChoice) -> TokenStream {
    let enum_ident = ident(&choice.enumeration);
    let variants: Vec<Ident> = choice.variants.iter().map(|(_, v)| ident(v)).collect();
    let variant_docs: Vec<TokenStream> = choice.variants.iter().map(|(m, _)| doc(&format!("`{m}`."))).collect();
    let (first, first_doc) = (&variants[0], &variant_docs[0]);
    let (rest, rest_docs) = (&variants[1..], &variant_docs[1..]);
    let arms = variants.iter().zip(&choice.variants).map(|(v, (m, _))| quote! { #enum_ident::#v => #m, });
    let what = if choice.accept {
        format!("The media types `{}` answers in, chosen with `.accept(..)`.", op.name)
    } else {
        format!("The media types `{}` sends its body as, chosen with `.content_type(..)`.", op.name)
    };
    let enum_docs = doc(&what);
    quote! {
        #enum_docs
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub enum #enum_ident {
            #first_doc
            #[default]
            #first,
            #(#rest_docs #rest,)*
        }

        impl #enum_ident {
            /// The media type.
            pub fn as_str(self) -> &'static str {
                match self { #(#arms)* }
            }
        }
    }
}
