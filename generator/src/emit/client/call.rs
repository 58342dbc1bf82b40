//! `call()` of a builder: the request as the runtime sends it. The path with its parameters,
//! the query, headers and cookies each parameter travels in, the body encoded in its media
//! type, the answer's media type, the schemes and the error types.

use super::ClientEmitter;
use crate::emit::rust::{ident, param_text};
use crate::model::shape::{AcceptHeader, BodyStyle, MediaChoice, QueryObject};
use crate::model::{
    Access, Body, Encoding, ErrorStatus, Method, Operation, Param, ParamIn, ParamWire, Piece, Presence, SelectIn,
};
use crate::model::{TypeKind, TypeRef};
use proc_macro2::TokenStream;
use quote::quote;

/// The parameters of one list local (`query`, `cookies`): the leading required scalars start
/// it (`vec![...]`), the others are pushed.
struct ListStart<'o> {
    start: Vec<&'o Param>,
    pushed: bool,
    /// The query's keys are `Cow`s (an object parameter writes keys of its own).
    cow_keys: bool,
}

impl<'o> ListStart<'o> {
    fn of(op: &'o Operation, location: ParamIn) -> Self {
        let start: Vec<&Param> =
            op.params_in(location).take_while(|p| p.required && p.wire_form.is_scalar_text()).collect();
        ListStart { pushed: op.params_in(location).count() > start.len(), start, cow_keys: location == ParamIn::Query }
    }

    fn holds(&self, param: &Param) -> bool {
        self.start.iter().any(|s| std::ptr::eq(*s, param))
    }

    /// The list's initial value: `constants` (the operation's selectors), then the leading
    /// required scalars.
    fn initial(&self, constants: &[(&str, &str)]) -> TokenStream {
        let key = |name: &str| if self.cow_keys { quote!(#name.into()) } else { quote!(#name) };
        let constants = constants.iter().map(|(name, value)| {
            let name = key(name);
            quote! { (#name, ::std::string::String::from(#value)) }
        });
        let items = self.start.iter().map(|p| {
            let wire = key(&p.wire);
            let field = ident(&p.rust);
            let value = param_text(quote!(self.#field), &p.ty);
            quote! { (#wire, #value) }
        });
        let items: Vec<TokenStream> = constants.chain(items).collect();
        if items.is_empty() { quote!(::std::vec::Vec::new()) } else { quote!(::std::vec![#(#items),*]) }
    }
}

impl ClientEmitter<'_> {
    /// `Operation::call` of an operation's parameters: the path, query and body of the request.
    pub(super) fn call(&self, op: &Operation) -> TokenStream {
        let name = &op.name;
        let method = method_ident(op.method);
        let query = ListStart::of(op, ParamIn::Query);
        let cookies = ListStart::of(op, ParamIn::Cookie);
        let sent = op.params.iter().filter(|p| !query.holds(p) && !cookies.holds(p)).map(|p| self.send_param(p));
        let body = self.body_expr(op);
        let (decls, mut fields) = self.list_decls(op, &query, &cookies);
        let auth: Vec<TokenStream> = op
            .auth
            .alternatives()
            .iter()
            .map(|set| {
                let schemes = set.iter().map(|need| &need.scheme);
                quote!(&[#(#schemes),*])
            })
            .collect();
        if !auth.is_empty() {
            fields.push(quote!(auth: &[#(#auth),*]));
        }
        if let Some(errors) = self.error_types(op) {
            fields.push(quote!(errors: #errors));
        }
        // The statuses answered in another error body than the API's, read from its places.
        let bodies = crate::emit::rust::error_bodies(self.api, op);
        if !bodies.is_empty() {
            let bodies = bodies.into_iter().map(|(status, index)| quote!((#status, &crate::ERROR_BODIES[#index])));
            // A constant: an element of `ERROR_BODIES` is no promotable temporary.
            fields.push(quote!(error_bodies: const { &[#(#bodies),*] }));
        }
        let path = path_expr(op);
        if op.body.is_some() {
            fields.push(quote!(body));
        }
        let new = quote! {
            rt::Call::new(
                #name,
                rt::reqwest::Method::#method,
                #path,
                headers,
            )
        };
        // What the operation has beside its name, method and path; the rest empty.
        let value = if fields.is_empty() {
            new
        } else {
            quote! { rt::Call { #(#fields,)* ..#new } }
        };
        // The body comes first, so that failing to encode it leaves nothing else built to drop.
        let body = op.body.is_some().then(|| quote! { let body = #body; });
        let steps = quote! {
            #body
            #decls
            #(#sent)*
        };
        // `core` encodes bodies and object parameters; an operation without them leaves it unused.
        let core = if mentions_core(&steps) { quote!(core) } else { quote!(_) };
        quote! {
            fn call(
                &self,
                #core: &rt::Core,
                headers: rt::Headers,
            ) -> rt::Made {
                #steps
                ::core::result::Result::Ok(#value)
            }
        }
    }

    /// The declarations of the list locals (a list a parameter goes to is a mutable local;
    /// the others are written in place), and the `Call` members they give (`query`, `cookies`:
    /// those the operation has).
    fn list_decls(&self, op: &Operation, query: &ListStart, cookies: &ListStart) -> (TokenStream, Vec<TokenStream>) {
        let used = |location: ParamIn| op.params_in(location).next().is_some();
        let selected = |location: SelectIn| -> Vec<(&str, &str)> {
            op.select.iter().filter(|s| s.location == location).map(|s| (s.name.as_str(), s.value.as_str())).collect()
        };
        let mut fields = Vec::new();
        let query_selectors = selected(SelectIn::Query);
        let query_decl = (used(ParamIn::Query) || !query_selectors.is_empty()).then(|| {
            fields.push(quote!(query));
            let query_init = query.initial(&query_selectors);
            if query.pushed {
                quote! { let mut query = #query_init; }
            } else {
                quote! { let query = #query_init; }
            }
        });
        // An answer in another media type than JSON asks for it with `Accept`.
        let accept = match &op.client.accept {
            AcceptHeader::None => None,
            AcceptHeader::Fixed(only) => Some(quote! { #only }),
            AcceptHeader::Chosen => Some(quote! { self.accept.as_str() }),
        };
        let accept = accept.map(|value| {
            quote! { headers.push((::std::string::String::from("accept"), ::std::string::String::from(#value))); }
        });
        // The selectors travel on every request.
        let header_selectors = selected(SelectIn::Header);
        let selectors = header_selectors.iter().map(|(name, value)| {
            quote! { headers.push((::std::string::String::from(#name), ::std::string::String::from(#value))); }
        });
        let selectors = quote! { #(#selectors)* };
        let headers_decl = (used(ParamIn::Header) || accept.is_some() || !header_selectors.is_empty())
            .then(|| quote! { let mut headers = headers; #selectors #accept });
        let cookies_decl = used(ParamIn::Cookie).then(|| {
            fields.push(quote!(cookies));
            let cookies_init = cookies.initial(&[]);
            if cookies.pushed {
                quote! { let mut cookies = #cookies_init; }
            } else {
                quote! { let cookies = #cookies_init; }
            }
        });
        (quote! { #query_decl #headers_decl #cookies_decl }, fields)
    }

    /// A query, header or cookie parameter pushed as text onto its list, as it travels: a list
    /// as repeated query keys, one delimited query value or in brackets, or one comma-separated
    /// header value; an object or JSON text whole. A path parameter goes in the path
    /// ([`segment_arg`]): nothing here.
    fn send_param(&self, p: &Param) -> TokenStream {
        let wire = &p.wire;
        let field = ident(&p.rust);
        let query = (quote!(query), quote!(#wire.into()));
        let headers = (quote!(headers), quote!(::std::string::String::from(#wire)));
        match &p.wire_form {
            ParamWire::Path { .. } | ParamWire::PathList | ParamWire::PathUnion { .. } => TokenStream::new(),
            ParamWire::Query | ParamWire::QueryUnlessEmpty => send_scalar(p, query),
            ParamWire::Header => send_scalar(p, headers),
            ParamWire::Cookie => send_scalar(p, (quote!(cookies), quote!(#wire))),
            ParamWire::QueryRepeated => {
                let (list, name) = query;
                let item = list_item(p);
                quote! { for item in &self.#field { #list.push((#name, #item)); } }
            }
            // One value of delimited items (`ids=1,2`); an empty list is left out.
            ParamWire::QueryDelimited(delimiter) => send_joined(p, query, &delimiter.to_string()),
            ParamWire::QueryBrackets => {
                let (list, _) = query;
                let item = list_item(p);
                let key = format!("{wire}[]");
                quote! { for item in &self.#field { #list.push((#key.into(), #item)); } }
            }
            ParamWire::HeaderList => send_joined(p, headers, ","),
            ParamWire::QueryObject(object) => {
                // Its pairs as a form writes them (`apigen_runtime::form`), validated first; a
                // union travels under its name (`created=5`, `created[gt]=1`), as in brackets.
                let deep = matches!(object, QueryObject::Deep);
                when_given(p, |value| quote! { core.query_object(&mut query, #wire, #value, #deep)?; })
            }
            ParamWire::QueryJson => send_json(p, query, "query"),
            ParamWire::HeaderJson => send_json(p, headers, "header"),
        }
    }

    /// The body as the runtime sends it (`Option<CallBody>`).
    fn body_expr(&self, op: &Operation) -> TokenStream {
        if let Some(body) = op.body.as_ref().filter(|b| !b.alternatives.is_empty()) {
            return self.alternatives_expr(op, body);
        }
        let encode =
            |value: TokenStream| op.body.as_ref().map(|body| self.encode_body(op, body, &value)).unwrap_or_default();
        let only = |encoding: &[Encoding]| {
            op.body.as_ref().is_some_and(|b| b.media_types.len() == 1 && b.encodings() == encoding)
        };
        match op.client.body {
            BodyStyle::None => quote! { ::core::option::Option::None },
            // A required nullable body not set is sent as `null` (the `Option`'s JSON).
            BodyStyle::Optional if op.body.as_ref().is_some_and(|b| !b.optional) && only(&[Encoding::Json]) => {
                quote! { ::core::option::Option::Some(core.body(&self.body)?) }
            }
            BodyStyle::Optional if op.body.as_ref().is_some_and(|b| !b.optional) => {
                let encoded = encode(quote!(body));
                quote! {
                    match &self.body {
                        ::core::option::Option::Some(body) => ::core::option::Option::Some(#encoded),
                        ::core::option::Option::None => ::core::option::Option::Some(core.body(&self.body)?),
                    }
                }
            }
            BodyStyle::Optional => {
                let encoded = encode(quote!(body));
                // Text and raw bytes encode without failing (no `?` to carry out of a closure).
                if only(&[Encoding::Text]) || only(&[Encoding::Binary]) {
                    quote! { self.body.as_ref().map(|body| #encoded) }
                } else {
                    quote! {
                        match &self.body {
                            ::core::option::Option::Some(body) => ::core::option::Option::Some(#encoded),
                            ::core::option::Option::None => ::core::option::Option::None,
                        }
                    }
                }
            }
            // JSON alone (the common case) needs no binding.
            BodyStyle::Fields | BodyStyle::Positional if only(&[Encoding::Json]) => {
                quote! { ::core::option::Option::Some(core.body(&self.body)?) }
            }
            BodyStyle::Fields | BodyStyle::Positional => {
                let encoded = encode(quote!(body));
                quote! {{
                    let body = &self.body;
                    ::core::option::Option::Some(#encoded)
                }}
            }
        }
    }

    /// A body with alternatives as the runtime sends it: each variant encoded as its own body
    /// is, in its first media type (the body's own variant in the one `content_type` chose).
    fn alternatives_expr(&self, op: &Operation, body: &Body) -> TokenStream {
        let content = self.paths.content_ty(op);
        let value = quote!(body);
        let optional = op.client.body == BodyStyle::Optional;
        let arms = body.variants().enumerate().map(|(index, variant)| {
            let member = ident(&variant.variant);
            let media = &variant.media_types[0];
            // The body's own variant travels in the media type `content_type` chose.
            let choice = op.client.media.iter().find(|c| !c.accept).filter(|_| index == 0);
            let encoded = match (choice, &variant.ty) {
                (Some(choice), TypeRef::Bytes) => {
                    let name = ident(&choice.enumeration);
                    let arms = choice.variants.iter().map(|(media, chosen)| {
                        let chosen = ident(chosen);
                        quote! { #name::#chosen => core.bytes(#value, #media), }
                    });
                    quote! { match self.content_type { #(#arms)* } }
                }
                (None, TypeRef::Bytes) => quote! { core.bytes(#value, #media) },
                _ => self.encode_in(variant, &value, choice),
            };
            // Optional: an arm per variant, each `Some`, so that none reads as `Option::map`.
            if optional {
                quote! { ::core::option::Option::Some(#content::#member(body)) => ::core::option::Option::Some(#encoded), }
            } else {
                quote! { #content::#member(body) => #encoded, }
            }
        });
        if optional {
            quote! { match &self.body { #(#arms)* ::core::option::Option::None => ::core::option::Option::None, } }
        } else {
            quote! { ::core::option::Option::Some(match &self.body { #(#arms)* }) }
        }
    }

    /// The body `value` (a reference) as the runtime sends it, in the media type chosen (the
    /// builder's `content_type` when the body has several).
    fn encode_body(&self, op: &Operation, body: &Body, value: &TokenStream) -> TokenStream {
        self.encode_in(body, value, op.client.media.iter().find(|c| !c.accept))
    }

    /// The body `value` (a reference) as the runtime sends it: in the media type `choice`
    /// holds (the builder's `content_type`), else in the body's first.
    fn encode_in(&self, body: &Body, value: &TokenStream, choice: Option<&MediaChoice>) -> TokenStream {
        let encode = |media: &str| -> TokenStream {
            match body.encoding_of(media) {
                Encoding::Json => quote! { core.body(#value)? },
                Encoding::Text => quote! { core.text(#value, #media) },
                Encoding::Binary => quote! { core.upload(#value, #media) },
                encoding @ (Encoding::Form | Encoding::Multipart) if body.bracketed(self.api, encoding) => {
                    let multipart = encoding == Encoding::Multipart;
                    let indexed = body.brackets;
                    quote! { core.nested_form(#value, #multipart, #indexed)? }
                }
                encoding @ (Encoding::Form | Encoding::Multipart) => self.encode_form(body, value, encoding),
            }
        };
        let Some(choice) = choice else {
            return encode(&body.media_types[0]);
        };
        let name = ident(&choice.enumeration);
        let arms = choice.variants.iter().map(|(media, variant)| {
            let variant = ident(variant);
            let encoded = encode(media);
            quote! { #name::#variant => #encoded, }
        });
        quote! { match self.content_type { #(#arms)* } }
    }

    /// A form body, field by field (lowering checked each is a scalar, an enumeration, a list
    /// of those or, in a multipart body, a file), after the body's checks.
    fn encode_form(&self, body: &Body, value: &TokenStream, encoding: Encoding) -> TokenStream {
        let TypeRef::Named(name) = &body.ty else { return quote!(core.body(#value)?) };
        let def = self.api.ty(name);
        let TypeKind::Object(object) = &def.kind else { return quote!(core.body(#value)?) };
        let multipart = encoding == Encoding::Multipart;
        let mut writes = Vec::new();
        for field in object.fields.iter().filter(|f| f.constant.is_none() && f.access != Access::ReadOnly) {
            let member = ident(&field.rust);
            let inner = if multipart && self.api.json_part(&field.ty) {
                let wire = &field.wire;
                let declared = &field.media_types;
                let content_type = if declared.is_empty() {
                    quote!("application/json")
                } else {
                    quote!(&::apigen_runtime::codegen::sent_type(&[#(#declared),*]))
                };
                quote! { __parts.push(core.json_part(#wire, item, #content_type)?); }
            } else {
                form_write(field, multipart)
            };
            writes.push(match field.presence(def.usage) {
                Presence::Required | Presence::Defaulted => quote! {{ let item = &#value.#member; #inner }},
                Presence::Optional | Presence::Nullable => {
                    quote! { if let ::core::option::Option::Some(item) = &#value.#member { #inner } }
                }
                Presence::TriState => {
                    quote! { if let ::apigen_runtime::Patch::Value(item) = &#value.#member { #inner } }
                }
            });
        }
        if multipart {
            // Undeclared fields kept beside files (`extra`): a part each, as a declared field
            // of their type.
            if let Some(extra) = &object.additional {
                let inner = if self.api.json_part(extra) || matches!(extra, TypeRef::List(_)) {
                    quote! { __parts.push(core.json_part(__name, item, "application/json")?); }
                } else {
                    let text = param_text(quote!(item), extra);
                    quote! { __parts.push(::apigen_runtime::codegen::Part::text(__name, #text)); }
                };
                writes.push(quote! { for (__name, item) in &#value.extra { #inner } });
            }
            quote! {{
                core.check(#value)?;
                let mut __parts = ::std::vec::Vec::new();
                #(#writes)*
                core.multipart(&__parts)
            }}
        } else {
            quote! {{
                core.check(#value)?;
                let mut __fields: ::std::vec::Vec<(&'static str, ::std::string::String)> = ::std::vec::Vec::new();
                #(#writes)*
                core.form(&__fields)
            }}
        }
    }

    /// `Some(|status, body| ..)` decoding an error body as the type the spec declares for its
    /// status (or `default`, or the API's error type); nothing when it declares none.
    fn error_types(&self, op: &Operation) -> Option<TokenStream> {
        let decode = |ty: &TypeRef| {
            let ty = self.paths.ty(self.api, ty);
            quote! { rt::decode_error_as::<#ty>(body) }
        };
        let mut arms = Vec::new();
        for error in op.errors.iter().filter(|e| e.ty.is_some()) {
            if let (ErrorStatus::Code(code), Some(ty)) = (error.status, &error.ty) {
                let decode = decode(ty);
                arms.push(quote! { #code => #decode, });
            }
        }
        let fallback = op
            .errors
            .iter()
            .find(|e| e.status == ErrorStatus::Default && e.ty.is_some())
            .and_then(|e| e.ty.clone())
            .or_else(|| self.api.errors.ty.clone().map(TypeRef::Named));
        if arms.is_empty() && fallback.is_none() {
            return None;
        }
        let fallback = match &fallback {
            Some(ty) => decode(ty),
            None => quote!(::core::option::Option::None),
        };
        if arms.is_empty() {
            return Some(quote! { ::core::option::Option::Some(|_, body| #fallback) });
        }
        Some(quote! {
            ::core::option::Option::Some(|status, body| match status { #(#arms)* _ => #fallback })
        })
    }
}

/// A scalar pushed onto `list` under `name`: a required one always; an optional one, its text
/// as a parameter's (`Display`; a date-time in RFC 3339), when given, by one call.
fn send_scalar(p: &Param, (list, name): (TokenStream, TokenStream)) -> TokenStream {
    let wire = &p.wire;
    let field = ident(&p.rust);
    match &p.ty {
        ty if p.required => {
            let value = param_text(quote!(self.#field), ty);
            quote! { #list.push((#name, #value)); }
        }
        TypeRef::DateTime => {
            quote! { rt::given_time(&mut #list, #wire, &self.#field); }
        }
        _ => quote! { rt::given(&mut #list, #wire, &self.#field); },
    }
}

/// A list pushed onto `list` under `name` as one value of its items joined by `delimiter`;
/// an empty list is left out.
fn send_joined(p: &Param, (list, name): (TokenStream, TokenStream), delimiter: &str) -> TokenStream {
    let field = ident(&p.rust);
    let joined = joined(quote!(self.#field), list_inner(p), delimiter);
    quote! {
        if !self.#field.is_empty() {
            #list.push((#name, #joined));
        }
    }
}

/// One JSON text pushed onto `list` under `name`, validated first.
fn send_json(p: &Param, (list, name): (TokenStream, TokenStream), place: &str) -> TokenStream {
    let wire = &p.wire;
    when_given(p, |value| quote! { #list.push((#name, core.json_param(#place, #wire, #value)?)); })
}

/// The type of a list parameter's items.
fn list_inner(p: &Param) -> &TypeRef {
    let TypeRef::List(inner) = &p.ty else { unreachable!("a list parameter is a list") };
    inner
}

/// The text of `item`, one item of a list parameter.
fn list_item(p: &Param) -> TokenStream {
    param_text(quote!(item), list_inner(p))
}

/// The items of the list `list` as text, joined by `delimiter` (text items joined as they are).
fn joined(list: TokenStream, inner: &TypeRef, delimiter: &str) -> TokenStream {
    if matches!(inner, TypeRef::String | TypeRef::Url) {
        return quote! { #list.join(#delimiter) };
    }
    let item = param_text(quote!(item), inner);
    quote! { #list.iter().map(|item| #item).collect::<::std::vec::Vec<::std::string::String>>().join(#delimiter) }
}

/// Writing the form field `item` (a reference) as a form pair or a multipart part: a scalar
/// (a text part, or a part each item of a list) or a file (a part each file of a list), each
/// file `application/octet-stream` unless it names its own type. A part whose media types
/// are declared is sent in one of them (`Part::file_within`, `Part::text_within`).
fn form_write(field: &crate::model::Field, multipart: bool) -> TokenStream {
    let wire = &field.wire;
    let declared = &field.media_types;
    let push = |text: TokenStream| match (multipart, declared.is_empty()) {
        (true, true) => quote! { __parts.push(::apigen_runtime::codegen::Part::text(#wire, #text)); },
        (true, false) => {
            quote! { __parts.push(::apigen_runtime::codegen::Part::text_within(#wire, #text, &[#(#declared),*])); }
        }
        (false, _) => quote! { __fields.push((#wire, #text)); },
    };
    let file = |part: TokenStream| {
        if declared.is_empty() {
            quote! { __parts.push(::apigen_runtime::codegen::Part::file(#wire, #part, "application/octet-stream")); }
        } else {
            quote! { __parts.push(::apigen_runtime::codegen::Part::file_within(#wire, #part, &[#(#declared),*])); }
        }
    };
    match &field.ty {
        TypeRef::File => file(quote!(item)),
        TypeRef::List(inner) if **inner == TypeRef::File => {
            let each = file(quote!(item));
            quote! { for item in item { #each } }
        }
        TypeRef::List(inner) => {
            let each = push(param_text(quote!(item), inner));
            quote! { for item in item { #each } }
        }
        scalar => push(param_text(quote!(item), scalar)),
    }
}

/// `send(value)` for a parameter sent whole (an object, a union, JSON) when the caller gave
/// it: a required one always, an optional one when set, a list when not empty (as the other
/// list parameters); `value` is a reference to it.
fn when_given(p: &Param, send: impl Fn(TokenStream) -> TokenStream) -> TokenStream {
    let field = ident(&p.rust);
    if matches!(p.ty, TypeRef::List(_)) {
        let sent = send(quote!(&self.#field));
        quote! { if !self.#field.is_empty() { #sent } }
    } else if p.required {
        send(quote!(&self.#field))
    } else {
        let sent = send(quote!(value));
        quote! { if let ::core::option::Option::Some(value) = &self.#field { #sent } }
    }
}

/// The path with its parameters: a `format!` of the template, literal text as written, each
/// parameter's value percent-encoded as a segment, the trailing slash kept.
fn path_expr(op: &Operation) -> TokenStream {
    let mut format = String::new();
    let mut args = Vec::new();
    for segment in &op.path.segments {
        format.push('/');
        for piece in segment.pieces() {
            match piece {
                Piece::Text(text) => format.push_str(&text.replace('{', "{{").replace('}', "}}")),
                Piece::Param(wire) => {
                    let param = op.params.iter().find(|p| p.wire == wire);
                    if let Some(prefix) = param.and_then(|p| p.wire_form.path_prefix()) {
                        format.push_str(&prefix.replace('{', "{{").replace('}', "}}"));
                    }
                    format.push_str("{}");
                    args.push(segment_arg(op, &wire));
                }
            }
        }
    }
    if op.path.trailing_slash || op.path.segments.is_empty() {
        format.push('/');
    }
    if args.is_empty() {
        // `Call::new` takes the literal as it is.
        quote! { #format }
    } else {
        quote! { ::std::format!(#format, #(#args),*) }
    }
}

/// A path parameter's value, percent-encoded by the runtime's `segment`.
fn segment_arg(op: &Operation, wire: &str) -> TokenStream {
    let param = op.params.iter().find(|p| p.wire == wire).expect("lowered");
    let field = ident(&param.rust);
    match &param.wire_form {
        // The text of the variant it holds (`call()` fails on anything but a scalar).
        ParamWire::PathUnion { .. } => quote! {
            rt::segment(&rt::scalar_text(#wire, &self.#field)?)
        },
        // Comma-separated items (`/users/1,2`), each percent-encoded; a date-time's text is
        // RFC 3339, not its `Display`.
        ParamWire::PathList if *list_inner(param) == TypeRef::DateTime => quote! {
            rt::segments(
                &self.#field.iter().map(|item| item.to_rfc3339()).collect::<::std::vec::Vec<_>>()
            )
        },
        ParamWire::PathList => quote! { rt::segments(&self.#field) },
        ParamWire::Path { .. } => match &param.ty {
            TypeRef::String | TypeRef::Url => quote! { rt::segment(&self.#field) },
            TypeRef::Named(_) => quote! { rt::segment(self.#field.as_str()) },
            other => {
                let text = param_text(quote!(self.#field), other);
                quote! { rt::segment(&#text) }
            }
        },
        ParamWire::Query
        | ParamWire::QueryUnlessEmpty
        | ParamWire::QueryRepeated
        | ParamWire::QueryDelimited(_)
        | ParamWire::QueryBrackets
        | ParamWire::QueryObject(_)
        | ParamWire::QueryJson
        | ParamWire::Header
        | ParamWire::HeaderList
        | ParamWire::HeaderJson
        | ParamWire::Cookie => unreachable!("the parameters in a path travel in the path"),
    }
}

/// Whether `tokens` use the local `core` (not a path through `::core`).
fn mentions_core(tokens: &TokenStream) -> bool {
    let mut after_colon = false;
    tokens.clone().into_iter().any(|tree| match tree {
        proc_macro2::TokenTree::Group(group) => mentions_core(&group.stream()),
        proc_macro2::TokenTree::Ident(name) => {
            let found = name == "core" && !after_colon;
            after_colon = false;
            found
        }
        proc_macro2::TokenTree::Punct(punct) => {
            after_colon = punct.as_char() == ':';
            false
        }
        proc_macro2::TokenTree::Literal(_) => {
            after_colon = false;
            false
        }
    })
}

/// The method's name among reqwest's constants.
fn method_ident(method: Method) -> proc_macro2::Ident {
    ident(method.as_str())
}
