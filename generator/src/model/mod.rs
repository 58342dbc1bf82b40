//! The validated model of an API: what every emitter works from.
//!
//! Built by lowering (`lower::lower`) from the raw spec, after every semantic check has passed. Every
//! reference resolves, every name is computed (and collision-checked) once, inline shapes are
//! lifted to named types, and collections are ordered deterministically: maps are `BTreeMap`s,
//! lists keep the order of the spec text, which is read in sorted file order. Nothing here
//! knows how code is emitted.

pub mod crates;
pub mod names;
pub mod path;
pub mod pattern;
pub mod reach;
pub mod sample;
pub mod shape;
pub mod typeref;

use crate::diag::Location;
use serde_json::{Number, Value};
use std::collections::BTreeMap;

/// What a string format accepts is decided once, in the runtime's `format.rs` (a file without
/// dependencies), compiled in here rather than depended on: lint checks a spec's samples by the
/// rules the generated server checks requests by, and a user's build script that takes apigen
/// next to its own copy of the runtime would otherwise hold two `apigen-runtime` packages.
#[path = "../../embedded/runtime/src/format.rs"]
mod format;
pub use crates::CrateNames;
pub use format::{Format, is_absolute_url};
pub use path::{PathSegment, PathTemplate, Piece, routes_conflict};
pub use shape::{ClientShape, OperationNames, ParamWire, ServerShape, TagNames};
pub use typeref::TypeRef;

/// The whole API.
#[derive(Debug, Clone)]
pub struct Api {
    /// Crate-name prefix (`docs-api`).
    pub name: String,
    /// The generated crates' names, made from `name` (set by `lower::shapes::settle`).
    pub crates: CrateNames,
    /// Human title.
    pub title: String,
    /// Version.
    pub version: String,
    /// What the API does.
    pub description: Option<String>,
    /// Where it is described.
    pub source: Option<String>,
    /// The generated crates' license (`api.license`), unless `apigen.toml` sets one.
    pub license: Option<String>,
    /// OpenAPI `x-` extensions kept for the export: `x-<name>` at the document's root,
    /// `info.x-<name>` in its `info` (`api.extensions`).
    pub extensions: BTreeMap<String, Value>,
    /// Groups, in the order declared.
    pub tags: Vec<Tag>,
    /// Every type, named or lifted from an inline shape, by name.
    pub types: BTreeMap<String, TypeDef>,
    /// Operations, in spec order (files sorted by path, then document order).
    pub operations: Vec<Operation>,
    /// Gaps by id.
    pub gaps: BTreeMap<String, Gap>,
    /// The list convention.
    pub pagination: Pagination,
    /// Auth schemes, in declared order (one bearer scheme named `bearer` when the spec
    /// declares none).
    pub auth_schemes: Vec<AuthScheme>,
    /// Where the API is served, in declared order (empty: the spec declares none).
    pub servers: Vec<Server>,
    /// The API's error body.
    pub errors: ErrorConvention,
    /// Hash of the spec files, for generated headers.
    pub spec_hash: String,
    /// The position of each tag in `tags`, by name (set by [`Api::index_tags`]).
    pub tag_index: BTreeMap<String, usize>,
}

impl Api {
    /// True when a pattern of the spec (a field's or a parameter's) is read only by the
    /// backtracking engine (look-around, backreferences): the generated types crate then turns
    /// on the runtime's `extended-patterns` feature, which a spec without one never builds.
    pub fn needs_backtracking_patterns(&self) -> bool {
        let fields = self.types.values().flat_map(|t| match &t.kind {
            TypeKind::Object(object) => object.fields.as_slice(),
            _ => &[],
        });
        let params = self.operations.iter().flat_map(|op| &op.params);
        fields
            .map(|f| &f.constraints)
            .chain(params.map(|p| &p.constraints))
            .filter_map(|c| c.pattern.as_deref())
            .any(pattern::needs_backtracking)
    }

    /// The scheme named `name`. Lowering guarantees every operation's schemes exist.
    pub fn scheme(&self, name: &str) -> &AuthScheme {
        self.auth_schemes.iter().find(|s| s.name == name).expect("lowered scheme")
    }

    /// The type named `name`. Lowering guarantees every reference resolves.
    pub fn ty(&self, name: &str) -> &TypeDef {
        &self.types[name]
    }

    /// Whether `ty` travels in a form as text: a scalar or an enumeration.
    pub fn form_scalar(&self, ty: &TypeRef) -> bool {
        form_scalar(&self.types, ty)
    }

    /// Whether a form body of type `ty` is flat, read field by field: an object whose every
    /// field is a scalar, an enumeration, a list of those, or a file. A urlencoded body that
    /// is not (objects, maps, lists of objects at any depth) travels in brackets
    /// (`items[0][price]=x`, `apigen_runtime::form`) and is decoded whole, like JSON.
    pub fn flat_form(&self, ty: &TypeRef) -> bool {
        let TypeRef::Named(name) = ty else { return true };
        let Some(TypeKind::Object(object)) = self.types.get(name).map(|d| &d.kind) else { return true };
        object.fields.iter().all(|f| match &f.ty {
            TypeRef::File => true,
            TypeRef::List(inner) => **inner == TypeRef::File || self.form_scalar(inner),
            other => self.form_scalar(other),
        })
    }

    /// Whether `ty` is an object with a field that is a file or a list of files.
    pub fn holds_files(&self, ty: &TypeRef) -> bool {
        let TypeRef::Named(name) = ty else { return false };
        let Some(TypeKind::Object(object)) = self.types.get(name).map(|d| &d.kind) else { return false };
        object.fields.iter().any(|f| f.ty.is_file_or_files())
    }

    /// Whether a field of type `ty` of a multipart body travels as ONE part holding its JSON
    /// (OpenAPI's default for an object, a map, a list of objects: `application/json`); a
    /// scalar, a list of scalars (a part each), a file or a list of files does not.
    pub fn json_part(&self, ty: &TypeRef) -> bool {
        match ty {
            TypeRef::List(inner) => !(**inner == TypeRef::File || self.form_scalar(inner)),
            TypeRef::File => false,
            other => !self.form_scalar(other),
        }
    }

    /// Whether `ty` is an object keeping undeclared keys (`additional_properties`) with no
    /// file field: as a form, decoded whole so that those keys reach its `extra`.
    pub fn form_keeps_extras(&self, ty: &TypeRef) -> bool {
        let TypeRef::Named(name) = ty else { return false };
        let Some(TypeKind::Object(object)) = self.types.get(name).map(|d| &d.kind) else { return false };
        object.additional.is_some() && !object.fields.iter().any(|f| f.ty.is_file_or_files())
    }

    /// The group of an operation. Lowering guarantees every operation's tag exists.
    pub fn tag_of(&self, op: &Operation) -> &Tag {
        &self.tags[self.tag_index[&op.tag]]
    }

    /// Tags that have at least one operation, in declared order.
    pub fn tags_with_operations(&self) -> impl Iterator<Item = &Tag> {
        self.tags.iter().filter(|t| !t.operations.is_empty())
    }

    /// Indexes the tags by name and each tag's operations, so finding either costs a lookup,
    /// not a scan (an API may have as many tags as operations). Lowering calls it once the
    /// operations are known.
    pub fn index_tags(&mut self) {
        self.tag_index = self.tags.iter().enumerate().map(|(i, t)| (t.name.clone(), i)).collect();
        for tag in &mut self.tags {
            tag.operations.clear();
        }
        for (i, op) in self.operations.iter().enumerate() {
            if let Some(&tag) = self.tag_index.get(&op.tag) {
                self.tags[tag].operations.push(i);
            }
        }
    }

    /// Which groups need each type ([`reach`]).
    pub fn reach(&self) -> reach::Reach<'_> {
        reach::Reach::of(self)
    }

    /// Operations of a tag, in spec order.
    pub fn operations_of<'a>(&'a self, tag: &'a str) -> impl Iterator<Item = &'a Operation> + 'a {
        let indices = self.tag_index.get(tag).map(|&t| self.tags[t].operations.as_slice()).unwrap_or_default();
        indices.iter().map(|&i| &self.operations[i])
    }
}

/// A group of operations.
#[derive(Debug, Clone)]
pub struct Tag {
    /// Name as used in the spec (`site-structure`).
    pub name: String,
    /// Title for humans.
    pub title: String,
    /// What the group covers.
    pub description: Option<String>,
    /// Where in the documents.
    pub source: Option<String>,
    /// Rust snake-case name (`site_structure`).
    pub rust: String,
    /// Rust Pascal-case name (`SiteStructure`).
    pub rust_type: String,
    /// The Rust names the group adds to the generated crates.
    pub names: TagNames,
    /// Where it is declared.
    pub origin: Location,
    /// Its operations, by position in `Api::operations` (set by [`Api::index_tags`]).
    pub operations: Vec<usize>,
}

/// Something the documents do not show, and what was decided.
#[derive(Debug, Clone)]
pub struct Gap {
    /// Id (`limit-default`).
    pub id: String,
    /// Where the documents say "not shown".
    pub source: String,
    /// What is not shown.
    pub gap: String,
    /// The decision.
    pub decision: String,
    /// The elements that depend on it (`operation listSpaces`, `field Space.language`).
    pub used_by: Vec<String>,
}

/// The list convention: which parameters page, where a page's items and the next page are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pagination {
    /// Shared parameters every paginated operation takes.
    pub params: Vec<String>,
    /// The one of them that takes the next page's position.
    pub cursor: String,
    /// Gaps of the convention.
    pub gaps: Vec<String>,
    /// What the envelope is.
    pub description: Option<String>,
    /// How the next page is found.
    pub style: PageStyle,
    /// JSON pointer of the items in a page's body (empty: the body is the list).
    pub items: String,
}

impl Default for Pagination {
    /// The built-in envelope `{ next?: { page }, count?, items }`.
    fn default() -> Self {
        Pagination {
            params: Vec::new(),
            cursor: String::new(),
            gaps: Vec::new(),
            description: None,
            style: PageStyle::Cursor { next: "/next/page".into() },
            items: "/items".into(),
        }
    }
}

impl Pagination {
    /// True for the built-in envelope (`{ next?: { page }, count?, items }`), which the
    /// runtime's `Page<T>` is.
    pub fn is_standard(&self) -> bool {
        self.items == "/items" && self.style == PageStyle::Cursor { next: "/next/page".into() }
    }
}

/// How the next page is found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageStyle {
    /// A cursor in the body at a JSON pointer; absent, null or empty on the last page.
    Cursor {
        /// Where it is.
        next: String,
    },
    /// A boolean in the body says more follow; the cursor is a field of the last item.
    HasMore {
        /// Where the boolean is.
        has_more: String,
        /// Where the cursor is inside an item.
        item_id: String,
    },
    /// The cursor parameter is an offset; an empty page is the last.
    Offset,
    /// The cursor parameter is a page number; an empty page is the last.
    Page,
    /// The `Link` header's `rel="next"` URL.
    Link,
}

impl PageStyle {
    /// Its name in the spec.
    pub fn as_str(&self) -> &'static str {
        match self {
            PageStyle::Cursor { .. } => "cursor",
            PageStyle::HasMore { .. } => "has-more",
            PageStyle::Offset => "offset",
            PageStyle::Page => "page",
            PageStyle::Link => "link",
        }
    }
}

/// Which way a type travels, which decides how lenient its decoding is and whether fields
/// that are both optional and nullable are tri-state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// Reachable from a request body.
    pub input: bool,
    /// Reachable from a response body.
    pub output: bool,
}

/// A type.
#[derive(Debug, Clone)]
pub struct TypeDef {
    /// Name in the spec (`Collection`, or a derived name such as `OrganizationBilling`).
    pub name: String,
    /// Rust name.
    pub rust: String,
    /// What it is.
    pub description: Option<String>,
    /// Where in the documents.
    pub source: Option<String>,
    /// Object, enumeration or union.
    pub kind: TypeKind,
    /// Gaps it depends on.
    pub gaps: Vec<String>,
    /// Where it is declared.
    pub origin: Location,
    /// For a lifted inline shape, the element it was declared in (`Organization.billing`).
    pub inline_of: Option<String>,
    /// Which way it travels.
    pub usage: Usage,
    /// The depth of its smallest value (1 for a type of scalars), computed by lowering.
    pub depth: usize,
}

/// The kinds of type.
#[derive(Debug, Clone)]
pub enum TypeKind {
    /// A JSON object with known fields.
    Object(Object),
    /// A string with listed values.
    Enum(Enum),
    /// One of several types.
    Union(Union),
}

/// An object type.
#[derive(Debug, Clone, Default)]
pub struct Object {
    /// Fields in wire order.
    pub fields: Vec<Field>,
    /// Type of the values of keys beyond `fields`, when they are kept.
    pub additional: Option<TypeRef>,
    /// The object types whose fields this one includes (OpenAPI `allOf`), in order; their
    /// fields are already in `fields`, first.
    pub includes: Vec<String>,
    /// True when a request's fields this object does not declare are dropped unread
    /// (`unknown_fields: ignore`) rather than refused.
    pub ignores_unknown: bool,
}

impl Object {
    /// The field with this wire name.
    pub fn field(&self, wire: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.wire == wire)
    }

    /// Fields that must be present for the object to decode.
    pub fn required_fields(&self) -> impl Iterator<Item = &Field> {
        self.fields.iter().filter(|f| !f.optional)
    }
}

/// A field of an object.
#[derive(Debug, Clone)]
pub struct Field {
    /// Name on the wire, exactly as the documents spell it.
    pub wire: String,
    /// Rust name.
    pub rust: String,
    /// Type.
    pub ty: TypeRef,
    /// May be absent.
    pub optional: bool,
    /// May be null.
    pub nullable: bool,
    /// The document's schema gives an object's properties without `type` (spec key
    /// `untyped`): a JSON value that is not an object fits it and reads as the field left
    /// out, so the field is an `Option` even when required (the key must still be given).
    pub untyped: bool,
    /// Value when absent.
    pub default: Option<Value>,
    /// Sample value.
    pub sample: Option<Value>,
    /// The constant the field always holds (`object`, union tags).
    pub constant: Option<String>,
    /// Constraints on the value.
    pub constraints: Constraints,
    /// Holds a secret.
    pub sensitive: bool,
    /// What it means.
    pub description: Option<String>,
    /// Gaps it depends on.
    pub gaps: Vec<String>,
    /// Needs a `Box` to break a cycle of types containing each other.
    pub boxed: bool,
    /// Which way the field travels: both, answered only, or sent only.
    pub access: Access,
    /// A multipart body's part: the media types it may be sent in (OpenAPI's
    /// `encoding.<field>.contentType`, ranges allowed); empty: OpenAPI's default for its type.
    pub media_types: Vec<String>,
}

/// Which way a field travels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Access {
    /// Sent in requests and answered in responses.
    #[default]
    ReadWrite,
    /// Answered, never accepted in a request (`read_only: true`, OpenAPI `readOnly`).
    ReadOnly,
    /// Sent, never answered (`write_only: true`, OpenAPI `writeOnly`); required in requests
    /// unless optional.
    WriteOnly,
}

/// How a field is represented, decided once from optional, nullable, default and usage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// Always present with a value (or a constant).
    Required,
    /// Absent gives the default; always present after decoding.
    Defaulted,
    /// `Option<T>`: absent or null give `None`.
    Optional,
    /// Required but may be null: `Option<T>`, serialized as `null` when `None`.
    Nullable,
    /// Absent, null or a value, each kept: a request field that is optional and nullable.
    TriState,
}

impl Field {
    /// How this field is represented in a type travelling the given way.
    pub fn presence(&self, usage: Usage) -> Presence {
        if self.access != Access::ReadWrite {
            // Absent one way or the other: an `Option` both ways.
            return Presence::Optional;
        }
        match (self.optional, self.nullable, self.default.is_some()) {
            (true, true, _) if usage.input => Presence::TriState,
            (true, _, true) if !self.nullable => Presence::Defaulted,
            (true, _, _) => Presence::Optional,
            // A required untyped field reads a value that is not an object as `None`, and
            // writes `None` as `null`, which the document's schema admits.
            (false, true, _) => Presence::Nullable,
            (false, false, _) if self.untyped => Presence::Nullable,
            (false, false, _) => Presence::Required,
        }
    }
}

/// Constraints on a value.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Constraints {
    /// Fewest characters.
    pub min_length: Option<u64>,
    /// Most characters.
    pub max_length: Option<u64>,
    /// Regular expression the whole value matches.
    pub pattern: Option<String>,
    /// The string format the value has (OpenAPI's `format`: `uuid`, `email`, `date`, ...).
    pub format: Option<Format>,
    /// Smallest number.
    pub minimum: Option<Number>,
    /// Largest number.
    pub maximum: Option<Number>,
    /// Fewest items (a map's entries).
    pub min_items: Option<u64>,
    /// Most items (a map's entries).
    pub max_items: Option<u64>,
    /// Exact item count.
    pub exact_items: Option<u64>,
    /// No two items of a list are equal (compared as the JSON they write).
    pub unique_items: bool,
    /// Constraints on each item of a list (lengths, pattern, format, bounds).
    pub item: Option<Box<Constraints>>,
}

impl Constraints {
    /// True when nothing is constrained.
    pub fn is_empty(&self) -> bool {
        *self == Constraints::default()
    }
}

/// An enumeration.
#[derive(Debug, Clone)]
pub struct Enum {
    /// Values in the order listed.
    pub values: Vec<EnumValue>,
    /// Values beyond those listed may appear.
    pub open: bool,
    /// Rust name of the variant that keeps a value not listed (`Unknown` unless a listed
    /// value took that name).
    pub fallback: String,
    /// The values are integers (their `wire` is the decimal text), not strings.
    pub integer: bool,
}

/// One value of an enumeration.
#[derive(Debug, Clone)]
pub struct EnumValue {
    /// As sent on the wire.
    pub wire: String,
    /// Rust variant name.
    pub rust: String,
    /// The spec gave the Rust name (`rust_name`), as the wire value's own is taken.
    pub renamed: bool,
    /// What it means.
    pub description: Option<String>,
}

/// A union of types.
#[derive(Debug, Clone)]
pub struct Union {
    /// Field naming the variant; `None` for an untagged union.
    pub tag: Option<String>,
    /// Variants in the order listed.
    pub variants: Vec<Variant>,
    /// Variants beyond those listed may appear and are kept as raw JSON.
    pub open: bool,
    /// Rust name of the variant that keeps a variant not listed.
    pub fallback: String,
}

/// A variant of a union.
#[derive(Debug, Clone)]
pub struct Variant {
    /// The variant's type.
    pub ty: TypeRef,
    /// The tag value naming it (tagged unions).
    pub tag_value: Option<String>,
    /// Rust variant name.
    pub rust: String,
}

/// HTTP methods the spec may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Method {
    /// GET
    Get,
    /// POST
    Post,
    /// PUT
    Put,
    /// PATCH
    Patch,
    /// DELETE
    Delete,
    /// HEAD: answers a GET's status and headers, never a body.
    Head,
    /// OPTIONS
    Options,
}

impl Method {
    /// Upper-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
            Method::Head => "HEAD",
            Method::Options => "OPTIONS",
        }
    }
}

/// An operation.
#[derive(Debug, Clone)]
pub struct Operation {
    /// Name (`listOrganizationCollections`).
    pub name: String,
    /// Rust snake-case name (server trait method).
    pub rust: String,
    /// Rust Pascal-case name.
    pub rust_type: String,
    /// The Rust names the operation adds to the generated crates.
    pub names: OperationNames,
    /// What it looks like to a caller (settled once every operation is lowered).
    pub client: ClientShape,
    /// What it looks like to an implementer.
    pub server: ServerShape,
    /// Tag name.
    pub tag: String,
    /// Method.
    pub method: Method,
    /// Path template.
    pub path: PathTemplate,
    /// Constants selecting it among the operations sharing its method and path (`select`),
    /// headers then query parameters, each in declared order.
    pub select: Vec<Selector>,
    /// One line.
    pub summary: String,
    /// The rest.
    pub description: Option<String>,
    /// Where in the documents.
    pub source: Option<String>,
    /// Path parameters in path order, then query, header and cookie parameters in declared
    /// order.
    pub params: Vec<Param>,
    /// Request body.
    pub body: Option<Body>,
    /// Success response.
    pub response: Response,
    /// How a paginated operation pages (the API's convention unless it declares its own);
    /// `None` when the response is not a page.
    pub pagination: Option<Pagination>,
    /// Failure cases.
    pub errors: Vec<ErrorCase>,
    /// Deprecation.
    pub deprecated: Option<Deprecated>,
    /// What the caller must present.
    pub auth: Auth,
    /// Gaps it depends on (its own and its response's).
    pub gaps: Vec<String>,
    /// Where it is declared.
    pub origin: Location,
}

/// A constant the client always sends and the router dispatches on: `X-Amz-Target:
/// DynamoDB_20120810.GetItem`, `Action=DescribeInstances`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selector {
    /// Where it travels.
    pub location: SelectIn,
    /// The header's or query parameter's name.
    pub name: String,
    /// Its value.
    pub value: String,
}

/// Where a selector travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SelectIn {
    /// A request header.
    Header,
    /// A query parameter.
    Query,
}

impl SelectIn {
    /// `header` or `query`, as the spec writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            SelectIn::Header => "header",
            SelectIn::Query => "query",
        }
    }
}

impl Selector {
    /// The key two selectors are compared by: header names without case.
    pub fn key(&self) -> (SelectIn, String) {
        match self.location {
            SelectIn::Header => (self.location, self.name.to_ascii_lowercase()),
            SelectIn::Query => (self.location, self.name.clone()),
        }
    }
}

impl Operation {
    /// Path parameters, in path order.
    pub fn path_params(&self) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(|p| p.location == ParamIn::Path)
    }

    /// Query parameters, in declared order.
    pub fn query_params(&self) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(|p| p.location == ParamIn::Query)
    }

    /// Parameters of one location, in declared order.
    pub fn params_in(&self, location: ParamIn) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(move |p| p.location == location)
    }

    /// True when the response is a page of a list.
    pub fn is_paginated(&self) -> bool {
        matches!(self.response.body, ResponseBody::Page { .. })
    }
}

/// How a body of a media type is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// JSON (`application/json`, `application/*+json`, `text/json`).
    Json,
    /// `application/x-www-form-urlencoded`.
    Form,
    /// `multipart/form-data`.
    Multipart,
    /// Text: `text/*`, or XML (`application/xml`, `application/<x>+xml`), as a `string`.
    Text,
    /// Anything else: `bytes`.
    Binary,
}

impl Encoding {
    /// How a body of `media_type` is written.
    pub fn of(media_type: &str) -> Encoding {
        let essence = media_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
        match essence.as_str() {
            "application/json" | "text/json" => Encoding::Json,
            "application/x-www-form-urlencoded" => Encoding::Form,
            "multipart/form-data" => Encoding::Multipart,
            e if e.starts_with("application/") && e.ends_with("+json") => Encoding::Json,
            e if e.starts_with("text/") => Encoding::Text,
            // XML is text: the format has no XML type, so such a body travels raw as a `string`.
            "application/xml" => Encoding::Text,
            e if e.starts_with("application/") && e.ends_with("+xml") => Encoding::Text,
            _ => Encoding::Binary,
        }
    }
}

impl Body {
    /// The encoding of a body of this type in `media_type`: a `string` in a text media type
    /// (or a urlencoded one: a form the format cannot type, passed as it is) is text, `bytes`
    /// in any media type raw bytes.
    pub fn encoding_of(&self, media_type: &str) -> Encoding {
        body_encoding(&self.ty, media_type)
    }

    /// Every encoding the body is taken in.
    pub fn encodings(&self) -> Vec<Encoding> {
        let mut found = Vec::new();
        for media in &self.media_types {
            let encoding = self.encoding_of(media);
            if !found.contains(&encoding) {
                found.push(encoding);
            }
        }
        found
    }
}

/// The encoding of a body of type `ty` in `media_type`.
pub fn body_encoding(ty: &TypeRef, media_type: &str) -> Encoding {
    match (ty, Encoding::of(media_type)) {
        (TypeRef::Bytes, _) => Encoding::Binary,
        (TypeRef::String, Encoding::Text) => Encoding::Text,
        // A `string` body in a form media type is the form's text as it is (an OAuth token
        // request the document gives no schema for): sent and handed over raw.
        (TypeRef::String, Encoding::Form) => Encoding::Text,
        (_, encoding) => encoding,
    }
}

impl Response {
    /// How the main body is written in its (first) media type.
    pub fn encoding(&self) -> Option<Encoding> {
        let ResponseBody::Value(ty) = &self.body else {
            return matches!(self.body, ResponseBody::Page { .. }).then_some(Encoding::Json);
        };
        Some(self.media_types.first().map_or(Encoding::Json, |m| body_encoding(ty, m)))
    }
}

/// Whether `ty` travels in a form or a parameter as text: a scalar or an enumeration of
/// `types` (lowering asks before the [`Api`] exists).
pub fn form_scalar(types: &BTreeMap<String, TypeDef>, ty: &TypeRef) -> bool {
    match ty {
        TypeRef::Named(n) => matches!(types.get(n).map(|d| &d.kind), Some(TypeKind::Enum(_))),
        TypeRef::Json | TypeRef::List(_) | TypeRef::Map(_) | TypeRef::Bytes | TypeRef::File => false,
        _ => true,
    }
}

/// Where a parameter travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ParamIn {
    /// In the path.
    Path,
    /// In the query string.
    Query,
    /// In a request header (its name compared without case).
    Header,
    /// In the `Cookie` header.
    Cookie,
}

impl ParamIn {
    /// The word the spec and OpenAPI use (`path`, `query`, `header`, `cookie`), which also
    /// prefixes a parameter's violations (`header.X-Request-Id`).
    pub fn as_str(self) -> &'static str {
        match self {
            ParamIn::Path => "path",
            ParamIn::Query => "query",
            ParamIn::Header => "header",
            ParamIn::Cookie => "cookie",
        }
    }
}

/// How a list parameter travels, in OpenAPI's words (`style` and `explode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ParamStyle {
    /// A query list as repeated keys (`ids=1&ids=2`: `form`, exploded, the default), a query
    /// object as its fields (`status=open&limit=2`), a header list as one comma-separated
    /// value (`simple`), a scalar as itself.
    Default,
    /// A query list as one comma-separated value (`ids=1,2`: `form`, `explode: false`).
    Comma,
    /// A query list as one space-separated value (`ids=1%202`: `spaceDelimited`).
    Space,
    /// A query list as one `|`-separated value (`ids=1|2`: `pipeDelimited`).
    Pipe,
    /// A query list in brackets (`expand[]=a&expand[]=b`: `deepObject` on a list, as Stripe's
    /// document writes it and its API and SDKs read it), or a query object (`filter[status]=x`,
    /// nested values as a form writes them).
    Brackets,
    /// A value of any type written as JSON text (`filter={"a":1}`: OpenAPI's `content:
    /// application/json`), in the query or a header.
    Json,
    /// A path parameter after a dot (`/files/.5`: OpenAPI's `label`).
    Label,
    /// A path parameter after its name (`/files/;id=5`: OpenAPI's `matrix`).
    Matrix,
}

impl ParamStyle {
    /// The character between the items of a list sent as one value (`None`: repeated keys,
    /// or a header's commas).
    pub fn delimiter(self) -> Option<char> {
        match self {
            ParamStyle::Default | ParamStyle::Brackets | ParamStyle::Json | ParamStyle::Label | ParamStyle::Matrix => {
                None
            }
            ParamStyle::Comma => Some(','),
            ParamStyle::Space => Some(' '),
            ParamStyle::Pipe => Some('|'),
        }
    }

    /// How a list travels, in words (for `apigen diff`).
    pub fn words(self) -> &'static str {
        match self {
            ParamStyle::Default => "the default style (a query list as repeated keys)",
            ParamStyle::Comma => "one comma-separated value",
            ParamStyle::Space => "one space-separated value",
            ParamStyle::Pipe => "one `|`-separated value",
            ParamStyle::Brackets => "keys in brackets (`name[]`)",
            ParamStyle::Json => "one JSON value (`media_type: application/json`)",
            ParamStyle::Label => "after a dot in the path (`label`: `.5`)",
            ParamStyle::Matrix => "after its name in the path (`matrix`: `;id=5`)",
        }
    }

    /// OpenAPI's `style` and `explode` for a list in the query (`None`: the defaults).
    pub fn openapi(self) -> Option<(&'static str, bool)> {
        match self {
            ParamStyle::Default => None,
            ParamStyle::Comma => Some(("form", false)),
            ParamStyle::Space => Some(("spaceDelimited", false)),
            ParamStyle::Pipe => Some(("pipeDelimited", false)),
            ParamStyle::Brackets => Some(("deepObject", true)),
            ParamStyle::Json => None,
            ParamStyle::Label => Some(("label", false)),
            ParamStyle::Matrix => Some(("matrix", false)),
        }
    }
}

/// A parameter.
#[derive(Debug, Clone)]
pub struct Param {
    /// Name on the wire.
    pub wire: String,
    /// Rust name.
    pub rust: String,
    /// Path, query, header or cookie.
    pub location: ParamIn,
    /// Type (a scalar, an enumeration, or a list of those for repeated query keys; in the
    /// query also an object, a map or a union, see [`ParamWire::QueryObject`]).
    pub ty: TypeRef,
    /// Must be given.
    pub required: bool,
    /// Value when absent.
    pub default: Option<Value>,
    /// Sample value.
    pub sample: Option<Value>,
    /// Constraints.
    pub constraints: Constraints,
    /// What it means.
    pub description: Option<String>,
    /// Gaps it depends on.
    pub gaps: Vec<String>,
    /// Holds a secret.
    pub sensitive: bool,
    /// How it travels, when a list, as the spec says it (`style`, `explode`, `media_type`).
    pub style: ParamStyle,
    /// How it travels, decided from its place, style and type once types are known (settled
    /// with the operation's shapes): what the emitters read.
    pub wire_form: ParamWire,
    /// A query parameter whose empty value (`limit=`) is taken as left out (OpenAPI's
    /// `allowEmptyValue`); see [`Param::empty_is_absent`].
    pub allow_empty: bool,
}

impl Param {
    /// The server reads an empty value of this parameter as the parameter left out: it allows
    /// an empty value and is not text (whose empty value is `""`).
    pub fn empty_is_absent(&self) -> bool {
        self.allow_empty && !matches!(self.ty, TypeRef::String | TypeRef::Url | TypeRef::List(_))
    }
}

/// A request body.
#[derive(Debug, Clone)]
pub struct Body {
    /// Its type: JSON's, a form's object, `string` for text, `bytes` for raw bytes.
    pub ty: TypeRef,
    /// The media types the server takes, the client's default first.
    pub media_types: Vec<String>,
    /// May be omitted.
    pub optional: bool,
    /// A JSON body whose document schema gives an object's properties without `type: object`
    /// (spec key `untyped`): a JSON value that is not an object fits it and reads as the body
    /// left out, so the handler receives an `Option` even when the body is required.
    pub untyped: bool,
    /// A JSON body whose document schema admits `null` (spec key `nullable`): JSON `null`
    /// reads as the body left out, so the handler receives an `Option` even when the body is
    /// required; the client sends `null` for a required one it is not given.
    pub nullable: bool,
    /// What it is.
    pub description: Option<String>,
    /// A form whose every list travels in brackets with indexes (`expand[0]=a`: `style:
    /// deepObject`), and so is sent and read whole (`apigen_runtime::form`).
    pub brackets: bool,
    /// A sample the spec gives, for a body of any JSON, a list or a map (which have no fields
    /// to hold samples): the document's own example of a shape the format cannot type, or a
    /// list whose items have constraints the format cannot keep.
    pub sample: Option<serde_json::Value>,
    /// The same body also taken in other media types, each with a type of its own (spec key
    /// `alternatives`; none of them has alternatives, nor a media type another lists). With
    /// any, the handler receives, and the client sends, the operation's content enumeration
    /// (`<Operation>Content`), a variant per alternative, this body's first.
    pub alternatives: Vec<Body>,
    /// With alternatives: this body's variant in the content enumeration, named after its first
    /// media type (`ApplicationJson`); empty otherwise.
    pub variant: String,
}

impl Body {
    /// This body and its alternatives, the first this one: each a variant of the content
    /// enumeration when there are several.
    pub fn variants(&self) -> impl Iterator<Item = &Body> {
        std::iter::once(self).chain(&self.alternatives)
    }

    /// Every media type the server takes: this body's, then each alternative's.
    pub fn all_media_types(&self) -> Vec<String> {
        self.variants().flat_map(|b| b.media_types.iter().cloned()).collect()
    }

    /// Whether the handler receives the body as an `Option`: it may be omitted, or a value
    /// that is not an object reads as left out (`untyped`), or `null` does (`nullable`).
    pub fn may_be_absent(&self) -> bool {
        self.optional || self.untyped || self.nullable
    }

    /// Whether the body, as a form of `encoding`, travels in brackets (`apigen_runtime::form`);
    /// otherwise it is written and read field by field. A urlencoded form does when it nests
    /// or its style says so. A multipart one only when its style says so (`deepObject`, and
    /// it holds no file): by OpenAPI's `encoding` defaults a nested field is one part holding
    /// its JSON. Either does when it keeps undeclared keys (`additional_properties`, without
    /// files), which a form decoded whole hands over in `extra` as a JSON body does.
    pub fn bracketed(&self, api: &Api, encoding: Encoding) -> bool {
        api.form_keeps_extras(&self.ty)
            || match encoding {
                Encoding::Multipart => self.brackets && !api.holds_files(&self.ty),
                _ => self.brackets || !api.flat_form(&self.ty),
            }
    }
}

/// A success response.
#[derive(Debug, Clone)]
pub struct Response {
    /// Status code answered unless the handler chooses another.
    pub status: u16,
    /// Other success statuses the handler may choose, in declared order; same body.
    pub also: Vec<u16>,
    /// What it means.
    pub description: Option<String>,
    /// What the body holds.
    pub body: ResponseBody,
    /// The media types of the body, negotiated with `Accept`, the default first (JSON unless
    /// the spec says otherwise; empty without a body).
    pub media_types: Vec<String>,
    /// Success statuses with a body of their own, in declared order: when there are any, the
    /// handler returns (and the client receives) an enumeration with a variant per status.
    pub others: Vec<Alternative>,
    /// Response headers, in declared order (the same for every success status).
    pub headers: Vec<ResponseHeader>,
    /// The JSON body may be `null` (OpenAPI's nullable root): the handler returns, and the
    /// client receives, an `Option` of the body's type.
    pub nullable: bool,
    /// A sample the spec gives, for a `json` body (one of any shape, which has no fields to
    /// hold samples): the document's own example of a shape the format cannot type.
    pub sample: Option<serde_json::Value>,
    /// A page without a named envelope: the fewest items it holds (`response.min_items`; a
    /// named envelope's list field says its own).
    pub min_items: Option<u64>,
}

/// A success status with a body of its own.
#[derive(Debug, Clone)]
pub struct Alternative {
    /// The status.
    pub status: u16,
    /// The media types of its body (JSON; empty without a body).
    pub media_types: Vec<String>,
    /// What it means.
    pub description: Option<String>,
    /// What the body holds (never a page).
    pub body: ResponseBody,
}

/// A typed response header.
#[derive(Debug, Clone)]
pub struct ResponseHeader {
    /// Its name, as the spec spells it (compared without case).
    pub wire: String,
    /// Rust name.
    pub rust: String,
    /// Its type: a scalar or enumeration.
    pub ty: TypeRef,
    /// The service always sends it.
    pub required: bool,
    /// What it means.
    pub description: Option<String>,
    /// A sample value.
    pub sample: Option<Value>,
}

impl Response {
    /// Every success status: the default first, then the others as declared.
    pub fn statuses(&self) -> impl Iterator<Item = u16> + '_ {
        std::iter::once(self.status).chain(self.also.iter().copied()).chain(self.others.iter().map(|o| o.status))
    }

    /// Every success status with its body, in declared order.
    pub fn bodies(&self) -> impl Iterator<Item = (u16, &ResponseBody)> + '_ {
        let same = std::iter::once(self.status).chain(self.also.iter().copied()).map(|s| (s, &self.body));
        same.chain(self.others.iter().map(|o| (o.status, &o.body)))
    }

    /// True when statuses answer different bodies: the handler returns an enumeration.
    pub fn is_varied(&self) -> bool {
        !self.others.is_empty()
    }
}

/// The Rust name of a success status (a variant of the generated status enumerations, and
/// part of inline type names): its reason phrase (`Accepted`), or `Status` and the number.
pub fn status_variant(code: u16) -> String {
    match code {
        200 => "Ok".into(),
        201 => "Created".into(),
        202 => "Accepted".into(),
        203 => "NonAuthoritativeInformation".into(),
        204 => "NoContent".into(),
        205 => "ResetContent".into(),
        206 => "PartialContent".into(),
        207 => "MultiStatus".into(),
        208 => "AlreadyReported".into(),
        226 => "ImUsed".into(),
        other => format!("Status{other}"),
    }
}

/// Whether `name` can prefix a crate name (`docs-api`): lower-case letters, digits and
/// dashes, starting with a letter.
pub fn valid_crate_prefix(name: &str) -> bool {
    !name.is_empty()
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && name.starts_with(|c: char| c.is_ascii_lowercase())
}

/// One way a caller proves who it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthScheme {
    /// Name in the spec (`bearerAuth`), used by operations' `auth:`.
    pub name: String,
    /// Rust snake-case name (`bearer_auth`).
    pub rust: String,
    /// What the credential is.
    pub description: Option<String>,
    /// Where the credential travels.
    pub kind: SchemeKind,
    /// Where it is declared (`api.auth.<name>`, or `api` for the default scheme).
    pub origin: Location,
}

/// Where a scheme's credential travels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemeKind {
    /// `Authorization: Bearer <token>`.
    Bearer,
    /// `Authorization: Basic <base64 of user:password>`.
    Basic,
    /// A key in a header, a query parameter or a cookie.
    ApiKey {
        /// `header`, `query` or `cookie` (never `path`).
        location: ParamIn,
        /// The header, query parameter or cookie name.
        name: String,
    },
    /// `Authorization: <scheme> <credentials>` of an HTTP auth-scheme other than bearer and
    /// basic (`Digest`, `Signature`, a vendor's): the client leaves it to the user's signer,
    /// the server hands the whole header value to the authenticator.
    Http {
        /// The auth-scheme, as the spec writes it.
        scheme: String,
    },
    /// OAuth 2.0: a bearer token an authorization server issues through these flows, in the
    /// spec's order.
    OAuth2 {
        /// How a client obtains a token, one flow per grant.
        flows: Vec<OAuthFlow>,
    },
    /// OpenID Connect: a bearer token of the provider its discovery document describes.
    OpenIdConnect {
        /// The discovery document (`.../.well-known/openid-configuration`).
        url: String,
    },
}

/// How a client of an `oauth2` scheme obtains a token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthFlow {
    /// The grant.
    pub grant: Grant,
    /// Where the user authorizes the client (authorization code, implicit).
    pub authorization_url: Option<String>,
    /// Where the client asks for a device code (device code).
    pub device_authorization_url: Option<String>,
    /// Where the client gets a token (every grant but implicit).
    pub token_url: Option<String>,
    /// Where the client refreshes a token.
    pub refresh_url: Option<String>,
    /// The scopes a token may carry, each with what it allows, in the spec's order.
    pub scopes: Vec<(String, String)>,
    /// The name of the client's `oauth::` constant of this flow (client credentials: the
    /// scheme's; authorization code and device code: `<SCHEME>_AUTHORIZATION_CODE`,
    /// `<SCHEME>_DEVICE_CODE`), claimed once over every scheme in lowering; `None` for a grant
    /// the client does not run (password, implicit).
    pub constant: Option<String>,
}

/// Whether `scope` is an RFC 6749 `scope-token` (`%x21 / %x23-5B / %x5D-7E`, at least one):
/// printable ASCII without spaces, `"` or `\`, so it travels in a `WWW-Authenticate`
/// challenge as it is.
pub fn is_scope_token(scope: &str) -> bool {
    !scope.is_empty() && scope.bytes().all(|b| matches!(b, 0x21 | 0x23..=0x5B | 0x5D..=0x7E))
}

/// An OAuth 2.0 grant: how a flow obtains its token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Grant {
    /// `client_credentials` (OpenAPI `clientCredentials`).
    ClientCredentials,
    /// `authorization_code` (OpenAPI `authorizationCode`).
    AuthorizationCode,
    /// `password`.
    Password,
    /// `implicit`.
    Implicit,
    /// `device_code` (RFC 8628; OpenAPI 3.2 `deviceAuthorization`).
    DeviceCode,
}

impl Grant {
    /// Every grant, in the order the spec format lists them.
    pub const ALL: [Grant; 5] =
        [Grant::ClientCredentials, Grant::AuthorizationCode, Grant::Password, Grant::Implicit, Grant::DeviceCode];

    /// Its key under `flows:` in the spec.
    pub fn spec_name(self) -> &'static str {
        match self {
            Grant::ClientCredentials => "client_credentials",
            Grant::AuthorizationCode => "authorization_code",
            Grant::Password => "password",
            Grant::Implicit => "implicit",
            Grant::DeviceCode => "device_code",
        }
    }

    /// The grant of a key under OpenAPI's `flows` (3.2's `deviceAuthorization` too).
    pub fn from_openapi(key: &str) -> Option<Grant> {
        match key {
            "deviceAuthorization" => Some(Grant::DeviceCode),
            _ => Grant::ALL.into_iter().find(|grant| grant.openapi_name() == key),
        }
    }

    /// Which URLs its flow has: authorization, device authorization, token (RFC 6749, RFC
    /// 8628); every flow may have a refresh URL.
    pub fn urls(self) -> (bool, bool, bool) {
        match self {
            Grant::AuthorizationCode => (true, false, true),
            Grant::Implicit => (true, false, false),
            Grant::DeviceCode => (false, true, true),
            Grant::ClientCredentials | Grant::Password => (false, false, true),
        }
    }

    /// Its key under `flows` in OpenAPI: an extension for the device grant, which OpenAPI
    /// 3.1 cannot say (3.2's `deviceAuthorization` is read too).
    pub fn openapi_name(self) -> &'static str {
        match self {
            Grant::ClientCredentials => "clientCredentials",
            Grant::AuthorizationCode => "authorizationCode",
            Grant::Password => "password",
            Grant::Implicit => "implicit",
            Grant::DeviceCode => "x-deviceAuthorization",
        }
    }
}

impl SchemeKind {
    /// Whether the credential is a bearer token in `Authorization` (OAuth 2.0 and OpenID
    /// Connect tokens are).
    pub fn is_bearer(&self) -> bool {
        matches!(self, SchemeKind::Bearer | SchemeKind::OAuth2 { .. } | SchemeKind::OpenIdConnect { .. })
    }

    /// The scopes an operation may require of this scheme, when the spec declares them (an
    /// `oauth2` scheme's, over its flows, each once); `None` when any name may be required
    /// (roles of other schemes, an OpenID Connect provider's scopes).
    pub fn declared_scopes(&self) -> Option<Vec<&str>> {
        let SchemeKind::OAuth2 { flows } = self else { return None };
        let mut scopes: Vec<&str> = Vec::new();
        for (scope, _) in flows.iter().flat_map(|flow| &flow.scopes) {
            if !scopes.contains(&scope.as_str()) {
                scopes.push(scope);
            }
        }
        Some(scopes)
    }

    /// How a caller presents the credential, in words (`the header `X-API-Key``).
    pub fn describe(&self) -> String {
        match self {
            SchemeKind::Bearer | SchemeKind::OAuth2 { .. } | SchemeKind::OpenIdConnect { .. } => {
                "`Authorization: Bearer <token>`".to_owned()
            }
            SchemeKind::Basic => "`Authorization: Basic <credentials>`".to_owned(),
            SchemeKind::ApiKey { location, name } => format!(
                "the {} `{name}`",
                match location {
                    ParamIn::Query => "query parameter",
                    ParamIn::Cookie => "cookie",
                    _ => "header",
                }
            ),
            SchemeKind::Http { scheme } => format!("`Authorization: {scheme} <credentials>`"),
        }
    }
}

/// What an operation requires of its caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Auth {
    /// Public: no credential; the authenticator is not called.
    None,
    /// The credentials of any one of these alternatives, each the schemes (by name) a request
    /// carries together: one, usually; several when the API asks for two keys at once
    /// (OpenAPI's security requirement of several schemes). In the spec's order: the first a
    /// request carries whole is checked by the service's authenticator. Each scheme may
    /// require scopes.
    Any(Vec<Vec<Need>>),
}

/// One scheme of an alternative an operation accepts, with the scopes its credential must
/// be granted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Need {
    /// The scheme, by its name in the spec.
    pub scheme: String,
    /// The scopes (OAuth 2.0 scopes, or roles), in the spec's order; often none.
    pub scopes: Vec<String>,
}

impl Need {
    /// The scheme and its scopes in words: `` `vault` `` or `` `vault` (scopes `a`, `b`) ``.
    pub fn describe(&self) -> String {
        match self.scopes.as_slice() {
            [] => format!("`{}`", self.scheme),
            [one] => format!("`{}` (scope `{one}`)", self.scheme),
            scopes => {
                let listed: Vec<String> = scopes.iter().map(|scope| format!("`{scope}`")).collect();
                format!("`{}` (scopes {})", self.scheme, listed.join(", "))
            }
        }
    }
}

impl Auth {
    /// Whether the operation answers without a credential.
    pub fn is_public(&self) -> bool {
        matches!(self, Auth::None)
    }

    /// The alternatives accepted; empty when public.
    pub fn alternatives(&self) -> &[Vec<Need>] {
        match self {
            Auth::None => &[],
            Auth::Any(alternatives) => alternatives,
        }
    }

    /// Every scheme an alternative names, each once, in order; empty when public.
    pub fn schemes(&self) -> Vec<&String> {
        let mut schemes: Vec<&String> = Vec::new();
        for scheme in self.alternatives().iter().flatten().map(|need| &need.scheme) {
            if !schemes.contains(&scheme) {
                schemes.push(scheme);
            }
        }
        schemes
    }

    /// The alternatives in words, with their scopes: `` `a` and `b` or `c` (scope `x`) ``.
    pub fn describe(&self) -> String {
        let alternatives: Vec<String> = self
            .alternatives()
            .iter()
            .map(|set| set.iter().map(Need::describe).collect::<Vec<_>>().join(" and "))
            .collect();
        alternatives.join(" or ")
    }

    /// Whether an alternative requires a scope.
    pub fn has_scopes(&self) -> bool {
        self.alternatives().iter().flatten().any(|need| !need.scopes.is_empty())
    }
}

/// The body of a success response.
#[derive(Debug, Clone)]
pub enum ResponseBody {
    /// No body (204).
    Empty,
    /// A value of this type.
    Value(TypeRef),
    /// A page of a list of `item`, in the standard envelope or a named one adding fields.
    Page {
        /// The item type.
        item: TypeRef,
        /// The named envelope, when the list adds fields to the standard one.
        envelope: Option<String>,
    },
}

/// A failure case.
#[derive(Debug, Clone)]
pub struct ErrorCase {
    /// Status code, or `default`.
    pub status: ErrorStatus,
    /// When it happens.
    pub when: String,
    /// The body's type, when not the API's error type.
    pub ty: Option<TypeRef>,
}

/// The status of a failure case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ErrorStatus {
    /// A 4xx or 5xx code.
    Code(u16),
    /// Any status the operation does not list (OpenAPI's `default` response).
    Default,
}

impl std::fmt::Display for ErrorStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ErrorStatus::Code(code) => write!(f, "{code}"),
            ErrorStatus::Default => f.write_str("default"),
        }
    }
}

/// The API's error body (`api.errors`): its type and where the status, the message and the
/// violations go, so the router writes its own refusals in it and the client reads them back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorConvention {
    /// The named type of error bodies; `None`: the built-in envelope
    /// `{"error": {"code", "message", "violations"?}}`.
    pub ty: Option<String>,
    /// The media type of error bodies.
    pub media_type: String,
    /// JSON pointer of the HTTP status, if the body carries it.
    pub status: Option<String>,
    /// JSON pointer of the message; empty when the body has no place for one (the router
    /// writes its other places, and in a list of violations one item saying the message).
    pub message: String,
    /// JSON pointer of a string code the router fills from the status, if the body has one.
    pub code: Option<String>,
    /// JSON pointer of the list of violations, if the body carries them.
    pub violations: Option<String>,
    /// The key of a violation's location in each violation object.
    pub violation_path: String,
    /// The key of a violation's message in each violation object.
    pub violation_message: String,
    /// Required scalar fields the router fills with one value each: JSON pointer and value
    /// (the field's sample, settled when types are lowered).
    pub fill: Vec<(String, serde_json::Value)>,
    /// The other error bodies (`api.errors.bodies`), by type name, each its own convention
    /// (without bodies of its own): an operation's failure case of such a type has the
    /// router's refusals of its status written in it.
    pub bodies: BTreeMap<String, ErrorConvention>,
}

impl Default for ErrorConvention {
    /// The built-in envelope.
    fn default() -> Self {
        ErrorConvention {
            ty: None,
            media_type: "application/json".into(),
            status: Some("/error/code".into()),
            message: "/error/message".into(),
            code: None,
            violations: Some("/error/violations".into()),
            violation_path: "path".into(),
            violation_message: "message".into(),
            fill: Vec::new(),
            bodies: BTreeMap::new(),
        }
    }
}

/// One base URL of the API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Server {
    /// Its name as the spec gives it (`name`), if it does.
    pub name: Option<String>,
    /// Its module in the generated client (`servers::<rust>`): the name, or `server_<n>`.
    pub rust: String,
    /// The URL, with `{name}` placeholders.
    pub url: String,
    /// What it is.
    pub description: Option<String>,
    /// The placeholders, with their defaults and descriptions, in declared order.
    pub variables: Vec<ServerVariable>,
}

/// A placeholder of a server URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerVariable {
    /// Its name in the URL (`region` of `https://{region}.example.com`).
    pub name: String,
    /// The value used unless the caller gives another.
    pub default: String,
    /// What it is.
    pub description: Option<String>,
    /// The only values it may take, in declared order (empty: any text).
    pub values: Vec<String>,
    /// The argument of the client's `url(..)` (snake_case).
    pub rust_param: String,
    /// The enumeration typing it in the client (PascalCase), when it has `values`.
    pub rust_type: String,
    /// The variant of each value, in the order of `values`.
    pub variants: Vec<String>,
}

impl Server {
    /// The URL with every variable at its default (`https://{region}.example.com` with
    /// `region: eu` gives `https://eu.example.com`).
    pub fn default_url(&self) -> String {
        self.variables.iter().fold(self.url.clone(), |url, v| url.replace(&format!("{{{}}}", v.name), &v.default))
    }
}

/// Deprecation of an operation.
#[derive(Debug, Clone)]
pub struct Deprecated {
    /// Name of the replacement.
    pub replacement: Option<String>,
    /// Anything else.
    pub note: Option<String>,
}
