//! `openapi.json`: the spec as an OpenAPI 3.1 document, for tools and other languages.
//!
//! Every operation (operationId = the operation's name) with its parameters, body, success
//! response and failures; every type as a component schema; the security schemes (OAuth 2.0 flows with their scopes)
//! and each operation's requirements with the scopes they name; and
//! every gap as an `x-gap` extension (the gap ids) on what it concerns, with each gap's text
//! and decision under `x-gaps` at the root. Keys come in a fixed order chosen for reading, so the bytes never vary.
//!
//! Forward compatibility in JSON Schema terms: open enumerations are `anyOf` a string enum
//! and any string; open unions are marked `x-open-union` (OpenAPI cannot say "one of these or
//! something else" with a discriminator). Objects allow properties they do not list: a
//! response may carry new ones (the generated server still rejects them in requests).

use super::fragments::{Assembled, Assembly, Fragments};
use crate::model::{
    Access, Api, Auth, Constraints, Encoding, ErrorStatus, Field, OAuthFlow, Operation, PageStyle, Param, ParamIn,
    ParamWire, Presence, ResponseBody, SchemeKind, TypeDef, TypeKind, TypeRef, Union, sample,
};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// An OAuth Flow Object: its URLs and its scopes with what each allows.
fn oauth_flow(flow: &OAuthFlow) -> Value {
    let urls = [
        ("authorizationUrl", &flow.authorization_url),
        ("deviceAuthorizationUrl", &flow.device_authorization_url),
        ("tokenUrl", &flow.token_url),
        ("refreshUrl", &flow.refresh_url),
    ];
    let mut out: Vec<(&str, Value)> =
        urls.into_iter().filter_map(|(key, url)| url.as_ref().map(|url| (key, json!(url)))).collect();
    let scopes = flow.scopes.iter().map(|(scope, what)| (scope.clone(), json!(what)));
    out.push(("scopes", Value::Object(scopes.collect())));
    object(out)
}

/// `openapi.json`, built whole.
pub fn emit(api: &Api, options: &super::Options) -> String {
    assemble(api, options, &super::fragments::Unkeyed).text
}

/// `openapi.json`, each path's operations and each schema a fragment ([`super::fragments`]):
/// taken from an earlier run where `fragments` has it under the same key.
pub fn assemble(api: &Api, options: &super::Options, fragments: &dyn Fragments) -> Assembled {
    let header = super::text::header_text(api, options);
    let error_schema = api.errors.ty.clone().unwrap_or_else(|| schema_name(api, "ErrorBody"));
    let links = super::links::of(api);
    let included = api
        .types
        .values()
        .filter_map(|def| match &def.kind {
            TypeKind::Object(object) => Some(object.includes.iter().map(String::as_str)),
            _ => None,
        })
        .flatten()
        .collect();
    let document = Document { api, error_schema, header, links, included };
    let mut assembly = Assembly::new(fragments);
    write_part(&mut assembly, document.build(fragments), 0);
    assembly.text().push('\n');
    assembly.finish()
}

/// A part of the document: a value built whole, an object whose members are built one at a
/// time as they are written (paths and schemas: Microsoft Graph's are 80 MB of JSON, and a
/// tree of them several times that), each a keyed fragment, or an object of parts.
enum Part<'a> {
    Value(Value),
    Members(Members<'a>),
    Object(Vec<(String, Part<'a>)>),
}

/// The members of an object, each built when it is reached.
type Members<'a> = Box<dyn Iterator<Item = Member<'a>> + 'a>;

/// A member of an object of [`Part::Members`]: its name, its fragment's key, and what builds
/// its value (not called when an earlier run's fragment is taken).
struct Member<'a> {
    name: String,
    key: Option<String>,
    value: Box<dyn FnOnce() -> Value + 'a>,
}

impl<'a> Part<'a> {
    fn members(members: impl Iterator<Item = Member<'a>> + 'a) -> Self {
        Part::Members(Box::new(members))
    }

    /// An object of parts, in order; a key given twice keeps its first place and its last
    /// part, as inserting into a JSON map does.
    fn object(pairs: Vec<(String, Part<'a>)>) -> Self {
        let mut members: Vec<(String, Part<'a>)> = Vec::with_capacity(pairs.len());
        for (key, part) in pairs {
            match members.iter_mut().find(|(seen, _)| *seen == key) {
                Some((_, earlier)) => *earlier = part,
                None => members.push((key, part)),
            }
        }
        Part::Object(members)
    }
}

/// Writes `part` at `depth` as `serde_json::to_string_pretty` writes the same tree of values
/// (two spaces a level, `{}` for an empty object); each member of [`Part::Members`] is a
/// fragment.
fn write_part(out: &mut Assembly<'_>, part: Part<'_>, depth: usize) {
    match part {
        Part::Value(value) => write_value(out.text(), &value, depth),
        Part::Object(members) => {
            out.text().push('{');
            let mut any = false;
            for (name, part) in members {
                separate(out.text(), depth, &mut any);
                write_name(out.text(), &name);
                write_part(out, part, depth + 1);
            }
            close(out.text(), depth, any);
        }
        Part::Members(members) => {
            out.text().push('{');
            let mut any = false;
            for Member { name, key, value } in members {
                separate(out.text(), depth, &mut any);
                out.fragment(key, |text| {
                    write_name(text, &name);
                    write_value(text, &value(), depth + 1);
                });
            }
            close(out.text(), depth, any);
        }
    }
}

/// Starts a member of an object at `depth`: after a comma unless it is the first.
fn separate(text: &mut String, depth: usize, any: &mut bool) {
    text.push_str(if *any { ",\n" } else { "\n" });
    indent(text, depth + 1);
    *any = true;
}

/// Ends an object at `depth` (`{}` when it had no member).
fn close(text: &mut String, depth: usize, any: bool) {
    if any {
        text.push('\n');
        indent(text, depth);
    }
    text.push('}');
}

fn indent(text: &mut String, depth: usize) {
    text.extend(std::iter::repeat_n("  ", depth));
}

fn write_name(text: &mut String, name: &str) {
    text.push_str(&serde_json::to_string(name).expect("strings serialize"));
    text.push_str(": ");
}

/// `value` pretty-printed, its lines after the first indented to `depth` (no JSON string holds
/// a line break unescaped).
fn write_value(text: &mut String, value: &Value, depth: usize) {
    let pretty = serde_json::to_string_pretty(value).expect("JSON values serialize");
    if depth == 0 || !pretty.contains('\n') {
        text.push_str(&pretty);
    } else {
        let mut pad = String::from("\n");
        indent(&mut pad, depth);
        text.push_str(&pretty.replace('\n', &pad));
    }
}

/// `wanted`, unless the spec already names a type so (then with `Api` in front).
fn schema_name(api: &Api, wanted: &str) -> String {
    if api.types.contains_key(wanted) { format!("Api{wanted}") } else { wanted.to_owned() }
}

struct Document<'a> {
    api: &'a Api,
    error_schema: String,
    header: String,
    /// The links of each operation's main success response ([`super::links`]).
    links: BTreeMap<&'a str, Map<String, Value>>,
    /// The object types other types include (`allOf`): declared open, since a validator
    /// checks each `allOf` member against the whole including object.
    included: std::collections::BTreeSet<&'a str>,
}

/// An object from key-value pairs, in order.
fn object(pairs: Vec<(&str, Value)>) -> Value {
    Value::Object(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

impl Document<'_> {
    fn build<'d>(&'d self, fragments: &'d dyn Fragments) -> Part<'d> {
        let api = self.api;
        let mut info = vec![("title", json!(api.title)), ("version", json!(api.version))];
        if let Some(description) = &api.description {
            info.push(("description", json!(description.trim())));
        }
        // The spec's license, which the import reads back (OpenAPI requires its `name`).
        if let Some(license) = &api.license {
            info.push(("license", json!({ "name": license })));
        }
        info.push(("x-api-name", json!(api.name)));
        info.push(("x-generated-by", json!(self.header)));
        // The document's own extensions an import kept (`api.extensions`), in key order.
        let (in_info, at_root): (Vec<_>, Vec<_>) = api.extensions.iter().partition(|(key, _)| key.starts_with("info."));
        for (key, value) in &in_info {
            info.push((&key["info.".len()..], (*value).clone()));
        }
        let tags: Vec<Value> = api
            .tags
            .iter()
            .map(|t| {
                let mut tag = vec![("name", json!(t.name))];
                if let Some(d) = &t.description {
                    tag.push(("description", json!(format!("{}: {}", t.title, d.trim()))));
                }
                object(tag)
            })
            .collect();
        // Each path's operations, in the order of its first operation.
        let mut by_path: indexmap::IndexMap<String, Vec<usize>> = indexmap::IndexMap::new();
        for (at, op) in api.operations.iter().enumerate() {
            by_path.entry(path_key(op)).or_default().push(at);
        }
        let paths = by_path.into_iter().map(move |(name, ops)| {
            // A path's operations read the links other operations give them, too.
            let links: Vec<_> = ops.iter().map(|&at| self.links.get(api.operations[at].name.as_str())).collect();
            let key = fragments.key("openapi.json path", &ops, &format!("{name}\0{links:?}"));
            let value = move || {
                let item = ops.iter().map(|&at| &api.operations[at]);
                Value::Object(item.map(|op| (op.method.as_str().to_lowercase(), self.operation(op))).collect())
            };
            Member { name, key, value: Box::new(value) }
        });
        let schemas = self.schemas(fragments);
        let gaps: Map<String, Value> = api
            .gaps
            .values()
            .map(|g| {
                let value = object(vec![
                    ("source", json!(g.source)),
                    ("gap", json!(g.gap.trim())),
                    ("decision", json!(g.decision.trim())),
                    ("usedBy", json!(g.used_by)),
                ]);
                (g.id.clone(), value)
            })
            .collect();
        let error_response = |description: &str| self.error_response(description, &self.error_schema);
        let whole = |key: &str, value: Value| (key.to_owned(), Part::Value(value));
        let mut components = vec![("schemas".to_owned(), Part::members(schemas))];
        let shared = self.pagination_parameters();
        if !shared.is_empty() {
            components.push(whole("parameters", Value::Object(shared)));
        }
        let responses = object(vec![
            ("Invalid", error_response("The request is invalid: the error body lists every violation.")),
            ("Unauthorized", error_response(&self.unauthorized_text())),
            ("Error", error_response("A failure, answered with the error body.")),
        ]);
        components.push(whole("responses", responses));
        components.push(whole("securitySchemes", self.security_schemes()));
        let mut root = vec![
            whole("openapi", json!("3.1.0")),
            whole("info", object(info)),
            whole("servers", self.servers()),
            whole("security", self.default_security()),
            whole("tags", Value::Array(tags)),
            ("paths".to_owned(), Part::members(paths)),
            ("components".to_owned(), Part::object(components)),
            whole("x-gaps", Value::Object(gaps)),
        ];
        if let Some(pagination) = self.x_pagination() {
            root.push(whole("x-pagination", pagination));
        }
        for (key, value) in at_root {
            root.push(whole(key, value.clone()));
        }
        Part::object(root)
    }

    /// `components.schemas`, each built as it is written: every type, then the error body
    /// when the spec names none ([`schema_name`]; in the place of a type of that name, if any).
    /// Each reads the shared part of the model only (the types, the error body), so its key
    /// is its name's.
    fn schemas<'s>(&'s self, fragments: &'s dyn Fragments) -> impl Iterator<Item = Member<'s>> + 's {
        let error_body = self.api.errors.ty.is_none().then_some(self.error_schema.as_str());
        let member = move |name: &str, value: Box<dyn FnOnce() -> Value + 's>| Member {
            name: name.to_owned(),
            key: fragments.key("openapi.json schema", &[], name),
            value,
        };
        let types = self.api.types.values().map(move |def| match error_body {
            Some(name) if name == def.name => member(&def.name, Box::new(error_schema)),
            _ => member(&def.name, Box::new(move || self.type_schema(def))),
        });
        let appended = error_body.filter(|name| !self.api.types.values().any(|def| def.name == *name));
        types.chain(appended.map(move |name| member(name, Box::new(error_schema))))
    }

    /// The parameters of the list convention, declared once and referenced by every paginated
    /// operation (each a copy of the same shared parameter).
    fn pagination_parameters(&self) -> Map<String, Value> {
        let mut shared = Map::new();
        for op in self.api.operations.iter().filter(|op| op.is_paginated()) {
            for param in op.params.iter().filter(|p| self.api.pagination.params.contains(&p.wire)) {
                if !shared.contains_key(&param.wire) {
                    shared.insert(param.wire.clone(), self.parameter(param));
                }
            }
        }
        shared
    }

    /// `x-pagination`: the list convention, which OpenAPI has no word for (the parameters
    /// every paginated operation takes and the one taking `next.page`), so an import restores it.
    fn x_pagination(&self) -> Option<Value> {
        let pagination = &self.api.pagination;
        if pagination.params.is_empty() {
            return None;
        }
        Some(pagination_value(pagination))
    }

    /// A failure response: its description and a body of the schema named `schema`, in the
    /// API's error media type.
    /// A page's list of `item`, with the `minItems` the spec's `response.min_items` gives.
    fn page_list(&self, item: &TypeRef, min_items: Option<u64>) -> Value {
        let mut list = vec![("type", json!("array")), ("items", self.schema(item))];
        if let Some(min_items) = min_items {
            list.push(("minItems", json!(min_items)));
        }
        object(list)
    }

    fn error_response(&self, description: &str, schema: &str) -> Value {
        let mut content = Map::new();
        let reference = json!({"schema": {"$ref": format!("#/components/schemas/{schema}")}});
        // One of `api.errors.bodies` in its own media type.
        let media_type = self.api.errors.bodies.get(schema).map_or(&self.api.errors.media_type, |b| &b.media_type);
        content.insert(media_type.clone(), reference);
        object(vec![("description", json!(description)), ("content", Value::Object(content))])
    }

    /// What a 401 means for the API's schemes.
    fn unauthorized_text(&self) -> String {
        let forms: Vec<String> = self.api.auth_schemes.iter().map(|s| s.kind.describe()).collect();
        format!("{} is missing, malformed or refused.", forms.join(" or "))
    }

    /// `api.servers`, or a placeholder base URL when the spec declares none.
    fn servers(&self) -> Value {
        if self.api.servers.is_empty() {
            return json!([{
                "url": "{base_url}",
                "description": "The spec declares no server: the base URL is the caller's to give.",
                "variables": {"base_url": {"default": "https://api.example.com"}}
            }]);
        }
        let servers = self.api.servers.iter().map(|server| {
            let mut out = vec![("url", json!(server.url))];
            if let Some(description) = &server.description {
                out.push(("description", json!(description.trim())));
            }
            // OpenAPI 3.1's server has no name: the spec's travels as `x-name` (OpenAPI 3.2's
            // `name`), which the import reads back.
            if let Some(name) = &server.name {
                out.push(("x-name", json!(name)));
            }
            if !server.variables.is_empty() {
                let variables = server.variables.iter().map(|variable| {
                    let mut out = vec![("default", json!(variable.default))];
                    if !variable.values.is_empty() {
                        out.push(("enum", json!(variable.values)));
                    }
                    if let Some(description) = &variable.description {
                        out.push(("description", json!(description.trim())));
                    }
                    (variable.name.clone(), object(out))
                });
                out.push(("variables", Value::Object(variables.collect())));
            }
            object(out)
        });
        Value::Array(servers.collect())
    }

    /// Every scheme of `api.auth`.
    fn security_schemes(&self) -> Value {
        let schemes = self.api.auth_schemes.iter().map(|scheme| {
            let description =
                scheme.description.clone().unwrap_or_else(|| format!("Requests carry {}.", scheme.kind.describe()));
            let value = match &scheme.kind {
                SchemeKind::Bearer => json!({"type": "http", "scheme": "bearer", "description": description}),
                SchemeKind::Basic => json!({"type": "http", "scheme": "basic", "description": description}),
                SchemeKind::ApiKey { location, name } => {
                    json!({"type": "apiKey", "in": location.as_str(), "name": name, "description": description})
                }
                SchemeKind::Http { scheme } => json!({"type": "http", "scheme": scheme, "description": description}),
                SchemeKind::OAuth2 { flows } => {
                    let flows = flows.iter().map(|flow| (flow.grant.openapi_name().to_owned(), oauth_flow(flow)));
                    json!({"type": "oauth2", "description": description, "flows": Value::Object(flows.collect())})
                }
                SchemeKind::OpenIdConnect { url } => {
                    json!({"type": "openIdConnect", "description": description, "openIdConnectUrl": url})
                }
            };
            (scheme.name.clone(), value)
        });
        Value::Object(schemes.collect())
    }

    /// What an operation requires unless it says otherwise: the first scheme.
    fn default_security(&self) -> Value {
        match self.api.auth_schemes.first() {
            Some(scheme) => json!([{ scheme.name.as_str(): [] }]),
            None => json!([]),
        }
    }

    /// An operation's `security`, when it differs from the document's default.
    fn operation_security(&self, op: &Operation) -> Option<Value> {
        match &op.auth {
            Auth::None => Some(json!([])),
            Auth::Any(alternatives) if matches!(alternatives.as_slice(), [need] if need.len() == 1 && need[0].scopes.is_empty() && self.api.auth_schemes.first().is_some_and(|s| s.name == need[0].scheme)) => {
                None
            }
            // Each alternative is one requirement object naming every scheme of it, with the
            // scopes it requires.
            Auth::Any(alternatives) => Some(Value::Array(
                alternatives
                    .iter()
                    .map(|set| {
                        Value::Object(set.iter().map(|need| (need.scheme.clone(), json!(need.scopes))).collect())
                    })
                    .collect(),
            )),
        }
    }

    /// `x-gap`: the ids of the gaps an element depends on; `x-gaps` at the root holds each
    /// gap's text and decision once.
    fn x_gap(&self, ids: &[String]) -> Option<Value> {
        (!ids.is_empty()).then(|| json!(ids))
    }

    fn operation(&self, op: &Operation) -> Value {
        let api = self.api;
        let mut out = vec![("operationId", json!(op.name)), ("tags", json!([op.tag])), ("summary", json!(op.summary))];
        let mut description = op.description.clone().unwrap_or_default().trim().to_owned();
        if let Some(deprecated) = &op.deprecated {
            let replacement =
                deprecated.replacement.as_ref().map(|r| format!("Deprecated: use `{r}`.")).unwrap_or_default();
            let note = deprecated.note.clone().unwrap_or_default();
            description = format!("{description}\n\n{replacement} {note}").trim().to_owned();
        }
        if !description.is_empty() {
            out.push(("description", json!(description)));
        }
        if !op.params.is_empty() {
            let shared = |p: &Param| op.is_paginated() && api.pagination.params.contains(&p.wire);
            let params = op.params.iter().map(|p| {
                if shared(p) {
                    json!({ "$ref": format!("#/components/parameters/{}", p.wire) })
                } else {
                    self.parameter(p)
                }
            });
            out.push(("parameters", Value::Array(params.collect())));
        }
        if !op.select.is_empty() {
            let params = out.iter_mut().find(|(key, _)| *key == "parameters");
            let selectors = op.select.iter().map(selector_parameter);
            match params {
                Some((_, Value::Array(params))) => params.extend(selectors),
                _ => out.push(("parameters", Value::Array(selectors.collect()))),
            }
        }
        if let Some(body) = &op.body {
            out.push(("requestBody", self.request_body(op, body)));
        }
        if let Some(security) = self.operation_security(op) {
            out.push(("security", security));
        }
        let responses = self.responses(op);
        out.push(("responses", Value::Object(responses)));
        if op.deprecated.is_some() {
            out.push(("deprecated", json!(true)));
        }
        if let Some(own) = op.pagination.as_ref().filter(|p| **p != self.api.pagination) {
            out.push(("x-pagination", pagination_value(own)));
        }
        if let Some(gaps) = self.x_gap(&op.gaps) {
            out.push(("x-gap", gaps));
        }
        if !op.select.is_empty() {
            out.push(("x-select", select_value(&op.select)));
        }
        object(out)
    }

    /// `requestBody`: the body in each of its media types, with its sample.
    fn request_body(&self, op: &Operation, body: &crate::model::Body) -> Value {
        let mut request = vec![];
        if let Some(d) = &body.description {
            request.push(("description", json!(d)));
        }
        request.push(("required", json!(!body.optional)));
        if body.untyped {
            // The schema written is the object's; the extension says a value that is not an
            // object reads as left out, as the document the body came from meant.
            request.push(("x-untyped", json!(true)));
        }
        let mut content = Map::new();
        // Each alternative's media types beside the body's own (`body.alternatives`), each
        // with the alternative's schema: the import reads them back as alternatives.
        for (index, variant) in body.variants().enumerate() {
            let example = if index == 0 { sample::of_body(self.api, op) } else { variant.sample.clone() };
            for media_type in &variant.media_types {
                content.insert(media_type.clone(), self.body_media(variant, media_type, example.as_ref()));
            }
        }
        request.push(("content", Value::Object(content)));
        object(request)
    }

    /// One media type of a body (or of one of its alternatives): its schema, its example
    /// where the body's sample fits the media type, and a form's `encoding`.
    fn body_media(&self, body: &crate::model::Body, media_type: &str, example: Option<&Value>) -> Value {
        let encoding = body.encoding_of(media_type);
        let schema = self.schema(&body.ty);
        // The schema admits `null` where the body is nullable, in JSON only (a form has no
        // `null`).
        let schema = if body.nullable && encoding == Encoding::Json { nullable(schema) } else { schema };
        let mut media = vec![("schema", schema)];
        // Text gives the sample it declares (a raw form's text), never a made-up string.
        let json_like = matches!(encoding, Encoding::Json | Encoding::Form)
            || (encoding == Encoding::Text && body.sample.is_some());
        if let Some(example) = example.filter(|_| json_like) {
            media.push(("example", example.clone()));
        }
        if matches!(encoding, Encoding::Form | Encoding::Multipart)
            && let Some(nested) = self.nested_form_encoding(body, encoding)
        {
            media.push(("encoding", nested));
        } else if encoding == Encoding::Multipart
            && let Some(parts) = self.part_encoding(body)
        {
            media.push(("encoding", parts));
        }
        object(media)
    }

    /// The `encoding` of a form body in brackets: each field that is not a scalar or a list of
    /// scalars travels as `deepObject`, exploded (as Stripe's document says it), and with the
    /// body's `style: deepObject` a list of scalars too; `None` for a flat form, whose fields
    /// travel as OpenAPI's default says (a multipart form's nested field: one JSON part).
    fn nested_form_encoding(&self, body: &crate::model::Body, encoding: Encoding) -> Option<Value> {
        if !body.bracketed(self.api, encoding) {
            return None;
        }
        let TypeRef::Named(name) = &body.ty else { return None };
        let TypeKind::Object(object) = &self.api.ty(name).kind else { return None };
        let mut encoding = Map::new();
        for field in &object.fields {
            let flat = match &field.ty {
                TypeRef::List(inner) => !body.brackets && self.api.form_scalar(inner),
                other => self.api.form_scalar(other),
            };
            if !flat {
                encoding.insert(field.wire.clone(), json!({"style": "deepObject", "explode": true}));
            }
        }
        // A form in brackets only for its undeclared keys has no field to say it of.
        (!encoding.is_empty()).then_some(Value::Object(encoding))
    }

    /// The `encoding` of a multipart body's parts whose media types are declared:
    /// `contentType`, a comma-separated list as OpenAPI writes several.
    fn part_encoding(&self, body: &crate::model::Body) -> Option<Value> {
        let TypeRef::Named(name) = &body.ty else { return None };
        let TypeKind::Object(object) = &self.api.ty(name).kind else { return None };
        let parts: Map<String, Value> = object
            .fields
            .iter()
            .filter(|f| !f.media_types.is_empty())
            .map(|f| (f.wire.clone(), json!({"contentType": f.media_types.join(", ")})))
            .collect();
        (!parts.is_empty()).then_some(Value::Object(parts))
    }

    /// `responses`: every success status, the router's refusals, each failure status once
    /// (with every case's words and the type declared for it), and the default.
    fn responses(&self, op: &Operation) -> Map<String, Value> {
        let mut responses = Map::new();
        for status in op.response.statuses() {
            responses.insert(status.to_string(), self.success(op, status));
        }
        responses.insert("400".into(), json!({"$ref": "#/components/responses/Invalid"}));
        if !op.auth.is_public() {
            responses.insert("401".into(), json!({"$ref": "#/components/responses/Unauthorized"}));
        }
        let mut failures: Vec<(ErrorStatus, Vec<&str>, Option<&TypeRef>)> = Vec::new();
        for error in &op.errors {
            match failures.iter_mut().find(|(status, _, _)| *status == error.status) {
                Some((_, whens, ty)) => {
                    whens.push(&error.when);
                    *ty = ty.or(error.ty.as_ref());
                }
                None => failures.push((error.status, vec![&error.when], error.ty.as_ref())),
            }
        }
        for (status, whens, ty) in failures {
            let description = format!("Failure: {}.", whens.join("; "));
            let schema = ty.and_then(TypeRef::named).unwrap_or(&self.error_schema);
            responses.insert(status.to_string(), self.error_response(&description, schema));
        }
        if !responses.contains_key("default") {
            responses.insert("default".into(), json!({"$ref": "#/components/responses/Error"}));
        }
        responses
    }

    /// The response of success status `status`: its body (each status its own when they
    /// differ) and the operation's response headers.
    fn success(&self, op: &Operation, status: u16) -> Value {
        let other = op.response.others.iter().find(|o| o.status == status);
        let description = other
            .and_then(|o| o.description.clone())
            .or_else(|| op.response.description.clone())
            .unwrap_or_else(|| "Success.".to_owned());
        let mut out = vec![("description", json!(description))];
        let link = op.pagination.as_ref().is_some_and(|p| p.style == PageStyle::Link);
        if !op.response.headers.is_empty() || link {
            let headers = op.response.headers.iter().map(|header| {
                let mut value = vec![("schema", self.schema(&header.ty))];
                if let Some(description) = &header.description {
                    value.push(("description", json!(description.trim())));
                }
                if header.required {
                    value.push(("required", json!(true)));
                }
                if let Some(rust) = renamed(&header.wire, &header.rust) {
                    value.push(("x-rust-name", rust));
                }
                (header.wire.clone(), object(value))
            });
            let mut headers: Map<String, Value> = headers.collect();
            if link {
                let description = "The next page: `<URL>; rel=\"next\"` (RFC 8288), absent on the last page.";
                headers.insert("Link".into(), json!({"schema": {"type": "string"}, "description": description}));
            }
            out.push(("headers", Value::Object(headers)));
        }
        let body = other.map_or(&op.response.body, |o| &o.body);
        let schema = match body {
            // A HEAD answer names the media type of the body it leaves out.
            ResponseBody::Empty if other.is_none() && !op.response.media_types.is_empty() => {
                let content = op.response.media_types.iter().map(|m| (m.clone(), json!({})));
                out.push(("content", Value::Object(content.collect())));
                return object(out);
            }
            ResponseBody::Empty => return object(out),
            ResponseBody::Value(ty) if other.is_none() && op.response.nullable => nullable(self.schema(ty)),
            ResponseBody::Value(ty) => self.schema(ty),
            ResponseBody::Page { envelope: Some(e), .. } => self.schema(&TypeRef::Named(e.clone())),
            ResponseBody::Page { item, envelope: None } if op.pagination.as_ref().is_some_and(|p| !p.is_standard()) => {
                self.page_list(item, op.response.min_items)
            }
            ResponseBody::Page { item, envelope: None } => object(vec![
                ("type", json!("object")),
                ("description", json!(self.api.pagination.description.clone().unwrap_or_default().trim())),
                (
                    "properties",
                    object(vec![
                        (
                            "next",
                            json!({"type": ["object", "null"], "description": "The next page; absent (or null) on the last page.",
                                   "properties": {"page": {"type": "string", "description": "Pass it as `page` to read the next page."}},
                                   "required": ["page"]}),
                        ),
                        (
                            "count",
                            json!({"type": "integer", "format": "int64", "description": "The count the service reports with the page, when it reports one."}),
                        ),
                        ("items", self.page_list(item, op.response.min_items)),
                    ]),
                ),
                ("required", json!(["items"])),
            ]),
        };
        let media_types = other.map_or(&op.response.media_types, |o| &o.media_types);
        let json_body = !matches!(body, ResponseBody::Value(TypeRef::Bytes | TypeRef::String))
            || media_types.iter().all(|m| Encoding::of(m) == Encoding::Json);
        let mut content = Map::new();
        for media_type in media_types {
            let mut media = vec![("schema", schema.clone())];
            if let Some(example) = sample::of_response(self.api, op).filter(|_| other.is_none() && json_body) {
                media.push(("example", example));
            }
            content.insert(media_type.clone(), object(media));
        }
        out.push(("content", Value::Object(content)));
        if let Some(links) = self.links.get(op.name.as_str()).filter(|_| status == op.response.status) {
            out.push(("links", Value::Object(links.clone())));
        }
        object(out)
    }

    fn parameter(&self, param: &Param) -> Value {
        let mut schema = self.schema(&param.ty);
        add_constraints(&mut schema, &param.constraints);
        if let Some(default) = &param.default {
            schema["default"] = default.clone();
        }
        let mut out = vec![
            ("name", json!(param.wire)),
            ("in", json!(param.location.as_str())),
            ("required", json!(param.required)),
        ];
        if let Some(d) = &param.description {
            out.push(("description", json!(d.trim())));
        }
        if param.allow_empty {
            out.push(("allowEmptyValue", json!(true)));
        }
        if matches!(param.wire_form, ParamWire::QueryJson | ParamWire::HeaderJson) {
            // One JSON text: the schema and example go under the media type.
            let example = sample::of_param(self.api, param);
            out.push(("content", json!({"application/json": {"schema": schema, "example": example}})));
            self.param_extensions(param, &mut out);
            return object(out);
        }
        if let (ParamIn::Path, Some((style, explode))) = (param.location, param.style.openapi()) {
            out.push(("style", json!(style)));
            out.push(("explode", json!(explode)));
        } else if matches!(param.ty, TypeRef::List(_)) || matches!(param.wire_form, ParamWire::QueryObject(_)) {
            let (style, explode) = match param.location {
                ParamIn::Header | ParamIn::Path => ("simple", false),
                _ => param.style.openapi().unwrap_or(("form", true)),
            };
            out.push(("style", json!(style)));
            out.push(("explode", json!(explode)));
        }
        out.push(("schema", schema));
        out.push(("example", sample::of_param(self.api, param)));
        self.param_extensions(param, &mut out);
        object(out)
    }

    /// A parameter's extensions: `x-rust-name` (a `rust_name` the import reads back),
    /// `x-sensitive` and `x-gap`.
    fn param_extensions(&self, param: &Param, out: &mut Vec<(&str, Value)>) {
        if let Some(rust) = renamed(&param.wire, &param.rust) {
            out.push(("x-rust-name", rust));
        }
        if param.sensitive {
            out.push(("x-sensitive", json!(true)));
        }
        if let Some(gaps) = self.x_gap(&param.gaps) {
            out.push(("x-gap", gaps));
        }
    }

    /// The schema of a type reference.
    fn schema(&self, ty: &TypeRef) -> Value {
        match ty {
            TypeRef::String => json!({"type": "string"}),
            TypeRef::Url => json!({"type": "string", "format": "uri"}),
            TypeRef::DateTime => json!({"type": "string", "format": "date-time"}),
            TypeRef::Integer => json!({"type": "integer", "format": "int64"}),
            TypeRef::Number => json!({"type": "number", "format": "double"}),
            TypeRef::Boolean => json!({"type": "boolean"}),
            TypeRef::Json => json!({}),
            TypeRef::Bytes | TypeRef::File => json!({"type": "string", "format": "binary"}),
            TypeRef::Named(name) => json!({"$ref": format!("#/components/schemas/{name}")}),
            TypeRef::List(inner) => json!({"type": "array", "items": self.schema(inner)}),
            TypeRef::Map(inner) => json!({"type": "object", "additionalProperties": self.schema(inner)}),
        }
    }

    fn type_schema(&self, def: &TypeDef) -> Value {
        let mut out = Vec::new();
        let mut description = def.description.clone().unwrap_or_default().trim().to_owned();
        if let Some(source) = &def.source {
            description = format!("{description}\n\nSource: {source}.").trim().to_owned();
        }
        match &def.kind {
            TypeKind::Object(o) => {
                if !o.includes.is_empty() {
                    // The composition as the spec writes it; `properties` repeats the included
                    // fields so that `additionalProperties` below sees every field.
                    let parts: Vec<Value> =
                        o.includes.iter().map(|name| self.schema(&TypeRef::Named(name.clone()))).collect();
                    out.push(("allOf", Value::Array(parts)));
                }
                out.push(("type", json!("object")));
                if !description.is_empty() {
                    out.push(("description", json!(description)));
                }
                let properties: Map<String, Value> =
                    o.fields.iter().map(|f| (f.wire.clone(), self.field(f, def))).collect();
                out.push(("properties", Value::Object(properties)));
                // A read-only or write-only field that is not optional is listed too: as
                // OpenAPI says, `required` then holds in the one direction the field travels.
                let required: Vec<&str> = o.required_fields().map(|f| f.wire.as_str()).collect();
                if !required.is_empty() {
                    out.push(("required", json!(required)));
                }
                if let Some(extra) = &o.additional {
                    out.push(("additionalProperties", self.schema(extra)));
                } else if def.usage.input && !o.ignores_unknown && !self.included.contains(def.name.as_str()) {
                    // The server rejects fields a request object does not declare; responses
                    // only carry declared fields too, so the closed schema holds both ways.
                    // (`unknown_fields: ignore` leaves it open, as OpenAPI's objects are.)
                    out.push(("additionalProperties", json!(false)));
                }
            }
            TypeKind::Enum(e) => {
                let values: Vec<Value> = e
                    .values
                    .iter()
                    .map(|v| match v.wire.parse::<i64>() {
                        Ok(n) if e.integer => json!(n),
                        _ => json!(v.wire),
                    })
                    .collect();
                let kind = if e.integer { "integer" } else { "string" };
                let meanings: Vec<String> = e
                    .values
                    .iter()
                    .filter_map(|v| v.description.as_ref().map(|d| format!("- `{}`: {d}", v.wire)))
                    .collect();
                if !meanings.is_empty() {
                    description = format!("{description}\n\n{}", meanings.join("\n")).trim().to_owned();
                }
                if e.open {
                    description =
                        format!("{description}\n\nOpen: values beyond those listed may appear.").trim().to_owned();
                    out.push(("anyOf", json!([{"type": kind, "enum": values}, {"type": kind}])));
                } else {
                    out.push(("type", json!(kind)));
                    out.push(("enum", json!(values)));
                }
                out.insert(0, ("description", json!(description)));
                // openapi-generator's name for each value, which apigen's import reads back.
                if e.values.iter().any(|v| v.renamed) {
                    out.push(("x-enum-varnames", json!(e.values.iter().map(|v| &v.rust).collect::<Vec<_>>())));
                }
            }
            TypeKind::Union(u) => {
                if !description.is_empty() {
                    out.push(("description", json!(description)));
                }
                out.extend(self.union_schema(u));
            }
        }
        if let Some(gaps) = self.x_gap(&def.gaps) {
            out.push(("x-gap", gaps));
        }
        object(out)
    }

    /// True when the schema of `ty` accepts `null` and the server does not: an open untagged
    /// union (any JSON takes `null` as its value, `serde_json::Value::Null`).
    fn admits_null(&self, ty: &TypeRef) -> bool {
        match ty {
            TypeRef::Named(name) => {
                matches!(&self.api.ty(name).kind, TypeKind::Union(u) if u.open && u.tag.is_none())
            }
            _ => false,
        }
    }

    /// The alternatives of a union, as a validator must read them. A closed tagged union is a
    /// `oneOf` with its discriminator; a closed untagged one an `anyOf` (first match wins). An open union also accepts what the server
    /// keeps as an unknown variant: for a tagged one, an object whose tag is none of the known
    /// values (so exactly one alternative still matches); for an untagged one, any value
    /// (`anyOf`, since the catch-all overlaps every variant).
    fn union_schema(&self, u: &Union) -> Vec<(&'static str, Value)> {
        let mut variants: Vec<Value> = u.variants.iter().map(|v| self.schema(&v.ty)).collect();
        let mut out = Vec::new();
        match (&u.tag, u.open) {
            (Some(tag), open) => {
                if open {
                    let known: Vec<&str> = u.variants.iter().filter_map(|v| v.tag_value.as_deref()).collect();
                    variants.push(json!({
                        "type": "object",
                        "description": format!("A variant not listed, kept as it is: `{tag}` holds another value."),
                        "properties": { tag.as_str(): { "type": "string", "not": { "enum": known } } },
                        "required": [tag],
                    }));
                }
                out.push(("oneOf", Value::Array(variants)));
                if !open {
                    let mapping: Map<String, Value> = u
                        .variants
                        .iter()
                        .filter_map(|v| Some((v.tag_value.clone()?, self.schema(&v.ty)["$ref"].clone())))
                        .collect();
                    out.push((
                        "discriminator",
                        object(vec![("propertyName", json!(tag)), ("mapping", Value::Object(mapping))]),
                    ));
                }
            }
            // Untagged variants are tried in order and the first that fits wins, so they may
            // overlap where the order decides (an integer before a number): `anyOf`.
            (None, false) => out.push(("anyOf", Value::Array(variants))),
            (None, true) => {
                // Any value, null included (a list item may be null); a field that is not
                // nullable says `not: null` itself (see `field`).
                variants.push(json!({"description": "A value of another shape, kept as it is."}));
                out.push(("anyOf", Value::Array(variants)));
            }
        }
        if u.open {
            out.push(("x-open-union", json!(true)));
        }
        out
    }

    fn field(&self, field: &Field, owner: &TypeDef) -> Value {
        if let Some(constant) = &field.constant {
            let mut out = vec![("type", json!("string")), ("const", json!(constant))];
            if let Some(d) = &field.description {
                out.push(("description", json!(d.trim())));
            }
            return object(out);
        }
        let mut schema = self.schema(&field.ty);
        add_constraints(&mut schema, &field.constraints);
        if field.nullable {
            schema = nullable(schema);
        }
        let Value::Object(map) = &mut schema else { return schema };
        if !field.nullable && self.admits_null(&field.ty) {
            // The server refuses null for a field that is not nullable, even where the
            // field's type alone (an open union) would take it.
            map.insert("not".into(), json!({"type": "null"}));
        }
        if let Some(d) = &field.description {
            map.insert("description".into(), json!(d.trim()));
        }
        if let Some(default) = &field.default {
            map.insert("default".into(), default.clone());
        }
        if let Some(sample) = &field.sample {
            map.insert("examples".into(), json!([sample]));
        }
        if let Some(rust) = renamed(&field.wire, &field.rust) {
            map.insert("x-rust-name".into(), rust);
        }
        if field.sensitive {
            map.insert("x-sensitive".into(), json!(true));
        }
        if field.untyped {
            // As on a body: the schema written is the object's; the extension says a value
            // that is not an object reads as left out, as the document it came from meant.
            map.insert("x-untyped".into(), json!(true));
        }
        match field.access {
            Access::ReadWrite => {}
            Access::ReadOnly => {
                map.insert("readOnly".into(), json!(true));
            }
            Access::WriteOnly => {
                map.insert("writeOnly".into(), json!(true));
            }
        }
        if field.presence(owner.usage) == Presence::TriState {
            map.insert("x-tri-state".into(), json!("absent leaves the value unchanged; null removes it"));
        }
        if let Some(gaps) = self.x_gap(&field.gaps) {
            map.insert("x-gap".into(), gaps);
        }
        schema
    }
}

/// A schema that also accepts `null`: a type array where there is a `type`, else `anyOf`.
/// A list convention as `x-pagination` says it: the spec's keys, the style's only when they
/// are not the defaults.
fn pagination_value(pagination: &crate::model::Pagination) -> Value {
    let mut out = vec![("params", json!(pagination.params)), ("cursor", json!(pagination.cursor))];
    if !pagination.is_standard() {
        out.push(("style", json!(pagination.style.as_str())));
        out.push(("items", json!(pagination.items)));
        match &pagination.style {
            PageStyle::Cursor { next } => out.push(("next", json!(next))),
            PageStyle::HasMore { has_more, item_id } => {
                out.push(("has_more", json!(has_more)));
                out.push(("item_id", json!(item_id)));
            }
            PageStyle::Offset | PageStyle::Page | PageStyle::Link => {}
        }
    }
    if !pagination.gaps.is_empty() {
        out.push(("gaps", json!(pagination.gaps)));
    }
    if let Some(description) = &pagination.description {
        out.push(("description", json!(description.trim())));
    }
    object(out)
}

fn nullable(schema: Value) -> Value {
    match schema.get("type").and_then(Value::as_str) {
        Some(ty) => {
            let mut schema = schema.clone();
            schema["type"] = json!([ty, "null"]);
            schema
        }
        None => json!({"anyOf": [schema, {"type": "null"}]}),
    }
}

fn add_constraints(schema: &mut Value, c: &Constraints) {
    let Value::Object(map) = schema else { return };
    // A map (an object of `additionalProperties`) counts its entries as properties.
    let map_schema = map.contains_key("additionalProperties") && !map.contains_key("items");
    let mut put = |key: &str, value: Option<Value>| {
        if let Some(value) = value {
            map.insert(key.to_owned(), value);
        }
    };
    put("minLength", c.min_length.map(Value::from));
    put("maxLength", c.max_length.map(Value::from));
    put("pattern", c.pattern.clone().map(Value::from));
    put("format", c.format.map(|f| Value::from(f.as_str())));
    put("minimum", c.minimum.clone().map(Value::Number));
    put("maximum", c.maximum.clone().map(Value::Number));
    let (min_key, max_key) = if map_schema { ("minProperties", "maxProperties") } else { ("minItems", "maxItems") };
    put(min_key, c.exact_items.or(c.min_items).map(Value::from));
    put(max_key, c.exact_items.or(c.max_items).map(Value::from));
    put("uniqueItems", c.unique_items.then_some(Value::Bool(true)));
    // A list's item constraints go on its `items`, a map's on its `additionalProperties`.
    if let Some(item) = &c.item
        && let Some(items) = map.get_mut(if map.contains_key("items") { "items" } else { "additionalProperties" })
    {
        add_constraints(items, item);
    }
}

/// The error body of every failure (spec gap `error-body`).
fn error_schema() -> Value {
    json!({
        "type": "object",
        "description": "The body of every failure: `{\"error\": {\"code\", \"message\", \"violations\"?}}`.",
        "properties": {
            "error": {
                "type": "object",
                "properties": {
                    "code": {"type": "integer", "description": "The HTTP status code."},
                    "message": {"type": "string", "description": "A message for humans."},
                    "violations": {
                        "type": "array",
                        "description": "For a request that failed validation: every violation.",
                        "items": {
                            "type": "object",
                            "properties": {
                                "path": {"type": "string", "description": "JSON pointer of the offending body value, or `query.<name>` / `path.<name>` for a parameter."},
                                "message": {"type": "string", "description": "What is wrong with it."}
                            },
                            "required": ["path", "message"]
                        }
                    }
                },
                "required": ["code", "message"]
            }
        },
        "required": ["error"]
    })
}

/// The key of an operation in `paths`: its path, and for an operation selected by constants
/// the form AWS's documents use (`/#X-Amz-Target=DynamoDB_20120810.GetItem`,
/// `/#Action=DescribeInstances&Version=2016-11-15`), so operations sharing a method and path
/// keep keys of their own. A fragment never travels: the selectors are also declared as
/// required parameters of one value, which is what a judge routes and checks.
fn path_key(op: &Operation) -> String {
    if op.select.is_empty() {
        return op.path.raw.clone();
    }
    let pairs: Vec<String> = op.select.iter().map(|s| format!("{}={}", s.name, s.value)).collect();
    format!("{}#{}", op.path.raw, pairs.join("&"))
}

/// A selector as the required parameter of one value it is on the wire.
fn selector_parameter(selector: &crate::model::Selector) -> Value {
    json!({
        "name": selector.name,
        "in": selector.location.as_str(),
        "required": true,
        "schema": { "type": "string", "enum": [selector.value] },
    })
}

/// `x-select`: the operation's `select`, read back exactly by the import.
fn select_value(select: &[crate::model::Selector]) -> Value {
    let mut out = Map::new();
    for selector in select {
        let entry = out.entry(selector.location.as_str()).or_insert_with(|| json!({}));
        entry[selector.name.as_str()] = json!(selector.value);
    }
    Value::Object(out)
}

/// A Rust name the spec set (`rust_name`), for `x-rust-name`: `None` when it is the wire
/// name's own.
fn renamed(wire: &str, rust: &str) -> Option<Value> {
    (crate::model::names::sanitize(wire, crate::model::names::Case::Snake) != rust).then(|| json!(rust))
}

#[cfg(test)]
mod tests {
    use super::super::fragments::{Assembly, Unkeyed};
    use super::{Member, Part, write_part};
    use serde_json::json;

    /// Parts print what the same tree of values prints: members built as written keep their
    /// order, and a key given twice keeps its first place with its last part.
    #[test]
    fn parts_print_as_the_tree_of_values() {
        let built = std::cell::Cell::new(0);
        let members = (1..=3).map(|n| {
            built.set(built.get() + 1);
            Member {
                name: format!("m{n}"),
                key: None,
                value: Box::new(move || json!({ "n": n, "l": [n, { "x": [] }] })),
            }
        });
        let document = Part::object(vec![
            ("a".to_owned(), Part::Value(json!(1))),
            ("lazy".to_owned(), Part::members(members)),
            ("inner".to_owned(), Part::object(vec![("x".to_owned(), Part::Value(json!([true])))])),
            ("empty".to_owned(), Part::members(std::iter::empty())),
            ("none".to_owned(), Part::object(Vec::new())),
            ("a".to_owned(), Part::Value(json!("last\n\"line\""))),
        ]);
        assert_eq!(built.get(), 0, "members are built as they are written");
        let mut assembly = Assembly::new(&Unkeyed);
        write_part(&mut assembly, document, 0);
        let text = assembly.finish().text;
        assert_eq!(built.get(), 3);
        let tree = json!({
            "a": "last\n\"line\"",
            "lazy": { "m1": { "n": 1, "l": [1, { "x": [] }] }, "m2": { "n": 2, "l": [2, { "x": [] }] }, "m3": { "n": 3, "l": [3, { "x": [] }] } },
            "inner": { "x": [true] },
            "empty": {},
            "none": {},
        });
        assert_eq!(text, serde_json::to_string_pretty(&tree).unwrap());
    }
}
