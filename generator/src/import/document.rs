//! The document as the import reads it: the JSON value, and what is told from it once, before
//! any type or operation is built, by functions that return it: which component schemas are
//! types and their names, the document's list convention, its servers, its security schemes,
//! its error convention, and (asked for when first needed) the properties its discriminators name and the
//! components some `allOf` includes. Nothing here changes while the import builds.

use super::errors::{self, Shared};
use super::names;
use super::security::{self, Auth};
use crate::model::names::Case;
use indexmap::IndexMap;
use serde_json::{Map, Value, json};
use std::cell::OnceCell;
use std::collections::BTreeSet;

/// The read-only document an import builds from.
pub(super) struct Document<'a> {
    /// The document as read.
    pub value: &'a Value,
    /// Component schema keys and the type each is (`None`: not a type of the format, expanded
    /// where used).
    pub components: IndexMap<String, Option<String>>,
    /// The type names the components took: every pass of the import starts from them.
    pub component_names: names::Taken,
    /// The list convention of an apigen export (`x-pagination`).
    pub pagination: Option<Map<String, Value>>,
    /// Whether lists' pagination is told from names ([`super::pagination`]): the document does
    /// not say its own (`x-pagination`, at its root or on an operation).
    pub tell_pages: bool,
    /// `api.servers`, as the document gives them.
    pub servers: Vec<Value>,
    /// The pointers of the servers `api.servers` cannot hold (gap `servers`).
    pub unusable_servers: Vec<String>,
    /// The document declares webhooks (gap `webhooks`).
    pub webhooks: bool,
    /// The security schemes, as `api.auth` declares them.
    pub auth: Auth,
    /// The error convention: the schema more than half of the error responses answer, and
    /// in which media type ([`super::errors`]); `None` when they share none.
    pub errors: Option<Shared>,
    /// The error responses given only in a media type other than JSON (gap `error-media`).
    pub error_media: Vec<String>,
    /// The property names the document's discriminators name, found when first needed.
    discriminator_properties: OnceCell<BTreeSet<String>>,
    /// The pointers of the components some `allOf` names, found when first needed.
    included_components: OnceCell<BTreeSet<String>>,
}

impl<'a> Document<'a> {
    /// Reads what the import tells from `value` before building anything.
    pub fn read(value: &'a Value) -> Self {
        let (components, component_names) = components(value);
        let pagination = value.get("x-pagination").and_then(Value::as_object).cloned();
        let tell_pages = pagination.is_none() && !says_pagination(value);
        let (servers, unusable_servers) = servers(value);
        Document {
            value,
            components,
            component_names,
            pagination,
            tell_pages,
            servers,
            unusable_servers,
            webhooks: value.get("webhooks").and_then(Value::as_object).is_some_and(|w| !w.is_empty()),
            auth: security::schemes(value),
            errors: errors::shared_error_schema(value),
            error_media: errors::error_media_places(value),
            discriminator_properties: OnceCell::new(),
            included_components: OnceCell::new(),
        }
    }

    /// The property names any discriminator of the document names.
    pub fn discriminators(&self) -> &BTreeSet<String> {
        self.discriminator_properties.get_or_init(|| {
            let mut found = BTreeSet::new();
            each_object(self.value, |map| {
                let name = map.get("discriminator").and_then(|d| d.get("propertyName")).and_then(Value::as_str);
                found.extend(name.map(str::to_owned));
            });
            found
        })
    }

    /// True when some `allOf` of the document names the schema at `pointer`: a base whose
    /// `required` may name what the schemas including it declare.
    pub fn is_included(&self, pointer: &str) -> bool {
        let included = self.included_components.get_or_init(|| {
            let mut found = BTreeSet::new();
            each_object(self.value, |map| {
                let parts = map.get("allOf").and_then(Value::as_array).into_iter().flatten();
                found.extend(parts.filter_map(|p| p.get("$ref")?.as_str()).map(str::to_owned));
            });
            found
        });
        included.contains(pointer)
    }
}

/// Every component schema's key and, when it is a type of the format, the type name it takes
/// (claimed before any is built, so references may point anywhere); the names taken.
fn components(doc: &Value) -> (IndexMap<String, Option<String>>, names::Taken) {
    let mut taken = names::Taken::new(Case::Pascal);
    let mut components = IndexMap::new();
    let schemas = doc.pointer("/components/schemas").and_then(Value::as_object);
    for (key, schema) in schemas.into_iter().flatten() {
        let name = is_named_type(schema).then(|| taken.claim(&names::type_name(key)));
        components.insert(key.clone(), name);
    }
    (components, taken)
}

/// The servers as `api.servers` holds them, and the pointers of those it cannot hold (`/`,
/// the document's own location, is neither).
fn servers(doc: &Value) -> (Vec<Value>, Vec<String>) {
    let mut kept = Vec::new();
    let mut unusable = Vec::new();
    let servers = doc.get("servers").and_then(Value::as_array);
    for (i, server) in servers.into_iter().flatten().enumerate() {
        match server_node(server) {
            Some(node) => kept.push(Value::Object(node)),
            None if server.get("url").and_then(Value::as_str) == Some("/") => {}
            None => unusable.push(format!("#/servers/{i}")),
        }
    }
    // A name two servers give is neither's: `api.servers` names each server once.
    let names: Vec<Value> = kept.iter().filter_map(|server| server.get("name").cloned()).collect();
    kept.iter_mut().filter_map(Value::as_object_mut).for_each(|server| {
        if server.get("name").is_some_and(|name| names.iter().filter(|n| *n == name).count() > 1) {
            server.remove("name");
        }
    });
    (kept, unusable)
}

/// A server as `api.servers` holds it: its URL, description and variables (each with a
/// default); `None` for `/` (the document's own location) or a URL without a scheme.
fn server_node(server: &Value) -> Option<Map<String, Value>> {
    let url = server.get("url")?.as_str()?.trim();
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        return None;
    }
    let mut node = Map::new();
    // OpenAPI 3.2's `name`, or `x-name` as apigen's export writes it: the client's module.
    let name = ["name", "x-name"].iter().find_map(|key| server.get(*key).and_then(Value::as_str));
    if let Some(name) = name.filter(|name| is_server_name(name)) {
        node.insert("name".into(), json!(name));
    }
    node.insert("url".into(), json!(url));
    if let Some(description) =
        server.get("description").and_then(Value::as_str).map(str::trim).filter(|d| !d.is_empty())
    {
        node.insert("description".into(), json!(description));
    }
    let mut variables = Map::new();
    for (name, variable) in server.get("variables").and_then(Value::as_object).into_iter().flatten() {
        let default = variable.get("default").and_then(Value::as_str)?;
        let mut out = Map::new();
        out.insert("default".into(), json!(default));
        if let Some(values) = variable_values(variable, default) {
            out.insert("enum".into(), json!(values));
        }
        if let Some(description) = variable.get("description").and_then(Value::as_str).map(str::trim) {
            out.insert("description".into(), json!(description));
        }
        variables.insert(name.clone(), Value::Object(out));
    }
    if !variables.is_empty() {
        node.insert("variables".into(), Value::Object(variables));
    }
    Some(node)
}

/// A server variable's `enum` as `api.servers` holds it: strings, the default among them, no
/// two giving one Rust variant; `None` (any value) for an enumeration that breaks one of these
/// (OpenAPI requires the default among the values; a document that says otherwise is read as
/// allowing any value rather than refused).
fn variable_values(variable: &Value, default: &str) -> Option<Vec<String>> {
    let values: Vec<String> =
        variable.get("enum")?.as_array()?.iter().map(|v| v.as_str().map(str::to_owned)).collect::<Option<_>>()?;
    let mut variants: Vec<String> = values.iter().map(|v| crate::model::names::sanitize(v, Case::Pascal)).collect();
    variants.sort();
    variants.dedup();
    (values.contains(&default.to_owned()) && variants.len() == values.len()).then_some(values)
}

/// True when `name` can name a server in `api.servers` (snake_case, from a letter, and not
/// `server_<n>`, the name of a server without one).
fn is_server_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && crate::model::names::sanitize(name, Case::Snake) == name
        && !name.strip_prefix("server_").is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
}

/// True when a component schema becomes a named type of the format (an object, a string
/// enumeration, a union); other schemas (scalars, lists, maps) are expanded where used.
fn is_named_type(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else { return false };
    if map.contains_key("$ref") {
        return false;
    }
    if let Some(parts) = map.get("allOf").and_then(Value::as_array) {
        let shaping = parts
            .iter()
            .filter(|p| {
                p.as_object().is_some_and(|m| {
                    m.keys().any(|k| k != "description" && k != "title" && k != "nullable" && !k.starts_with("x-"))
                })
            })
            .count();
        let own = map.contains_key("properties");
        return shaping > 1 || own || parts.first().is_some_and(|p| p.get("$ref").is_none() && is_named_type(p));
    }
    for key in ["oneOf", "anyOf"] {
        if map.get(key).is_some() && map.get("x-open-union") == Some(&Value::Bool(true)) {
            return true;
        }
        if let Some(variants) = map.get(key).and_then(Value::as_array) {
            let real: Vec<&Value> = variants
                .iter()
                .filter(|v| v.get("type") != Some(&Value::String("null".into())))
                .filter(|v| {
                    map.get("x-open-union") != Some(&Value::Bool(true))
                        || v.get("type").is_some()
                        || v.get("$ref").is_some()
                })
                .collect();
            let open_enum = real.len() == 2 && real.iter().any(|v| v.get("enum").is_some());
            let constraining = real
                .iter()
                .all(|v| v.get("type").is_none() && v.get("$ref").is_none() && v.get("properties").is_none());
            if real.len() >= 2 && open_enum {
                return true;
            }
            if real.len() >= 2 && !constraining {
                return true;
            }
            if real.len() == 1 && !constraining {
                return false;
            }
        }
    }
    let ty = map.get("type");
    let non_null_types = ty.and_then(Value::as_array).map(|a| a.iter().filter(|t| t.as_str() != Some("null")).count());
    if non_null_types.is_some_and(|n| n >= 2) {
        return true; // `type: [integer, string]`: a union.
    }
    let is = |t: &str| {
        ty == Some(&Value::String(t.into()))
            || ty.and_then(Value::as_array).is_some_and(|a| a.contains(&Value::String(t.into())))
    };
    if map
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|v| !v.is_empty() && v.iter().all(|x| x.is_string() || x.is_null()))
        && (ty.is_none() || is("string"))
    {
        return true;
    }
    // An enumeration of integers.
    if map
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|v| v.iter().any(Value::is_i64) && v.iter().all(|x| x.is_i64() || x.is_null()))
        && is("integer")
    {
        return true;
    }
    let object =
        is("object") || (ty.is_none() && (map.contains_key("properties") || map.contains_key("additionalProperties")));
    if !object {
        return false;
    }
    let has_properties = map.get("properties").and_then(Value::as_object).is_some_and(|p| !p.is_empty());
    has_properties || map.get("additionalProperties") == Some(&Value::Bool(false))
}

/// True when an operation of the document says how it pages (`x-pagination`, apigen's export).
fn says_pagination(doc: &Value) -> bool {
    let paths = doc.get("paths").and_then(Value::as_object);
    paths
        .into_iter()
        .flatten()
        .filter_map(|(_, item)| item.as_object())
        .any(|item| item.values().any(|op| op.get("x-pagination").is_some()))
}

/// Calls `visit` on every object of `doc`, at any depth.
fn each_object(doc: &Value, mut visit: impl FnMut(&Map<String, Value>)) {
    let mut pending = vec![doc];
    while let Some(value) = pending.pop() {
        match value {
            Value::Object(map) => {
                visit(map);
                pending.extend(map.values());
            }
            Value::Array(items) => pending.extend(items),
            _ => {}
        }
    }
}
