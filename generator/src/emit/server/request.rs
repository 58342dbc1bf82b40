//! An operation's request: the struct a handler receives, its parser from the runtime's
//! `Input` (parameters and body read as the spec says, every constraint checked, every problem
//! reported at once) and its JSON form for mocks and logs.

use super::ServerEmitter;
use crate::emit::rust::{constraint_checks, doc, ident, param_is_option};
use crate::emit::text::describe_constraints;
use crate::model::shape::QueryObject;
use crate::model::{Encoding, Field, Operation, Param, ParamIn, ParamWire, Presence, TypeDef, TypeKind, TypeRef};
use proc_macro2::TokenStream;
use quote::quote;

impl ServerEmitter<'_> {
    pub(super) fn request(&self, op: &Operation) -> TokenStream {
        let name = ident(&op.names.request);
        let title = format!("The request of `{}` (`{} {}`): {}", op.name, op.method.as_str(), op.path.raw, op.summary);
        if op.params.is_empty() && op.body.is_none() {
            // Nothing of its own to read: the runtime's request without parameters.
            let docs = doc(&format!("{title}\n\nIt has no parameters and no body."));
            return quote! {
                #docs
                pub type #name = ::apigen_runtime::server::NoParams;
            };
        }
        let mut fields = Vec::new();
        for param in &op.params {
            let field = ident(&param.rust);
            let ty = self.param_ty(param);
            let docs = doc(&param_doc(param));
            fields.push(quote! { #docs pub #field: #ty, });
        }
        let streams = op.server.streams_body;
        if let Some(body) = &op.body {
            let varied = !body.alternatives.is_empty();
            let ty = match &body.ty {
                _ if varied => self.paths.content_ty(op),
                TypeRef::Bytes => quote!(::apigen_runtime::server::BodyStream),
                other => self.paths.ty(self.api, other),
            };
            // With alternatives, whether the value is an object is the variant's to say.
            let absent = if varied { body.optional } else { body.may_be_absent() };
            let ty = if absent && !streams { quote!(::core::option::Option<#ty>) } else { ty };
            let mut text = body.description.clone().unwrap_or_else(|| "The request body.".into());
            if body.untyped {
                text.push_str(
                    "\n\nA JSON value that is not an object (`null`, `3`, `[]`) fits the document's schema, \
                     which gives no `type`: it reads as `None`.",
                );
            } else if body.nullable {
                text.push_str("\n\nThe document's schema admits `null`: it reads as `None`.");
            }
            if varied {
                text.push_str(&format!(
                    "\n\nSent as {}: the variant says which came.",
                    body.all_media_types().join(", ")
                ));
            } else if body.media_types.len() > 1 || body.encodings() != [Encoding::Json] {
                text.push_str(&format!("\n\nSent as {}.", body.media_types.join(" or ")));
            }
            let docs = doc(&text);
            fields.push(quote! { #docs pub body: #ty, });
        }
        let sensitive = op.params.iter().any(|p| p.sensitive);
        // A streamed body is read once: the request is neither cloned nor compared.
        let derive = match (sensitive, streams) {
            (_, true) if sensitive => quote!(),
            (_, true) => quote!(#[derive(Debug)]),
            (true, false) => quote!(#[derive(Clone, PartialEq)]),
            (false, false) => quote!(#[derive(Clone, Debug, PartialEq)]),
        };
        let debug = sensitive.then(|| {
            crate::emit::rust::params_debug(quote!(#name), &name.to_string(), &op.params, op.body.is_some(), false)
        });
        let docs = doc(&title);
        let from_input = self.parser(op);
        let serialize = self.request_serialize(op);
        quote! {
            #docs
            #derive
            pub struct #name { #(#fields)* }
            #debug
            #from_input
            #serialize
        }
    }

    pub(super) fn param_ty(&self, param: &Param) -> TokenStream {
        let ty = self.paths.ty(self.api, &param.ty);
        if param_is_option(param) { quote!(::core::option::Option<#ty>) } else { ty }
    }

    /// The non-generic parser: parameters, their checks, the body; every problem collected.
    fn parser(&self, op: &Operation) -> TokenStream {
        let name = ident(&op.names.request);
        let mut patterns = Vec::new();
        let mut reads = Vec::new();
        let mut inits = Vec::new();
        for param in &op.params {
            let local = ident(&param.rust);
            let wire = &param.wire;
            let location = format!("{}.{wire}", param.location.as_str());
            let (read, is_option) = self.read_param(param);
            if let Some(prefix) = param.wire_form.path_prefix() {
                reads.push(quote! { __input.path_prefix(#wire, #prefix); });
            }
            reads.push(quote! { let #local = #read; });
            let (checks, nested) = self.param_checks(param, &mut patterns);
            if checks.is_empty() && nested && is_option {
                // A closed enumeration alone: its own list, checked by the runtime.
                reads.push(quote! { __input.validate(#location, #local.as_ref()); });
            } else if !checks.is_empty() || nested {
                let checks: Vec<TokenStream> = checks.into_iter().chain(nested.then(nested_check)).collect();
                let value = if is_option {
                    quote! { if let ::core::option::Option::Some(__value) = &#local }
                } else {
                    quote! { let __value = &#local; }
                };
                let check = if is_option {
                    quote! { #value { __input.check(#location, |__v| { #(#checks)* }); } }
                } else if !param.required && matches!(param.ty, TypeRef::List(_)) {
                    // An optional list given no key is absent: its item counts do not apply.
                    let given = if param.location == ParamIn::Query {
                        quote! { !__value.is_empty() || __input.query_given(#wire) }
                    } else {
                        quote! { !__value.is_empty() }
                    };
                    quote! { { #value if #given { __input.check(#location, |__v| { #(#checks)* }); } } }
                } else {
                    quote! { { #value __input.check(#location, |__v| { #(#checks)* }); } }
                };
                reads.push(check);
            }
            if param.location == ParamIn::Path && is_option {
                let message = format!("the path parameter `{wire}` is not valid");
                inits.push(quote! {
                    let ::core::option::Option::Some(#local) = #local else {
                        return ::core::result::Result::Err(crate::ApiError::bad_request(#message));
                    };
                });
            } else if param.required && param.location != ParamIn::Path && !matches!(param.ty, TypeRef::List(_)) {
                let message = format!("the {} parameter `{wire}` is required", param.location.as_str());
                inits.push(quote! {
                    let ::core::option::Option::Some(#local) = #local else {
                        return ::core::result::Result::Err(crate::ApiError::bad_request(#message));
                    };
                });
            } else if let Some(default) = &param.default {
                let default = self.paths.default_value(self.api, &param.ty, default);
                // Numbers and booleans cost nothing to build; strings and enums allocate.
                inits.push(if matches!(param.ty, TypeRef::Integer | TypeRef::Number | TypeRef::Boolean) {
                    quote! { let #local = #local.unwrap_or(#default); }
                } else {
                    quote! { let #local = #local.unwrap_or_else(|| #default); }
                });
            }
        }
        self.body_reads(op, &mut reads, &mut inits);
        let fields = op.params.iter().map(|p| ident(&p.rust)).chain(op.body.as_ref().map(|_| ident("body")));
        quote! {
            impl #name {
                /// Reads the request from the parameters and body of an HTTP request, checking
                /// every constraint of the spec; every problem is reported at once.
                pub fn from_input(
                    __input: &mut rt::Input,
                ) -> ::core::result::Result<Self, crate::ApiError> {
                    #(#patterns)*
                    #(#reads)*
                    __input.finish()?;
                    #(#inits)*
                    ::core::result::Result::Ok(Self { #(#fields),* })
                }
            }
        }
    }

    /// The body's read, and its unwrapping where it is required (`a JSON body is required`).
    fn body_reads(&self, op: &Operation, reads: &mut Vec<TokenStream>, inits: &mut Vec<TokenStream>) {
        if let Some(body) = op.body.as_ref().filter(|b| !b.alternatives.is_empty()) {
            reads.push(self.read_alternatives(op, body));
            if !body.optional {
                inits.push(quote! {
                    let ::core::option::Option::Some(body) = body else {
                        return ::core::result::Result::Err(crate::ApiError::bad_request("a body is required"));
                    };
                });
            }
        } else if let Some(body) = &op.body {
            reads.push(self.read_body(body));
            if !body.may_be_absent() && body.ty != TypeRef::Bytes {
                let message =
                    if body.encodings() == [Encoding::Json] { "a JSON body is required" } else { "a body is required" };
                inits.push(quote! {
                    let ::core::option::Option::Some(body) = body else {
                        return ::core::result::Result::Err(crate::ApiError::bad_request(#message));
                    };
                });
            }
        }
    }

    /// `let body = ..;`: the body read as its media types say (JSON decoded strictly, a form
    /// field by field, text, or raw bytes streamed), with every problem recorded.
    fn read_body(&self, body: &crate::model::Body) -> TokenStream {
        let ty = self.paths.ty(self.api, &body.ty);
        let required = !body.optional;
        let encodings = body.encodings();
        if body.ty == TypeRef::Bytes {
            return quote! { let body = __input.stream_body(#required); };
        }
        if encodings == [Encoding::Text] {
            return quote! { let body = __input.text_body(#required); };
        }
        // An untyped body's schema fits any value that is not an object: it reads as left out.
        // A nullable one's schema admits `null`, which reads as left out too.
        let json = if body.untyped {
            quote! { __input.untyped_body::<#ty>(#required) }
        } else if body.nullable {
            quote! { __input.nullable_body::<#ty>(#required) }
        } else {
            quote! { __input.body::<#ty>(#required) }
        };
        let form = encodings.iter().any(|e| matches!(e, Encoding::Form | Encoding::Multipart));
        if !form {
            return quote! { let body = #json; };
        }
        // A urlencoded form and a multipart one may be read alike (both field by field, or
        // both whole in brackets) or not (a nested value: brackets in the one, a JSON part in
        // the other).
        let urlencoded = encodings.contains(&Encoding::Form).then(|| self.read_form_as(body, Encoding::Form));
        let multipart = encodings.contains(&Encoding::Multipart).then(|| self.read_form_as(body, Encoding::Multipart));
        let form = match (urlencoded, multipart) {
            (Some(urlencoded), Some(multipart)) if urlencoded.to_string() != multipart.to_string() => {
                quote! { if __input.is_multipart() { #multipart } else { #urlencoded } }
            }
            (Some(one), _) | (None, Some(one)) => one,
            (None, None) => unreachable!("a form body has a form's encoding"),
        };
        if encodings.contains(&Encoding::Json) {
            quote! { let body = if __input.is_form() { #form } else { #json }; }
        } else {
            quote! { let body = #form; }
        }
    }

    /// `let body = ..;` for a body with alternatives: the one whose media types name the
    /// request's `Content-Type` read as its own body is (the first without one: the router
    /// refused any other with 415), as its variant of the content enumeration.
    fn read_alternatives(&self, op: &Operation, body: &crate::model::Body) -> TokenStream {
        let content = self.paths.content_ty(op);
        let read = |variant: &crate::model::Body| {
            let member = ident(&variant.variant);
            let read = if variant.ty == TypeRef::Bytes {
                let required = !variant.optional;
                quote! { let body = __input.bytes_body(#required); }
            } else {
                self.read_body(variant)
            };
            if variant.untyped {
                quote! {{ #read ::core::option::Option::Some(#content::#member(body)) }}
            } else {
                quote! {{ #read body.map(#content::#member) }}
            }
        };
        let mut chain = read(body);
        for variant in body.alternatives.iter().rev() {
            let media = &variant.media_types;
            let this = read(variant);
            chain = quote! { if __input.content_in(&[#(#media),*]) #this else #chain };
        }
        quote! { let body = #chain; }
    }

    /// A form body of `encoding` read: field by field, or nested values in brackets decoded
    /// whole like JSON.
    fn read_form_as(&self, body: &crate::model::Body, encoding: Encoding) -> TokenStream {
        let read = self.read_form_fields_as(body, encoding);
        // A multipart part whose media types are declared is refused (415) in any other.
        let declared = self.part_types(&body.ty);
        if encoding != Encoding::Multipart || declared.is_empty() {
            return read;
        }
        let checks = declared.iter().map(|(wire, types)| quote! { __input.part_type(#wire, &[#(#types),*]); });
        quote! {{ #(#checks)* #read }}
    }

    /// The fields of a body's object that declare their part's media types, with them.
    fn part_types(&self, ty: &TypeRef) -> Vec<(String, Vec<String>)> {
        let TypeRef::Named(name) = ty else { return Vec::new() };
        let TypeKind::Object(object) = &self.api.ty(name).kind else { return Vec::new() };
        let declared = object.fields.iter().filter(|f| !f.media_types.is_empty());
        declared.map(|f| (f.wire.clone(), f.media_types.clone())).collect()
    }

    /// A form body of `encoding` read, its parts' media types aside.
    fn read_form_fields_as(&self, body: &crate::model::Body, encoding: Encoding) -> TokenStream {
        let required = !body.optional;
        if body.bracketed(self.api, encoding) {
            let ty = self.paths.ty(self.api, &body.ty);
            return quote! { __input.form_body::<#ty>(#required) };
        }
        let fields = self.read_form(&body.ty);
        // Absent is not empty: an optional form body sent as nothing has no field to miss.
        if body.optional {
            quote! { if __input.body_is_empty() { ::core::option::Option::None } else { #fields } }
        } else {
            // Required: a request sending nothing is refused, not read as a form without fields.
            quote! { if __input.required_form() { #fields } else { ::core::option::Option::None } }
        }
    }

    /// A form body read field by field into its object (lowering checked every field is a
    /// scalar, an enumeration, a list of those or a file), then checked like a JSON body.
    fn read_form(&self, ty: &TypeRef) -> TokenStream {
        let TypeRef::Named(name) = ty else { return quote!(::core::option::Option::None) };
        let def = self.api.ty(name);
        let TypeKind::Object(object) = &def.kind else { return quote!(::core::option::Option::None) };
        let struct_ty = self.paths.ty(self.api, ty);
        let mut reads = Vec::new();
        let mut members = Vec::new();
        let mut fallible = false;
        for field in object.fields.iter().filter(|f| f.constant.is_none()) {
            let local = ident(&format!("__{}", field.rust));
            let member = ident(&field.rust);
            if field.access == crate::model::Access::ReadOnly {
                // Never accepted: not read, so a form giving it is refused as giving an
                // unknown key.
                members.push(quote! { #member: ::core::option::Option::None, });
                continue;
            }
            let read = self.form_field_read(def, field);
            reads.push(quote! { let #local = #read; });
            let value = self.form_field_value(def, field, &local);
            fallible |= field.presence(def.usage) == Presence::Required && !matches!(field.ty, TypeRef::List(_));
            let value = if field.boxed {
                quote! { ::std::boxed::Box::new(#value) }
            } else {
                value
            };
            members.push(quote! { #member: #value, });
        }
        if let Some(extra) = &object.additional {
            // Undeclared parts (a form read field by field holds files) are the extras, each
            // read as a declared field of their type would be.
            let read = self.form_extra_read(extra);
            reads.push(quote! { let __extra = __input.form_extras(|__input, __name| #read); });
            members.push(quote! { extra: __extra, });
        }
        if reads.is_empty() {
            // Nothing reads the form, which must still be read for what it gives to be refused.
            reads.push(quote! { __input.empty_form(); });
        }
        if object.ignores_unknown {
            // An open object (`unknown_fields: ignore`) drops what it does not declare.
            reads.push(quote! { __input.ignore_other_form_fields(); });
        }
        // A required field missing ends the body with `?`, inside a closure; without one the
        // body is always built.
        let build = if fallible {
            quote! { (|| ::core::option::Option::Some(#struct_ty { #(#members)* }))() }
        } else {
            quote! { ::core::option::Option::Some(#struct_ty { #(#members)* }) }
        };
        quote! {
            {
                #(#reads)*
                let body = #build;
                if let ::core::option::Option::Some(body) = &body {
                    __input.check_body(body);
                }
                body
            }
        }
    }

    /// How one form field is read from the body: a file, files, a list of repeated keys or
    /// one value, each parsed as its type.
    fn form_field_read(&self, def: &TypeDef, field: &Field) -> TokenStream {
        let wire = &field.wire;
        // A form has no null: a required field that may be null must still be given.
        let field_required = matches!(field.presence(def.usage), Presence::Required | Presence::Nullable)
            || (field.access == crate::model::Access::WriteOnly && !field.optional);
        match &field.ty {
            ty if self.api.json_part(ty) => {
                // One part of JSON (only a multipart form reads such a field by field); a list
                // not given is the empty list, as a form's lists are.
                let rust = self.paths.ty(self.api, ty);
                if matches!(ty, TypeRef::List(_)) {
                    quote! { __input.form_json::<#rust>(#wire, false).unwrap_or_default() }
                } else {
                    quote! { __input.form_json::<#rust>(#wire, #field_required) }
                }
            }
            TypeRef::File => quote! { __input.form_file(#wire, #field_required) },
            TypeRef::List(inner) if **inner == TypeRef::File => quote! { __input.form_files(#wire) },
            TypeRef::List(inner) => {
                let (read_ty, convert) = self.text_type(inner);
                match convert {
                    Some(convert) => {
                        quote! { __input.form_list::<#read_ty>(#wire).into_iter().map(#convert).collect::<::std::vec::Vec<_>>() }
                    }
                    None => quote! { __input.form_list::<#read_ty>(#wire) },
                }
            }
            scalar => {
                let (read_ty, convert) = self.text_type(scalar);
                match convert {
                    Some(convert) => {
                        quote! { __input.form_field::<#read_ty>(#wire, #field_required).map(#convert) }
                    }
                    None => quote! { __input.form_field::<#read_ty>(#wire, #field_required) },
                }
            }
        }
    }

    /// How one undeclared field of a multipart form (`__name`) is read as the extras' type:
    /// one JSON part, or one text value parsed as its type.
    fn form_extra_read(&self, ty: &TypeRef) -> TokenStream {
        if self.api.json_part(ty) || matches!(ty, TypeRef::List(_)) {
            let rust = self.paths.ty(self.api, ty);
            return quote! { __input.form_json::<#rust>(__name, false) };
        }
        let (read_ty, convert) = self.text_type(ty);
        match convert {
            Some(convert) => quote! { __input.form_field::<#read_ty>(__name, false).map(#convert) },
            None => quote! { __input.form_field::<#read_ty>(__name, false) },
        }
    }

    /// The value of a form field's member from what was read into `local`: a list is
    /// repeated keys (none given is the empty list, or absent when optional), a required
    /// value ends the body when missing (`?`), a default fills in.
    fn form_field_value(&self, def: &TypeDef, field: &Field, local: &proc_macro2::Ident) -> TokenStream {
        let is_list = matches!(field.ty, TypeRef::List(_));
        match field.presence(def.usage) {
            Presence::Optional | Presence::Nullable if is_list => quote! { (!#local.is_empty()).then_some(#local) },
            Presence::TriState if is_list => {
                quote! { ::apigen_runtime::Patch::from((!#local.is_empty()).then_some(#local)) }
            }
            _ if is_list => quote! { #local },
            Presence::Required => quote! { #local? },
            Presence::Defaulted => {
                let default = self.paths.default_value(
                    self.api,
                    &field.ty,
                    field.default.as_ref().unwrap_or(&serde_json::Value::Null),
                );
                // As for parameters: numbers and booleans cost nothing to build.
                if matches!(field.ty, TypeRef::Integer | TypeRef::Number | TypeRef::Boolean) {
                    quote! { #local.unwrap_or(#default) }
                } else {
                    quote! { #local.unwrap_or_else(|| #default) }
                }
            }
            Presence::TriState => quote! { ::apigen_runtime::Patch::from(#local) },
            Presence::Optional | Presence::Nullable => quote! { #local },
        }
    }

    /// How a scalar of type `ty` is read from text: the type `FromParam` gives, and the
    /// conversion to `ty` when it is an enumeration (read as a string first).
    fn text_type(&self, ty: &TypeRef) -> (TokenStream, Option<TokenStream>) {
        match ty {
            TypeRef::Named(_) => {
                let rust = self.paths.ty(self.api, ty);
                let convert = quote! { rt::from_text::<#rust> };
                (quote!(::std::string::String), Some(convert))
            }
            TypeRef::Url => (quote!(::std::string::String), None),
            other => (self.paths.ty(self.api, other), None),
        }
    }

    /// How a parameter is read, and whether the result is an `Option`: the runtime's reader
    /// for how it travels, named here and only here.
    fn read_param(&self, param: &Param) -> (TokenStream, bool) {
        let wire = &param.wire;
        let required = param.required;
        let whole = || self.paths.ty(self.api, &param.ty);
        match &param.wire_form {
            ParamWire::Path { .. } => self.read_path_scalar(param),
            ParamWire::PathList => self.read_list(param, |t| quote! { __input.path_list::<#t>(#wire) }),
            ParamWire::PathUnion { .. } => {
                let ty = whole();
                (quote! { __input.path_decoded::<#ty>(#wire) }, true)
            }
            ParamWire::Query if required => self.read_scalar(param, |t| quote! { __input.query_required::<#t>(#wire) }),
            ParamWire::Query => self.read_scalar(param, |t| quote! { __input.query::<#t>(#wire) }),
            // An empty value allowed (`limit=`) is the parameter left out.
            ParamWire::QueryUnlessEmpty => {
                self.read_scalar(param, |t| quote! { __input.query_unless_empty::<#t>(#wire, #required) })
            }
            ParamWire::QueryRepeated => self.read_list(param, |t| quote! { __input.query_list::<#t>(#wire) }),
            // One value of delimited items (`ids=1,2`, `ids=1|2`).
            ParamWire::QueryDelimited(delimiter) => {
                self.read_list(param, |t| quote! { __input.query_delimited::<#t>(#wire, #delimiter) })
            }
            ParamWire::QueryBrackets => self.read_list(param, |t| quote! { __input.query_brackets::<#t>(#wire) }),
            ParamWire::QueryObject(object) => {
                // Decoded whole, like a form of nested values: in brackets (`filter[status]=x`),
                // or exploded, from the query parameters its fields name.
                let ty = whole();
                let fields = match object {
                    QueryObject::Flat(wires) => quote! { ::core::option::Option::Some(&[#(#wires),*]) },
                    QueryObject::Deep => quote! { ::core::option::Option::None },
                };
                (quote! { __input.query_object::<#ty>(#wire, #fields, #required) }, true)
            }
            ParamWire::QueryJson => {
                let ty = whole();
                json_read(param, quote! { __input.query_json::<#ty>(#wire, #required) })
            }
            ParamWire::HeaderJson => {
                let ty = whole();
                json_read(param, quote! { __input.header_json::<#ty>(#wire, #required) })
            }
            ParamWire::Header if required => {
                self.read_scalar(param, |t| quote! { __input.header_required::<#t>(#wire) })
            }
            ParamWire::Header => self.read_scalar(param, |t| quote! { __input.header::<#t>(#wire) }),
            ParamWire::HeaderList => self.read_list(param, |t| quote! { __input.header_list::<#t>(#wire) }),
            ParamWire::Cookie if required => {
                self.read_scalar(param, |t| quote! { __input.cookie_required::<#t>(#wire) })
            }
            ParamWire::Cookie => self.read_scalar(param, |t| quote! { __input.cookie::<#t>(#wire) }),
        }
    }

    /// A path segment holding a scalar: text as it is, an enumeration from its text, anything
    /// else parsed (a bad value is a violation, so an `Option`).
    fn read_path_scalar(&self, param: &Param) -> (TokenStream, bool) {
        let wire = &param.wire;
        let ty = self.paths.ty(self.api, &param.ty);
        match &param.ty {
            TypeRef::String | TypeRef::Url => (quote! { __input.path(#wire) }, false),
            TypeRef::Named(_) => (quote! { rt::from_text::<#ty>(__input.path(#wire)) }, false),
            // Integers, numbers, booleans, date-times.
            _ => (quote! { __input.path_as::<#ty>(#wire) }, true),
        }
    }

    /// A scalar read as text by `read` (given the type its text is read as), an enumeration
    /// converted from it: an `Option`.
    fn read_scalar(&self, param: &Param, read: impl FnOnce(TokenStream) -> TokenStream) -> (TokenStream, bool) {
        let (read_ty, convert) = self.text_type(&param.ty);
        let read = read(read_ty);
        match convert {
            Some(convert) => (quote! { #read.map(#convert) }, true),
            None => (read, true),
        }
    }

    /// A list read by `read` (given the type each item's text is read as), enumerations
    /// converted item by item: a `Vec`, empty when absent.
    fn read_list(&self, param: &Param, read: impl FnOnce(TokenStream) -> TokenStream) -> (TokenStream, bool) {
        let TypeRef::List(inner) = &param.ty else { unreachable!("a list parameter is a list") };
        let (read_ty, convert) = self.text_type(inner);
        let read = read(read_ty);
        match convert {
            Some(convert) => (quote! { #read.into_iter().map(#convert).collect::<::std::vec::Vec<_>>() }, false),
            None => (read, false),
        }
    }

    /// The checks of a parameter's constraints, on `__value` with validator `__v`, and whether
    /// its value is checked by its own type too (a closed enumeration against its list).
    fn param_checks(&self, param: &Param, patterns: &mut Vec<TokenStream>) -> (Vec<TokenStream>, bool) {
        let closed_enum = |ty: &TypeRef| matches!(ty, TypeRef::Named(n) if matches!(&self.api.ty(n).kind, TypeKind::Enum(e) if !e.open));
        let nested = closed_enum(&param.ty) || matches!(&param.ty, TypeRef::List(inner) if closed_enum(inner));
        (constraint_checks(&param.ty, &param.constraints, false, patterns), nested)
    }

    /// The request as JSON (parameters and `body` by wire name), for mocks and logs.
    fn request_serialize(&self, op: &Operation) -> TokenStream {
        let name = ident(&op.names.request);
        let writes = op.params.iter().map(|p| {
            let field = ident(&p.rust);
            let wire = &p.wire;
            if param_is_option(p) {
                quote! { __fields.optional(#wire, &self.#field); }
            } else {
                quote! { __fields.put(#wire, &self.#field); }
            }
        });
        // A streamed body is the handler's to read: it is not written here.
        let body = op.body.as_ref().filter(|_| !op.server.streams_body).map(|b| {
            if b.may_be_absent() && (b.alternatives.is_empty() || b.optional) {
                quote! { __fields.optional("body", &self.body); }
            } else {
                quote! { __fields.put("body", &self.body); }
            }
        });
        crate::emit::rust::serialize_impl(&name, quote! { #(#writes)* #body })
    }
}

/// A parameter read as JSON text by `read`; a list absent is the empty list, as for the other
/// list parameters.
/// The check of a value by its own type's rules (a closed enumeration against its list), as
/// [`constraint_checks`] writes it with `nested`.
fn nested_check() -> TokenStream {
    quote! { ::apigen_runtime::Validate::validate_into(__value, __v); }
}

fn json_read(param: &Param, read: TokenStream) -> (TokenStream, bool) {
    if matches!(param.ty, TypeRef::List(_)) { (quote! { #read.unwrap_or_default() }, false) } else { (read, true) }
}

fn param_doc(param: &Param) -> String {
    let mut text = param.description.clone().unwrap_or_else(|| format!("The `{}` parameter.", param.wire));
    let place = param.location.as_str();
    let mut notes = vec![format!(
        "{}{} parameter `{}`{}.",
        place[..1].to_ascii_uppercase(),
        &place[1..],
        param.wire,
        if param.required && param.location != ParamIn::Path { ", required" } else { "" }
    )];
    if let Some(c) = describe_constraints(&param.ty, &param.constraints) {
        notes.push(format!("Constraints: {c}."));
    }
    if let Some(default) = &param.default {
        notes.push(format!("Default when absent: `{default}`."));
    }
    if param.empty_is_absent() {
        notes.push("An empty value counts as absent.".into());
    }
    if param.sensitive {
        notes.push("Sensitive: redacted in `Debug` output.".into());
    }
    text.push_str("\n\n");
    text.push_str(&notes.join(" "));
    text
}
