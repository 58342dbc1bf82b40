//! What an operation looks like to a caller and to an implementer, decided once, before any
//! tokens (as progenitor's `OperationMethod` does): the client's method, its positional
//! arguments and the builder's setters with their final names, the body's style, the media
//! type choices, how the answer is read and whether it pages; the server's answer and the
//! statuses a handler chooses among. Every Rust name an operation or a group adds to a
//! generated crate is made here ([`OperationNames`], [`TagNames`]) and claimed in lowering
//! with the names the spec gives, so a collision is a located error, and emitters read names
//! instead of making them.

use super::names::{Case, sanitize};
use super::{
    Access, Api, Encoding, Field, Object, Operation, ParamIn, Presence, Response, ResponseBody, TypeDef, TypeKind,
    TypeRef,
};
use std::collections::BTreeSet;

/// The Rust names an operation adds to the generated crates (each claimed in lowering when
/// the item exists).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OperationNames {
    /// Server: the request the handler receives (`GetSpaceRequest`).
    pub request: String,
    /// Server: the statuses a handler chooses among, when they share a body (`CreateSpaceStatus`).
    pub status: String,
    /// Client: the builder a call is set up with (`GetSpaceBuilder`).
    pub builder: String,
    /// Types: the answer enumeration, when statuses answer different bodies (`GetSpaceAnswer`).
    pub answer: String,
    /// Types: the typed response headers (`GetSpaceHeaders`).
    pub headers: String,
    /// Client: the media types the body can be sent as (`CreateSpaceContentType`).
    pub content_type: String,
    /// Client: the media types the answer can be asked in (`GetSpaceAccept`).
    pub accept: String,
    /// Types: the body in the media type it came in, when it has alternatives
    /// (`PlaceOrderContent`).
    pub content: String,
}

impl OperationNames {
    /// The names of the operation whose Rust type name is `rust_type`.
    pub fn of(rust_type: &str) -> Self {
        OperationNames {
            request: format!("{rust_type}Request"),
            status: format!("{rust_type}Status"),
            builder: format!("{rust_type}Builder"),
            answer: format!("{rust_type}Answer"),
            headers: format!("{rust_type}Headers"),
            content_type: format!("{rust_type}ContentType"),
            accept: format!("{rust_type}Accept"),
            content: format!("{rust_type}Content"),
        }
    }
}

/// The Rust names a group adds to the generated crates.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TagNames {
    /// Client: the handle of the group's operations (`SpacesClient`).
    pub client: String,
    /// Server: the trait a service implements for the group (`SpacesApi`).
    pub server_trait: String,
    /// Server: the bound standing for that trait whether or not the group is compiled
    /// (`SpacesApiBound`, private to the crate's root module).
    pub server_bound: String,
}

impl TagNames {
    /// The names of the group named `tag` in the spec.
    pub fn of(tag: &str) -> Self {
        let server_trait = sanitize(&format!("{tag}-api"), Case::Pascal);
        TagNames {
            client: sanitize(&format!("{tag}-client"), Case::Pascal),
            server_bound: format!("{server_trait}Bound"),
            server_trait,
        }
    }
}

/// How an answer is read and written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum AnswerKind {
    /// No body.
    Empty,
    /// A JSON value (or a page of a list).
    #[default]
    Json,
    /// Text.
    Text,
    /// Raw bytes, streamed.
    Download,
    /// Statuses with bodies of their own: the answer enumeration.
    Varied,
}

impl AnswerKind {
    /// How the success answer of `response` is read and written.
    pub fn of(response: &Response) -> Self {
        if response.is_varied() {
            return AnswerKind::Varied;
        }
        match (&response.body, response.encoding()) {
            (ResponseBody::Empty, _) => AnswerKind::Empty,
            (_, Some(Encoding::Binary)) => AnswerKind::Download,
            (_, Some(Encoding::Text)) => AnswerKind::Text,
            _ => AnswerKind::Json,
        }
    }
}

/// What an operation looks like to an implementer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServerShape {
    /// How the handler's value is written.
    pub answer: AnswerKind,
    /// The handler chooses among several statuses sharing one body (the status enumeration).
    pub chooses_status: bool,
    /// The body is raw bytes, streamed to the handler (read once: the request is neither
    /// cloned nor compared). A body with alternatives is read whole, a raw one as `Bytes`.
    pub streams_body: bool,
}

impl ServerShape {
    /// The server shape of `op`.
    pub fn of(op: &Operation) -> Self {
        ServerShape {
            answer: AnswerKind::of(&op.response),
            chooses_status: !op.response.also.is_empty() && !op.response.is_varied(),
            streams_body: op.body.as_ref().is_some_and(|b| b.ty == TypeRef::Bytes && b.alternatives.is_empty()),
        }
    }
}

/// How one parameter travels, decided once in lowering (`lower/shapes.rs`, once types are
/// known), as progenitor's `OperationParameterKind` is: the client writes it and the server
/// reads it by matching this, each arm naming what it calls, so a new way to travel fails to
/// compile until both sides handle it. What a value's text is (an enumeration's name, a
/// number parsed) stays with its type; this says where and in what form the text goes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ParamWire {
    /// One path segment holding a scalar (`/users/5`), after `prefix` when it has one
    /// (`label`: `.5`; `matrix`: `;id=5`).
    Path {
        /// The text before the value in its segment (`.`, `;id=`).
        prefix: Option<String>,
    },
    /// One path segment of comma-separated items (`/users/1,2`: `simple`).
    PathList,
    /// One path segment holding a union of scalars (`/users/5` or `/users/octocat`), decoded
    /// as the variant its text reads as; after `prefix` as a scalar is.
    PathUnion {
        /// The text before the value in its segment (`.`, `;id=`).
        prefix: Option<String>,
    },
    /// A query scalar (`limit=5`). The placeholder before shapes are settled.
    #[default]
    Query,
    /// A query scalar whose empty value (`limit=`) is the parameter left out (OpenAPI's
    /// `allowEmptyValue`, on a parameter that is not text).
    QueryUnlessEmpty,
    /// A query list as repeated keys (`ids=1&ids=2`: `form`, the default).
    QueryRepeated,
    /// A query list as one value of items delimited by this character (`ids=1,2`: `form`
    /// not exploded; `spaceDelimited`; `pipeDelimited`).
    QueryDelimited(char),
    /// A query list in brackets (`expand[]=a&expand[]=b`: `deepObject` on a list).
    QueryBrackets,
    /// A query object, a map or a union, sent and read whole as a form of nested values
    /// (`apigen_runtime::form`).
    QueryObject(QueryObject),
    /// A query parameter of any type written as one JSON text (`filter={"a":1}`).
    QueryJson,
    /// A header scalar.
    Header,
    /// A header list, one comma-separated value.
    HeaderList,
    /// A header of any type written as one JSON text.
    HeaderJson,
    /// A cookie scalar.
    Cookie,
}

/// How a query object travels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueryObject {
    /// Under its name, nested values in brackets (`filter[status]=x`; a union's scalar as
    /// `created=5`): `deepObject`, or a union exploded.
    Deep,
    /// Exploded: each field a query parameter of its own (`number=2&size=10`: `form`); these
    /// are the fields' wire names.
    Flat(Vec<String>),
}

impl ParamWire {
    /// Whether the value is sent and read whole, not as the text of a scalar or a list: a
    /// query object, JSON text, or a union in the path (its samples are decoded from JSON too,
    /// and sending it can fail).
    pub fn is_decoded(&self) -> bool {
        match self {
            ParamWire::QueryObject(_) | ParamWire::QueryJson | ParamWire::HeaderJson | ParamWire::PathUnion { .. } => {
                true
            }
            ParamWire::Path { .. }
            | ParamWire::PathList
            | ParamWire::Query
            | ParamWire::QueryUnlessEmpty
            | ParamWire::QueryRepeated
            | ParamWire::QueryDelimited(_)
            | ParamWire::QueryBrackets
            | ParamWire::Header
            | ParamWire::HeaderList
            | ParamWire::Cookie => false,
        }
    }

    /// Whether the value is one scalar's text under its name (`limit=5`, a header, a cookie,
    /// a path segment): neither a list nor decoded.
    pub fn is_scalar_text(&self) -> bool {
        match self {
            ParamWire::Path { .. }
            | ParamWire::Query
            | ParamWire::QueryUnlessEmpty
            | ParamWire::Header
            | ParamWire::Cookie => true,
            ParamWire::PathList
            | ParamWire::PathUnion { .. }
            | ParamWire::QueryRepeated
            | ParamWire::QueryDelimited(_)
            | ParamWire::QueryBrackets
            | ParamWire::QueryObject(_)
            | ParamWire::QueryJson
            | ParamWire::HeaderList
            | ParamWire::HeaderJson => false,
        }
    }

    /// The text before a path parameter's value in its segment (`.` for `label`, `;name=`
    /// for `matrix`); `None` for the others.
    pub fn path_prefix(&self) -> Option<&str> {
        match self {
            ParamWire::Path { prefix } | ParamWire::PathUnion { prefix } => prefix.as_deref(),
            ParamWire::PathList
            | ParamWire::Query
            | ParamWire::QueryUnlessEmpty
            | ParamWire::QueryRepeated
            | ParamWire::QueryDelimited(_)
            | ParamWire::QueryBrackets
            | ParamWire::QueryObject(_)
            | ParamWire::QueryJson
            | ParamWire::Header
            | ParamWire::HeaderList
            | ParamWire::HeaderJson
            | ParamWire::Cookie => None,
        }
    }
}

/// How a request body is given to the client.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum BodyStyle {
    /// The operation takes no body.
    #[default]
    None,
    /// An object: its required field (at most one) is an argument, the others setters.
    Fields,
    /// Anything else (a union, an object of several required fields): the whole body is an
    /// argument.
    Positional,
    /// The body may be left out: `.body(..)` sets it.
    Optional,
}

/// Where a positional argument of the client's method goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgTarget {
    /// The parameter at this index of the operation's `params`.
    Param(usize),
    /// The field at this index of the body object's `fields`.
    Field(usize),
    /// The whole body.
    Body,
}

/// A positional argument of the client's method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arg {
    /// Its Rust name.
    pub name: String,
    /// Where it goes.
    pub target: ArgTarget,
}

/// What a builder setter sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetterTarget {
    /// A header of the caller's choosing (`.header(name, value)`).
    Header,
    /// The optional parameter at this index of `params`.
    Param(usize),
    /// The whole body (replacing it, or giving the optional one).
    Body,
    /// The body field at this index of the body object's `fields`.
    Field(usize),
    /// The body field at this index sent as `null` (`clear_<field>`).
    Clear(usize),
    /// The media type choice at this index of [`ClientShape::media`].
    Media(usize),
}

/// A builder setter with its final name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setter {
    /// Its Rust name.
    pub name: String,
    /// What it sets.
    pub target: SetterTarget,
}

/// A choice of media type the builder offers: the body's (`content_type`) or the answer's
/// (`accept`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaChoice {
    /// The enumeration of the choices.
    pub enumeration: String,
    /// The builder's member and setter.
    pub member: String,
    /// True for the answer's media type, false for the body's.
    pub accept: bool,
    /// Each media type, with its variant.
    pub variants: Vec<(String, String)>,
}

/// Which media type a call asks the answer in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum AcceptHeader {
    /// None: JSON, or no body.
    #[default]
    None,
    /// This one.
    Fixed(String),
    /// The one the builder's `accept` chose.
    Chosen,
}

/// What an operation looks like to a caller.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientShape {
    /// The method on the group's handle (`get`; the full name where it would be ambiguous).
    pub method: String,
    /// The method's positional arguments, in order: path parameters, required query, header
    /// and cookie parameters, then the body's required field or the body.
    pub args: Vec<Arg>,
    /// The builder's setters, in order.
    pub setters: Vec<Setter>,
    /// How the body is given.
    pub body: BodyStyle,
    /// The media type choices, the body's first.
    pub media: Vec<MediaChoice>,
    /// Which media type the answer is asked in.
    pub accept: AcceptHeader,
    /// How the answer is read.
    pub answer: AnswerKind,
    /// The builder has `.stream()`, following the pages of a list.
    pub streams: bool,
}

/// The methods of std's operator traits that take `self` and a value as a setter does: a
/// setter named so would be taken by clippy's `should_implement_trait` for `Add::add`.
const OPERATOR_METHODS: &[&str] = &["add", "sub", "mul", "div", "rem", "shl", "shr", "bitand", "bitor", "bitxor"];

/// Builder method names taken before any setter: what every builder has (the generic
/// `Request`'s methods, `new` among them), and names once taken by builder members, kept so
/// that setters keep their names.
const BUILDER_METHODS: &[&str] = &[
    "new",
    "send",
    "send_with_response",
    "stream",
    "body",
    "call",
    "core",
    "header",
    "headers",
    "decode_answer",
    "content_type",
    "accept",
];

impl ClientShape {
    /// The client shape of `op`, whose method on its handle is `method`.
    pub fn of(api: &Api, op: &Operation, method: String, names: &OperationNames) -> Self {
        let body = body_style(api, op);
        let media = media_choices(op, names);
        let args = args(api, op, body);
        let setters = setters(api, op, body, &media);
        let accept = match op.response.media_types.as_slice() {
            [] => AcceptHeader::None,
            [only] if only == "application/json" => AcceptHeader::None,
            [only] => AcceptHeader::Fixed(only.clone()),
            _ => AcceptHeader::Chosen,
        };
        let streams = op.is_paginated() && op.body.is_none() && op.pagination.is_some();
        ClientShape { method, args, setters, body, media, accept, answer: AnswerKind::of(&op.response), streams }
    }

    /// The optional parameters: each a builder member and a setter.
    pub fn optional_params(op: &Operation) -> impl Iterator<Item = (usize, &super::Param)> {
        op.params.iter().enumerate().filter(|(_, p)| p.location != ParamIn::Path && !p.required)
    }
}

/// The body's object type, when it is one.
pub fn body_object<'a>(api: &'a Api, op: &Operation) -> Option<(&'a TypeDef, &'a Object)> {
    let TypeRef::Named(name) = &op.body.as_ref()?.ty else { return None };
    let def = api.ty(name);
    match &def.kind {
        TypeKind::Object(object) => Some((def, object)),
        _ => None,
    }
}

/// Fields of an object body the caller must give (by index): the method's arguments.
pub fn required_fields(def: &TypeDef, object: &Object) -> Vec<usize> {
    let required = |f: &Field| f.constant.is_none() && f.presence(def.usage) == Presence::Required;
    object.fields.iter().enumerate().filter(|(_, f)| required(f)).map(|(i, _)| i).collect()
}

fn body_style(api: &Api, op: &Operation) -> BodyStyle {
    let Some(body) = &op.body else { return BodyStyle::None };
    // A required nullable body is set like an optional one: not set, `null` is sent.
    if body.optional || body.nullable {
        return BodyStyle::Optional;
    }
    // A body with alternatives is one value of the content enumeration, given whole.
    if !body.alternatives.is_empty() {
        return BodyStyle::Positional;
    }
    // Required fields become arguments only while there is at most one: two arguments of one
    // type (`create("Dune", "9780441172719")`) could be swapped unnoticed, so past one the
    // caller writes the body as a struct literal, which names every field.
    match body_object(api, op) {
        Some((def, object)) if required_fields(def, object).len() <= 1 => BodyStyle::Fields,
        _ => BodyStyle::Positional,
    }
}

fn args(api: &Api, op: &Operation, body: BodyStyle) -> Vec<Arg> {
    // Every path parameter and required parameter is an argument, as the API has them.
    let mut args: Vec<Arg> = op
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| p.location == ParamIn::Path || p.required)
        .map(|(i, p)| Arg { name: p.rust.clone(), target: ArgTarget::Param(i) })
        .collect();
    match body {
        BodyStyle::Fields => {
            let (def, object) = body_object(api, op).expect("a body object");
            let mut taken: BTreeSet<String> = op.params.iter().map(|p| p.rust.clone()).collect();
            for index in required_fields(def, object) {
                let name = free_name(&mut taken, &object.fields[index].rust);
                args.push(Arg { name, target: ArgTarget::Field(index) });
            }
        }
        BodyStyle::Positional => args.push(Arg { name: "body".into(), target: ArgTarget::Body }),
        BodyStyle::None | BodyStyle::Optional => {}
    }
    args
}

fn setters(api: &Api, op: &Operation, body: BodyStyle, media: &[MediaChoice]) -> Vec<Setter> {
    let mut taken: BTreeSet<String> = BUILDER_METHODS.iter().chain(OPERATOR_METHODS).map(|s| (*s).to_owned()).collect();
    let mut setters = vec![Setter { name: "header".into(), target: SetterTarget::Header }];
    for (index, param) in ClientShape::optional_params(op) {
        // A parameter named like a builder method (`accept`, `headers`) is moved aside.
        let name = suffixed(&mut taken, &param.rust);
        setters.push(Setter { name, target: SetterTarget::Param(index) });
    }
    let sent = |f: &&Field| f.constant.is_none() && f.access != Access::ReadOnly;
    let field_setters = |setters: &mut Vec<Setter>, taken: &mut BTreeSet<String>, def: &TypeDef, index: usize| {
        let field = &body_object(api, op).expect("a body object").1.fields[index];
        // Named like an operator's method: moved aside as a parameter is; taken by a parameter
        // or a builder method: `body_` says whose it is.
        let name = if OPERATOR_METHODS.contains(&field.rust.as_str()) {
            suffixed(taken, &field.rust)
        } else {
            free_name(taken, &field.rust)
        };
        setters.push(Setter { name, target: SetterTarget::Field(index) });
        if matches!(field.presence(def.usage), Presence::TriState | Presence::Nullable) {
            let name = free_name(taken, &format!("clear_{}", field.rust));
            setters.push(Setter { name, target: SetterTarget::Clear(index) });
        }
    };
    match body {
        BodyStyle::Fields => {
            setters.push(Setter { name: "body".into(), target: SetterTarget::Body });
            if let Some((def, object)) = body_object(api, op) {
                let required = required_fields(def, object);
                for (index, _) in object.fields.iter().enumerate().filter(|(_, f)| sent(f)) {
                    if !required.contains(&index) {
                        field_setters(&mut setters, &mut taken, def, index);
                    }
                }
            }
        }
        BodyStyle::Optional => {
            setters.push(Setter { name: "body".into(), target: SetterTarget::Body });
            // A body of optional fields only (so its type is `Default`): a setter per field,
            // the first one set starting the body (not with alternatives: the body is one of
            // several values, given whole).
            let alone = op.body.as_ref().is_some_and(|b| b.alternatives.is_empty());
            if let Some((def, object)) = body_object(api, op).filter(|_| alone) {
                let fields: Vec<(usize, &Field)> = object.fields.iter().enumerate().filter(|(_, f)| sent(f)).collect();
                let optional = |f: &Field| {
                    matches!(f.presence(def.usage), Presence::Optional | Presence::Nullable | Presence::TriState)
                };
                if fields.iter().all(|(_, f)| optional(f)) {
                    for (index, _) in fields {
                        field_setters(&mut setters, &mut taken, def, index);
                    }
                }
            }
        }
        BodyStyle::None | BodyStyle::Positional => {}
    }
    for (index, choice) in media.iter().enumerate() {
        setters.push(Setter { name: choice.member.clone(), target: SetterTarget::Media(index) });
    }
    setters
}

/// The media type choices a builder offers, for a body sent in several media types and for
/// an answer negotiated among several.
fn media_choices(op: &Operation, names: &OperationNames) -> Vec<MediaChoice> {
    let variants = |media_types: &[String]| {
        // Media types differing only in punctuation (`vnd.a-b`, `vnd.a.b`) would give one
        // variant: the later ones are numbered.
        let mut taken = BTreeSet::new();
        media_types.iter().map(|m| (m.clone(), numbered(&mut taken, media_variant(m)))).collect()
    };
    let mut choices = Vec::new();
    if let Some(body) = op.body.as_ref().filter(|b| b.media_types.len() > 1) {
        choices.push(MediaChoice {
            enumeration: names.content_type.clone(),
            member: "content_type".into(),
            accept: false,
            variants: variants(&body.media_types),
        });
    }
    if op.response.media_types.len() > 1 {
        choices.push(MediaChoice {
            enumeration: names.accept.clone(),
            member: "accept".into(),
            accept: true,
            variants: variants(&op.response.media_types),
        });
    }
    choices
}

/// The variant naming a media type in the generated media type enumerations
/// (`application/x-www-form-urlencoded` gives `ApplicationXWwwFormUrlencoded`).
pub fn media_variant(media: &str) -> String {
    // A range's `*` is "any": `image/*` is `ImageAny`, `*/*` `AnyAny`.
    let essence = media.split(';').next().unwrap_or_default().trim().replace('*', "any");
    sanitize(&essence, Case::Pascal)
}

/// The variant of a body in its content enumeration (`<Operation>Content`), named after its
/// first media type as [`media_variant`] names it, numbered past one taken.
pub fn variant_name(taken: &mut BTreeSet<String>, media: &str) -> String {
    numbered(taken, media_variant(media))
}

/// `wanted`, or `wanted2`, `wanted3`... until free; marks it taken.
fn numbered(taken: &mut BTreeSet<String>, wanted: String) -> String {
    let mut name = wanted.clone();
    let mut n = 1;
    while !taken.insert(name.clone()) {
        n += 1;
        name = format!("{wanted}{n}");
    }
    name
}

/// `wanted`, or with `_` appended until free; marks it taken.
fn suffixed(taken: &mut BTreeSet<String>, wanted: &str) -> String {
    let mut name = wanted.to_owned();
    while taken.contains(&name) {
        name.push('_');
    }
    taken.insert(name.clone());
    name
}

/// `wanted`, or `body_wanted`, or with `_` appended until free; marks it taken.
fn free_name(taken: &mut BTreeSet<String>, wanted: &str) -> String {
    let mut name = wanted.to_owned();
    if taken.contains(&name) {
        name = format!("body_{wanted}");
    }
    while taken.contains(&name) {
        name.push('_');
    }
    taken.insert(name.clone());
    name
}
