//! The document's error body as `api.errors`. OpenAPI declares an error body per response, and
//! has no word for where it holds its message or status, so the import tells it:
//!
//! 1. The shared schema: the component schema (`$ref` to `#/components/schemas/...`) that is the
//!    JSON body of more than half of the document's 4xx, 5xx and `default` responses (each use
//!    by an operation counts; a response with an inline schema counts against every
//!    component), or the object schema written inline at more than half of them, copy
//!    for copy (a bundler's copies of Azure's common `ErrorResponse`, the copies under each
//!    of `components/responses`, or one repeated at each operation), declared as type
//!    `ErrorBody` from the first copy met. Copies are compared without the keywords that only
//!    document them (`description`, `title`, `example`, `examples`, `externalDocs`), so each
//!    operation's own wording of one error body does not make it several. Components alike (the same property names, the same required ones: an API
//!    declaring `BadRequestResponse`, `UnauthorizedResponse`, ... of one shape) count as one,
//!    answered as the one used most, when the fields the router writes have the same types in
//!    all of them. None: the built-in error body, gap `error-body`.
//! 2. Its media type: the one it is answered in most often (the first met of a tie); `*/*`
//!    is written `application/json`. When the schema cannot be mapped, the built-in body is
//!    answered in that media type (`api.errors: { media_type: application/problem+json }`).
//! 3. `message`: a string field named `message`, `detail`, `error_description`, `title` or
//!    `error` (in that order; names compared without case and separators) at the top of the
//!    body, else inside its `error` object (Google's and Azure's `/error/message`).
//! 4. `status`: an integer field named `status`, `code`, `status_code` or `error_code`
//!    (Opto22's required `errorCode`) beside the message; `code`: a
//!    required string field named `code`, `error`, `error_code`, `type`, `kind` or `reason`
//!    beside it, which the router fills from the status (`invalid_request`, `not_found`).
//! 5. `violations`: a list beside the message whose items are objects with a string field
//!    naming where (`path`, `field`, `pointer`, `name`, `param`, `parameter`, `location`,
//!    `target`) and
//!    one saying what (`message`, `reason`, `detail`, `description`, `error`), and no other
//!    required field.
//!
//! 6. `fill`: every other required field that is a scalar or an enumeration (RFC 9457's
//!    `type`, HubSpot's `correlationId`, Stripe's `error.type`), which the router writes with
//!    the field's sample (the document's example, its default, its first value, or one made
//!    to fit its constraints), or an object or map whose own required fields are all such
//!    (GraphQL's `extensions`, which `{}` fills).
//!
//! What lint checks of `api.errors` is checked here first: the type is an object, and the
//! generated router can fill every required field (each is named by a pointer, a pointer
//! passes through it, or it is filled). A shared schema that fails (no message, a required
//! object no pointer passes through) keeps the built-in error body, with gap
//! `error-body-no-message` or `error-body-unfillable`; one that passes is
//! `api.errors`, with gap `error-body-by-name` on its type (the pointers were told from names).

use super::built::ErrorsTold;
use super::gaps::{self, Kind};
use super::media::{json_media, status_of};
use super::schema::At;
use super::typed::Expr;
use super::walk::{field_type, is_required};
use super::{Importer, add_gaps, is_default_error_body, refs};
use indexmap::IndexMap;
use serde_json::{Map, Value, json};

/// Names of the message field, in the order one is preferred.
const MESSAGE_NAMES: &[&str] = &["message", "detail", "errordescription", "title", "error"];

/// Names of a required string code the router fills from the status.
const CODE_NAMES: &[&str] = &["code", "error", "errorcode", "type", "kind", "reason"];

/// Names of the status field, in the order one is preferred.
const STATUS_NAMES: &[&str] = &["status", "code", "statuscode", "errorcode"];

/// Names of the key of a violation saying where.
const VIOLATION_PATH_NAMES: &[&str] =
    &["path", "field", "pointer", "name", "param", "parameter", "location", "target", "source"];

/// Names of the key of a violation saying what.
const VIOLATION_MESSAGE_NAMES: &[&str] = &["message", "reason", "detail", "description", "error"];

const METHODS: &[&str] = &["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// The shared error schema: its component key, its media type, and the components alike it;
/// for a schema written inline at each response (a bundler's copies of Azure's common
/// `ErrorResponse`), the schema and where it was first met.
#[derive(Debug, Clone)]
pub(super) struct Shared {
    pub key: String,
    pub media: String,
    pub alike: Vec<String>,
    pub inline: Option<(Value, String)>,
}

/// The prefix of the key of an inline error schema (its JSON text follows).
const INLINE: &str = "#inline:";

/// The key an error response's JSON schema is counted under: the component it names
/// (`#/components/schemas/Error` gives `Error`), or for an object written inline `#inline:`
/// and its text, so that copies count together; `None` for anything else.
fn error_schema_key(schema: &Value) -> Option<String> {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let key = reference.strip_prefix("#/components/schemas/").filter(|key| !key.contains('/'))?;
            Some(key.replace("~1", "/").replace("~0", "~"))
        }
        None if schema.get("properties").is_some() => Some(format!("{INLINE}{}", essence(schema))),
        None => None,
    }
}

/// Keywords that document a schema without shaping its values: two inline copies differing
/// only in them (each operation's own `description` or `example` of one error body) are one.
const DOCUMENTING: &[&str] = &["description", "title", "example", "examples", "externalDocs"];

/// Keywords whose value is a map of names to schemas: its keys are names, never keywords.
const NAMED_SCHEMAS: &[&str] = &["properties", "patternProperties", "definitions", "$defs"];

/// Keywords whose value is data, kept as written.
const DATA: &[&str] = &["enum", "const", "default", "required"];

/// A schema without its documenting keywords, at any depth: what an inline error schema is
/// compared by.
fn essence(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(key, _)| !DOCUMENTING.contains(&key.as_str()))
                .map(|(key, value)| {
                    let value = match value {
                        Value::Object(named) if NAMED_SCHEMAS.contains(&key.as_str()) => {
                            Value::Object(named.iter().map(|(name, s)| (name.clone(), essence(s))).collect())
                        }
                        _ if DATA.contains(&key.as_str()) => value.clone(),
                        _ => essence(value),
                    };
                    (key.clone(), value)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(essence).collect()),
        other => other.clone(),
    }
}

/// A name as the rules compare it: lower case, letters and digits only.
fn normal(name: &str) -> String {
    name.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
}

impl Importer<'_> {
    /// Tells the document's error body (before its operations are built, after its types).
    pub(super) fn tell_errors(&mut self) {
        self.note_error_media();
        let Some(Shared { key, media, alike, inline }) = self.doc.errors.clone() else { return };
        let schema = match &inline {
            Some((schema, _)) => schema,
            None => &self.doc.value["components"]["schemas"][&key],
        };
        if is_default_error_body(self.doc.value, schema) {
            // The format's own error body (apigen's export): only its media type to declare.
            self.built.errors = ErrorsTold::Unmapped(media);
            return;
        }
        let (name, pointer) = match inline {
            // Declared as a type of its own, `ErrorBody`, which the operations' copies share.
            Some((schema, pointer)) => {
                let at = At { pointer: pointer.clone(), name: "ErrorBody".into(), depth: 0 };
                let typed = self.schema(&schema, &at);
                match self.complete(typed, &pointer) {
                    Expr::Named(name) => (Some(name), pointer),
                    _ => (None, pointer),
                }
            }
            None => {
                let name =
                    self.doc.components.get(&key).cloned().flatten().filter(|n| self.built.types.contains_key(n));
                (name, refs::child("#/components/schemas", &key))
            }
        };
        let node = match &name {
            Some(name) => self.errors_node(name, &media),
            None => Err(gaps::ERROR_BODY_NO_MESSAGE),
        };
        if let (Ok(node), Some(name)) = (&node, &name)
            && !alike.iter().all(|other| self.writes_alike(name, other, node))
        {
            // Alike in names, not in the types of what the router writes: shared by none, each
            // operation's error bodies told one by one (`api.errors.bodies`), gap `error-body`
            // where one cannot be.
            self.built.errors = ErrorsTold::NotShared;
            return;
        }
        let (told, kind) = match node {
            Ok(node) => (ErrorsTold::Mapped(node), gaps::ERROR_BODY_BY_NAME),
            Err(kind) => (ErrorsTold::Unmapped(media), kind),
        };
        let id = self.built.gaps.note(kind, &pointer);
        if let Some(ty) = name.and_then(|name| self.built.types.get_mut(&name)) {
            add_gaps(&mut ty.node, &[id]);
        }
        if matches!(told, ErrorsTold::Mapped(_)) {
            self.built.error_keys = std::iter::once(key).chain(alike).collect();
        }
        self.built.errors = told;
    }

    /// Notes gap `error-body-elsewhere` where a client error response (4xx, `default`) of an
    /// operation answers a JSON body other than the one `api.errors` maps: the router's own
    /// refusals of that operation are written in `api.errors` all the same.
    pub(super) fn note_error_elsewhere(&mut self, resolved: &Value, pointer: &str, op_gaps: &mut Vec<String>) {
        if self.built.error_keys.is_empty() {
            return;
        }
        let Some((_, schema)) = resolved.get("content").and_then(Value::as_object).and_then(json_media) else {
            return;
        };
        if error_schema_key(schema).is_some_and(|key| !self.built.error_keys.contains(&key)) {
            op_gaps.push(self.built.gaps.note(gaps::ERROR_BODY_ELSEWHERE, pointer));
        }
    }

    /// The type of the error body a 4xx or 5xx response of an operation answers when it is
    /// not the one `api.errors` maps (API Setu's body per status, each listing its own codes):
    /// declared once per schema as one of `api.errors.bodies` when its places can be told
    /// (the rules of `api.errors`, a message optional), so the router writes the operation's
    /// refusals of that status in it; `None` for the shared body, the format's own, or one
    /// whose places cannot be told.
    pub(super) fn other_error_body(&mut self, resolved: &Value, status: u16, pointer: &str) -> Option<String> {
        let content = resolved.get("content").and_then(Value::as_object)?;
        let (media, schema) = json_media(content)?;
        if is_default_error_body(self.doc.value, schema) {
            return None;
        }
        let key = error_schema_key(schema)?;
        if self.built.error_keys.contains(&key) {
            return None;
        }
        if let Some(told) = self.built.error_bodies.get(&key) {
            return told.as_ref().map(|(name, _)| name.clone());
        }
        let media = media.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
        let media = if media == "*/*" { "application/json".to_owned() } else { media };
        let name = match key.strip_prefix(INLINE) {
            Some(_) => {
                let pointer = refs::child(&refs::child(&refs::child(pointer, "content"), &media), "schema");
                let at = At { pointer: pointer.clone(), name: format!("ErrorBody{status}"), depth: 0 };
                let typed = self.schema(&schema.clone(), &at);
                match self.complete(typed, &pointer) {
                    Expr::Named(name) => Some(name),
                    _ => None,
                }
            }
            None => self.doc.components.get(&key).cloned().flatten().filter(|n| self.built.types.contains_key(n)),
        };
        let told = name.and_then(|name| Some((name.clone(), self.errors_node(&name, &media).ok()?)));
        if let Some((name, _)) = &told {
            // Its places were told from names, as the shared body's are.
            let id = self.built.gaps.note(gaps::ERROR_BODY_BY_NAME, pointer);
            if let Some(ty) = self.built.types.get_mut(name) {
                add_gaps(&mut ty.node, &[id]);
            }
        }
        self.built.error_bodies.insert(key, told.clone());
        told.map(|(name, _)| name)
    }

    /// Notes gap `error-media` at each error response the document gives only in a media type
    /// other than JSON (pinecone's `text/plain` 400): the router's refusals are JSON.
    fn note_error_media(&mut self) {
        let doc = self.doc;
        for pointer in &doc.error_media {
            self.built.gaps.note(gaps::ERROR_MEDIA, pointer);
        }
    }

    /// True when the component `other` gives every field `node` writes (message, status,
    /// violations) the type the type `name` gives it, so a body written as `name` is one of it.
    fn writes_alike(&self, name: &str, other: &str, node: &Map<String, Value>) -> bool {
        let Some(other) = self.doc.components.get(other).cloned().flatten() else { return false };
        ["message", "status", "violations"].iter().filter_map(|k| node.get(*k).and_then(Value::as_str)).all(|pointer| {
            let one = self.field_type_at(name, pointer);
            one.is_some() && one == self.field_type_at(&other, pointer)
        })
    }

    /// The type of the field at `pointer` (`/message`, `/error/message`) in the type `name`.
    fn field_type_at(&self, name: &str, pointer: &str) -> Option<String> {
        let mut fields = self.named_fields(name)?;
        let mut parts = pointer.trim_start_matches('/').split('/').peekable();
        while let Some(part) = parts.next() {
            let wire = part.replace("~1", "/").replace("~0", "~");
            let field = fields.get(&wire)?.as_object()?.clone();
            if parts.peek().is_none() {
                return Some(field_type(&field).to_owned());
            }
            fields = self.object_fields(&field)?;
        }
        None
    }

    /// `api.errors` for the object type `name`, when its fields say where the message is and
    /// the router can fill every required field; else the kind of gap saying why not.
    fn errors_node(&self, name: &str, media: &str) -> Result<Map<String, Value>, Kind> {
        let no_message = gaps::ERROR_BODY_NO_MESSAGE;
        let top = self.named_fields(name).ok_or(no_message)?;
        let find = |fields: &Map<String, Value>, names: &[&str], ty: &str| {
            names.iter().find_map(|wanted| {
                fields
                    .iter()
                    .find(|(wire, field)| {
                        normal(wire) == *wanted && field.as_object().is_some_and(|f| field_type(f) == ty)
                    })
                    .map(|(wire, _)| wire.clone())
            })
        };
        // The message: at the top, else inside `error`; else none (a body saying what failed
        // in its list of errors or in its codes alone).
        let inner = top.iter().find(|(wire, _)| normal(wire) == "error").and_then(|(wire, error)| {
            Some((refs::child("", wire), error.as_object().and_then(|e| self.object_fields(e))?))
        });
        let (prefix, level) = match (find(&top, MESSAGE_NAMES, "string"), inner) {
            (None, Some((prefix, inner))) if find(&inner, MESSAGE_NAMES, "string").is_some() => (prefix, inner),
            _ => (String::new(), top.clone()),
        };
        let message = find(&level, MESSAGE_NAMES, "string").map(|wire| refs::child(&prefix, &wire));
        let status = find(&level, STATUS_NAMES, "integer").map(|wire| refs::child(&prefix, &wire));
        let violations = self.violations(&level).map(|(wire, keys)| (refs::child(&prefix, &wire), keys));
        let violations = violations.or_else(|| message.is_none().then(|| self.nested_violations(&top)).flatten());
        // A required string code beside the message (Azure's `error.code`, OAuth's `error`):
        // the router fills it from the status.
        let code = level
            .iter()
            .filter(|(wire, _)| {
                Some(refs::child(&prefix, wire)) != message && CODE_NAMES.contains(&normal(wire).as_str())
            })
            .find(|(_, field)| field.as_object().is_some_and(|f| is_required(f) && field_type(f) == "string"))
            .map(|(wire, _)| refs::child(&prefix, wire));
        // Without a message, the enumerations named as a code or a message (API Setu's
        // `error` and `errorDescription`, each status its own values) are written with their
        // first value, so the body still says which failure it is.
        let mut fill = match message {
            Some(_) => Vec::new(),
            None => self.named_enumerations(&level, &prefix),
        };
        if message.is_none() && violations.is_none() && fill.is_empty() {
            return Err(no_message);
        }
        let mut filled: Vec<String> = message.iter().cloned().collect();
        filled.extend(code.clone());
        filled.extend(status.clone());
        filled.extend(violations.as_ref().map(|(p, _)| p.clone()));
        filled.extend(fill.iter().cloned());
        // Every other required field is a scalar the router writes its sample into (`fill`).
        if !self.fills_required(&top, "", &filled, &mut fill, 0) {
            return Err(gaps::ERROR_BODY_UNFILLABLE);
        }
        let mut node = Map::new();
        node.insert("type".into(), json!(name));
        node.insert("media_type".into(), json!(media));
        if let Some(status) = status {
            node.insert("status".into(), json!(status));
        }
        if let Some(message) = message {
            node.insert("message".into(), json!(message));
        }
        if let Some(code) = code {
            node.insert("code".into(), json!(code));
        }
        if let Some((violations, (path, what))) = violations {
            node.insert("violations".into(), json!(violations));
            if path != "path" || what != "message" {
                node.insert("violation".into(), json!({ "path": path, "message": what }));
            }
        }
        if !fill.is_empty() {
            node.insert("fill".into(), json!(fill));
        }
        Ok(node)
    }

    /// The list of violations among `fields`: its wire name and the keys of one violation.
    fn violations(&self, fields: &Map<String, Value>) -> Option<(String, (String, String))> {
        for (wire, field) in fields {
            let Some(field) = field.as_object() else { continue };
            let Some(inner) = field_type(field).strip_prefix("list<").and_then(|t| t.strip_suffix('>')) else {
                continue;
            };
            let item = match inner {
                "object" => field.get("fields").and_then(Value::as_object).cloned(),
                name => self.named_fields(name),
            };
            let Some(item) = item else { continue };
            let key = |names: &[&str]| {
                names.iter().find_map(|wanted| {
                    item.iter()
                        .find(|(k, f)| normal(k) == *wanted && f.as_object().is_some_and(|f| field_type(f) == "string"))
                        .map(|(k, _)| k.clone())
                })
            };
            let (Some(path), Some(what)) = (key(VIOLATION_PATH_NAMES), key(VIOLATION_MESSAGE_NAMES)) else {
                continue;
            };
            let others_optional = item
                .iter()
                .filter(|(k, _)| **k != path && **k != what)
                .all(|(_, f)| f.as_object().is_none_or(|f| !is_required(f)));
            if path != what && others_optional {
                return Some((wire.clone(), (path, what)));
            }
        }
        None
    }

    /// The list of violations one or two objects down (Mastercard's `/Errors/Error`), for a
    /// body without a message: its pointer and the keys of one violation.
    fn nested_violations(&self, fields: &Map<String, Value>) -> Option<(String, (String, String))> {
        self.nested_violations_at(fields, "", 0)
    }

    fn nested_violations_at(
        &self,
        fields: &Map<String, Value>,
        prefix: &str,
        depth: usize,
    ) -> Option<(String, (String, String))> {
        if depth > 0
            && let Some((wire, keys)) = self.violations(fields)
        {
            return Some((refs::child(prefix, &wire), keys));
        }
        if depth == 2 {
            return None;
        }
        fields.iter().find_map(|(wire, field)| {
            let inner = self.object_fields(field.as_object()?)?;
            self.nested_violations_at(&inner, &refs::child(prefix, wire), depth + 1)
        })
    }

    /// The pointers of the enumeration fields among `fields` (at `prefix`) named as a code or
    /// a message, required or not.
    fn named_enumerations(&self, fields: &Map<String, Value>, prefix: &str) -> Vec<String> {
        let named = |wire: &str| {
            let wire = normal(wire);
            CODE_NAMES.contains(&wire.as_str()) || MESSAGE_NAMES.contains(&wire.as_str())
        };
        fields
            .iter()
            .filter(|(wire, field)| named(wire) && field.as_object().is_some_and(|f| self.is_enumeration(f)))
            .map(|(wire, _)| refs::child(prefix, wire))
            .collect()
    }

    /// True when the field's values are an enumeration's.
    fn is_enumeration(&self, field: &Map<String, Value>) -> bool {
        field.contains_key("enum")
            || self.built.types.get(field_type(field)).is_some_and(|t| t.node.contains_key("enum"))
    }

    /// True when every required field of `fields` (at `prefix`) is named by a pointer of
    /// `filled`, holds one, or is a scalar the router fills with its sample (pushed on
    /// `fill`), as lint requires of an error body.
    fn fills_required(
        &self,
        fields: &Map<String, Value>,
        prefix: &str,
        filled: &[String],
        fill: &mut Vec<String>,
        depth: usize,
    ) -> bool {
        fields.iter().all(|(wire, field)| {
            let Some(field) = field.as_object() else { return true };
            if !is_required(field) {
                return true;
            }
            let pointer = refs::child(prefix, wire);
            if filled.contains(&pointer) {
                return true;
            }
            if depth < 8 && filled.iter().any(|p| p.starts_with(&format!("{pointer}/"))) {
                return self
                    .object_fields(field)
                    .is_some_and(|inner| self.fills_required(&inner, &pointer, filled, fill, depth + 1));
            }
            if self.has_sample(field) {
                fill.push(pointer);
                return true;
            }
            false
        })
    }

    /// True when lint can give the field a sample the router writes: a scalar or an
    /// enumeration, without a pattern unless the document shows a sample, or an object (a
    /// map) whose required fields all have one (`{}` fills GraphQL's `extensions`).
    fn has_sample(&self, field: &Map<String, Value>) -> bool {
        self.has_sample_at(field, 0)
    }

    fn has_sample_at(&self, field: &Map<String, Value>, depth: usize) -> bool {
        let ty = field_type(field);
        if ty.starts_with("map<") {
            return true;
        }
        if let Some(fields) = self.object_fields(field).filter(|_| depth < 8) {
            return fields
                .values()
                .filter_map(Value::as_object)
                .filter(|f| is_required(f))
                .all(|f| self.has_sample_at(f, depth + 1));
        }
        let scalar = matches!(ty, "string" | "integer" | "number" | "boolean" | "url" | "date-time");
        let enumeration = self.is_enumeration(field);
        (scalar && (!field.contains_key("pattern") || field.contains_key("sample"))) || enumeration
    }
}

/// The component key of the schema more than half of the error responses answer (with the
/// components alike it), and the media type it is answered in most often.
pub(super) fn shared_error_schema(doc: &Value) -> Option<Shared> {
    let mut uses: IndexMap<String, IndexMap<String, usize>> = IndexMap::new();
    let mut inline: IndexMap<String, (Value, String)> = IndexMap::new();
    let mut total = 0usize;
    for (_, content) in error_contents(doc) {
        let Some((media, schema)) = json_media(content) else { continue };
        total += 1;
        let Some(key) = error_schema_key(schema) else { continue };
        if key.starts_with(INLINE) {
            inline.entry(key.clone()).or_insert_with(|| (schema.clone(), String::new()));
        }
        let essence = media.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
        *uses.entry(key).or_default().entry(essence).or_default() += 1;
    }
    // Components alike are counted together, in the order first met.
    let mut groups: IndexMap<String, Vec<&String>> = IndexMap::new();
    for key in uses.keys() {
        groups.entry(likeness(doc, key)).or_default().push(key);
    }
    let count = |key: &String| uses[key].values().sum::<usize>();
    let mut best: Option<(&Vec<&String>, usize)> = None;
    for keys in groups.values() {
        let sum = keys.iter().map(|k| count(k)).sum();
        if best.is_none_or(|(_, most)| sum > most) {
            best = Some((keys, sum));
        }
    }
    let (keys, sum) = best?;
    if sum * 2 <= total {
        return None;
    }
    let mut key: Option<(&String, usize)> = None;
    let mut media: IndexMap<&String, usize> = IndexMap::new();
    for k in keys {
        if key.is_none_or(|(_, most)| count(k) > most) {
            key = Some((k, count(k)));
        }
        for (essence, n) in &uses[*k] {
            *media.entry(essence).or_default() += n;
        }
    }
    let key = key?.0.clone();
    let mut most: Option<(&String, usize)> = None;
    for (essence, n) in media {
        if most.is_none_or(|(_, m)| n > m) {
            most = Some((essence, n));
        }
    }
    let media = most.map(|(m, _)| m.clone()).filter(|m| m != "*/*").unwrap_or_else(|| "application/json".into());
    let alike = keys.iter().filter(|k| ***k != key).map(|k| (*k).clone()).collect();
    let inline = inline.swap_remove(&key).map(|(schema, _)| (schema, first_inline_error(doc, &key)));
    Some(Shared { key, media, alike, inline })
}

/// The content of every error response (4xx, 5xx, `default`) that has one, with where it
/// is (`#/paths/~1pets/get/responses/400`).
fn error_contents(doc: &Value) -> Vec<(String, &Map<String, Value>)> {
    let mut found = Vec::new();
    let paths = doc.get("paths").and_then(Value::as_object).into_iter().flatten();
    for (path, item) in paths {
        let Some(item) = refs::lookup_value(doc, item).and_then(Value::as_object) else { continue };
        for (method, op) in item.iter().filter(|(m, _)| METHODS.contains(&m.as_str())) {
            let responses = op.get("responses").and_then(Value::as_object).into_iter().flatten();
            for (code, response) in responses {
                if !(code == "default" || status_of(code).is_some_and(|s| (400..=599).contains(&s))) {
                    continue;
                }
                let Some(response) = refs::lookup_value(doc, response) else { continue };
                let Some(content) = response.get("content").and_then(Value::as_object) else { continue };
                let pointer = ["paths", path, method, "responses", code]
                    .iter()
                    .fold("#".to_owned(), |at, key| refs::child(&at, key));
                found.push((pointer, content));
            }
        }
    }
    found
}

/// Where the document gives an error response only in a media type other than JSON (gap
/// `error-media`).
pub(super) fn error_media_places(doc: &Value) -> Vec<String> {
    error_contents(doc)
        .into_iter()
        .filter(|(_, content)| !content.is_empty() && json_media(content).is_none())
        .map(|(pointer, _)| pointer)
        .collect()
}

/// Where the inline error schema of `key` is first met (for the gap's source): under a shared
/// response (`#/components/responses/BadRequest/...`) when one holds it, else at an operation.
fn first_inline_error(doc: &Value, key: &str) -> String {
    let shared = doc.pointer("/components/responses").and_then(Value::as_object).into_iter().flatten();
    let shared = shared.filter_map(|(name, response)| {
        let content = response.get("content")?.as_object()?;
        Some((refs::child("#/components/responses", name), content))
    });
    let operations = error_contents(doc);
    for (pointer, content) in shared.chain(operations) {
        let Some((media, schema)) = json_media(content) else { continue };
        if error_schema_key(schema).is_some_and(|k| k == key) {
            return refs::child(&refs::child(&refs::child(&pointer, "content"), media), "schema");
        }
    }
    "#/paths".to_owned()
}

/// What makes two error components alike: their property names and required ones (a
/// component without properties is like no other).
fn likeness(doc: &Value, key: &str) -> String {
    if key.starts_with(INLINE) {
        return key.to_owned();
    }
    let schema = &doc["components"]["schemas"][key];
    let Some(properties) = schema.get("properties").and_then(Value::as_object).filter(|p| !p.is_empty()) else {
        return format!("#{key}");
    };
    let mut names: Vec<&str> = properties.keys().map(String::as_str).collect();
    names.sort_unstable();
    let mut required: Vec<&str> =
        schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    required.sort_unstable();
    format!("{}|{}", names.join(","), required.join(","))
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_are_compared_without_case_or_separators() {
        assert_eq!(super::normal("error_description"), "errordescription");
        assert_eq!(super::normal("Message"), "message");
    }
}
